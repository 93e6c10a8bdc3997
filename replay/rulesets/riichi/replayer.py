"""Replay one ``riichi`` hand record into a :class:`HandReport` (pure: record in, report out).

What is riichi's own around the shared loop: the report's fields (the value of the first
winner, every win's han/fu/patterns in ``extras``, the settlement and the counters the
next hand must start with), the comparison with what the log recorded (one
RESULT_MISMATCH listing every difference: winners, han, fu, patterns, deltas, tenpai), and
the checks against the hand before: the dealer's rotation, the round wind, and
COUNTERS_MISMATCH when the honba, the riichi sticks or the scores the record starts with
do not follow from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.loop import HandRules
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    multiset_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.engine.rotation import Rotation, check_rotation, round_start
from mjaudit.parts.replay.rulesets.riichi.hand import RiichiHand
from mjaudit.parts.replay.rulesets.riichi.options import options_for
from mjaudit.parts.replay.rulesets.riichi.settle import settle


def _win_extras(hand: RiichiHand) -> list[dict[str, Any]]:
    out = []
    for c in hand.settled:
        s = c.score
        win: dict[str, Any] = {"seat": c.seat, "han": s.han, "fu": s.fu, "points": s.points}
        if c.discarder is not None:
            win["from"] = c.discarder
        win["yaku"] = dict(s.patterns)
        out.append(win)
    return out


def places(final_scores: Sequence[float]) -> list[int]:
    """Each seat's place (1 = top) by its final score; a tie goes to the seat nearer the
    first dealer (seat 0), as Tenhou ranks."""
    order = sorted(range(len(final_scores)), key=lambda s: (-final_scores[s], s))
    return [order.index(s) + 1 for s in range(len(final_scores))]


def seat_facts(extras: dict[str, Any]) -> dict[str, list[Any]]:
    """The scores rows' riichi columns (``schemas/tables.py`` RIICHI_SEAT_FACTS) from the
    report's extras: riichi declared, an open call, the win's points and han, the place
    at the game's end (on the hand that records it)."""
    wins = {w["seat"]: w for w in extras["wins"]}
    end = extras.get("game_end")
    n = len(extras["calls"])
    ok = end is not None and len(end.get("scores") or ()) == n
    return {
        "riichi": [s in extras["riichi"] for s in range(n)],
        "open_call": [extras["calls"][s] > 0 for s in range(n)],
        "win_points": [wins[s]["points"] if s in wins else None for s in range(n)],
        "win_han": [wins[s]["han"] if s in wins else None for s in range(n)],
        "place": places(end["scores"]) if ok else [None] * n,
    }


def _fields(hand: RiichiHand, base: dict[str, Any], previous: HandReport | None) -> dict[str, Any]:
    done = None if hand.stopped else settle(hand)
    top = hand.settled[0] if hand.settled else None
    score = top.score if top is not None else None
    extras: dict[str, Any] = {
        "round_start_dealer": round_start(hand.record, previous),
        "wins": _win_extras(hand),
        "riichi": [s for s in range(4) if hand.riichi_waits[s] is not None],
        "calls": [len([c for c in hand.calls[s] if c.kind != "concealed_kong"]) for s in range(4)],
    }
    if hand.abortive is not None:
        extras["abortive"] = hand.abortive
    if done is not None:
        extras.update(
            dealer_stays=done.dealer_stays,
            next_honba=done.next_honba,
            next_sticks=done.next_sticks,
            scores_after=[
                a + b
                for a, b in zip(hand.record.get("scores") or [25000] * 4, done.deltas, strict=True)
            ],
        )
        if hand.ended_by == "exhaustive_draw":
            extras["tenpai"] = list(done.tenpai)
            if done.nagashi:
                extras["nagashi"] = list(done.nagashi)
    if hand.record.get("result", {}).get("game_end") is not None:
        extras["game_end"] = hand.record["result"]["game_end"]
    extras["seat_facts"] = seat_facts(extras)
    return dict(
        base,
        **hand.win_fields(),
        fan=score.han if score is not None else None,
        raw_fan=score.han if score is not None else None,
        patterns=score.patterns if score is not None else (),
        liable=done.liable if done is not None else None,
        deltas=None if done is None else tuple(done.deltas),
        ended_by=hand.ended_by,
        extras=extras,
    )


def _stays(previous: HandReport) -> bool:
    """The dealer deals again after a dealer win, a draw with the dealer tenpai and an
    abortive draw (or an abandoned hand, replayed)."""
    return bool(previous.extras.get("dealer_stays", True))


def _rotation(hand: RiichiHand, previous: HandReport | None) -> None:
    """DEALER_ROTATION_MISMATCH and the round wind; COUNTERS_MISMATCH; PLAYED_AFTER_TOBI."""
    rules = Rotation(
        stays=_stays,
        missing="hand {n} of this game is not available: rotation and counters not checked",
        wind_code="DEALER_ROTATION_MISMATCH",
        first_hand="hand 1 is played in round {wind}",
    )
    rec = hand.record
    _tobi(hand, previous)
    if rec["hand_no"] == 1 and rec.get("round", 0) != 0:
        hand.info(
            None,
            None,
            "GAME_EXCERPT",
            f"the log starts in round {rec['prevailing_wind']}{rec['round'] % 4 + 1}: "
            "the hands before it are not in the log",
        )
        return
    check_rotation(hand, previous, rules)
    if previous is None or previous.corrupt or "next_honba" not in previous.extras:
        return
    ex = previous.extras
    diffs = [
        value_diff("honba", ex["next_honba"], rec.get("honba", 0)),
        value_diff("riichi sticks", ex["next_sticks"], rec.get("riichi_sticks", 0)),
    ]
    if rec.get("scores") is not None:
        diffs.append(value_diff("scores", ex["scores_after"], rec["scores"]))
    found = [d for d in diffs if d is not None]
    if found:
        hand.audit(
            None,
            None,
            "COUNTERS_MISMATCH",
            f"after hand {previous.hand_no}: "
            + "; ".join(
                d.replace("recorded", "expected").replace("computed", "the record starts with")
                for d in found
            ),
        )


def _tobi(hand: RiichiHand, previous: HandReport | None) -> None:
    """PLAYED_AFTER_TOBI: under ``tobi`` the game ends when a score goes below zero, so no
    hand starts with one (the scores the record starts with, else those the hand before
    left)."""
    if not hand.opts.tobi:
        return
    start = hand.record.get("scores")
    if start is None and previous is not None and not previous.corrupt:
        start = previous.extras.get("scores_after")
    below = [seat for seat, points in enumerate(start or ()) if points < 0]
    if below:
        hand.audit(
            None,
            None,
            "PLAYED_AFTER_TOBI",
            "the hand is played with "
            + ", ".join(f"seat {s} at {start[s]} points" for s in below)  # type: ignore[index]
            + ": under tobi the game ended when a score went below zero",
        )


def _compare(hand: RiichiHand, result: dict[str, Any], report: dict[str, Any]) -> bool:
    """RESULT_MISMATCH (SCORE_MISMATCH): every difference from the log's result."""
    diffs = [winners_diff(result.get("winners", []), report["winners"])]
    wins = report["extras"]["wins"]
    if result.get("fan") is not None and report["winners"]:
        diffs.append(value_diff("han", result["fan"], report["fan"]))
    if result.get("patterns") is not None and report["winners"]:
        computed = sorted({p for w in wins for p in w["yaku"]})
        diffs.append(multiset_diff("patterns", result["patterns"], computed))
    recorded_wins = {w.get("seat"): w for w in result.get("wins") or ()}
    for w in wins:
        rw = recorded_wins.get(w["seat"])
        if rw is None:
            continue
        for key in ("han", "fu"):
            if (
                rw.get(key) is not None
                and (rw[key] != w[key])
                and not (key == "fu" and w["han"] >= 5)
            ):
                diffs.append(value_diff(f"seat {w['seat']} {key}", rw[key], w[key]))
        if rw.get("yaku") is not None and rw["yaku"] != w["yaku"]:
            diffs.append(f"seat {w['seat']} yaku recorded {rw['yaku']}, computed {w['yaku']}")
    if result.get("deltas") is not None and report["deltas"] is not None:
        diffs.append(deltas_diff(result["deltas"], report["deltas"]))
    draw = result.get("draw")
    if draw is not None and "tenpai" in draw and "tenpai" in report["extras"]:
        diffs.append(value_diff("tenpai", sorted(draw["tenpai"]), report["extras"]["tenpai"]))
    mismatch(hand, "RESULT_MISMATCH", diffs)
    return not any(f.code == "RESULT_MISMATCH" for f in hand.findings)


RULES = HandRules.of(
    options_for, RiichiHand, _fields, _compare, option_error="RECORD_INVALID", rotation=_rotation
)
replay_riichi = RULES.replay  # the registry's replay: the one loop on these rules
replay_to = RULES.replay_to  # the table after an event, for step-through
