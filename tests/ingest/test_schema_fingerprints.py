"""The manifest records the schema each file was written with, so that readers match
columns by name (DuckDB's ``union_by_name``, which reads every file's footer first) only
when some file has other columns than the current ones: a folder written by an older
version."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from ingest_helpers import catalog_query, line, record, write_lines
from mjaudit.parts.dashboards.queries import connect
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import MANIFEST, DataDir


def _ingested(tmp_path: Path) -> DataDir:
    recs = [record(game_id=f"g{i}", hand_no=1) for i in range(3)]
    ingest([str(write_lines(tmp_path / "night.jsonl", [line(r) for r in recs]))], tmp_path / "d")
    return DataDir(tmp_path / "d")


def test_every_file_written_is_fingerprinted_and_read_without_union(tmp_path: Path) -> None:
    data = _ingested(tmp_path)
    manifest = data.manifest()
    for table, rels in manifest["tables"].items():
        assert rels
        assert {manifest["schemas"][rel] for rel in rels} == {data.fingerprints[table]}
        assert "union_by_name=false" in data.parquet_sql(table, rels, manifest)
    assert connect(data.root).execute("SELECT count(*) FROM hands").fetchone() == (3,)


def test_a_file_of_an_older_version_is_read_by_column_name(tmp_path: Path) -> None:
    data = _ingested(tmp_path)
    manifest = data.manifest()
    old = next(
        rel for rel in manifest["tables"]["hands"] if pq.read_metadata(data.root / rel).num_rows
    )
    path = data.root / old
    pq.write_table(pq.read_table(path).drop_columns(["sheet", "venue"]), path)
    del manifest["schemas"][old]  # older versions recorded no schema
    (data.root / MANIFEST).write_text(json.dumps(manifest))
    assert "union_by_name=true" in data.parquet_sql("hands", manifest["tables"]["hands"], manifest)
    con = connect(data.root)
    assert con.execute("SELECT count(*), count(venue), count(sheet) FROM hands").fetchone() == (
        3,
        0,
        0,
    )
    # A writer rebuilds the catalog with the same rule.
    with data.writing():
        pass
    assert catalog_query(data.root, "SELECT count(*), count(venue) FROM hands") == [(3, 0)]
