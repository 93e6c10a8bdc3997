"""The API's OpenAPI 3.1 description, and the ``/docs`` page made from it (no scripts,
nothing fetched from elsewhere: the page works on a table's offline network)."""

from __future__ import annotations

from html import escape
from typing import Any

import msgspec

_ERROR = {"$ref": "#/components/schemas/Error"}
_HAND = {"name": "hand", "in": "path", "required": True, "schema": {"type": "string"}}
_TABLE = {"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}


def _errors(*codes: int) -> dict[str, Any]:
    what = {
        400: "not JSON or not UTF-8 (ingest's BAD_JSON / BAD_ENCODING message)",
        401: "no token, or an unknown one",
        403: "the token may not do this on this table",
        404: "no such hand (open or recently ended)",
        409: "a sequence number out of order, a hand closed or ended, a conflicting header",
        413: "a body, a batch or a hand over its limit",
        422: "a shape the log format refuses (ingest's code, path and message)",
        503: "the archive could not be written (the hand stays ended; post end again)",
    }
    return {
        str(c): {"description": what[c], "content": {"application/json": {"schema": _ERROR}}}
        for c in codes
    }


def _body(example: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "required": True,
        "description": description,
        "content": {"application/json": {"schema": {"type": "object"}, "example": example}},
    }


def _ok(description: str, example: dict[str, Any] | None = None) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": {"type": "object"}}
    if example is not None:
        content["example"] = example
    return {"description": description, "content": {"application/json": content}}


HEADER_EXAMPLE = {
    "format": "mjlog/1",
    "game_id": "club-2026-04-09-t1",
    "hand_no": 1,
    "ruleset": "hk-classic",
    "players": ["Ann", "Bo", "Cy", "Di"],
    "dealer": 0,
    "prevailing_wind": "E",
    "start_hands": [["1m", "..."], ["..."], ["..."], ["..."]],
    "wall": ["..."],
}

SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "mjaudit serve",
        "version": "1",
        "description": "Live audit of mahjong hands, event by event, by the same engine as "
        "`mjaudit check`; finished hands are committed to the archive as `mjaudit ingest` "
        "commits them. Tokens: a table's write token, read-only tokens for referee "
        "screens, an admin token that issues tables' tokens.",
    },
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Error": {
                "type": "object",
                "required": ["error", "message"],
                "properties": {
                    "error": {"type": "string", "description": "a stable code"},
                    "path": {"type": ["string", "null"], "description": "the JSON path"},
                    "message": {"type": "string"},
                },
            },
            "Finding": {
                "type": "object",
                "properties": {
                    "event_index": {"type": ["integer", "null"]},
                    "seat": {"type": ["integer", "null"]},
                    "player": {"type": ["string", "null"]},
                    "code": {"type": "string"},
                    "reason": {"type": ["string", "null"]},
                    "class": {
                        "enum": ["CORRUPT_LOG", "PLAYER_VIOLATION", "SCORE_MISMATCH", "INFO"]
                    },
                    "message": {"type": "string"},
                    "rules": {"type": ["string", "null"], "description": "where the rules say it"},
                },
            },
        },
    },
    "security": [{"bearer": []}],
    "paths": {
        "/hands": {
            "post": {
                "summary": "Open a hand: its mjlog/1 header (the record without events or result)",
                "requestBody": _body(HEADER_EXAMPLE, "the hand's header; the table is the token's"),
                "responses": {
                    "201": _ok("opened", {"hand": "3f0c…", "created": True, "next_seq": 0}),
                    "200": _ok("already open with this same header (a retry)"),
                    **_errors(400, 401, 403, 409, 413, 422),
                },
            }
        },
        "/hands/{hand}": {
            "get": {
                "summary": "The table view model, every finding so far, the settlement once ended",
                "parameters": [_HAND],
                "responses": {"200": _ok("the hand"), **_errors(401, 403, 404)},
            }
        },
        "/hands/{hand}/events": {
            "post": {
                "summary": "Post one event (or a few): the findings raised at them",
                "description": "`seq` is the index of the first event posted. A retry with "
                "the same seq and events gets the same answer (`replayed: true`). An "
                "impossible event gets the engine's CORRUPT_LOG finding and closes the hand.",
                "parameters": [_HAND],
                "requestBody": _body(
                    {"seq": 0, "event": {"type": "discard", "seat": 0, "tile": "9s"}},
                    "{seq, event} or {seq, events: [...]}",
                ),
                "responses": {
                    "200": _ok(
                        "what the engine raised at these events, and the table's state",
                        {
                            "hand": "3f0c…",
                            "seq": 0,
                            "accepted": 1,
                            "replayed": False,
                            "next_seq": 1,
                            "findings": [],
                            "closed": None,
                            "state": {"events": 1, "last": "event 0: Ann discards 9s"},
                        },
                    ),
                    **_errors(400, 401, 403, 404, 409, 413, 422),
                },
            }
        },
        "/hands/{hand}/end": {
            "post": {
                "summary": "End the hand: the settlement; the hand is committed to the archive",
                "parameters": [_HAND],
                "requestBody": _body({"result": {"winners": [2], "fan": 3}}, "{} or {result}"),
                "responses": {
                    "200": _ok("the settlement, the end's findings and the archive's status"),
                    **_errors(400, 401, 403, 404, 413, 422, 503),
                },
            }
        },
        "/tables/{table}/hands": {
            "get": {
                "summary": "The hands open at a table",
                "parameters": [_TABLE],
                "responses": {"200": _ok("the open hands"), **_errors(401, 403)},
            }
        },
        "/tables/{table}/stream": {
            "get": {
                "summary": "WebSocket: the table's findings as they are raised (referee screen)",
                "description": "Connect with `?token=READ_TOKEN` (a browser cannot set the "
                "header). Messages: `{type: hello}`, then `{type: findings, hand, findings, "
                "closed, state}` per post that raised any and `{type: end, hand, findings}`.",
                "parameters": [
                    _TABLE,
                    {"name": "token", "in": "query", "schema": {"type": "string"}},
                ],
                "responses": {"101": {"description": "switching to WebSocket"}},
            }
        },
        "/admin/tables": {
            "post": {
                "summary": "Issue a table's write token and a read-only token (admin)",
                "requestBody": _body({"table": "table-7"}, "the table's name"),
                "responses": {"201": _ok("the tokens (shown once)"), **_errors(401, 403, 422)},
            }
        },
        "/health": {
            "get": {
                "summary": "Whether the server is up, and how many hands are open",
                "security": [],
                "responses": {"200": _ok("up", {"ok": True, "open_hands": 0})},
            }
        },
        "/openapi.json": {
            "get": {"summary": "This description", "security": [], "responses": {"200": _ok("it")}}
        },
        "/docs": {
            "get": {
                "summary": "This description as a page",
                "security": [],
                "responses": {"200": {"description": "HTML"}},
            }
        },
    },
}


def docs_page() -> str:
    """The description as one HTML page: each operation, its summary and its examples."""
    info = SPEC["info"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>mjaudit serve API</title>",
        "<style>body{font:15px/1.45 system-ui,sans-serif;max-width:60em;margin:2em auto;"
        "padding:0 1em}code,pre{background:#f4f4f4;padding:2px 4px}pre{padding:8px;"
        "overflow:auto}h2{border-top:1px solid #ddd;padding-top:.6em}</style></head><body>",
        f"<h1>{escape(info['title'])}</h1><p>{escape(info['description'])}</p>",
        "<p>Machine-readable: <a href='/openapi.json'>/openapi.json</a> (OpenAPI 3.1).</p>",
    ]
    for path, ops in SPEC["paths"].items():
        for method, op in ops.items():
            parts.append(f"<h2><code>{method.upper()} {escape(path)}</code></h2>")
            parts.append(f"<p>{escape(op['summary'])}</p>")
            if "description" in op:
                parts.append(f"<p>{escape(op['description'])}</p>")
            example = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if "example" in example:
                text = msgspec.json.format(msgspec.json.encode(example["example"])).decode()
                parts.append(f"<p>Body:</p><pre>{escape(text)}</pre>")
            codes = ", ".join(
                f"{c} ({escape(r['description'])})" for c, r in op.get("responses", {}).items()
            )
            parts.append(f"<p>Responses: {codes}</p>")
    parts.append("</body></html>")
    return "".join(parts)
