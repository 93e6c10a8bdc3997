"""The vn-160 state's simulator API agrees with the replay (found by the simulator):
thiên ù is offered to a dealer dealt a winning hand, and a hand holding an undeclared
flower has no wait (rather than an error)."""

from __future__ import annotations

from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.rulesets.vn160.replayer import replay_to
from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX
from test_vn160_examples import record


def test_self_actions_offer_thien_u_before_any_event() -> None:
    rec = record({"E": "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p"}, ["E tsumo 5p"])
    state = replay_to(rec, None)
    assert {"type": "win", "seat": 0, "tile": "5p"} in state.self_actions(0)
    assert replay_hand(rec).fan == 14  # V7: the replay agrees it is a win


def test_self_actions_offer_no_win_to_a_dealer_not_dealt_one() -> None:
    rec = record({"E": "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p E"}, ["E discard E"])
    state = replay_to(rec, None)
    assert not [a for a in state.self_actions(0) if a["type"] == "win"]


def test_waits_with_an_undeclared_flower_is_empty() -> None:
    rec = record({"S": "1m2m3m 4p5p6p 7s8s9s 2s3s 5s f1"}, ["E discard E"])
    state = replay_to(rec, 0)
    assert state.waits(1) == ()
    assert INDEX["f1"] in state.concealed_tiles(1)
