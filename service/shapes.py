"""What a table posts, validated by the log format's own parser (ingest's messages).

A header is a ``mjlog/1`` record without its events; an event is validated as the record
of that header holding it, so its errors name the field as ingest would
(``$.events[37].tile: ...``) with ingest's error code. Everything returned is the
canonical form (tile aliases resolved), which is what the journal keeps and the engine
replays.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from mjaudit.parts.schemas.records import ErrorCode, RecordError, parse_object, parse_record

# Fields a header must not carry: they come later, through their own calls.
LATER = {
    "events": "events are posted to /hands/{id}/events, one or a few at a time",
    "result": "the recorded result is posted with /hands/{id}/end",
}
_EVENT_PATH = re.compile(r"^\$\.events\[(\d+)\]")


class ShapeError(Exception):
    """A post the log format refuses: the ingest error, and the HTTP status it gets."""

    def __init__(self, error: RecordError, status: int = 422) -> None:
        super().__init__(str(error))
        self.error, self.status = error, status

    def to_json(self) -> dict[str, Any]:
        e = self.error
        return {"error": str(e.code), "path": e.path or None, "message": str(e)}


def decode(raw: bytes) -> Any:
    """The JSON value of a body; invalid JSON or text is refused with ingest's message."""
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError:
        try:
            parse_record(raw)  # the parser's own BAD_JSON / BAD_ENCODING error
        except RecordError as err:
            raise ShapeError(err, 400) from None
        raise  # pragma: no cover  (msgspec decodes what it refused: cannot happen)


def _refuse(code: ErrorCode, path: str, message: str) -> ShapeError:
    return ShapeError(RecordError(code, path, message))


def header(obj: Any) -> dict[str, Any]:
    """The canonical header of a hand (the record without ``events``)."""
    if isinstance(obj, dict):
        for name, why in LATER.items():
            if name in obj:
                raise _refuse(ErrorCode.INVALID_VALUE, f"$.{name}", f"not part of a header: {why}")
    try:
        record = parse_object({**obj, "events": []} if isinstance(obj, dict) else obj).record
    except RecordError as err:
        raise ShapeError(err) from None
    return {k: v for k, v in record.items() if k != "events"}


def events(head: dict[str, Any], first: int, items: list[Any]) -> list[dict[str, Any]]:
    """``items`` as events ``first, first+1, ...`` of the hand with header ``head``:
    canonical, or a ShapeError whose path counts from the hand's first event."""
    try:
        record = parse_object({**head, "events": items}).record
    except RecordError as err:
        path = _EVENT_PATH.sub(lambda m: f"$.events[{first + int(m[1])}]", err.path, count=1)
        raise ShapeError(RecordError(err.code, path, err.message)) from None
    return record["events"]


def result(head: dict[str, Any], evs: list[dict[str, Any]], value: Any) -> dict[str, Any]:
    """The whole record of a finished hand, with its recorded ``result`` (None: none)."""
    obj = {**head, "events": evs}
    if value is not None:
        obj["result"] = value
    try:
        return parse_object(obj).record
    except RecordError as err:
        raise ShapeError(err) from None
