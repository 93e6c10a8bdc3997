"""Replay one Hong Kong hand record into a :class:`HandReport` (pure: record in, report out)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from replay.findings import Finding, FindingClass, HandReport
from replay.hk.hand import HKHand, Stop
from replay.hk.options import OptionError, options_for
from replay.stepping import report_base, step_to

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
    events = record["events"]
    try:
        _rotation(hand, previous)
        hand.start()
        if observer is None:
            hand.run(events)
        else:
            for i, ev in enumerate(events):
                hand.step(i, ev)
                observer(i, hand)
        hand.finish(len(events) - 1)
    except Stop:
        pass
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
            "round_start_dealer": _round_start(record, previous),
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
    hand = HKHand(record, opts)
    return step_to(hand, record.get("events", []), at, Stop)


def _round_start(record: dict[str, Any], previous: HandReport | None) -> int:
    """The dealer of the first present hand of this hand's round (for the wind check)."""
    if previous is None or previous.prevailing_wind != record.get("prevailing_wind"):
        return record["dealer"]
    return previous.extras.get("round_start_dealer", previous.dealer)


def _rotation(hand: HKHand, previous: HandReport | None) -> None:
    """#3 DEALER_ROTATION_MISMATCH / PREVAILING_WIND_MISMATCH against the previous hand."""
    rec = hand.record
    wind = rec.get("prevailing_wind")
    if rec["hand_no"] == 1:
        if wind is not None and wind != "E":
            hand.hard(
                None,
                None,
                "PREVAILING_WIND_MISMATCH",
                f"hand 1 is played in round {wind}, expected E",
            )
        return
    if previous is None:
        hand.info(
            None,
            None,
            "PREVIOUS_HAND_MISSING",
            f"hand {rec['hand_no'] - 1} of this game is not in the archive: rotation not checked",
        )
        return
    if previous.corrupt:
        return
    n = len(rec["players"])
    stays = previous.ended_by in ("false_win", "abandon") or (
        previous.ended_by == "exhaustive_draw" and hand.opts.dealer_on_draw == "stay"
    )
    if previous.ended_by == "win" and previous.dealer in previous.winners:
        stays = True
    expected = previous.dealer if stays else (previous.dealer + 1) % n
    if rec["dealer"] != expected:
        hand.hard(
            None,
            rec["dealer"],
            "DEALER_ROTATION_MISMATCH",
            f"the dealer is seat {rec['dealer']}, but after hand {previous.hand_no} "
            f"({previous.ended_by}) it should be seat {expected}",
        )
    round_start = previous.extras.get("round_start_dealer", previous.dealer)
    expected_wind = previous.prevailing_wind
    if not stays and expected == round_start and expected_wind in "ESWN":
        expected_wind = "ESWN"["ESWN".index(expected_wind) + 1] if expected_wind != "N" else "N"
    if wind != expected_wind:
        hand.hard(
            None,
            None,
            "PREVAILING_WIND_MISMATCH",
            f"the prevailing wind is {wind}, expected {expected_wind} after hand {previous.hand_no}",
        )


def _compare_recorded(hand: HKHand, report: dict[str, Any]) -> None:
    """#44 RECORDED_RESULT_MISMATCH and #39 MULTIPLE_WINNERS; ``report``: the report's fields."""
    result = hand.record.get("result")
    if result is None:
        return
    idx = len(hand.record["events"]) - 1 if hand.record["events"] else None
    winners = result.get("winners", [])
    if len(winners) > 1 and not hand.opts.multiple_winners:
        hand.findings.append(
            Finding(
                idx,
                None,
                "MULTIPLE_WINNERS",
                FindingClass.SCORE_MISMATCH,
                f"the log records {len(winners)} winners; {hand.ruleset} settles only the head-bump winner",
            )
        )
    diffs: list[str] = []
    computed_winners, fan, deltas = report["winners"], report["fan"], report["deltas"]
    if sorted(winners) != list(computed_winners):
        diffs.append(f"winners recorded {sorted(winners)}, computed {list(computed_winners)}")
    if "fan" in result and computed_winners and result["fan"] != fan:
        diffs.append(f"fan recorded {result['fan']}, computed {fan}")
    if "patterns" in result and computed_winners:
        # as multisets: the ids are strings, so sorted lists compare like Counters, cheaper
        recorded = sorted(result["patterns"])
        computed = sorted(report["extras"].get("instances", ()))
        if recorded != computed:
            diffs.append(f"patterns recorded {recorded}, computed {computed}")
    if "deltas" in result and deltas is not None:
        rec_d = result["deltas"]
        if any(abs(a - b) > 1e-9 for a, b in zip(rec_d, deltas, strict=True)):
            diffs.append(f"deltas recorded {_nums(rec_d)}, computed {_nums(deltas)}")
    if diffs:
        hand.findings.append(
            Finding(
                idx, None, "RECORDED_RESULT_MISMATCH", FindingClass.SCORE_MISMATCH, "; ".join(diffs)
            )
        )


def _nums(xs: Any) -> list[int | float]:
    return [int(x) if float(x).is_integer() else x for x in xs]
