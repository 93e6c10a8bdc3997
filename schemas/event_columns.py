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
from itertools import compress, repeat
from typing import Any, overload

import msgspec

_decode = msgspec.json.decode
_COLUMN_OF = {"type": "types", "seat": "seats", "tile": "tiles", "from": "froms", "tiles": "runs"}


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
        """Every event's ``key`` field (None where absent), without building the dicts: a
        column, with the values of the few events whose extra fields set ``key`` (a field
        only named like a column, see ``schemas.rows``) put in."""
        name = _COLUMN_OF.get(key)
        if name is None:
            return list(map(dict.get, self, repeat(key)))
        column: list[Any] = getattr(self, name)
        out: list[Any] | None = None
        quoted = f'"{key}"'  # an extra that sets `key` names it (cheap test before decoding)
        for i in compress(range(len(self.extras)), self.extras):  # events with extras
            extra = self.extras[i]
            if quoted in extra and key in (fields := _decode(extra)):
                if out is None:
                    out = list(column)
                out[i] = fields[key]  # the extra's value wins, as in _event
        return column if out is None else out


def event_field(events: Sequence[dict[str, Any]], key: str) -> list[Any]:
    """Every event's ``key`` field (None where absent), from dicts or from columns."""
    if isinstance(events, EventColumns):
        return events.field(key)
    return list(map(dict.get, events, repeat(key)))  # in C, not a per-event comprehension
