"""A ``riichi`` table after one event as the shared view model, read off the replay's own
:class:`RiichiHand`: the mahjong layout plus who is in riichi (and on which waits), the
dora indicators and the riichi sticks on the table."""

from __future__ import annotations

from mjaudit.parts.replay.engine.view import (
    MeldView,
    SeatState,
    SteppedView,
    TableSummary,
    TableView,
)
from mjaudit.parts.replay.rulesets.mahjong.view import mahjong_summary, mahjong_view
from mjaudit.parts.replay.rulesets.riichi.hand import RiichiHand
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_to
from mjaudit.parts.replay.rulesets.riichi.tiles import KINDS, TILE_INDEX


def _status(hand: RiichiHand, seat: int) -> tuple[str, ...]:
    return ("RIICHI",) if hand.riichi_waits[seat] is not None else ()


def _seat(hand: RiichiHand, seat: int) -> SeatState:
    waits = hand.riichi_waits[seat]
    extras: list[tuple[str, str]] = []
    if seat == 0:
        extras.append(("dora indicators", " ".join(hand.dora)))
        extras.append(("riichi sticks", str(hand.sticks + sum(hand.sticks_put))))
    if waits is not None:
        extras.append(("riichi waits", " ".join(KINDS[k] for k in sorted(waits)) or "none"))
    return SeatState(
        concealed=tuple(sorted(hand.hand_codes[seat].elements(), key=lambda c: (TILE_INDEX[c], c))),
        melds=tuple(
            MeldView(c.kind, c.tiles, frm)
            for c, frm in zip(hand.calls[seat], hand.call_from[seat], strict=False)
        ),
        discards=tuple((KINDS[t], False) for t in hand.discards[seat]),
        status=_status(hand, seat),
        wind=hand.wind(seat),
        extras=tuple(extras),
    )


def view_of(hand: RiichiHand, at: int | None) -> TableView:
    """The view model of a stepped :class:`RiichiHand`."""
    return mahjong_view(hand, at, _seat, hand.record.get("prevailing_wind") or "E")


def summary_of(hand: RiichiHand, at: int | None) -> TableSummary:
    """The summary of a stepped :class:`RiichiHand` (the fields its view gives those names)."""
    return mahjong_summary(hand, at, _status)


riichi_view = SteppedView(replay_to, view_of)  # the table after an event of a riichi hand
