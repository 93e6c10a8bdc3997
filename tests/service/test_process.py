"""``mjaudit serve`` as a real process: half a hand, ``kill -9``, restart, the rest.

The hand resumes from the journal where the answered posts left it, a retry of a post
answered before the kill gets the same answer, and the archive holds the hand once.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import simulate

from tests.service.conftest import WRITE, auth, write_tokens
from tests.service.play import engine_fields, header_of

ROOT = Path(__file__).resolve().parents[2]
HANG_GUARD = 120.0  # seconds a server may take to come up on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data: Path, tokens: Path, sync: str = "disk") -> None:
        self.data, self.tokens, self.port = data, tokens, free_port()
        self.sync = sync
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [sys.executable, "-m", "mjaudit", "serve", "--data", str(self.data)]
        cmd += ["--port", str(self.port), "--tokens", str(self.tokens), "--sync", self.sync]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.PIPE)
        deadline = time.monotonic() + HANG_GUARD
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.proc.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                if httpx2.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not come up (hang guard)")
            time.sleep(0.2)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stderr.close()  # type: ignore[union-attr]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill9()


@pytest.fixture(params=["disk", "os"])
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server of each journal sync: either way an answered post survives kill -9."""
    s = Server(tmp_path / "data", write_tokens(tmp_path), request.param)
    yield s
    s.stop()


def post(server: Server, path: str, body: Any) -> httpx2.Response:
    return httpx2.post(server.url + path, json=body, headers=auth(WRITE["t1"]), timeout=HANG_GUARD)


def test_kill_9_in_the_middle_of_a_hand_and_resume(server: Server) -> None:
    records = [r for r, _ in simulate("hk-classic", 1, seed=5, violations=0.6)][:2]
    first, second = records
    expected = list(replay_games(records))
    server.start()
    # hand 1 is played and ended before the kill: hand 2's rotation check needs it
    hand1 = post(server, "/hands", header_of(first)).json()["hand"]
    post(server, f"/hands/{hand1}/events", {"seq": 0, "events": first["events"][:40]})
    for seq in range(40, len(first["events"]), 40):
        post(
            server,
            f"/hands/{hand1}/events",
            {"seq": seq, "events": first["events"][seq : seq + 40]},
        )
    assert (
        post(server, f"/hands/{hand1}/end", {"result": first.get("result")}).json()["archive"][
            "status"
        ]
        == "stored"
    )
    hand = post(server, "/hands", header_of(second)).json()["hand"]
    half = len(second["events"]) // 2
    raised: list[dict[str, Any]] = []
    answers = []
    for seq in range(half):
        r = post(server, f"/hands/{hand}/events", {"seq": seq, "event": second["events"][seq]})
        assert r.status_code == 200, r.text
        answers.append(r.json())
        raised.extend(r.json()["findings"])
    server.kill9()

    server.start()
    view = httpx2.get(f"{server.url}/hands/{hand}", headers=auth(WRITE["t1"])).json()
    assert view["next_seq"] == half and view["status"] == "open"
    retry = post(
        server, f"/hands/{hand}/events", {"seq": half - 1, "event": second["events"][half - 1]}
    )
    assert retry.json() == {**answers[-1], "replayed": True}
    for seq in range(half, len(second["events"])):
        r = post(server, f"/hands/{hand}/events", {"seq": seq, "event": second["events"][seq]})
        assert r.status_code == 200, r.text
        raised.extend(r.json()["findings"])
    end = post(server, f"/hands/{hand}/end", {"result": second.get("result")}).json()
    assert end["archive"]["status"] == "stored"
    assert engine_fields(raised + end["end_findings"]) == expected[1].to_json()["findings"]
    server.kill9()

    server.start()  # the journal's note of the commit: nothing to commit again
    assert httpx2.get(f"{server.url}/health").json()["open_hands"] == 0
    server.stop()
    keys = DataDir(server.data).scan("hands").select("game_id", "hand_no").collect().rows()
    assert sorted(keys) == sorted((r["game_id"], r["hand_no"]) for r in records)


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    return {
        int(c)
        for task in Path(f"/proc/{pid}/task").iterdir()
        for c in (task / "children").read_text().split()
    }


def test_a_server_killed_with_kill_9_leaves_no_process_behind(tmp_path: Path) -> None:
    """Its commit worker (and the pool's helper) go with it, as a killed server's threads
    would: none is left holding memory, or the data folder, for good."""
    server = Server(tmp_path / "data", write_tokens(tmp_path))
    server.start()
    try:
        assert server.proc is not None
        kids = children(server.proc.pid)
        assert kids, "the server starts its commit worker at start-up"
        server.kill9()
        deadline = time.monotonic() + HANG_GUARD
        while any(Path(f"/proc/{k}").exists() for k in kids):  # hang guard only
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"left behind: {sorted(k for k in kids if Path(f'/proc/{k}').exists())}"
                )
            time.sleep(0.1)
    finally:
        server.stop()
