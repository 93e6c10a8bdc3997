"""A shareable audit report of one hand or a whole sitting: one self-contained HTML page.

A referee sends it to the players: the header (venue, table, date, players, ruleset and
options), each finding with its event, seat, code, class and where the rules define it
(:func:`replay.registry.rules_ref`), the table as it stood at that event drawn the way the
dashboard's replayer draws it (:mod:`dashboards.table_view`, the project's own SVG tiles
and cards inlined), the settlement the rules give beside the one the log recorded, and for
a sitting the running score. Nothing is fetched when it is opened: inline CSS and SVG, no
script, no link to anywhere; every text from the log is escaped.

The hands are replayed here with the engine, game by game in hand order as ``mjaudit
replay`` does, so a report is right for hands not replayed yet. Nothing is written: the
page is returned as a string (``mjaudit report`` writes it; the dashboard offers it as a
download).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from mjaudit.parts.dashboards.describe import describe
from mjaudit.parts.dashboards.faces import is_cards
from mjaudit.parts.dashboards.table_view import table_html, table_view
from mjaudit.parts.replay.engine.findings import (
    CLASS_LABEL,
    Finding,
    FindingClass,
    HandReport,
    points,
)
from mjaudit.parts.replay.engine.registry import rules_ref
from mjaudit.parts.replay.engine.render import outcome_lines
from mjaudit.parts.replay.engine.run import replay_games

import mjaudit


@dataclass(frozen=True)
class ReportedHand:
    """One hand of a report: its canonical record and the replay's report of it."""

    record: dict[str, Any]
    report: HandReport


def replay_records(records: Iterable[dict[str, Any]]) -> list[ReportedHand]:
    """Replay ``records`` game by game (each hand sees the one before it, as in
    ``mjaudit replay``), in (game_id, hand_no) order."""
    by_key = {(r["game_id"], r["hand_no"]): r for r in records}
    return [
        ReportedHand(by_key[(rep.game_id, rep.hand_no)], rep)
        for rep in replay_games(by_key.values())
    ]


# -- the page -----------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;
  margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px;
  border-bottom:2px solid #2d6a4f;padding-bottom:3px}h3{font-size:15px;margin:16px 0 6px}
table.mj{border-collapse:collapse;margin:6px 0}
table.mj th,table.mj td{border:1px solid #dee2e6;padding:3px 8px;text-align:left;
  vertical-align:top}
table.mj th{background:#f1f3f5}td.num,th.num{text-align:right}
.meta td:first-child{color:#555;white-space:nowrap}
.cls-CORRUPT_LOG{color:#862e9c;font-weight:600}.cls-PLAYER_VIOLATION{color:#c92a2a;font-weight:600}
.cls-SCORE_MISMATCH{color:#d9480f;font-weight:600}.cls-INFO{color:#1864ab}
.finding{border-left:4px solid #c92a2a;background:#fff5f5;padding:4px 10px;margin:4px 0}
.finding.info{border-color:#1864ab;background:#e7f5ff}
.differs{background:#fff3bf}.muted{color:#666}.ok{color:#2b8a3e}.bad{color:#c92a2a}
.event{break-inside:avoid;margin-bottom:14px}
@media print{body{margin:0;max-width:none;font-size:12px}
  .event,.sitting .hand{break-before:page}}
"""
# Printed (``--pdf``), a hand starts with its findings and settlement on one page and
# every event with a finding has a page of its own; a sitting's hands each start a page.


def hand_report_html(hand: ReportedHand, source: str) -> str:
    """The report of one hand; ``source`` says where the log came from (a file, an
    archive folder), for the header."""
    rec = hand.record
    title = f"{rec['game_id']} hand {rec['hand_no']}"
    body = _header(title, [hand], source) + _hand_html(hand, sitting=False)
    return _page(f"Audit report: {title}", body)


def sitting_report_html(hands: Sequence[ReportedHand], source: str) -> str:
    """The report of a sitting: its header, the running score, then every hand."""
    if not hands:
        raise ValueError("a sitting report needs at least one hand")
    game = hands[0].record["game_id"]
    body = (
        _header(f"{game} ({len(hands)} hands)", hands, source)
        + _running_score(hands)
        + '<div class="sitting">'
        + "".join(_hand_html(h, sitting=True) for h in hands)
        + "</div>"
    )
    return _page(f"Audit report: {game}", body)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def _when(started_at: Any) -> str:
    """``2024-10-05T21:45:00+07:00`` -> ``2024-10-05 21:45 (UTC+07:00)``, as recorded."""
    text = str(started_at or "")
    if len(text) >= 16 and text[10] == "T":
        zone = text[19:] if len(text) > 19 else ""
        return f"{text[:10]} {text[11:16]}" + (f" (UTC{zone})" if zone and zone != "Z" else "")
    return text or "not recorded"


def _header(title: str, hands: Sequence[ReportedHand], source: str) -> str:
    first = hands[0].record
    last = hands[-1].record
    when = _when(first.get("started_at"))
    if len(hands) > 1 and last.get("started_at") != first.get("started_at"):
        when += f" to {_when(last.get('started_at'))}"
    rulesets = ", ".join(dict.fromkeys(h.record["ruleset"] for h in hands))
    players = list(dict.fromkeys(p for h in hands for p in h.record["players"]))
    options = first.get("options") or {}
    opts = (
        ", ".join(f"{k} = {_value(v)}" for k, v in sorted(options.items()))
        + "; the others at the ruleset's defaults"
        if options
        else "the ruleset's defaults"
    )
    rows = [
        ("Sitting", first["game_id"]),
        ("Venue", first.get("venue") or "not recorded"),
        ("Table", first.get("table") or "not recorded"),
        ("Date", when),
        ("Players", ", ".join(players)),
        ("Ruleset", rulesets),
        ("Options", opts),
        ("Source", source),
    ]
    serious = sum(1 for h in hands for f in h.report.findings if f.cls is not FindingClass.INFO)
    rows.append(("Findings", f"{serious} serious, in {len(hands)} hand(s)"))
    meta = "".join(f"<tr><td>{escape(k)}</td><td>{escape(str(v))}</td></tr>" for k, v in rows)
    note = (
        f'<p class="muted">mjaudit {escape(mjaudit.__version__)}: the findings and the settlement '
        "are the rules engine's replay of the log; each table is drawn as the dashboard's "
        "replayer draws it after that event.</p>"
    )
    return f'<h1>Audit report: {escape(title)}</h1><table class="mj meta">{meta}</table>{note}'


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _signed(x: float | None) -> str:
    if x is None:
        return "–"
    value = points(x)
    return f"{value:+}" if value else "0"


# -- one hand -----------------------------------------------------------------------------


def _hand_html(hand: ReportedHand, sitting: bool) -> str:
    rec = hand.record
    cards = is_cards(rec["ruleset"])
    names = rec["players"]
    dealer_word = "cái" if cards else "dealer"
    seats = ", ".join(
        f"{escape(n)} (seat {s}{', ' + dealer_word if s == rec['dealer'] else ''})"
        for s, n in enumerate(names)
    )
    wind = rec.get("prevailing_wind")
    line = [f"{escape(rec['ruleset'])}", seats]
    if wind:
        line.append(f"round of the {escape(str(wind))} wind")
    if sitting:
        line.append(escape(_when(rec.get("started_at"))))
    head = (
        f'<section class="hand" data-game="{escape(rec["game_id"], quote=True)}" '
        f'data-hand="{rec["hand_no"]}"><h2>Hand {rec["hand_no"]}</h2>'
        f'<p class="muted">{" · ".join(line)}</p>'
    )
    return head + _findings_html(hand) + _settlement_html(hand) + _events_html(hand) + "</section>"


def _where(f: Finding) -> str:
    return "the record" if f.event_index is None else f"event {f.event_index}"


def _findings_html(hand: ReportedHand) -> str:
    rec, rep = hand.record, hand.report
    names = rec["players"]
    if not rep.findings:
        return '<h3>Findings</h3><p class="ok">No findings: the log follows the rules.</p>'
    rows = []
    for f in rep.findings:
        who = names[f.seat] if f.seat is not None and 0 <= f.seat < len(names) else ""
        seat = "" if f.seat is None else f"{f.seat} {who}"
        ref = rules_ref(rec["ruleset"], f.code, f.reason) or "–"
        code = f.code + (f" ({f.reason})" if f.reason else "")
        rows.append(
            f'<tr data-code="{escape(f.code, quote=True)}"><td>{escape(_where(f))}</td>'
            f"<td>{escape(seat)}</td><td><code>{escape(code)}</code></td>"
            f'<td class="cls-{f.cls.value}">{CLASS_LABEL[f.cls]}</td>'
            f"<td>{escape(ref)}</td><td>{escape(f.message)}</td></tr>"
        )
    return (
        '<h3>Findings</h3><table class="mj findings"><thead><tr><th>where</th><th>seat</th>'
        "<th>code</th><th>class</th><th>rules</th><th>what the replay found</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )


def finding_events(report: HandReport) -> list[int]:
    """The events with a finding, in order: each is drawn (and printed on a page)."""
    return sorted({f.event_index for f in report.findings if f.event_index is not None})


def _events_html(hand: ReportedHand) -> str:
    findings = hand.report.findings
    return "".join(
        _event_html(hand.record, at, [f for f in findings if f.event_index == at])
        for at in finding_events(hand.report)
    )


def _event_html(record: dict[str, Any], at: int, findings: list[Finding]) -> str:
    """The table after event ``at``, the seats with a finding there outlined, and the
    findings of that event under it."""
    names = record["players"]
    flagged = {f.seat for f in findings if f.seat is not None}
    description, picture = draw_table(record, at, flagged)
    boxes = "".join(
        f'<div class="finding{" info" if f.cls is FindingClass.INFO else ""}">'
        f'<b><code>{escape(f.code)}</code></b> <span class="cls-{f.cls.value}">'
        f"{CLASS_LABEL[f.cls]}</span>"
        + (f" · {escape(names[f.seat])}" if f.seat is not None and f.seat < len(names) else "")
        + f" · {escape(rules_ref(record['ruleset'], f.code, f.reason) or '–')}"
        f"<br>{escape(f.message)}</div>"
        for f in findings
    )
    return (
        f'<div class="event" data-event="{at}"><h3>{escape(description)}</h3>{picture}{boxes}</div>'
    )


def draw_table(record: dict[str, Any], at: int, flagged: set[int]) -> tuple[str, str]:
    """(the event in words, the table after it as HTML with inline SVG faces), drawn as
    the replayer draws it: the engine's own view model of the table."""
    try:
        return describe(record, at), table_html(table_view(record, at), flagged, svg=True)
    except Exception as exc:  # a log the replayer cannot picture: say so, keep the report
        return (
            f"event {at}",
            f'<p class="bad">The table cannot be drawn at this event '
            f"({escape(type(exc).__name__)}: {escape(str(exc))}).</p>",
        )


# -- the settlement -----------------------------------------------------------------------


def _recorded_lines(record: dict[str, Any]) -> list[str]:
    result = record.get("result")
    if not result:
        return ["The log records no result."]
    names = record["players"]
    unit = "điểm" if is_cards(record["ruleset"]) else "fan"
    lines = []
    winners = result.get("winners") or []
    lines.append(
        "winner: " + ", ".join(names[w] for w in winners if 0 <= w < len(names))
        if winners
        else "no winner recorded"
    )
    if result.get("fan") is not None:
        lines.append(f"{unit}: {points(result['fan'])}")
    if result.get("patterns"):
        lines.append("patterns: " + ", ".join(str(p) for p in result["patterns"]))
    for p in result.get("penalties") or []:
        if isinstance(p, dict):
            lines.append("penalty: " + ", ".join(f"{k} {v}" for k, v in sorted(p.items())))
    return lines


def _settlement_html(hand: ReportedHand) -> str:
    rec, rep = hand.record, hand.report
    names = rec["players"]
    recorded = (rec.get("result") or {}).get("deltas")
    computed = rep.deltas
    rows = []
    for s, name in enumerate(names):
        c = computed[s] if computed is not None and s < len(computed) else None
        r = recorded[s] if recorded is not None and s < len(recorded) else None
        differs = c is not None and r is not None and abs(c - r) > 1e-9
        rows.append(
            f'<tr{" class=differs" if differs else ""} data-seat="{s}"><td>{escape(name)}</td>'
            f'<td class="num">{_signed(c)}</td><td class="num">{_signed(r)}</td>'
            f"<td>{'differs' if differs else ''}</td></tr>"
        )
    if rep.matches_recorded is True:
        verdict = '<p class="ok">The recorded result matches the rules.</p>'
    elif rep.matches_recorded is False:
        verdict = '<p class="bad">The recorded result differs from the rules.</p>'
    else:
        verdict = '<p class="muted">Nothing to compare: the log records no result.</p>'
    computed_text = "<br>".join(escape(x) for x in outcome_lines(rep))
    recorded_text = "<br>".join(escape(x) for x in _recorded_lines(rec))
    return (
        '<h3>Settlement</h3><table class="mj settlement"><thead><tr><th></th>'
        "<th>computed by the replay</th><th>recorded in the log</th></tr></thead>"
        f"<tbody><tr><td>result</td><td>{computed_text}</td><td>{recorded_text}</td></tr>"
        "</tbody></table>"
        '<table class="mj payments"><thead><tr><th>player</th><th class="num">computed</th>'
        f'<th class="num">recorded</th><th></th></tr></thead><tbody>{"".join(rows)}</tbody>'
        f"</table>{verdict}"
    )


# -- a sitting: the running score ---------------------------------------------------------


def _running_score(hands: Sequence[ReportedHand]) -> str:
    """Per hand, each player's computed payment and running total (by name: a sitting
    may seat a player elsewhere later); the recorded totals under them."""
    players = list(dict.fromkeys(p for h in hands for p in h.record["players"]))
    total = dict.fromkeys(players, 0.0)
    recorded_total = dict.fromkeys(players, 0.0)
    rows = []
    for h in hands:
        rec, rep = h.record, h.report
        settled = rep.deltas is not None and len(rep.deltas) == len(rec["players"])
        deltas = dict(zip(rec["players"], rep.deltas or (), strict=True)) if settled else None
        rec_deltas = (rec.get("result") or {}).get("deltas")
        if rec_deltas and len(rec_deltas) == len(rec["players"]):
            for p, d in zip(rec["players"], rec_deltas, strict=True):
                recorded_total[p] += d
        cells = []
        for p in players:
            if deltas is None or p not in deltas:
                note = "not settled" if p in rec["players"] else "not at the table"
                cells.append(f'<td class="num muted">–<br><small>{note}</small></td>')
                continue
            total[p] += deltas[p]
            cells.append(f'<td class="num">{_signed(deltas[p])}<br><b>{_signed(total[p])}</b></td>')
        serious = sum(1 for f in rep.findings if f.cls is not FindingClass.INFO)
        outcome = "; ".join(outcome_lines(rep)[:1])
        rows.append(
            f'<tr data-hand="{rec["hand_no"]}"><td>{rec["hand_no"]}</td>'
            f'<td>{escape(outcome)}</td><td class="num">{serious or ""}</td>{"".join(cells)}</tr>'
        )
    head = "".join(f'<th class="num">{escape(p)}</th>' for p in players)
    totals = "".join(f'<td class="num"><b>{_signed(total[p])}</b></td>' for p in players)
    rec_totals = "".join(f'<td class="num">{_signed(recorded_total[p])}</td>' for p in players)
    return (
        "<h2>Running score</h2>"
        '<p class="muted">Each cell: the payment the rules give in that hand, and the '
        "running total under it.</p>"
        '<table class="mj running"><thead><tr><th>hand</th><th>result</th>'
        f'<th class="num">findings</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        f'<tfoot><tr><td colspan="3">total (computed)</td>{totals}</tr>'
        f'<tr><td colspan="3">total (recorded)</td>{rec_totals}</tr></tfoot></table>'
    )


# -- from the archive, and to PDF -----------------------------------------------------------


def pick(hands: Sequence[ReportedHand], hand_no: int | None, source: str) -> str:
    """The report of hand ``hand_no`` of these replayed hands (None: the whole sitting).
    Raises LookupError naming the hands there are."""
    if hand_no is None:
        return sitting_report_html(hands, source)
    for hand in hands:
        if hand.record["hand_no"] == hand_no:
            return hand_report_html(hand, source)
    numbers = [h.record["hand_no"] for h in hands]
    raise LookupError(
        f"sitting {hands[0].record['game_id']!r} has no hand {hand_no} "
        f"(its hands are {_ranges(numbers)})"
    )


def _ranges(numbers: Sequence[int]) -> str:
    """``1-6, 9``: hand numbers as runs."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


def archive_report(
    records: Sequence[dict[str, Any]], root: str | Path, hand_no: int | None
) -> str | None:
    """The report of one sitting's hand (None: all of it) from the archive at ``root``:
    the sitting is replayed with the folder's american cards, as ``mjaudit replay`` does.
    None when the sitting is not there; LookupError for a hand it does not have."""
    from mjaudit.parts.replay.rulesets.american.card import register_folder

    if not records:
        return None
    register_folder(root)
    source = f"the archive {Path(root).name}/"
    return pick(replay_records(records), hand_no, source)


CHROMIUM = Path("/usr/bin/chromium")


class PdfUnavailable(RuntimeError):
    """Printing needs Playwright and Debian's Chromium; the message says what to install."""


def to_pdf(html: str, chromium: Path = CHROMIUM) -> bytes:
    """The report printed to A4 by headless Chromium (driven by Playwright, no network:
    the page has nothing to fetch). Raises :class:`PdfUnavailable` when either is
    missing."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise PdfUnavailable(
            "--pdf needs Playwright: pip install 'mahjong-audit[pdf]' (it drives the "
            f"Chromium at {chromium}; no browser is downloaded)"
        ) from None
    if not chromium.exists():
        raise PdfUnavailable(
            f"--pdf needs Chromium at {chromium}: install it with `apt-get install chromium` "
            "(or `make browser` as root)"
        )
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(chromium),
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            try:
                page = browser.new_page()
                page.set_content(html, wait_until="load")
                pdf = page.pdf(
                    format="A4",
                    print_background=True,
                    margin={"top": "12mm", "bottom": "12mm", "left": "10mm", "right": "10mm"},
                )
            finally:
                browser.close()
    except Error as exc:
        raise PdfUnavailable(f"Chromium could not print the report: {exc}") from None
    return _fixed_dates(pdf)


_PDF_DATE = re.compile(rb"/(CreationDate|ModDate) ?\(D:[0-9]{14}[^)]*\)")


def _fixed_dates(pdf: bytes) -> bytes:
    """Chromium stamps the print time into the PDF's info; the same report must give
    the same file, so each date becomes 1 Jan 2000 (padded to the same length, so the
    cross-reference offsets stay right)."""

    def fixed(m: re.Match[bytes]) -> bytes:
        old = m.group(0)
        new = b"/" + m.group(1) + (b" " if b" (" in old else b"") + b"(D:20000101000000Z)"
        return new + b" " * (len(old) - len(new)) if len(new) <= len(old) else old

    return _PDF_DATE.sub(fixed, pdf)
