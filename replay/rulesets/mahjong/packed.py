"""A hand as one int of 4-bit counts, read a group (suit or honours) at a time from tables.

Kind ``t`` counts in bits ``4t .. 4t+3``, so a hand's key is the sum of its tiles'
:data:`WEIGHT`, summed in C, and each suit's nine counts (``key >> 36·s & FIELD``) or the
seven honour counts (``key >> HONOUR_SHIFT``) are one small int: the key of a table built
once per shape, holding the group's splits, whether it holds the pair, and the facts fan
patterns read. A hand then costs four dict lookups instead of a loop over 34 counts.
Each count must stay below 16: callers check the hand's size (at most 14 tiles) first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple, TypeVar

from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS, ORPHANS, RED
from mjaudit.parts.replay.rulesets.mahjong.decompose import (
    SuitSplit,
    _honours,
    _suit_splits_at,
    suit_key,
)

#: Kind -> its unit in a packed key.
WEIGHT: tuple[int, ...] = tuple(1 << 4 * t for t in range(N_KINDS))
FIELD = (1 << 36) - 1  # one suit's nine counts
HONOUR_SHIFT = 4 * EAST
#: A group that cannot be split into sets (and at most one pair) counts this many pairs,
#: so a sum of the four groups' pairs is 1 exactly when the hand is a standard win.
BAD = 9
#: Added to a group's ``code`` when it splits more than one way: the sum of the four codes
#: is 1 for a standard win of one decomposition, and 1 modulo 16 for any standard win.
MANY = 16
#: Packed key of a thirteen-orphans hand -> its doubled tile.
THIRTEEN_ORPHANS: dict[int, int] = {sum(WEIGHT[t] for t in ORPHANS) + WEIGHT[x]: x for x in ORPHANS}
_EMPTY: tuple[SuitSplit, ...] = ((-1, (), ()),)
# Tile facts of a group, OR-ed over the groups and the declared sets of a hand: bit s when
# suit s (3: honours) has a tile, and the bits below.
TILE_SIMPLES = 1 << 4  # a suit tile of rank 2-8
DRAGONS_AT = 5  # bit DRAGONS_AT + i: dragon RED + i held three or four times
WINDS_AT = 8  # bit WINDS_AT + i: wind EAST + i held three or four times
PAIR_AT = 12  # HonourGroup.facts_and_pair: the pair tile + 1 from this bit (0: no pair)

#: The field of 1112345678999 (nine gates before its last tile).
PURE_NINE_GATES = sum(n << 4 * r for r, n in enumerate((3, 1, 1, 1, 1, 1, 1, 1, 3)))


class SuitGroup(NamedTuple):
    """One suit's counts: its splits (with the pair when its size is 2 mod 3)."""

    code: int  # its pairs (0, 1 or BAD), + MANY if it has several splits
    splits: tuple[SuitSplit, ...]
    facts: int  # tile facts: its suit bit if it has a tile, TILE_SIMPLES
    nine_gates: bool  # 1112345678999 plus one more
    # its split when it has one, whole (-1, (), () when it has none or several)
    pair: int
    chows: tuple[int, ...]
    pungs: tuple[int, ...]

    @property
    def pairs(self) -> int:
        return self.code % MANY


class HonourGroup(NamedTuple):
    """The seven honour counts: each a pung, the pair or none (honours form no chow)."""

    code: int  # its pairs: 0, 1 or BAD (honours split one way at most)
    pair: int  # the pair tile, or -1
    pungs: tuple[int, ...]
    facts: int  # tile facts: bit 3 if it has a tile, its dragon and wind pungs
    facts_and_pair: int  # facts | (pair + 1) << PAIR_AT

    @property
    def pairs(self) -> int:
        return self.code


def unpack(field: int, n: int) -> list[int]:
    """The ``n`` counts of one field, lowest kind first."""
    return [field >> 4 * i & 15 for i in range(n)]


K = TypeVar("K")
V = TypeVar("V")


class Table(dict[K, V]):
    """A dict that builds a missing entry with ``build`` (and keeps it while it holds fewer
    than ``size``): ``table[key]`` costs one lookup on a hot path, no ``.get`` call and no
    test of its result."""

    def __init__(self, build: Callable[[K], V], size: int = 1 << 16) -> None:
        super().__init__()
        self.build = build
        self.size = size

    def __missing__(self, key: K) -> V:
        value = self.build(key)
        if len(self) < self.size:
            self[key] = value
        return value


def _suit_entry(suit: int, field: int) -> SuitGroup:
    c = unpack(field, 9)
    n = sum(c)
    r = n % 3
    if r == 1:
        pairs, splits = BAD, ()
    elif not n:
        pairs, splits = 0, _EMPTY
    else:
        splits = _suit_splits_at(9 * suit, suit_key(c), r == 2)
        pairs = (r == 2) if splits else BAD
    nine = c[0] >= 3 and c[8] >= 3 and all(c[1:8])
    facts = ((1 << suit) if n else 0) | (TILE_SIMPLES if any(c[1:8]) else 0)
    one = splits[0] if len(splits) == 1 else (-1, (), ())
    code = int(pairs) + (MANY if len(splits) > 1 else 0)
    return SuitGroup(code, splits, facts, nine, *one)


def _honour_entry(field: int) -> HonourGroup:
    c = unpack(field, 7)
    ok, pair, pungs = _honours(tuple(c))
    facts = 8 if any(c) else 0
    for i, n in enumerate(c):
        if n >= 3:
            facts |= 1 << (WINDS_AT + i if i < RED - EAST else DRAGONS_AT + i - (RED - EAST))
    code = BAD if not ok else int(pair >= 0)
    return HonourGroup(code, pair, pungs, facts, facts | (pair + 1) << PAIR_AT)


#: Per suit (0 m, 1 p, 2 s): its field -> its entry; and the honour field -> its entry.
#: Built on first sight of each shape.
SUIT_GROUPS: tuple[Table[int, SuitGroup], ...] = tuple(
    Table(partial(_suit_entry, suit)) for suit in range(3)
)
HONOUR_GROUPS: Table[int, HonourGroup] = Table(_honour_entry)


def suit_group(suit: int, field: int) -> SuitGroup:
    """The table entry of suit ``suit`` (0 m, 1 p, 2 s) holding ``field``."""
    return SUIT_GROUPS[suit][field]


def honour_group(field: int) -> HonourGroup:
    """The table entry of the honour counts ``field``."""
    return HONOUR_GROUPS[field]


def _completions_entry(group: int, field: int) -> tuple[int, int]:
    # (kinds completing it with the pair, kinds completing it into sets only): indexed by
    # how many pairs the other groups hold
    sets = pair = 0
    for i in range(9 if group < 3 else 7):
        if field >> 4 * i & 15 >= 4:
            continue  # there is no fifth copy
        f = field + (1 << 4 * i)
        pairs = suit_group(group, f).pairs if group < 3 else honour_group(f).pairs
        if pairs == 0:
            sets |= 1 << i
        elif pairs == 1:
            pair |= 1 << i
    return pair, sets


_COMPLETIONS: tuple[Table[int, tuple[int, int]], ...] = tuple(
    Table(partial(_completions_entry, group)) for group in range(4)
)
_NOT_ORPHANS = sum(15 << 4 * t for t in range(N_KINDS) if t not in ORPHANS)


def completions(group: int, field: int) -> tuple[int, int]:
    """Kinds of group ``group`` (0-2 suits, 3 honours; bit i: its i-th kind), held fewer than
    four times, whose one more copy turns ``field`` into sets and the pair, and into sets
    only; built once per shape."""
    return _COMPLETIONS[group][field]


def waits(key: int, n_melds: int) -> int:
    """Bit t set: one more tile of kind t completes the waiting hand ``key`` (13 − 3·n_melds
    tiles) into a standard hand or, with nothing declared, thirteen orphans.

    A tile completes one group; the others must already be sets with the one pair among
    them, or sets only when the completed group takes the pair.
    """
    fm, fp, fs, fh = key & FIELD, key >> 36 & FIELD, key >> 72 & FIELD, key >> HONOUR_SHIFT
    m, p, s = SUIT_GROUPS
    pm, pp, ps, ph = m[fm][0] % MANY, p[fp][0] % MANY, s[fs][0] % MANY, HONOUR_GROUPS[fh][0]
    total = pm + pp + ps + ph
    out = 0
    if total - pm <= 1:
        out |= _COMPLETIONS[0][fm][total - pm]
    if total - pp <= 1:
        out |= _COMPLETIONS[1][fp][total - pp] << 9
    if total - ps <= 1:
        out |= _COMPLETIONS[2][fs][total - ps] << 18
    if total - ph <= 1:
        out |= _COMPLETIONS[3][fh][total - ph] << 27
    if n_melds == 0 and not key & _NOT_ORPHANS:
        for x in ORPHANS:
            if key + WEIGHT[x] in THIRTEEN_ORPHANS:
                out |= 1 << x
    return out
