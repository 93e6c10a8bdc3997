"""A post's state summary, read off the hand state by the ruleset's ``state_summary``
(service/view.py), is the summary of the whole view model of that state, at every event
of simulated sittings of every ruleset (with planted violations: dead hands and the like)."""

from __future__ import annotations

from typing import Any

import pytest
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import replay_games, replay_hand
from mjaudit.parts.replay.sim import rulesets as simulated
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.service.view import _model, summary, summary_json

from tests.service.riichi_game import real_game
from tests.service.test_stepper import PLAYABLE


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_the_state_summary_is_the_summary_of_the_view(ruleset: str) -> None:
    rs = registry.get(ruleset)
    assert rs is not None and rs.state_view is not None and rs.state_summary is not None
    compared = out_of_play = 0

    def observe(index: int, state: Any) -> None:
        nonlocal compared, out_of_play
        got = summary_json(rs.state_summary(state, index))
        assert got == summary(_model(rs.state_view(state, index))), f"event {index}"
        compared += 1
        out_of_play += bool(got["dead"])

    if ruleset in simulated():
        records = [r for r, _ in simulate(ruleset, games=1, seed=5, violations=0.9)]
    else:
        records = real_game(ruleset)
    reports = list(replay_games(records))  # one sitting: each hand after the one before
    for k, record in enumerate(records):
        replay_hand(record, previous=reports[k - 1] if k else None, observer=observe)
    assert compared > 0
    assert out_of_play > 0, "the sittings should put a seat out of play somewhere"
