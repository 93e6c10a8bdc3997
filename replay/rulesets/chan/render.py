"""A chắn table position as text, for ``mjaudit show`` (step-through replay).

Cards are shown by code with their Vietnamese name and colour where it helps a referee:
``8v(bát vạn, đỏ)`` is too long for a whole hand, so hands use codes and the live card
and the cửa tops use :func:`replay.chan.cards.display`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjaudit.parts.replay.rulesets.chan.cards import CARDS, display
from mjaudit.parts.replay.rulesets.chan.combos import arrange
from mjaudit.parts.replay.rulesets.chan.replayer import replay_to
from mjaudit.parts.replay.rulesets.chan.state import ChanHand


def _hand(hand: ChanHand, p: int) -> str:
    counts = hand.concealed(p)
    return " ".join(c for c in CARDS for _ in range(counts[c])) or "-"


def position_text(hand: ChanHand, at: int | None) -> str:
    red = hand.opts.red_cards
    names = hand.record["players"]
    head = "after the deal" if at is None else f"after event {at}"
    lines = [f"{head}: nọc {hand.stock_left} cards, turn {names[hand.turn]} ({hand.phase})"]
    if hand.live is not None:
        lv = hand.live
        lines.append(
            f"live card: {lv.card} {display(lv.card, red)} on {names[lv.owner]}'s cửa ({lv.kind})"
        )
    for p in range(hand.n):
        tag = " (cái)" if p == hand.dealer else ""
        status = []
        if p in hand.out:
            status.append(f"out: {hand.out[p][1]}")
        if p in hand.barred:
            status.append("barred (bỏ ù)")
        if p in hand.cannot_win:
            status.append(f"cannot win: {hand.cannot_win[p]}")
        lines.append(f"{names[p]}{tag}{' [' + '; '.join(status) + ']' if status else ''}")
        lines.append(f"  hand: {_hand(hand, p)}")
        arr = arrange(hand.concealed(p))
        lines.append(f"  {len(arr.chan)} chắn, {len(arr.ca)} cạ, què: {' '.join(arr.que) or '-'}")
        mat = "  ".join(" ".join(e.cards) for e in hand.exposed_of(p)) or "-"
        lines.append(f"  chiếu: {mat}")
        row = hand.rows[p]
        top = f" (top {display(row[-1], red)})" if row else ""
        lines.append(f"  cửa chì: {' '.join(row) or '-'}{top}")
        ws = hand.wait(p) if hand.holding(p) == 19 else frozenset()
        if ws:
            lines.append(f"  chờ: {' '.join(sorted(ws))}")
    return "\n".join(lines)


def chan_position(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """The engine's ``POSITIONS`` entry for ``chan``."""
    return position_text(replay_to(record, at, overrides), at)
