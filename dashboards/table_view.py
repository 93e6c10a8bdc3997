"""The replayer's picture of one hand at one event: a plain view model built by stepping
the same engine the auditor uses (``replay.hk.replayer.replay_to``), and its HTML.

No Streamlit here: tests check the view model and the HTML directly, and the page only
places the HTML.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import Any

import polars as pl
from mjaudit.parts.dashboards.faces import face_html, face_svg, is_cards
from mjaudit.parts.dashboards.ledger import LedgerSeat, LedgerView
from mjaudit.parts.dashboards.ledger import describe as describe_any
from mjaudit.parts.dashboards.tiles_svg import tile_img, tile_svg
from mjaudit.parts.replay import engine
from mjaudit.parts.replay.engine import REGISTRY, replay_hand, supported
from mjaudit.parts.replay.findings import Finding, HandReport
from mjaudit.parts.replay.hk.hand import CODES, HKHand
from mjaudit.parts.replay.hk.replayer import replay_hk, replay_to

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
    return view_of(record, at, replay_to(record, None if at < 0 else at))


def view_of(record: dict[str, Any], at: int, hand: HKHand) -> TableView:
    """The view of ``hand``, the engine's state after event ``at`` of ``record`` (as
    ``replay_to`` gives it, or as a replay's observer sees it: the live service builds its
    answer from the replay it runs anyway)."""
    n_events = len(record["events"])
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


def _seat_html(
    s: SeatView, names: list[str], flagged: set[int], area: str, svg: bool = False
) -> str:
    draw = tile_svg if svg else tile_img
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
        hand = "".join(draw(c, 34) for c in s.concealed)
    if s.drawn is not None:
        hand += '<span style="display:inline-block;width:10px"></span>' + draw(s.drawn, 34, "new")
    melds = []
    for m in s.melds:
        state = "new" if m.new else ""
        src = f" from {names[m.from_seat]}" if m.from_seat is not None else ""
        title = escape(f"{_MELD_TITLE.get(m.kind, m.kind)}{src}", quote=True)
        tiles = "".join(
            draw(c, 28, "back" if m.kind == "concealed_kong" and i in (0, 3) else state)
            for i, c in enumerate(m.tiles)
        )
        melds.append(
            f'<span title="{title}" data-meld="{m.kind}" style="display:inline-block;'
            f'margin-right:8px">{tiles}</span>'
        )
    flowers = "".join(
        draw(c, 24, "new" if s.new_flower and i == len(s.flowers) - 1 else "")
        for i, c in enumerate(s.flowers)
    )
    discards = "".join(
        draw(
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


def table_html(view: TableView, flagged_now: set[int] | None = None, svg: bool = False) -> str:
    """The table as one HTML block: seat 0 at the bottom, turn order counter-clockwise
    (seat 1 right, 2 across, 3 left; in a two-player game seat 1 across). ``flagged_now``:
    seats with a finding at this event, outlined in red. ``svg``: tiles as inline
    ``<svg>`` (a standalone page, printed as vectors) instead of the ``<img>`` that
    ``st.html`` keeps."""
    flagged = flagged_now or set()
    names = [s.player for s in view.seats]
    areas = ["bottom", "top"] if len(view.seats) == 2 else ["bottom", "right", "top", "left"]
    seats = "".join(
        _seat_html(s, names, flagged, areas[s.seat], svg) for s in view.seats if s.seat < len(areas)
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


# -- any ruleset: the display ledger ------------------------------------------------------

_EXPOSURE_TITLE = {
    "eat": "eaten pair",
    "chiu": "chíu",
    "khai": "thiên khai",
    "expose": "exposed",
    "quint": "quint",
    "sextet": "sextet",
}


def _ledger_seat_html(
    s: LedgerSeat,
    view: LedgerView,
    names: list[str],
    flagged: set[int],
    area: str,
    svg: bool = False,
) -> str:
    draw = face_svg if svg else face_html
    ruleset = view.ruleset
    cards = is_cards(ruleset)
    border = "3px solid #c92a2a" if s.seat in flagged else "3px solid transparent"
    marks = (" · cái" if cards else " · dealer") if s.dealer else ""
    head = (
        f'<div style="font-weight:600;margin-bottom:3px">{escape(s.player)} '
        f'<span style="color:#666;font-weight:400">(seat {s.seat}{marks})</span></div>'
    )
    if s.concealed is None:
        hand = '<span style="color:#666">not in the log</span>'
    else:
        hand = "".join(draw(ruleset, c, 30) for c in s.concealed) or "–"
    if s.drawn is not None:
        hand += '<span style="display:inline-block;width:10px"></span>' + draw(
            ruleset, s.drawn, 30, "new"
        )
    exposures = []
    for e in s.exposures:
        src = f" from {names[e.from_seat]}" if e.from_seat is not None else ""
        title = escape(f"{_EXPOSURE_TITLE.get(e.kind, _MELD_TITLE.get(e.kind, e.kind))}{src}")
        faces = "".join(
            draw(
                ruleset,
                c,
                26,
                "back" if e.kind == "concealed_kong" and i in (0, 3) else "new" if e.new else "",
            )
            for i, c in enumerate(e.tiles)
        )
        exposures.append(
            f'<span title="{title}" data-meld="{e.kind}" style="display:inline-block;'
            f'margin-right:8px">{faces}</span>'
        )
    pile = "".join(
        draw(
            ruleset,
            c,
            24,
            "new" if s.new_on_pile and i == len(s.pile) - 1 else ("claimed" if taken else ""),
        )
        for i, (c, taken) in enumerate(s.pile)
    )
    rows = [
        f'<div data-part="concealed">{_row("hand", hand)}</div>',
        f'<div data-part="melds">{_row("trên chiếu" if cards else "exposed", "".join(exposures) or "–")}</div>',
    ]
    if not cards:
        flowers = "".join(draw(ruleset, c, 22) for c in s.flowers)
        rows.append(f'<div data-part="flowers">{_row("flowers", flowers or "–")}</div>')
    rows.append(
        f'<div data-part="discards">{_row("cửa" if cards else "discards", pile or "–")}</div>'
    )
    return (
        f'<div data-seat="{s.seat}" style="grid-area:{area};{_PANEL};border:{border}">'
        f"{head}{''.join(rows)}</div>"
    )


def ledger_html(view: LedgerView, flagged_now: set[int] | None = None, svg: bool = False) -> str:
    """Any ruleset's table as the log describes it (see :mod:`dashboards.ledger`): four
    seats around the centre as in :func:`table_html`, other counts stacked (``svg`` as
    there)."""
    flagged = flagged_now or set()
    names = [s.player for s in view.seats]
    cards = is_cards(view.ruleset)
    four = len(view.seats) == 4
    areas = ["bottom", "right", "top", "left"] if four else [f"s{i}" for i in range(len(names))]
    seats = "".join(
        _ledger_seat_html(s, view, names, flagged, areas[s.seat], svg) for s in view.seats
    )
    what = "cards in the nọc" if cards else "tiles in the wall"
    count = "?" if view.undrawn is None else str(view.undrawn)
    centre = (
        f'<div style="grid-area:centre;align-self:center;text-align:center;color:#fff;'
        f'font-size:14px;line-height:1.5">'
        f'<div style="font-size:12px;opacity:0.85">{escape(view.ruleset)}</div>'
        f'<div style="font-size:26px;font-weight:700" data-wall="{count}">{count}</div>'
        f'<div style="font-size:12px;opacity:0.85">{what} ({view.drawn_so_far} drawn)</div>'
        "</div>"
    )
    if four:
        template = "'top top top' 'left centre right' 'bottom bottom bottom'"
        columns = "minmax(0,1fr) 150px minmax(0,1fr)"
    else:
        template = " ".join(f"'{a}'" for a in ["centre", *areas])
        columns = "1fr"
    return (
        f'<div class="mj-table" data-at="{view.at}" data-ruleset="{escape(view.ruleset)}" '
        f'style="background:{"#7a3b2e" if cards else "#2d6a4f"};border-radius:14px;'
        f"padding:12px;display:grid;grid-template-areas:{template};"
        f'grid-template-columns:{columns};gap:10px">{centre}{seats}</div>'
    )


# -- any ruleset: the engine's report, the event list -------------------------------------

FINDING_SCHEMA = {
    "event_index": pl.Int64,
    "seat": pl.Int64,
    "player": pl.String,
    "code": pl.String,
    "class": pl.String,
    "message": pl.String,
}


def steps_with_engine(ruleset: str) -> bool:
    """Whether the engine can show the table at any event (``replay_to``): the Hong Kong
    engine can; the others are drawn from the log by :mod:`dashboards.ledger`."""
    return REGISTRY.get(ruleset) is replay_hk


def engine_position(record: dict[str, Any], at: int) -> str | None:
    """The engine's own text view of the table after event ``at`` (``replay.engine``
    POSITIONS, as ``mjaudit show`` prints it), None when the ruleset's engine has none; an
    engine error is returned as text, so the page still shows the log's picture."""
    if record["ruleset"] not in engine.POSITIONS:
        return None
    try:
        return engine.position_text(record, None if at < 0 else at)
    except Exception as exc:  # an engine bug must not take the page down
        return f"the engine could not show this position: {type(exc).__name__}: {exc}"


def engine_report(record: dict[str, Any]) -> tuple[HandReport | None, str | None]:
    """Replay one hand now (it is not in the replay tables yet): the report, or the error
    the engine raised (a page shows it instead of a traceback)."""
    try:
        return replay_hand(record), None
    except Exception as exc:  # an engine bug must not take the page down
        return None, f"{type(exc).__name__}: {exc}"


def findings_frame(record: dict[str, Any], findings: Iterable[Finding]) -> pl.DataFrame:
    """Findings in the columns of the replay tables' ``findings`` (for the page)."""
    names = record["players"]
    return pl.DataFrame(
        [
            {
                "event_index": x.event_index,
                "seat": x.seat,
                "player": names[x.seat] if x.seat is not None and x.seat < len(names) else None,
                "code": x.code,
                "class": x.cls.value,
                "message": x.message,
            }
            for x in findings
        ],
        schema=FINDING_SCHEMA,
    )


def result_of(rep: HandReport) -> dict[str, Any]:
    """A report as :func:`dashboards.data.computed_result` gives a replayed hand."""
    return {
        "ended_by": rep.ended_by,
        "winners": list(rep.winners),
        "self_drawn": rep.self_drawn,
        "discarder": rep.discarder,
        "fan": rep.fan,
        "raw_fan": rep.raw_fan,
        "liable": rep.liable,
        "matches_recorded": rep.matches_recorded,
        "deltas": None if rep.deltas is None else list(rep.deltas),
        "patterns": list(rep.patterns),
    }


def _event_codes(ev: dict[str, Any]) -> list[str]:
    """The tiles or cards an event names, in order: the tile, then ``tiles`` (a chow's run
    already holds its tile), then ``with``."""

    def codes(value: Any) -> list[str]:
        items = value if isinstance(value, list) else [value]
        got = [x.get("tile") if isinstance(x, dict) else x for x in items]
        return [c for c in got if isinstance(c, str)]

    tiles = codes(ev.get("tiles"))
    first = [] if ev.get("tile") in tiles else codes(ev.get("tile"))
    return [*first, *tiles, *codes(ev.get("with"))]


def events_html(record: dict[str, Any], at: int, findings: pl.DataFrame) -> str:
    """Every event of the hand as a row: its index, what happened (ruleset-aware words),
    the faces it names, and the findings raised at it; the current event highlighted."""
    ruleset = record["ruleset"]
    by_event: dict[int, list[str]] = {}
    for r in findings.iter_rows(named=True):
        if r["event_index"] is not None:
            by_event.setdefault(int(r["event_index"]), []).append(r["code"])
    rows = []
    for i, ev in enumerate(record["events"]):
        text = describe_any(record, i).split(": ", 1)[-1]
        faces = "".join(face_html(ruleset, c, 22) for c in _event_codes(ev))
        codes = by_event.get(i, [])
        flag = (
            f'<span style="color:#c92a2a;font-weight:600">{escape(", ".join(codes))}</span>'
            if codes
            else ""
        )
        bg = "background:#fff3bf;" if i == at else ""
        rows.append(
            f'<tr data-event="{i}" data-type="{escape(str(ev.get("type")), quote=True)}" '
            f'style="{bg}border-bottom:1px solid #eee">'
            f'<td style="padding:2px 6px;color:#666;text-align:right">{i}</td>'
            f'<td style="padding:2px 6px">{escape(text)}</td>'
            f'<td style="padding:2px 6px;white-space:nowrap">{faces}</td>'
            f'<td style="padding:2px 6px">{flag}</td></tr>'
        )
    return (
        '<table class="mj-events" style="border-collapse:collapse;font-size:13px;width:100%">'
        "<thead><tr><th>#</th><th>event</th><th>tiles / cards</th><th>findings</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
