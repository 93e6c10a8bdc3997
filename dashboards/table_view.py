"""The replayer's picture of one hand at one event: a plain view model built by stepping
the same engine the auditor uses (``replay.hk.replayer.replay_to``), and its HTML.

No Streamlit here: tests check the view model and the HTML directly, and the page only
places the HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from dashboards.tiles_svg import tile_img
from replay.engine import supported
from replay.findings import Finding
from replay.hk.hand import CODES, HKHand
from replay.hk.replayer import replay_to

WINDS = "ESWN"
MELD_EVENTS = ("chow", "pung", "kong", "concealed_kong", "added_kong")


@dataclass(frozen=True)
class MeldView:
    kind: str  # chow, pung, kong, concealed_kong, added_kong
    tiles: tuple[str, ...]
    from_seat: int | None
    new: bool = False  # declared at this event


@dataclass(frozen=True)
class SeatView:
    seat: int
    player: str
    wind: str
    dealer: bool
    dead: str | None  # the code that killed the hand
    concealed: tuple[str, ...] | None  # sorted; None when the log does not say (partial)
    drawn: str | None  # the tile just drawn (or won on), shown apart and outlined
    melds: tuple[MeldView, ...]
    flowers: tuple[str, ...]
    discards: tuple[tuple[str, bool], ...]  # (tile, claimed by another player)
    new_discard: bool = False  # the last discard was made at this event
    new_flower: bool = False


@dataclass(frozen=True)
class TableView:
    at: int  # event index; -1 = after the deal
    n_events: int
    description: str
    undrawn: int
    live: int
    prevailing: str
    ended_by: str
    seats: tuple[SeatView, ...]
    findings: tuple[Finding, ...]  # the engine's findings at or before this event
    actor: int | None  # the seat that acted at this event


def describe(record: dict[str, Any], at: int) -> str:
    """One line for event ``at`` (-1: the deal), in the players' names."""
    if at < 0:
        return "after the deal"
    ev = record["events"][at]
    names = record["players"]

    def who(key: str = "seat") -> str:
        seat = ev.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind, tile = ev["type"], ev.get("tile", "")
    text = {
        "draw": f"{who()} draws {tile}",
        "replacement": f"{who()} draws a replacement, {tile}",
        "flower": f"{who()} declares flower {tile}",
        "discard": f"{who()} discards {tile}",
        "chow": f"{who()} chows {tile} from {who('from')}",
        "pung": f"{who()} pungs {tile} from {who('from')}",
        "kong": f"{who()} kongs {tile} from {who('from')}",
        "concealed_kong": f"{who()} declares a concealed kong of {tile}",
        "added_kong": f"{who()} adds {tile} to a pung",
        "announce": f"{who()} announces {ev.get('what', '')}",
        "exhaustive_draw": "exhaustive draw: the wall is empty",
        "abandon": f"the hand is abandoned ({ev.get('reason', 'no reason given')})",
    }.get(kind)
    if kind == "win":
        how = "self-drawn" if ev.get("from") is None else f"on {who('from')}'s discard"
        if ev.get("robbed_kong"):
            how = f"robbing {who('from')}'s kong"
        text = f"{who()} declares a win on {tile}, {how}"
    return f"event {at}: {text or kind}"


def _wind(hand: HKHand, seat: int) -> str:
    if hand.n == 4:
        return WINDS[(seat - hand.dealer) % 4]
    return "E" if seat == hand.dealer else "W"


def table_view(record: dict[str, Any], at: int) -> TableView:
    """The table after event ``at`` (-1: after the deal). Raises ValueError for a ruleset
    without an engine or an event index out of range."""
    if not supported(record["ruleset"]):
        raise ValueError(f"the {record['ruleset']} rules engine is not built yet")
    n_events = len(record["events"])
    if not -1 <= at < n_events:
        raise ValueError(f"event {at}: the hand has events 0-{n_events - 1}")
    hand = replay_to(record, None if at < 0 else at)
    ev = record["events"][at] if at >= 0 else {}
    kind = ev.get("type")
    actor = ev.get("seat") if isinstance(ev.get("seat"), int) else None
    seats = []
    for seat, name in enumerate(record["players"]):
        mine = seat == actor
        counts = list(hand.concealed[seat])
        drawn = None
        if mine and kind in ("draw", "replacement", "win") and ev.get("tile") in CODES:
            t = CODES.index(ev["tile"])
            if counts[t] > 0:
                counts[t] -= 1
                drawn = ev["tile"]
            elif kind == "win":  # won on a discard: the tile is not in the hand yet
                drawn = ev["tile"]
        concealed = None
        if not hand.partial:
            concealed = tuple(CODES[t] for t in range(len(counts)) for _ in range(counts[t]))
        melds = tuple(
            MeldView(
                m.kind.value,
                tuple(CODES[t] for t in m.tiles),
                m.from_seat,
                new=mine and kind in MELD_EVENTS and ev.get("tile") in {CODES[t] for t in m.tiles},
            )
            for m in hand.melds[seat]
        )
        seats.append(
            SeatView(
                seat=seat,
                player=name,
                wind=_wind(hand, seat),
                dealer=seat == hand.dealer,
                dead=hand.dead.get(seat),
                concealed=concealed,
                drawn=drawn,
                melds=melds,
                flowers=tuple(CODES[t] for t in hand.flowers[seat]),
                discards=tuple((CODES[d.tile], d.claimed) for d in hand.discards[seat]),
                new_discard=mine and kind == "discard",
                new_flower=mine and kind == "flower",
            )
        )
    shown = tuple(
        f for f in hand.findings if f.event_index is None or at < 0 or f.event_index <= at
    )
    return TableView(
        at=at,
        n_events=n_events,
        description=describe(record, at),
        undrawn=hand.undrawn,
        live=hand.live_count,
        prevailing=WINDS[hand.prevailing],
        ended_by=hand.ended_by,
        seats=tuple(seats),
        findings=shown,
        actor=actor,
    )


# -- HTML ---------------------------------------------------------------------------------

_PANEL = (
    "background:rgba(255,255,255,0.93);border-radius:10px;padding:6px 10px;"
    "box-shadow:0 1px 3px rgba(0,0,0,0.25);min-width:0"
)
_LABEL = "flex:0 0 64px;font-size:12px;color:#555"
_MELD_TITLE = {
    "chow": "chow",
    "pung": "pung",
    "kong": "kong",
    "concealed_kong": "concealed kong",
    "added_kong": "added kong",
}


def _row(label: str, body: str) -> str:
    return (
        f'<div style="margin:2px 0;line-height:1;display:flex;align-items:center">'
        f'<span style="{_LABEL}">{label}</span>'
        f'<span style="display:flex;flex-wrap:wrap;align-items:flex-end">{body}</span></div>'
    )


def _seat_html(s: SeatView, names: list[str], flagged: set[int], area: str) -> str:
    border = "3px solid #c92a2a" if s.seat in flagged else "3px solid transparent"
    marks = " · dealer" if s.dealer else ""
    dead = (
        f' <span style="color:#c92a2a;font-weight:600">DEAD ({escape(s.dead)})</span>'
        if s.dead
        else ""
    )
    head = (
        f'<div style="font-weight:600;margin-bottom:3px">{escape(s.player)} '
        f'<span style="color:#666;font-weight:400">({s.wind}, seat {s.seat}{marks})</span>'
        f"{dead}</div>"
    )
    if s.concealed is None:
        hand = '<span style="color:#666">not in the log</span>'
    else:
        hand = "".join(tile_img(c, 34) for c in s.concealed)
    if s.drawn is not None:
        hand += '<span style="display:inline-block;width:10px"></span>' + tile_img(
            s.drawn, 34, "new"
        )
    melds = []
    for m in s.melds:
        state = "new" if m.new else ""
        src = f" from {names[m.from_seat]}" if m.from_seat is not None else ""
        title = escape(f"{_MELD_TITLE.get(m.kind, m.kind)}{src}", quote=True)
        tiles = "".join(
            tile_img(c, 28, "back" if m.kind == "concealed_kong" and i in (0, 3) else state)
            for i, c in enumerate(m.tiles)
        )
        melds.append(
            f'<span title="{title}" data-meld="{m.kind}" style="display:inline-block;'
            f'margin-right:8px">{tiles}</span>'
        )
    flowers = "".join(
        tile_img(c, 24, "new" if s.new_flower and i == len(s.flowers) - 1 else "")
        for i, c in enumerate(s.flowers)
    )
    discards = "".join(
        tile_img(
            c,
            26,
            "new" if s.new_discard and i == len(s.discards) - 1 else ("claimed" if claimed else ""),
        )
        for i, (c, claimed) in enumerate(s.discards)
    )
    body = (
        head
        + f'<div data-part="concealed">{_row("hand", hand)}</div>'
        + f'<div data-part="melds">{_row("melds", "".join(melds) or "–")}</div>'
        + f'<div data-part="flowers">{_row("flowers", flowers or "–")}</div>'
        + f'<div data-part="discards">{_row("discards", discards or "–")}</div>'
    )
    return (
        f'<div data-seat="{s.seat}" style="grid-area:{area};{_PANEL};border:{border}">{body}</div>'
    )


def table_html(view: TableView, flagged_now: set[int] | None = None) -> str:
    """The table as one HTML block: seat 0 at the bottom, turn order counter-clockwise
    (seat 1 right, 2 across, 3 left; in a two-player game seat 1 across). ``flagged_now``:
    seats with a finding at this event, outlined in red."""
    flagged = flagged_now or set()
    names = [s.player for s in view.seats]
    areas = ["bottom", "top"] if len(view.seats) == 2 else ["bottom", "right", "top", "left"]
    seats = "".join(
        _seat_html(s, names, flagged, areas[s.seat]) for s in view.seats if s.seat < len(areas)
    )
    centre = (
        f'<div style="grid-area:centre;align-self:center;text-align:center;color:#fff;'
        f'font-size:14px;line-height:1.5">'
        f'<div style="font-size:12px;opacity:0.85">round of the {view.prevailing} wind</div>'
        f'<div style="font-size:26px;font-weight:700" data-wall="{view.undrawn}">'
        f"{view.undrawn}</div>"
        f'<div style="font-size:12px;opacity:0.85">tiles in the wall ({view.live} live)</div>'
        "</div>"
    )
    template = (
        "'top top top' 'left centre right' 'bottom bottom bottom'"
        if len(view.seats) == 4
        else "'top' 'centre' 'bottom'"
    )
    columns = "minmax(0,1fr) 150px minmax(0,1fr)" if len(view.seats) == 4 else "1fr"
    return (
        f'<div class="mj-table" data-at="{view.at}" style="background:#2d6a4f;'
        f"border-radius:14px;padding:12px;display:grid;grid-template-areas:{template};"
        f'grid-template-columns:{columns};gap:10px">{centre}{seats}</div>'
    )
