"""The Python API: read a log, replay a hand, open an archive, as ``chess.pgn.read_game`` does.

Everything the command line does is a function here, importable as ``mjaudit.<name>``:

>>> import mjaudit
>>> hands = mjaudit.read_log("examples/club-night.jsonl")
>>> len(hands), hands[0]["ruleset"]
(22, 'hk-classic')
>>> report = mjaudit.replay_hand(hands[0])
>>> report.ended_by, report.winners, report.fan, report.patterns
('win', (3,), 1, (('seat_flower', 1),))
>>> [f.code for f in report.findings]
[]

The heavy libraries (polars, DuckDB, the engines) are imported when a function is called,
so ``import mjaudit`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb
    import polars as pl

    from mjaudit.parts.ingest.pipeline import IngestSummary
    from mjaudit.parts.replay.archive.update import ReplaySummary
    from mjaudit.parts.replay.engine.findings import HandReport


class BadRecord(ValueError):
    """A record of a log that is not valid ``mjlog/1``; the message names the file, the
    line, the field and what was expected. ``code`` is the quarantine code ingest gives it."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The hand records of one log file (``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst``, ``.json``),
    in file order, each the canonical dict the engine replays.

    The first invalid record raises :class:`BadRecord` (``mjaudit ingest`` would quarantine
    it and keep the rest):

    >>> import mjaudit, tempfile, pathlib
    >>> bad = pathlib.Path(tempfile.mkdtemp(), "bad.jsonl")
    >>> _ = bad.write_text('{"format": "mjlog/1"}\\n')
    >>> mjaudit.read_log(bad)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjaudit.api.BadRecord: .../bad.jsonl:1: ...
    """
    from mjaudit.parts.ingest.sources import BrokenStream, read_records
    from mjaudit.parts.schemas.records import RecordError, parse_record

    source = Path(path)
    records: list[dict[str, Any]] = []
    for item in read_records(source):
        if isinstance(item, BrokenStream):
            code = getattr(item, "code", "FILE_TRUNCATED")
            raise BadRecord(f"{source}:{item.line}: {item.message}", code)
        try:
            records.append(parse_record(item.raw).record)
        except RecordError as exc:
            raise BadRecord(f"{source}:{item.line}: {exc}", exc.code.value) from None
    return records


def replay_hand(
    record: Mapping[str, Any],
    options: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
) -> HandReport:
    """Replay one hand record through its ruleset's engine: the findings (each with event
    index, seat, code, class and message), winners, fan (or the ruleset's own unit),
    patterns, payments (``deltas``) and whether the recorded result matches.

    ``options`` override the record's own options (as ``mjaudit check -o K=V``);
    ``previous`` is the report of the hand before in the same sitting, for the dealer
    rotation check. The engine never raises on a bad hand: it reports ``ENGINE_ERROR``.

    >>> import mjaudit
    >>> first, second = mjaudit.read_log("examples/club-night.jsonl")[:2]
    >>> rep = mjaudit.replay_hand(second, previous=mjaudit.replay_hand(first))
    >>> rep.hand_no, rep.matches_recorded
    (2, True)
    """
    from mjaudit.parts.replay.engine.run import replay_hand as replay_one

    return replay_one(dict(record), options, previous)


@dataclass(frozen=True)
class Archive:
    """An archive (data folder) opened for reading: each table as a polars LazyFrame, and
    a DuckDB connection with a view per table.

    >>> import mjaudit, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = mjaudit.ingest(["examples/club-night.jsonl"], folder)
    >>> archive = mjaudit.open(folder)
    >>> archive.tables["hands"].select("game_id").collect().height
    22
    >>> archive.sql("select count(*) from findings").fetchone()[0] >= 0
    True
    """

    root: Path
    tables: Mapping[str, pl.LazyFrame]
    duckdb: duckdb.DuckDBPyConnection

    def sql(self, query: str, params: list[object] | None = None) -> duckdb.DuckDBPyConnection:
        """Run SQL over the views (``hands``, ``seats``, ``events``, ``findings``, …)."""
        return self.duckdb.execute(query, params or [])


def open(data_dir: str | Path) -> Archive:
    """Open a data folder written by ``mjaudit ingest`` / ``replay`` for reading."""
    from mjaudit.parts.dashboards.queries import connect
    from mjaudit.parts.ingest.store import DataDir
    from mjaudit.parts.schemas.tables import ALL_TABLES

    store = DataDir(data_dir)
    if not store.exists():
        raise FileNotFoundError(f"{data_dir}: no data folder here (run mjaudit.ingest first)")
    tables = {name: store.scan(name) for name in ALL_TABLES}
    return Archive(Path(data_dir), tables, connect(data_dir))


def ingest(paths: Iterable[str | Path], data_dir: str | Path, replay: bool = True) -> IngestSummary:
    """Add the hands of log files and score sheets to the archive, as ``mjaudit ingest``:
    bad records are quarantined whole (the summary counts them by code), the rest kept;
    with ``replay`` (the default) the hands added are replayed at once.
    """
    from mjaudit.parts.ingest.pipeline import ingest as run_ingest

    summary = run_ingest([str(p) for p in paths], Path(data_dir))
    if replay and summary.hands_added:
        from mjaudit.parts.replay.archive.update import replay_archive

        replay_archive(data_dir, wait=True)
    return summary


def replay(data_dir: str | Path, workers: int = 1) -> ReplaySummary:
    """Bring the archive's findings, scores and results up to date (``mjaudit replay``).

    >>> import mjaudit, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = mjaudit.ingest(["examples/with-problems.jsonl"], folder, replay=False)
    >>> summary = mjaudit.replay(folder)
    >>> summary.replayed == summary.hands > 0
    True
    """
    from mjaudit.parts.replay.archive.update import replay_archive

    return replay_archive(data_dir, workers=workers)
