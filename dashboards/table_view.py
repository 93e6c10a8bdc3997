"""The replayer's picture of one hand at one event, for every ruleset: the engine's own
view model (:func:`replay.engine.run.table_view`, built from the hand state the auditor
steps) drawn as HTML with the project's tile and card faces, plus the event list.

No Streamlit here: tests check the view model and the HTML directly, and the page only
places the HTML (``mjaudit report`` prints the same HTML with inline SVG).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

import polars as pl
from mjaudit.parts.dashboards.describe import describe
from mjaudit.parts.dashboards.faces import face_html, face_svg
from mjaudit.parts.replay.engine import run as engine
from mjaudit.parts.replay.engine.findings import Finding, HandReport
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.engine.view import MeldView, SeatView, TableView


def table_view(record: dict[str, Any], at: int) -> TableView:
    """The table after event ``at`` (-1: after the deal), from the ruleset's engine.
    Raises ValueError for a ruleset without a step-through view or an index out of range."""
    if record["ruleset"] not in engine.VIEWS:
        raise ValueError(f"the {record['ruleset']} engine has no step-through view")
    n_events = len(record["events"])
    if not -1 <= at < n_events:
        raise ValueError(f"event {at}: the hand has events 0-{n_events - 1}")
    return engine.table_view(record, None if at < 0 else at)


def steps(record: dict[str, Any]) -> bool:
    """Whether the replayer can draw this hand's table (its engine has a view)."""
    return record["ruleset"] in engine.VIEWS


# -- HTML ---------------------------------------------------------------------------------

_PANEL = (
    "background:rgba(255,255,255,0.93);border-radius:10px;padding:6px 10px;"
    "box-shadow:0 1px 3px rgba(0,0,0,0.25);min-width:0"
)
_LABEL = "flex:0 0 64px;font-size:12px;color:#555"
# Face widths (hand, groups, discards): a chắn hand holds 19 tall cards, drawn smaller so
# a printed report still fits the table on one page.
_SIZES = {"tiles": (34, 28, 26), "cards": (30, 26, 24)}
_MELD_TITLE = {
    "concealed_kong": "concealed kong",
    "added_kong": "added kong",
    "eat": "eaten pair",
    "chiu": "chíu",
    "khai": "thiên khai",
}


def _row(label: str, body: str) -> str:
    return (
        f'<div style="margin:2px 0;line-height:1;display:flex;align-items:center">'
        f'<span style="{_LABEL}">{escape(label)}</span>'
        f'<span style="display:flex;flex-wrap:wrap;align-items:flex-end">{body}</span></div>'
    )


def _meld_html(view: TableView, m: MeldView, names: list[str], svg: bool) -> str:
    draw = face_svg if svg else face_html
    src = f" from {names[m.from_seat]}" if m.from_seat is not None else ""
    title = escape(f"{_MELD_TITLE.get(m.kind, m.kind)}{src}", quote=True)
    faces = "".join(
        draw(
            view.ruleset,
            c,
            _SIZES[view.pieces][1],
            "back" if m.kind == "concealed_kong" and i in (0, 3) else "new" if m.new else "",
        )
        for i, c in enumerate(m.tiles)
    )
    return (
        f'<span title="{title}" data-meld="{escape(m.kind, quote=True)}" '
        f'style="display:inline-block;margin-right:8px">{faces}</span>'
    )


def _seat_html(view: TableView, s: SeatView, flagged: set[int], area: str, svg: bool) -> str:
    draw = face_svg if svg else face_html
    ruleset, cards = view.ruleset, view.pieces == "cards"
    names = [x.player for x in view.seats]
    size, _, pile = _SIZES[view.pieces]
    border = "3px solid #c92a2a" if s.seat in flagged else "3px solid transparent"
    where = ", ".join(x for x in (s.wind, f"seat {s.seat}") if x) + (
        (" · cái" if cards else " · dealer") if s.dealer else ""
    )
    status = "".join(
        f' <span style="color:#c92a2a;font-weight:600">{escape(x)}</span>' for x in s.status
    )
    head = (
        f'<div style="font-weight:600;margin-bottom:3px">{escape(s.player)} '
        f'<span style="color:#666;font-weight:400">({escape(where)})</span>{status}</div>'
    )
    if s.concealed is None:
        hand = '<span style="color:#666">not in the log</span>'
    else:
        hand = "".join(draw(ruleset, c, size) for c in s.concealed) or "–"
    if s.drawn is not None:
        hand += '<span style="display:inline-block;width:10px"></span>' + draw(
            ruleset, s.drawn, size, "new"
        )
    melds = "".join(_meld_html(view, m, names, svg) for m in s.melds)
    discards = "".join(
        draw(
            ruleset,
            c,
            pile,
            "new" if s.new_discard and i == len(s.discards) - 1 else ("claimed" if claimed else ""),
        )
        for i, (c, claimed) in enumerate(s.discards)
    )
    rows = [
        f'<div data-part="concealed">{_row("hand", hand)}</div>',
        f'<div data-part="melds">{_row("trên chiếu" if cards else "melds", melds or "–")}</div>',
    ]
    if not cards:
        flowers = "".join(
            draw(ruleset, c, 24, "new" if s.new_flower and i == len(s.flowers) - 1 else "")
            for i, c in enumerate(s.flowers)
        )
        rows.append(f'<div data-part="flowers">{_row("flowers", flowers or "–")}</div>')
    rows.append(
        f'<div data-part="discards">{_row("cửa" if cards else "discards", discards or "–")}</div>'
    )
    rows += [
        f'<div data-extra="{escape(label, quote=True)}" style="font-size:12px;color:#444">'
        f"{escape(label)}: {escape(text)}</div>"
        for label, text in s.extras
    ]
    return (
        f'<div data-seat="{s.seat}" style="grid-area:{area};{_PANEL};border:{border}">'
        f"{head}{''.join(rows)}</div>"
    )


def table_html(view: TableView, flagged_now: set[int] | None = None, svg: bool = False) -> str:
    """The table as one HTML block: seat 0 at the bottom, turn order counter-clockwise
    (seat 1 right, 2 across, 3 left; two players: seat 1 across; three: stacked).
    ``flagged_now``: seats with a finding at this event, outlined in red. ``svg``: faces as
    inline ``<svg>`` (a standalone page, printed as vectors) instead of the ``<img>`` that
    ``st.html`` keeps."""
    flagged = flagged_now or set()
    n = len(view.seats)
    cards = view.pieces == "cards"
    if n == 4:
        areas = ["bottom", "right", "top", "left"]
        template = "'top top top' 'left centre right' 'bottom bottom bottom'"
        columns = "minmax(0,1fr) 150px minmax(0,1fr)"
    else:
        areas = ["bottom", "top"] if n == 2 else [f"s{i}" for i in range(n)]
        template = (
            " ".join(f"'{a}'" for a in ["centre", *areas]) if n != 2 else "'top' 'centre' 'bottom'"
        )
        columns = "1fr"
    seats = "".join(_seat_html(view, s, flagged, areas[s.seat], svg) for s in view.seats)
    count = "?" if view.stock is None else str(view.stock)
    what = "cards in the nọc" if cards else "tiles in the wall"
    if view.live is not None:
        what += f" ({view.live} live)"
    wind = (
        f'<div style="font-size:12px;opacity:0.85">round of the {escape(view.prevailing)} wind</div>'
        if view.prevailing
        else f'<div style="font-size:12px;opacity:0.85">{escape(view.ruleset)}</div>'
    )
    extras = "".join(
        f'<div style="font-size:12px;opacity:0.85" data-extra="{escape(label, quote=True)}">'
        f"{escape(label)}: {escape(text)}</div>"
        for label, text in view.extras
    )
    centre = (
        f'<div style="grid-area:centre;align-self:center;text-align:center;color:#fff;'
        f'font-size:14px;line-height:1.5">{wind}'
        f'<div style="font-size:26px;font-weight:700" data-wall="{count}">{count}</div>'
        f'<div style="font-size:12px;opacity:0.85">{what}</div>{extras}</div>'
    )
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
        text = describe(record, i).split(": ", 1)[-1]
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
