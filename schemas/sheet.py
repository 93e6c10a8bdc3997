"""The Hong Kong club score sheet: one game line as data, and its settlement.

A sheet records results only: per game, each of the four players' entries (a winner's
fan, ``-`` blameless, ``d`` discarded the winning tile, ``D`` discarded it and guarantees,
``S``/``g`` guaranteed a self-drawn win, ``f`` false win) under the options in force (base
``B``, maximum fan ``M``, responsibility ``R``, rise ``S``). The arithmetic is part of the
sheet format, so it lives here beside the format and both the sheet reader and the
results-only replay use this one definition.

portion(fan) = B x multiplier(fan); multiplier for rise ``half``: 2^fan up to 4 fan, then
24 32 48 64 96 128 192 256 384 for 5-13 (even fan 2n gives 2^(n+2), odd fan 1.5 x the even
fan below); for ``spicy``: 2^fan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from msgspec import Meta, Struct

ENTRY = re.compile(r"^(?:\d+|-|d|D|S|g|f)$")
BLAMES = frozenset({"d", "D", "S", "g", "f"})
MAX_FAN = 64  # the largest maximum fan (M) a sheet may set
MAX_BASE = 1_000_000.0  # the largest base points (B)
OUT_OF_RANGE = "SHEET_NUMBER_OUT_OF_RANGE"


class SheetLine(Struct, frozen=True, omit_defaults=True):
    """A results-only hand as a club score sheet records it (ruleset ``hk-sheet``)."""

    entries: Annotated[list[str], Meta(min_length=4, max_length=4, description="one per seat")]
    base: Annotated[float, Meta(gt=0, le=MAX_BASE)] = 1.0
    max_fan: Annotated[int, Meta(ge=0, le=MAX_FAN)] = 13
    responsibility: Literal["half", "full"] = "full"
    rise: Literal["half", "spicy"] = "half"


class SheetError(ValueError):
    """A game line that breaks the sheet's rules; ``code`` is the quarantine code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def shown(token: str, limit: int = 24) -> str:
    """``token`` quoted for a message, shortened: a line may hold a token of any length."""
    return repr(token) if len(token) <= limit else f"{token[:limit]!r}... ({len(token)} chars)"


def check_bounds(base: float, max_fan: int) -> None:
    """Raise ``SHEET_NUMBER_OUT_OF_RANGE`` unless base and maximum are within the bounds.

    ``not 0 < base <= MAX_BASE`` also refuses NaN and infinity."""
    if not 0 < base <= MAX_BASE:
        raise SheetError(
            OUT_OF_RANGE,
            f"the base B={base!r} is out of range: expected above 0, at most {MAX_BASE:g}",
        )
    if not 0 <= max_fan <= MAX_FAN:
        value = str(max_fan) if abs(max_fan) < 10**18 else "(a huge number)"  # str() may raise
        raise SheetError(
            OUT_OF_RANGE, f"the maximum M={value} is out of range: expected 0 to {MAX_FAN}"
        )


def fan_of(token: str, max_fan: int) -> int:
    """A winner's fan entry as a number, refused above ``max_fan`` before ``int()`` sees a
    token of any length (``int`` of thousands of digits raises, and is slow long before)."""
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(max_fan)) or int(digits) > max_fan:
        raise SheetError(
            "SHEET_FAN_ABOVE_MAX",
            f"the winner's {token if len(token) <= 6 else shown(token)} fan is above the "
            f"maximum M={max_fan}",
        )
    return int(digits)


def multiplier(fan: int, rise: str) -> int:
    if rise == "spicy" or fan <= 4:
        return 1 << fan
    if fan % 2 == 0:
        return 1 << (fan // 2 + 2)
    return 3 * (1 << ((fan - 1) // 2 + 1))


@dataclass(frozen=True)
class SheetOutcome:
    winner: int | None
    fan: int | None
    self_drawn: bool
    discarder: int | None  # d or D
    liable: int | None  # the player who pays alone: D, S/g, or d under R=full
    false_win: int | None  # the seat that wrote f
    deltas: tuple[float, ...]


def settle(line: SheetLine) -> SheetOutcome:
    """Validate one game line and settle it; raise :class:`SheetError` if it is invalid."""
    check_bounds(line.base, line.max_fan)
    e = line.entries
    for token in e:
        if not ENTRY.match(token):
            raise SheetError(
                "SHEET_BAD_ENTRY",
                f"{shown(token)} is not an entry: expected a fan number, -, d, D, S, g or f",
            )
    winners = [s for s, t in enumerate(e) if t.isdigit()]
    blamed = [s for s, t in enumerate(e) if t in BLAMES]
    if len(winners) > 1:
        raise SheetError("SHEET_TWO_WINNERS", f"two winners (seats {winners[0]} and {winners[1]})")
    if len(blamed) > 1:
        raise SheetError(
            "SHEET_TWO_BLAMED", f"two blamed players ({e[blamed[0]]!r} and {e[blamed[1]]!r})"
        )
    base = line.base
    deltas = [0.0] * 4
    if not winners:
        if not blamed:
            return SheetOutcome(None, None, False, None, None, None, tuple(deltas))
        b = blamed[0]
        if e[b] != "f":
            raise SheetError(
                "SHEET_BLAME_WITHOUT_WINNER", f"{e[b]!r} blames a player but nobody won"
            )
        each = 3 * base * multiplier(line.max_fan, line.rise)
        deltas = [each] * 4
        deltas[b] = -3 * each
        return SheetOutcome(None, None, False, None, None, b, tuple(deltas))
    w = winners[0]
    fan = fan_of(e[w], line.max_fan)
    portion = base * multiplier(fan, line.rise)
    blame = e[blamed[0]] if blamed else None
    if blame == "f":
        raise SheetError("SHEET_FALSE_WIN_WITH_WINNER", "'f' (false win) on a line with a winner")
    if blame == "D" and line.responsibility == "full":
        raise SheetError(
            "SHEET_REDUNDANT_GUARANTEE",
            "'D' under R=full is redundant: the discarder already pays alone; write 'd'",
        )
    if blame is None:  # self-drawn, no blame: the winner gets 3 portions, 1 from each
        deltas = [-portion] * 4
        deltas[w] = 3 * portion
        return SheetOutcome(w, fan, True, None, None, None, tuple(deltas))
    b = blamed[0]
    if blame in ("S", "g"):  # guaranteed a self-drawn win: pays the 3 portions alone
        deltas[b], deltas[w] = -3 * portion, 3 * portion
        return SheetOutcome(w, fan, True, None, b, None, tuple(deltas))
    if blame == "d" and line.responsibility == "half":
        deltas = [-portion / 2] * 4
        deltas[b], deltas[w] = -portion, 2 * portion
        return SheetOutcome(w, fan, False, b, None, None, tuple(deltas))
    # d under R=full, or D: the discarder pays 2 portions alone
    deltas[b], deltas[w] = -2 * portion, 2 * portion
    return SheetOutcome(w, fan, False, b, b, None, tuple(deltas))
