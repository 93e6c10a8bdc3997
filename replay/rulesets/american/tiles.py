"""American tile kinds: the 36 integers the matcher counts (american.md §1).

Kinds 0-26 are the suited tiles (``index // 9`` is the suit m, p, s), 27-30 the winds
E S W N, 31-33 the dragons C F P, 34 "a flower" (the eight flowers are interchangeable in
play, so ``f1``…``g4`` and ``FL`` are one kind) and 35 the joker. Log codes are those of
``schemas.tiles.AMERICAN``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mjaudit.parts.schemas.tiles import AMERICAN, BONUS_TILES, JOKER, UNKNOWN_FLOWER

N_KINDS = 36
WIND0 = 27
RED, GREEN, WHITE = 31, 32, 33
FLOWER = 34
JOKER_KIND = 35
SUIT_CHARS = ("m", "p", "s")
DRAGON_OF_SUIT = {0: RED, 1: WHITE, 2: GREEN}  # m -> C, p -> P, s -> F (NMJL colours)
FLOWER_CODES = frozenset((*BONUS_TILES, UNKNOWN_FLOWER))

_KIND: dict[str, int] = {}
for _i, _c in enumerate(AMERICAN.codes[:34]):
    _KIND[_c] = _i
for _c in FLOWER_CODES:
    _KIND[_c] = FLOWER
_KIND[JOKER] = JOKER_KIND
KIND_NAMES: tuple[str, ...] = (*AMERICAN.codes[:34], "flower", "J")

# The physical set (§1): 4 of each suited/honour kind, 8 flowers, 8 jokers = 152.
COPIES: tuple[int, ...] = (4,) * 34 + (8, 8)


def kind(code: str) -> int:
    """The matcher kind of a canonical log code (KeyError for an unknown code)."""
    return _KIND[code]


def is_known(code: object) -> bool:
    return isinstance(code, str) and code in _KIND


def counts(codes: Iterable[str]) -> list[int]:
    """Count vector (length 36) of log codes."""
    out = [0] * N_KINDS
    for c in codes:
        out[_KIND[c]] += 1
    return out


def name(k: int) -> str:
    return KIND_NAMES[k]
