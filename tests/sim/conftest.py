"""One planted simulation shared by the accuracy and realism tests (it is the slow part)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import simulate

# Sittings per ruleset: about 2,300 hands in all (a sitting is 16+ hands, 8+ for two players).
MIX = (("hk-classic", 30), ("hk-mahjongo", 26), ("hk-mahjongo-2p", 36))
SEED = 20260301
RATE = 0.2


@dataclass
class Planted:
    records: list[dict[str, Any]]
    labels: list[dict[str, Any]]
    reports: list[HandReport]


@pytest.fixture(scope="session")
def planted() -> Planted:
    records: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    for i, (ruleset, games) in enumerate(MIX):
        for rec, labs in simulate(ruleset, games, seed=SEED + i, violations=RATE):
            records.append(rec)
            labels.extend(labs)
    return Planted(records, labels, list(replay_games(records)))
