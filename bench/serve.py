"""``mjaudit serve`` under load: many simulated tables at once, through the HTTP API.

Starts a real server (``python -m mjaudit serve``) on a free port of 127.0.0.1 with a
fresh data folder, then plays ``--tables`` tables at once with an async HTTP client: each
table plays ``--hands`` hands of a simulated sitting (its own game id), one event per post,
waiting ``--think`` ms between its events as players do; the tables' starts are spread
over one think time, as tables do not play in step. Prints events/s, the latency of
an event post (p50, p99, max), the server's peak memory, and then checks the outcome: the
archive holds every finished hand exactly once, and every hand's findings (raised at the
events and at the end) are those of ``mjaudit check`` on the same records.

    python bench/serve.py --tables 200 --hands 2 --think 500 [--sync os]
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
from pathlib import Path
from typing import Any

import aiohttp
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


def start_server(data: Path, tokens: Path, port: int, sync: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "mjaudit", "serve", "--data", str(data), "--port", str(port)]
    cmd += ["--sync", sync]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([*cmd, "--tokens", str(tokens)], cwd=ROOT, env=env)
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


class Client:
    """The tables' HTTP client: aiohttp (HTTP/1.1 keep-alive, one connection a table),
    bodies encoded and decoded with msgspec. It spends about half the CPU per post that
    httpx2 does, and on a 2-core machine the client's CPU is the server's lost CPU."""

    def __init__(self, url: str, tables: int) -> None:
        connector = aiohttp.TCPConnector(limit=tables, keepalive_timeout=60)
        self.session = aiohttp.ClientSession(
            base_url=url, connector=connector, timeout=aiohttp.ClientTimeout(total=600)
        )

    async def send(
        self, path: str, body: dict[str, Any], headers: dict[str, str]
    ) -> tuple[Any, float | None]:
        """POST; the answer and the server's own time on it (its Server-Timing header,
        ms). Retried on a broken connection as a table's client would: every call of the
        API may be repeated (the same seq, the same header, end) and is answered once."""
        data = msgspec.json.encode(body)
        for attempt in range(5):
            try:
                async with self.session.post(
                    path, data=data, headers={**headers, "Content-Type": "application/json"}
                ) as r:
                    raw = await r.read()
                    if r.status >= 400:
                        raise SystemExit(f"{path}: {r.status} {raw[:300]!r}")
                    timing = r.headers.get("Server-Timing")
                    took = float(timing.rsplit("dur=", 1)[1]) if timing else None
                    return msgspec.json.decode(raw), took
            except aiohttp.ClientConnectionError:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.1 * (attempt + 1))
        raise AssertionError("unreachable")


async def play_table(
    client: Client,
    token: str,
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
    headers = {"Authorization": f"Bearer {token}"}
    await asyncio.sleep(start)
    out = []
    for record in hands:
        head = {k: v for k, v in record.items() if k not in ("events", "result")}
        hand = (await client.send("/hands", head, headers))[0]["hand"]
        raised: list[dict[str, Any]] = []
        for seq, event in enumerate(record["events"]):
            t = time.perf_counter()
            answer, took = await client.send(
                f"/hands/{hand}/events", {"seq": seq, "event": event}, headers
            )
            lat.append(time.perf_counter() - t)
            if took is not None:
                inside.append(took / 1e3)
            raised.extend(answer["findings"])
            if think:
                await asyncio.sleep(think)
        t = time.perf_counter()
        end, _ = await client.send(f"/hands/{hand}/end", {"result": record.get("result")}, headers)
        ends.append(time.perf_counter() - t)
        raised.extend(end["end_findings"])
        out.append(raised)
    return out


async def run(
    url: str, plays: list[list[dict[str, Any]]], think: float
) -> tuple[list, list[float], list[float], list[float], float]:
    lat: list[float] = []
    inside: list[float] = []
    ends: list[float] = []
    client = Client(url, len(plays))
    try:
        t = time.perf_counter()
        results = await asyncio.gather(
            *(
                # Tables do not play in step: their starts are spread over one think time
                # (all at once, every table's post would land in the same millisecond).
                play_table(
                    client,
                    f"bench-write-token-{k:04d}",
                    hands,
                    think,
                    lat,
                    inside,
                    ends,
                    k * think / len(plays),
                )
                for k, hands in enumerate(plays)
            )
        )
        return results, lat, inside, ends, time.perf_counter() - t
    finally:
        await client.session.close()


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
        "--sync", choices=("disk", "os"), default="disk", help="the server's journal sync"
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
    proc = start_server(work / "data", tokens, port, args.sync)
    load = os.getloadavg()[0]
    cpu = cpu_seconds(proc.pid)
    kids = children_cpu_seconds(proc.pid)
    own = time.process_time()
    # What this process made so far (the hands to play, the modules) lives to the end:
    # out of the collector's passes, whose pauses would count as the server's latency.
    gc.freeze()
    try:
        results, lat, inside, ends, seconds = asyncio.run(
            run(f"http://127.0.0.1:{port}", plays, args.think / 1000)
        )
        peak = server_peak_mb(proc.pid)
        cpu = cpu_seconds(proc.pid) - cpu
        kids = children_cpu_seconds(proc.pid) - kids
        own = time.process_time() - own
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
    n_events = len(lat)
    print(
        f"{args.tables} tables x {args.hands} hands of {args.ruleset}, think {args.think:g} ms, sync {args.sync}"
    )
    print(f"{n_events / seconds:,.0f} events/s ({n_events} events in {seconds:.1f} s)")
    p50, p99, top = quantiles(lat)
    print(f"event latency: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {top:.2f} ms")
    p50, p99, top = quantiles(inside)
    print(
        f"  of which in the server (Server-Timing): p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {top:.2f} ms"
    )
    p50, p99, top = quantiles(ends)
    print(
        f"end latency (the commit included): p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {top:.1f} ms"
    )
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
