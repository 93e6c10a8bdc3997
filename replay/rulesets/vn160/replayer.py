"""Replay one ``vn-160`` hand record into a :class:`HandReport` (pure: record in, report out).

``replay_vn160`` is the :data:`replay.engine.REGISTRY` entry; :func:`replay_to` gives the
table after any event for the step-through viewer (``mjaudit show``), like
:func:`replay.hk.replayer.replay_to`.
"""

from __future__ import annotations

from typing import Any

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.loop import HandRules
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    multiple_winners,
    multiset_diff,
    penalties_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.engine.rotation import Rotation, check_rotation, round_start
from mjaudit.parts.replay.rulesets.vn160.hand import VNHand
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions, options_for
from mjaudit.parts.replay.rulesets.vn160.scoring import con


def _fields(hand: VNHand, base: dict[str, Any], previous: HandReport | None) -> dict[str, Any]:
    deltas = hand.settlement()
    top = hand.settled[0] if hand.settled else None
    score = top.score if top is not None else None
    extras: dict[str, Any] = {
        "round_start_dealer": round_start(hand.record, previous),
        "mat_u": {str(s): code for s, code in sorted(hand.mat_u.items())},
        "penalties": hand.penalties() if not hand.stopped else [],
    }
    if score is not None:
        extras.update(score.to_extras())
        extras["con"] = con(score.phan, hand.opts)
        extras["cai"] = hand.opts.cai_multiplier * con(score.phan, hand.opts)
    return dict(
        base,
        **hand.win_fields(),
        fan=score.phan if score is not None else None,
        raw_fan=score.phan if score is not None else None,
        patterns=score.patterns if score is not None else (),
        liable=top.discarder if top is not None and top.bonus_win else None,
        deltas=None if deltas is None else tuple(deltas),
        ended_by=hand.ended_by,
        extras=extras,
    )


def dealer_stays(previous: HandReport, opts: VNOptions) -> bool:
    """§2.1: the dealer deals again after winning; a draw (or false win) passes the deal
    unless ``dealer_on_draw = stay``. An abandoned hand is replayed by the same dealer [D]."""
    if previous.ended_by == "win":
        return previous.dealer in previous.winners
    if previous.ended_by in ("exhaustive_draw", "false_win"):
        return opts.dealer_on_draw == "stay"
    return True


def _rotation(hand: VNHand, previous: HandReport | None) -> None:
    """#4 DEALER_ROTATION_MISMATCH: dealer and prevailing wind against the previous hand."""
    rules = Rotation(
        stays=lambda prev: dealer_stays(prev, hand.opts),
        missing="hand {n} of this game is not available: rotation not checked",
        wind_code="DEALER_ROTATION_MISMATCH",
        first_hand="hand 1 is played in round {wind}",
    )
    check_rotation(hand, previous, rules)


def _compare(hand: VNHand, result: dict[str, Any], report: dict[str, Any]) -> bool:
    """#30 RESULT_MISMATCH / MULTIPLE_WINNERS (SCORE_MISMATCH); ``report``: its fields."""
    winners = result.get("winners", [])
    if len(winners) > 1 and not hand.opts.multiple_winners:
        multiple_winners(hand, winners, "vn-160")
    diffs = [winners_diff(winners, report["winners"])]
    if result.get("fan") is not None and report["winners"]:
        diffs.append(value_diff("phán", result["fan"], report["fan"]))
    if result.get("patterns") is not None and report["winners"]:
        recorded = [p for p in result["patterns"] if p != "u_muoi"]
        computed = [p for p in report["extras"].get("instances", ()) if p != "u_muoi"]
        diffs.append(multiset_diff("patterns", recorded, computed))
    if result.get("deltas") is not None and report["deltas"] is not None:
        diffs.append(deltas_diff(result["deltas"], report["deltas"]))
    if "penalties" in result:
        computed_p = ((p["seat"], p["code"]) for p in report["extras"].get("penalties", ()))
        diffs.append(penalties_diff(result.get("penalties") or (), computed_p))
    mismatch(hand, "RESULT_MISMATCH", diffs)
    return not any(f.code in ("RESULT_MISMATCH", "MULTIPLE_WINNERS") for f in hand.findings)


RULES = HandRules.of(
    options_for, VNHand, _fields, _compare, option_error="RECORD_INVALID", rotation=_rotation
)
replay_vn160 = RULES.replay  # the registry's replay: the one loop on these rules
replay_to = RULES.replay_to  # the table after an event, for step-through
