"""How far a Hong Kong hand is from complete (shanten), fast enough to ask for every discard.

A bot asks "which discard keeps me closest to a win?" about a dozen times per turn, so the
answer must cost microseconds. As in :mod:`replay.decompose`, each suit's nine counts form
a 9-digit key; the Pareto-best (sets, partial sets, pair) triples of a key are computed once
and cached, and a hand combines three small tables with the honour counts.

Shanten here is the standard estimate ``8 - 2·sets - partials - pair`` (partials capped so
sets + partials ≤ 4): 0 = one tile from complete ("tenpai"), -1 = complete. It is a bot's
heuristic, never a legality judge: the engine decides whether a declared win is valid.

``keep`` filters implement plans (flush: count only one suit, plus honours for a half
flush); ``pung_shanten`` scores the all-pungs plan and ``orphans_shanten`` thirteen orphans.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from mjaudit.parts.replay.rulesets.mahjong.decompose import winning_tiles

Triple = tuple[int, int, int]  # (sets, partial sets, pair as head 0/1)
Table = tuple[Triple, ...]

_P10 = tuple(10 ** (8 - r) for r in range(9))
_ZERO: Table = ((0, 0, 0),)
EAST = 27
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def suit_key(counts: Sequence[int], base: int) -> int:
    k = 0
    for r in range(9):
        k = k * 10 + counts[base + r]
    return k


def _pareto(found: set[Triple]) -> Table:
    """Drop triples another triple beats or equals in every component (deterministic order)."""
    items = sorted(found, reverse=True)
    keep: list[Triple] = []
    for a in items:
        if not any(b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in keep):
            keep.append(a)
    return tuple(keep)


@cache
def suit_table(key: int) -> Table:
    """Pareto-best (sets, partials, pair) of one suit's counts; recursion on the lowest rank."""
    if key == 0:
        return _ZERO
    digits = f"{key:09d}"
    i = next(r for r in range(9) if digits[r] != "0")
    c = [int(d) for d in digits]
    p = _P10[i]
    found: set[Triple] = set()

    def add(sub: int, dm: int, dt: int, dp: int) -> None:
        for m, t, q in suit_table(sub):
            if q + dp <= 1:
                found.add((m + dm, t + dt, q + dp))

    add(key - p, 0, 0, 0)  # the tile is left isolated
    if c[i] >= 3:
        add(key - 3 * p, 1, 0, 0)
    if c[i] >= 2:
        add(key - 2 * p, 0, 0, 1)
        add(key - 2 * p, 0, 1, 0)
    if i <= 6 and c[i + 1] and c[i + 2]:
        add(key - p - _P10[i + 1] - _P10[i + 2], 1, 0, 0)
    if i <= 7 and c[i + 1]:
        add(key - p - _P10[i + 1], 0, 1, 0)
    if i <= 6 and c[i + 2]:
        add(key - p - _P10[i + 2], 0, 1, 0)
    return _pareto(found)


@cache
def merge(a: Table, b: Table) -> Table:
    """Pareto-best sums of two tables (at most one pair overall)."""
    found = {(x[0] + y[0], x[1] + y[1], x[2] + y[2]) for x in a for y in b if x[2] + y[2] <= 1}
    return _pareto(found)


def honour_table(counts: Sequence[int], keep_honours: bool = True) -> Table:
    """Honours cannot chow: 3+ copies are a set, 2 a pair (head or partial), 1 nothing."""
    if not keep_honours:
        return _ZERO
    sets = pairs = 0
    for t in range(EAST, 34):
        n = counts[t]
        if n >= 3:
            sets += 1
        elif n == 2:
            pairs += 1
    return _honour(sets, pairs)


@cache
def _honour(sets: int, pairs: int) -> Table:
    if pairs == 0:
        return ((sets, 0, 0),)
    return ((sets, pairs, 0), (sets, pairs - 1, 1))


def score(table: Table, declared: int) -> int:
    """Shanten of a combined table with ``declared`` melds already on the table."""
    best = 8
    for m, t, q in table:
        sets = m + declared
        if sets > 4:
            sets = 4
        room = 4 - sets
        v = 8 - 2 * sets - (t if t < room else room) - q
        if v < best:
            best = v
    return best


def shanten(
    counts: Sequence[int], declared: int, keep_suits: int = 0b111, keep_honours: bool = True
) -> int:
    """Standard-form shanten of a concealed 34-count; ``keep_suits`` bits 0/1/2 = m/p/s."""
    tm = suit_table(suit_key(counts, 0)) if keep_suits & 1 else _ZERO
    tp = suit_table(suit_key(counts, 9)) if keep_suits & 2 else _ZERO
    ts = suit_table(suit_key(counts, 18)) if keep_suits & 4 else _ZERO
    return score(merge(merge(tm, tp), merge(ts, honour_table(counts, keep_honours))), declared)


def pung_shanten(counts: Sequence[int], declared: int) -> int:
    """Shanten towards four pungs and a pair (chows ignored)."""
    sets = pairs = 0
    for n in counts[:34]:
        if n >= 3:
            sets += 1
        elif n == 2:
            pairs += 1
    sets = min(sets + declared, 4)
    need = 4 - sets
    # one pair is the head; each other pair is a partial pung
    return 2 * need - min(pairs, need + 1)


def orphans_shanten(counts: Sequence[int]) -> int:
    kinds = 0
    pair = 0
    for t in ORPHANS:
        if counts[t]:
            kinds += 1
            if counts[t] >= 2:
                pair = 1
    return 13 - kinds - pair


@lru_cache(maxsize=1 << 16)
def _waits(counts: tuple[int, ...], declared: int) -> tuple[int, ...]:
    return winning_tiles(counts, declared)


def waits(counts: Sequence[int], declared: int) -> tuple[int, ...]:
    """The tile kinds completing a waiting hand (cached: a waiting hand often stays as it is)."""
    return _waits(tuple(counts[:34]), declared)
