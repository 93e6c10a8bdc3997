"""`mjaudit report` (issue 21): a known hand of every ruleset family gives a self-contained
page with its findings, their rules references, the table at each drawn by the replayer's
own code, and the settlement computed beside the recorded one; a sitting adds its running
score; the command reads the archive or a log and says what is wrong with bad input."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from mjaudit.parts.dashboards.report import (
    ReportedHand,
    finding_events,
    hand_report_html,
    replay_records,
    sitting_report_html,
)
from mjaudit.parts.dashboards.table_view import table_html, table_view
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.sources import read_records
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.registry import rules_ref
from mjaudit.parts.schemas.records import parse_record
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.dashboards.archive import GAME, sitting

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()
SVG_NS = "http://www.w3.org/2000/svg"

# family -> (where the hands come from, hand number, a code the replay finds there)
KNOWN = {
    "hk": ("tests/dashboards/archive.py sitting()", 4, "FALSE_WIN"),
    "vn-160": ("vn160-evening.jsonl", 1, "CLAIM_PRIORITY_VIOLATION"),
    "american": ("american-evening.jsonl", 13, "BAD_JOKER_EXCHANGE"),
    "chan": ("chan-evening.jsonl", 4, "AN_SAI_LUOT"),
}


def log_records(name: str) -> list[dict[str, Any]]:
    return [parse_record(item.raw).record for item in read_records(EXAMPLES / name)]


def hands_of(family: str) -> list[ReportedHand]:
    source = KNOWN[family][0]
    return replay_records(sitting() if family == "hk" else log_records(source))


def known_hand(family: str) -> ReportedHand:
    _, hand_no, _ = KNOWN[family]
    return next(h for h in hands_of(family) if h.record["hand_no"] == hand_no)


def external_references(html: str) -> list[str]:
    """Anything the page would fetch or link: URLs other than the SVG namespace, scripts,
    stylesheets, images, CSS url() and @import."""
    found = [u for u in re.findall(r"https?://[^\s\"'<>)]+", html) if u != SVG_NS]
    found += re.findall(r"<(?:script|link|img|iframe|object|embed)\b[^>]*>", html, re.I)
    found += re.findall(r"url\(|@import|\bsrc=|\bhref=", html, re.I)
    return found


def drawn(record: dict[str, Any], at: int, flagged: set[int]) -> str:
    """The table after event ``at`` as the dashboard's replayer draws it (svg faces)."""
    return table_html(table_view(record, at), flagged, svg=True)


@pytest.mark.parametrize("family", sorted(KNOWN))
def test_a_known_hand_shows_its_findings_drawn_at_their_events(family: str) -> None:
    hand = known_hand(family)
    code = KNOWN[family][2]
    html = hand_report_html(hand, "a test")
    assert code in {f.code for f in hand.report.findings}
    for f in hand.report.findings:
        row = html.split(f'<tr data-code="{f.code}">', 1)[1].split("</tr>", 1)[0]
        assert f.code in row and f.cls.value in row
        assert (rules_ref(hand.record["ruleset"], f.code, f.reason) or "–") in row
    events = finding_events(hand.report)
    assert events and re.findall(r'<div class="event" data-event="(\d+)"', html) == [
        str(e) for e in events
    ]
    for at in events:
        block = html.split(f'<div class="event" data-event="{at}">', 1)[1]
        seats = {f.seat for f in hand.report.findings if f.event_index == at and f.seat is not None}
        picture = drawn(hand.record, at, seats)
        assert picture in block.split('<div class="event"', 1)[0]  # the replayer's own drawing
    face = "data-card=" if family == "chan" else "data-tile="
    assert html.count("<svg") > 13 and face in html


@pytest.mark.parametrize("family", sorted(KNOWN))
def test_the_page_fetches_nothing(family: str) -> None:
    hands = hands_of(family)
    for html in (hand_report_html(known_hand(family), "x"), sitting_report_html(hands, "x")):
        assert html.startswith("<!DOCTYPE html>") and "<style>" in html
        assert external_references(html) == []


def test_the_references_are_the_checklist_rows() -> None:
    html = hand_report_html(known_hand("vn-160"), "x")
    assert "vn-160 §8.2 #22" in html  # CLAIM_PRIORITY_VIOLATION's row
    hk = hand_report_html(known_hand("hk"), "x")  # dan's false win: an incomplete hand
    assert "<code>FALSE_WIN (WIN_HAND_INCOMPLETE)</code>" in hk
    assert "hk-classic §8 #35" in hk and "hk-classic §8 #35, #36" not in hk


def test_the_settlement_computed_beside_recorded() -> None:
    """chắn hand 2 records Long +5 and Ka-yan -1; the rules give +6 and -2."""
    hand = next(h for h in hands_of("chan") if h.record["hand_no"] == 2)
    html = hand_report_html(hand, "x")
    pay = html.split('<table class="mj payments">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr( class=differs)? data-seat=\"(\d)\"><td>([^<]*)</td>"
        r'<td class="num">([^<]*)</td><td class="num">([^<]*)</td>',
        pay,
    )
    assert [(s, name, c, r, bool(d)) for d, s, name, c, r in rows] == [
        ("0", "Long", "+6", "+5", True),
        ("1", "Ka-yan", "-2", "-1", True),
        ("2", "Mai", "-2", "-2", False),
        ("3", "Huy", "-2", "-2", False),
    ]
    assert "The recorded result differs from the rules." in html
    assert "cước: xuong 2; score 2 điểm" in html  # the chan engine's own score line


def test_a_sitting_has_its_running_score() -> None:
    hands = hands_of("chan")
    html = sitting_report_html(hands, "x")
    players = hands[0].record["players"]
    totals = {p: 0.0 for p in players}
    for h in hands:
        for p, d in zip(h.record["players"], h.report.deltas or (), strict=False):
            totals[p] += d
    foot = html.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    computed = re.findall(r"<td class=\"num\"><b>([^<]*)</b></td>", foot)
    assert computed == [f"{int(totals[p]):+}" if totals[p] else "0" for p in players]
    assert len(re.findall(r'<tr data-hand="\d+">', html)) == len(hands)
    assert re.findall(r'<section class="hand"[^>]*data-hand="(\d+)"', html) == [
        str(h.record["hand_no"]) for h in hands
    ]


def test_text_from_the_log_is_escaped() -> None:
    records = sitting()[:1]
    records[0]["players"][1] = "<script>alert(1)</script>"
    records[0]["venue"] = 'Lotus & "Co" <b>'
    html = sitting_report_html(replay_records(records), "<x>")
    assert "<script" not in html and 'Lotus & "Co" <b>' not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Lotus &amp; &quot;Co&quot; &lt;b&gt;" in html


def test_the_same_hand_gives_the_same_page() -> None:
    assert hand_report_html(known_hand("american"), "x") == hand_report_html(
        known_hand("american"), "x"
    )


# -- the command ---------------------------------------------------------------------------


def test_report_from_a_log(tmp_path: Path) -> None:
    out = tmp_path / "hand1.html"
    log = EXAMPLES / "vn160-evening.jsonl"
    result = runner.invoke(app, ["report", "--log", str(log), "--hand", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stdout
    assert out.read_text() == hand_report_html(known_hand("vn-160"), str(log))
    again = runner.invoke(app, ["report", "--log", str(log), "1", "-o", str(out)])  # HAND_NO
    assert again.exit_code == 0 and out.read_text() == hand_report_html(
        known_hand("vn-160"), str(log)
    )
    assert [p.name for p in tmp_path.iterdir()] == ["hand1.html"]  # no temporary file left


def test_report_from_the_archive_is_the_logs_report(tmp_path: Path) -> None:
    log = EXAMPLES / "chan-evening.jsonl"
    data = tmp_path / "data"
    ingest([str(log)], data)
    replay_archive(data)
    game = log_records("chan-evening.jsonl")[0]["game_id"]
    out = tmp_path / "from-archive.html"
    result = runner.invoke(app, ["report", game, "4", "--data", str(data), "-o", str(out)])
    assert result.exit_code == 0, result.output
    expected = hand_report_html(known_hand("chan"), "the archive data/")
    assert out.read_text() == expected
    whole = tmp_path / "sitting.html"
    result = runner.invoke(app, ["report", game, "--data", str(data), "-o", str(whole)])
    assert result.exit_code == 0, result.output
    assert whole.read_text() == sitting_report_html(hands_of("chan"), "the archive data/")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--log", "{missing}"], "no such log file"),
        (["--log", "{vn}", "--hand", "99"], "has no hand 99 (its hands are 1-25)"),
        (["--log", "{two}"], "holds 2 sittings: name one as GAME_ID"),
        (["--log", "{bad}"], "no readable hand record in it"),
        (["nope", "--data", "{data}"], "no sitting 'nope' in"),
        ([GAME, "9", "--data", "{data}"], "has no hand 9 (its hands are 1-6)"),
        ([GAME, "--data", "{empty}"], "No data in"),
        (["--log", "{vn}", "-o", "{tmp}/x.txt"], "expected an .html file name"),
        ([], "give GAME_ID [HAND_NO]"),
    ],
)
def test_bad_input_names_what_is_wrong(
    args: list[str], message: str, tmp_path: Path, hk_data: Path
) -> None:
    two = tmp_path / "two.jsonl"
    enc = msgspec.json.Encoder()
    two.write_bytes(
        b"\n".join(enc.encode(r) for r in [*sitting()[:1], *log_records("vn160-evening.jsonl")[:1]])
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    (tmp_path / "empty").mkdir()
    where = {
        "missing": tmp_path / "missing.jsonl",
        "vn": EXAMPLES / "vn160-evening.jsonl",
        "two": two,
        "bad": bad,
        "data": hk_data,
        "empty": tmp_path / "empty",
        "tmp": tmp_path,
    }
    argv = [a.format(**where) for a in args]
    if "-o" not in argv:
        argv += ["-o", str(tmp_path / "out.html")]
    result = runner.invoke(app, ["report", *argv])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out.html").exists()


@pytest.fixture(scope="module")
def hk_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-built hk-classic sitting of the dashboard tests, ingested and replayed."""
    root = tmp_path_factory.mktemp("hk")
    log = root / "club.jsonl"
    enc = msgspec.json.Encoder()
    log.write_bytes(b"\n".join(enc.encode(r) for r in sitting()) + b"\n")
    ingest([str(log)], root / "data")
    replay_archive(root / "data")
    return root / "data"
