"""Benchmarks at scale: generate, ingest, replay and query archives of growing size.

    python bench/scale.py [--sizes 100000,1000000] [--workers 2] [--workdir bench/out/scale]

For each size N it writes N synthetic hands (``bench/synthlog.py``: full-wall
``hk-mahjongo`` exhaustive draws, the longest hands there are, ~7.7 KB each), then runs
each stage in a child process and prints its time, throughput and peak RSS (the child's
own and its workers'), and finally the growth from the first size to the last: time
should grow linearly with N and memory stay flat.

"hands/CPU-s" is hands per second of CPU time of the stage's processes (its workers
included): the per-core throughput, whatever else the machine was doing.

Recipe for 10,000,000 hands: ``--sizes 10000000`` needs about 80 GB of disk for the JSON
Lines input (delete it after ingest) and roughly ten times the 1M figures in time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.synthlog import write_jsonl  # noqa: E402

STAGE = """
import json, resource, sys, time
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
t, c = time.perf_counter(), cpu()
{body}
elapsed, used = time.perf_counter() - t, cpu() - c
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({{"seconds": elapsed, "cpu": used, "peak_mb": rss / 1024, **out}}))
"""

BODIES = {
    "ingest": (
        "from ingest.pipeline import ingest\n"
        "s = ingest([{log!r}], {data!r})\n"
        "out = {{'hands': s.hands_added, 'bytes': s.bytes_read}}"
    ),
    "replay": (
        "from replay.archive import replay_archive\n"
        "s = replay_archive({data!r}, workers={workers})\n"
        "out = {{'hands': s.replayed}}"
    ),
    # `mjaudit stats` itself, as a user runs it (interpreter start and imports included).
    "stats": (
        "import subprocess\n"
        "p = subprocess.run([sys.executable, '-m', 'mjaudit', 'stats', '--data', {data!r},"
        " '--format', 'csv'], capture_output=True, text=True, check=True)\n"
        "out = {{'rows': p.stdout.count(chr(10)) - 1}}"
    ),
    # The dashboard's headline figures over the whole archive (connect + overview).
    "overview": (
        "from dashboards.queries import connect, overview\n"
        "head = overview(connect({data!r}))\n"
        "out = {{'hands': head['hands']}}"
    ),
}
STAGES = ("ingest", "replay", "stats", "overview")


def run_stage(name: str, **kw: object) -> dict:
    code = STAGE.format(body=BODIES[name].format(**kw))
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out" / "scale")
    ap.add_argument("--keep", action="store_true", help="keep the generated logs")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[int, str, dict]] = []
    print(
        f"{'hands':>9} {'stage':>8} {'seconds':>8} {'hands/s':>9} {'MB/s':>6} {'peak RSS':>9} "
        f"{'CPU s':>7} {'hands/CPU-s':>11}"
    )
    for n in sizes:
        log = args.workdir / f"synth-{n}.jsonl"
        data = args.workdir / f"data-{n}"
        if not log.exists():
            t = time.perf_counter()
            size = write_jsonl(str(log), n, seed=n)
            print(
                f"{n:>9} {'generate':>8} {time.perf_counter() - t:>8.1f} "
                f"{'':>9} {size / 1e6 / (time.perf_counter() - t):>6.1f}"
            )
        shutil.rmtree(data, ignore_errors=True)
        for stage in STAGES:
            r = run_stage(stage, log=str(log), data=str(data), workers=args.workers)
            rows.append((n, stage, r))
            mbs = f"{r['bytes'] / 1e6 / r['seconds']:>6.1f}" if "bytes" in r else f"{'':>6}"
            print(
                f"{n:>9} {stage:>8} {r['seconds']:>8.1f} {n / r['seconds']:>9,.0f} {mbs} "
                f"{r['peak_mb']:>7.0f}MB {r['cpu']:>7.1f} {n / r['cpu']:>11,.0f}",
                flush=True,
            )
        if not args.keep:
            log.unlink()
    if len(sizes) > 1:
        first, last = sizes[0], sizes[-1]
        print(f"\ngrowth from {first:,} to {last:,} hands (x{last / first:g}):")
        for stage in STAGES:
            a = next(r for n, s, r in rows if n == first and s == stage)
            b = next(r for n, s, r in rows if n == last and s == stage)
            print(
                f"  {stage:>7}: time x{b['seconds'] / a['seconds']:.1f}, "
                f"peak RSS x{b['peak_mb'] / a['peak_mb']:.2f}"
            )


if __name__ == "__main__":
    main()
