"""Hand reports as text a referee can read in a terminal (``mjaudit check``); each
ruleset's table positions (``mjaudit show``) are in its own folder."""

from __future__ import annotations

from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import CLASS_LABEL, HandReport
from mjaudit.parts.replay.engine.ruleset import fan_line


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
        lines.append(f"  [{CLASS_LABEL[f.cls]}] {where}{who}: {code}: {f.message}")
    lines += ["  " + line for line in outcome_lines(rep)]
    if rep.corrupt:
        return "\n".join(lines)
    if rep.deltas is not None:
        pay = ", ".join(f"{names[s]} {_signed(d)}" for s, d in enumerate(rep.deltas))
        lines.append(f"  payments: {pay}")
    if rep.matches_recorded is True:
        lines.append("  recorded result: matches")
    elif rep.matches_recorded is False:
        lines.append("  recorded result: DIFFERS (see the findings above)")
    return "\n".join(lines)


def outcome_lines(rep: HandReport) -> list[str]:
    """What the replay computed, in the ruleset's own terms: the winner and how, the
    score line, the liable player (or the outcome, or why nothing was settled). Shared
    by ``mjaudit check`` and the HTML report."""
    names = rep.players
    if rep.corrupt:
        return ["result: not settled (the log is corrupt)"]
    lines = []
    if rep.winners:
        how = (
            "self-drawn"
            if rep.self_drawn
            else f"on {names[rep.discarder]}'s discard"
            if rep.discarder is not None
            else ""
        )
        lines.append(f"winner: {', '.join(names[w] for w in rep.winners)} {how}".rstrip())
        lines.append(_score_line(rep).strip())
    else:
        lines.append(f"outcome: {rep.ended_by.replace('_', ' ')}")
    if rep.liable is not None:
        lines.append(f"liable: {names[rep.liable]}")
    return lines


def _score_line(rep: HandReport) -> str:
    """The winning hand's score in the ruleset's own terms (fan, phán, card value, cước)."""
    ruleset = registry.get(rep.ruleset)
    return (ruleset.score_line if ruleset is not None else fan_line)(rep)
