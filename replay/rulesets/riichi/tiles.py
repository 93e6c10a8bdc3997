"""Riichi tiles as the engine counts them: 34 kinds in Tenhou's (and the ``mahjong``
package's) order, 1-9m 1-9p 1-9s E S W N P F C, and the red fives 0m 0p 0s, which are
the kind of their five (kind 4, 13, 22) and are also counted as red."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

KINDS: tuple[str, ...] = (
    *(f"{n}{s}" for s in "mps" for n in range(1, 10)),
    "E",
    "S",
    "W",
    "N",
    "P",
    "F",
    "C",
)
N_KINDS = 34
RED = {"0m": 4, "0p": 13, "0s": 22}
FIVES = frozenset(RED.values())
TILE_INDEX: Mapping[str, int] = MappingProxyType({**{c: i for i, c in enumerate(KINDS)}, **RED})
TERMINALS_HONOURS = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})
WIND_KINDS = (27, 28, 29, 30)
DRAGON_KINDS = (31, 32, 33)


def kind(code: str) -> int:
    return TILE_INDEX[code]


def is_red(code: str) -> bool:
    return code in RED


def to_136(codes: Iterable[str], red: bool = True) -> list[int]:
    """Codes as the ``mahjong`` package's 136-indexes, each copy its own: a red five is
    copy 0 of its kind (16, 52, 88, the package's red fives), the other fives copies 1-3
    (without red fives, copies 0-3)."""
    used = [0] * N_KINDS
    out = []
    for c in codes:
        k = TILE_INDEX[c]
        if c in RED and red:
            out.append(k * 4)
            continue
        copy = used[k] + (1 if red and k in FIVES else 0)
        used[k] += 1
        out.append(k * 4 + min(copy, 3))
    return out
