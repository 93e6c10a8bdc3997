"""``mjaudit serve`` under load: many simulated tables at once, through the HTTP API.

Starts a real server (``python -m mjaudit serve``) on a free port of 127.0.0.1 with a
fresh data folder, then plays ``--tables`` tables at once from this process (one
keep-alive connection each, a minimal HTTP/1.1 client on uvloop): each table plays
``--hands`` hands of a simulated sitting (its own game id), one event per post, waiting
``--think`` ms between its events as players do; the tables' starts are spread over one
think time, as tables do not play in step. Prints events/s, the latency of an event post
(p50, p99, max) as the client saw it and as the server timed it (Server-Timing), the
client's own loop lag, the CPU of server, commit worker and client, the server's peak
memory, and then checks the outcome: the
archive holds every finished hand exactly once, and every hand's findings (raised at the
events and at the end) are those of ``mjaudit check`` on the same records.

    python bench/serve.py --tables 200 --hands 2 --think 500 [--sync disk] [--pin]
    python bench/serve.py --smoke
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import simulate

from bench.common import add_smoke, print_peak_memory

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("event_index", "seat", "code", "reason", "class", "message")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tables_hands(ruleset: str, tables: int, hands: int) -> list[list[dict[str, Any]]]:
    """Per table, the first ``hands`` hands of a sitting, under the table's own game id
    (a few sittings are simulated and dealt out round the tables)."""
    sittings: dict[str, list[dict[str, Any]]] = {}
    for record, _ in simulate(ruleset, games=min(tables, 4), seed=7, violations=0.4):
        sittings.setdefault(record["game_id"], []).append(record)
    plays = [s[:hands] for s in sittings.values()]
    return [
        [{**r, "game_id": f"{r['game_id']}-table-{k}"} for r in plays[k % len(plays)]]
        for k in range(tables)
    ]


def start_server(
    data: Path, tokens: Path, port: int, sync: str, cpus: set[int] | None = None
) -> subprocess.Popen[bytes]:
    """The server (``cpus``: the cores it and its commit worker may run on)."""
    cmd = [sys.executable, "-m", "mjaudit", "serve", "--data", str(data), "--port", str(port)]
    cmd += ["--sync", sync]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    proc = subprocess.Popen([*cmd, "--tokens", str(tokens)], cwd=ROOT, env=env, preexec_fn=pin)
    for _ in range(600):  # a hang guard, not a measurement
        if proc.poll() is not None:
            raise SystemExit("the server exited at start-up")
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx2.TransportError:
            time.sleep(0.2)
    raise SystemExit("the server did not come up")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Http(asyncio.Protocol):
    """One table's keep-alive HTTP/1.1 connection, one request at a time: just what the
    bench needs of HTTP (the server answers with a Content-Length), so the client's CPU,
    which on this machine is taken from the server, stays a small share of a post's."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiter: asyncio.Future[tuple[int, dict[bytes, bytes], bytes, float]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  (uvloop's is not a subclass)

    def data_received(self, data: bytes) -> None:
        self.buf += data
        head_end = self.buf.find(b"\r\n\r\n")
        if head_end < 0 or self.waiter is None:
            return
        lines = bytes(self.buf[:head_end]).split(b"\r\n")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        size = int(headers.get(b"content-length", b"0"))
        if len(self.buf) < head_end + 4 + size:
            return
        body = bytes(self.buf[head_end + 4 : head_end + 4 + size])
        del self.buf[: head_end + 4 + size]
        waiter, self.waiter = self.waiter, None
        if not waiter.done():  # stamped here: the answer's arrival, not the coroutine's turn
            waiter.set_result((int(lines[0].split()[1]), headers, body, time.perf_counter()))

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionError(exc or "connection closed"))


class Client:
    """One table's HTTP client (its own keep-alive connection), bodies in msgspec.

    A table's latency is from the request handed to the socket to the whole answer read
    off it (stamped in ``data_received``); the client's own loop lag is measured apart
    (:func:`lag_probe`), so what is the client's and what the server's can be told."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.auth = f"Authorization: Bearer {token}\r\n".encode()
        self.conn: _Http | None = None

    async def _connect(self) -> _Http:
        if self.conn is None or self.conn.transport is None:
            loop = asyncio.get_running_loop()
            transport, self.conn = await loop.create_connection(_Http, "127.0.0.1", self.port)
            self.conn.transport = transport  # uvloop may call connection_made only later
        return self.conn

    async def send(self, path: str, body: dict[str, Any]) -> tuple[Any, float, float | None]:
        """POST; the answer, the latency (s) and the server's own time on it (its
        Server-Timing header, s). Retried on a broken connection as a table's client
        would: every call of the API may be repeated (the same seq, the same header,
        end) and is answered once."""
        data = msgspec.json.encode(body)
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
            + self.auth
            + f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        for attempt in range(5):
            conn = await self._connect()
            assert conn.transport is not None
            conn.waiter = asyncio.get_running_loop().create_future()
            sent = time.perf_counter()
            conn.transport.write(request)
            try:
                status, headers, raw, received = await conn.waiter
            except ConnectionError:
                self.conn = None
                if attempt == 4:
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))
                continue
            if status >= 400:
                raise SystemExit(f"{path}: {status} {raw[:300]!r}")
            timing = headers.get(b"server-timing")
            took = float(timing.rsplit(b"dur=", 1)[1]) / 1e3 if timing else None
            return msgspec.json.decode(raw), received - sent, took
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None and self.conn.transport is not None:
            self.conn.transport.close()


async def lag_probe(lags: list[float], every: float = 0.002) -> None:
    """How late this process's event loop wakes a sleeper: the share of a measured latency
    that is the client's own (its loop busy with other tables' answers, or its CPU taken)."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - t - every)


async def play_table(
    client: Client,
    hands: list[dict[str, Any]],
    think: float,
    lat: list[float],
    inside: list[float],
    ends: list[float],
    start: float = 0.0,
) -> list[list[dict[str, Any]]]:
    """Play a table's hands, from ``start`` seconds on; per hand, every finding the API
    raised (events, then end). ``lat``: each event post's latency as the table saw it;
    ``inside``: as the server timed it; ``ends``: each end's (the commit included)."""
    await asyncio.sleep(start)
    out = []
    try:
        for record in hands:
            head = {k: v for k, v in record.items() if k not in ("events", "result")}
            hand = (await client.send("/hands", head))[0]["hand"]
            raised: list[dict[str, Any]] = []
            for seq, event in enumerate(record["events"]):
                answer, took, server = await client.send(
                    f"/hands/{hand}/events", {"seq": seq, "event": event}
                )
                lat.append(took)
                if server is not None:
                    inside.append(server)
                raised.extend(answer["findings"])
                if think:
                    await asyncio.sleep(think)
            end, took, _ = await client.send(f"/hands/{hand}/end", {"result": record.get("result")})
            ends.append(took)
            raised.extend(end["end_findings"])
            out.append(raised)
    finally:
        client.close()
    return out


@dataclass
class Timings:
    """What the tables measured (seconds): each event post's latency as the table saw it,
    as the server timed it, each end's, and the client's own loop lag."""

    lat: list[float] = field(default_factory=list)
    inside: list[float] = field(default_factory=list)
    ends: list[float] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)


async def run(
    port: int, plays: list[list[dict[str, Any]]], think: float
) -> tuple[list[list[list[dict[str, Any]]]], Timings, float]:
    timings = Timings()
    probe = asyncio.get_running_loop().create_task(lag_probe(timings.lag))
    t = time.perf_counter()
    try:
        results = await asyncio.gather(
            *(
                # Tables do not play in step: their starts are spread over one think time
                # (all at once, every table's post would land in the same millisecond).
                play_table(
                    Client(port, f"bench-write-token-{k:04d}"),
                    hands,
                    think,
                    timings.lat,
                    timings.inside,
                    timings.ends,
                    k * think / len(plays),
                )
                for k, hands in enumerate(plays)
            )
        )
    finally:
        probe.cancel()
    return results, timings, time.perf_counter() - t


def event_loop() -> Callable[[], asyncio.AbstractEventLoop]:
    """uvloop's loop when it is installed (it is the server's too), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def children_cpu_seconds(pid: int) -> float:
    """CPU time of a process's live children (the server's commit worker)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(FileNotFoundError):  # ended since it was listed
                total += cpu_seconds(int(child))
    return total


def quantiles(xs: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max, in ms."""
    q = statistics.quantiles(xs, n=100, method="inclusive") if len(xs) >= 2 else xs * 99
    return q[49] * 1e3, q[98] * 1e3, max(xs) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=2, help="hands each table plays")
    parser.add_argument(
        "--think", type=float, default=500.0, help="ms a table waits between its events"
    )
    parser.add_argument("--ruleset", default="hk-classic")
    parser.add_argument(
        "--sync", choices=("disk", "os"), default="os", help="the server's journal sync"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server and its commit worker on core 0, this client on the others",
    )
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.hands, args.think = 3, 1, 0.0
    work = Path(tempfile.mkdtemp(prefix="mjaudit-bench-serve-"))
    tokens = work / "tokens.toml"
    tokens.write_text(
        "".join(f'[tables.t{k}]\nwrite = "bench-write-token-{k:04d}"\n' for k in range(args.tables))
    )
    plays = tables_hands(args.ruleset, args.tables, args.hands)
    port = free_port()
    cores = sorted(os.sched_getaffinity(0))
    pinned = args.pin and len(cores) > 1
    proc = start_server(work / "data", tokens, port, args.sync, {cores[0]} if pinned else None)
    if pinned:
        os.sched_setaffinity(0, set(cores[1:]))
    load = os.getloadavg()[0]
    cpu = cpu_seconds(proc.pid)
    kids = children_cpu_seconds(proc.pid)
    own = time.process_time()
    # What this process made so far (the hands to play, the modules) lives to the end:
    # out of the collector's passes, whose pauses would count as the server's latency.
    gc.freeze()
    gc.set_threshold(50_000, *gc.get_threshold()[1:])  # as the server does (settle_gc)
    try:
        with asyncio.Runner(loop_factory=event_loop()) as runner:
            results, timings, seconds = runner.run(run(port, plays, args.think / 1000))
        peak = server_peak_mb(proc.pid)
        cpu = cpu_seconds(proc.pid) - cpu
        kids = children_cpu_seconds(proc.pid) - kids
        own = time.process_time() - own
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    n_events = len(timings.lat)
    print(
        f"{args.tables} tables x {args.hands} hands of {args.ruleset}, think {args.think:g} ms, "
        f"sync {args.sync}{', pinned' if pinned else ''}"
    )
    print(f"{n_events / seconds:,.0f} events/s ({n_events} events in {seconds:.1f} s)")
    for what, xs in (
        ("event latency (client: sent to answer read)", timings.lat),
        ("  in the server (its Server-Timing)", timings.inside),
        ("  the client's own loop lag (2 ms sleeps)", timings.lag),
        ("end latency (the commit included)", timings.ends),
    ):
        p50, p99, top = quantiles(xs)
        print(f"{what}: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {top:.2f} ms")
    print(f"server CPU: {cpu / n_events * 1e3:.2f} ms per event (hands opened and ended included)")
    print(f"commit worker CPU: {kids / n_events * 1e3:.2f} ms per event (the archive's ingest)")
    print(f"client CPU: {own / n_events * 1e3:.2f} ms per event (the tables' HTTP client)")
    print(f"server peak memory: {peak:,.0f} MB")
    print(f"machine load average (1 min) at the start: {load:.1f} on {os.cpu_count()} cores")
    # the outcome: every hand in the archive once, the verdicts of check
    records = [r for hands in plays for r in hands]
    stored = DataDir(work / "data").scan("hands").select("game_id", "hand_no").collect().rows()
    wanted = {(r["game_id"], r["hand_no"]) for r in records}
    lost = len(wanted - set(stored))
    duplicated = len(stored) - len(set(stored))
    print(f"archive: {len(stored)} hands stored, {lost} lost, {duplicated} duplicated")
    checked = {(rep.game_id, rep.hand_no): rep for rep in replay_games(records)}
    differ = 0
    for hands, found in zip(plays, results, strict=True):
        for record, raised in zip(hands, found, strict=True):
            expected = checked[(record["game_id"], record["hand_no"])].to_json()["findings"]
            differ += [{k: f[k] for k in KEYS} for f in raised] != expected
    print(f"verdicts: {len(records) - differ} of {len(records)} hands identical to check")
    print_peak_memory()
    if lost or duplicated or differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
