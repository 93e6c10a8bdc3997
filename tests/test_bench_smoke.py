"""Benchmarks that cannot rot: every script in ``bench/`` runs on a tiny input in ``make test``.

Each script's ``--smoke`` flag (``bench/common.py``) feeds the same code a tiny input. The
test asserts that it exits 0 and prints its figures (a throughput such as ``hands/s`` or
``MB/s``, and its peak memory); it never asserts a time.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(
    p.name for p in BENCH.glob("*.py") if 'if __name__ == "__main__":' in p.read_text()
)
THROUGHPUT = re.compile(r"\d[\d,.]* (hands|events|matches|evaluations|inputs|MB)/s\b")


# Modules of bench/ that are libraries of the scripts, not scripts (no __main__).
LIBRARIES = {"__init__.py", "common.py", "synthlog.py"}


def test_every_script_is_found() -> None:
    # the list is read from the folder; these must be among them (a rename shows here)
    assert {"replay.py", "ingest.py", "dashboard.py", "scale.py"} <= set(SCRIPTS)
    # every other module is a script with a smoke mode: a new one is run by this test
    modules = {p.name for p in BENCH.glob("*.py")}
    assert modules - LIBRARIES == set(SCRIPTS)
    for script in SCRIPTS:
        assert "add_smoke(" in (BENCH / script).read_text(), f"{script} has no --smoke"


@pytest.mark.parametrize("script", SCRIPTS)
def test_bench_script_runs_in_smoke_mode(script: str, tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONHASHSEED": "0"}
    proc = subprocess.run(
        [sys.executable, str(BENCH / script), "--smoke"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"{script} --smoke failed:\n{proc.stdout}\n{proc.stderr}"
    assert THROUGHPUT.search(proc.stdout), f"{script} printed no throughput:\n{proc.stdout}"
    assert "peak memory:" in proc.stdout, f"{script} printed no peak memory:\n{proc.stdout}"


def test_the_replay_bench_reads_hands_from_a_log(tmp_path: Path) -> None:
    """``bench/replay.py --log``: the same hands for two checkouts compared in turn."""
    log = BENCH.parent / "examples" / "club-night.jsonl"
    proc = subprocess.run(
        [sys.executable, str(BENCH / "replay.py"), "--smoke", "--log", str(log)],
        cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    hands = len((BENCH.parent / "examples" / "club-night.jsonl").read_text().splitlines())
    assert f"club-night.jsonl): {min(hands, 40)} hands" in proc.stdout, proc.stdout
    assert re.search(r"end to end \(club-night.jsonl, mjaudit check .*hands/s", proc.stdout)
