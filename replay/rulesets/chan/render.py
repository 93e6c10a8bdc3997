"""A chắn table after one event as the shared view model, read off the replay's own
:class:`ChanHand`: hands by code in the deck's order, the groups on the mat (chiếu), each
cửa, the live card, and per player the arrangement of the hand (chắn, cạ, què) and, at
19 cards, the cards it waits on (one line: a printed report keeps a table on one page)."""

from __future__ import annotations

from mjaudit.parts.replay.engine import view
from mjaudit.parts.replay.engine.view import MeldView, SeatState, TableSummary, TableView
from mjaudit.parts.replay.rulesets.chan.cards import CARDS, display
from mjaudit.parts.replay.rulesets.chan.combos import arrange
from mjaudit.parts.replay.rulesets.chan.replayer import replay_to
from mjaudit.parts.replay.rulesets.chan.state import ChanHand


def _from(hand: ChanHand, index: int | None) -> int | None:
    """The cửa a group's eaten card came from: the ``from`` of the event that made it."""
    events = hand.record.get("events") or []
    if index is None or not 0 <= index < len(events):
        return None
    frm = events[index].get("from")
    return frm if isinstance(frm, int) and not isinstance(frm, bool) else None


def _status(hand: ChanHand, p: int) -> tuple[str, ...]:
    status = []
    if p in hand.out:
        status.append(f"out: {hand.out[p][1]}")
    if p in hand.barred:
        status.append("barred (bỏ ù)")
    if p in hand.cannot_win:
        status.append(f"cannot win: {hand.cannot_win[p]}")
    return tuple(status)


def _seat(hand: ChanHand, p: int) -> SeatState:
    counts = hand.concealed(p)
    arr = arrange(counts)
    shape = f"{len(arr.chan)} chắn, {len(arr.ca)} cạ, què: {' '.join(arr.que) or '-'}"
    waits = hand.wait(p) if hand.holding(p) == 19 else frozenset()
    if waits:
        shape += f"; chờ: {' '.join(sorted(waits))}"
    row = hand.rows[p]
    return SeatState(
        concealed=tuple(c for c in CARDS for _ in range(counts[c])),
        melds=tuple(
            MeldView(e.how, tuple(e.cards), _from(hand, e.index)) for e in hand.exposed_of(p)
        ),
        discards=tuple((c, False) for c in row),
        status=_status(hand, p),
        extras=(("arrangement", shape),),
    )


def view_of(hand: ChanHand, at: int | None) -> TableView:
    """The view model of a stepped :class:`ChanHand`."""
    names = hand.record["players"]
    extras = [("phase", hand.phase)]
    if hand.live is not None:
        lv = hand.live
        extras.append(
            (
                "live card",
                f"{lv.card} {display(lv.card, hand.opts.red_cards)} on {names[lv.owner]}'s cửa ({lv.kind})",
            )
        )
    return view.build_view(
        hand.record,
        at,
        [_seat(hand, p) for p in range(hand.n)],
        hand.findings,
        pieces="cards",
        stock=hand.stock_left,
        dealer=hand.dealer,
        turn=hand.turn,
        extras=tuple(extras),
        draws_face_up=True,  # bốc nọc: the card is turned face up onto the drawer's cửa
    )


def summary_of(hand: ChanHand, at: int | None) -> TableSummary:
    """The summary of a stepped :class:`ChanHand` (the fields its view gives those names)."""
    status = [_status(hand, p) for p in range(hand.n)]
    return view.build_summary(hand.record, at, status, stock=hand.stock_left, turn=hand.turn)


chan_view = view.SteppedView(replay_to, view_of)  # the table after an event of a chắn hand
