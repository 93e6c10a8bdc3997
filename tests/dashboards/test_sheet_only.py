"""The dashboard on a data folder that holds only club score sheets (results-only hands)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.replay.archive.update import replay_archive

from tests.dashboards.test_app import PAGES, app, metric, no_exception

EXAMPLE_SHEET = Path(__file__).resolve().parents[2] / "examples" / "club-sheet.txt"


@pytest.fixture(scope="module")
def sheet_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("sheets") / "data"
    ingest([str(EXAMPLE_SHEET)], data)
    replay_archive(data)
    return data


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_sheet_only_data(
    page: str, sheet_data: Path, use_data: Callable[[Path], None]
) -> None:
    use_data(sheet_data)
    at = app(page)
    no_exception(at)
    assert not any("mjaudit ingest" in i.value for i in at.info)  # not the empty state


def test_overview_counts_the_sheet_games(
    sheet_data: Path, use_data: Callable[[Path], None]
) -> None:
    use_data(sheet_data)
    at = app()
    # examples/club-sheet.txt: 5 games of one evening, 4 players, one false win ('f')
    assert (metric(at, "Sittings"), metric(at, "Hands"), metric(at, "Players")) == ("1", "5", "4")
    assert metric(at, "Violations") == "1"
