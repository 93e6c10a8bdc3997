"""Ingest benchmark: throughput (MB/s, hands/s) and peak memory at two file sizes.

    python bench/ingest.py [--mb 200] [--small-mb 50] [--workdir bench/out]

Generates synthetic ``mjlog/1`` files (``bench/synthlog.py``), ingests each into a fresh
data folder in a child process, and prints wall time, MB/s of wall time and of CPU time
(user + system of the child: the figure to compare on a shared machine), hands/s and the
child's peak RSS. Memory should be flat in file size: the two peak RSS figures should be
close. The child's times include interpreter start-up and imports.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_smoke, print_peak_memory, smoke_workdir  # noqa: E402
from bench.synthlog import write_jsonl  # noqa: E402

BYTES_PER_HAND = 7700  # measured average of synthlog records


def run_one(path: Path, data: Path) -> tuple[float, float, int, str]:
    """Ingest ``path`` into a fresh ``data`` in a child; (wall s, CPU s, peak KiB, stdout)."""
    shutil.rmtree(data, ignore_errors=True)
    code = (
        "import sys; from mjaudit.parts.ingest.pipeline import ingest; "
        f"s = ingest([{str(path)!r}], {str(data)!r}); "
        "print(s.hands_added, s.n_quarantined)"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, after.ru_maxrss, proc.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--small-mb", type=int, default=50)
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out")
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.mb, args.small_mb, args.workdir = 1, 1, smoke_workdir("ingest")
    args.workdir.mkdir(parents=True, exist_ok=True)
    print(
        f"{'file':>10} {'hands':>8} {'wall s':>7} {'CPU s':>7} {'MB/s':>7} {'MB/s CPU':>9} "
        f"{'hands/s':>8} {'peak RSS':>9}"
    )
    # RUSAGE_CHILDREN's maxrss is the max over all children so far: run the small file first.
    for mb in (args.small_mb, args.mb):
        n_hands = mb * 1_000_000 // BYTES_PER_HAND
        path = args.workdir / f"synth-{mb}mb.jsonl"
        if not path.exists():
            write_jsonl(str(path), n_hands, seed=mb)
        size = path.stat().st_size
        elapsed, cpu, peak_kib, out = run_one(path, args.workdir / f"data-{mb}mb")
        hands = int(out.split()[0])
        print(
            f"{size / 1e6:>8.0f}MB {hands:>8} {elapsed:>7.1f} {cpu:>7.1f} "
            f"{size / 1e6 / elapsed:>7.1f} {size / 1e6 / cpu:>9.1f} "
            f"{hands / elapsed:>8.0f} {peak_kib / 1024:>7.0f}MB"
        )
    print(
        f"largest file: {size / 1e6 / elapsed:,.1f} MB/s, {hands / elapsed:,.0f} hands/s "
        "(wall time)"
    )
    print(
        "(one process; times include interpreter start-up and the final commit; CPU time "
        "counts every thread of the child, so MB/s CPU is per core)"
    )
    print_peak_memory()


if __name__ == "__main__":
    main()
