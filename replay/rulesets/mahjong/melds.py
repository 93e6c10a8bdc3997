"""Declared melds: exposed chow/pung/kong, concealed kong, added kong; and a win's source.

A meld is stored as its kind plus one tile (the lowest tile of a chow), so scoring works on
ints. Only well-formed melds can be built: an ill-formed meld in a log is a legality finding
(``INVALID_MELD``) for the replay loop, and a dead hand never reaches scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, code


class WinSource(Enum):
    """How the winning tile arrived; a heavenly hand is SELF_DRAW."""

    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROBBED_KONG = "robbed_kong"


class MeldKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed kong claimed from a discard
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"  # an exposed pung promoted with the 4th tile


_KONGS = frozenset({MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG})


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``from_seat`` is the seat whose discard was claimed (None if none).

    For an added kong ``from_seat`` is the feeder of the original pung, so the Pao and
    nine-tile rules can still see who supplied the set.
    """

    kind: MeldKind
    tile: int
    from_seat: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.tile < EAST + 7:
            raise ValueError(f"meld tile {self.tile} is not a playing tile")
        if self.kind is MeldKind.CHOW and (self.tile >= EAST or self.tile % 9 > 6):
            raise ValueError(f"no chow starts at {code(self.tile)}")
        if self.kind is MeldKind.CONCEALED_KONG and self.from_seat is not None:
            raise ValueError("a concealed kong is not claimed from anyone")

    @property
    def is_kong(self) -> bool:
        return self.kind in _KONGS

    @property
    def is_chow(self) -> bool:
        return self.kind is MeldKind.CHOW

    @property
    def is_exposed(self) -> bool:
        """Every declared set except a concealed kong is an exposed meld (rules §0)."""
        return self.kind is not MeldKind.CONCEALED_KONG

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        if self.kind is MeldKind.CHOW:
            return (t, t + 1, t + 2)
        return (t,) * (4 if self.is_kong else 3)

    def __str__(self) -> str:
        body = "".join(code(t) for t in self.tiles)
        src = f" <- {self.from_seat}" if self.from_seat is not None else ""
        return f"[{self.kind.value} {body}{src}]"


def chow(first: int, from_seat: int | None = None) -> Meld:
    return Meld(MeldKind.CHOW, first, from_seat)


def pung(t: int, from_seat: int | None = None) -> Meld:
    return Meld(MeldKind.PUNG, t, from_seat)


def kong(t: int, from_seat: int | None = None) -> Meld:
    return Meld(MeldKind.KONG, t, from_seat)


def concealed_kong(t: int) -> Meld:
    return Meld(MeldKind.CONCEALED_KONG, t, None)


def added_kong(t: int, from_seat: int | None = None) -> Meld:
    return Meld(MeldKind.ADDED_KONG, t, from_seat)
