"""The ``mjaudit`` command: a thin shell over functions the tests call directly."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from rich.table import Table

from mjaudit import __version__

app = typer.Typer(
    name="mjaudit",
    help="Game-log analytics and replay for mahjong-family games.",
    no_args_is_help=True,
    add_completion=False,
)
err = Console(stderr=True)
out = Console()

DataOpt = Annotated[
    Path, typer.Option("--data", help="Data folder (Parquet tables and catalog.duckdb).")
]
DEFAULT_DATA = Path("mjdata")

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _version(value: bool) -> None:
    if value:
        out.print(f"mjaudit {__version__}")
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
) -> None:
    """Validate log files and add their hands to the Parquet tables.

    Accepts .jsonl, .jsonl.gz, .jsonl.zst and .json (one record or an array). Bad
    records are quarantined whole, with the file, line, field and what was expected; the
    rest is kept. Re-ingesting a file adds nothing.

    Exit status: 0 all ingested, 1 some records quarantined, 2 usage or I/O error.
    """
    from ingest.pipeline import ingest as run_ingest
    from ingest.sources import NoInput
    from ingest.store import DataDirBusy, DataDirError

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
                on_files=on_files,
                on_progress=lambda n: progress.advance(task, n),
            )
    except (NoInput, DataDirBusy, DataDirError, OSError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(EXIT_USAGE) from None

    table = Table(title=f"ingest into {data}", show_header=False, title_justify="left")
    table.add_row("files", f"{summary.files}")
    table.add_row("records read", f"{summary.records}")
    table.add_row("hands added", f"{summary.hands_added}")
    table.add_row("skipped (already present)", f"{summary.skipped_present}")
    table.add_row("quarantined", f"{summary.n_quarantined}")
    for code, n in sorted(summary.quarantined.items()):
        table.add_row(f"  {code}", f"{n}")
    if summary.quarantine_seen_before:
        table.add_row("quarantined before (not added again)", f"{summary.quarantine_seen_before}")
    if summary.broken_files:
        table.add_row("unreadable past a break", ", ".join(summary.broken_files))
    out.print(table)
    for message in summary.messages:
        err.print(f"[yellow]quarantined[/yellow] {message}", highlight=False, soft_wrap=True)
    if summary.n_quarantined > len(summary.messages):
        err.print(
            f"... and {summary.n_quarantined - len(summary.messages)} more: "
            f'duckdb {data / "catalog.duckdb"} "select source_file, source_line, code, message '
            'from quarantine"',
            highlight=False,
            soft_wrap=True,
        )
    if summary.n_quarantined or summary.broken_files:
        raise typer.Exit(EXIT_FINDINGS)


def _not_built(command: str, issue: str) -> None:
    err.print(f"mjaudit {command} is not built yet ({issue}). Nothing was done.")
    raise typer.Exit(EXIT_USAGE)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def check() -> None:
    """NOT BUILT YET: replay log files and report rule violations (Hong Kong engine issue)."""
    _not_built("check", "the Hong Kong rules engine")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def replay() -> None:
    """NOT BUILT YET: replay every ingested hand into findings and scores tables."""
    _not_built("replay", "the Hong Kong rules engine")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def simulate() -> None:
    """NOT BUILT YET: generate club sittings with bots (simulator issue)."""
    _not_built("simulate", "the simulator")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def stats() -> None:
    """NOT BUILT YET: club statistics per player, venue, table or month."""
    _not_built("stats", "the statistics issue")


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def dashboard() -> None:
    """NOT BUILT YET: the Streamlit dashboards."""
    _not_built("dashboard", "the dashboards issue")


@app.command()
def demo(
    data: DataOpt = Path("demo-data"),
) -> None:
    """Ingest the bundled example logs (the simulator, replay and dashboard are not built yet)."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    out.print(
        "[bold]mjaudit demo[/bold]: the simulator, replay and dashboard are not built yet, "
        f"so the demo ingests the example logs in {examples}."
    )
    try:
        ingest([str(examples)], data=data, wait=False)
    except typer.Exit as exc:
        if exc.exit_code not in (0, 1):
            raise
    out.print(
        f"\nData is in {data}/. Try:\n"
        f'  duckdb {data}/catalog.duckdb "select ruleset, count(*) from hands group by all"\n'
        f'  duckdb {data}/catalog.duckdb "select code, message from quarantine"'
    )


def run() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted: every batch committed before Ctrl-C is kept; run again to finish")
        sys.exit(130)
