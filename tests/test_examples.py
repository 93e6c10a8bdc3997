"""The example logs shipped in examples/ (one simulated evening per ruleset family, with
planted breaks labelled in the sidecar files) replay to exactly their labels: what a new
user sees with `mjaudit check examples/...` is what the labels say happened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim.accuracy import score
from mjaudit.parts.schemas.records import parse_record

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("name", ["chan-evening", "vn160-evening", "american-evening"])
def test_example_evening_replays_to_its_labels(name: str) -> None:
    log = EXAMPLES / f"{name}.jsonl"
    labels = [json.loads(line) for line in (EXAMPLES / f"{name}.labels.jsonl").open()]
    records = [parse_record(line).record for line in log.read_bytes().splitlines()]
    result = score(replay_games(records), labels)
    assert result.labels > 0 and result.hands == len(records)
    assert result.recall == 1.0, result.missed
    assert result.precision == 1.0 and result.strict_precision == 1.0
