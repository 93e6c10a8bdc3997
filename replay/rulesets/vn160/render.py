"""A ``vn-160`` table after one event as the shared view model, read off the replay's own
:class:`VNHand`: the Hong Kong layout plus the declared bonus tiles (flagged when declared
at the start), who has lost the right to win (mất ù) and what each khung in a set reads as.
"""

from __future__ import annotations

from mjaudit.parts.replay.engine.view import (
    MeldView,
    SeatState,
    SteppedView,
    TableSummary,
    TableView,
)
from mjaudit.parts.replay.rulesets.mahjong.view import mahjong_summary, mahjong_view
from mjaudit.parts.replay.rulesets.vn160.hand import VNHand
from mjaudit.parts.replay.rulesets.vn160.replayer import replay_to
from mjaudit.parts.replay.rulesets.vn160.tiles import CODES


def _status(hand: VNHand, seat: int) -> tuple[str, ...]:
    return (f"MAT U ({hand.mat_u[seat]})",) if seat in hand.mat_u else ()


def _seat(hand: VNHand, seat: int) -> SeatState:
    melds = hand.melds[seat]
    readings = [
        f"{''.join(CODES[t] for t in m.tiles)} reads {''.join(CODES[t] for t in m.meld.tiles)}"
        for m in melds
        if m.khung
    ]
    return SeatState(
        concealed=None if hand.partial else hand.concealed_codes(seat),
        melds=tuple(
            MeldView(m.kind.value, tuple(CODES[t] for t in m.tiles), m.from_seat) for m in melds
        ),
        discards=tuple((CODES[d.tile], d.claimed) for d in hand.discards[seat]),
        flowers=tuple(CODES[t] for t, _ in hand.declared[seat]),
        flowers_at_start=tuple(start for _, start in hand.declared[seat]),
        status=_status(hand, seat),
        wind=hand.wind(seat),
        extras=(("khung", "; ".join(readings)),) if readings else (),
    )


def view_of(hand: VNHand, at: int | None) -> TableView:
    """The view model of a stepped :class:`VNHand`."""
    return mahjong_view(hand, at, _seat, hand.record.get("prevailing_wind") or "E")


def summary_of(hand: VNHand, at: int | None) -> TableSummary:
    """The summary of a stepped :class:`VNHand` (the fields its view gives those names)."""
    return mahjong_summary(hand, at, _status)


vn160_view = SteppedView(replay_to, view_of)  # the table after an event of a vn-160 hand
