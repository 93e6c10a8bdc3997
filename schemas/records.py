"""Parse one raw hand record: validate it, normalise its tiles, give its canonical form.

The canonical form is what every consumer agrees on: the record as plain JSON values with
tile aliases resolved, defaults omitted, winners sorted, and unknown fields kept where they
were. Its sorted-key JSON encoding is hashed to give the content hash, so the same hand
written with other whitespace, key order or tile aliases is recognised as the same hand.

Errors are :class:`RecordError` values with a stable ``code``, the JSON path of the field
and a sentence saying what was expected; ingest adds the file and line.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC
from enum import StrEnum
from typing import Any

import msgspec
from mjaudit.parts.schemas.mjlog import (
    EVENT_TYPES,
    FORMAT,
    Event,
    HandRecord,
    Penalty,
    Result,
    Seat,
    Tile,
)
from mjaudit.parts.schemas.rulesets import RULESET_IDS, RULESETS, RulesetShape
from mjaudit.parts.schemas.strict import Header, strict_record_type
from mjaudit.parts.schemas.tiles import TileSet, UnknownTile


class ErrorCode(StrEnum):
    """Why a record was quarantined. Stable: users filter on these."""

    BAD_JSON = "BAD_JSON"
    BAD_ENCODING = "BAD_ENCODING"
    NOT_AN_OBJECT = "NOT_AN_OBJECT"
    MISSING_FIELD = "MISSING_FIELD"
    WRONG_TYPE = "WRONG_TYPE"
    INVALID_VALUE = "INVALID_VALUE"
    UNKNOWN_FORMAT = "UNKNOWN_FORMAT"
    UNKNOWN_RULESET = "UNKNOWN_RULESET"
    UNKNOWN_EVENT = "UNKNOWN_EVENT"
    UNKNOWN_TILE = "UNKNOWN_TILE"
    DUPLICATE_KEY_CONFLICT = "DUPLICATE_KEY_CONFLICT"
    FILE_TRUNCATED = "FILE_TRUNCATED"
    RECORD_TOO_LARGE = "RECORD_TOO_LARGE"
    # riichi logs read by their own importers (ingest/tenhou_xml.py, tenhou_json.py, mjai.py)
    BAD_XML = "BAD_XML"
    BAD_TENHOU_JSON = "BAD_TENHOU_JSON"
    BAD_MJAI = "BAD_MJAI"


@dataclass(frozen=True)
class RecordError(Exception):
    code: ErrorCode
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ParsedRecord:
    """A valid record: its canonical form, content hash and ruleset shape.

    Records taken by the fast path also keep the strict struct they were decoded into
    (``struct``); the table writer reads it directly, so their canonical dict is only
    built when ``record`` is asked for, and their content hash only when
    ``content_hash`` is (``mjaudit check`` never asks: encoding the record for it was a
    fifth of parsing one).
    """

    __slots__ = ("_hash", "_record", "odd_event_fields", "shape", "struct")

    def __init__(
        self,
        record: dict[str, Any] | None,
        content_hash: str | None,
        shape: RulesetShape,
        odd_event_fields: bool = False,
        *,
        struct: msgspec.Struct | None = None,
    ) -> None:
        self._record = record
        self._hash = content_hash  # None: taken from ``struct`` when asked for
        self.shape = shape
        # Some event carries an unknown field named like an events column (e.g. a "seat"
        # on an exhaustive_draw): the table writer must then keep it in `extra`, not the
        # column.
        self.odd_event_fields = odd_event_fields
        self.struct = struct

    @property
    def record(self) -> dict[str, Any]:
        """The canonical form (plain JSON values)."""
        if self._record is None:
            self._record = msgspec.to_builtins(self.struct)
        return self._record

    @property
    def content_hash(self) -> str:
        """The hash of the canonical form's sorted-key JSON (:func:`content_hash`)."""
        if self._hash is None:
            # Encoding the struct gives the bytes of encoding its builtins form (fields
            # sorted by their JSON names, defaults omitted alike), without building it.
            self._hash = content_hash(self.struct)
        return self._hash

    @property
    def key(self) -> tuple[str, int]:
        """(game_id, hand_no), read off the struct where there is one: the canonical
        dict is not built for it."""
        struct = self.struct
        if struct is not None:
            return struct.game_id, struct.hand_no  # type: ignore[attr-defined]
        return self.record["game_id"], self.record["hand_no"]

    def _fields(self) -> tuple[Any, ...]:
        return self.record, self.content_hash, self.shape, self.odd_event_fields

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ParsedRecord) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ParsedRecord({self.key}, {self.content_hash!r}, {self.shape.id!r})"


def _fields(struct: type[msgspec.Struct]) -> frozenset[str]:
    info = msgspec.inspect.type_info(struct)
    return frozenset(f.encode_name for f in info.fields)  # type: ignore[attr-defined]


RECORD_FIELDS = _fields(HandRecord)
RESULT_FIELDS = _fields(Result)
PENALTY_FIELDS = _fields(Penalty)
EVENT_FIELDS: dict[str, frozenset[str]] = {
    t.__struct_config__.tag: _fields(t) | {"type"}  # type: ignore[attr-defined]
    for t in Event.__args__  # type: ignore[attr-defined]
}

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.S)
_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]*)`")


_SEAT_PATH = re.compile(
    r"(\.seat|\.from|\.to|\.target|\.accused|\.partner|\.dealer|\.winners\[\d+\])$"
)


def _expected(path: str, msg: str, obj: dict[str, Any]) -> str | None:
    """What a field should have held, where msgspec's message does not say it plainly."""
    if _SEAT_PATH.search(path) and msg.startswith("Expected `int` "):
        players = obj.get("players")
        n = len(players) if isinstance(players, list) and players else 4
        return f"0-{n - 1} (a seat index into players)"
    if path.endswith("prevailing_wind"):
        return "one of E, S, W, N"
    if "RFC3339" in msg:
        return "an ISO 8601 timestamp with a UTC offset, e.g. 2026-03-01T19:30:00+07:00"
    is_tile_field = "tile" in path.rsplit(".", 1)[-1] or (path.endswith("]") and "wall" in path)
    if is_tile_field and not msg.startswith("Expected `array`"):
        return "a tile code such as 5p, E or f1"
    return None


def _from_validation_error(exc: msgspec.ValidationError, obj: dict[str, Any]) -> RecordError:
    """Turn msgspec's message into a code, a field path and a readable sentence."""
    m = _AT.match(str(exc))
    assert m is not None
    msg, path = m["msg"], m["path"] or "$"
    if missing := _MISSING.match(msg):
        full = f"{path}.{missing['field']}"
        return RecordError(ErrorCode.MISSING_FIELD, full, "required field is missing")
    if path == "$.ruleset":
        return RecordError(
            ErrorCode.UNKNOWN_RULESET, path, f"{msg}; expected one of {', '.join(RULESET_IDS)}"
        )
    if path == "$.format":
        return RecordError(ErrorCode.UNKNOWN_FORMAT, path, f"{msg}; expected {FORMAT!r}")
    expected = _expected(path, msg, obj)
    if expected:
        msg = f"{msg}; expected {expected}"
    if path.endswith(".type") and msg.startswith("Invalid value"):
        return RecordError(
            ErrorCode.UNKNOWN_EVENT,
            path,
            f"{msg}; expected one of {', '.join(EVENT_TYPES)}",
        )
    if msg.startswith("Expected `") and ", got `" in msg:
        return RecordError(ErrorCode.WRONG_TYPE, path, msg)
    return RecordError(ErrorCode.INVALID_VALUE, path, msg)


def _decode_error(exc: msgspec.DecodeError) -> RecordError:
    text = str(exc)
    if "UTF-8" in text:
        return RecordError(ErrorCode.BAD_ENCODING, "$", f"{text}; expected UTF-8 text")
    return RecordError(ErrorCode.BAD_JSON, "$", f"not valid JSON ({text})")


_decoder = msgspec.json.Decoder()
_JSON_NAMES = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}
_encoder = msgspec.json.Encoder(order="sorted")


def parse_record(raw: bytes) -> ParsedRecord:
    """Validate one JSON-encoded hand record; raise :class:`RecordError` if it is bad."""
    fast = _parse_strict(raw)
    if fast is not None:
        return fast
    try:
        obj = _decoder.decode(raw)
    except msgspec.DecodeError as exc:
        raise _decode_error(exc) from None
    return parse_object(obj)


_header_decoder = msgspec.json.Decoder(Header)
_strict_decoders: dict[tuple[str, int], msgspec.json.Decoder] = {}
# The strict decoder the last record took: a file's records are mostly of one ruleset and
# table size, so trying it first saves decoding a header (a tenth of parsing a record).
_last_strict: list[tuple[tuple[str, ...], int, msgspec.json.Decoder]] = []


def _parse_strict(raw: bytes) -> ParsedRecord | None:
    """The fast path: canonical tiles, no unknown fields, seats checked in C (see
    :mod:`schemas.strict`). None means "take the general path", which also explains
    whatever made this one give up."""
    rec = _strict_guess(raw)
    if rec is None:
        try:
            head = _header_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        shape = RULESETS.get(head.ruleset)
        n = len(head.players)
        if shape is None or not shape.min_players <= n <= shape.max_players:
            return None
        key = (shape.id, n)
        decoder = _strict_decoders.get(key)
        if decoder is None:
            decoder = _strict_decoders[key] = msgspec.json.Decoder(
                strict_record_type(shape.tiles, n)
            )
        try:
            rec = decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None
        _last_strict[:] = [(shape.tiles.codes, n, decoder)]
    else:
        shape = RULESETS[rec.ruleset]  # type: ignore[attr-defined]
    _check_shape(rec, shape)  # type: ignore[arg-type]
    result = rec.result  # type: ignore[attr-defined]
    if result is not None and result.winners != sorted(result.winners):
        winners = sorted(result.winners)
        rec = msgspec.structs.replace(rec, result=msgspec.structs.replace(result, winners=winners))
    return ParsedRecord(None, None, shape, struct=rec)


def _strict_guess(raw: bytes) -> msgspec.Struct | None:
    """``raw`` decoded by the last record's strict decoder, when that is the one its own
    header would choose (the same type: one per tile family and table size); else None."""
    if not _last_strict:
        return None
    codes, size, decoder = _last_strict[0]
    try:
        rec = decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    shape = RULESETS.get(rec.ruleset)  # type: ignore[attr-defined]
    n = len(rec.players)  # type: ignore[attr-defined]
    if (
        shape is None
        or not shape.min_players <= n <= shape.max_players
        or n != size
        or shape.tiles.codes is not codes
    ):
        return None
    return rec


def parse_object(obj: Any) -> ParsedRecord:
    """Validate an already-decoded JSON value as a hand record."""
    if not isinstance(obj, dict):
        kind = _JSON_NAMES.get(type(obj), type(obj).__name__)
        raise RecordError(ErrorCode.NOT_AN_OBJECT, "$", f"expected a JSON object, got {kind}")
    try:
        struct = msgspec.convert(obj, HandRecord)
    except msgspec.ValidationError as exc:
        raise _from_validation_error(exc, obj) from None
    shape = RULESETS[struct.ruleset]
    _check_shape(struct, shape)
    record, odd = _canonical(obj, struct, shape.tiles)
    return ParsedRecord(record, content_hash(record), shape, odd)


def _check_shape(rec: HandRecord, shape: RulesetShape) -> None:
    """The invariants msgspec cannot state: counts and seat numbers against the players."""
    n = len(rec.players)
    if not shape.min_players <= n <= shape.max_players:
        want = (
            f"{shape.min_players}"
            if shape.min_players == shape.max_players
            else f"{shape.min_players}-{shape.max_players}"
        )
        raise RecordError(
            ErrorCode.INVALID_VALUE, "$.players", f"{rec.ruleset} needs {want} players, got {n}"
        )

    def seat(value: int | None, path: str) -> None:
        if value is not None and value >= n:
            raise _bad_seat(value, n, path)

    seat(rec.dealer, "$.dealer")
    if shape.needs_prevailing_wind and rec.prevailing_wind is None:
        raise RecordError(
            ErrorCode.MISSING_FIELD,
            "$.prevailing_wind",
            f"required for {rec.ruleset}: expected one of E, S, W, N",
        )
    if rec.started_at is not None:
        if rec.started_at.utcoffset() is None:
            raise RecordError(
                ErrorCode.INVALID_VALUE,
                "$.started_at",
                "timestamp has no UTC offset: expected e.g. 2026-03-01T19:30:00+07:00",
            )
        try:
            rec.started_at.astimezone(UTC)
        except OverflowError:
            raise RecordError(
                ErrorCode.INVALID_VALUE,
                "$.started_at",
                "timestamp is out of range in UTC: expected a year from 0001 to 9999",
            ) from None
    if rec.start_hands is not None and len(rec.start_hands) != n:
        raise RecordError(
            ErrorCode.INVALID_VALUE,
            "$.start_hands",
            f"expected one hand per player ({n}), got {len(rec.start_hands)}",
        )
    res = rec.result
    if res is not None:
        for i, w in enumerate(res.winners):
            seat(w, f"$.result.winners[{i}]")
        if len(set(res.winners)) != len(res.winners):
            raise RecordError(ErrorCode.INVALID_VALUE, "$.result.winners", "a seat is listed twice")
        if res.deltas is not None and len(res.deltas) != n:
            raise RecordError(
                ErrorCode.INVALID_VALUE,
                "$.result.deltas",
                f"expected one delta per player ({n}), got {len(res.deltas)}",
            )
        for i, p in enumerate(res.penalties):
            seat(p.seat, f"$.result.penalties[{i}].seat")
            if p.deltas is not None and len(p.deltas) != n:
                raise RecordError(
                    ErrorCode.INVALID_VALUE,
                    f"$.result.penalties[{i}].deltas",
                    f"expected one delta per player ({n}), got {len(p.deltas)}",
                )


def _tile(tiles: TileSet, code: str, path: str) -> str:
    try:
        return tiles.normalize(code)
    except UnknownTile as exc:
        raise RecordError(ErrorCode.UNKNOWN_TILE, path, str(exc)) from None


def _tile_list(tiles: TileSet, codes: list[str], path: str) -> list[str]:
    if tiles.canonical.issuperset(codes):  # the common case, at C speed
        return codes
    return [_tile(tiles, c, f"{path}[{i}]") for i, c in enumerate(codes)]


def _tile_items(tiles: TileSet, items: list[Any], path: str) -> list[Any]:
    """A ``tiles`` list; an american blind pass may hold ``{"tile": t, "blind": true}``."""
    if all(isinstance(t, str) for t in items):
        return _tile_list(tiles, items, path)
    out: list[Any] = []
    for k, t in enumerate(items):
        if isinstance(t, str):
            out.append(_tile(tiles, t, f"{path}[{k}]"))
        else:
            out.append({**t, "tile": _tile(tiles, t["tile"], f"{path}[{k}].tile")})
    return out


# Event fields that name a seat (checked against the number of players).
_SEAT_FIELDS = ("seat", "from", "to", "target", "accused", "partner")


def _bad_seat(value: int, n: int, path: str) -> RecordError:
    return RecordError(
        ErrorCode.INVALID_VALUE, path, f"seat {value} does not exist: expected 0-{n - 1}"
    )


def _keep_unknown(out: dict[str, Any], raw: dict[str, Any], known: frozenset[str]) -> None:
    for k, v in raw.items():
        if k not in known:
            out[k] = v


_COLUMN_NAMES = frozenset({"seat", "tile", "from", "tiles"})

# Fields the vocabulary defines for seats and tiles hold a seat or tiles on every event
# that carries them, also where that event's type does not define them (a ``tiles`` run on
# a ``draw``): the engines read these names off any event, so an undefined one is checked
# at ingest like a defined one (same messages) rather than tripping the replay. Other
# unknown fields are kept as they are, and so is a null (it reads as absent); ``announce``
# keeps all of its further fields (their meaning depends on ``what``, so the engine that
# reads one checks it).
_UNDEFINED_FIELD_TYPES: dict[str, Any] = {
    "seat": Seat,
    "from": Seat,
    "to": Seat,
    "target": Seat,
    "accused": Seat,
    "partner": Seat,
    "tile": Tile,
    "tiles": list[Tile],
    "with": Tile | list[Tile],
}
_OPEN_EVENTS = frozenset({"announce"})


def _undefined_fields(
    ev: dict[str, Any], raw_ev: dict[str, Any], known: frozenset[str], i: int, obj: dict[str, Any]
) -> None:
    """Check the fields of ``raw_ev`` its type does not define but the engines read (see
    above) and take them into ``ev``, to be normalised like defined ones; ``_canonical``
    takes the other unknown fields in as they are after its checks."""
    if ev["type"] in _OPEN_EVENTS:
        return
    for k, v in raw_ev.items():
        if v is None or k in known or k not in _UNDEFINED_FIELD_TYPES:
            continue
        try:
            ev[k] = msgspec.convert(v, _UNDEFINED_FIELD_TYPES[k])
        except msgspec.ValidationError as exc:
            path = f"$.events[{i}].{k}"
            msg = str(exc).split(" - at `", 1)[0]
            where = msgspec.ValidationError(f"{msg} - at `{path}{_suffix(str(exc))}`")
            raise _from_validation_error(where, obj) from None


def _suffix(message: str) -> str:
    """The part of msgspec's path below the value itself (``[0]`` of ``$[0]``)."""
    m = _AT.match(message)
    path = (m["path"] if m else None) or "$"
    return path[1:]


def _canonical(obj: dict[str, Any], rec: HandRecord, tiles: TileSet) -> tuple[dict[str, Any], bool]:
    out: dict[str, Any] = msgspec.to_builtins(rec)
    _keep_unknown(out, obj, RECORD_FIELDS)
    for key in ("wall", "dead_wall"):
        if key in out:
            out[key] = _tile_list(tiles, out[key], f"$.{key}")
    if "start_hands" in out:
        out["start_hands"] = [
            _tile_list(tiles, h, f"$.start_hands[{i}]") for i, h in enumerate(out["start_hands"])
        ]
    # One pass over the events does the per-event checks; this loop is the hot path.
    raw_events = obj["events"]
    odd = False
    canonical = tiles.canonical
    n = len(out["players"])
    for i, ev in enumerate(out["events"]):
        raw_ev = raw_events[i]
        unknown = len(raw_ev) > len(ev)  # fields of its own, beyond the defined ones
        if unknown:
            known = EVENT_FIELDS[ev["type"]]
            odd = odd or any(k in _COLUMN_NAMES and k not in known for k in raw_ev)
            _undefined_fields(ev, raw_ev, known, i, obj)
        tile = ev.get("tile")
        if tile is not None and tile not in canonical:
            ev["tile"] = _tile(tiles, tile, f"$.events[{i}].tile")
        if "tiles" in ev:
            ev["tiles"] = _tile_items(tiles, ev["tiles"], f"$.events[{i}].tiles")
        if "with" in ev:
            w = ev["with"]
            path = f"$.events[{i}].with"
            ev["with"] = _tile(tiles, w, path) if isinstance(w, str) else _tile_list(tiles, w, path)
        for key in _SEAT_FIELDS:
            seat = ev.get(key)
            if seat is not None and seat >= n:
                raise _bad_seat(seat, n, f"$.events[{i}].{key}")
        if unknown:
            for k, v in raw_ev.items():
                if k not in ev and k not in known:
                    ev[k] = v
    if "result" in out:
        res, raw_res = out["result"], obj["result"]
        _keep_unknown(res, raw_res, RESULT_FIELDS)
        if "winners" in res:
            res["winners"] = sorted(res["winners"])
        for pen, raw_pen in zip(
            res.get("penalties", ()), raw_res.get("penalties", ()), strict=True
        ):
            _keep_unknown(pen, raw_pen, PENALTY_FIELDS)
    return out, odd


def content_hash(record: dict[str, Any] | msgspec.Struct) -> str:
    """The content hash: blake2b-128 of the canonical form's sorted-key JSON."""
    return hashlib.blake2b(_encoder.encode(record), digest_size=16).hexdigest()


def canonical_json(record: dict[str, Any]) -> bytes:
    """Sorted-key JSON of a canonical record: the bytes the content hash is taken over."""
    return _encoder.encode(record)
