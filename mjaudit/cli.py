"""The ``mjaudit`` command: a thin shell over functions the tests call directly."""

from __future__ import annotations

import gc
import inspect
import json
import sys
from collections.abc import Iterator
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

import mjaudit
from mjaudit.parts.schemas.rulesets import GAME_TERMS, OWN_FLAGS, Game

if TYPE_CHECKING:
    from mjaudit.parts.schemas.records import ParsedRecord

app = typer.Typer(
    name="mjaudit",
    help="Game-log analytics and replay for mahjong-family games.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
)
err = Console(stderr=True)
# Tables stay readable when the output is piped (rich would otherwise assume 80 columns).
out = Console(width=None if sys.stdout.isatty() else 140)

DataOpt = Annotated[
    Path,
    typer.Option(
        "--data",
        envvar="MJAUDIT_DATA",
        help="Data folder (Parquet tables and catalog.duckdb); also from MJAUDIT_DATA.",
    ),
]
DEFAULT_DATA = Path("mjdata")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _error(message: str) -> None:
    """An error line; the message is escaped so paths like `a[1].jsonl` print as they are."""
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)


class InputFormat(StrEnum):
    auto = "auto"
    mjlog = "mjlog"
    hk_sheet = "hk-sheet"
    tenhou_xml = "tenhou-xml"
    tenhou_json = "tenhou-json"
    mjai = "mjai"


class OutFormat(StrEnum):
    text = "text"
    json = "json"


OutOpt = Annotated[
    OutFormat,
    typer.Option("--format", "--output", help="text, or json (one object, for scripts)."),
]


def _print_json(obj: object) -> None:
    """One JSON object on stdout: sorted keys, so the same result prints the same bytes."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=2) + "\n")


def _waiting(message: str) -> None:
    """--wait: say that the command queues, and behind whom."""
    err.print(escape(message), highlight=False, soft_wrap=True)


def _counting_progress() -> Progress:
    """A progress display in the user's units: done/total, rate and time left (on stderr)."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


def _replay_with_progress(data: Path, **kwargs: Any) -> Any:
    """``replay_archive`` with the hands and table writes counted on stderr."""
    from mjaudit.parts.replay.archive.update import replay_archive

    progress = _counting_progress()
    hands_task = progress.add_task("replay hands", total=None)
    write_task = progress.add_task("write tables", total=None, visible=False)

    def on_plan(hands: int, buckets: int) -> None:
        progress.update(hands_task, total=hands)
        progress.update(write_task, total=buckets, visible=True)

    with progress:
        return replay_archive(
            data,
            on_wait=_waiting,
            on_plan=on_plan,
            on_replayed=lambda n: progress.advance(hands_task, n),
            on_written=lambda n: progress.advance(write_task, n),
            **kwargs,
        )


def _version(value: bool) -> None:
    if value:
        out.print(f"mjaudit {mjaudit.__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = None,
) -> None:
    """Ingest game logs, replay them through the rules, and show club statistics."""


@app.command()
def ingest(
    paths: Annotated[list[str], typer.Argument(help="Log files, folders or glob patterns.")],
    data: DataOpt = DEFAULT_DATA,
    wait: Annotated[
        bool, typer.Option(help="If another command is writing to the data folder, wait for it.")
    ] = False,
    fmt: Annotated[
        InputFormat,
        typer.Option(
            "--format",
            help="auto (by name and content), mjlog, hk-sheet, or a riichi log: tenhou-xml "
            "(mjlog XML), tenhou-json (tenhou.net/6), mjai (MJAI JSON lines).",
        ),
    ] = InputFormat.auto,
    output: Annotated[
        OutFormat,
        typer.Option(
            "--output", help="text, or json (one object); --format names the input's format."
        ),
    ] = OutFormat.text,
    no_replay: Annotated[
        bool,
        typer.Option(
            "--no-replay",
            help="Only add the hands; leave replaying them to `mjaudit replay` (e.g. to run it "
            "with more workers or on Dask).",
        ),
    ] = False,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes for the replay of the added hands.")
    ] = 1,
    commit_mb: Annotated[
        int,
        typer.Option(
            "--commit-mb",
            min=1,
            help="Input (MB) per commit: smaller shows readers a long ingest's progress sooner "
            "and redoes less after a crash; larger costs less CPU.",
        ),
    ] = 128,
) -> None:
    """Validate log files and club score sheets and add their hands to the Parquet tables.

    Logs: .jsonl, .jsonl.gz, .jsonl.zst and .json (one record or an array). Score sheets
    (Hong Kong club sheet text, or its CSV form): .txt, .sheet, .csv, or any file with
    --format hk-sheet. Riichi logs (ruleset riichi): Tenhou mjlog XML (.mjlog, .xml),
    tenhou.net/6 JSON and MJAI JSON lines, recognised by content or named with --format
    tenhou-xml|tenhou-json|mjai. Bad records are quarantined whole, with the file, line, field and
    what was expected; the rest is kept. Re-ingesting a file adds nothing.

    The hands added are then replayed (as `mjaudit replay` does), so statistics and the
    dashboard count them at once; --no-replay leaves that to `mjaudit replay`.

    Exit status: 0 all ingested, 1 some records quarantined, 2 usage or I/O error.
    """
    from mjaudit.parts.dashboards.terminal import ingest_table
    from mjaudit.parts.ingest.pipeline import ingest as run_ingest
    from mjaudit.parts.ingest.sources import NoInput
    from mjaudit.parts.ingest.store import DataDirBusy, DataDirError

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    task = progress.add_task("ingest", total=None)

    def on_files(files: list[Path]) -> None:
        total = sum(f.stat().st_size for f in files)
        progress.update(task, total=total, description=f"ingest {len(files)} files")

    try:
        with progress:
            summary = run_ingest(
                paths,
                data,
                wait=wait,
                on_wait=_waiting,
                fmt=fmt.value,
                on_files=on_files,
                on_progress=lambda n: progress.advance(task, n),
                commit_bytes=commit_mb << 20,
            )
    except (NoInput, DataDirBusy, DataDirError, OSError) as exc:
        _error(f"{exc}")
        raise typer.Exit(EXIT_USAGE) from None

    failed = bool(summary.n_quarantined or summary.quarantine_seen_before or summary.broken_files)
    replayed = None
    if summary.hands_added and not no_replay:
        try:
            # The hands are in: if another command took the folder meanwhile, queue behind
            # it rather than leave them unreplayed.
            replayed = _replay_with_progress(data, workers=workers, wait=True)
        except (DataDirBusy, DataDirError, OSError) as exc:
            _error(f"the hands were added, but not replayed: {exc}; run `mjaudit replay`")
            raise typer.Exit(EXIT_USAGE) from None
    if output is OutFormat.json:
        _print_json(
            {
                "data": str(data),
                "files": summary.files,
                "bytes_read": summary.bytes_read,
                "records": summary.records,
                "hands_added": summary.hands_added,
                "skipped_present": summary.skipped_present,
                "quarantined": summary.n_quarantined,
                "quarantine_codes": dict(sorted(summary.quarantined.items())),
                "quarantined_before": summary.quarantine_seen_before,
                "broken_files": summary.broken_files,
                "skipped_files": summary.skipped_files,
                "messages": summary.messages,
                "replay": None
                if replayed is None
                else {
                    "replayed": replayed.replayed,
                    "findings_by_class": dict(sorted(replayed.findings_by_class.items())),
                    "engine_errors": replayed.engine_errors,
                },
            }
        )
        if failed:
            raise typer.Exit(EXIT_FINDINGS)
        return
    out.print(ingest_table(summary, data))
    if replayed is not None:
        found = ", ".join(f"{c} {n}" for c, n in sorted(replayed.findings_by_class.items()))
        out.print(
            f"replayed {replayed.replayed} hands (findings in the archive: {found or 'none'}"
            + (f"; engine errors {replayed.engine_errors}" if replayed.engine_errors else "")
            + ")",
            highlight=False,
        )
    elif summary.hands_added:
        out.print("not replayed (--no-replay): run `mjaudit replay` before `mjaudit stats`")
    for message in summary.messages:
        err.print(
            f"[yellow]quarantined[/yellow] {escape(message)}", highlight=False, soft_wrap=True
        )
    if summary.n_quarantined > len(summary.messages):
        err.print(
            f"... and {summary.n_quarantined - len(summary.messages)} more: "
            f'duckdb {data / "catalog.duckdb"} "select source_file, source_line, code, message '
            'from quarantine"',
            highlight=False,
            soft_wrap=True,
        )
    if failed:
        raise typer.Exit(EXIT_FINDINGS)


def _parse_options(pairs: list[str]) -> dict[str, object]:
    """``K=V`` pairs; V is read as JSON when it parses (numbers, true/false, lists)."""
    import json

    options: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{pair!r}: expected KEY=VALUE", param_hint="--option")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


class Format(StrEnum):
    text = "text"
    json = "json"


@app.command()
def check(
    files: Annotated[list[str], typer.Argument(help="Log files, folders or glob patterns.")],
    ruleset: Annotated[
        str | None, typer.Option(help="Replay every hand under this ruleset instead of its own.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Override a ruleset option, KEY=VALUE (repeatable)."),
    ] = None,
    fmt: Annotated[
        Format, typer.Option("--format", help="text, or json (one object per hand).")
    ] = Format.text,
    card: Annotated[
        list[Path] | None,
        typer.Option(
            help="american: a card file (mj-card/1) the records name in options.card (repeatable)."
        ),
    ] = None,
) -> None:
    """Replay log files through the rules and report, hand by hand (no ingest needed).

    For each hand: the findings (with event index and player), then the computed result
    (winner, patterns and fan, liable player, payments) and whether the recorded result
    matches. Exit status: 0 no findings of class CORRUPT_LOG, PLAYER_VIOLATION or
    SCORE_MISMATCH; 1 some; 2 usage or I/O error.
    """
    import msgspec

    from mjaudit.parts.ingest.sources import BrokenStream, NoInput, expand_paths, read_records
    from mjaudit.parts.replay.engine.render import report_text
    from mjaudit.parts.replay.engine.run import replay_in_order
    from mjaudit.parts.schemas.records import RecordError, parse_record
    from mjaudit.parts.schemas.rulesets import RULESET_IDS

    if ruleset is not None and ruleset not in RULESET_IDS:
        _error(f"unknown ruleset {ruleset!r} (expected one of {', '.join(RULESET_IDS)})")
        raise typer.Exit(EXIT_USAGE)
    try:
        overrides = _parse_options(option or [])
        paths = expand_paths(files)
    except (NoInput, typer.BadParameter) as exc:
        _error(f"{exc}")
        raise typer.Exit(EXIT_USAGE) from None
    _load_cards(card or [])
    parsed: list[ParsedRecord] = []
    bad = 0
    # Parsed JSON holds no cycles, and the cycle collector scanned the growing list again
    # and again (a sixth of the command's time, issue 24): it is off while the records
    # are read, and they are frozen out of its scans during the replay (refcounting still
    # frees everything); undone at the end. The records are kept as their validated
    # structs, half the memory of the plain form the engine reads, which each is turned
    # into just before its replay and dropped after it.
    gc.disable()
    try:
        for path in paths:
            try:
                items = list(read_records(path))
            except OSError as exc:
                _error(f"{path}: {exc}")
                raise typer.Exit(EXIT_USAGE) from None
            for item in items:
                if isinstance(item, BrokenStream):
                    bad += 1
                    code = getattr(item, "code", "FILE_TRUNCATED")  # Refused records carry theirs
                    _bad_record(fmt, f"{path}:{item.line}: {item.message}", code)
                    continue
                try:
                    parsed.append(parse_record(item.raw))
                except RecordError as exc:
                    bad += 1
                    _bad_record(fmt, f"{path}:{item.line}: {exc}", exc.code.value)
                    continue
            del items
    finally:
        gc.freeze()
        gc.enable()
    checked = len(parsed)
    try:
        serious = bad > 0
        enc = msgspec.json.Encoder()
        for rep in replay_in_order(_in_hand_order(parsed, ruleset), overrides):
            serious = serious or rep.serious
            if fmt is Format.json:
                sys.stdout.write(enc.encode(rep.to_json()).decode() + "\n")
            else:
                out.print(report_text(rep), markup=False, highlight=False, soft_wrap=True)
                out.print()
    finally:
        gc.unfreeze()
    if fmt is Format.text:
        out.print(f"{checked} hands checked, {bad} unreadable records")
    raise typer.Exit(EXIT_FINDINGS if serious else EXIT_OK)


def _in_hand_order(parsed: list[ParsedRecord], ruleset: str | None) -> Iterator[dict[str, Any]]:
    """The records of ``parsed`` in hand order, each built from its struct when its turn
    comes and let go after it (``parsed`` is emptied); ``ruleset``: the one to replay
    them under (``--ruleset``)."""
    from operator import attrgetter

    from mjaudit.parts.replay.engine.run import in_hand_order

    ordered: list[ParsedRecord | None] = list(in_hand_order(parsed, attrgetter("key")))
    parsed.clear()
    for i, p in enumerate(ordered):
        ordered[i] = None
        assert p is not None
        rec = p.record
        if ruleset is not None:
            rec["ruleset"] = ruleset
        yield rec


def _load_cards(paths: list[Path]) -> None:
    """Load and register american card files so records naming their card_id replay."""
    if not paths:
        return
    from mjaudit.card_cli import load_card_for_check
    from mjaudit.parts.replay.rulesets.american.card import CardInvalid

    for path in paths:
        try:
            load_card_for_check(path)
        except CardInvalid as exc:
            _error(f"{path}: {exc}")
            raise typer.Exit(EXIT_USAGE) from None
        except OSError as exc:
            _error(f"{path}: {exc.strerror or exc}")
            raise typer.Exit(EXIT_USAGE) from None


def _bad_record(fmt: Format, message: str, code: str) -> None:
    """A record that is not valid mjlog/1 is itself a corrupt-log finding."""
    import msgspec

    if fmt is Format.json:
        finding = {
            "event_index": None,
            "seat": None,
            "code": code,
            "reason": None,
            "class": "CORRUPT_LOG",
            "message": message,
        }
        obj = {
            "game_id": None,
            "hand_no": None,
            "ruleset": None,
            "winners": [],
            "fan": None,
            "raw_fan": None,
            "patterns": [],
            "liable": None,
            "deltas": None,
            "findings": [finding],
        }
        sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")
    else:
        out.print(
            f"unreadable record: [CORRUPT] {code}: {message}\n",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


class Cluster(StrEnum):
    local = "local"


class FindingClassName(StrEnum):
    CORRUPT_LOG = "CORRUPT_LOG"
    PLAYER_VIOLATION = "PLAYER_VIOLATION"
    SCORE_MISMATCH = "SCORE_MISMATCH"
    INFO = "INFO"


@app.command()
def replay(
    data: DataOpt = DEFAULT_DATA,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes (local pool, or --cluster local).")
    ] = 1,
    wait: Annotated[
        bool, typer.Option(help="If another command is writing to the data folder, wait for it.")
    ] = False,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Run the replay tasks on this Dask scheduler (e.g. tcp://host:8786); its workers "
            "must see the data folder at the same absolute path.",
        ),
    ] = None,
    cluster: Annotated[
        Cluster | None,
        typer.Option(
            help="Run the replay tasks on a Dask cluster started here: local (--workers N)."
        ),
    ] = None,
    fail_on: Annotated[
        list[FindingClassName] | None,
        typer.Option(
            "--fail-on",
            help="Exit 1 if the archive holds findings of this class after the replay "
            "(repeatable), e.g. --fail-on CORRUPT_LOG --fail-on SCORE_MISMATCH.",
        ),
    ] = None,
    fmt: OutOpt = OutFormat.text,
) -> None:
    """Replay every ingested hand into the findings, scores, hand_results and fans tables.

    Only games with new or changed hands are replayed on a re-run. The tables are the
    same byte for byte whatever the number of workers, and whether the tasks run in
    local processes or on Dask (--scheduler / --cluster local, needs
    `pip install mahjong-audit\\[distributed]`). Exit status: 1 if the engine failed on a
    hand (ENGINE_ERROR) or, with --fail-on CLASS, the archive holds findings of that class.
    """
    from mjaudit.parts.dashboards.terminal import replay_table
    from mjaudit.parts.ingest.store import DataDir, DataDirBusy, DataDirError
    from mjaudit.parts.replay.archive.distributed import DistributedUnavailable

    if scheduler is not None and cluster is not None:
        err.print("[red]error:[/red] give either --scheduler ADDRESS or --cluster local, not both")
        raise typer.Exit(EXIT_USAGE)
    if scheduler is not None and workers != 1:
        err.print(
            "[red]error:[/red] --workers applies to the local pool and --cluster local; "
            "with --scheduler the cluster's workers run the tasks"
        )
        raise typer.Exit(EXIT_USAGE)
    if not DataDir(data).exists():
        _error(f"{data}: no data folder here; run `mjaudit ingest FILES --data {data}` first")
        raise typer.Exit(EXIT_USAGE)
    try:
        summary = _replay_with_progress(
            data,
            workers=workers,
            wait=wait,
            scheduler=scheduler,
            cluster=cluster.value if cluster is not None else None,
        )
    except (DataDirBusy, DataDirError, OSError, DistributedUnavailable) as exc:
        # escaped by _error: the install hint `mahjong-audit[distributed]` is not markup
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    failing = sorted(
        c.value for c in fail_on or () if summary.findings_by_class.get(c.value, 0) > 0
    )
    if fmt is OutFormat.json:
        _print_json(
            {
                "data": str(data),
                "hands": summary.hands,
                "replayed": summary.replayed,
                "unchanged": summary.unchanged,
                "not_supported": summary.not_supported,
                "findings_by_class": dict(sorted(summary.findings_by_class.items())),
                "engine_errors": summary.engine_errors,
                "fail_on": failing,
            }
        )
        if summary.engine_errors or failing:
            raise typer.Exit(EXIT_FINDINGS)
        return
    out.print(replay_table(summary, data))
    out.print(
        f'see: duckdb {data / "catalog.duckdb"} "select code, count(*) from findings group by all order by 2 desc"',
        highlight=False,
        soft_wrap=True,
    )
    if failing:
        _error(f"the archive holds findings of class {', '.join(failing)} (--fail-on)")
    if summary.engine_errors:
        # Every other hand is replayed and committed; these few were not checked at all.
        _error(
            f"the engine failed on {summary.engine_errors} hand(s): see the findings with "
            "code ENGINE_ERROR; every other hand was replayed"
        )
        raise typer.Exit(EXIT_FINDINGS)
    if failing:
        raise typer.Exit(EXIT_FINDINGS)


@app.command()
def show(
    game_id: Annotated[str, typer.Argument(help="The game (sitting) id.")],
    hand_no: Annotated[int, typer.Argument(help="The hand number.")],
    data: DataOpt = DEFAULT_DATA,
    at: Annotated[
        int | None,
        typer.Option(help="Show the table after this event index (default: the last)."),
    ] = None,
    fmt: Annotated[
        OutFormat,
        typer.Option(
            "--format",
            "--output",
            help="text, or json: the event, the table as text and the findings up to it.",
        ),
    ] = OutFormat.text,
) -> None:
    """Print the table at one event of an ingested hand, with the findings so far."""

    from mjaudit.parts.dashboards.queries import read_hand
    from mjaudit.parts.ingest.store import DataDir, DataDirError
    from mjaudit.parts.replay.engine.run import POSITIONS, position_text

    try:
        store = DataDir(data)
        store.manifest()
    except DataDirError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    if not store.exists():
        _error(f"{data}: no data folder here")
        raise typer.Exit(EXIT_USAGE)
    rec = read_hand(store, game_id, hand_no)
    if rec is None:
        _error(f"no hand {hand_no} of game {game_id!r} in {data}")
        raise typer.Exit(EXIT_USAGE)
    if rec["ruleset"] not in POSITIONS:
        err.print(
            f"the {rec['ruleset']} engine has no step-through view yet: cannot show this hand"
        )
        raise typer.Exit(EXIT_USAGE)
    n = len(rec["events"])
    if at is not None and not 0 <= at < n:
        _error(f"--at {at}: the hand has events 0-{n - 1}")
        raise typer.Exit(EXIT_USAGE)
    try:
        text = position_text(rec, n - 1 if at is None else at)
    except Exception as exc:  # one bad record: say so, as replay's ENGINE_ERROR does
        from mjaudit.parts.replay.engine.run import engine_error

        _error(f"game {game_id!r} hand {hand_no}: {engine_error(rec, exc).message}")
        raise typer.Exit(EXIT_FINDINGS) from None
    if fmt is OutFormat.json:
        from mjaudit.parts.replay.engine.run import replay_hand

        upto = n - 1 if at is None else at
        found = [
            f.to_json()
            for f in replay_hand(rec).findings
            if f.event_index is None or f.event_index <= upto
        ]
        _print_json(
            {
                "game_id": game_id,
                "hand_no": hand_no,
                "ruleset": rec["ruleset"],
                "at": upto,
                "n_events": n,
                "event": rec["events"][upto] if n else None,
                "position": text,
                "findings": found,
            }
        )
        return
    out.print(text, markup=False, highlight=False)


@app.command()
def compact(
    data: DataOpt = DEFAULT_DATA,
    wait: Annotated[
        bool, typer.Option(help="If another command is writing to the data folder, wait for it.")
    ] = False,
    retain_hours: Annotated[
        int,
        typer.Option(
            "--retain-hours",
            min=0,
            help="Keep the files that versions of the last N hours read (time travel "
            "with --as-of); older ones are deleted (vacuum). 0: keep only the current files.",
        ),
    ] = 168,
    fmt: OutOpt = OutFormat.text,
) -> None:
    """Merge the small files of each table partition into one (rows unchanged, atomic), then
    delete the files no version of the last --retain-hours reads (default 168: a week)."""
    from mjaudit.parts.dashboards.terminal import compact_table
    from mjaudit.parts.ingest.store import DataDir, DataDirBusy, DataDirError
    from mjaudit.parts.replay.archive.totals import refresh_totals

    try:
        store = DataDir(data)
    except DataDirError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    if not store.exists():
        _error(f"{data}: no data folder here")
        raise typer.Exit(EXIT_USAGE)
    try:
        with store.writing(wait=wait, on_wait=_waiting):
            counts = store.compact(retain_hours=retain_hours)
            # Compaction renames the summary files the stored totals were summed from.
            refresh_totals(store)
    except (DataDirBusy, DataDirError, OSError) as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    if fmt is OutFormat.json:
        _print_json(
            {
                "data": str(data),
                "tables": {
                    name: {"files_before": before, "files_after": after}
                    for name, (before, after) in counts.items()
                },
            }
        )
        return
    out.print(compact_table(counts, data))


def _existing_store(data: Path) -> object:
    """The data folder ``data``, or exit 2 saying there is none (or it is not one)."""
    from mjaudit.parts.ingest.store import DataDir, DataDirError

    try:
        store = DataDir(data)
        if store.exists():
            return store
    except DataDirError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    _error(f"{data}: no data folder here")
    raise typer.Exit(EXIT_USAGE)


@app.command()
def catalog(data: DataOpt = DEFAULT_DATA) -> None:
    """Rebuild DIR/catalog.duckdb (a view per table over its current files) for the folder
    where it is now: run it after moving or copying a data folder, before opening the
    catalog with the `duckdb` command (every other mjaudit command does it by itself)."""
    from mjaudit.parts.ingest.store import DataDirError

    store = _existing_store(data)
    try:
        store.build_catalog()  # type: ignore[attr-defined]
    except (DataDirError, OSError) as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    out.print(f"rebuilt {data / 'catalog.duckdb'}")


@app.command()
def upgrade(
    data: DataOpt = DEFAULT_DATA,
    wait: Annotated[
        bool, typer.Option(help="If another command is writing to the data folder, wait for it.")
    ] = False,
) -> None:
    """Convert a data folder written by mjaudit 0.x (_manifest.json) into Delta Lake tables,
    in place and keeping every file (any writing command does this first by itself)."""
    from mjaudit.parts.ingest.store import MANIFEST, DataDirBusy, DataDirError

    store = _existing_store(data)
    was_old = (data / MANIFEST).exists()
    try:
        with store.writing(wait=wait, on_wait=_waiting):  # type: ignore[attr-defined]
            pass  # writing() converts the folder before anything else
    except (DataDirBusy, DataDirError, OSError) as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    out.print(
        f"converted {data} to Delta Lake tables"
        if was_old
        else f"{data}: already Delta Lake tables"
    )


@app.command()
def history(data: DataOpt = DEFAULT_DATA, fmt: OutOpt = OutFormat.text) -> None:
    """The versions of the data folder, for `mjaudit stats --as-of`: each commit's number,
    time (UTC) and the tables it changed."""
    from mjaudit.parts.ingest.store import DataDirError

    store = _existing_store(data)
    try:
        rows = store.history()  # type: ignore[attr-defined]
    except DataDirError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_USAGE) from None
    if fmt is OutFormat.json:
        _print_json(rows)
        return
    for row in rows:
        changed = ", ".join(row["changed"]) or "-"
        out.print(f"{row['version']:>6}  {row['at']}  {changed}", highlight=False, markup=False)


@app.command()
def simulate(
    ruleset: Annotated[
        str,
        typer.Option(
            help="hk-classic, hk-mahjongo, hk-mahjongo-2p, vn-160, american (sample card) or chan."
        ),
    ],
    games: Annotated[int, typer.Option(min=1, help="Sittings to play.")],
    seed: Annotated[int, typer.Option(help="Same seed, same output, byte for byte.")] = 0,
    out_path: Annotated[
        Path | None, typer.Option("--out", help="Output file (default sim-RULESET-SEED.jsonl).")
    ] = None,
    violations: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of hands with one planted rule break.")
    ] = 0.0,
    players: Annotated[int, typer.Option(min=2, help="Members of the simulated club.")] = 12,
) -> None:
    """Play whole club sittings with bots and write them as mjlog/1.

    Every action goes through the rules engine. Planted violations are labelled in
    FILE.labels.jsonl (game_id, hand_no, event_index, expected code), never in the log.
    """
    from mjaudit.parts.replay.sim import write_simulation

    path = out_path or Path(f"sim-{ruleset}-{seed}.jsonl")
    progress = _counting_progress()
    task = progress.add_task(f"simulate {ruleset} sittings", total=games)
    hands = 0

    def on_hand(sittings_done: int) -> None:
        nonlocal hands
        hands += 1
        progress.update(
            task, completed=sittings_done, description=f"simulate {ruleset}: {hands} hands"
        )

    try:
        with progress:
            summary = write_simulation(
                path, ruleset, games, seed, players, violations, on_hand=on_hand
            )
            progress.update(task, completed=summary.games)
    except ValueError as exc:
        _error(f"{exc}")
        raise typer.Exit(EXIT_USAGE) from None
    out.print(
        f"wrote {summary.hands} hands of {summary.games} sittings to {summary.path}"
        + (f" and {summary.labels} labels to {summary.labels_path}" if violations else "")
    )


class StatsFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    tsv = "tsv"


class Source(StrEnum):
    all = "all"
    log = "log"
    sheet = "sheet"


GameChoice = StrEnum("GameChoice", {"auto": "auto"} | {g.value: g.value for g in Game})  # type: ignore[misc]
"""``--game``: auto, or one of the registry's families."""


class StatsBy(StrEnum):
    player = "player"
    venue = "venue"
    table = "table"
    month = "month"


def stats(
    data: DataOpt = DEFAULT_DATA,
    by: Annotated[
        StatsBy, typer.Option(help="One row per player, or per venue/table/month and player.")
    ] = StatsBy.player,
    ruleset: Annotated[str | None, typer.Option(help="Only this ruleset.")] = None,
    since: Annotated[
        datetime | None,
        typer.Option(formats=["%Y-%m-%d"], help="First day (local date of the table)."),
    ] = None,
    until: Annotated[
        datetime | None, typer.Option(formats=["%Y-%m-%d"], help="Last day, inclusive.")
    ] = None,
    min_hands: Annotated[int, typer.Option(min=0, help="Leave out players with fewer hands.")] = 0,
    fmt: Annotated[
        StatsFormat,
        typer.Option("--format", help="table, csv, json, or tsv (the score-sheet summary)."),
    ] = StatsFormat.table,
    source: Annotated[
        Source, typer.Option(help="Count full logs, club score sheets, or all.")
    ] = Source.all,
    game: Annotated[
        GameChoice,
        typer.Option(
            help="mahjong or chan (Chắn: cước and điểm); auto = the family in the data, "
            "mahjong when both are."
        ),
    ] = GameChoice.auto,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="VERSION|TIME",
            help="The data as it was: a version of the folder (as `mjaudit history` lists "
            "them) or an ISO time (UTC unless it says otherwise), e.g. 2026-12-02T14:00.",
        ),
    ] = None,
    **own: bool,  # a flag per ruleset with statistics of its own (OWN_FLAGS): --riichi
) -> None:
    from mjaudit.parts.dashboards.stats_report import StatsRequest, stats_report

    result = stats_report(
        StatsRequest(
            data=data,
            by=by.value,
            ruleset=ruleset,
            since=since.date() if since else None,
            until=until.date() if until else None,
            min_hands=min_hands,
            fmt=fmt.value,
            source=source.value,
            game=None if game is GameChoice.auto else game.value,
            as_of=as_of,
            own=frozenset(flag for flag in OWN_FLAGS if own.get(_flag_param(flag))),
        )
    )
    for note in result.notes:
        err.print(note)
    if result.error is not None:
        _error(result.error)
        raise typer.Exit(EXIT_USAGE)
    sys.stdout.write(result.text)
    for shown in result.shown:
        out.print(shown)


def _flag_param(flag: str) -> str:
    """``--riichi`` -> ``riichi``: the keyword a flag's value is passed as."""
    return flag.lstrip("-").replace("-", "_")


def _with_own_stats(command: Any) -> Any:
    """``command`` with an option per ruleset with statistics of its own (after the
    options it declares) and their sentences in its description: typer reads both from
    the function, so they are set on it before it is registered."""
    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    for flag, shape in OWN_FLAGS.items():
        assert shape.own_stats is not None
        option = typer.Option(flag, help=shape.own_stats.help)
        params.append(
            inspect.Parameter(
                _flag_param(flag),
                inspect.Parameter.KEYWORD_ONLY,
                default=False,
                annotation=Annotated[bool, option],
            )
        )
    command.__signature__ = signature.replace(parameters=params)
    own = [t.own_stats for t in GAME_TERMS.values()] + [s.own_stats for s in OWN_FLAGS.values()]
    command.__doc__ = STATS_HELP.replace("{own}", " ".join(o.about for o in own if o is not None))
    return command


STATS_HELP = """Club statistics per player: wins, self-draws, deal-ins, fan, net points, violations.

    Computed from the summary tables the replay writes (run `mjaudit replay` after
    ingesting); without --since/--until and with --by player, from the totals per player
    and ruleset it stores beside them. Rates: win_rate = wins / hands, self_draw_rate = self-drawn wins / wins,
    deal_in_rate = hands whose winning tile they discarded / hands. {own}
    """

app.command()(_with_own_stats(stats))


@app.command()
def dashboard(
    data: DataOpt = DEFAULT_DATA,
    port: Annotated[int, typer.Option(help="Port to serve on.")] = 8501,
    host: Annotated[
        str, typer.Option(help="Address to bind (127.0.0.1: this machine only).")
    ] = "127.0.0.1",
) -> None:
    """Open the Streamlit dashboards over the data folder (read-only).

    Club overview, players, fans, violations and a hand replayer. Streamlit runs headless,
    binds to this machine only unless --host says otherwise, and sends no usage data.
    """
    from mjaudit.parts.dashboards.app import launch

    raise typer.Exit(launch(data, port, host))


@app.command()
def demo(
    data: Annotated[
        Path,
        typer.Option(
            "--data", help="Data folder of the demo club (never MJAUDIT_DATA: it is simulated)."
        ),
    ] = Path("demo-data"),
    ruleset: Annotated[
        str, typer.Option(help="The ruleset of the simulated club.")
    ] = "hk-mahjongo",
    games: Annotated[int, typer.Option(min=1, help="Sittings to simulate.")] = 200,
    players: Annotated[int, typer.Option(min=2, help="Club members.")] = 12,
    violations: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of hands with a planted break.")
    ] = 0.02,
    seed: Annotated[int, typer.Option(help="Simulation seed.")] = 1,
    serve: Annotated[
        bool, typer.Option("--dashboard/--no-dashboard", help="Start the dashboard at the end.")
    ] = True,
    port: Annotated[int, typer.Option(help="Dashboard port.")] = 8501,
) -> None:
    """The whole product on a simulated club: simulate, ingest, replay, stats, dashboard.

    Re-running reuses the simulated log and adds nothing twice.
    """
    import time

    from mjaudit.parts.ingest.pipeline import ingest as run_ingest
    from mjaudit.parts.replay.archive.update import replay_archive
    from mjaudit.parts.replay.sim import write_simulation

    started = time.perf_counter()
    logs = data / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{ruleset}-{games}-sittings-seed{seed}.jsonl"
    if not log.exists():
        out.print(f"simulating {games} sittings of {ruleset} for a club of {players} ...")
        tmp = log.with_name(log.name + ".tmp")
        summary = write_simulation(tmp, ruleset, games, seed, players, violations, workers=2)
        summary.labels_path.replace(log.with_name(log.name.replace(".jsonl", ".labels.jsonl")))
        tmp.replace(log)
    out.print(f"ingesting {log} ...")
    ingested = run_ingest([str(log)], data)
    out.print("replaying with 2 workers ...")
    replayed = replay_archive(data, workers=2)
    elapsed = time.perf_counter() - started
    out.print(
        f"{ingested.hands_added} hands added ({ingested.skipped_present} already there), "
        f"{replayed.replayed} replayed, in {elapsed:.0f} s\n"
    )
    stats(
        data=data,
        by=StatsBy.player,
        ruleset=None,
        since=None,
        until=None,
        min_hands=0,
        fmt=StatsFormat.table,
        source=Source.all,
        game=GameChoice.auto,
    )
    out.print(
        f"\nThe data is in {data}/ (Parquet tables and {data}/catalog.duckdb). Next:\n"
        f"  mjaudit stats --data {data} --by month\n"
        f'  duckdb {data}/catalog.duckdb "select code, count(*) from findings group by all"\n'
        f"  mjaudit show GAME_ID HAND_NO --data {data}\n"
        f"  mjaudit dashboard --data {data}",
        highlight=False,
        soft_wrap=True,
    )
    if serve:
        out.print(f"\nstarting the dashboard on http://127.0.0.1:{port} (Ctrl-C to stop)")
        dashboard(data=data, port=port, host="127.0.0.1")


from mjaudit.card_cli import card_app  # noqa: E402  (the sub-app must exist before app() runs)

app.add_typer(card_app, name="card")

from mjaudit.score_cli import score  # noqa: E402

app.command()(score)

from mjaudit.report_cli import report  # noqa: E402

app.command()(report)

from mjaudit.serve_cli import serve  # noqa: E402

app.command()(serve)

from mjaudit.helptext import reflow_app  # noqa: E402

reflow_app(app)  # last: every command is registered by now


def run() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted: every batch committed before Ctrl-C is kept; run again to finish")
        sys.exit(130)
