"""Helpers of the scale tests: archives, `mjaudit` in a subprocess, SIGKILL, consistency checks."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
from mjaudit.parts.ingest.store import CATALOG, LOCK, DataDir
from mjaudit.parts.schemas.tables import ALL_TABLES, REPLAY_TABLES

from bench.synthlog import write_jsonl

REPO = Path(__file__).resolve().parents[2]

# (table, its key): what "no duplicate" means for each ingested table.
KEYS = {
    "hands": ("game_id", "hand_no"),
    "seats": ("game_id", "hand_no", "seat"),
    "events": ("game_id", "hand_no", "event_index"),
    "recorded_results": ("game_id", "hand_no", "seat"),
}


def write_archive(folder: Path, files: int, hands_per_file: int, seed: int = 20) -> list[Path]:
    """``files`` synthlog JSON Lines files of ``hands_per_file`` hands (about 7.7 kB each)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(files):
        path = folder / f"part{i:02d}.jsonl"
        write_jsonl(str(path), hands_per_file, seed=seed + i)
        paths.append(path)
    return paths


def mjaudit_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "mjaudit", *args]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    """``mjaudit ARGS`` in its own process group (so a kill takes any worker processes too)."""
    return subprocess.Popen(
        mjaudit_cmd(*args),
        cwd=cwd,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


HANG_GUARD = 900  # seconds: only a hung command reaches it, never a slow one on a busy machine


def run(*args: str, cwd: Path, timeout: float = HANG_GUARD) -> subprocess.CompletedProcess[str]:
    proc = start(*args, cwd=cwd)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(proc)
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def kill(proc: subprocess.Popen[str]) -> None:
    """SIGKILL the process group of ``proc`` (started by :func:`start`) and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


@dataclass
class Killed:
    after: float  # seconds after the start
    killed: bool  # False: the command had already finished (then it must have succeeded)
    returncode: int


def run_and_kill(*args: str, cwd: Path, after: float) -> Killed:
    """Start ``mjaudit ARGS`` and SIGKILL it ``after`` seconds later, unless it ended before."""
    proc = start(*args, cwd=cwd)
    deadline = time.monotonic() + after
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    if proc.poll() is not None:
        out, err = proc.communicate()
        assert proc.returncode in (0, 1), (proc.returncode, out, err)
        return Killed(after, False, proc.returncode)
    kill(proc)
    return Killed(after, True, proc.returncode)


def lock_held(root: Path) -> bool:
    """Whether some process holds the data folder's write lock (Linux: /proc/locks)."""
    try:
        inode = (root / LOCK).stat().st_ino
    except FileNotFoundError:
        return False
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if len(fields) > 5 and fields[5].rsplit(":", 1)[-1] == str(inode):
            return True
    return False


def wait_for_lock(root: Path, proc: subprocess.Popen[str]) -> None:
    """Until ``proc`` holds the write lock; however slow the machine, it takes it or ends."""
    while not lock_held(root):
        assert proc.poll() is None, "the first command ended before it was seen holding the lock"
        time.sleep(0.01)


def catalog_counts(root: Path) -> dict[str, int]:
    """Row count of every view of ``catalog.duckdb`` (opened read-only, as a user would)."""
    con = duckdb.connect(str(root / CATALOG), read_only=True)
    try:
        views = [
            r[0]
            for r in con.execute(
                "select view_name from duckdb_views() where not internal"
            ).fetchall()
        ]
        return {v: con.execute(f'select count(*) from "{v}"').fetchone()[0] for v in sorted(views)}
    finally:
        con.close()


def duplicates(root: Path) -> dict[str, int]:
    """Rows beyond the first per key, per ingested table, counted through the catalog."""
    con = duckdb.connect(str(root / CATALOG), read_only=True)
    try:
        out = {}
        for table, key in KEYS.items():
            cols = ", ".join(key)
            out[table] = con.execute(
                f'select count(*) - count(distinct ({cols})) from "{table}"'
            ).fetchone()[0]
        return out
    finally:
        con.close()


def check_consistent(root: Path) -> int:
    """Everything a reader may rely on after a crash; returns the number of hands.

    The catalog and every table are readable, no table has a duplicated key, and the
    ingested tables hold the same hands (no table got a batch the others did not).
    """
    data = DataDir(root)
    tables = {name: data.read(name) for name in ALL_TABLES}
    counts = catalog_counts(root)
    assert set(ALL_TABLES) <= set(counts), counts
    assert duplicates(root) == dict.fromkeys(KEYS, 0)
    hands = pl.from_arrow(tables["hands"].select(["game_id", "hand_no"]))
    assert hands.unique().height == hands.height
    for name in ("seats", "events", "recorded_results"):
        keys = pl.from_arrow(tables[name].select(["game_id", "hand_no"])).unique()
        # the same hands in every table: no table got a batch the others did not
        assert keys.height == hands.height, name
        assert keys.join(hands, on=["game_id", "hand_no"], how="anti").height == 0, name
    # The catalog may be one commit behind the manifest (killed between the two), never
    # ahead and never half a commit: so its hands count is checked by the caller too.
    assert counts["hands"] <= tables["hands"].num_rows
    return tables["hands"].num_rows


def check_delta_readers(root: Path) -> None:
    """Every table read as a Delta table (polars' ``read_delta``, no mjaudit code) holds
    the rows mjaudit's own reader gives, and the same keys."""
    data = DataDir(root)
    for name in ALL_TABLES:
        ours = pl.from_arrow(data.read(name))
        theirs = pl.read_delta(str(root / name))
        assert theirs.height == ours.height, name
        key = [c for c in ("game_id", "hand_no", "seat", "event_index") if c in ours.columns]
        if key:
            assert theirs.select(key).sort(key).equals(ours.select(key).sort(key)), name


def hand_boundaries(root: Path) -> list[int]:
    """Cumulative hands after each commit of a finished ingest (0 first), from its manifest."""
    data = DataDir(root)
    sizes = [pq.ParquetFile(f).metadata.num_rows for f in data.files("hands")]
    out = [0]
    for n in sizes:
        if n:
            out.append(out[-1] + n)
    return out


def replay_bytes(root: Path) -> dict[str, bytes]:
    """The committed replay output: file name (relative to the folder) -> bytes."""
    data = DataDir(root)
    return {
        str(f.relative_to(root)): f.read_bytes() for name in REPLAY_TABLES for f in data.files(name)
    }


def wait_for_waiting(proc: subprocess.Popen[str]) -> None:
    """Until ``proc`` (started with ``--wait``) says it is queued behind another writer."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if "waiting for another mjaudit command" in line:
            return
    raise AssertionError("the queued command ended without waiting for the lock")
