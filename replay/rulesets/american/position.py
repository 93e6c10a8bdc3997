"""The american table after one event as text, for ``mjaudit show``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import findings_text
from mjaudit.parts.replay.rulesets.american.replayer import replay_to


def position_text(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """Concealed tiles, exposures (jokers marked), discards, the Charleston stage, wall."""
    hand = replay_to(record, at, overrides)
    head = f"game {record['game_id']} hand {record['hand_no']} (american)"
    step = (
        f"after event {at}: {record['events'][at]['type']}" if at is not None else "after the deal"
    )
    stage = hand.phase
    if hand.phase == "charleston" and hand.charleston_next is not None:
        stage += f", next pass {hand.charleston_next}"
    lines = [f"{head}, {step}", f"  phase: {stage}; wall: {hand.remaining} tiles undrawn"]
    for seat, name in enumerate(record["players"]):
        marker = " (East)" if seat == hand.dealer else ""
        dead = f" DEAD ({hand.dead[seat]})" if seat in hand.dead else ""
        lines.append(f"  seat {seat} {name}{marker}{dead}")
        concealed = "unknown" if hand.partial else " ".join(hand.concealed_codes(seat)) or "-"
        lines.append(f"    hand:      {concealed}")
        exposed = "  ".join(" ".join(e.tiles) for e in hand.exposures[seat]) or "-"
        lines.append(f"    exposures: {exposed}")
        lines.append(f"    discards:  {' '.join(hand.discards[seat]) or '-'}")
    lines.extend(findings_text(hand.findings, at))
    return "\n".join(lines)
