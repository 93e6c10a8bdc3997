"""Tiles as small ints and hands as 34-count tuples.

The engine never handles tile codes on the hot path: a tile is its index in
``schemas.tiles.MAHJONG.codes`` (0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s,
27..30 = E S W N, 31..33 = C F P, 34..41 = f1..f4 g1..g4), and a hand is a tuple of
34 counts, one per playing tile kind. Codes are converted only at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mjaudit.parts.schemas.tiles import MAHJONG, PLAYING_TILES

N_KINDS = len(PLAYING_TILES)  # 34
assert N_KINDS == 34

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33  # C, F, P
WINDS: tuple[int, ...] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: tuple[int, ...] = (RED, GREEN, WHITE)
HONOURS: tuple[int, ...] = WINDS + DRAGONS
TERMINALS: tuple[int, ...] = (0, 8, 9, 17, 18, 26)
ORPHANS: tuple[int, ...] = TERMINALS + HONOURS  # the 13 kinds of thirteen orphans
FIRST_BONUS = 34  # f1..f4 = 34..37, g1..g4 = 38..41
LAST_BONUS = 41

_CODES = MAHJONG.codes


def tile(code: str) -> int:
    """Index of one tile code (aliases accepted); raises ``UnknownTile`` for other codes."""
    return MAHJONG.index[MAHJONG.normalize(code)]


def tiles(codes: Iterable[str]) -> tuple[int, ...]:
    """Indices of several codes, e.g. ``tiles("1m 2m 3m".split())``."""
    return tuple(tile(c) for c in codes)


def parse(text: str) -> tuple[int, ...]:
    """Indices from compact text such as ``"1m2m3m E E"`` or ``"123m 55p EE"``.

    Test vectors and rules examples write hands this way; a run of digits before a suit
    letter expands to one tile per digit.
    """
    out: list[int] = []
    digits = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isdigit():
            digits += ch
        elif ch in "mps":
            if not digits:
                raise ValueError(f"suit letter {ch!r} without a number in {text!r}")
            out.extend(tile(f"{d}{ch}") for d in digits)
            digits = ""
        elif ch in "fg" and i + 1 < len(text) and text[i + 1].isdigit():
            out.append(tile(text[i : i + 2]))
            i += 1
        elif ch.isspace():
            if digits:
                raise ValueError(f"number {digits!r} without a suit in {text!r}")
        else:
            out.append(tile(ch))
        i += 1
    if digits:
        raise ValueError(f"number {digits!r} without a suit in {text!r}")
    return tuple(out)


def code(t: int) -> str:
    """Canonical code of a tile index."""
    return _CODES[t]


def codes(ts: Iterable[int]) -> tuple[str, ...]:
    """Canonical codes of tile indices."""
    return tuple(_CODES[t] for t in ts)


def to_counts(ts: Iterable[int]) -> tuple[int, ...]:
    """34-count tuple of playing tiles; bonus tiles are rejected because they never form sets."""
    c = [0] * N_KINDS
    for t in ts:
        c[t] += 1  # IndexError for a bonus tile is deliberate
    return tuple(c)


def from_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """Sorted tile indices of a count vector (inverse of :func:`to_counts`)."""
    return tuple(t for t, n in enumerate(counts) for _ in range(n))


def counts_from_codes(cs: Iterable[str]) -> tuple[int, ...]:
    """34-count tuple straight from codes."""
    return to_counts(tiles(cs))


def is_honour(t: int) -> bool:
    return t >= EAST


def is_terminal(t: int) -> bool:
    return t < EAST and t % 9 in (0, 8)


def suit_of(t: int) -> int:
    """0 = m, 1 = p, 2 = s, 3 = honours."""
    return t // 9 if t < EAST else 3


def rank_of(t: int) -> int:
    """1..9 for a suit tile."""
    return t % 9 + 1


def bonus_number(t: int) -> int:
    """The seat number 1..4 printed on a bonus tile (f1..f4, g1..g4)."""
    if not FIRST_BONUS <= t <= LAST_BONUS:
        raise ValueError(f"{t} is not a bonus tile index")
    return (t - FIRST_BONUS) % 4 + 1
