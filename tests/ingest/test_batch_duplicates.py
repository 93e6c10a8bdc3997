"""A second copy of a hand in the same batch adds no rows to any table.

Ingest commits a batch at a time; a copy of a hand met again in the same batch (identical:
skipped, or different: quarantined as a key conflict) has the kept hand's key, so its
seats, events and recorded results must be dropped by position, not by key.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pyarrow.parquet as pq
from ingest_helpers import counts, write_lines
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir

from bench.synthlog import records as synth_records


def _lines(recs: list[dict]) -> list[bytes]:
    return [msgspec.json.encode(r) for r in recs]


def test_identical_copy_in_one_batch_adds_no_rows(tmp_path: Path) -> None:
    (rec,) = synth_records(1, seed=5)
    log = write_lines(tmp_path / "a.jsonl", _lines([rec, rec]))
    summary = ingest([str(log)], tmp_path / "data")
    assert (summary.hands_added, summary.skipped_present) == (1, 1)
    n_events = len(rec["events"])
    assert counts(tmp_path / "data") == {
        "hands": 1,
        "seats": 4,
        "events": n_events,
        "recorded_results": 4,
        "quarantine": 0,
    }


def test_conflicting_copy_in_one_batch_keeps_only_the_first_hands_rows(tmp_path: Path) -> None:
    first, other = synth_records(2, seed=6)
    conflict = {**other, "game_id": first["game_id"], "hand_no": first["hand_no"]}
    log = write_lines(tmp_path / "a.jsonl", _lines([first, conflict]))
    summary = ingest([str(log)], tmp_path / "data")
    assert summary.hands_added == 1
    assert dict(summary.quarantined) == {"DUPLICATE_KEY_CONFLICT": 1}
    events = DataDir(tmp_path / "data").read("events").sort_by("event_index")
    assert events.column("event_index").to_pylist() == list(range(len(first["events"])))
    assert events.column("tile").to_pylist() == [ev.get("tile") for ev in first["events"]]
    players = DataDir(tmp_path / "data").read("seats").sort_by("seat").column("player")
    assert players.to_pylist() == first["players"]


def test_copies_in_a_batch_of_several_partitions(tmp_path: Path) -> None:
    """Hands of three months, interleaved, in one batch (a part per partition), with copies."""
    recs = list(synth_records(120, seed=7))
    for i, rec in enumerate(recs):
        rec["started_at"] = f"2026-0{1 + i % 3}-0{1 + i % 7}T23:30:00+07:00"
    lines = _lines(recs)
    log = write_lines(tmp_path / "a.jsonl", [*lines, lines[3], lines[60], *lines[100:]])
    summary = ingest([str(log)], tmp_path / "data")
    assert (summary.hands_added, summary.skipped_present) == (120, 22)
    assert counts(tmp_path / "data") == {
        "hands": 120,
        "seats": 480,
        "events": sum(len(r["events"]) for r in recs),
        "recorded_results": 480,
        "quarantine": 0,
    }
    data = DataDir(tmp_path / "data")
    folders = {rel.rsplit("/", 1)[0] for rel in data.manifest()["tables"]["events"]}
    assert {f for f in folders if "month=" in f} == {
        f"events/ruleset=hk-mahjongo/month=2026-0{m}" for m in (1, 2, 3)
    }
    month_of = {(r["game_id"], r["hand_no"]): 1 + i % 3 for i, r in enumerate(recs)}
    for table in ("hands", "seats", "events", "recorded_results"):
        for rel in data.manifest()["tables"][table]:
            if "month=" not in rel:
                continue  # the empty file every table starts with
            month = int(rel.split("month=2026-")[1][:2])
            rows = pq.read_table(data.root / rel).select(["game_id", "hand_no"]).to_pylist()
            assert {month_of[(r["game_id"], r["hand_no"])] for r in rows} == {month}, rel
