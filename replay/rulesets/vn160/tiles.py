"""``vn-160`` tiles as ints (rules §1): the 34 playing kinds, 16 flowers and the khung.

Indices are positions in :data:`schemas.tiles.VN160` ``.codes``, so the first 34 are the
playing kinds of :mod:`replay.counts` (``decompose`` works on them unchanged); then
f1-f4 g1-g4 k1-k4 q1-q4 (34..49), then the khung set 1 (50..57: BT BP BS BM RH RU RD RW)
and the extra sets 2 and 3 (58..73, option ``khung_sets``).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from mjaudit.parts.schemas.tiles import VN160

INDEX = VN160.index
CODES = VN160.codes
N_TILES = len(CODES)  # 74
N_KINDS = 34
FIRST_FLOWER = 34
FIRST_KHUNG = 50
assert CODES[FIRST_KHUNG] == "BT" and N_TILES == 74

#: The number printed on each khung (§1.2: the order of the seed's frame lists [D]).
KHUNG_NUMBER = {"BT": 1, "BP": 2, "BS": 3, "BM": 4, "RH": 1, "RU": 2, "RD": 3, "RW": 4}
_KHUNG_BASES = ("BT", "BP", "BS", "BM", "RH", "RU", "RD", "RW")


def is_flower(t: int) -> bool:
    """f1-f4, g1-g4, k1-k4, q1-q4 (not RH, which is a khung)."""
    return FIRST_FLOWER <= t < FIRST_KHUNG


def is_khung(t: int) -> bool:
    return t >= FIRST_KHUNG


def is_bonus(t: int) -> bool:
    """Flowers and khung (§0 "Bonus tiles")."""
    return t >= FIRST_FLOWER


def flower_set(t: int) -> int:
    """0 = f (plum…), 1 = g (seasons), 2 = k, 3 = q."""
    return (t - FIRST_FLOWER) // 4


def flower_number(t: int) -> int:
    """The seat number 1..4 printed on a flower."""
    return (t - FIRST_FLOWER) % 4 + 1


def khung_base(t: int) -> str:
    """``BT2`` -> ``BT``: the khung kind without its set suffix."""
    return _KHUNG_BASES[(t - FIRST_KHUNG) % 8]


def khung_set(t: int) -> int:
    """1, 2 or 3: which khung set the tile belongs to (§1.2 "Extra khung sets")."""
    return (t - FIRST_KHUNG) // 8 + 1


def khung_number(t: int) -> int:
    return KHUNG_NUMBER[khung_base(t)]


def is_blue(t: int) -> bool:
    return khung_base(t).startswith("B")


def is_rh(t: int) -> bool:
    return is_khung(t) and khung_base(t) == "RH"


@cache
def tile_limits(khung_sets: int) -> tuple[int, ...]:
    """Copies of each tile index in the set (§1.1, §1.2); 0 for a khung set not in play."""
    return tuple(
        4 if t < N_KINDS else 1 if t < FIRST_KHUNG or khung_set(t) <= khung_sets else 0
        for t in range(N_TILES)
    )


def full_set(khung_sets: int) -> Counter[int]:
    """The whole wall as a multiset: 160, 168 or 176 tiles."""
    return Counter({t: n for t, n in enumerate(tile_limits(khung_sets)) if n})
