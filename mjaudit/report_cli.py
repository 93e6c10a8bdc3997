"""``mjaudit report``: one hand or a sitting as a self-contained HTML page (and PDF).

From the archive (``GAME_ID [HAND_NO] --data DIR``) or straight from a log (``--log
FILE``); the page is :mod:`dashboards.report`'s, the same the dashboard's "Download report"
button gives. Files are written whole or not at all (a temporary file, then a rename).
Mounted by ``mjaudit/cli.py``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

EXIT_OK, EXIT_USAGE = 0, 2

_out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)
_err = Console(stderr=True, highlight=False, soft_wrap=True)


def _fail(message: str) -> None:
    _err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(EXIT_USAGE)


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` into ``path``: a reader sees the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # as open() would create it, not mkstemp's 0600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _from_log(
    log: Path, game_id: str | None, hand_no: int | None
) -> tuple[list[dict[str, Any]], int | None]:
    """The records of one sitting of ``log`` (a log of several needs ``game_id``) and the
    hand asked for: ``report --log FILE 3`` names hand 3 of a log of one sitting."""
    from mjaudit.parts.ingest.sources import BrokenStream, read_records
    from mjaudit.parts.schemas.records import RecordError, parse_record

    if not log.is_file():
        _fail(f"{log}: no such log file")
    records: list[dict[str, Any]] = []
    try:
        for item in read_records(log):
            if isinstance(item, BrokenStream):
                _err.print(f"skipped: {escape(f'{log}:{item.line}: {item.message}')}")
                continue
            try:
                records.append(parse_record(item.raw).record)
            except RecordError as exc:
                _err.print(f"skipped: {escape(f'{log}:{item.line}: {exc}')}")
    except OSError as exc:
        _fail(f"{log}: cannot read it ({exc.strerror or exc})")
    if not records:
        _fail(f"{log}: no readable hand record in it")
    games = sorted({r["game_id"] for r in records})
    if game_id is not None and game_id not in games and hand_no is None and game_id.isdigit():
        game_id, hand_no = None, int(game_id)
    if game_id is None:
        if len(games) > 1:
            _fail(
                f"{log} holds {len(games)} sittings: name one as GAME_ID "
                f"({', '.join(games[:5])}{', ...' if len(games) > 5 else ''})"
            )
        game_id = games[0]
    mine = [r for r in records if r["game_id"] == game_id]
    if not mine:
        _fail(f"{log}: no sitting {game_id!r} in it (it holds {', '.join(games[:5])})")
    return mine, hand_no


def _from_archive(data: Path, game_id: str, hand_no: int | None) -> str:
    from mjaudit.parts.dashboards.data import NoData, load_sitting, open_archive
    from mjaudit.parts.dashboards.report import archive_report
    from mjaudit.parts.ingest.store import DataDirError

    try:
        archive = open_archive(data)
    except (NoData, DataDirError) as exc:
        _fail(f"{data}: {exc}")
    con = archive.cursor()
    try:
        records = load_sitting(con, game_id)
    finally:
        con.close()
    if not records:
        _fail(f"no sitting {game_id!r} in {data}")
    try:
        html = archive_report(records, archive.root, hand_no)
    except LookupError as exc:
        _fail(f"{exc.args[0]} in {data}")
    assert html is not None
    return html


def report(
    game_id: Annotated[
        str | None,
        typer.Argument(
            help="The sitting (game id). With --log, needed only when the log holds several.",
            show_default=False,
        ),
    ] = None,
    hand_no: Annotated[
        int | None,
        typer.Argument(help="The hand number (default: the whole sitting).", show_default=False),
    ] = None,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="The HTML file to write (e.g. report.html)."),
    ] = Path("report.html"),
    log: Annotated[
        Path | None,
        typer.Option("--log", help="Report from this log file instead of the archive."),
    ] = None,
    hand: Annotated[
        int | None, typer.Option("--hand", help="The hand number (as HAND_NO).")
    ] = None,
    pdf: Annotated[
        bool,
        typer.Option(
            "--pdf",
            help="Also print it to FILE.pdf with headless Chromium (/usr/bin/chromium, "
            "driven by Playwright: pip install 'mahjong-audit\\[pdf]').",
        ),
    ] = False,
    card: Annotated[
        list[Path] | None,
        typer.Option(help="american, with --log: a card file (mj-card/1) the records name."),
    ] = None,
    data: Annotated[
        Path,
        typer.Option("--data", envvar="MJAUDIT_DATA", help="Data folder (also from MJAUDIT_DATA)."),
    ] = Path("mjdata"),
) -> None:
    """Write one hand (or a whole sitting) as a self-contained HTML report to share.

    The header (venue, table, date, players, ruleset and options), each finding with its
    event, seat, code, class and rules reference, the table drawn as it stood at that
    event, the settlement the rules give beside the recorded one, and for a sitting the
    running score. The page fetches nothing (inline CSS and SVG, no script). The hands
    are replayed now with the rules engine, so hands not replayed yet are reported too.

    Examples: `mjaudit report lotus-2024-10-05-t3 4 -o hand4.html`;
    `mjaudit report --log examples/vn160-evening.jsonl --hand 3 -o hand3.html --pdf`.
    """
    from mjaudit.parts.dashboards.report import PdfUnavailable, pick, replay_records, to_pdf

    if hand is not None and hand_no is not None and hand != hand_no:
        _fail(f"--hand {hand} and HAND_NO {hand_no} name different hands: give one")
    number = hand if hand is not None else hand_no
    if output.suffix.lower() not in (".html", ".htm"):
        _fail(f"-o {output}: expected an .html file name (the PDF goes beside it with --pdf)")
    if log is not None:
        from mjaudit.cli import _load_cards

        _load_cards(card or [])
        records, number = _from_log(log, game_id, number)
        try:
            html = pick(replay_records(records), number, str(log))
        except LookupError as exc:
            _fail(f"{exc.args[0]} in {log}")
    else:
        if card:
            _fail("--card applies with --log; the archive's cards are its own (mjaudit card)")
        if game_id is None:
            _fail("give GAME_ID [HAND_NO] (from the archive, --data) or --log FILE")
        html = _from_archive(data, game_id, number)
    written = [output]
    pdf_bytes = None
    if pdf:
        try:
            pdf_bytes = to_pdf(html)
        except PdfUnavailable as exc:
            _fail(str(exc))
    try:
        write_atomic(output, html.encode())
        if pdf_bytes is not None:
            written.append(output.with_suffix(".pdf"))
            write_atomic(written[-1], pdf_bytes)
    except OSError as exc:
        _fail(f"cannot write {exc.filename or output}: {exc.strerror or exc}")
    for path in written:
        _out.print(f"wrote {escape(str(path))} ({path.stat().st_size:,} bytes)")
