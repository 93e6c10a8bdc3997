"""Microseconds per vn-160 win evaluation with 0, 1, 2, 3 and 4 khung (jokers) in the hand.

Run: ``.venv/bin/python bench/khung_eval.py [--hands N] [--rounds R] [--seed S]``. Hands are
random complete hands (four sets and a pair, some sets declared, a third of them in one
suit); for k khung, k concealed tiles are replaced by khung whose domain holds them (a
narrow one mostly, BT/RU one time in four). Contexts are built before timing, so the
figures are :func:`replay.vn160.scoring.evaluate` alone (best reading over every khung
reading and split, patterns, wait set) and, for comparison, the bare
:func:`replay.vn160.khung.is_winning` test. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.vn160.khung import is_winning, khung_domain
from mjaudit.parts.replay.rulesets.vn160.options import VN160_DEFAULTS
from mjaudit.parts.replay.rulesets.vn160.patterns import VNMeld, VNWin
from mjaudit.parts.replay.rulesets.vn160.scoring import evaluate, split_hand
from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX

from bench.common import add_smoke, print_peak_memory
from bench.fan_eval import random_win

NARROW = ("BM", "BP", "BS", "RW", "RD")
WIDE = ("BT", "RU")


def vn_win(rng: random.Random, n_khung: int) -> VNWin:
    """A random complete vn-160 hand with ``n_khung`` concealed tiles read by khung."""
    while True:
        hk = random_win(rng)
        tiles = [*hk.concealed, hk.win_tile]
        if len(tiles) >= n_khung:
            break
    used: set[str] = set()
    for i in rng.sample(range(len(tiles)), n_khung):
        t = tiles[i]
        fitting = [c for c in NARROW + WIDE if t in khung_domain(c) and c not in used]
        wide = [c for c in fitting if c in WIDE]
        narrow = [c for c in fitting if c in NARROW]
        pick = wide if (wide and (rng.random() < 0.25 or not narrow)) else narrow
        if not pick:
            pick = [c + "2" for c in NARROW + WIDE if t in khung_domain(c) and c + "2" not in used]
        code = rng.choice(pick)
        used.add(code)
        tiles[i] = INDEX[code]
    win_tile = tiles.pop(rng.randrange(len(tiles)))
    melds = tuple(VNMeld(m, m.tiles) for m in hk.melds)
    return VNWin(
        concealed=tuple(sorted(tiles)),
        win_tile=win_tile,
        source=rng.choice([WinSource.SELF_DRAW, WinSource.DISCARD]),
        melds=melds,
        seat_number=rng.randint(1, 4),
        declared=tuple(
            (t, rng.random() < 0.5) for t in rng.sample([34, 35, 50, 55], rng.randint(0, 2))
        ),
    )


def bench(label: str, hands: list[VNWin], rounds: int) -> None:
    opts = VN160_DEFAULTS
    for ctx in hands[:100]:
        evaluate(ctx, opts)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for ctx in hands:
            evaluate(ctx, opts)
        best = min(best, time.perf_counter() - t0)
    split = [(*split_hand([*c.concealed, c.win_tile]), len(c.melds)) for c in hands]
    best_win = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for nat, khung, n_melds in split:
            is_winning(nat, khung, n_melds)
        best_win = min(best_win, time.perf_counter() - t0)
    n = len(hands)
    print(
        f"{label:10s} evaluate {best / n * 1e6:8.1f} µs   is_winning {best_win / n * 1e6:7.1f} µs"
        f"   {n / best:,.0f} hands/s   ({n} hands, best of {rounds})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per khung count")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds (best is kept)")
    parser.add_argument("--seed", type=int, default=20261130)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.hands, args.rounds = 5, 1
    rng = random.Random(args.seed)
    for k in range(5):
        hands = [vn_win(rng, k) for _ in range(args.hands)]
        assert all(evaluate(h, VN160_DEFAULTS) is not None for h in hands)
        bench(f"{k} khung", hands, args.rounds)
    print_peak_memory()


if __name__ == "__main__":
    main()
