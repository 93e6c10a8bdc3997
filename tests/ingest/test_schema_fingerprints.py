"""Schema evolution: a table whose columns grow (a newer release adds one) gains them in
its Delta schema (delta-rs ``add_columns``), and readers match columns by name (DuckDB's
``union_by_name``, which reads every file's footer first) only while some file has
other columns than the current ones."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable
from ingest_helpers import catalog_query, line, record, write_lines
from mjaudit.parts.dashboards.queries import connect
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.schemas.tables import ALL_TABLES


def _ingested(tmp_path: Path) -> DataDir:
    recs = [record(game_id=f"g{i}", hand_no=1) for i in range(3)]
    ingest([str(write_lines(tmp_path / "night.jsonl", [line(r) for r in recs]))], tmp_path / "d")
    return DataDir(tmp_path / "d")


def test_every_file_written_has_the_current_columns_and_is_read_without_union(
    tmp_path: Path,
) -> None:
    data = _ingested(tmp_path)
    manifest = data.manifest()
    assert manifest["mixed"] == []
    for table, rels in manifest["tables"].items():
        assert rels
        assert "union_by_name=false" in data.parquet_sql(table, rels, manifest)
        assert pa.schema(DeltaTable(data.root / table).schema().to_arrow()).names == (
            ALL_TABLES[table].names
        )
    assert connect(data.root).execute("SELECT count(*) FROM hands").fetchone() == (3,)


def test_columns_added_by_a_newer_version_evolve_the_table_and_are_read_by_name(
    tmp_path: Path,
) -> None:
    rows = _ingested(tmp_path).read("hands").drop_columns(["sheet", "venue"])
    older = {**ALL_TABLES, "hands": rows.schema}
    root = tmp_path / "old"
    with DataDir(root, schemas=older).writing() as old:  # written by the "older release"
        old.commit({"hands": rows})
    data = DataDir(root)
    with data.writing():  # the current release adds a hand of its columns
        data.commit({"hands": ALL_TABLES["hands"].empty_table()}, allow_empty=True)
    delta = pa.schema(DeltaTable(root / "hands").schema().to_arrow())
    assert {"sheet", "venue"} <= set(delta.names)
    manifest = data.manifest()
    assert manifest["mixed"] == ["hands"]
    assert "union_by_name=true" in data.parquet_sql("hands", manifest["tables"]["hands"], manifest)
    con = connect(data.root)
    assert con.execute("SELECT count(*), count(venue), count(sheet) FROM hands").fetchone() == (
        3,
        0,
        0,
    )
    assert catalog_query(root, "SELECT count(*), count(venue) FROM hands") == [(3, 0)]
    assert data.scan("hands").select(pl.len(), pl.col("venue").count()).collect().row(0) == (3, 0)
    frame = pl.read_delta(str(root / "hands"))  # a Delta reader fills the new columns too
    assert (frame.height, frame["venue"].null_count()) == (3, 3)
    # compact rewrites every file with the current columns: no union from then on
    with data.writing():
        data.compact(retain_hours=0)
    manifest = data.manifest()
    assert manifest["mixed"] == []
    assert "union_by_name=false" in data.parquet_sql("hands", manifest["tables"]["hands"], manifest)
    for rel in manifest["tables"]["hands"]:
        assert pq.read_schema(root / rel).names == ALL_TABLES["hands"].names
    assert catalog_query(root, "SELECT count(*), count(venue) FROM hands") == [(3, 0)]
