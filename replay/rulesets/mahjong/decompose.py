"""Every way to split a concealed hand into sets and a pair, from per-suit tables.

A suit's nine counts form a 9-digit key (``1112345678999`` in one suit is ``311111113``);
the splits of each key are computed once and cached, so a hand costs three dict lookups
and a small product instead of a recursive search. Honours cannot chow, so each honour
count must be 0, 2 or 3 and needs no table. All splits are returned because the best
one is the one with the highest fan, which only the fan evaluator can judge (rules §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import product

from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS, ORPHANS

#: One split of one suit: (pair tile or -1, chow starts, pung tiles), tiles absolute.
SuitSplit = tuple[int, tuple[int, ...], tuple[int, ...]]

_NO_SPLIT: tuple[SuitSplit, ...] = ()
_EMPTY: tuple[SuitSplit, ...] = ((-1, (), ()),)


class Structure(Enum):
    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thirteen_orphans"


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The concealed part of a winning hand (declared melds are kept by the caller).

    ``chows`` holds the lowest tile of each concealed chow and ``pungs`` each concealed
    pung, both sorted; ``pair`` is the pair tile, or for thirteen orphans the doubled tile.
    """

    structure: Structure
    pair: int
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()


def suit_key(counts9: Sequence[int]) -> int:
    """The 9-digit key of one suit's counts: rank 1 is the most significant digit."""
    k = 0
    for n in counts9:
        k = k * 10 + n
    return k


@cache
def suit_splits(key: int) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """All splits of one suit into chows, pungs and at most one pair, by rank 0..8.

    Recursion on the lowest remaining rank, which must start a set; duplicates (pair and
    pung of the same rank found in either order) are removed. Runs once per key.
    """
    counts = [int(d) for d in f"{key:09d}"]
    found: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()

    def walk(pair: int, chows: tuple[int, ...], pungs: tuple[int, ...]) -> None:
        i = next((r for r in range(9) if counts[r]), -1)
        if i < 0:
            found.add((pair, tuple(sorted(chows)), tuple(sorted(pungs))))
            return
        if counts[i] >= 3:
            counts[i] -= 3
            walk(pair, chows, (*pungs, i))
            counts[i] += 3
        if pair < 0 and counts[i] >= 2:
            counts[i] -= 2
            walk(i, chows, pungs)
            counts[i] += 2
        if i <= 6 and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            walk(pair, (*chows, i), pungs)
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1

    walk(-1, (), ())
    return tuple(sorted(found))


@cache
def _suit_splits_at(base: int, key: int, with_pair: bool) -> tuple[SuitSplit, ...]:
    """:func:`suit_splits` with (or without) a pair, shifted to the suit starting at ``base``."""
    return tuple(
        (p + base if p >= 0 else -1, tuple(c + base for c in cs), tuple(q + base for q in ps))
        for p, cs, ps in suit_splits(key)
        if (p >= 0) == with_pair
    )


def standard_decompositions(counts: Sequence[int]) -> tuple[Decomposition, ...]:
    """All 'sets + one pair' splits of a concealed count vector (any multiple of 3, plus 2).

    The caller checks that concealed sets plus declared melds make four sets.
    """
    pair = -1
    hpungs: list[int] = []
    for t in range(EAST, N_KINDS):
        n = counts[t]
        if n == 3:
            hpungs.append(t)
        elif n == 2:
            if pair >= 0:
                return ()
            pair = t
        elif n:
            return ()
    per_suit: list[tuple[SuitSplit, ...]] = []
    pairs_needed = 0 if pair >= 0 else 1
    c = counts
    for base in (0, 9, 18):
        n = c[base : base + 9]
        r = sum(n) % 3
        if r == 1:
            return ()
        if r == 2:
            pairs_needed -= 1
            if pairs_needed < 0:
                return ()
        key = (
            n[0] * 100000000
            + n[1] * 10000000
            + n[2] * 1000000
            + n[3] * 100000
            + n[4] * 10000
            + n[5] * 1000
            + n[6] * 100
            + n[7] * 10
            + n[8]
        )
        options = _suit_splits_at(base, key, r == 2) if key else _EMPTY
        if not options:
            return ()
        per_suit.append(options)
    if pairs_needed:
        return ()
    m, p, s = per_suit
    out: list[Decomposition] = []
    honour_pungs = tuple(hpungs)
    for a, b, d in product(m, p, s):
        out.append(
            Decomposition(
                Structure.STANDARD,
                max(pair, a[0], b[0], d[0]),
                a[1] + b[1] + d[1],
                a[2] + b[2] + d[2] + honour_pungs,
            )
        )
    return tuple(out)


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """One of each terminal and honour plus a second copy of one of them (rules §4 item 2)."""
    total = 0
    for t in ORPHANS:
        n = counts[t]
        if n == 0 or n > 2:
            return False
        total += n
    return total == 14 and sum(counts) == 14


def decompose(counts: Sequence[int], n_melds: int = 0) -> tuple[Decomposition, ...]:
    """Every §4 structure of a concealed hand (winning tile included) with ``n_melds`` declared.

    Returns () when the tile count is wrong or nothing fits. Thirteen orphans needs no
    declared set; it cannot also be a standard hand, so at most one kind is returned.
    """
    if sum(counts) != 14 - 3 * n_melds:
        return ()
    if n_melds == 0 and is_thirteen_orphans(counts):
        pair = next(t for t in ORPHANS if counts[t] == 2)
        return (Decomposition(Structure.THIRTEEN_ORPHANS, pair),)
    return standard_decompositions(counts)


def is_complete(counts: Sequence[int], n_melds: int = 0) -> bool:
    """True if the hand forms a §4 structure (cheaper than materialising every split)."""
    return bool(decompose(counts, n_melds))


def winning_tiles(
    counts: Sequence[int], n_melds: int = 0, seen: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Tile kinds that would complete a waiting hand (13 − 3·n_melds concealed tiles).

    ``seen`` (a 34-count of the player's own declared tiles) lets a kind whose four copies
    are all already in the player's hand and melds be skipped: it cannot be drawn.
    """
    c = list(counts)
    # Only a kind already held, or a suit tile within two ranks of one held, can complete a
    # set or the pair; thirteen orphans needs an orphan.
    candidates: set[int] = set(ORPHANS) if n_melds == 0 else set()
    for t in range(N_KINDS):
        if c[t]:
            if t >= EAST:
                candidates.add(t)
            else:
                r = t % 9
                candidates.update(range(t - min(r, 2), t + min(8 - r, 2) + 1))
    out: list[int] = []
    for t in sorted(candidates):
        held = c[t] + (seen[t] if seen is not None else 0)
        if held >= 4:
            continue
        c[t] += 1
        if decompose(c, n_melds):
            out.append(t)
        c[t] -= 1
    return tuple(out)
