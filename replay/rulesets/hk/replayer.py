"""Replay one Hong Kong hand record into a :class:`HandReport` (pure: record in, report out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    multiple_winners,
    multiset_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.engine.rotation import Rotation, check_rotation, round_start
from mjaudit.parts.replay.engine.stepping import report_base, step_to, walk
from mjaudit.parts.replay.rulesets.hk.hand import HKHand
from mjaudit.parts.replay.rulesets.hk.options import OptionError, options_for

Observer = Callable[[int, HKHand], None]


def replay_hk(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: Observer | None = None,
) -> HandReport:
    """Replay ``record``; ``previous`` is the report of hand ``hand_no - 1`` of the same game."""
    base = report_base(record)
    try:
        opts = options_for(record["ruleset"], {**record.get("options", {}), **(overrides or {})})
    except OptionError as exc:
        finding = Finding(None, None, "RULESET_UNKNOWN", FindingClass.CORRUPT_LOG, str(exc))
        return HandReport(**base, findings=(finding,), ended_by="corrupt")
    hand = HKHand(record, opts)
    walk(hand, record["events"], lambda: _rotation(hand, previous), observer)
    deltas, liable = hand.settlement()
    winners = tuple(sorted(c.seat for c in hand.settled))
    top = hand.settled[0] if hand.settled else None
    score = top.score if top is not None else None
    # The report's fields, built once: the recorded-result check reads them before the
    # (frozen, so costly) HandReport is made with the final findings.
    fields: dict[str, Any] = dict(
        base,
        winners=winners,
        self_drawn=top is not None and top.discarder is None,
        discarder=top.discarder if top is not None else None,
        fan=score.fan if score is not None else None,
        raw_fan=score.raw_fan if score is not None else None,
        patterns=score.patterns if score is not None else (),
        liable=liable,
        deltas=None if deltas is None else tuple(deltas),
        ended_by=hand.ended_by,
        extras={
            "instances": score.instances if score is not None else (),
            "is_limit": score.is_limit if score is not None else None,
            "round_start_dealer": round_start(record, previous),
        },
    )
    if not hand.stopped:
        _compare_recorded(hand, fields)
    matches = None
    if record.get("result") is not None and not hand.stopped:
        matches = not any(
            f.code in ("RECORDED_RESULT_MISMATCH", "MULTIPLE_WINNERS") for f in hand.findings
        )
    return HandReport(**fields, findings=tuple(hand.findings), matches_recorded=matches)


def replay_to(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> HKHand:
    """The table state after event ``at`` (None: after the deal), for ``mjaudit show``."""
    opts = options_for(record["ruleset"], {**record.get("options", {}), **(overrides or {})})
    return step_to(HKHand(record, opts), record.get("events", []), at)


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


def _compare_recorded(hand: HKHand, report: dict[str, Any]) -> None:
    """#44 RECORDED_RESULT_MISMATCH and #39 MULTIPLE_WINNERS; ``report``: the report's fields."""
    result = hand.record.get("result")
    if result is None:
        return
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
