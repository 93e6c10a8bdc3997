"""Microseconds per whole-card match (american.md §5.3/§5.5): which card hand 14 tiles are.

Run: ``.venv/bin/python bench/card_match.py [n_hands]``. The card is the §6 sample card
(10 hands) and a 60-hand card made of six renamed copies of it (the size of a real NMJL
card; ~2,600 compiled bindings). Hands are a binding's tiles with random jokers in the
groups of 3-6 and, for half of them, one tile changed (so most do not match), each with
0-2 exposures. The figure is ``best_match`` alone; timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjaudit.parts.replay.rulesets.american.card import Card, sample_card
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape, best_match, compile_card
from mjaudit.parts.replay.rulesets.american.tiles import JOKER_KIND, N_KINDS

from bench.common import add_smoke, print_peak_memory


def big_card(base: Card, copies: int = 6) -> Card:
    hands = []
    for c in range(copies):
        for h in base.hands:
            hands.append(dataclasses.replace(h, id=f"{h.id}-{c}", index=len(hands)))
    return Card(f"{base.card_id}-x{copies}", tuple(hands), by_id={h.id: h for h in hands})


def random_case(card: Card, rng: random.Random) -> tuple[list[int], list[ExposureShape]]:
    hand = rng.choice(card.hands)
    b = rng.choice(hand.bindings)
    concealed = [0] * N_KINDS
    exposures: list[ExposureShape] = []
    for k, n in b.groups:
        jokers = rng.randint(0, n - 1) if n >= 3 and rng.random() < 0.5 else 0
        if n >= 3 and not hand.concealed and len(exposures) < 2 and rng.random() < 0.3:
            exposures.append(ExposureShape(k, n, jokers))
            continue
        concealed[k] += n - jokers
        concealed[JOKER_KIND] += jokers
    if rng.random() < 0.5:
        present = [t for t in range(N_KINDS) if concealed[t]]
        concealed[rng.choice(present)] -= 1
        concealed[rng.randrange(N_KINDS - 1)] += 1
    return concealed, exposures


def run(card: Card, n: int, rng: random.Random) -> None:
    compile_card(card)
    cases = [random_case(card, rng) for _ in range(n)]
    start = time.perf_counter()
    hits = 0
    for concealed, exposures in cases:
        if best_match(card, concealed, exposures) is not None:
            hits += 1
    elapsed = time.perf_counter() - start
    rows = sum(len(h.bindings) for h in card.hands)
    print(
        f"{card.card_id:28s} {len(card.hands):3d} hands {rows:5d} bindings: "
        f"{elapsed / n * 1e6:7.1f} µs per whole-card match, {n / elapsed:,.0f} matches/s "
        f"({hits}/{n} matched)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n_hands", type=int, nargs="?", default=20_000)
    add_smoke(ap)
    args = ap.parse_args()
    n = 50 if args.smoke else args.n_hands
    rng = random.Random(2031)
    base = sample_card()
    run(base, n, rng)
    run(big_card(base), n, rng)
    print_peak_memory()


if __name__ == "__main__":
    main()
