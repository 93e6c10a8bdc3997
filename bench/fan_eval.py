"""Microseconds per fan evaluation over random winning hands (hk-classic and hk-mahjongo).

Run: ``.venv/bin/python bench/fan_eval.py [n_hands]``. Hands are built from random sets
(a third of them in one suit, where several decompositions are common), with random
declared melds, win source, winds and flowers; contexts are built before timing, so the
figure is ``evaluate`` alone. Times are CPU time of this process (``time.process_time``),
best of 5, so the figure holds on a shared machine. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjaudit.parts.replay.rulesets.hk import (
    HK_CLASSIC,
    HK_MAHJONGO,
    WinContext,
    WinSource,
    evaluate,
    options_for,
    settle,
)
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind

from bench.common import add_smoke, print_peak_memory


def random_win(rng: random.Random) -> WinContext:
    """A random complete hand: four sets and a pair, some sets declared."""
    low, high = (0, 34) if rng.random() < 0.67 else rng.choice([(0, 9), (9, 18), (18, 27)])
    while True:
        used = [0] * 34
        sets: list[tuple[str, int]] = []
        for _ in range(200):
            if len(sets) == 4:
                break
            t = rng.randrange(low, high)
            if rng.random() < 0.6 and t < 27 and t % 9 <= 6:
                if all(used[t + i] < 4 for i in range(3)):
                    for i in range(3):
                        used[t + i] += 1
                    sets.append(("c", t))
            elif used[t] <= 1:
                used[t] += 3
                sets.append(("p", t))
        pairs = [t for t in range(low, high) if used[t] <= 2]
        if len(sets) == 4 and pairs:
            break
    pair = rng.choice(pairs)
    n_melds = rng.choice([0, 0, 1, 1, 2, 3, 4])
    melds: list[Meld] = []
    concealed = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        if i < n_melds:
            if kind == "c":
                melds.append(Meld(MeldKind.CHOW, t, 0))
            elif used[t] == 3 and rng.random() < 0.2:
                melds.append(Meld(MeldKind.CONCEALED_KONG, t))
            else:
                melds.append(Meld(MeldKind.PUNG, t, 1))
        else:
            concealed.extend((t, t + 1, t + 2) if kind == "c" else (t, t, t))
    win_tile = rng.choice(concealed)
    concealed.remove(win_tile)
    return WinContext(
        concealed=tuple(concealed),
        win_tile=win_tile,
        source=rng.choice([WinSource.SELF_DRAW, WinSource.DISCARD, WinSource.DISCARD]),
        melds=tuple(melds),
        seat_wind=rng.randrange(4),
        prevailing_wind=rng.randrange(4),
        flowers=tuple(rng.sample(range(34, 42), rng.choice([0, 0, 1, 2]))),
    )


def bench(name: str, hands: list[WinContext], opts: object, rounds: int = 5) -> float:
    for ctx in hands[:200]:  # warm the per-suit tables
        evaluate(ctx, opts)  # type: ignore[arg-type]
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for ctx in hands:
            evaluate(ctx, opts)  # type: ignore[arg-type]
        best = min(best, time.process_time() - t0)
    us = best / len(hands) * 1e6
    print(
        f"{name:28s} {us:6.2f} µs per evaluation, {1e6 / us:,.0f} evaluations/s "
        f"({len(hands)} hands, best of {rounds})"
    )
    return us


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n_hands", type=int, nargs="?", default=5000)
    add_smoke(ap)
    args = ap.parse_args()
    n = 50 if args.smoke else args.n_hands
    rng = random.Random(20240601)
    hands = [random_win(rng) for _ in range(n)]
    assert all(evaluate(h, HK_CLASSIC) is not None for h in hands)
    bench("hk-classic (section5)", hands, HK_CLASSIC)
    bench("hk-classic (section6)", hands, options_for("hk-classic", {"fan_value_set": "section6"}))
    bench("hk-mahjongo", hands, HK_MAHJONGO)
    t0 = time.process_time()
    for i in range(n):
        settle(i % 11, i % 4, WinSource.DISCARD, HK_CLASSIC, discarder=(i + 1) % 4)
    print(f"{'settle (hk-classic)':28s} {(time.process_time() - t0) / n * 1e6:6.2f} µs per call")
    print_peak_memory()


if __name__ == "__main__":
    main()
