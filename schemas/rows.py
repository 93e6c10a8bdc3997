"""Canonical hand records to table rows and back.

Both directions live here so they cannot drift apart: a canonical record written with
:class:`RowBuffers` and read back with :func:`records_from_tables` is equal to itself
(a property test holds this). Columns are filled as Python lists and turned into Arrow
tables once per batch, which keeps the per-event cost to a few list appends.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta, timezone
from typing import Any

import msgspec
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
from mjaudit.parts.schemas.event_columns import EventColumns
from mjaudit.parts.schemas.records import EVENT_FIELDS, ParsedRecord
from mjaudit.parts.schemas.rulesets import GAME_TERMS, RULESETS
from mjaudit.parts.schemas.tables import EVENT_COLUMNS, INGEST_TABLES

_json = msgspec.json.Encoder(order="sorted")
_RESULT_COLUMNS = ("winners", "fan", "patterns", "deltas")
_HAND_COLUMNS = frozenset(
    {
        "format",
        "game_id",
        "hand_no",
        "ruleset",
        "players",
        "dealer",
        "events",
        "options",
        "started_at",
        "venue",
        "table",
        "prevailing_wind",
        "dice",
        "wall",
        "dead_wall",
        "start_hands",
        "result",
        "sheet",
    }
)
WINDS = ("E", "S", "W", "N")
_HAND_COLUMN_INDEX = {name: i for i, name in enumerate(INGEST_TABLES["hands"].names)}


def seat_winds(
    ruleset: str, n_players: int, dealer: int, options: dict[str, Any]
) -> list[str | None]:
    """Each seat's wind: the dealer is East and the others follow in turn order.

    In ``hk-mahjongo-2p`` the two seats are ``options.two_player_seats`` (default E, W).
    Chắn has no winds.
    """
    if not GAME_TERMS[RULESETS[ruleset].game].winds:
        return [None] * n_players
    if n_players == 2:
        pair = options.get("two_player_seats", ["E", "W"])
        winds = list(pair) if isinstance(pair, list) and len(pair) == 2 else ["E", "W"]
    else:
        winds = list(WINDS[:n_players])
    return [winds[(seat - dealer) % n_players] for seat in range(n_players)]


def _dumps(value: Any) -> str:
    return _json.encode(value).decode()


_PLAIN_EVENT_KEYS = frozenset(EVENT_COLUMNS)  # an event with only these needs no `extra`
_ODD = "\x00odd"  # key under which an event keeps fields that only look like columns


def _columns_only_if_defined(ev: dict[str, Any]) -> dict[str, Any]:
    """Move unknown fields named like a column (a "seat" on an exhaustive_draw) aside,
    so the column stays typed and the field is kept in ``extra``."""
    known = EVENT_FIELDS[ev["type"]]
    odd = {k: ev[k] for k in EVENT_COLUMNS if k in ev and k not in known}
    if not odd:
        return ev
    out = {k: v for k, v in ev.items() if k not in odd}
    out[_ODD] = odd
    return out


def _event_extra(ev: dict[str, Any]) -> str | None:
    """JSON of the fields that have no column of their own, or None."""
    extra = {k: v for k, v in ev.items() if k not in EVENT_COLUMNS and k != _ODD}
    extra.update(ev.get(_ODD, {}))
    if _mixed_tiles(ev):
        extra["tiles"] = ev["tiles"]
    return _dumps(extra) if extra else None


# Only an american Charleston pass may list blind tiles ({"tile": t, "blind": true}); such a
# list does not fit the list<string> column and is kept whole in `extra` instead.
_MIXED_TILE_TYPES = frozenset({"charleston_pass"})


def _mixed_tiles(ev: dict[str, Any]) -> bool:
    return ev["type"] in _MIXED_TILE_TYPES and not all(isinstance(t, str) for t in ev["tiles"])


def _event_values(ev: dict[str, Any]) -> tuple[Any, ...]:
    """The events-table values (type, seat, tile, from_seat, tiles, extra) of a canonical
    event (odd fields, if any, already set aside by :func:`_columns_only_if_defined`)."""
    plain = ev.keys() <= _PLAIN_EVENT_KEYS and ev["type"] not in _MIXED_TILE_TYPES
    return (
        ev["type"],
        ev.get("seat"),
        ev.get("tile"),
        ev.get("from"),
        None if _mixed_tiles(ev) else ev.get("tiles"),
        None if plain else _event_extra(ev),
    )


class _EventCodes(dict[Any, int]):
    """The value row of each distinct event of strict records, keyed by the event's frozen
    struct, or by its JSON where the struct holds a list (a chow's tiles) and so is not a
    dictionary key.

    A batch holds hundreds of thousands of events but few distinct ones (a draw is a seat
    and a tile), so each event is stored as the number of its value row, found by a C-level
    lookup, and the columns are made with one ``take`` per batch. Equal events have equal
    values, so the values (`extra` too) are worked out once per distinct event, from its
    canonical dict as for any other record.
    """

    def __init__(self, values: dict[str, list[Any]], from_json: bool) -> None:
        super().__init__()
        self.values = values  # the value columns (not the buffers: no reference cycle)
        self.from_json = from_json

    def __missing__(self, key: Any) -> int:
        ev = _json_decode(key) if self.from_json else msgspec.to_builtins(key)
        code = self[key] = _add_event_value(self.values, *_event_values(ev))
        return code


def _add_event_value(
    e: dict[str, list[Any]], kind: str, seat: Any, tile: Any, frm: Any, tiles: Any, extra: Any
) -> int:
    """Append one value row to the events value columns ``e``; return its number."""
    e["type"].append(kind)
    e["seat"].append(seat)
    e["tile"].append(tile)
    e["from_seat"].append(frm)
    e["tiles"].append(tiles)
    e["extra"].append(extra)
    return len(e["type"]) - 1


_json_decode = msgspec.json.Decoder().decode
_event_json = msgspec.json.Encoder().encode  # the struct's field order, as to_builtins


class RowBuffers:
    """Column lists for every ingest table, filled record by record.

    The hands table is kept as row tuples (:meth:`hand_column` reads a column). The events
    table is kept as value rows (``columns["events"]``, without the key and
    ``event_index`` columns) and, per event, the number of its value row (``event_rows``);
    the events of strict records share value rows (see :class:`_EventCodes`).
    """

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema}
            for name, schema in INGEST_TABLES.items()
            if name != "hands"
        }
        self.hand_rows: list[tuple[Any, ...]] = []  # one tuple per hand: fewer calls per record
        self.event_rows = array("q")
        self._event_codes = _EventCodes(self.columns["events"], from_json=False)
        self._event_codes_by_json = _EventCodes(self.columns["events"], from_json=True)
        self.n_hands = 0
        self.n_quarantined = 0
        self.raw_bytes = 0

    def add(
        self, parsed: ParsedRecord, source_file: str, source_line: int, source_kind: str = "log"
    ) -> None:
        if parsed.struct is not None and not parsed.odd_event_fields:
            self._add_strict(parsed, source_file, source_line, source_kind)
            return
        rec = parsed.record
        key = (rec["game_id"], rec["hand_no"])
        players: list[str] = rec["players"]
        n = len(players)
        options = rec.get("options", {})
        started = rec.get("started_at")
        when = offset = None
        if started is not None:
            when = datetime.fromisoformat(started)
            delta = when.utcoffset()
            offset = int(delta.total_seconds() // 60) if delta is not None else None
        result = rec.get("result")
        extra = {k: v for k, v in rec.items() if k not in _HAND_COLUMNS}
        result_extra = (
            {k: v for k, v in result.items() if k not in _RESULT_COLUMNS} if result else None
        )

        self.hand_rows.append(
            (  # in the order of the hands table's columns
                key[0],  # game_id
                key[1],  # hand_no
                rec["ruleset"],  # ruleset
                parsed.shape.game.value,  # game
                source_kind,  # source_kind
                _dumps(options),  # options
                when,  # started_at
                offset,  # utc_offset_minutes
                rec.get("venue"),  # venue
                rec.get("table"),  # table
                n,  # n_players
                rec["dealer"],  # dealer
                rec.get("prevailing_wind"),  # prevailing_wind
                rec.get("dice"),  # dice
                rec.get("wall"),  # wall
                rec.get("dead_wall"),  # dead_wall
                rec.get("start_hands"),  # start_hands
                len(rec["events"]),  # n_events
                result is not None,  # has_result
                _dumps(result_extra) if result_extra else None,  # result_extra
                _dumps(extra) if extra else None,  # extra
                _dumps(rec["sheet"]) if "sheet" in rec else None,  # sheet
                source_file,  # source_file
                source_line,  # source_line
                parsed.content_hash,  # content_hash
            )
        )

        s = self.columns["seats"]
        winds = seat_winds(rec["ruleset"], n, rec["dealer"], options)
        s["game_id"].extend([key[0]] * n)
        s["hand_no"].extend([key[1]] * n)
        s["seat"].extend(range(n))
        s["player"].extend(players)
        s["seat_wind"].extend(winds)

        e = self.columns["events"]
        events = rec["events"]
        if parsed.odd_event_fields:
            events = [_columns_only_if_defined(ev) for ev in events]
        # Records off the fast path (aliases, unknown fields) are rare: one value row each.
        self.event_rows.extend([_add_event_value(e, *_event_values(ev)) for ev in events])

        if result is not None:
            r = self.columns["recorded_results"]
            winners = set(result.get("winners", ()))
            deltas = result.get("deltas") or [None] * n
            r["game_id"].extend([key[0]] * n)
            r["hand_no"].extend([key[1]] * n)
            r["seat"].extend(range(n))
            r["player"].extend(players)
            r["delta"].extend(deltas)
            r["is_winner"].extend(seat in winners for seat in range(n))
            r["fan"].extend([result.get("fan")] * n)
            r["patterns"].extend([result.get("patterns")] * n)
        self.n_hands += 1

    def _add_strict(
        self, parsed: ParsedRecord, source_file: str, source_line: int, source_kind: str
    ) -> None:
        """:meth:`add` for a record of the fast path, read from its strict struct: the same
        rows as from its canonical dict, without building that dict or a Python loop per
        event."""
        rec: Any = parsed.struct
        key = (rec.game_id, rec.hand_no)
        players: list[str] = rec.players
        n = len(players)
        options = rec.options
        when = rec.started_at
        offset = None
        if when is not None:
            delta = when.utcoffset()
            offset = int(delta.total_seconds() // 60) if delta is not None else None
        result = rec.result
        events = rec.events
        # A strict record has no unknown fields, so `extra` is None; of the result, only
        # non-empty penalties are not in a column of their own.
        self.hand_rows.append(
            (  # in the order of the hands table's columns
                key[0],  # game_id
                key[1],  # hand_no
                rec.ruleset,  # ruleset
                parsed.shape.game.value,  # game
                source_kind,  # source_kind
                _dumps(options),  # options
                when,  # started_at
                offset,  # utc_offset_minutes
                rec.venue,  # venue
                rec.table,  # table
                n,  # n_players
                rec.dealer,  # dealer
                rec.prevailing_wind,  # prevailing_wind
                rec.dice,  # dice
                rec.wall,  # wall
                rec.dead_wall,  # dead_wall
                rec.start_hands,  # start_hands
                len(events),  # n_events
                result is not None,  # has_result
                _dumps({"penalties": result.penalties})
                if result is not None and result.penalties
                else None,  # result_extra
                None,  # extra
                _dumps(rec.sheet) if rec.sheet is not None else None,  # sheet
                source_file,  # source_file
                source_line,  # source_line
                parsed.content_hash,  # content_hash
            )
        )

        s = self.columns["seats"]
        s["game_id"].extend([key[0]] * n)
        s["hand_no"].extend([key[1]] * n)
        s["seat"].extend(range(n))
        s["player"].extend(players)
        s["seat_wind"].extend(seat_winds(rec.ruleset, n, rec.dealer, options))

        try:  # the list first, so that a failure part way adds nothing
            rows = list(map(self._event_codes.__getitem__, events))
        except TypeError:  # some event holds a list (e.g. a chow's tiles): not hashable
            rows = list(map(self._event_codes_by_json.__getitem__, map(_event_json, events)))
        self.event_rows.extend(rows)

        if result is not None:
            r = self.columns["recorded_results"]
            winners = set(result.winners)
            r["game_id"].extend([key[0]] * n)
            r["hand_no"].extend([key[1]] * n)
            r["seat"].extend(range(n))
            r["player"].extend(players)
            r["delta"].extend(result.deltas or [None] * n)
            r["is_winner"].extend(seat in winners for seat in range(n))
            r["fan"].extend([result.fan] * n)
            r["patterns"].extend([result.patterns] * n)
        self.n_hands += 1

    def quarantine(
        self,
        source_file: str,
        source_line: int,
        code: str,
        field: str | None,
        message: str,
        raw: bytes,
        raw_hash: str,
        key: tuple[str, int] | None = None,
    ) -> None:
        q = self.columns["quarantine"]
        for col, value in (
            ("source_file", source_file),
            ("source_line", source_line),
            ("code", code),
            ("field", field),
            ("message", message),
            ("game_id", key[0] if key else None),
            ("hand_no", key[1] if key else None),
            ("raw", raw),
            ("raw_hash", raw_hash),
        ):
            q[col].append(value)
        self.n_quarantined += 1

    def __len__(self) -> int:
        return self.n_hands + self.n_quarantined

    def hand_column(self, name: str) -> list[Any]:
        """One column of the hands buffered so far."""
        i = _HAND_COLUMN_INDEX[name]
        return [row[i] for row in self.hand_rows]

    def to_tables(self) -> dict[str, pa.Table]:
        schema = INGEST_TABLES["hands"]
        hand_columns = zip(*self.hand_rows, strict=True) if self.hand_rows else ([] for _ in schema)
        tables = {"hands": pa.Table.from_arrays(
            [pa.array(col, type=f.type) for col, f in zip(hand_columns, schema, strict=True)],
            schema=schema,
        )}  # fmt: skip
        for name, cols in self.columns.items():
            if name != "events":
                tables[name] = pa.Table.from_pydict(cols, schema=INGEST_TABLES[name])
        tables["events"] = self._events_table(tables["hands"])
        return {name: tables[name] for name in INGEST_TABLES}

    def _events_table(self, hands: pa.Table) -> pa.Table:
        """The events table: value rows taken by each event's row number, and each event's
        game_id, hand_no and event_index made from the hands' ``n_events``, in bulk."""
        counts = hands.column("n_events").to_numpy().astype(np.int64)
        hand_of_row = np.repeat(np.arange(len(counts)), counts)
        first_row = np.cumsum(counts) - counts
        event_index = np.arange(int(counts.sum()), dtype=np.int64) - first_row[hand_of_row]
        schema = INGEST_TABLES["events"]
        values = self.columns["events"]
        rows = np.frombuffer(self.event_rows, dtype=np.int64)
        arrays = []
        for f in schema:
            if f.name in ("game_id", "hand_no"):
                arrays.append(hands.column(f.name).take(hand_of_row))
            elif f.name == "event_index":
                arrays.append(pa.array(event_index.astype(np.int32)))
            else:
                arrays.append(pa.array(values[f.name], type=f.type).take(rows))
        return pa.Table.from_arrays(arrays, schema=schema)


def records_from_tables(
    tables: Mapping[str, pa.Table | pl.DataFrame], lazy_events: bool = False
) -> Iterator[dict[str, Any]]:
    """Rebuild canonical hand records from ingest tables (the inverse of :class:`RowBuffers`),
    given as Arrow tables or polars frames (the replay reads polars frames: no conversion).

    With ``lazy_events`` a record's ``events`` is an :class:`EventColumns` (equal to the
    list of dicts, each dict built when asked for): the archive replay's input.
    """
    frames = {name: _frame(table) for name, table in tables.items()}
    hands = frames["hands"]
    players = _per_hand(frames["seats"], pl.col("player"))
    results = _per_hand(
        frames["recorded_results"],
        pl.col("seat").filter(pl.col("is_winner")).alias("winners"),
        pl.col("fan").first(),
        pl.col("patterns").first(),
        pl.col("delta"),
    )
    events_by_key = _events_by_hand(frames["events"], hands)
    # Column by column (a list per column costs a quarter of a dict per row), only the
    # columns a record is made of.
    cols = {
        name: _interned(hands[name]) if name in _TILE_LISTS else _values(hands[name])
        for name in _RECORD_COLUMNS
        if name in hands.columns
    }
    for i in range(hands.height):
        h = {name: col[i] for name, col in cols.items()}
        key = (h["game_id"], h["hand_no"])
        rec: dict[str, Any] = {"format": "mjlog/1", "game_id": key[0], "hand_no": key[1]}
        rec["ruleset"] = h["ruleset"]
        rec["players"] = players[key][0] if key in players else []
        rec["dealer"] = h["dealer"]
        events = events_by_key.get(key)
        if events is None:
            rec["events"] = []
        else:
            rec["events"] = events if lazy_events else list(events)
        options = msgspec.json.decode(h["options"])
        if options:
            rec["options"] = options
        if h["started_at"] is not None:
            tz = timezone(timedelta(minutes=h["utc_offset_minutes"] or 0))
            rec["started_at"] = msgspec.to_builtins(h["started_at"].astimezone(tz))
        for col in (
            "venue",
            "table",
            "prevailing_wind",
            "dice",
            "wall",
            "dead_wall",
            "start_hands",
        ):
            if h[col] is not None:
                rec[col] = h[col]
        if h["has_result"]:
            winners, fan, patterns, deltas = results.get(key, ([], None, None, [None]))
            result: dict[str, Any] = {}
            if winners:
                result["winners"] = winners
            if fan is not None:
                result["fan"] = fan
            if patterns is not None:
                result["patterns"] = patterns
            if deltas and deltas[0] is not None:
                result["deltas"] = deltas
            if h["result_extra"] is not None:
                result.update(msgspec.json.decode(h["result_extra"]))
            rec["result"] = result
        if h.get("sheet") is not None:
            rec["sheet"] = msgspec.json.decode(h["sheet"])
        if h["extra"] is not None:
            rec.update(msgspec.json.decode(h["extra"]))
        yield rec


def _frame(table: pa.Table | pl.DataFrame) -> pl.DataFrame:
    if isinstance(table, pl.DataFrame):
        return table
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _values(column: pl.Series) -> list[Any]:
    """The column as a Python list; a list column of mostly nulls (an event's ``tiles``)
    converts only its non-null values."""
    if column.dtype == pl.List and column.null_count() > len(column) // 2:
        out: list[Any] = [None] * len(column)
        where = column.is_not_null().arg_true()
        for i, value in zip(where.to_list(), column.gather(where).to_list(), strict=True):
            out[i] = value
        return out
    return column.to_list()


def _interned(column: pl.Series) -> list[Any]:
    """A string column of few distinct values (event types, tile codes), or a list column
    of them (a wall, the start hands), as Python lists holding one interned ``str`` per
    value: ``to_list`` makes a new object per string, which the replay then compares,
    hashes and frees one by one (196 -> 173 µs a hand in one process, half the page
    faults). The explicit rechunk is measured: faster than ``to_arrow`` of many chunks."""
    return _interned_array(column.rechunk().to_arrow())


def _interned_array(array: pa.Array) -> list[Any]:
    if pa.types.is_null(array.type):  # a column of nulls only, built without a type
        return [None] * len(array)
    if pa.types.is_list(array.type) or pa.types.is_large_list(array.type):
        values = _interned_array(array.flatten())  # without null lists' values
        lengths = pc.fill_null(pc.list_value_length(array), 0).to_numpy()
        ends = np.cumsum(lengths).tolist()
        out = [values[end - n : end] for n, end in zip(lengths.tolist(), ends, strict=True)]
        if array.null_count:
            for i in np.flatnonzero(array.is_null().to_numpy(zero_copy_only=False)).tolist():
                out[i] = None
        return out
    encoded = pc.dictionary_encode(array)
    if len(encoded.dictionary) > 1024:  # not codes: no gain
        return array.to_pylist()
    table = np.array([*map(sys.intern, encoded.dictionary.to_pylist()), None], dtype=object)
    return table[pc.fill_null(encoded.indices, len(encoded.dictionary)).to_numpy()].tolist()


# The hands columns of tile codes.
_TILE_LISTS = frozenset({"wall", "dead_wall", "start_hands"})
# The hands columns a record is rebuilt from.
_RECORD_COLUMNS = (
    "game_id",
    "hand_no",
    "ruleset",
    "dealer",
    "options",
    "started_at",
    "utc_offset_minutes",
    "venue",
    "table",
    "prevailing_wind",
    "dice",
    "wall",
    "dead_wall",
    "start_hands",
    "has_result",
    "result_extra",
    "sheet",
    "extra",
)


def _per_hand(rows: pl.DataFrame, *values: pl.Expr) -> dict[tuple[str, int], tuple[Any, ...]]:
    """``values`` aggregated over each hand's rows in seat order, by hand key (a group by
    in polars instead of a dict per row)."""
    grouped = (
        rows.sort("game_id", "hand_no", "seat")
        .group_by("game_id", "hand_no", maintain_order=True)
        .agg(*values)
    )
    keys = zip(grouped["game_id"].to_list(), grouped["hand_no"].to_list(), strict=True)
    columns = [_values(grouped[c]) for c in grouped.columns[2:]]
    return dict(zip(keys, zip(*columns, strict=True), strict=True))


def _events_by_hand(
    events: pl.DataFrame, hands: pl.DataFrame
) -> dict[tuple[str, int], EventColumns]:
    """Each hand's events as columns, in event order (the replay's hot path when it reads
    an archive: no per-row Arrow conversion, no dict per event).

    Ingest writes each hand's events together, in order, and in the order of the hands
    rows; when the tables are so (checked on the event indexes and the keys where each
    hand's events start), each hand's rows are cut by its ``n_events`` without comparing
    keys row by row.
    """
    cut = _cut_by_hands(events, hands)
    if cut is not None:
        return cut
    keys = events.select("game_id", "hand_no", "event_index")
    starts_at = (pl.col("game_id") != pl.col("game_id").shift()) | (
        pl.col("hand_no") != pl.col("hand_no").shift()
    )
    starts = keys.with_row_index("_row").filter(starts_at.fill_null(True))
    in_order = (
        starts.height == starts.select("game_id", "hand_no").n_unique()
        and starts["event_index"].eq(0).all()
        and keys.select(
            (pl.col("event_index").diff().fill_null(1) == 1) | starts_at.fill_null(True)
        )
        .to_series()
        .all()
    )
    if not in_order:
        events = events.sort("game_id", "hand_no", "event_index")
        keys = events.select("game_id", "hand_no")
        starts = keys.with_row_index("_row").filter(starts_at.fill_null(True))
    return _slices(events, starts["game_id"], starts["hand_no"], starts["_row"].to_list())


def _cut_by_hands(
    events: pl.DataFrame, hands: pl.DataFrame
) -> dict[tuple[str, int], EventColumns] | None:
    """The hands' events cut by ``n_events``, or None if the events do not follow the
    hands (then :func:`_events_by_hand` groups them by key)."""
    if "n_events" not in hands.columns or hands.select("game_id", "hand_no").is_duplicated().any():
        return None
    counts = hands["n_events"].fill_null(-1).to_numpy().astype(np.int64)
    if (counts < 0).any() or int(counts.sum()) != events.height:
        return None
    starts = np.cumsum(counts) - counts
    within = np.arange(events.height, dtype=np.int64) - np.repeat(starts, counts)
    if not np.array_equal(events["event_index"].to_numpy(), within):
        return None
    if not np.array_equal(
        events["hand_no"].to_numpy(), np.repeat(hands["hand_no"].to_numpy(), counts)
    ):
        return None
    some = counts > 0
    first = pl.Series(starts[some])
    mask = pl.Series(some)
    game_ids, hand_nos = hands["game_id"].filter(mask), hands["hand_no"].filter(mask)
    if not (
        events["game_id"].gather(first).equals(game_ids, check_names=False)
        and events["hand_no"].gather(first).equals(hand_nos, check_names=False)
    ):
        return None
    return _slices(events, game_ids, hand_nos, starts[some].tolist())


def _slices(
    events: pl.DataFrame, game_ids: pl.Series, hand_nos: pl.Series, starts: list[int]
) -> dict[tuple[str, int], EventColumns]:
    """EventColumns per hand, hand k's events being rows starts[k] up to starts[k + 1]."""
    cols = [
        _interned(events[c]) if c in ("type", "tile") else _values(events[c])
        for c in ("type", "seat", "tile", "from_seat", "tiles", "extra")
    ]
    bounds = [*starts, events.height]
    out: dict[tuple[str, int], EventColumns] = {}
    for game_id, hand_no, a, b in zip(
        game_ids.to_list(), hand_nos.to_list(), bounds, bounds[1:], strict=False
    ):
        out[(game_id, hand_no)] = EventColumns(*(col[a:b] for col in cols))
    return out
