"""One hand's events as slices of the events table's columns, dicts built on demand.

Replaying an archive reads the events as columns. Building a dict for every event cost
more than the Hong Kong engine spent checking them (about 80 µs of a 170-event hand):
most events are plain draws and discards that the engine checks from their type, seat
and tile alone (``HKHand.run``). :class:`EventColumns` keeps those columns and builds an
event's canonical dict only when something asks for that event, so every engine that
iterates or indexes a hand's events sees exactly the dicts it saw before.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any, overload

import msgspec

_decode = msgspec.json.decode


class EventColumns(Sequence[dict[str, Any]]):
    """A hand's events: ``types``, ``seats``, ``tiles``, ``froms``, ``runs`` (the ``tiles``
    column) and ``extras`` (JSON of the other fields) are parallel lists, one per event."""

    __slots__ = ("extras", "froms", "runs", "seats", "tiles", "types")

    def __init__(
        self,
        types: list[str],
        seats: list[int | None],
        tiles: list[str | None],
        froms: list[int | None],
        runs: list[list[str] | None],
        extras: list[str | None],
    ) -> None:
        self.types, self.seats, self.tiles = types, seats, tiles
        self.froms, self.runs, self.extras = froms, runs, extras

    def __len__(self) -> int:
        return len(self.types)

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self._event(j) for j in range(*i.indices(len(self.types)))]
        if i < 0:
            i += len(self.types)
        if not 0 <= i < len(self.types):
            raise IndexError("event index out of range")
        return self._event(i)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(self._event, range(len(self.types)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventColumns, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, so unhashable like one

    def __repr__(self) -> str:
        return f"EventColumns({list(self)!r})"

    def _event(self, i: int) -> dict[str, Any]:
        """Event ``i``'s canonical dict, as ``schemas.rows.records_from_tables`` builds it."""
        ev: dict[str, Any] = {"type": self.types[i]}
        if (seat := self.seats[i]) is not None:
            ev["seat"] = seat
        if (tile := self.tiles[i]) is not None:
            ev["tile"] = tile
        if (frm := self.froms[i]) is not None:
            ev["from"] = frm
        if (run := self.runs[i]) is not None:
            ev["tiles"] = run
        if (extra := self.extras[i]) is not None:
            ev.update(_decode(extra))
        return ev

    def field(self, key: str) -> list[Any]:
        """Every event's ``key`` field (None where absent), without building the dicts
        when no event has fields outside the columns."""
        column = {"type": self.types, "seat": self.seats, "tile": self.tiles}.get(key)
        if column is None:
            column = {"from": self.froms, "tiles": self.runs}.get(key)
        if column is not None and not any(self.extras):
            return column
        return list(map(dict.get, self, repeat(key)))


def event_field(events: Sequence[dict[str, Any]], key: str) -> list[Any]:
    """Every event's ``key`` field (None where absent), from dicts or from columns."""
    if isinstance(events, EventColumns):
        return events.field(key)
    return list(map(dict.get, events, repeat(key)))  # in C, not a per-event comprehension
