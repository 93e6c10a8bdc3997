"""The dashboard in a real browser: the server started as `mjaudit dashboard` starts it,
on a free port of 127.0.0.1, every page opened in headless Chromium (Debian's, driven by
Playwright; the Makefile installs it, nothing is downloaded here), a screenshot of each
page saved under tests/artifacts/."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from mjaudit.parts.dashboards.app import start

from tests.dashboards.archive import GAME, SYNTHETIC_HANDS
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
            yield browser.new_page(viewport={"width": 1400, "height": 2200})
        finally:
            browser.close()


def _open(page, url: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """Load ``url`` and wait until Streamlit has drawn the page (``text`` is on it)."""
    page.goto(url)
    _settle(page, text)


def _settle(page, text: str) -> None:  # type: ignore[no-untyped-def]
    page.get_by_text(text, exact=False).first.wait_for(timeout=HANG_GUARD_S * 1000)
    page.wait_for_selector(IDLE, timeout=HANG_GUARD_S * 1000)
    page.wait_for_timeout(300)  # charts and images finish painting
    assert page.locator('[data-testid="stException"]').count() == 0


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
    _open(page, server + f"replayer?game={GAME}&hand=1&event=24", "cat discards")
    table = page.locator(".mj-table")
    assert table.get_attribute("data-at") == "24"
    tiles = table.locator("img[data-tile]")
    assert tiles.count() > 60
    assert tiles.first.evaluate("img => img.complete && img.naturalWidth > 0")  # drawn
    assert table.locator('[data-seat="1"] img[data-tile="9s"]').count() == 4  # the kong
    _shot(page, "replayer")

    page.get_by_role("button", name="Next").first.click()
    _settle(page, "event 25")
    assert page.locator(".mj-table").get_attribute("data-at") == "25"
    assert "event=25" in page.url
    page.get_by_role("button", name="Back").click()
    _settle(page, "event 24")
    page.get_by_role("button", name="Back").click()
    _settle(page, "event 23")
    assert page.locator(".mj-table").get_attribute("data-at") == "23"
    page.get_by_role("button", name="End").click()
    _settle(page, "declares a win")
    assert page.get_by_text("The recorded result matches the rules.").count() == 1
    _shot(page, "replayer-end")

    _open(page, server + f"replayer?game={GAME}&hand=4&event=2", "FALSE_WIN")
    _shot(page, "replayer-finding")


def test_chan_pages_in_a_browser(  # type: ignore[no-untyped-def]
    page, chan_data: Path, tmp_path: Path
) -> None:
    """The chắn view and a chắn hand in the replayer, drawn by a real browser."""
    with serving(chan_data, tmp_path / "streamlit.log") as url:
        _open(page, url + "fans?game=chan", "Cước frequencies")
        assert _metric(page, "Wins (ù)") == "3"
        assert "game=chan" in page.url
        _shot(page, "chan-cuoc")
        _open(page, url + f"replayer?game={CHAN_GAME}&hand=2&event=4", "thiên khai")
        table = page.locator(".mj-table")
        red = table.locator('[data-seat="2"] img[data-tile="CC"][data-colour="red"]')
        assert red.count() == 4
        assert red.first.evaluate("img => img.complete && img.naturalWidth > 0")  # drawn
        box = red.first.bounding_box()
        assert box is not None and box["height"] > 2.5 * box["width"]  # a tall narrow card
        _shot(page, "chan-replayer")
