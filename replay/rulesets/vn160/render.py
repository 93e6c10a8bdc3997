"""A ``vn-160`` table position as text (``mjaudit show``), like :func:`replay.hk.render.position_text`.

A separate renderer because the vn-160 tile ints (flowers k/q, khung) are not the Hong Kong
ones; the layout is the same, plus the declared bonus tiles (``*`` = declared at the start)
and who has lost the right to win (mất ù).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import findings_text
from mjaudit.parts.replay.rulesets.vn160.hand import VNHand
from mjaudit.parts.replay.rulesets.vn160.replayer import replay_to
from mjaudit.parts.replay.rulesets.vn160.tiles import CODES


def position_text(hand: VNHand, at: int | None) -> str:
    """The table after event ``at``: concealed tiles, sets, declared tiles, discards, wall."""
    rec = hand.record
    head = f"game {rec['game_id']} hand {rec['hand_no']} ({rec['ruleset']})"
    step = f"after event {at}: {rec['events'][at]['type']}" if at is not None else "after the deal"
    lines = [f"{head}, {step}", f"  wall: {hand.undrawn} tiles undrawn, {hand.live_count} live"]
    for seat, name in enumerate(rec["players"]):
        marker = " (dealer)" if seat == hand.dealer else ""
        lost = f" MAT U ({hand.mat_u[seat]})" if seat in hand.mat_u else ""
        lines.append(f"  seat {seat} {name} [{hand.wind(seat)}]{marker}{lost}")
        concealed = "unknown" if hand.partial else " ".join(hand.concealed_codes(seat)) or "-"
        lines.append(f"    hand:     {concealed}")
        lines.append(f"    sets:     {' '.join(str(m) for m in hand.melds[seat]) or '-'}")
        if hand.declared[seat]:
            shown = " ".join(CODES[t] + ("*" if start else "") for t, start in hand.declared[seat])
            lines.append(f"    declared: {shown}")
        discards = " ".join(CODES[d.tile] + ("^" if d.claimed else "") for d in hand.discards[seat])
        lines.append(f"    discards: {discards or '-'}")
    lines.extend(findings_text(hand.findings, at))
    return "\n".join(lines)


def vn160_position(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """The table after event ``at`` (None: after the deal) of a vn-160 hand."""
    return position_text(replay_to(record, at, overrides), at)
