"""An in-process server per test: a data folder, a tokens file, Starlette's TestClient."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mjaudit.parts.service.app import create_app
from mjaudit.parts.service.config import ServeConfig
from starlette.testclient import TestClient

WRITE = {"t1": "write-token-table-1", "t2": "write-token-table-2"}
READ = {"t1": "read-token-table-1"}
REFEREE = "referee-token-all-tables"
ADMIN = "admin-token-of-this-test"

TOKENS = f"""
admin = "{ADMIN}"
referees = ["{REFEREE}"]
[tables.t1]
write = "{WRITE["t1"]}"
read = ["{READ["t1"]}"]
[tables.t2]
write = "{WRITE["t2"]}"
"""


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def write_tokens(folder: Path) -> Path:
    path = folder / "tokens.toml"
    path.write_text(TOKENS)
    return path


@pytest.fixture
def config(tmp_path: Path) -> ServeConfig:
    # commits in a thread: a spawned process per test costs seconds (the real-process test
    # and bench/serve.py commit in the server's own process)
    return ServeConfig(
        data=tmp_path / "data", tokens_file=write_tokens(tmp_path), commit_process=False
    )


@pytest.fixture
def client(config: ServeConfig) -> Iterator[TestClient]:
    with TestClient(create_app(config)) as c:
        yield c
