"""Ingest benchmark: throughput (MB/s, hands/s) and peak memory at two file sizes.

    python bench/ingest.py [--mb 200] [--small-mb 50] [--workdir bench/out]

Generates synthetic ``mjlog/1`` files (``bench/synthlog.py``), ingests each into a fresh
data folder in a child process, and prints time, MB/s, hands/s and the child's peak RSS.
Memory should be flat in file size: the two peak RSS figures should be close.
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

from bench.synthlog import write_jsonl  # noqa: E402

BYTES_PER_HAND = 6640  # measured average of synthlog records


def run_one(path: Path, data: Path) -> tuple[float, int, str]:
    shutil.rmtree(data, ignore_errors=True)
    code = (
        "import sys; from ingest.pipeline import ingest; "
        f"s = ingest([{str(path)!r}], {str(data)!r}); "
        "print(s.hands_added, s.n_quarantined)"
    )
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    elapsed = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, peak_kib, proc.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--small-mb", type=int, default=50)
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out")
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    print(f"{'file':>10} {'hands':>8} {'seconds':>8} {'MB/s':>7} {'hands/s':>8} {'peak RSS':>9}")
    # RUSAGE_CHILDREN's maxrss is the max over all children so far: run the small file first.
    for mb in (args.small_mb, args.mb):
        n_hands = mb * 1_000_000 // BYTES_PER_HAND
        path = args.workdir / f"synth-{mb}mb.jsonl"
        if not path.exists():
            write_jsonl(str(path), n_hands, seed=mb)
        size = path.stat().st_size
        elapsed, peak_kib, out = run_one(path, args.workdir / f"data-{mb}mb")
        hands = int(out.split()[0])
        print(
            f"{size / 1e6:>8.0f}MB {hands:>8} {elapsed:>8.1f} {size / 1e6 / elapsed:>7.1f} "
            f"{hands / elapsed:>8.0f} {peak_kib / 1024:>7.0f}MB"
        )
    print("(one process, one core; time includes interpreter start-up and the final commit)")


if __name__ == "__main__":
    main()
