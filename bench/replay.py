"""Replay benchmark: hands/s of `check`-style replay (legality, fan, payments) and µs per
fan evaluation.

    python bench/replay.py [--hands 20000] [--source sim|synth] [--ruleset hk-mahjongo]

``sim`` plays club sittings with the bots (``replay.sim``: hands that end in wins, claims,
kongs); ``synth`` uses ``bench/synthlog.py`` (every hand a full-wall exhaustive draw, the
longest possible hand). Records are parsed before timing, so the figure is the replay
alone, in one process on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from bench.fan_eval import random_win  # noqa: E402
from bench.synthlog import records as synth_records  # noqa: E402
from replay.engine import replay_games  # noqa: E402
from replay.hk import evaluate, options_for  # noqa: E402
from schemas.records import parse_record  # noqa: E402


def load(source: str, hands: int, ruleset: str) -> list[dict]:
    if source == "synth":
        raw = (msgspec.json.encode(r) for r in synth_records(hands, seed=11))
        return [parse_record(r).record for r in raw]
    from replay.sim import simulate

    out: list[dict] = []
    games = max(1, hands // 12)
    while len(out) < hands:
        for record, _labels in simulate(ruleset, games=games, seed=len(out) + 1):
            out.append(record)
            if len(out) >= hands:
                break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--source", choices=("sim", "synth"), default="sim")
    ap.add_argument("--ruleset", default="hk-mahjongo")
    args = ap.parse_args()
    t0 = time.perf_counter()
    recs = load(args.source, args.hands, args.ruleset)
    prep = time.perf_counter() - t0
    events = sum(len(r["events"]) for r in recs)
    t0 = time.perf_counter()
    reports = list(replay_games(recs))
    dt = time.perf_counter() - t0
    wins = sum(1 for r in reports if r.winners)
    print(
        f"source {args.source} ({args.ruleset if args.source == 'sim' else 'hk-mahjongo'}): "
        f"{len(recs)} hands, {events / len(recs):.0f} events/hand, {wins} wins "
        f"(generated and parsed in {prep:.1f} s)"
    )
    print(
        f"replay: {dt:.2f} s, {len(recs) / dt:,.0f} hands/s, {events / dt:,.0f} events/s (one core)"
    )
    rng = random.Random(7)
    ctxs = [random_win(rng) for _ in range(5000)]
    for name in ("hk-classic", "hk-mahjongo"):
        opts = options_for(name)
        best = min(_time(ctxs, opts) for _ in range(3))
        print(f"fan evaluation ({name}): {best * 1e6 / len(ctxs):.1f} µs per hand")


def _time(ctxs: list, opts: object) -> float:
    t0 = time.perf_counter()
    for c in ctxs:
        evaluate(c, opts)  # type: ignore[arg-type]
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
