"""The tables the command line prints (Rich), built from the same values the dashboard
shows: the ingest, replay and compact summaries and the club statistics.

Kept out of ``mjaudit/cli.py`` so the CLI is a thin shell (arguments, errors, exit codes)
and each table is a pure function of its data: every text from a log is escaped, since
Rich would read ``[pung 2m2m2m <- 2]`` or a player called ``[bold]`` as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl
from mjaudit.parts.dashboards.riichi_stats import RIICHI_COLUMNS
from rich.markup import escape
from rich.table import Table

STATS_COLUMNS = (
    "player",
    "unit",
    "hands",
    "wins",
    "win %",
    "self-draw %",
    "deal-in %",
    "avg value",
    "net",
    "net/hand",
    "violations",
)
CHAN_COLUMNS = (
    "player",
    "hands",
    "wins",
    "win %",
    "điểm won",
    "điểm paid",
    "net",
    "avg score",
    "violations",
)


def _pairs(title: str, rows: list[tuple[str, str]]) -> Table:
    """A two-column summary (label, count) with no header."""
    table = Table(title=title, show_header=False, title_justify="left")
    for label, value in rows:
        table.add_row(label, value)
    return table


def ingest_table(summary: Any, data: Path) -> Table:
    """``mjaudit ingest``'s summary (an :class:`ingest.pipeline.IngestSummary`)."""
    rows = [
        ("files", f"{summary.files}"),
        ("records read", f"{summary.records}"),
        ("hands added", f"{summary.hands_added}"),
        ("skipped (already present)", f"{summary.skipped_present}"),
        ("quarantined", f"{summary.n_quarantined}"),
    ]
    rows += [(f"  {code}", f"{n}") for code, n in sorted(summary.quarantined.items())]
    if summary.quarantine_seen_before:
        rows.append(("quarantined before (not added again)", f"{summary.quarantine_seen_before}"))
    if summary.broken_files:
        rows.append(("unreadable past a break", escape(", ".join(summary.broken_files))))
    if summary.skipped_files:
        rows.append(
            ("skipped (not a log or a score sheet)", escape(", ".join(summary.skipped_files)))
        )
    return _pairs(f"ingest into {data}", rows)


def replay_table(summary: Any, data: Path) -> Table:
    """``mjaudit replay``'s summary (a :class:`replay.archive.update.ReplaySummary`)."""
    rows = [
        ("hands", f"{summary.hands}"),
        ("replayed now", f"{summary.replayed}"),
        ("unchanged since last replay", f"{summary.unchanged}"),
    ]
    if summary.not_supported:
        rows.append(("rules engine not built yet (not replayed)", f"{summary.not_supported}"))
    rows += [(f"findings: {cls}", f"{n}") for cls, n in sorted(summary.findings_by_class.items())]
    if summary.engine_errors:
        rows.append(("engine errors (hands not checked)", f"{summary.engine_errors}"))
    return _pairs(f"replay of {data}", rows)


def compact_table(counts: Mapping[str, tuple[int, int]], data: Path) -> Table:
    """``mjaudit compact``: files per table before and after."""
    table = Table(title=f"compact {data}", title_justify="left")
    for col in ("table", "files before", "files after"):
        table.add_column(col, justify="left" if col == "table" else "right")
    for name, (before, after) in counts.items():
        table.add_row(name, str(before), str(after))
    return table


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def stats_table(frame: pl.DataFrame, by: str, data: Path) -> Table:
    """The mahjong club statistics (:func:`dashboards.queries.player_stats`), one row per
    player (and per ``by`` group when it is not ``player``)."""
    grouped = by != "player"
    table = Table(title=f"club statistics ({data})", title_justify="left")
    for c in ([by] if grouped else []) + list(STATS_COLUMNS):
        table.add_column(c, justify="left" if c in ("player", "unit", by) else "right")
    for row in frame.iter_rows(named=True):
        table.add_row(
            *([escape(str(row[by]))] if grouped else []),
            escape(row["player"]),
            row["unit"],
            str(row["hands"]),
            str(row["wins"]),
            _pct(row["win_rate"]),
            _pct(row["self_draw_rate"]),
            _pct(row["deal_in_rate"]),
            "-" if row["avg_fan"] is None else f"{row['avg_fan']:.2f}",
            f"{row['net_points']:g}",
            f"{row['net_per_hand']:.2f}",
            str(row["n_violations"]),
        )
    return table


RIICHI_HEADERS = (
    "player",
    "hands",
    "win %",
    "deal-in %",
    "riichi %",
    "call %",
    "draw %",
    "abortive %",
    "avg points",
    "avg han",
    "games",
    "1st-2nd-3rd-4th",
    "avg place",
)


def riichi_stats_table(frame: pl.DataFrame, data: Path) -> Table:
    """The riichi players' statistics (:func:`dashboards.riichi_stats.riichi_stats`)."""
    table = Table(title=f"riichi statistics ({data})", title_justify="left")
    for c in RIICHI_HEADERS:
        table.add_column(c, justify="left" if c == "player" else "right")
    for row in frame.iter_rows(named=True):
        table.add_row(
            escape(row["player"]),
            str(row["hands"]),
            *(_pct(row[c]) for c in RIICHI_COLUMNS if c.endswith("_rate")),
            "-" if row["avg_win_points"] is None else f"{row['avg_win_points']:.0f}",
            "-" if row["avg_win_han"] is None else f"{row['avg_win_han']:.2f}",
            str(row["games"]),
            "-".join(str(row[c]) for c in ("first", "second", "third", "fourth")),
            "-" if row["avg_place"] is None else f"{row['avg_place']:.2f}",
        )
    return table


def chan_stats_tables(frame: pl.DataFrame, cuoc: pl.DataFrame, data: Path) -> list[Table]:
    """The Chắn statistics (:func:`dashboards.data.chan_player_stats`) and, when there
    are wins, the cước frequencies (:func:`dashboards.data.cuoc_frequency`)."""
    table = Table(title=f"Chắn statistics ({data})", title_justify="left")
    for c in CHAN_COLUMNS:
        table.add_column(c, justify="left" if c in ("player", "violations") else "right")
    for row in frame.iter_rows(named=True):
        table.add_row(
            escape(row["player"]),
            str(row["hands"]),
            str(row["wins"]),
            f"{100 * row['win_rate']:.1f}",
            f"{row['diem_won']:g}",
            f"{row['diem_paid']:g}",
            f"{row['net_diem']:g}",
            "-" if row["avg_score"] is None else f"{row['avg_score']:.1f}",
            escape(row["violations"] or "-"),
        )
    tables = [table]
    if not cuoc.is_empty():
        freq = Table(title="cước in winning hands", title_justify="left")
        for c in cuoc.columns:
            freq.add_column(c, justify="left" if cuoc[c].dtype == pl.String else "right")
        for values in cuoc.iter_rows():
            freq.add_row(
                *(
                    "-" if v is None else f"{v:.3g}" if isinstance(v, float) else escape(str(v))
                    for v in values
                )
            )
        tables.append(freq)
    return tables


def fan_pairs(frame: pl.DataFrame) -> pl.DataFrame:
    """``fan_distribution`` ("1:3 2:5", as the table shows it) as JSON data: a list of
    ``{"fan": 1, "wins": 3}`` objects."""
    if "fan_distribution" not in frame.columns:
        return frame
    pair = pl.element().str.split(":")
    as_pairs = (
        pl.col("fan_distribution")
        .str.split(" ")
        .list.eval(pl.element().filter(pl.element() != ""))
        .list.eval(
            pl.struct(fan=pair.list.get(0).cast(pl.Int64), wins=pair.list.get(1).cast(pl.Int64))
        )
    )
    return frame.with_columns(as_pairs.alias("fan_distribution"))
