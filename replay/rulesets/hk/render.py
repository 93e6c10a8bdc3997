"""A Hong Kong table after one event as the shared view model (``mjaudit show``, the
dashboard's replayer, ``mjaudit report``), read off the replay's own :class:`HKHand`."""

from __future__ import annotations

from mjaudit.parts.replay.engine.view import (
    MeldView,
    SeatState,
    SteppedView,
    TableSummary,
    TableView,
)
from mjaudit.parts.replay.rulesets.hk.hand import CODES, WIND_CODES, HKHand
from mjaudit.parts.replay.rulesets.hk.replayer import replay_to
from mjaudit.parts.replay.rulesets.mahjong.view import mahjong_summary, mahjong_view


def _wind(hand: HKHand, seat: int) -> str:
    """Seat winds from the dealer; a two-player table plays East and West."""
    if hand.n == 4:
        return WIND_CODES[(seat - hand.dealer) % 4]
    return "E" if seat == hand.dealer else "W"


def _status(hand: HKHand, seat: int) -> tuple[str, ...]:
    return (f"DEAD ({hand.dead[seat]})",) if seat in hand.dead else ()


def _seat(hand: HKHand, seat: int) -> SeatState:
    counts = hand.concealed[seat]
    return SeatState(
        concealed=None
        if hand.partial
        else tuple(CODES[t] for t in range(len(counts)) for _ in range(counts[t])),
        melds=tuple(
            MeldView(m.kind.value, tuple(CODES[t] for t in m.tiles), m.from_seat)
            for m in hand.melds[seat]
        ),
        discards=tuple((CODES[d.tile], d.claimed) for d in hand.discards[seat]),
        flowers=tuple(CODES[t] for t in hand.flowers[seat]),
        status=_status(hand, seat),
        wind=_wind(hand, seat),
    )


def view_of(hand: HKHand, at: int | None) -> TableView:
    """The view model of a stepped :class:`HKHand`."""
    return mahjong_view(hand, at, _seat, WIND_CODES[hand.prevailing])


def summary_of(hand: HKHand, at: int | None) -> TableSummary:
    """The summary of a stepped :class:`HKHand` (the fields its view gives those names)."""
    return mahjong_summary(hand, at, _status)


hk_view = SteppedView(replay_to, view_of)  # the table after an event of a Hong Kong hand
