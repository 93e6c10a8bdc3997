"""The riichi archive the riichi statistics tests share: the whole shipped corpus
(tests/data/riichi: Tenhou XML, tenhou.net/6 JSON and MJAI logs) ingested and replayed
the ordinary way, once per session."""

from __future__ import annotations

from pathlib import Path

import pytest
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.replay.archive.update import replay_archive

RIICHI_CORPUS = Path(__file__).resolve().parents[1] / "data" / "riichi"
RIICHI_SOURCES = ("mjx", "mjai-reviewer", "riichienv")


@pytest.fixture(scope="session")
def riichi_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("riichi") / "data"
    files = [str(p) for s in RIICHI_SOURCES for p in sorted((RIICHI_CORPUS / s).iterdir())]
    result = ingest(files, root)
    assert not result.quarantined, result.messages
    replay_archive(root)
    return root
