"""Benchmarks at scale: generate, ingest, replay and query archives of growing size.

    python bench/scale.py [--sizes 100000,1000000] [--workers 2] [--workdir bench/out/scale]

For each size N it writes N synthetic hands (``bench/synthlog.py``: full-wall
``hk-mahjongo`` exhaustive draws, the longest hands there are, ~7.7 KB each, dated at an
online table's pace of 400 games of 16 hands a day), in files of at most 1M hands written
by ``--jobs`` processes, then runs each stage in a child process and prints its time,
throughput and peak RSS (the child's own and its workers'), and finally the growth from
the first size to the last: time should grow linearly with N and memory stay flat.

"hands/CPU-s" is hands per second of CPU time of the stage's processes (its workers
included): the per-core throughput, whatever else the machine was doing. MB/s counts
the JSON Lines bytes, before compression.

Recipe for 10,000,000 hands: ``--sizes 10000000 --compress`` writes ten zstd files
(about 8 GB instead of 72 GB of JSON Lines) and takes about an hour on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_smoke, print_peak_memory, smoke_workdir  # noqa: E402
from bench.synthlog import write_jsonl  # noqa: E402

STAGE = """
import json, resource, sys, time
def cpu():
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
t, c = time.perf_counter(), cpu()
{body}
elapsed, used = time.perf_counter() - t, cpu() - c
main = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print({marker!r}, json.dumps({{"seconds": elapsed, "cpu": used, "peak_mb": max(main, children),
                  "main_mb": main, "children_mb": children, **out}}))
"""

BODIES = {
    "ingest": (
        "from mjaudit.parts.ingest.pipeline import ingest\n"
        "s = ingest({logs!r}, {data!r})\n"
        "out = {{'hands': s.hands_added}}"
    ),
    "replay": (
        "from mjaudit.parts.replay.archive.update import replay_archive\n"
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
        "from mjaudit.parts.dashboards.queries import connect, overview\n"
        "head = overview(connect({data!r}))\n"
        "out = {{'hands': head['hands']}}"
    ),
}
STAGES = ("ingest", "replay", "stats", "overview")


PART_HANDS = 1_000_000  # hands per generated file (a file stays under ingest's 16 GB limit)
GAMES_PER_DAY = 400  # an online table's pace: 1M hands span 156 days, 10M four years


def generate(workdir: Path, n: int, compress: bool, jobs: int) -> tuple[list[Path], int]:
    """The files of N synthetic hands (written unless present) and their JSON bytes."""
    suffix = ".jsonl.zst" if compress else ".jsonl"
    counts = [min(PART_HANDS, n - start) for start in range(0, n, PART_HANDS)]
    paths = [workdir / f"synth-{n}-{k:02d}{suffix}" for k in range(len(counts))]
    sizes = workdir / f"synth-{n}{suffix}.bytes.json"
    if all(p.exists() for p in paths) and sizes.exists():
        return paths, int(json.loads(sizes.read_text()))
    t = time.perf_counter()
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        written = pool.map(
            write_jsonl,
            map(str, paths),
            counts,
            [n + k for k in range(len(counts))],  # seed: distinct game ids per file
            [GAMES_PER_DAY] * len(counts),
        )
        total = sum(written)
    sizes.write_text(json.dumps(total))
    elapsed = time.perf_counter() - t
    print(f"{n:>9} {'generate':>8} {elapsed:>8.1f} {'':>9} {total / 1e6 / elapsed:>6.1f}")
    return paths, total


MARKER = "MJBENCH"  # starts the stage's figures line: a library may print after it


def run_stage(name: str, **kw: object) -> dict:
    """Run one stage in a child process and return its figures. They are read from the
    line that starts with MARKER, not the last line: at 10M hands DuckDB's progress bar
    once followed them (it is on under ``python -c``) and the run lost its replay."""
    code = STAGE.format(body=BODIES[name].format(**kw), marker=MARKER)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(MARKER + " ")]
    if proc.returncode or not lines:
        raise RuntimeError(
            f"stage {name} exited {proc.returncode} without its figures;"
            f" stdout ends {proc.stdout[-2000:]!r}, stderr ends {proc.stderr[-2000:]!r}"
        )
    return json.loads(lines[-1].removeprefix(MARKER + " "))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out" / "scale")
    ap.add_argument("--keep", action="store_true", help="keep the generated logs")
    ap.add_argument("--compress", action="store_true", help="write the logs as .jsonl.zst")
    ap.add_argument("--jobs", type=int, default=2, help="processes writing the logs")
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.sizes, args.workers, args.jobs = "200,400", 1, 1
        args.workdir = smoke_workdir("scale")
    sizes = [int(s) for s in args.sizes.split(",")]
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[int, str, dict]] = []
    print(
        f"{'hands':>9} {'stage':>8} {'seconds':>8} {'hands/s':>9} {'MB/s':>6} {'peak RSS':>9} "
        f"{'CPU s':>7} {'hands/CPU-s':>11}"
    )
    for n in sizes:
        logs, size = generate(args.workdir, n, args.compress, args.jobs)
        data = args.workdir / f"data-{n}"
        shutil.rmtree(data, ignore_errors=True)
        for stage in STAGES:
            r = run_stage(stage, logs=list(map(str, logs)), data=str(data), workers=args.workers)
            rows.append((n, stage, r))
            mbs = f"{size / 1e6 / r['seconds']:>6.1f}" if stage == "ingest" else f"{'':>6}"
            print(
                f"{n:>9} {stage:>8} {r['seconds']:>8.1f} {n / r['seconds']:>9,.0f} {mbs} "
                f"{r['peak_mb']:>7.0f}MB {r['cpu']:>7.1f} {n / r['cpu']:>11,.0f}",
                flush=True,
            )
        if not args.keep:
            for log in logs:
                log.unlink()
    last_rows = [(s, r) for n, s, r in rows if n == sizes[-1]]
    print(
        f"\nat {sizes[-1]:,} hands: "
        + ", ".join(f"{s} {sizes[-1] / r['seconds']:,.0f} hands/s" for s, r in last_rows)
    )
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
    print_peak_memory()


if __name__ == "__main__":
    main()
