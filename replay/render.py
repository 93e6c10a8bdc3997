"""Hand reports and table positions as text a referee can read in a terminal."""

from __future__ import annotations

from collections.abc import Iterable

from replay.findings import Finding, FindingClass, HandReport
from replay.hk.hand import CODES, HKHand

_CLASS_LABEL = {
    FindingClass.CORRUPT_LOG: "CORRUPT",
    FindingClass.PLAYER_VIOLATION: "VIOLATION",
    FindingClass.SCORE_MISMATCH: "MISMATCH",
    FindingClass.INFO: "info",
}


def _signed(x: float) -> str:
    value = int(x) if float(x).is_integer() else x
    return f"{value:+}" if value else "0"


def report_text(rep: HandReport) -> str:
    """The per-hand block of ``mjaudit check``."""
    names = rep.players
    lines = [f"game {rep.game_id} hand {rep.hand_no} ({rep.ruleset})"]
    if not rep.findings:
        lines.append("  no findings")
    for f in rep.findings:
        where = f"event {f.event_index}" if f.event_index is not None else "record"
        who = f" {names[f.seat]}" if f.seat is not None else ""
        code = f.code + (f" ({f.reason})" if f.reason else "")
        lines.append(f"  [{_CLASS_LABEL[f.cls]}] {where}{who}: {code}: {f.message}")
    if rep.corrupt:
        lines.append("  result: not settled (the log is corrupt)")
        return "\n".join(lines)
    if rep.winners:
        how = (
            "self-drawn"
            if rep.self_drawn
            else f"on {names[rep.discarder]}'s discard"
            if rep.discarder is not None
            else ""
        )
        lines.append(f"  winner: {', '.join(names[w] for w in rep.winners)} {how}".rstrip())
        lines.append(_score_line(rep))
    else:
        lines.append(f"  outcome: {rep.ended_by.replace('_', ' ')}")
    if rep.liable is not None:
        lines.append(f"  liable: {names[rep.liable]}")
    if rep.deltas is not None:
        pay = ", ".join(f"{names[s]} {_signed(d)}" for s, d in enumerate(rep.deltas))
        lines.append(f"  payments: {pay}")
    if rep.matches_recorded is True:
        lines.append("  recorded result: matches")
    elif rep.matches_recorded is False:
        lines.append("  recorded result: DIFFERS (see the findings above)")
    return "\n".join(lines)


def _score_line(rep: HandReport) -> str:
    """The winning hand's score in the ruleset's own terms (fan, phán, card value, cước)."""
    pats = ", ".join(f"{p} {f}" for p, f in rep.patterns) or "none"
    if rep.ruleset == "chan":
        return f"  cước: {pats}; score {rep.fan} điểm"
    if rep.ruleset == "vn-160":
        mun = rep.extras.get("mun")
        return f"  patterns: {pats}; {rep.fan} phán" + (f" ({mun} mủn)" if mun is not None else "")
    if rep.ruleset == "american":
        return f"  card hand: {pats}; value {rep.fan}"
    return f"  patterns: {pats}; raw fan {rep.raw_fan}, fan {rep.fan}"


def _tiles(counts: list[int]) -> str:
    return " ".join(CODES[t] for t in range(len(counts)) for _ in range(counts[t])) or "-"


def position_text(hand: HKHand, at: int | None) -> str:
    """The table at one event: concealed tiles, melds, flowers, discards, wall count."""
    rec = hand.record
    head = f"game {rec['game_id']} hand {rec['hand_no']} ({rec['ruleset']})"
    step = f"after event {at}: {rec['events'][at]['type']}" if at is not None else "after the deal"
    lines = [f"{head}, {step}", f"  wall: {hand.undrawn} tiles undrawn, {hand.live_count} live"]
    for seat, name in enumerate(rec["players"]):
        marker = " (dealer)" if seat == hand.dealer else ""
        dead = f" DEAD ({hand.dead[seat]})" if seat in hand.dead else ""
        lines.append(f"  seat {seat} {name}{marker}{dead}")
        concealed = "unknown" if hand.partial else _tiles(hand.concealed[seat])
        lines.append(f"    hand:     {concealed}")
        melds = " ".join(str(m) for m in hand.melds[seat]) or "-"
        lines.append(f"    melds:    {melds}")
        if hand.flowers[seat]:
            lines.append(f"    flowers:  {' '.join(CODES[t] for t in hand.flowers[seat])}")
        discards = " ".join(CODES[d.tile] + ("*" if d.claimed else "") for d in hand.discards[seat])
        lines.append(
            f"    discards: {discards or '-'}  (* = claimed)"
            if "*" in discards
            else f"    discards: {discards or '-'}"
        )
    lines.extend(findings_text(hand.findings, at))
    return "\n".join(lines)


def findings_text(findings: Iterable[Finding], at: int | None) -> list[str]:
    """The "findings so far" block of a table view (every ruleset's ``show``)."""
    shown = [f for f in findings if at is None or f.event_index is None or f.event_index <= at]
    if not shown:
        return []
    lines = ["  findings so far:"]
    for f in shown:
        where = f"event {f.event_index}" if f.event_index is not None else "record"
        lines.append(f"    [{_CLASS_LABEL[f.cls]}] {where}: {f.code}: {f.message}")
    return lines
