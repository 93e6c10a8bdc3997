"""`mjaudit compact`: each partition's files merged into one, rows unchanged, atomically."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.schemas.rows import records_from_tables
from mjaudit.parts.schemas.tables import INGEST_TABLES
from typer.testing import CliRunner

from bench.synthlog import write_jsonl
from mjaudit.cli import app

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
    # the replaced files stay for the versions of the last --retain-hours (a week)
    assert len(leftovers) == 4
    for reader in (
        pl.scan_delta(str(root / "events")).collect(),
        pl.read_delta(str(root / "events")),
    ):
        assert reader.height == before["counts"][2]  # a Delta reader sees only current files
    con = duckdb.connect(str(root / "catalog.duckdb"), read_only=True)
    assert con.execute("select count(*) from events").fetchone() == (before["counts"][2],)
    con.close()
    again = ingest([str(tmp_path / "night-2.jsonl")], root)  # still recognised as present
    assert (again.hands_added, again.skipped_present) == (0, 20)
    result = runner.invoke(app, ["compact", "--data", str(root), "--retain-hours", "0"])
    assert result.exit_code == 0, result.output
    assert sorted((root / "events").rglob("*.parquet")) == sorted(data.files("events"))
    assert _snapshot(data) == before
    assert replay_archive(root).replayed == 60


def test_compact_on_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["compact", "--data", str(tmp_path / "none")])
    assert result.exit_code == 2


def test_ingest_writes_one_partition_per_ruleset_and_local_month(tmp_path: Path) -> None:
    import msgspec

    from bench.synthlog import records

    def write(name: str, recs: list[dict]) -> Path:
        path = tmp_path / name
        path.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in recs))
        return path

    january = list(records(4, seed=1))  # 2026-01-01 evening, +07:00
    late = [dict(r, game_id="late", started_at="2026-01-31T23:30:00+07:00") for r in january[:2]]
    utc_feb = [dict(r, game_id="utc", started_at="2026-01-31T17:30:00+00:00") for r in january[:1]]
    root = tmp_path / "data"
    ingest([str(write("jan.jsonl", january + late + utc_feb))], root)
    data = DataDir(root)
    folders = sorted({f.parent.relative_to(root / "hands").as_posix() for f in data.files("hands")})
    # 23:30 at +07:00 is still January locally; 17:30 UTC is in January too (offset 0)
    assert folders == [".", "ruleset=hk-mahjongo/month=2026-01"]
    march = [dict(r, game_id="march", started_at="2026-03-05T20:00:00+08:00") for r in january[:2]]
    no_time = [
        {k: v for k, v in r.items() if k != "started_at"} | {"game_id": "undated"}
        for r in january[:1]
    ]
    before = set(data.files("events"))
    ingest([str(write("more.jsonl", march + no_time))], root)
    added = {
        f.parent.relative_to(root / "events").as_posix() for f in set(data.files("events")) - before
    }
    assert added == {"ruleset=hk-mahjongo/month=2026-03", "ruleset=hk-mahjongo/month=unknown"}
    counts = (
        duckdb.connect(str(root / "catalog.duckdb"), read_only=True)
        .execute("select count(*), count(distinct game_id) from hands")
        .fetchone()
    )
    assert counts == (10, 5)


def test_compact_merges_the_batches_of_one_commit(tmp_path: Path) -> None:
    """An ingest commit holds several batches, each its own files (part, part.000001,
    ...): compact merges them like any plain files, rows unchanged."""
    root = tmp_path / "data"
    path = tmp_path / "night.jsonl"
    write_jsonl(str(path), 20, seed=4)
    ingest([str(path)], root, batch_bytes=20_000)  # a few hands a batch, one commit
    data = DataDir(root)
    before = _snapshot(data)
    stems = {f.name.rsplit("-", 1)[0] for f in data.files("events")}
    assert {"part", "part.000001", "part.000002"} <= stems
    assert len(data.history()) == 2  # the empty tables, then the one ingest commit
    data_files = len(data.files("events"))
    with data.writing():
        counts = data.compact()
    assert counts["events"] == (data_files, 1)
    for name in INGEST_TABLES:
        assert len(data.files(name)) == 1, name
    assert _snapshot(data) == before
