"""The dashboard in a real browser: the server started as `mjaudit dashboard` starts it,
on a free port of 127.0.0.1, every page opened in headless Chromium (Debian's, driven by
Playwright; the Makefile installs it, nothing is downloaded here), a screenshot of each
page saved under tests/artifacts/."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import msgspec
import pytest
from mjaudit.parts.dashboards.app import start
from mjaudit.parts.dashboards.faces import face_name
from mjaudit.parts.dashboards.table_view import table_view
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.sources import read_records
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record

from tests.dashboards.archive import GAME, SYNTHETIC_HANDS, sitting
from tests.dashboards.chan_archive import CHAN_GAME

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# Waits are on the condition checked; the bound only stops a hung browser or server, so it
# is far above what a loaded CI machine needs.
HANG_GUARD_S = 300

sync_api = pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(data: Path, log: Path) -> Iterator[str]:
    """The dashboard over ``data`` on a free port, as `mjaudit dashboard` starts it."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: run `make env` as root (it installs Debian's chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    port = _free_port()
    with open(log, "wb") as out:
        proc = start(data, port, "127.0.0.1", stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + HANG_GUARD_S  # a hang, not a slow start
        while True:
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=1) as r:
                    if r.read() == b"ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the dashboard did not start:\n{log.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def server(demo_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(demo_data, tmp_path_factory.mktemp("server") / "streamlit.log") as url:
        yield url


@pytest.fixture(scope="module")
def page(server: str) -> Iterator[object]:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 2200})
            # every wait (goto, clicks, locators) is bounded by the hang guard, not
            # Playwright's 30 s default, which a loaded CI machine can exceed
            page.set_default_timeout(HANG_GUARD_S * 1000)
            yield page
        finally:
            browser.close()


def _open(page, url: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Load ``url`` and wait until Streamlit has drawn the page (``text`` is on it)."""
    page.goto(url)
    _settle(page, text)


def _settle(page, text: str) -> None:  # type: ignore[no-untyped-def]
    # the first visible match: the same text may also stand in a hidden element (the code
    # of a finding in a collapsed block), which a loaded run found first and waited on
    page.get_by_text(text, exact=False).filter(visible=True).first.wait_for(
        timeout=HANG_GUARD_S * 1000
    )
    page.wait_for_selector(IDLE, timeout=HANG_GUARD_S * 1000)
    page.wait_for_timeout(300)  # charts and images finish painting
    assert page.locator('[data-testid="stException"]').count() == 0


def _settle_at(page, event: int) -> None:  # type: ignore[no-untyped-def]
    """Wait until the replayer's table is drawn after ``event`` and the script is idle."""
    page.wait_for_selector(f'.mj-table[data-at="{event}"]', timeout=HANG_GUARD_S * 1000)
    _settle(page, f"event {event}")
    assert page.locator(".mj-table").get_attribute("data-at") == str(event)


def _metric(page, label: str) -> str:  # type: ignore[no-untyped-def]
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{name}.png"), full_page=True)


def test_every_page_in_a_browser(page, server: str) -> None:  # type: ignore[no-untyped-def]
    _open(page, server, "Club overview")
    assert _metric(page, "Hands") == str(SYNTHETIC_HANDS + 6)
    assert _metric(page, "Violations") == "3"
    page.get_by_text("Leaderboard").wait_for()
    _shot(page, "overview")

    _open(page, server + "players", "Click a column header to sort")
    assert page.locator('[data-testid="stDataFrame"]').count() == 1
    _shot(page, "players")

    _open(page, server + "player?name=cat", "Head to head")
    assert (_metric(page, "Hands"), _metric(page, "Wins")) == ("6", "2")
    _shot(page, "player")

    _open(page, server + "fans", "Limit hands seen")
    assert page.get_by_text("4 wins").count() == 1
    _shot(page, "fans")

    _open(page, server + "violations?ruleset=hk-classic", "Findings")
    assert _metric(page, "Findings") == "4"
    assert "ruleset=hk-classic" in page.url  # the filter stays in the shareable URL
    _shot(page, "violations")


def test_replayer_in_a_browser(page, server: str) -> None:  # type: ignore[no-untyped-def]
    _open(page, server + f"replayer?sitting={GAME}&hand=1&event=24", "cat discards")
    table = page.locator(".mj-table")
    assert table.get_attribute("data-at") == "24"
    tiles = table.locator("img[data-tile]")
    assert tiles.count() > 60
    assert tiles.first.evaluate("img => img.complete && img.naturalWidth > 0")  # drawn
    assert table.locator('[data-seat="1"] img[data-tile="9s"]').count() == 4  # the kong
    _shot(page, "replayer")

    # After a click, wait for the table drawn at the new event, not for text that the
    # page at the old event may hold too (a loaded machine reruns the script late).
    page.get_by_role("button", name="Next").first.click()
    _settle_at(page, 25)
    assert "event=25" in page.url
    page.get_by_role("button", name="Back").click()
    _settle_at(page, 24)
    page.get_by_role("button", name="Back").click()
    _settle_at(page, 23)
    assert page.locator(".mj-table").get_attribute("data-at") == "23"
    page.get_by_role("button", name="End").click()
    _settle(page, "declares a win")
    assert page.get_by_text("The recorded result matches the rules.").count() == 1
    _shot(page, "replayer-end")

    _open(page, server + f"replayer?sitting={GAME}&hand=4&event=2", "FALSE_WIN")
    _shot(page, "replayer-finding")

    # The report is built when the button is clicked (by the server, for this click).
    with page.expect_download(timeout=HANG_GUARD_S * 1000) as download:
        page.get_by_role("button", name="Download report").click()
    assert download.value.suggested_filename == f"{GAME}-hand-4.html"
    html = Path(download.value.path()).read_text(encoding="utf-8")
    assert 'data-code="FALSE_WIN"' in html  # dan's false win, the finding of hand 4


def test_chan_pages_in_a_browser(  # type: ignore[no-untyped-def]
    page, chan_data: Path, tmp_path: Path
) -> None:
    """The chắn view and a chắn hand in the replayer, drawn by a real browser."""
    with serving(chan_data, tmp_path / "streamlit.log") as url:
        _open(page, url + "fans?game=chan", "Cước frequencies")
        assert _metric(page, "Wins (ù)") == "3"
        assert "game=chan" in page.url
        _shot(page, "chan-cuoc")
        _open(page, url + f"replayer?sitting={CHAN_GAME}&hand=2&event=4", "thiên khai")
        # "thiên khai" also names a cước on the fans page just left: wait for the table
        _settle_at(page, 4)
        table = page.locator(".mj-table")
        red = table.locator('[data-seat="2"] img[data-tile="CC"][data-colour="red"]')
        assert red.count() == 4
        assert red.first.evaluate("img => img.complete && img.naturalWidth > 0")  # drawn
        box = red.first.bounding_box()
        assert box is not None and box["height"] > 2.5 * box["width"]  # a tall narrow card
        _shot(page, "chan-replayer")


# -- every ruleset drawn from the engine's own view model ----------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# ruleset -> (the log, the hand, a finding the engine raises there): the report's known hands
KNOWN_HANDS = {
    "hk-classic": (None, 4, "FALSE_WIN"),
    "vn-160": ("vn160-evening.jsonl", 1, "CLAIM_PRIORITY_VIOLATION"),
    "american": ("american-evening.jsonl", 13, "BAD_JOKER_EXCHANGE"),
    "chan": ("chan-evening.jsonl", 4, "AN_SAI_LUOT"),
}


def _known_record(ruleset: str) -> dict[str, Any]:
    source, hand_no, _ = KNOWN_HANDS[ruleset]
    records = (
        sitting()
        if source is None
        else [parse_record(item.raw).record for item in read_records(EXAMPLES / source)]
    )
    return next(r for r in records if r["hand_no"] == hand_no)


@pytest.fixture(scope="module")
def every_ruleset(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The four known hands' sittings, ingested and replayed by the real engines, served."""
    root = tmp_path_factory.mktemp("rulesets")
    hk = root / "hk.jsonl"
    hk.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in sitting()))
    logs = [str(hk)] + [str(EXAMPLES / s) for s, _, _ in KNOWN_HANDS.values() if s]
    ingest(logs, root / "data")
    replay_archive(root / "data")
    with serving(root / "data", root / "streamlit.log") as url:
        yield url


def _codes(faces) -> list[str]:  # type: ignore[no-untyped-def]
    return [faces.nth(i).get_attribute("data-tile") for i in range(faces.count())]


@pytest.mark.parametrize("ruleset", list(KNOWN_HANDS))
def test_every_ruleset_is_drawn_from_the_engines_view(  # type: ignore[no-untyped-def]
    page, every_ruleset: str, ruleset: str
) -> None:
    """A known hand at the event of a known finding: every seat's hand, groups and
    discards on the page are the faces of the engine's TableView, and the findings at
    that event are the view's."""
    record = _known_record(ruleset)
    code = KNOWN_HANDS[ruleset][2]
    at = next(f.event_index for f in replay_hand(record).findings if f.code == code)
    assert at is not None
    view = table_view(record, at)
    game = quote(record["game_id"])
    _open(
        page, every_ruleset + f"replayer?sitting={game}&hand={record['hand_no']}&event={at}", code
    )
    table = page.locator(".mj-table")
    assert (table.get_attribute("data-at"), table.get_attribute("data-ruleset")) == (
        str(at),
        ruleset,
    )
    assert table.locator("[data-wall]").get_attribute("data-wall") == str(view.stock)
    for s in view.seats:
        seat = table.locator(f'[data-seat="{s.seat}"]')
        faces = seat.locator('[data-part="concealed"] img[data-tile]')
        hand = _codes(faces)
        assert hand == [*(s.concealed or ()), *([s.drawn] if s.drawn else [])], s.player
        titles = [faces.nth(i).get_attribute("title") or "" for i in range(faces.count())]
        assert len(titles) == len(hand)  # each face is titled with its name (and colour)
        assert all(t.startswith(face_name(ruleset, c)) for t, c in zip(titles, hand, strict=True))
        groups = seat.locator('[data-part="melds"] [data-meld]')
        drawn = [
            (groups.nth(i).get_attribute("data-meld"), _codes(groups.nth(i).locator("img")))
            for i in range(groups.count())
        ]
        assert drawn == [(m.kind, list(m.tiles)) for m in s.melds], s.player
        discards = _codes(seat.locator('[data-part="discards"] img[data-tile]'))
        assert discards == [c for c, _ in s.discards], s.player
        first = seat.locator("img[data-tile]").first
        if first.count():
            assert first.evaluate("img => img.complete && img.naturalWidth > 0")  # painted
    now = [f for f in view.findings if f.event_index == at]
    assert code in {f.code for f in now}
    for f in now:
        box = page.get_by_text(re.compile(rf"event {at} · {re.escape(f.code)} \({f.cls.value}\)"))
        assert box.count() == 1 and f.message[:40] in box.inner_text()
        if f.seat is not None:  # the seat the finding is about is outlined in red
            style = table.locator(f'[data-seat="{f.seat}"]').get_attribute("style") or ""
            assert "#c92a2a" in style
    _shot(page, f"replayer-{ruleset}")
