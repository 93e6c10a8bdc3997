"""Simulate many hands with planted violations, replay them, score the auditor.

Run: ``.venv/bin/python bench/accuracy.py [--hands 100000] [--violations 0.1] [--workers N]``.

The hands are split into chunks of whole sittings (about 40% hk-classic, 40% hk-mahjongo,
20% hk-mahjongo-2p); each worker process simulates a chunk, replays it with
``replay_games`` and scores the findings against the labels
(:func:`replay.sim.accuracy.score`). Printed: hands simulated per second and replayed per
second (per core, and for the whole run), recall, precision (share of flagged hands that
were planted) and strict precision (share of serious findings a label names), the end
and fan distribution per ruleset, and wall time. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_smoke, print_peak_memory

SHARES = (("hk-classic", 0.4), ("hk-mahjongo", 0.4), ("hk-mahjongo-2p", 0.2))
CHUNK = 2500  # hands per task


@dataclass
class ChunkResult:
    ruleset: str
    hands: int = 0
    sim_seconds: float = 0.0
    replay_seconds: float = 0.0
    labels: int = 0
    found: int = 0
    planted_flagged: int = 0
    unplanted_flagged: int = 0
    labelled_serious: int = 0
    unlabelled_serious: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    fans: Counter[int] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)
    by_code_found: Counter[str] = field(default_factory=Counter)
    missed: list[dict[str, object]] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)


def run_chunk(task: tuple[str, int, int, float]) -> ChunkResult:
    """Simulate whole sittings until ``quota`` hands, then replay and score them."""
    from mjaudit.parts.replay.engine.run import replay_games
    from mjaudit.parts.replay.sim import simulate
    from mjaudit.parts.replay.sim.accuracy import score

    ruleset, seed, quota, rate = task
    out = ChunkResult(ruleset)
    records: list[dict[str, object]] = []
    labels: list[dict[str, object]] = []
    t0 = time.perf_counter()
    # More sittings than needed (a sitting has at least 8 hands); stop at a sitting boundary.
    for rec, labs in simulate(ruleset, quota // 8 + 2, seed=seed, violations=rate):
        if rec["hand_no"] == 1 and len(records) >= quota:
            break
        records.append(rec)
        labels.extend(labs)
    t1 = time.perf_counter()
    reports = list(replay_games(records))  # type: ignore[arg-type]
    t2 = time.perf_counter()
    acc = score(reports, labels)  # type: ignore[arg-type]
    out.hands = len(records)
    out.sim_seconds = t1 - t0
    out.replay_seconds = t2 - t1
    out.labels = acc.labels
    out.found = acc.found
    out.planted_flagged = acc.planted_flagged
    out.unplanted_flagged = len({k for k, _ in acc.serious_in_unplanted})
    out.labelled_serious = acc.labelled_serious
    out.unlabelled_serious = len(acc.unlabelled_serious)
    out.missed = list(acc.missed[:5])
    out.false_alarms = [
        f"{k[0]}#{k[1]} {f.code}@{f.event_index}" for k, f in acc.serious_in_unplanted[:5]
    ]
    for code, (found, total) in acc.by_code.items():
        out.by_code[code] += total
        out.by_code_found[code] += found
    planted = {(lab["game_id"], lab["hand_no"]) for lab in labels}
    for rec in records:
        if (rec["game_id"], rec["hand_no"]) in planted:
            continue
        end = rec["events"][-1]["type"]  # type: ignore[index]
        out.ends[end] += 1
        if end == "win":
            out.fans[rec["result"]["fan"]] += 1  # type: ignore[index]
    return out


def _tasks(hands: int, seed: int, rate: float) -> list[tuple[str, int, int, float]]:
    tasks = []
    for i, (ruleset, share) in enumerate(SHARES):
        want = round(hands * share)
        n = 0
        while want > 0:
            quota = min(CHUNK, want)
            tasks.append((ruleset, seed * 1000 + i * 100 + n, quota, rate))
            want -= quota
            n += 1
    return tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--violations", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    add_smoke(ap)
    args = ap.parse_args()
    if args.smoke:
        args.hands, args.workers = 150, 1
    tasks = _tasks(args.hands, args.seed, args.violations)
    start = time.perf_counter()
    if args.workers > 1:
        with mp.get_context("spawn").Pool(args.workers) as pool:
            results = pool.map(run_chunk, tasks, chunksize=1)
    else:
        results = [run_chunk(t) for t in tasks]
    wall = time.perf_counter() - start
    total = sum(r.hands for r in results)
    sim_s = max(sum(r.sim_seconds for r in results), 1e-9)
    rep_s = max(sum(r.replay_seconds for r in results), 1e-9)
    labels = sum(r.labels for r in results)
    found = sum(r.found for r in results)
    flagged_p = sum(r.planted_flagged for r in results)
    flagged_u = sum(r.unplanted_flagged for r in results)
    ser_l = sum(r.labelled_serious for r in results)
    ser_u = sum(r.unlabelled_serious for r in results)
    print(f"hands simulated      {total:,} ({len(tasks)} chunks, {args.workers} workers)")
    print(f"simulate             {total / sim_s:,.0f} hands/s per core ({sim_s:,.1f} core-s)")
    print(f"replay               {total / rep_s:,.0f} hands/s per core ({rep_s:,.1f} core-s)")
    print(
        f"wall time            {wall:,.1f} s ({total / wall:,.0f} hands/s simulated and replayed)"
    )
    print(f"labels               {labels:,}, found {found:,}")
    print(f"recall               {found / labels if labels else 1.0:.4%}")
    precision = flagged_p / (flagged_p + flagged_u) if flagged_p + flagged_u else 1.0
    strict = ser_l / (ser_l + ser_u) if ser_l + ser_u else 1.0
    print(
        f"precision            {precision:.4%}"
        f" (hands with a serious finding that were planted; {flagged_u} false alarms)"
    )
    print(f"strict precision     {strict:.4%} (serious findings named by a label; {ser_u} unnamed)")
    by_code: Counter[str] = Counter()
    by_found: Counter[str] = Counter()
    for r in results:
        by_code.update(r.by_code)
        by_found.update(r.by_code_found)
    print(
        "labels by code       "
        + ", ".join(f"{c} {by_found[c]}/{n}" for c, n in sorted(by_code.items()))
    )
    for ruleset, _ in SHARES:
        mine = [r for r in results if r.ruleset == ruleset]
        ends: Counter[str] = Counter()
        fans: Counter[int] = Counter()
        for r in mine:
            ends.update(r.ends)
            fans.update(r.fans)
        n = sum(ends.values()) or 1
        dist = " ".join(f"{f}:{fans[f] / n:.1%}" for f in sorted(fans))
        print(
            f"{ruleset:<15} unplanted hands {n:,}: win {ends['win'] / n:.1%}, "
            f"exhaustive draw {ends['exhaustive_draw'] / n:.1%}; fan {dist}"
        )
    for r in results:
        for m in r.missed:
            print("MISSED", m)
        for a in r.false_alarms:
            print("FALSE ALARM", a)
    print_peak_memory()


if __name__ == "__main__":
    main()
