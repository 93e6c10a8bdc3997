"""Every way to split a concealed hand into sets and a pair, from per-suit tables.

A suit's nine counts form a 9-digit key (``1112345678999`` in one suit is ``311111113``);
the splits of each key are computed once and cached, so a hand costs three dict lookups
and a small product instead of a recursive search. Honours cannot chow, so each honour
count must be 0, 2 or 3 and needs no table. All splits are returned because the best
one is the one with the highest fan, which only the fan evaluator can judge (rules §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cache
from itertools import product
from typing import NamedTuple

from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS, ORPHANS

#: One split of one suit: (pair tile or -1, chow starts, pung tiles), tiles absolute.
SuitSplit = tuple[int, tuple[int, ...], tuple[int, ...]]

_NO_SPLIT: tuple[SuitSplit, ...] = ()
_EMPTY: tuple[SuitSplit, ...] = ((-1, (), ()),)


class Structure(Enum):
    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thirteen_orphans"


class Decomposition(NamedTuple):
    """The concealed part of a winning hand (declared melds are kept by the caller).

    ``chows`` holds the lowest tile of each concealed chow and ``pungs`` each concealed
    pung, both sorted; ``pair`` is the pair tile, or for thirteen orphans the doubled tile.
    A frozen value; a NamedTuple rather than a frozen dataclass because the fan evaluator
    builds one per split and a tuple is built in C (a third of the cost).
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


# (ok, pair or -1, honour pungs) of the seven honour counts: a pung or a pair each, or none.
_HonourSplit = tuple[bool, int, tuple[int, ...]]
_HONOURS: dict[tuple[int, ...], _HonourSplit] = {}
# Per suit (0 m, 1 p, 2 s): its nine counts -> (tile count mod 3, its splits with the pair
# when that is 2, without when 0; none when 1). Built on first sight of each shape.
_SUITS: tuple[dict[tuple[int, ...], tuple[int, tuple[SuitSplit, ...]]], ...] = ({}, {}, {})


def _honours(h: tuple[int, ...]) -> _HonourSplit:
    pair = -1
    pungs: list[int] = []
    for i, n in enumerate(h):
        if n == 3:
            pungs.append(EAST + i)
        elif n == 2:
            if pair >= 0:
                return (False, -1, ())
            pair = EAST + i
        elif n:
            return (False, -1, ())
    return (True, pair, tuple(pungs))


def _suit(suit: int, n: tuple[int, ...]) -> tuple[int, tuple[SuitSplit, ...]]:
    r = sum(n) % 3
    if r == 1:
        return (1, _NO_SPLIT)
    if not any(n):
        return (0, _EMPTY)
    return (r, _suit_splits_at(9 * suit, suit_key(n), r == 2))


def standard_decompositions(counts: Sequence[int]) -> tuple[Decomposition, ...]:
    """All 'sets + one pair' splits of a concealed count vector (any multiple of 3, plus 2).

    The caller checks that concealed sets plus declared melds make four sets. Each suit's
    nine counts and the seven honour counts are looked up whole in tables built once per
    shape, so a hand costs four dict lookups (a split is a frozen tuple, built in C).
    """
    c = counts if type(counts) is tuple else tuple(counts)
    key = c[EAST:N_KINDS]
    hon = _HONOURS.get(key)
    if hon is None:
        hon = _HONOURS[key] = _honours(key)
    ok, pair, honour_pungs = hon
    if not ok:
        return ()
    m_table, p_table, s_table = _SUITS
    key = c[0:9]
    if (m := m_table.get(key)) is None:
        m = m_table[key] = _suit(0, key)
    key = c[9:18]
    if (p := p_table.get(key)) is None:
        p = p_table[key] = _suit(1, key)
    key = c[18:27]
    if (s := s_table.get(key)) is None:
        s = s_table[key] = _suit(2, key)
    rm, om = m
    rp, op = p
    rs, os_ = s
    if rm == 1 or rp == 1 or rs == 1 or (pair >= 0) + (rm == 2) + (rp == 2) + (rs == 2) != 1:
        return ()
    if not (om and op and os_):
        return ()
    new = tuple.__new__
    std = Structure.STANDARD
    return tuple(
        [
            new(
                Decomposition,
                (
                    std,
                    max(pair, a[0], b[0], d[0]),
                    a[1] + b[1] + d[1],
                    a[2] + b[2] + d[2] + honour_pungs,
                ),
            )
            for a, b, d in product(om, op, os_)
        ]
    )


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
    # (every orphan must be held: two of them first, a cheap test that rejects most hands)
    if n_melds == 0 and counts[0] and counts[EAST] and is_thirteen_orphans(counts):
        pair = next(t for t in ORPHANS if counts[t] == 2)
        return (Decomposition(Structure.THIRTEEN_ORPHANS, pair),)
    return standard_decompositions(counts)


def is_complete(counts: Sequence[int], n_melds: int = 0) -> bool:
    """True if the hand forms a §4 structure (cheaper than materialising every split)."""
    return bool(decompose(counts, n_melds))


def wait_candidates(counts: Sequence[int], n_melds: int) -> list[int]:
    """The kinds that can complete a waiting hand of these 34 counts, in order: only a kind
    already held, or a suit tile within two ranks of one held, can complete a set or the
    pair; thirteen orphans (no declared set) needs an orphan."""
    candidates: set[int] = set(ORPHANS) if n_melds == 0 else set()
    for t in range(N_KINDS):
        if counts[t]:
            if t >= EAST:
                candidates.add(t)
            else:
                r = t % 9
                candidates.update(range(t - min(r, 2), t + min(8 - r, 2) + 1))
    return sorted(candidates)


def winning_tiles(
    counts: Sequence[int], n_melds: int = 0, seen: Sequence[int] | None = None
) -> tuple[int, ...]:
    """Tile kinds that would complete a waiting hand (13 − 3·n_melds concealed tiles).

    ``seen`` (a 34-count of the player's own declared tiles) lets a kind whose four copies
    are all already in the player's hand and melds be skipped: it cannot be drawn.
    """
    c = list(counts)
    out: list[int] = []
    for t in wait_candidates(c, n_melds):
        held = c[t] + (seen[t] if seen is not None else 0)
        if held >= 4:
            continue
        c[t] += 1
        if decompose(c, n_melds):
            out.append(t)
        c[t] -= 1
    return tuple(out)
