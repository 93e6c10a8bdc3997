"""The american table after one event as the shared view model, read off the replay's own
:class:`AmericanHand`: concealed tiles, exposures (jokers as ``J``), discards, the
Charleston stage."""

from __future__ import annotations

from mjaudit.parts.replay.engine import view
from mjaudit.parts.replay.engine.view import MeldView, SeatState, TableSummary, TableView
from mjaudit.parts.replay.rulesets.american.hand import WIND_NAMES, AmericanHand
from mjaudit.parts.replay.rulesets.american.replayer import replay_to

# An exposure is named by its size (§4.1): a pung of three up to a sextet of six.
GROUP_NAMES = {2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


def _status(hand: AmericanHand, seat: int) -> tuple[str, ...]:
    return (f"DEAD ({hand.dead[seat]})",) if seat in hand.dead else ()


def _seat(hand: AmericanHand, seat: int) -> SeatState:
    return SeatState(
        concealed=None if hand.partial else tuple(hand.concealed_codes(seat)),
        melds=tuple(
            MeldView(GROUP_NAMES.get(len(e.tiles), "group"), tuple(e.tiles), e.from_seat)
            for e in hand.exposures[seat]
        ),
        discards=tuple((t, False) for t in hand.discards[seat]),
        status=_status(hand, seat),
        wind=WIND_NAMES[(seat - hand.dealer) % len(WIND_NAMES)],
    )


def view_of(hand: AmericanHand, at: int | None) -> TableView:
    """The view model of a stepped :class:`AmericanHand`."""
    stage = hand.phase
    if hand.phase == "charleston" and hand.charleston_next is not None:
        stage += f", next pass {hand.charleston_next}"
    return view.build_view(
        hand.record,
        at,
        [_seat(hand, s) for s in range(len(hand.record["players"]))],
        hand.findings,
        stock=hand.remaining,
        dealer=hand.dealer,
        turn=hand.turn,
        extras=(("phase", stage),),
    )


def summary_of(hand: AmericanHand, at: int | None) -> TableSummary:
    """The summary of a stepped :class:`AmericanHand` (the fields its view gives those names)."""
    seats = range(len(hand.record["players"]))
    return view.build_summary(
        hand.record, at, [_status(hand, s) for s in seats], stock=hand.remaining, turn=hand.turn
    )


american_view = view.SteppedView(replay_to, view_of)  # the table after an event of an american hand
