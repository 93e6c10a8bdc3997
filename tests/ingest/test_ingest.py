"""``ingest()`` and ``mjaudit ingest``: idempotence, inputs, determinism, crashes, the lock."""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import zstandard
from ingest_helpers import (
    TABLES,
    catalog_counts,
    catalog_query,
    counts,
    expected_counts,
    line,
    record,
    write_lines,
)
from mjaudit.parts.ingest import key_index, pipeline
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.sources import NoInput
from mjaudit.parts.ingest.store import VERSIONS, DataDir, DataDirBusy, PartWriter
from mjaudit.parts.schemas.records import RecordError, parse_record
from typer.testing import CliRunner

from bench.synthlog import records as synth_records
from mjaudit.cli import app


def synth(n: int, seed: int = 7) -> list[dict[str, Any]]:
    return list(synth_records(n, seed=seed, hands_per_game=4))


def small(n: int, game: str = "g1", first: int = 1) -> list[dict[str, Any]]:
    """Small records with a result (so every table gets rows)."""
    return [
        record(
            game_id=game,
            hand_no=first + i,
            result={"winners": [i % 4], "fan": 3 + i, "deltas": [8.0, 8.0, 8.0, -24.0]},
        )
        for i in range(n)
    ]


def manifest_files(data_dir: Path) -> dict[str, list[str]]:
    """Per table, the committed files relative to the table's folder (partition folders
    included, e.g. ``ruleset=hk-classic/month=2026-03/part-00000002.parquet``)."""
    return {
        t: [p.relative_to(data_dir / t).as_posix() for p in DataDir(data_dir).files(t)]
        for t in TABLES
    }


def version_records(data_dir: Path) -> list[dict]:
    """The folder's version files (each table's Delta version per commit), but the time."""
    records = [json.loads(p.read_text()) for p in sorted((data_dir / VERSIONS).glob("*.json"))]
    return [{k: v for k, v in r.items() if k != "at"} for r in records]


def unlisted_files(data_dir: Path) -> dict[str, list[str]]:
    """Files in the table folders that the manifest does not name (crash leftovers)."""
    listed = manifest_files(data_dir)
    return {
        t: sorted(
            p.relative_to(data_dir / t).as_posix()
            for p in (data_dir / t).rglob("*")
            if p.is_file()
            and "_delta_log" not in p.parts
            and p.relative_to(data_dir / t).as_posix() not in listed[t]
        )
        for t in TABLES
        if (data_dir / t).is_dir()
    }


def orphan_rows(data_dir: Path) -> list[int]:
    """Rows of the per-seat/per-event tables whose hand is not in ``hands``, and vice versa."""
    out = []
    for table in ("seats", "events", "recorded_results"):
        out.append(
            catalog_query(
                data_dir,
                f"select count(*) from {table} t anti join hands h using (game_id, hand_no)",
            )[0][0]
        )
    out.append(
        catalog_query(
            data_dir, "select count(*) from hands h anti join seats s using (game_id, hand_no)"
        )[0][0]
    )
    return out


def one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------------------
# Idempotence


def test_reingest_same_file_adds_no_rows(tmp_path: Path) -> None:
    recs = synth(6)
    log = write_lines(tmp_path / "night.jsonl", [line(r) for r in recs])
    data = tmp_path / "data"
    first = ingest([str(log)], data)
    assert (first.records, first.hands_added, first.skipped_present) == (6, 6, 0)
    assert counts(data) == expected_counts(recs)
    files_before = manifest_files(data)

    second = ingest([str(log)], data)
    assert second.records == 6
    assert second.hands_added == 0
    assert second.skipped_present == 6
    assert second.quarantined == Counter()
    assert counts(data) == expected_counts(recs)
    assert catalog_counts(data) == expected_counts(recs)
    assert manifest_files(data) == files_before


def test_reingest_with_new_records_adds_only_those(tmp_path: Path) -> None:
    recs = small(5)
    data = tmp_path / "data"
    log = tmp_path / "night.jsonl"
    ingest([str(write_lines(log, [line(r) for r in recs[:2]]))], data)
    summary = ingest([str(write_lines(log, [line(r) for r in recs]))], data)
    assert (summary.hands_added, summary.skipped_present) == (3, 2)
    assert counts(data) == expected_counts(recs)
    hands = DataDir(data).read("hands").to_pylist()
    assert sorted(h["hand_no"] for h in hands) == [1, 2, 3, 4, 5]


def test_reingest_file_with_bad_line_does_not_duplicate_quarantine(tmp_path: Path) -> None:
    recs = small(3)
    bad = b'{"format": "mjlog/1", "game_id": "g1", "hand_no": "x"}'
    log = write_lines(tmp_path / "night.jsonl", [line(recs[0]), bad, line(recs[1]), line(recs[2])])
    data = tmp_path / "data"
    first = ingest([str(log)], data)
    assert first.quarantined == Counter({"WRONG_TYPE": 1})
    second = ingest([str(log)], data)
    assert second.quarantined == Counter()
    assert second.quarantine_seen_before == 1
    assert second.skipped_present == 3
    assert counts(data) == expected_counts(recs, quarantined=1)
    (row,) = DataDir(data).read("quarantine").to_pylist()
    assert (row["source_line"], row["raw"]) == (2, bad)


def test_same_file_named_by_another_path_adds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``logs/a.jsonl`` from the data's parent folder, then the same file by absolute path."""
    recs = small(2)
    (tmp_path / "logs").mkdir()
    log = write_lines(
        tmp_path / "logs" / "a.jsonl", [line(recs[0]), b'{"format": "mjlog/1"}', line(recs[1])]
    )
    data = tmp_path / "data"
    monkeypatch.chdir(tmp_path)
    first = ingest(["logs/a.jsonl"], data)
    assert first.quarantined == Counter({"MISSING_FIELD": 1})
    second = ingest([str(log)], data)
    assert (second.hands_added, second.skipped_present) == (0, 2)
    assert second.quarantined == Counter()
    assert counts(data) == expected_counts(recs, quarantined=1)


def test_duplicate_line_in_one_file_is_skipped_not_conflicting(tmp_path: Path) -> None:
    (rec,) = small(1)
    log = write_lines(tmp_path / "a.jsonl", [line(rec), line(rec)])
    summary = ingest([str(log)], tmp_path / "data")
    assert (summary.hands_added, summary.skipped_present) == (1, 1)
    assert summary.quarantined == Counter()


# --------------------------------------------------------------------------------------
# Inputs: folders, globs, .json, .jsonl.gz, .jsonl.zst


def _gz(lines: list[bytes]) -> bytes:
    return gzip.compress(b"".join(ln + b"\n" for ln in lines))


def _zst(lines: list[bytes]) -> bytes:
    return zstandard.ZstdCompressor().compress(b"".join(ln + b"\n" for ln in lines))


@pytest.fixture()
def log_tree(tmp_path: Path) -> tuple[Path, dict[str, list[dict[str, Any]]]]:
    logs = tmp_path / "logs"
    (logs / "sub" / "deeper").mkdir(parents=True)
    recs = {
        "a.jsonl": small(2, "ga"),
        "sub/b.jsonl.gz": small(2, "gb"),
        "sub/deeper/c.jsonl.zst": small(3, "gc"),
        "d.json": small(1, "gd"),
        "sub/e.json": small(2, "ge"),
    }
    write_lines(logs / "a.jsonl", [line(r) for r in recs["a.jsonl"]])
    (logs / "sub" / "b.jsonl.gz").write_bytes(_gz([line(r) for r in recs["sub/b.jsonl.gz"]]))
    (logs / "sub" / "deeper" / "c.jsonl.zst").write_bytes(
        _zst([line(r) for r in recs["sub/deeper/c.jsonl.zst"]])
    )
    (logs / "d.json").write_text(json.dumps(recs["d.json"][0], indent=2))
    (logs / "sub" / "e.json").write_text(json.dumps(recs["sub/e.json"]))
    (logs / "notes.txt").write_text("not a log\n")
    (logs / "sub" / "README.md").write_text("# not a log\n")
    (logs / "sub" / "old.jsonl.bak").write_text("{}\n")
    return logs, recs


def test_folder_is_searched_recursively_for_every_log_format(
    tmp_path: Path, log_tree: tuple[Path, dict[str, list[dict[str, Any]]]]
) -> None:
    logs, recs = log_tree
    data = tmp_path / "data"
    summary = ingest([str(logs)], data)
    assert summary.files == 5
    assert summary.records == 10
    assert summary.hands_added == 10
    assert summary.quarantined == Counter()
    hands = DataDir(data).read("hands").to_pylist()
    got = sorted((h["source_file"], h["game_id"], h["hand_no"]) for h in hands)
    want = sorted(
        (str((logs / name).resolve()), r["game_id"], r["hand_no"])
        for name, rs in recs.items()
        for r in rs
    )
    assert got == want
    all_recs = [r for rs in recs.values() for r in rs]
    assert counts(data) == expected_counts(all_recs)


def test_globs_select_files(
    tmp_path: Path, log_tree: tuple[Path, dict[str, list[dict[str, Any]]]]
) -> None:
    logs, _ = log_tree
    summary = ingest([str(logs / "**" / "*.jsonl*")], tmp_path / "d1")
    assert (summary.files, summary.hands_added) == (3, 7)
    summary = ingest([str(logs / "*.json"), str(logs / "sub" / "*.json")], tmp_path / "d2")
    assert (summary.files, summary.hands_added) == (2, 3)
    # The same file named twice (folder + glob + path) is read once.
    summary = ingest([str(logs), str(logs / "*.jsonl"), str(logs / "a.jsonl")], tmp_path / "d3")
    assert (summary.files, summary.records) == (5, 10)


def test_missing_path_and_non_log_file_raise_no_input(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("x")  # .txt would be read as a score sheet
    with pytest.raises(NoInput, match="no such file, folder or matching glob"):
        ingest([str(tmp_path / "missing.jsonl")], tmp_path / "data")
    with pytest.raises(NoInput, match="not a log or sheet file"):
        ingest([str(tmp_path / "notes.md")], tmp_path / "data")
    with pytest.raises(NoInput):
        ingest([str(tmp_path / "*.jsonl")], tmp_path / "data")


def test_json_single_object_is_one_record(tmp_path: Path) -> None:
    rec = small(1)[0]
    path = tmp_path / "one.json"
    path.write_text("\n\n" + json.dumps(rec, indent=2) + "\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert (summary.records, summary.hands_added) == (1, 1)
    (hand,) = DataDir(tmp_path / "data").read("hands").to_pylist()
    assert hand["source_line"] == 3


def test_json_single_bad_object_is_quarantined_byte_exact(tmp_path: Path) -> None:
    bad = json.dumps(record(ruleset="mcr"), indent=2).encode()
    path = tmp_path / "one.json"
    path.write_bytes(bad + b"\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.quarantined == Counter({"UNKNOWN_RULESET": 1})
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert (row["source_line"], row["raw"], row["field"]) == (1, bad, "$.ruleset")


def test_json_array_line_numbers(tmp_path: Path) -> None:
    r1, r2, r3, r4 = small(4)
    text = (
        "[\n"  # line 1
        f"  {json.dumps(r1)},\n"  # line 2
        f"  {json.dumps(r2)},\n"  # line 3
        "\n"  # line 4
        + "  "
        + json.dumps(r3, indent=2).replace("\n", "\n  ")  # lines 5..
        + ",\n"
    )
    r4_line = text.count("\n") + 1
    text += f"  {json.dumps(r4)}\n]\n"
    path = tmp_path / "night.json"
    path.write_text(text)
    summary = ingest([str(path)], tmp_path / "data")
    assert (summary.records, summary.hands_added) == (4, 4)
    hands = DataDir(tmp_path / "data").read("hands").to_pylist()
    assert [(h["hand_no"], h["source_line"]) for h in hands] == [
        (1, 2),
        (2, 3),
        (3, 5),
        (4, r4_line),
    ]


def test_json_array_bad_element_is_quarantined_with_its_line(tmp_path: Path) -> None:
    r1, r2 = small(2)
    bad = json.dumps(record(hand_no=9, events=[{"type": "discard", "seat": 0, "tile": "0m"}]))
    path = tmp_path / "night.json"
    path.write_text(f"[\n{json.dumps(r1)},\n{bad},\n{json.dumps(r2)}\n]\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.hands_added == 2
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert (row["source_line"], row["code"], row["field"]) == (
        3,
        "UNKNOWN_TILE",
        "$.events[0].tile",
    )
    assert row["raw"] == bad.encode()
    assert row["message"].startswith(f"{path.resolve()}:3: ")


def test_json_array_identical_bad_elements_on_separate_lines(tmp_path: Path) -> None:
    """Two copies of a bad record on lines 2 and 3 are two quarantine rows, at lines 2 and 3."""
    bad = '{"format": "mjlog/1", "game_id": "g1"}'
    path = tmp_path / "night.json"
    path.write_text(f"[\n{bad},\n{bad}\n]\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.records == 2
    rows = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert sorted(r["source_line"] for r in rows) == [2, 3]


def test_json_array_element_that_also_occurs_inside_an_earlier_one(tmp_path: Path) -> None:
    """Line 3 holds ``1``; the text ``1`` also occurs inside the record on line 2."""
    (rec,) = small(1)
    path = tmp_path / "night.json"
    path.write_text(f"[\n{json.dumps(rec)},\n1\n]\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.quarantined == Counter({"NOT_AN_OBJECT": 1})
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert (row["raw"], row["source_line"]) == (b"1", 3)


def test_jsonl_with_bom_and_crlf(tmp_path: Path) -> None:
    r1, r2 = small(2)
    path = tmp_path / "win.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + line(r1) + b"\r\n" + line(r2) + b"\r\n")
    summary = ingest([str(path)], tmp_path / "data")
    assert (summary.hands_added, summary.quarantined) == (2, Counter())


def test_multi_member_gzip_and_multi_frame_zstd(tmp_path: Path) -> None:
    recs = small(4)
    lines = [line(r) for r in recs]
    (tmp_path / "a.jsonl.gz").write_bytes(_gz(lines[:2]) + _gz(lines[2:]))
    (tmp_path / "b.jsonl.zst").write_bytes(_zst(lines[:1]) + _zst(lines[1:]))
    data = tmp_path / "data"
    assert ingest([str(tmp_path / "a.jsonl.gz")], data).hands_added == 4
    hands = DataDir(data).read("hands").to_pylist()
    assert [h["source_line"] for h in hands] == [1, 2, 3, 4]
    summary = ingest([str(tmp_path / "b.jsonl.zst")], tmp_path / "data2")
    assert (summary.hands_added, summary.broken_files) == (4, [])


# --------------------------------------------------------------------------------------
# Broken compressed streams


def test_truncated_gzip_keeps_the_records_before_the_break(tmp_path: Path) -> None:
    recs = synth(4)
    lines = [line(r) for r in recs]
    full = _gz(lines)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(full[: len(full) * 2 // 3])
    data = tmp_path / "data"
    summary = ingest([str(path)], data)
    assert summary.broken_files == [str(path.resolve())]
    assert summary.quarantined == Counter({"FILE_TRUNCATED": 1})
    hands = DataDir(data).read("hands").to_pylist()
    n_ok = len(hands)
    assert n_ok >= 1
    assert [h["source_line"] for h in hands] == list(range(1, n_ok + 1))
    assert counts(data) == expected_counts(recs[:n_ok], quarantined=1)
    (row,) = DataDir(data).read("quarantine").to_pylist()
    assert row["code"] == "FILE_TRUNCATED"
    assert row["source_line"] == n_ok + 1
    assert row["field"] is None
    assert lines[n_ok].startswith(row["raw"])  # the incomplete line, as far as it was read
    assert len(row["raw"]) < len(lines[n_ok])
    assert row["message"].startswith(f"{path.resolve()}:{n_ok + 1}: ")
    assert "truncated" in row["message"]

    # The CLI reports it (exit 1), and a re-run adds nothing.
    result = CliRunner().invoke(app, ["ingest", str(path), "--data", str(data)])
    assert result.exit_code == 1, result.output
    assert counts(data) == expected_counts(recs[:n_ok], quarantined=1)


def test_truncated_zstd_keeps_the_records_before_the_break(tmp_path: Path) -> None:
    recs = small(4)
    comp = zstandard.ZstdCompressor().compressobj()
    out, ends = b"", []
    for r in recs:
        out += comp.compress(line(r) + b"\n") + comp.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        ends.append(len(out))
    path = tmp_path / "cut.jsonl.zst"
    path.write_bytes(out[: ends[2] - 5])  # blocks of lines 1-2 complete, line 3's block cut
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.hands_added == 2
    assert summary.quarantined == Counter({"FILE_TRUNCATED": 1})
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert row["source_line"] == 3


def test_corrupt_gzip_keeps_the_records_before_the_break(tmp_path: Path) -> None:
    """Three records in complete deflate blocks, then garbage: the three are kept."""
    recs = small(3)
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    body = comp.compress(b"".join(line(r) + b"\n" for r in recs)) + comp.flush(zlib.Z_FULL_FLUSH)
    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(body + b"\xff" * 64)  # 0xff: a deflate block of the invalid type 3
    data = tmp_path / "data"
    summary = ingest([str(path)], data)
    assert summary.broken_files == [str(path.resolve())]
    assert summary.quarantined == Counter({"FILE_TRUNCATED": 1})
    assert summary.hands_added == 3
    assert counts(data) == expected_counts(recs, quarantined=1)
    (row,) = DataDir(data).read("quarantine").to_pylist()
    assert row["source_line"] == 4


# --------------------------------------------------------------------------------------
# Determinism


def test_file_order_does_not_change_the_tables(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    a = write_lines(
        logs / "a.jsonl",
        [line(r) for r in small(3, "ga")] + [b'{"format": "mjlog/1"}', line(small(1, "gx")[0])],
    )
    conflicting = small(1, "gx")[0]
    conflicting["table"] = "T2"
    b = logs / "b.jsonl.gz"
    b.write_bytes(_gz([line(r) for r in small(2, "gb")] + [line(conflicting), b"[]"]))
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    s1 = ingest([str(a), str(b)], d1, batch_bytes=900)
    s2 = ingest([str(b), str(a)], d2, batch_bytes=900)
    assert (s1.hands_added, s1.quarantined) == (s2.hands_added, s2.quarantined)
    assert s1.hands_added == 6
    assert s1.quarantined == Counter(
        {"MISSING_FIELD": 1, "DUPLICATE_KEY_CONFLICT": 1, "NOT_AN_OBJECT": 1}
    )
    assert version_records(d1) == version_records(d2)
    files1, files2 = manifest_files(d1), manifest_files(d2)
    assert files1 == files2
    assert len(files1["hands"]) >= 3  # the empty first commit and at least two batches
    for table, names in files1.items():
        for name in names:
            assert (d1 / table / name).read_bytes() == (d2 / table / name).read_bytes(), (
                table,
                name,
            )


# --------------------------------------------------------------------------------------
# Interrupted ingest


def test_crash_between_batches_keeps_committed_batches_and_rerun_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recs = small(5)
    log = write_lines(tmp_path / "night.jsonl", [line(r) for r in recs])
    data = tmp_path / "data"
    real_commit = DataDir.commit_staged
    batches = []

    def failing_commit(self: DataDir, written: Any, remove: Any = (), settled: Any = ()) -> int:
        written = list(written)
        hands = [
            pq.ParquetFile(self.root / rel).metadata.num_rows
            for table, rel in written
            if table == "hands"
        ]
        if any(hands):  # a batch (the first, empty commit has no rows)
            batches.append(sum(hands))
            if len(batches) == 2:
                raise RuntimeError("simulated crash in batch 2")
        return real_commit(self, written, remove, settled)

    monkeypatch.setattr(DataDir, "commit_staged", failing_commit)
    with pytest.raises(RuntimeError, match="simulated crash"):
        ingest([str(log)], data, batch_bytes=1, commit_bytes=1)  # one record per commit
    monkeypatch.setattr(DataDir, "commit_staged", real_commit)
    assert batches == [1, 1]

    assert counts(data) == expected_counts(recs[:1])
    assert catalog_counts(data) == expected_counts(recs[:1])
    assert orphan_rows(data) == [0, 0, 0, 0]

    summary = ingest([str(log)], data, batch_bytes=1, commit_bytes=1)
    assert (summary.hands_added, summary.skipped_present) == (4, 1)
    assert counts(data) == expected_counts(recs)
    assert catalog_counts(data) == expected_counts(recs)
    assert orphan_rows(data) == [0, 0, 0, 0]


def test_crash_inside_a_commit_leaves_the_previous_version_readable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing a file fails after the batch's events and hands files are written."""
    recs = small(4)
    bad = b'{"format": "mjlog/1", "game_id": "g1", "hand_no": 99}'
    lines = [line(recs[0]), line(recs[1]), bad, line(recs[2]), line(recs[3])]
    log = write_lines(tmp_path / "night.jsonl", lines)
    data = tmp_path / "data"
    real_close = PartWriter.close
    written: list[str] = []

    def failing_close(writer: PartWriter) -> tuple[str, str]:
        if writer.n_pending or writer.n_written:
            written.append(writer.table)
            if writer.table == "recorded_results" and written.count(writer.table) == 2:
                raise OSError("simulated disk failure")
        return real_close(writer)

    monkeypatch.setattr(PartWriter, "close", failing_close)
    batch = len(line(recs[0])) + len(line(recs[1]))  # records 1-2, then bad + 3-4
    with pytest.raises(OSError, match="simulated disk failure"):
        ingest([str(log)], data, batch_bytes=batch, commit_bytes=batch)
    monkeypatch.setattr(PartWriter, "close", real_close)
    # the second batch got as far as its hands, seats and events files
    assert written[-4:] == ["hands", "seats", "events", "recorded_results"]

    # Readers see exactly the first batch; the half-written one is invisible.
    assert counts(data) == expected_counts(recs[:2])
    assert catalog_counts(data) == expected_counts(recs[:2])
    assert orphan_rows(data) == [0, 0, 0, 0]
    leftovers = unlisted_files(data)
    assert leftovers["hands"] and leftovers["seats"] and leftovers["events"]  # quarantine is last

    summary = ingest([str(log)], data, batch_bytes=batch, commit_bytes=batch)
    assert (summary.hands_added, summary.skipped_present) == (2, 2)
    assert summary.quarantined == Counter({"MISSING_FIELD": 1})
    assert counts(data) == expected_counts(recs, quarantined=1)
    assert catalog_counts(data) == expected_counts(recs, quarantined=1)
    assert orphan_rows(data) == [0, 0, 0, 0]
    assert unlisted_files(data) == {t: [] for t in TABLES}


def test_batches_are_committed_together_and_a_crash_loses_only_the_uncommitted_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit holds ``commit_bytes`` of input: here three one-record batches, each its
    own files (named part, part.000001, ...), in one version; the rows are those of a
    commit per batch. A crash in the second commit's batches keeps the first commit whole,
    leaves no file of the unfinished one, and a re-run completes the job."""
    recs = small(5)
    lines = [line(r) for r in recs]
    log = write_lines(tmp_path / "night.jsonl", lines)
    group = sum(len(ln) for ln in lines[:3])  # records 1-3 reach it: one commit
    one, grouped = tmp_path / "one", tmp_path / "grouped"
    ingest([str(log)], one, batch_bytes=1, commit_bytes=1)
    ingest([str(log)], grouped, batch_bytes=1, commit_bytes=group)
    assert len(version_records(grouped)) == len(version_records(one)) - 3  # 2 commits, not 5
    hands = [name.rsplit("/", 1)[-1] for name in manifest_files(grouped)["hands"]]
    assert [name.split("-")[0] for name in hands[1:]] == [
        "part", "part.000001", "part.000002", "part", "part.000001",
    ]  # fmt: skip
    for table in TABLES:
        assert DataDir(grouped).read(table).equals(DataDir(one).read(table)), table

    crashed = tmp_path / "crashed"
    real_stage = DataDir.stage_parts
    staged: list[int] = []

    def failing_stage(self: DataDir, parts: Any) -> list[tuple[str, str]]:
        parts = list(parts)
        if any(p.table == "hands" and p.data.num_rows for p in parts):
            staged.append(1)
            if len(staged) == 5:  # the last batch of the second commit
                raise RuntimeError("simulated crash in batch 5")
        return real_stage(self, parts)

    monkeypatch.setattr(DataDir, "stage_parts", failing_stage)
    with pytest.raises(RuntimeError, match="simulated crash"):
        ingest([str(log)], crashed, batch_bytes=1, commit_bytes=group)
    monkeypatch.setattr(DataDir, "stage_parts", real_stage)
    assert counts(crashed) == expected_counts(recs[:3])
    assert unlisted_files(crashed)["hands"]  # batch 4's files, never committed
    summary = ingest([str(log)], crashed, batch_bytes=1, commit_bytes=group)
    assert (summary.hands_added, summary.skipped_present) == (2, 3)
    assert counts(crashed) == expected_counts(recs)
    assert unlisted_files(crashed) == {t: [] for t in TABLES}
    assert orphan_rows(crashed) == [0, 0, 0, 0]


def test_crash_while_building_the_catalog_is_repaired_by_a_rerun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the manifest of the last batch is replaced, before catalog.duckdb is:
    the re-run has nothing to add, but it must still leave a catalog that agrees."""
    recs = small(3)
    log = write_lines(tmp_path / "night.jsonl", [line(r) for r in recs])
    data = tmp_path / "data"
    real_build = DataDir.build_catalog
    calls: list[int] = []

    def interrupted_build(self: DataDir) -> None:
        # Interrupt the catalog build that follows the batch's manifest (version 2: the
        # empty first commit is version 1), once.
        if self.manifest()["version"] >= 2 and not calls:
            calls.append(1)
            raise KeyboardInterrupt
        real_build(self)

    monkeypatch.setattr(DataDir, "build_catalog", interrupted_build)
    with pytest.raises(KeyboardInterrupt):
        ingest([str(log)], data)
    monkeypatch.setattr(DataDir, "build_catalog", real_build)
    assert counts(data) == expected_counts(recs)  # the manifest was committed

    summary = ingest([str(log)], data)
    assert (summary.hands_added, summary.skipped_present) == (0, 3)
    assert catalog_counts(data) == expected_counts(recs)


# --------------------------------------------------------------------------------------
# The write lock


def test_second_writer_gets_data_dir_busy(tmp_path: Path) -> None:
    log = write_lines(tmp_path / "a.jsonl", [line(r) for r in small(2)])
    data = tmp_path / "data"
    with DataDir(data).writing():
        with pytest.raises(DataDirBusy, match="another mjaudit command is writing"):
            ingest([str(log)], data)
        with pytest.raises(DataDirBusy), DataDir(data).writing():
            pass
        result = CliRunner().invoke(app, ["ingest", str(log), "--data", str(data)])
        assert result.exit_code == 2
        message = one_line(result.stderr)
        assert "another mjaudit command is writing to this data folder" in message
        assert "--wait" in message
        assert str(data) in message
    assert counts(data) == expected_counts([])
    # Released: the next writer goes ahead.
    assert ingest([str(log)], data).hands_added == 2


def test_wait_queues_behind_the_lock_holder(tmp_path: Path) -> None:
    log = write_lines(tmp_path / "a.jsonl", [line(r) for r in small(2)])
    data = tmp_path / "data"
    holding = threading.Event()

    def hold() -> None:
        with DataDir(data).writing():
            holding.set()
            time.sleep(0.4)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(5)
    start = time.monotonic()
    summary = ingest([str(log)], data, wait=True)
    waited = time.monotonic() - start
    holder.join()
    assert summary.hands_added == 2
    assert waited >= 0.2


# --------------------------------------------------------------------------------------
# The CLI and the catalog


def test_cli_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    good = write_lines(tmp_path / "good.jsonl", [line(r) for r in small(2)])
    mixed = write_lines(
        tmp_path / "mixed.jsonl", [line(small(1, "g2")[0]), b'{"format": "mjlog/1"}']
    )
    data = tmp_path / "data"

    ok = runner.invoke(app, ["ingest", str(good), "--data", str(data)])
    assert ok.exit_code == 0, ok.output
    assert "hands added" in ok.stdout

    quarantined = runner.invoke(app, ["ingest", str(mixed), "--data", str(data)])
    assert quarantined.exit_code == 1, quarantined.output
    assert f"{mixed.resolve()}:2: $.game_id: required field is missing" in one_line(
        quarantined.stderr
    )

    missing = runner.invoke(app, ["ingest", str(tmp_path / "nope.jsonl"), "--data", str(data)])
    assert missing.exit_code == 2
    assert "no such file, folder or matching glob" in one_line(missing.stderr)

    (tmp_path / "notes.md").write_text("x")
    not_log = runner.invoke(app, ["ingest", str(tmp_path / "notes.md"), "--data", str(data)])
    assert not_log.exit_code == 2
    assert "not a log or sheet file" in one_line(not_log.stderr)

    assert counts(data) == expected_counts(small(2) + small(1, "g2"), quarantined=1)


@pytest.mark.parametrize(
    ("manifest", "needle"),
    [('{"layout": "something-else/3"}', "not an mjaudit data folder"), ("{oops", "unreadable")],
    ids=["foreign", "corrupt"],
)
def test_cli_refuses_a_folder_that_is_not_ours(tmp_path: Path, manifest: str, needle: str) -> None:
    log = write_lines(tmp_path / "a.jsonl", [line(r) for r in small(1)])
    data = tmp_path / "data"
    data.mkdir()
    (data / "_manifest.json").write_text(manifest)
    result = CliRunner().invoke(app, ["ingest", str(log), "--data", str(data)])
    assert result.exit_code == 2
    assert needle in one_line(result.stderr)
    assert (data / "_manifest.json").read_text() == manifest
    assert sorted(p.name for p in data.iterdir() if not p.name.startswith(".")) == [
        "_manifest.json"
    ]


def test_catalog_answers_queries(tmp_path: Path) -> None:
    recs = synth(5)
    log = write_lines(tmp_path / "night.jsonl", [line(r) for r in recs] + [b"nonsense"])
    data = tmp_path / "data"
    ingest([str(log)], data)
    assert catalog_query(data, "select count(*) from hands") == [(5,)]
    assert catalog_counts(data) == expected_counts(recs, quarantined=1)
    assert catalog_query(data, "select code, source_line from quarantine") == [("BAD_JSON", 6)]
    assert catalog_query(data, "select count(*) from events where type = 'exhaustive_draw'") == [
        (5,)
    ]


def test_empty_data_dir_has_queryable_views(tmp_path: Path) -> None:
    with DataDir(tmp_path / "data").writing():
        pass
    assert catalog_counts(tmp_path / "data") == {t: 0 for t in TABLES}


# --------------------------------------------------------------------------------------
# A valid record must never abort the whole ingest


@pytest.mark.parametrize(
    "event",
    [
        {"type": "exhaustive_draw", "seat": "E"},
        {"type": "abandon", "reason": "dispute", "seat": 300},
        {"type": "abandon", "tile": 5},
        {"type": "announce", "seat": 1, "what": "kong_robbed", "from": "N"},
    ],
    ids=["seat-str", "seat-300", "tile-int", "from-str"],
)
def test_unknown_event_field_named_like_a_column_does_not_crash_ingest(
    tmp_path: Path, event: dict[str, Any]
) -> None:
    """A field named like a seat or tile on an event that does not define it must hold one
    (the engines read these names off any event), except on ``announce``, which keeps its
    further fields as they are; either way ingest goes on with the rest of the file."""
    good = small(2)
    weird = record(game_id="g9", hand_no=1, events=[event])
    if event["type"] == "announce":
        assert parse_record(line(weird)).record["events"] == [event]  # kept as it is
    else:
        with pytest.raises(RecordError) as err:
            parse_record(line(weird))
        assert err.value.path.startswith("$.events[0].")
    log = write_lines(tmp_path / "a.jsonl", [line(good[0]), line(weird), line(good[1])])
    summary = ingest([str(log)], tmp_path / "data")
    assert summary.hands_added + summary.n_quarantined == 3
    assert summary.hands_added >= 2


def test_reingest_with_the_stored_keys_loaded_file_by_file_and_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The de-duplication index loads the stored keys a group of files at a time and keeps
    long runs on disk: a second ingest of the same hands adds none, a changed record with a
    stored key is a conflict, a new hand is added."""
    monkeypatch.setattr(pipeline, "INDEX_GROUP_BYTES", 1)  # one file per group
    monkeypatch.setattr(key_index, "SPILL_ROWS", 2)
    recs = small(7)
    data = tmp_path / "data"
    for k in range(0, 6, 2):  # three ingests: several hands files
        ingest(
            [str(write_lines(tmp_path / f"n{k}.jsonl", [line(r) for r in recs[k : k + 2]]))], data
        )
    changed = dict(recs[1], venue="elsewhere")
    log = write_lines(
        tmp_path / "all.jsonl", [line(r) for r in recs[:6]] + [line(changed), line(recs[6])]
    )
    summary = ingest([str(log)], data)
    assert (summary.hands_added, summary.skipped_present) == (1, 6)
    assert summary.quarantined == Counter({"DUPLICATE_KEY_CONFLICT": 1})
    assert counts(data) == expected_counts(recs, quarantined=1)


def test_wait_says_it_is_waiting_and_for_whom(tmp_path: Path) -> None:
    """`ingest --wait` printed nothing while it waited (issue 20); a busy folder's error
    names the command that holds it."""
    log = write_lines(tmp_path / "a.jsonl", [line(r) for r in small(2)])
    data = tmp_path / "data"
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with DataDir(data).writing():
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(30)
    told: list[str] = []
    with pytest.raises(DataDirBusy) as busy:
        ingest([str(log)], data)
    assert f", pid {os.getpid()})" in str(busy.value)

    def waiting(message: str) -> None:
        told.append(message)
        release.set()  # the holder lets go once the waiter has said it waits

    summary = ingest([str(log)], data, wait=True, on_wait=waiting)
    holder.join()
    assert summary.hands_added == 2
    assert len(told) == 1 and told[0].startswith("waiting for another mjaudit command (`")
    assert f", pid {os.getpid()}) to finish writing to {data}" in told[0]
    assert not (data / ".mjaudit.writer").exists()  # the note goes with the lock
