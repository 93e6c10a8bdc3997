"""Every ruleset: a simulated sitting played through the API event by event gives what
``mjaudit check`` gives on the same hands, and the archive holds each finished hand once."""

from __future__ import annotations

from pathlib import Path

import pytest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import rulesets as simulated
from mjaudit.parts.replay.sim import write_simulation
from mjaudit.parts.schemas.rulesets import RULESET_IDS
from mjaudit.parts.service.app import create_app
from mjaudit.parts.service.config import ServeConfig
from mjaudit.parts.service.view import summary, table_model
from starlette.testclient import TestClient

from mjaudit.api import read_log
from tests.service.conftest import WRITE
from tests.service.play import engine_fields, play
from tests.service.riichi_game import real_game

# the rulesets with a step-through view (score-sheet hands have no events): a simulated
# sitting with planted violations, or a real game where there is no simulator (riichi)
PLAYABLE = [r for r in RULESET_IDS if (rs := registry.get(r)) is not None and rs.position]
HANDS = 5  # the first hands of one sitting: each has the hand before it (rotation checks)


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_a_sitting_played_live_gives_the_findings_of_check(
    ruleset: str, config: ServeConfig, tmp_path: Path
) -> None:
    if ruleset in simulated():
        log = tmp_path / "sitting.jsonl"
        write_simulation(log, ruleset, games=1, seed=11, violations=0.6)
        records = read_log(log)[:HANDS]
    else:
        records = real_game(ruleset)[:HANDS]
    checked = list(replay_games(records))
    if ruleset in simulated():
        assert any(rep.findings for rep in checked), "the sitting should plant violations"
    with TestClient(create_app(config)) as client:
        for n, (record, rep) in enumerate(zip(records, checked, strict=True)):
            got = play(client, WRITE["t1"], record, batch=1 + n % 3)
            end = got["end"]
            expected = rep.to_json()
            # raised at the events, then at the end: together, check's findings in order
            assert engine_fields(got["raised"] + end["end_findings"]) == expected["findings"]
            assert engine_fields(end["findings"]) == expected["findings"]
            assert end["settlement"] == {k: v for k, v in expected.items() if k != "findings"}
            assert end["ended_by"] == rep.ended_by
            assert end["archive"]["status"] == "stored"
            # each post's state comes from the replay that judged it: the same as the
            # table stepped again to that event (whose turn, the wall, the dead hands)
            for taken, state in got["states"]:
                again = summary(table_model({**record, "events": record["events"][:taken]}))
                assert state == again, f"hand {record['hand_no']}, after {taken} events"
    hands = DataDir(config.data).scan("hands").select("game_id", "hand_no").collect()
    assert sorted(hands.rows()) == sorted((r["game_id"], r["hand_no"]) for r in records)
