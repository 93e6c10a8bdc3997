"""Replay one ``vn-160`` hand record into a :class:`HandReport` (pure: record in, report out).

``replay_vn160`` is the :data:`replay.engine.REGISTRY` entry; :func:`replay_to` gives the
table after any event for the step-through viewer (``mjaudit show``), like
:func:`replay.hk.replayer.replay_to`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from replay.findings import Finding, FindingClass, HandReport
from replay.options import OptionError
from replay.stepping import report_base, step_to
from replay.vn160.hand import Stop, VNHand
from replay.vn160.options import VNOptions, options_for
from replay.vn160.scoring import con

Observer = Callable[[int, VNHand], None]
_WINDS = "ESWN"


def _options(record: dict[str, Any], overrides: Mapping[str, object] | None) -> VNOptions:
    return options_for({**(record.get("options") or {}), **(overrides or {})})


def replay_vn160(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: Observer | None = None,
) -> HandReport:
    """Replay ``record``; ``previous`` is the report of hand ``hand_no - 1`` of the same game."""
    base = report_base(record)
    try:
        opts = _options(record, overrides)
    except OptionError as exc:
        finding = Finding(None, None, "RECORD_INVALID", FindingClass.CORRUPT_LOG, str(exc))
        return HandReport(**base, findings=(finding,), ended_by="corrupt")
    hand = VNHand(record, opts)
    events = record["events"]
    try:
        _rotation(hand, previous)
        hand.start()
        for i, ev in enumerate(events):
            hand.step(i, ev)
            if observer is not None:
                observer(i, hand)
        hand.finish(len(events) - 1)
    except Stop:
        pass
    deltas = hand.settlement()
    top = hand.settled[0] if hand.settled else None
    score = top.score if top is not None else None
    extras: dict[str, Any] = {
        "round_start_dealer": _round_start(record, previous),
        "mat_u": {str(s): code for s, code in sorted(hand.mat_u.items())},
        "penalties": hand.penalties() if not hand.stopped else [],
    }
    if score is not None:
        extras.update(score.to_extras())
        extras["con"] = con(score.phan, opts)
        extras["cai"] = opts.cai_multiplier * con(score.phan, opts)
    report = HandReport(
        **base,
        findings=(),
        winners=tuple(sorted(c.seat for c in hand.settled)),
        self_drawn=top is not None and top.discarder is None,
        discarder=top.discarder if top is not None else None,
        fan=score.phan if score is not None else None,
        raw_fan=score.phan if score is not None else None,
        patterns=score.patterns if score is not None else (),
        liable=top.discarder if top is not None and top.bonus_win else None,
        deltas=None if deltas is None else tuple(deltas),
        ended_by=hand.ended_by,
        extras=extras,
    )
    if not hand.stopped:
        _compare_recorded(hand, report)
    matches = None
    if record.get("result") is not None and not hand.stopped:
        matches = not any(f.code in ("RESULT_MISMATCH", "MULTIPLE_WINNERS") for f in hand.findings)
    return HandReport(
        **{**report.__dict__, "findings": tuple(hand.findings), "matches_recorded": matches}
    )


def replay_to(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> VNHand:
    """The table state after event ``at`` (None: after the deal), for ``mjaudit show``."""
    hand = VNHand(record, _options(record, overrides))
    return step_to(hand, record.get("events", []), at, Stop)


def _round_start(record: dict[str, Any], previous: HandReport | None) -> int:
    if previous is None or previous.prevailing_wind != record.get("prevailing_wind"):
        return record["dealer"]
    return previous.extras.get("round_start_dealer", previous.dealer)


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
    rec = hand.record
    wind = rec.get("prevailing_wind")
    if rec["hand_no"] == 1 or previous is None:
        if rec["hand_no"] == 1 and wind not in (None, "E"):
            hand.hard(None, None, "DEALER_ROTATION_MISMATCH", f"hand 1 is played in round {wind}")
        if previous is None and rec["hand_no"] != 1:
            hand.info(
                None,
                None,
                "PREVIOUS_HAND_MISSING",
                f"hand {rec['hand_no'] - 1} of this game is not available: rotation not checked",
            )
        return
    if previous.corrupt:
        return
    stays = dealer_stays(previous, hand.opts)
    expected = previous.dealer if stays else (previous.dealer + 1) % 4
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
    if not stays and expected == round_start and expected_wind in tuple(_WINDS[:3]):
        expected_wind = _WINDS[_WINDS.index(expected_wind) + 1]
    if wind != expected_wind:
        hand.hard(
            None,
            None,
            "DEALER_ROTATION_MISMATCH",
            f"the prevailing wind is {wind}, expected {expected_wind} after hand {previous.hand_no}",
        )


def _compare_recorded(hand: VNHand, report: HandReport) -> None:
    """#30 RESULT_MISMATCH / MULTIPLE_WINNERS (SCORE_MISMATCH)."""
    result = hand.record.get("result")
    if result is None:
        return
    idx = len(hand.record["events"]) - 1 if hand.record["events"] else None
    winners = sorted(result.get("winners", []))
    if len(winners) > 1 and not hand.opts.multiple_winners:
        hand.findings.append(
            Finding(
                idx,
                None,
                "MULTIPLE_WINNERS",
                FindingClass.SCORE_MISMATCH,
                f"the log records {len(winners)} winners; vn-160 settles only the head-bump winner",
            )
        )
    diffs: list[str] = []
    if winners != list(report.winners):
        diffs.append(f"winners recorded {winners}, computed {list(report.winners)}")
    if result.get("fan") is not None and report.winners and result["fan"] != report.fan:
        diffs.append(f"phán recorded {result['fan']}, computed {report.fan}")
    if result.get("patterns") is not None and report.winners:
        recorded = Counter(p for p in result["patterns"] if p != "u_muoi")
        computed = Counter(p for p in report.extras.get("instances", ()) if p != "u_muoi")
        if recorded != computed:
            diffs.append(
                f"patterns recorded {sorted(recorded.elements())}, "
                f"computed {sorted(computed.elements())}"
            )
    if result.get("deltas") is not None and report.deltas is not None:
        rec_d = result["deltas"]
        if len(rec_d) != len(report.deltas) or any(
            abs(a - b) > 1e-9 for a, b in zip(rec_d, report.deltas, strict=False)
        ):
            diffs.append(f"deltas recorded {_nums(rec_d)}, computed {_nums(report.deltas)}")
    if "penalties" in result:
        rec_p = Counter((p["seat"], p["code"]) for p in result.get("penalties") or ())
        comp_p = Counter((p["seat"], p["code"]) for p in report.extras.get("penalties", ()))
        if rec_p != comp_p:
            diffs.append(f"penalties recorded {sorted(rec_p)}, computed {sorted(comp_p)}")
    if diffs:
        hand.findings.append(
            Finding(idx, None, "RESULT_MISMATCH", FindingClass.SCORE_MISMATCH, "; ".join(diffs))
        )


def _nums(xs: Any) -> list[int | float]:
    return [int(x) if float(x).is_integer() else x for x in xs]
