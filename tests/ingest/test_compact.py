"""`mjaudit compact`: each partition's files merged into one, rows unchanged, atomically."""

from __future__ import annotations

from pathlib import Path

import duckdb
from typer.testing import CliRunner

from bench.synthlog import write_jsonl
from ingest.pipeline import ingest
from ingest.store import DataDir
from mjaudit.cli import app
from replay.archive import replay_archive
from schemas.rows import records_from_tables
from schemas.tables import INGEST_TABLES

runner = CliRunner()


def _snapshot(data: DataDir) -> dict[str, list[dict]]:
    tables = {name: data.read(name) for name in INGEST_TABLES}
    recs = sorted(records_from_tables(tables), key=lambda r: (r["game_id"], r["hand_no"]))
    return {"records": recs, "counts": [tables[n].num_rows for n in INGEST_TABLES]}  # type: ignore[dict-item]


def test_compact_merges_small_files_and_keeps_every_row(tmp_path: Path) -> None:
    root = tmp_path / "data"
    for seed in (1, 2, 3):  # three ingests, three small files per table
        path = tmp_path / f"night-{seed}.jsonl"
        write_jsonl(str(path), 20, seed=seed)
        ingest([str(path)], root)
    data = DataDir(root)
    before = _snapshot(data)
    assert len(data.files("events")) == 4  # the initial empty file and one per ingest
    result = runner.invoke(app, ["compact", "--data", str(root)])
    assert result.exit_code == 0, result.output
    for name in INGEST_TABLES:
        assert len(data.files(name)) == 1, name
    assert _snapshot(data) == before
    leftovers = [p for p in (root / "events").rglob("*.parquet") if p not in data.files("events")]
    assert (
        len(leftovers) == 4
    )  # old files stay until the next writer starts (readers may hold them)
    con = duckdb.connect(str(root / "catalog.duckdb"), read_only=True)
    assert con.execute("select count(*) from events").fetchone() == (before["counts"][2],)
    con.close()
    again = ingest([str(tmp_path / "night-2.jsonl")], root)  # still recognised as present
    assert (again.hands_added, again.skipped_present) == (0, 20)
    assert sorted((root / "events").rglob("*.parquet")) == sorted(data.files("events"))
    assert replay_archive(root).replayed == 60


def test_compact_on_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["compact", "--data", str(tmp_path / "none")])
    assert result.exit_code == 2
