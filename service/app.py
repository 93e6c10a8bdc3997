"""The HTTP API of ``mjaudit serve`` (Starlette; uvicorn runs it).

Routes are thin: they read a bounded body, check the token, and call :class:`Service`.
Every refusal is JSON ``{"error": CODE, "message": ...}`` with a 4xx status; shape errors
carry ingest's code, path and message. The API is described by :data:`openapi.SPEC`,
served at ``/openapi.json`` and as a page at ``/docs``.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from mjaudit.parts.service import shapes
from mjaudit.parts.service.auth import Grant, Role, TokenFileError, Tokens, digest
from mjaudit.parts.service.config import ServeConfig
from mjaudit.parts.service.openapi import SPEC, docs_page
from mjaudit.parts.service.service import ApiError, Service
from mjaudit.parts.service.session import OpenHand
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

_encoder = msgspec.json.Encoder()


def _json(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(_encoder.encode(body), status, headers, media_type="application/json")


def _bearer(value: str | None) -> str | None:
    if value and value[:7].lower() == "bearer ":
        return value[7:].strip()
    return None


def admin_token(config: ServeConfig, tokens: Tokens) -> str | None:
    """With no admin in the tokens file, the server's own admin token (made once, kept in
    the state folder, readable by its owner only); None when the file names an admin."""
    if any(g.role is Role.ADMIN for g in tokens.grants.values()):
        return None
    path = config.admin_token_file
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24) + "\n")
    token = path.read_text().strip()
    tokens.grants[digest(token)] = Grant(Role.ADMIN, None)
    return token


def create_app(config: ServeConfig) -> Starlette:
    """The ASGI app of one server (its state lives from start-up to shut-down)."""
    config.state_dir.mkdir(parents=True, exist_ok=True)
    tokens = Tokens.load(config.tokens_file, config.issued)
    admin_token(config, tokens)
    holder: dict[str, Service] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        service = Service(
            config.data, config.journal, config.limits, config.commit_process, config.sync
        )
        await service.start()
        holder["service"] = service
        app.state.service = service
        try:
            yield
        finally:
            await service.stop()

    def svc() -> Service:
        return holder["service"]

    async def body(request: Request) -> Any:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > config.max_body:
            raise ApiError(
                413, "BODY_TOO_LARGE", f"the body is {declared} bytes; at most {config.max_body}"
            )
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > config.max_body:
                raise ApiError(413, "BODY_TOO_LARGE", f"the body is over {config.max_body} bytes")
        return shapes.decode(bytes(raw) if raw else b"{}")

    def grant(request: Request | WebSocket, query: bool = False) -> Grant:
        token = _bearer(request.headers.get("authorization"))
        if token is None and query:
            token = request.query_params.get("token")
        found = tokens.lookup(token)
        if found is None:
            raise ApiError(
                401,
                "UNAUTHORIZED",
                "expected a token (Authorization: Bearer TOKEN)"
                if token is None
                else "unknown token",
            )
        return found

    def writing(request: Request) -> OpenHand:
        """The hand of the path, if the token may write to its table (401 before 404)."""
        g = grant(request)
        hand = svc().get(request.path_params["hand"])
        if not g.may_write(hand.table):
            raise ApiError(403, "FORBIDDEN", f"this token may not write to table {hand.table!r}")
        return hand

    def reader(request: Request | WebSocket, table: str, query: bool = False) -> None:
        if not grant(request, query).may_read(table):
            raise ApiError(403, "FORBIDDEN", f"this token may not read table {table!r}")

    async def open_hand(request: Request) -> Response:
        g = grant(request)
        if g.role is not Role.WRITE or g.table is None:
            raise ApiError(403, "FORBIDDEN", "opening a hand takes a table's write token")
        head = shapes.header(await body(request))
        hand, created = await svc().open(g.table, head)
        return _json(
            {
                "hand": hand.id,
                "created": created,
                "table": hand.table,
                "next_seq": len(hand.events),
            },
            201 if created else 200,
            {"Location": f"/hands/{hand.id}"},
        )

    async def post_events(request: Request) -> Response:
        started = time.perf_counter()
        hand = writing(request)
        obj = await body(request)
        if not isinstance(obj, dict):
            raise ApiError(
                422,
                "NOT_AN_OBJECT",
                '$: expected {"seq": N, "event": {...}} or {"seq": N, "events": [...]}',
            )
        unknown = set(obj) - {"seq", "event", "events"}
        if unknown:
            raise ApiError(
                422,
                "INVALID_VALUE",
                f"$.{sorted(unknown)[0]}: unknown field (expected seq, event, events)",
            )
        if "event" in obj and "events" in obj:
            raise ApiError(422, "INVALID_VALUE", "$: give 'event' or 'events', not both")
        items = [obj["event"]] if "event" in obj else obj.get("events", [])
        if not isinstance(items, list):
            raise ApiError(422, "WRONG_TYPE", "$.events: expected an array of events")
        if "seq" not in obj:
            raise ApiError(422, "MISSING_FIELD", "$.seq: required field is missing")
        async with svc().lock(hand.id):
            answer = await svc().post(hand, obj["seq"], items)
        # the time the server spent on the post, its journal wait included (W3C Server
        # Timing): a client can tell the server's share of the latency from its own
        took = (time.perf_counter() - started) * 1e3
        return _json(answer, headers={"Server-Timing": f"app;dur={took:.3f}"})

    async def end_hand(request: Request) -> Response:
        hand = writing(request)
        obj = await body(request)
        if not isinstance(obj, dict) or set(obj) - {"result"}:
            raise ApiError(
                422, "INVALID_VALUE", '$: expected {} or {"result": {...}} (the recorded result)'
            )
        async with svc().lock(hand.id):
            return _json(await svc().end(hand, obj.get("result")))

    async def get_hand(request: Request) -> Response:
        g = grant(request)
        hand = svc().get(request.path_params["hand"])
        if not g.may_read(hand.table):
            raise ApiError(403, "FORBIDDEN", f"this token may not read table {hand.table!r}")
        return _json(svc().view(hand))

    async def table_hands(request: Request) -> Response:
        table = request.path_params["table"]
        reader(request, table)
        open_ = [h for h in svc().hands.values() if h.table == table]
        return _json(
            {
                "table": table,
                "hands": [
                    {
                        "hand": h.id,
                        "game_id": h.key[0],
                        "hand_no": h.key[1],
                        "next_seq": len(h.events),
                        "closed": h.closed is not None,
                    }
                    for h in sorted(open_, key=lambda h: h.key)
                ],
            }
        )

    async def issue(request: Request) -> Response:
        if grant(request).role is not Role.ADMIN:
            raise ApiError(403, "FORBIDDEN", "issuing tokens takes the admin token")
        obj = await body(request)
        name = obj.get("table") if isinstance(obj, dict) else None
        if not isinstance(name, str):
            raise ApiError(422, "MISSING_FIELD", "$.table: expected the table's name")
        try:
            return _json(tokens.issue(name), 201)
        except TokenFileError as exc:
            raise ApiError(422, "INVALID_VALUE", f"$.table: {exc}") from None

    async def stream(ws: WebSocket) -> None:
        table = ws.path_params["table"]
        try:
            reader(ws, table, query=True)
        except ApiError as exc:
            await ws.close(code=4401 if exc.status == 401 else 4403, reason=exc.message)
            return
        await ws.accept()
        queue = svc().hub.watch(table)
        try:
            await ws.send_json({"type": "hello", "table": table})
            while True:
                await ws.send_bytes(_encoder.encode(await queue.get()))
        except WebSocketDisconnect:
            pass
        finally:
            svc().hub.leave(table, queue)

    async def health(request: Request) -> Response:
        return _json({"ok": True, "open_hands": len(svc().hands)})

    async def openapi(request: Request) -> Response:
        return JSONResponse(SPEC)

    async def docs(request: Request) -> Response:
        return HTMLResponse(docs_page())

    async def refused(request: Request, exc: Exception) -> Response:
        if isinstance(exc, shapes.ShapeError):
            return _json(exc.to_json(), exc.status)
        assert isinstance(exc, ApiError)
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return _json(exc.to_json(), exc.status, headers)

    routes = [
        Route("/hands", open_hand, methods=["POST"]),
        Route("/hands/{hand}", get_hand, methods=["GET"]),
        Route("/hands/{hand}/events", post_events, methods=["POST"]),
        Route("/hands/{hand}/end", end_hand, methods=["POST"]),
        Route("/tables/{table}/hands", table_hands, methods=["GET"]),
        WebSocketRoute("/tables/{table}/stream", stream),
        Route("/admin/tables", issue, methods=["POST"]),
        Route("/health", health, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/docs", docs, methods=["GET"]),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={ApiError: refused, shapes.ShapeError: refused},
    )
