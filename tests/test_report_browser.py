"""The report in a real browser (Debian's Chromium, driven by Playwright as the dashboard's
browser test drives it; nothing is downloaded): a known hand of each ruleset family shows
its findings and its tiles or cards with nothing fetched, a screenshot of each is saved
under tests/artifacts/, and `--pdf` prints one page for the hand and one per event with a
finding."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from mjaudit.parts.dashboards.report import (
    CHROMIUM,
    finding_events,
    hand_report_html,
    replay_records,
)
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.test_report import EXAMPLES, KNOWN, hands_of, known_hand, log_records

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
sync_api = pytest.importorskip("playwright.sync_api")
pypdf = pytest.importorskip("pypdf")


@pytest.fixture
def chromium() -> Path:
    """Debian's Chromium (skipped without it, failed in CI)."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: run `make env` as root (it installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture
def browser(chromium: Path) -> Iterator[object]:
    """Per test: `--pdf` starts Playwright itself, which cannot run inside an open one."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=str(chromium), args=["--no-sandbox", "--disable-gpu"], headless=True
        )
        try:
            yield b
        finally:
            b.close()


@pytest.mark.parametrize("family", sorted(KNOWN))
def test_the_report_shows_the_findings_and_tiles_in_chromium(
    family: str, browser, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    hand = known_hand(family)
    path = tmp_path / f"{family}.html"
    path.write_text(hand_report_html(hand, "a test"), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.set_default_timeout(300_000)  # a hang guard: a loaded CI machine is slow
    asked: list[str] = []
    page.route("**/*", lambda route: (asked.append(route.request.url), route.continue_()))
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        assert asked == [path.as_uri()]  # the page itself, nothing else
        for f in hand.report.findings:
            row = page.locator(f'tr[data-code="{f.code}"]').first
            assert row.is_visible() and f.code in row.inner_text()
        for at in finding_events(hand.report):
            block = page.locator(f'div.event[data-event="{at}"]')
            block.scroll_into_view_if_needed()
            assert block.locator(".mj-table").is_visible()
            faces = block.locator("svg")
            drawn = [faces.nth(i).bounding_box() for i in range(faces.count())]
            assert len(drawn) > 13 and all(b and b["width"] > 10 for b in drawn)
            face = "data-card" if family == "chan" else "data-tile"
            assert block.locator(f"svg[{face}]").count() == len(drawn)
            shown = " ".join(block.locator(".finding").all_inner_texts())
            assert all(f.code in shown for f in hand.report.findings if f.event_index == at)
        page.screenshot(path=str(ARTIFACTS / f"report-{family}.png"), full_page=True)
    finally:
        page.close()


def _pages(pdf: Path) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf.read_bytes())).pages]


@pytest.mark.parametrize("family", ["american", "chan"])
def test_pdf_has_a_page_for_the_hand_and_one_per_event_with_a_finding(
    family: str, chromium: Path, tmp_path: Path
) -> None:
    """american hand 8 has findings at three events: four pages; chắn hand 4 at one."""
    hand_no = {"american": 8, "chan": 4}[family]
    log = EXAMPLES / f"{family}-evening.jsonl"
    out = tmp_path / "hand.html"
    argv = ["report", "--log", str(log), "--hand", str(hand_no), "-o", str(out), "--pdf"]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    pdf = out.with_suffix(".pdf")
    assert pdf.read_bytes().startswith(b"%PDF-")
    hand = next(h for h in hands_of(family) if h.record["hand_no"] == hand_no)
    events = finding_events(hand.report)
    assert len(events) == {"american": 3, "chan": 1}[family]
    pages = _pages(pdf)
    assert len(pages) == 1 + len(events)
    flat = [" ".join(t.split()) for t in pages]
    assert all(f.code in flat[0] for f in hand.report.findings)
    for page, at in zip(flat[1:], events, strict=True):
        assert page.startswith(f"event {at}:")
    first = pdf.read_bytes()
    again = CliRunner().invoke(app, argv)
    assert again.exit_code == 0 and pdf.read_bytes() == first  # no print time in it


def test_pdf_of_a_sitting_starts_each_hand_on_a_page(chromium: Path, tmp_path: Path) -> None:
    """Hands 1-2 of the chắn evening: the header and running score, hand 1 (no finding),
    hand 2 and its one event with a finding."""
    log = tmp_path / "two-hands.jsonl"
    records = log_records("chan-evening.jsonl")[:2]
    enc = msgspec.json.Encoder()
    log.write_bytes(b"\n".join(enc.encode(r) for r in records) + b"\n")
    out = tmp_path / "sitting.html"
    result = CliRunner().invoke(app, ["report", "--log", str(log), "-o", str(out), "--pdf"])
    assert result.exit_code == 0, result.output
    hands = replay_records(records)
    assert [len(finding_events(h.report)) for h in hands] == [0, 1]
    pages = [" ".join(t.split()) for t in _pages(out.with_suffix(".pdf"))]
    assert len(pages) == 1 + 1 + 2
    assert "Running score" in pages[0]
    assert re.match(r"Hand 1\b", pages[1]) and re.match(r"Hand 2\b", pages[2])
    assert pages[3].startswith("event ")
