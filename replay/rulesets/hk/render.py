"""A Hong Kong table position as text (``mjaudit show``): concealed tiles, melds, flowers,
discards and the wall after one event, with the findings so far."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import findings_text
from mjaudit.parts.replay.rulesets.hk.hand import CODES, HKHand
from mjaudit.parts.replay.rulesets.hk.replayer import replay_to


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


def hk_position(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """The table after event ``at`` (None: after the deal) of a Hong Kong hand."""
    return position_text(replay_to(record, at, overrides), at)
