"""The table after one event as one immutable value, for every ruleset.

Each ruleset family builds a :class:`TableView` from its own hand state (the state its
replay steps, :func:`replay.engine.stepping.step_to`), so ``mjaudit show`` (text, through
:func:`position_text`), the dashboard's replayer and ``mjaudit report`` (SVG faces) draw
the same table the auditor saw, and there is one definition of "the table after event N".

Tiles and cards are their log codes. A family fills in what its state holds; what only a
ruleset has (khung, chắn's arrangement and waits, the Charleston stage) goes into the
labelled ``extras`` as text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from mjaudit.parts.replay.engine.findings import Finding, findings_text

# Event types that make or change an exposed group of the acting seat (every family's).
EXPOSING_EVENTS = frozenset(
    {
        "chow",
        "pung",
        "kong",
        "quint",
        "sextet",
        "concealed_kong",
        "added_kong",
        "eat",
        "chiu",
        "expose",
        "khai",
    }
)
ARRIVING_EVENTS = frozenset({"draw", "replacement", "win"})  # a tile shown apart


@dataclass(frozen=True)
class MeldView:
    """One exposed group: ``kind`` in the family's words (pung, concealed_kong, eat, khai,
    ...), ``tiles`` as shown, ``from_seat`` whose discard (cửa) it was taken from."""

    kind: str
    tiles: tuple[str, ...]
    from_seat: int | None = None
    new: bool = False  # made or changed at this event


@dataclass(frozen=True)
class SeatView:
    """One seat at the table."""

    seat: int
    player: str
    wind: str | None  # the seat wind (None: the game has none, chắn)
    dealer: bool
    status: tuple[str, ...]  # why the seat is out of play (dead hand, mất ù, bỏ ù ...)
    concealed: tuple[str, ...] | None  # sorted, without ``drawn``; None: not in the log
    drawn: str | None  # the tile (card) that arrived at this event, shown apart
    melds: tuple[MeldView, ...]
    flowers: tuple[str, ...]  # flowers and other declared bonus tiles
    flowers_at_start: tuple[bool, ...]  # per flower: declared in the initial phase
    discards: tuple[tuple[str, bool], ...]  # (code, claimed); chắn: the cửa
    new_discard: bool = False  # the last discard was made at this event
    new_flower: bool = False
    extras: tuple[tuple[str, str], ...] = ()  # (label, text): what only this ruleset has


@dataclass(frozen=True)
class TableView:
    """The table after event ``at`` (-1: after the deal) with the findings so far."""

    ruleset: str
    game_id: str
    hand_no: int
    at: int
    n_events: int
    event: Mapping[str, Any] | None  # the event at ``at`` (None: the deal)
    pieces: str  # "tiles" or "cards"
    stock: int | None  # tiles (cards) still to draw; None: unknown
    live: int | None  # of those, how many may be drawn (None: all)
    prevailing: str | None  # the round wind
    dealer: int
    turn: int | None  # whose turn it is
    seats: tuple[SeatView, ...]
    findings: tuple[Finding, ...]
    extras: tuple[tuple[str, str], ...] = ()  # (label, text): the phase, the live card ...
    actor: int | None = field(default=None)  # the seat that acted at this event


@dataclass(frozen=True)
class TableSummary:
    """The few fields of the table after event ``at`` that the live service answers each
    post with (whose turn, the wall, who is out of play), as its :class:`TableView` has
    them; read off a state without the seats' tiles, groups and discards, which cost the
    most to build and which the answer does not show."""

    n_events: int
    event: Mapping[str, Any] | None  # the event at ``at`` (None: the deal)
    actor: int | None
    turn: int | None
    stock: int | None
    live: int | None
    status: tuple[tuple[str, ...], ...]  # per seat, as its SeatView's


@dataclass(frozen=True)
class SeatState:
    """What a family reads off its state for one seat, before the event's marks."""

    concealed: tuple[str, ...] | None
    melds: tuple[MeldView, ...]
    discards: tuple[tuple[str, bool], ...]
    flowers: tuple[str, ...] = ()
    flowers_at_start: tuple[bool, ...] = ()
    status: tuple[str, ...] = ()
    wind: str | None = None
    extras: tuple[tuple[str, str], ...] = ()


def _seat_of(ev: Mapping[str, Any], key: str, n: int) -> int | None:
    s = ev.get(key)
    return s if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n else None


def _tile(x: Any) -> str | None:
    if isinstance(x, dict):
        x = x.get("tile")
    return x if isinstance(x, str) else None


def _seat_view(
    seat: int,
    name: str,
    state: SeatState,
    ev: Mapping[str, Any],
    n: int,
    dealer: int,
    draws_face_up: bool,
) -> SeatView:
    """Mark on one seat what event ``ev`` changed: the arriving tile shown apart, the new
    discard, flower or group."""
    actor = _seat_of(ev, "seat", n)
    kind = ev.get("type")
    tile = _tile(ev.get("tile"))
    mine = seat == actor
    concealed, drawn = state.concealed, None
    arrives = kind in ARRIVING_EVENTS and not (kind == "draw" and draws_face_up)
    if mine and arrives and tile is not None:
        if concealed is not None and tile in concealed:
            rest = list(concealed)
            rest.remove(tile)
            concealed, drawn = tuple(rest), tile
        elif kind == "win":  # won on a discard (a cửa card): not in the hand yet
            drawn = tile
    melds = state.melds
    if mine and kind in EXPOSING_EVENTS and melds:
        # the group made at this event is the last; an added kong promotes an earlier pung
        promoted = kind == "added_kong"
        melds = tuple(
            MeldView(
                m.kind,
                m.tiles,
                m.from_seat,
                new=(m.kind == "added_kong" and tile in m.tiles)
                if promoted
                else i == len(melds) - 1,
            )
            for i, m in enumerate(melds)
        )
    if kind == "joker_exchange" and _seat_of(ev, "target", n) == seat:
        index = ev.get("exposure")
        melds = tuple(
            MeldView(m.kind, m.tiles, m.from_seat, new=i == index) for i, m in enumerate(melds)
        )
    onto = _seat_of(ev, "to", n) if kind == "discard" else None
    lands = seat == (onto if onto is not None else actor)
    piled = kind == "discard" or (kind == "draw" and draws_face_up)
    return SeatView(
        seat=seat,
        player=name,
        wind=state.wind,
        dealer=seat == dealer,
        status=state.status,
        concealed=concealed,
        drawn=drawn,
        melds=melds,
        flowers=state.flowers,
        flowers_at_start=state.flowers_at_start or (False,) * len(state.flowers),
        discards=state.discards,
        new_discard=lands and piled and bool(state.discards),
        new_flower=mine and kind == "flower",
        extras=state.extras,
    )


def _event_at(
    record: Mapping[str, Any], at: int | None
) -> tuple[Sequence[Mapping[str, Any]], int, Mapping[str, Any]]:
    """The record's events, the index of event ``at`` (-1: the deal) and the event ({})."""
    events = record.get("events") or []
    index = -1 if at is None else at
    return events, index, events[index] if index >= 0 else {}


def build_summary(
    record: Mapping[str, Any],
    at: int | None,
    status: Sequence[tuple[str, ...]],
    *,
    stock: int | None,
    live: int | None = None,
    turn: int | None,
) -> TableSummary:
    """The :class:`TableSummary` of ``record`` after event ``at`` from what a family read
    off its state: the fields :func:`build_view` gives those names."""
    events, index, ev = _event_at(record, at)
    return TableSummary(
        n_events=len(events),
        event=ev if index >= 0 else None,
        actor=_seat_of(ev, "seat", len(record["players"])),
        turn=turn,
        stock=stock,
        live=live,
        status=tuple(status),
    )


def build_view(
    record: Mapping[str, Any],
    at: int | None,
    seats: Sequence[SeatState],
    findings: Iterable[Finding],
    *,
    pieces: str = "tiles",
    stock: int | None,
    live: int | None = None,
    prevailing: str | None = None,
    dealer: int,
    turn: int | None,
    extras: tuple[tuple[str, str], ...] = (),
    draws_face_up: bool = False,
) -> TableView:
    """The :class:`TableView` of ``record`` after event ``at`` (None: the deal) from what a
    family read off its state; the findings are those raised at or before the event.
    ``draws_face_up``: a drawn card lands on its drawer's discards (chắn's cửa)."""
    events, index, ev = _event_at(record, at)
    names = list(record["players"])
    actor = _seat_of(ev, "seat", len(names))
    shown = tuple(f for f in findings if at is None or f.event_index is None or f.event_index <= at)
    return TableView(
        ruleset=record["ruleset"],
        game_id=record["game_id"],
        hand_no=record["hand_no"],
        at=index,
        n_events=len(events),
        event=ev if index >= 0 else None,
        pieces=pieces,
        stock=stock,
        live=live,
        prevailing=prevailing,
        dealer=dealer,
        turn=turn,
        seats=tuple(
            _seat_view(s, names[s], state, ev, len(names), dealer, draws_face_up)
            for s, state in enumerate(seats)
        ),
        findings=shown,
        extras=extras,
        actor=actor,
    )


# -- text (``mjaudit show``) ---------------------------------------------------------------


S = TypeVar("S")


@dataclass(frozen=True)
class SteppedView(Generic[S]):
    """A ruleset's ``(record, at, overrides) -> TableView``: its hand state stepped to
    event ``at`` by its ``replay_to``, then read by its view of a stepped state (the one a
    replay's observer is shown), so the two views of a table cannot differ."""

    step: Callable[[dict[str, Any], int | None, Mapping[str, object] | None], S]
    view: Callable[[S, int | None], TableView]

    def __call__(
        self, record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
    ) -> TableView:
        """The table after event ``at`` (None: after the deal)."""
        return self.view(self.step(record, at, overrides), at)


def meld_text(m: MeldView, sep: str = "") -> str:
    """``[pung 2m2m2m <- 2]``: the group, and the seat it was taken from (cards are
    spaced: their codes run together)."""
    src = f" <- {m.from_seat}" if m.from_seat is not None else ""
    return f"[{m.kind} {sep.join(m.tiles)}{src}]"


def _stock_line(view: TableView) -> str:
    if view.stock is None:
        return "  wall: unknown"
    if view.pieces == "cards":
        return f"  nọc: {view.stock} cards"
    live = f", {view.live} live" if view.live is not None else ""
    return f"  wall: {view.stock} tiles undrawn{live}"


def position_text(view: TableView) -> str:
    """The table as text a referee reads in a terminal: per seat the hand, exposed groups,
    flowers, discards (``*`` = claimed) and the ruleset's own extras; the findings so far."""
    head = f"game {view.game_id} hand {view.hand_no} ({view.ruleset})"
    step = (
        f"after event {view.at}: {view.event.get('type')}"
        if view.event is not None
        else "after the deal"
    )
    names = [s.player for s in view.seats]
    sep = " " if view.pieces == "cards" else ""
    lines = [f"{head}, {step}", _stock_line(view)]
    if view.turn is not None:
        lines.append(f"  to play next: {names[view.turn]}")
    lines += [f"  {label}: {text}" for label, text in view.extras]
    for s in view.seats:
        wind = f" [{s.wind}]" if s.wind else ""
        marker = " (dealer)" if s.dealer else ""
        status = "".join(f" {x}" for x in s.status)
        lines.append(f"  seat {s.seat} {s.player}{wind}{marker}{status}")
        if s.concealed is None:
            concealed = "unknown"
        else:
            concealed = " ".join(s.concealed) or "-"
            if s.drawn is not None:
                concealed += f" + {s.drawn}"
        lines.append(f"    hand:     {concealed}")
        lines.append(f"    melds:    {' '.join(meld_text(m, sep) for m in s.melds) or '-'}")
        if s.flowers:
            marks = " ".join(
                c + ("^" if start else "")
                for c, start in zip(s.flowers, s.flowers_at_start, strict=True)
            )
            note = "  (^ = declared at the start)" if any(s.flowers_at_start) else ""
            lines.append(f"    flowers:  {marks}{note}")
        discards = " ".join(c + ("*" if claimed else "") for c, claimed in s.discards)
        note = "  (* = claimed)" if any(claimed for _, claimed in s.discards) else ""
        lines.append(f"    discards: {discards or '-'}{note}")
        lines += [f"    {label}: {text}" for label, text in s.extras]
    lines.extend(findings_text(view.findings, None))
    return "\n".join(lines)
