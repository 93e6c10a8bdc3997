"""Archives shared by the dashboard tests (built once per test session)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboards import chan_archive
from tests.dashboards.archive import build


@pytest.fixture(scope="session")
def demo_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ingested and replayed: 48 synthetic draws and the hand-built Lotus Club sitting."""
    return build(tmp_path_factory.mktemp("demo") / "data")


@pytest.fixture(scope="session")
def unreplayed_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same logs, ingested but not replayed."""
    return build(tmp_path_factory.mktemp("unreplayed") / "data", replay=False)


@pytest.fixture(scope="session")
def chan_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both families: a chắn sitting, an hk-classic sitting of the same players, and one
    vn-160 and one american hand (tests/dashboards/chan_archive.py)."""
    return chan_archive.build(tmp_path_factory.mktemp("chan") / "data")


@pytest.fixture
def empty_data(tmp_path: Path) -> Path:
    """A folder with no tables in it."""
    folder = tmp_path / "nothing-here"
    folder.mkdir()
    return folder


@pytest.fixture
def use_data(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """``use_data(folder)`` points the app at ``folder`` (as ``mjaudit dashboard`` does)."""

    def use(folder: Path) -> None:
        monkeypatch.setenv("MJAUDIT_DATA", str(folder))

    yield use
