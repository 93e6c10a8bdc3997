"""Replay one chắn hand record into a :class:`HandReport` (record in, report out).

``fan`` is the declared total T (0 for a win scored 0 by treo tranh / trái vỉ);
``patterns`` are the (cước or gà id, points it adds) pairs whose sum is T; ``extras``
carries the chắn-specific numbers (cước present, gà, declared list, case of §9, …).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.loop import FromMerged, HandRules, Overrides
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    multiset_diff,
    penalties_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions, options_for
from mjaudit.parts.replay.rulesets.chan.settlement import Settlement
from mjaudit.parts.replay.rulesets.chan.state import ChanHand, WinEval


def _previous_hand(record: dict[str, Any], previous: HandReport | None) -> Mapping[str, Any] | None:
    """``previous_hand`` of the record, else what the report of hand_no − 1 says (§6)."""
    ph = record.get("previous_hand")
    if isinstance(ph, Mapping):
        return ph
    if previous is None or previous.ended_by in ("corrupt", "unfinished"):
        return None
    ex = previous.extras
    return {"winner": ex.get("win_seat"), "void": ex.get("void"), "giver": ex.get("giver")}


def _admit(record: dict[str, Any]) -> Finding | None:
    """Chắn bí ngũ is not replayed (the seed does not describe it)."""
    if len(record["players"]) != 5:
        return None
    return Finding(
        None,
        None,
        "PLAYER_COUNT_UNSUPPORTED",
        FindingClass.INFO,
        "chắn bí ngũ (5 players) is not described by the seed: not replayed",
    )


def _hand(
    record: dict[str, Any], opts: ChanOptions, previous: HandReport | None, overrides: Overrides
) -> ChanHand:
    return ChanHand(record, opts, _previous_hand(record, previous))


def report_fields(
    hand: ChanHand, base: dict[str, Any], previous: HandReport | None = None
) -> dict[str, Any]:
    """The report's fields (the simulator's scorer records them as the result)."""
    st = hand.settlement()
    win = hand.settled_win()
    outcome = hand.outcome()
    stands = win is not None and outcome is not None and outcome.void is None
    fan = patterns = None
    if win is not None:
        fan = 0 if stands and outcome is not None and outcome.zero else win.declared.total
        patterns = win.declared.parts
    ended = hand.ended_by
    if win is not None and not stands:
        ended = "false_win"
    if hand.forced_draw_at is not None and not (
        win is not None and win.index < hand.forced_draw_at
    ):
        ended = "exhaustive_draw"
    cai = hand.record.get("cai")
    extras: dict[str, Any] = {
        "win_seat": win.seat if win is not None else None,
        "void": outcome.void if outcome is not None and win is not None else None,
        "giver": cai.get("giver") if isinstance(cai, Mapping) else None,
        "case": st.case if st is not None else None,
        **_win_extras(win, hand),
        "caught": [{"seat": s, "event": at, "code": c} for at, s, c in sorted(hand.caught_order)],
        "an_ca_doi_cho": list(hand.doi_cho),
        "penalties": _penalties(hand, st),
        "partial": hand.partial,
    }
    return dict(
        base,
        winners=(win.seat,) if stands and win is not None else (),
        self_drawn=bool(win is not None and win.present and win.present["chi"]),
        discarder=_discarder(win),
        fan=fan,
        raw_fan=win.declared.base if win is not None else None,
        patterns=tuple(patterns or ()),
        liable=_liable(st, win),
        deltas=None if st is None else st.deltas,
        ended_by=ended,
        extras=extras,
    )


def _win_extras(win: WinEval | None, hand: ChanHand) -> dict[str, Any]:
    if win is None:
        return {"cuoc": [], "declared": [], "ga": 0, "diem": None, "dich": None, "auto_value": None}
    present = win.present or Counter()
    return {
        "cuoc": sorted(present.elements()),
        "declared": win.decl.items(),
        "ga": sum(win.declared.ga.values()),
        "ga_ids": sorted(win.declared.ga.elements()),
        "ga_points": win.declared.ga_points,
        "base": win.declared.base,
        "diem": win.declared.parts[0][1],  # the largest điểm (xuông: 2)
        "dich": win.declared.base - win.declared.parts[0][1],  # the other instances' dịch
        "t_decl": win.declared.total,
        "auto_value": win.auto if win.present is not None else None,
        "via": win.via,
        "tile": win.tile,
        "xuong_sai": list(win.reasons),
    }


def _discarder(win: WinEval | None) -> int | None:
    """The player whose discard was won on (chíu ù, or a false ù on a discard)."""
    if win is None or win.source is None or win.source.kind != "discard":
        return None
    return win.source.by


def _penalties(hand: ChanHand, st: Settlement | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if st is None:
        return out
    for seat, code, deltas in st.penalties:
        out.append({"seat": seat, "code": code, "deltas": list(deltas)})
    return out


def _liable(st: Settlement | None, win: WinEval | None) -> int | None:
    if st is None or win is None:
        return None
    if st.case in ("B",) and st.payers:
        return st.payers[0]
    if st.case in ("D", "E", "F", "I"):
        return win.seat
    return None


def _compare(hand: ChanHand, result: dict[str, Any], report: dict[str, Any]) -> bool:
    """#42 RESULT_MISMATCH: the source's result against §7 and §9."""
    diffs: list[str | None] = []
    if "winners" in result:
        diffs.append(winners_diff(result["winners"], report["winners"]))
    if result.get("fan") is not None and report["fan"] is not None:
        diffs.append(value_diff("total", result["fan"], report["fan"]))
    settled = hand.settled_win()
    if result.get("patterns") is not None and settled is not None:
        declared = Counter(settled.decl.cuoc).elements()  # a Counter of the cước
        diffs.append(multiset_diff("cước", result["patterns"], declared, "declared"))
    if result.get("deltas") is not None and report["deltas"] is not None:
        diffs.append(deltas_diff(result["deltas"], report["deltas"], shown=list))
    if result.get("penalties"):
        diffs.append(penalties_diff(result["penalties"], _effective_penalties(hand)))
    return mismatch(hand, "RESULT_MISMATCH", diffs)


def _effective_penalties(hand: ChanHand) -> list[tuple[int, str]]:
    """(seat, code) of every violation that moved money or voided the win."""
    o = hand.outcome()
    cut = hand.forced_draw_at if hand.settled_win() is None else None  # §11 #17
    out = [(s, c) for _, s, c in hand.caught_order]
    out += [(s, "AN_CA_DOI_CHO") for s in (hand.doi_cho if o is None else o.an_ca_doi_cho)]
    for w in hand.void_wins:
        if cut is None or w.index < cut:
            out.append((w.seat, w.void or w.case_i or ""))
    settled = hand.settled_win()
    if settled is not None and o is not None and o.void is not None:
        out.append((settled.seat, o.void))
    return out


_options = FromMerged(options_for)  # chắn's options do not depend on the rest of the record
RULES = HandRules(
    _options, _hand, report_fields, _compare, option_error="RECORD_INVALID", admit=_admit
)
replay_chan = RULES.replay  # the registry's replay: the one loop on these rules
replay_to = RULES.replay_to  # the table after an event, for step-through
