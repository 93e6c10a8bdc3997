"""One sitting driver and one hand driver serve every ruleset's simulator (issue 18)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from mjaudit.parts.replay.sim import REGISTRY, core, simulate
from mjaudit.parts.replay.sim.core import HandSim, SimulationError, State


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_every_hand_is_played_by_the_one_hand_driver(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ruleset keeps a hand loop of its own: each hand yielded went through
    ``HandSim.run``, called once by ``core.play_sitting``."""
    played: list[str] = []
    real = HandSim.run

    def run(self: HandSim) -> None:
        played.append(self.record["game_id"])
        real(self)

    monkeypatch.setattr(HandSim, "run", run)
    hands = [record["game_id"] for record, _ in simulate(ruleset, 1, seed=5, violations=0.3)]
    assert hands and played == hands


class _Stuck(HandSim):
    """A hand sim whose step never lets the hand end."""

    def begin(self) -> State:
        self.steps = 0
        return ("wait", 0)

    def do_wait(self, seat: int) -> State:
        self.steps += 1
        return ("wait", (seat + 1) % 4)


def test_a_hand_that_does_not_end_is_a_simulator_bug() -> None:
    record: dict[str, Any] = {"game_id": "stuck", "hand_no": 3, "events": []}
    sim = _Stuck(record, None, [], random.Random(0), None)
    with pytest.raises(SimulationError, match="stuck hand 3: the hand does not end"):
        sim.run()
    assert sim.steps == core.MAX_STEPS
