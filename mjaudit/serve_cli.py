"""``mjaudit serve``: the live audit service (``service/``), run by uvicorn.

The command only reads flags, builds the app and runs it; everything it serves is in
:mod:`mjaudit.parts.service` (docs/serve.md). Mounted by ``mjaudit/cli.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from mjaudit.parts.service.sync import Sync

EXIT_USAGE = 2
GIL_SWITCH = 0.0005  # seconds: sys.setswitchinterval of the server (default 0.005)

_err = Console(stderr=True, highlight=False, soft_wrap=True)


def serve(
    data: Annotated[
        Path,
        typer.Option(
            "--data", envvar="MJAUDIT_DATA", help="Data folder the finished hands are committed to."
        ),
    ] = Path("mjdata"),
    host: Annotated[
        str, typer.Option(help="Address to listen on; only this machine unless told otherwise.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    tokens: Annotated[
        Path | None,
        typer.Option(
            help="TOML file of tokens: admin, referees, and \\[tables.NAME] write and read."
        ),
    ] = None,
    state: Annotated[
        Path | None,
        typer.Option(help="Folder of the journal and issued tokens (default DATA/.serve)."),
    ] = None,
    sync: Annotated[
        Sync,
        typer.Option(
            help="Before a post is answered its journal entry is handed to the operating "
            "system and fsync'd within a second (os: survives the server being killed, and "
            "no post waits for the disk) or fsync'd (disk: survives a power cut too).",
        ),
    ] = Sync.OS,
) -> None:
    """Audit hands live over HTTP: post each event, get the engine's findings at once.

    The API is described at /docs and /openapi.json once it runs. Every accepted event is
    in the journal before it is answered; a restart resumes the open hands from it.
    Finished hands are committed to the data folder as `mjaudit ingest` would.
    """
    import uvicorn

    from mjaudit.parts.service.app import admin_token, create_app
    from mjaudit.parts.service.auth import TokenFileError, Tokens
    from mjaudit.parts.service.config import ServeConfig
    from mjaudit.parts.service.journal import JournalError

    config = ServeConfig(data=data, tokens_file=tokens, state=state, sync=sync)
    try:
        app = create_app(config)
    except (TokenFileError, JournalError) as exc:
        _err.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(EXIT_USAGE) from None
    if admin_token(config, Tokens.load(tokens, config.issued)) is not None:
        _err.print(f"admin token: {escape(str(config.admin_token_file))} (readable by you only)")
    _err.print(f"serving http://{host}:{port} (API: /docs); journal {config.journal}")
    sys.stderr.flush()
    # The server's threads (the journal's fsync thread of --sync os and the compaction,
    # the commit pool's hand-off of the results) need the GIL back to give their results
    # to the loop: at Python's default switch interval (5 ms) each waited that long
    # whenever the event loop was busy.
    sys.setswitchinterval(GIL_SWITCH)
    # Tables post every few seconds: a keep-alive shorter than that would make each post
    # open a new connection (uvicorn's default is 5 s). uvloop and httptools are taken
    # when installed (uvicorn's "auto"; both are dependencies), else asyncio and h11.
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws="websockets-sansio",
        timeout_keep_alive=75,
    )
