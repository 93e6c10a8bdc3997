"""What every benchmark script shares: its ``--smoke`` flag and its peak-memory line.

``make test`` runs each script with ``--smoke`` (tests/test_bench_smoke.py): a tiny input
through the same code, so a script that no longer runs fails a test instead of rotting.
The smoke run prints the same figures; nothing asserts a time.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
from pathlib import Path

SMOKE_HELP = "tiny input, same code: check the script runs and prints its figures"


def add_smoke(parser: argparse.ArgumentParser) -> None:
    """The ``--smoke`` flag; each script says what "tiny" is for it."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)


def smoke_workdir(prefix: str) -> Path:
    """A fresh folder for a smoke run's files, so it never reuses a real run's archive."""
    return Path(tempfile.mkdtemp(prefix=f"mjaudit-bench-{prefix}-"))


def peak_memory() -> str:
    """Peak resident memory of this process and of its finished children (Linux: KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    line = f"peak memory: {own:,.0f} MB"
    if kids:
        line += f" (largest child process {kids:,.0f} MB)"
    return line


def print_peak_memory() -> None:
    print(peak_memory())
    sys.stdout.flush()
