"""The data folder as Delta Lake tables (issue 19): what other readers see, the upgrade of
a folder of the manifest layout, a crash between the tables' commits, time travel, and a
folder that is moved."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable
from ingest_helpers import line, record, write_lines
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import APP_ID, MANIFEST, VERSIONS, DataDir, DataDirError
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.schemas.tables import ALL_TABLES
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.data.fingerprint import table_fingerprint

runner = CliRunner()
OLD = Path(__file__).parents[1] / "data" / "mjdata-1"
EXPECTED = json.loads((OLD.parent / "mjdata-1.expected.json").read_text())
EXAMPLES = Path(__file__).parents[2] / "examples"


def _old_columns(table: str) -> list[str]:
    """The columns the folder's own files have (a later release may add columns)."""
    return pq.read_schema(next((OLD / table).rglob("*.parquet"))).names


def _fingerprints(read: object) -> dict[str, dict]:
    """Each table's fingerprint over the columns of the old files; a column added since
    (e.g. the scores rows' riichi facts) must read as empty on the old rows."""
    out = {}
    for t in EXPECTED["tables"]:
        frame = read(t)  # type: ignore[operator]
        added = [c for c in frame.columns if c not in _old_columns(t)]
        assert all(frame[c].null_count() == frame.height for c in added), (t, added)
        out[t] = table_fingerprint(frame.select(_old_columns(t)))
    return out


def _old_folder(tmp_path: Path) -> Path:
    root = tmp_path / "old"
    shutil.copytree(OLD, root)
    return root


def test_a_folder_of_the_manifest_layout_is_read_as_it_is_until_a_writer_converts_it(
    tmp_path: Path,
) -> None:
    root = _old_folder(tmp_path)
    data = DataDir(root)
    assert _fingerprints(lambda t: data.scan(t).collect()) == EXPECTED["tables"]
    assert not (root / "hands" / "_delta_log").exists()  # a reader changes nothing


def test_upgrade_converts_the_manifest_layout_with_nothing_lost(tmp_path: Path) -> None:
    root = _old_folder(tmp_path)
    files_before = sorted(p.relative_to(root) for p in root.rglob("*.parquet"))
    result = runner.invoke(app, ["upgrade", "--data", str(root)])
    assert result.exit_code == 0, result.output
    assert "converted" in result.output
    assert not (root / MANIFEST).exists()
    assert (root / "_mjaudit" / "mjdata-1-manifest.json").exists()
    # the files are kept as they are: the Delta tables name them; the only files added
    # are the first (empty) files of tables newer than the folder
    after = sorted(p.relative_to(root) for p in root.rglob("*.parquet"))
    assert set(files_before) <= set(after)
    assert {p.parts[0] for p in set(after) - set(files_before)} <= set(ALL_TABLES) - set(
        EXPECTED["tables"]
    )
    data = DataDir(root)
    # the converted version keeps its number; tables newer than the folder come after it
    assert data.history()[0]["version"] == EXPECTED["version"]
    new_tables = set(ALL_TABLES) - set(EXPECTED["tables"])
    assert data.manifest()["version"] == EXPECTED["version"] + bool(new_tables)
    assert _fingerprints(lambda t: data.scan(t).collect()) == EXPECTED["tables"]
    # and other readers see exactly those rows: delta-rs, polars, the DuckDB catalog
    assert _fingerprints(lambda t: pl.read_delta(str(root / t))) == EXPECTED["tables"]
    assert (
        _fingerprints(lambda t: pl.from_arrow(DeltaTable(root / t).to_pyarrow_table()))
        == (EXPECTED["tables"])
    )
    con = duckdb.connect(str(root / "catalog.duckdb"), read_only=True)
    for t, want in EXPECTED["tables"].items():
        assert con.execute(f'select count(*) from "{t}"').fetchone() == (want["rows"],)
    con.close()
    # the de-duplication and the replay plan read the converted tables
    again = ingest([str(EXAMPLES / "club-night.jsonl")], root)
    assert (again.hands_added, again.skipped_present) == (0, 22)
    # every hand, if the folder predates a summary table the replay now writes; else none
    assert replay_archive(root).replayed in (0, EXPECTED["tables"]["hands"]["rows"])
    assert replay_archive(root).replayed == 0
    assert (
        runner.invoke(app, ["upgrade", "--data", str(root)])
        .output.strip()
        .endswith("already Delta Lake tables")
    )


def test_the_first_write_converts_and_stats_are_unchanged(tmp_path: Path) -> None:
    root = _old_folder(tmp_path)
    # (a folder replayed before a summary table existed is refused by stats, converted
    # or not, with the same message: run `mjaudit replay`)
    before = runner.invoke(app, ["stats", "--data", str(root), "--format", "csv"])
    summary = ingest([str(EXAMPLES / "with-problems.jsonl")], root)  # all present already
    assert summary.hands_added == 0
    assert (root / VERSIONS).is_dir() and not (root / MANIFEST).exists()
    after = runner.invoke(app, ["stats", "--data", str(root), "--format", "csv"])
    assert (after.exit_code, after.stdout) == (before.exit_code, before.stdout)
    replay_archive(root)
    assert runner.invoke(app, ["stats", "--data", str(root), "--format", "csv"]).exit_code == 0


def test_an_interrupted_conversion_is_done_again_by_the_next_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _old_folder(tmp_path)

    def killed(*args: object) -> None:
        raise KeyboardInterrupt  # after every table's Delta log, before the version file

    monkeypatch.setattr(DataDir, "_write_record", killed)
    with pytest.raises(KeyboardInterrupt), DataDir(root).writing():
        pass
    monkeypatch.undo()
    assert (root / MANIFEST).exists()  # still the truth
    data = DataDir(root)
    assert _fingerprints(lambda t: data.scan(t).collect()) == EXPECTED["tables"]
    with data.writing():
        pass
    assert _fingerprints(lambda t: pl.read_delta(str(root / t))) == EXPECTED["tables"]


def _night(tmp_path: Path, name: str, n: int) -> Path:
    recs = [record(game_id=f"{name}-{i}", hand_no=1) for i in range(n)]
    return write_lines(tmp_path / f"{name}.jsonl", [line(r) for r in recs])


def test_a_crash_between_the_table_commits_and_the_version_file_is_restored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "d"
    ingest([str(_night(tmp_path, "a", 3))], root)
    real = DataDir._write_record

    def killed(self: DataDir, version: int, *args: object) -> None:
        if version == 3:  # the second ingest's batch: its tables are committed, then this
            raise KeyboardInterrupt
        real(self, version, *args)

    monkeypatch.setattr(DataDir, "_write_record", killed)
    with pytest.raises(KeyboardInterrupt):
        ingest([str(_night(tmp_path, "b", 2))], root)
    monkeypatch.undo()
    data = DataDir(root)
    assert data.manifest()["version"] == 2  # mjaudit's readers: the last whole commit
    assert data.scan("hands").collect().height == 3
    assert pl.read_delta(str(root / "hands")).height == 5  # the Delta log went further
    # the next writer restores every table to the last version file, and then completes
    summary = ingest([str(_night(tmp_path, "b", 2))], root)
    assert summary.hands_added == 2
    for name in ALL_TABLES:
        assert pl.read_delta(str(root / name)).height == data.scan(name).collect().height, name
    assert data.scan("hands").collect().height == 5
    history = [h["operation"] for h in DeltaTable(root / "hands").history()]
    assert "RESTORE" in history  # the log keeps what happened
    assert DeltaTable(root / "hands").transaction_version(APP_ID) == data.manifest()["version"]


def test_stats_as_of_a_version_or_a_time(tmp_path: Path) -> None:
    root = tmp_path / "d"
    ingest([str(EXAMPLES / "club-night.jsonl")], root)
    assert replay_archive(root).replayed == 22
    first = runner.invoke(app, ["stats", "--data", str(root), "--format", "csv"])
    versions = runner.invoke(app, ["history", "--data", str(root), "--format", "json"])
    rows = json.loads(versions.stdout)
    then = rows[-1]
    ingest([str(EXAMPLES / "vn160-evening.jsonl")], root)
    replay_archive(root)
    now = runner.invoke(app, ["stats", "--data", str(root), "--format", "csv"])
    assert now.stdout != first.stdout
    for as_of in (str(then["version"]), then["at"]):
        old = runner.invoke(
            app, ["stats", "--data", str(root), "--format", "csv", "--as-of", as_of]
        )
        assert old.exit_code == 0, old.output
        assert old.stdout == first.stdout, as_of
    bad = runner.invoke(app, ["stats", "--data", str(root), "--as-of", "999"])
    assert bad.exit_code == 2 and "no version 999" in bad.output
    # after a vacuum that keeps nothing, the old version cannot be read, and says why
    assert (
        runner.invoke(app, ["compact", "--data", str(root), "--retain-hours", "0"]).exit_code == 0
    )
    gone = runner.invoke(app, ["stats", "--data", str(root), "--as-of", str(then["version"])])
    assert gone.exit_code == 2 and "removed by `mjaudit compact`" in " ".join(gone.output.split())
    with pytest.raises(DataDirError, match="cannot be written"), DataDir(root, as_of=1).writing():
        pass


def test_a_moved_folder_works_with_every_command_and_the_catalog(tmp_path: Path) -> None:
    root = tmp_path / "d"
    ingest([str(EXAMPLES / "club-night.jsonl")], root)
    replay_archive(root)
    moved = tmp_path / "elsewhere" / "copy"
    shutil.copytree(root, moved.parent / "tmp")
    shutil.rmtree(root)
    (moved.parent / "tmp").rename(moved)
    # `duckdb DIR/catalog.duckdb` before any mjaudit command: the views name the old place
    con = duckdb.connect(str(moved / "catalog.duckdb"), read_only=True)
    with pytest.raises(duckdb.Error):
        con.execute("select count(*) from hands").fetchone()
    con.close()
    result = runner.invoke(app, ["catalog", "--data", str(moved)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(moved / "catalog.duckdb"), read_only=True)
    assert con.execute("select count(*) from hands").fetchone() == (22,)
    con.close()
    stats = runner.invoke(app, ["stats", "--data", str(moved), "--format", "csv"])
    assert stats.exit_code == 0 and stats.stdout.count("\n") > 1
    show = runner.invoke(app, ["show", "club-2026-03-01-t1", "1", "--data", str(moved)])
    assert show.exit_code in (0, 2)
    assert ingest([str(EXAMPLES / "club-night.jsonl")], moved).skipped_present == 22
    assert replay_archive(moved).replayed == 0
    assert runner.invoke(app, ["compact", "--data", str(moved)]).exit_code == 0
    assert pl.read_delta(str(moved / "hands")).height == 22


def test_a_reader_rebuilds_a_stale_catalog(tmp_path: Path) -> None:
    root = tmp_path / "d"
    ingest([str(EXAMPLES / "club-night.jsonl")], root)
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    assert not DataDir(copy).catalog_current()
    assert runner.invoke(app, ["stats", "--data", str(copy), "--format", "csv"]).exit_code in (0, 2)
    assert DataDir(copy).catalog_current()
    assert DataDir(root).catalog_current()  # the original's own catalog is untouched
