"""The "Download report" button of the replayer and violations pages gives the file
`mjaudit report GAME_ID HAND_NO` writes for the hand shown (issue 21)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from typer.testing import CliRunner

from mjaudit.cli import app as cli
from tests.dashboards.archive import GAME
from tests.dashboards.test_app import app, no_exception

UseData = Callable[[Path], None]


@pytest.fixture
def media(monkeypatch: pytest.MonkeyPatch) -> dict[str, tuple[Callable[[], object], str | None]]:
    """What each download button would hand the browser when clicked, by its deferred file
    id: the report is built on the click (the callable Streamlit then runs), not on every
    run of the page."""
    builds: dict[str, tuple[Callable[[], object], str | None]] = {}
    keep = MediaFileManager.add_deferred

    def add_deferred(self, data_callable, *args, **kwargs):  # type: ignore[no-untyped-def]
        file_id = keep(self, data_callable, *args, **kwargs)
        builds[file_id] = (data_callable, kwargs.get("file_name"))
        return file_id

    monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)
    return builds


def _downloaded(
    at, key: str, media: dict[str, tuple[Callable[[], object], str | None]]
) -> tuple[bytes, str]:  # type: ignore[no-untyped-def]
    (button,) = [b for b in at.get("download_button") if b.proto.id.endswith(key)]
    assert button.proto.label == "Download report"
    assert not button.proto.url  # nothing built before the click
    build, name = media[button.proto.deferred_file_id]
    data = build()
    assert isinstance(data, str)
    return data.encode(), name or ""


def _cli_report(data: Path, game: str, hand: int, out: Path) -> bytes:
    result = CliRunner().invoke(
        cli, ["report", game, str(hand), "--data", str(data), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def test_the_replayer_offers_the_hands_report(
    demo_data: Path,
    use_data: UseData,
    media: dict[str, tuple[Callable[[], object], str | None]],
    tmp_path: Path,
) -> None:
    use_data(demo_data)
    at = app("replayer", sitting=GAME, hand="4", event="2")
    no_exception(at)
    data, name = _downloaded(at, "r_report", media)
    assert name == f"{GAME}-hand-4.html"
    assert data == _cli_report(demo_data, GAME, 4, tmp_path / "hand4.html")
    assert b'data-code="FALSE_WIN"' in data  # dan's false win, the finding of hand 4


def test_the_violations_page_offers_the_report_of_a_hand_with_findings(
    demo_data: Path,
    use_data: UseData,
    media: dict[str, tuple[Callable[[], object], str | None]],
    tmp_path: Path,
) -> None:
    use_data(demo_data)
    at = app("violations")
    no_exception(at)
    picker = at.selectbox(key="v_report_hand")
    assert picker.value is not None  # the first hand of the findings listed
    picker.set_value((GAME, 6)).run()
    no_exception(at)
    data, name = _downloaded(at, "v_report", media)
    assert name == f"{GAME}-hand-6.html"
    assert data == _cli_report(demo_data, GAME, 6, tmp_path / "hand6.html")
    assert b'data-code="RECORDED_RESULT_MISMATCH"' in data  # the payments recorded wrong
