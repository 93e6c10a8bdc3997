"""Fuzzing the rules engines through the fields they read (``engine_fuzzing``): a mutated
record is quarantined by ingest with its field's path, or replayed with findings, by the
``check`` path (dicts) and the archive path (columns) alike; never an exception, never an
ENGINE_ERROR. Then whole files of good and mutated records through ingest and replay:
records read = kept + quarantined, every good record kept, every kept hand replayed.
(``bench/fuzz.py`` runs the first property for longer.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR

from tests.hardening.engine_fuzzing import BASES, check_mutant, engine_mutant

FUZZ = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(case=engine_mutant())
def test_engines_answer_mutated_fields_with_findings(case) -> None:
    record, what = case
    check_mutant(record, what)


@settings(FUZZ, max_examples=12)
@given(
    mutants=st.lists(engine_mutant(), min_size=1, max_size=6),
    goods=st.lists(st.sampled_from(range(len(BASES))), min_size=1, max_size=4),
)
def test_archive_keeps_every_good_record_and_replays_every_kept_hand(mutants, goods) -> None:
    lines: list[bytes] = []
    good_ids = set()
    for n, i in enumerate(goods):
        rec = dict(BASES[i], game_id=f"good-{n}")
        good_ids.add((rec["game_id"], rec["hand_no"]))
        lines.append(json.dumps(rec, ensure_ascii=False).encode())
    for n, (rec, _) in enumerate(mutants):
        rec = dict(rec, game_id=f"mut-{n}")
        lines.append(json.dumps(rec, ensure_ascii=False).encode())
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        log.write_bytes(b"".join(ln + b"\n" for ln in lines))
        summary = ingest([str(log)], Path(tmp) / "data")
        assert summary.records == len(lines)
        assert summary.records == summary.hands_added + summary.n_quarantined
        data = DataDir(Path(tmp) / "data")
        kept = {(h["game_id"], h["hand_no"]) for h in data.read("hands").to_pylist()}
        assert good_ids <= kept
        replayed = replay_archive(Path(tmp) / "data")
        assert replayed.engine_errors == 0, data.read("findings").to_pylist()
        results = {(r["game_id"], r["hand_no"]) for r in data.read("hand_results").to_pylist()}
        assert results == kept
        codes = {f["code"] for f in data.read("findings").to_pylist()}
        assert ENGINE_ERROR not in codes


def test_a_bad_option_holding_an_unsorted_object_reads_the_same_from_the_archive() -> None:
    """Found by the fuzz: the archive stores options as sorted-key JSON, so the message of
    a bad option holding an object (and which of two bad options is named) must not
    depend on the order the log wrote the keys in."""
    base = next(b for b in BASES if b["ruleset"] == "vn-160")
    record = dict(base, options={"cai_multiplier": [{"w": 1, "": True}], "bad_b": 1, "bad_a": 2})
    check_mutant(record, "unsorted option object")
