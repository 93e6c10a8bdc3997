"""The inline draw/discard path of ``HKHand.run`` is an optimisation, not a second engine.

``replay_hk`` replays through :meth:`HKHand.run` (plain draws and discards inline) when no
observer is given, and steps every event through :meth:`HKHand.step` when one is. Over
simulated sittings of every Hong Kong preset, a fifth of the hands with a planted rule
break, both ways must give the same report, findings and final table state.
"""

from __future__ import annotations

from typing import Any

import pytest
from mjaudit.parts.replay.engine.findings import FindingClass, HandReport, Stop
from mjaudit.parts.replay.rulesets.hk.hand import HKHand
from mjaudit.parts.replay.rulesets.hk.options import options_for
from mjaudit.parts.replay.rulesets.hk.replayer import replay_hk
from mjaudit.parts.replay.sim import simulate

SITTINGS = (("hk-classic", 3), ("hk-mahjongo", 3), ("hk-mahjongo-2p", 4))


def _records(ruleset: str, games: int) -> list[dict[str, Any]]:
    return [rec for rec, _labels in simulate(ruleset, games, seed=7, violations=0.2)]


def _final_state(record: dict[str, Any], inline: bool) -> dict[str, Any]:
    hand = HKHand(record, options_for(record["ruleset"], record.get("options")))
    try:
        hand.start()
        if inline:
            hand.run(record["events"])
        else:
            for i, ev in enumerate(record["events"]):
                hand.step(i, ev)
    except Stop:
        pass
    return vars(hand)


@pytest.mark.parametrize(("ruleset", "games"), SITTINGS)
def test_inline_path_gives_the_reports_and_state_of_stepping(ruleset: str, games: int) -> None:
    records = _records(ruleset, games)
    assert len(records) > 20
    previous: HandReport | None = None
    with_findings = 0
    for rec in records:
        prior = (
            previous if previous is not None and previous.hand_no == rec["hand_no"] - 1 else None
        )
        fast = replay_hk(rec, None, prior)
        stepped = replay_hk(rec, None, prior, observer=lambda i, hand: None)
        assert fast == stepped, (rec["game_id"], rec["hand_no"])
        assert _final_state(rec, inline=True) == _final_state(rec, inline=False)
        with_findings += any(f.cls is not FindingClass.INFO for f in fast.findings)
        previous = fast
    assert with_findings > 0  # the planted breaks reach the comparison
