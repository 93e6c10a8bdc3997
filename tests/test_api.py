"""The Python API (``mjaudit.read_log``, ``replay_hand``, ``open``, ``ingest``, ``replay``):
its docstring examples run as tests, from the repository root where ``examples/`` is."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import mjaudit
import mjaudit.api

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = doctest.testmod(mjaudit.api, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted >= 20  # the examples are there to run
    assert result.failed == 0


def test_the_facade_is_the_package_namespace() -> None:
    for name in ("read_log", "replay_hand", "open", "ingest", "replay"):
        assert getattr(mjaudit, name) is getattr(mjaudit.api, name)


def test_read_log_names_the_file_line_and_code(tmp_path: Path) -> None:
    log = tmp_path / "two.jsonl"
    good = (ROOT / "examples" / "club-night.jsonl").read_text(encoding="utf-8").splitlines()[0]
    log.write_text(good + "\n" + "{not json\n", encoding="utf-8")
    with pytest.raises(mjaudit.BadRecord) as caught:
        mjaudit.read_log(log)
    assert str(caught.value).startswith(f"{log}:2: ")
    assert caught.value.code == "BAD_JSON"
