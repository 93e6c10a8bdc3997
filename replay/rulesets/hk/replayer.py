"""Replay one Hong Kong hand record into a :class:`HandReport` (pure: record in, report out)."""

from __future__ import annotations

from typing import Any

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.loop import FromClass, HandRules
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    multiple_winners,
    multiset_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.engine.rotation import Rotation, check_rotation, round_start
from mjaudit.parts.replay.rulesets.hk.hand import HKHand
from mjaudit.parts.replay.rulesets.hk.options import HKOptions, options_for


def _options(record: dict[str, Any], merged: dict[str, object]) -> HKOptions:
    return options_for(record["ruleset"], merged)


def _fields(hand: HKHand, base: dict[str, Any], previous: HandReport | None) -> dict[str, Any]:
    """The report's fields: the recorded-result check reads them before the (frozen, so
    costly) HandReport is made with the final findings."""
    deltas, liable = hand.settlement()
    top = hand.settled[0] if hand.settled else None
    score = top.score if top is not None else None
    return dict(
        base,
        **hand.win_fields(),
        fan=score.fan if score is not None else None,
        raw_fan=score.raw_fan if score is not None else None,
        patterns=score.patterns if score is not None else (),
        liable=liable,
        deltas=None if deltas is None else tuple(deltas),
        ended_by=hand.ended_by,
        extras={
            "instances": score.instances if score is not None else (),
            "is_limit": score.is_limit if score is not None else None,
            "round_start_dealer": round_start(hand.record, previous),
        },
    )


def _dealer_stays(hand: HKHand, previous: HandReport) -> bool:
    """§2: a dealer's win, a false win and an abandoned hand keep the deal, and so does an
    exhaustive draw with ``dealer_on_draw = stay``."""
    if previous.ended_by == "win" and previous.dealer in previous.winners:
        return True
    return previous.ended_by in ("false_win", "abandon") or (
        previous.ended_by == "exhaustive_draw" and hand.opts.dealer_on_draw == "stay"
    )


def _rotation(hand: HKHand, previous: HandReport | None) -> None:
    """#3 DEALER_ROTATION_MISMATCH / PREVAILING_WIND_MISMATCH against the previous hand."""
    rules = Rotation(
        stays=lambda prev: _dealer_stays(hand, prev),
        missing="hand {n} of this game is not in the archive: rotation not checked",
        wind_code="PREVAILING_WIND_MISMATCH",
    )
    check_rotation(hand, previous, rules)


def _compare(hand: HKHand, result: dict[str, Any], report: dict[str, Any]) -> bool:
    """#44 RECORDED_RESULT_MISMATCH and #39 MULTIPLE_WINNERS; ``report``: the report's fields.
    The result matches when neither is found."""
    winners = result.get("winners", [])
    if len(winners) > 1 and not hand.opts.multiple_winners:
        multiple_winners(hand, winners, hand.ruleset)
    computed_winners, deltas = report["winners"], report["deltas"]
    diffs = [winners_diff(winners, computed_winners)]
    if "fan" in result and computed_winners:
        diffs.append(value_diff("fan", result["fan"], report["fan"]))
    if "patterns" in result and computed_winners:
        computed = report["extras"].get("instances", ())
        diffs.append(multiset_diff("patterns", result["patterns"], computed))
    if "deltas" in result and deltas is not None:
        diffs.append(deltas_diff(result["deltas"], deltas))
    mismatch(hand, "RECORDED_RESULT_MISMATCH", diffs)
    return not any(
        f.code in ("RECORDED_RESULT_MISMATCH", "MULTIPLE_WINNERS") for f in hand.findings
    )


_hand = FromClass(HKHand)  # the hand state needs only the record and its options
RULES = HandRules(
    _options, _hand, _fields, _compare, option_error="RULESET_UNKNOWN", rotation=_rotation
)
replay_hk = RULES.replay  # the registry's replay: the one loop on these rules
replay_to = RULES.replay_to  # the table after an event, for step-through
