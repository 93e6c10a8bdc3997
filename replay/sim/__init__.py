"""``mjaudit simulate``: club sittings played by bots, written as ``mjlog/1`` records.

Each ruleset registers a :class:`~replay.sim.core.RulesetSimulator` (the Hong Kong ones in
:mod:`replay.sim.hk_play`); :func:`simulate` sets up one club (named members with their
own habits, a venue, an evening schedule spread over months) and plays ``games`` whole
sittings, yielding every hand's canonical record with the labels of any violation planted
in it. Same arguments, same output, byte for byte: the only randomness is
``random.Random(seed)``, and nothing reads the clock.

Labels never go into the log: :func:`write_simulation` writes them to a sidecar file so
the auditor can be scored against them (``bench/accuracy.py``, ``tests/sim``).
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from mjaudit.parts.replay.sim import american_play as _american_play  # noqa: F401  (registers american)
from mjaudit.parts.replay.sim import chan_play as _chan_play  # noqa: F401  (registers the chắn simulator)
from mjaudit.parts.replay.sim import hk_play as _hk_play  # noqa: F401  (registers the Hong Kong rulesets)
from mjaudit.parts.replay.sim import vn160_play as _vn160_play  # noqa: F401  (registers vn-160)
from mjaudit.parts.replay.sim.core import REGISTRY, Label, SimulationError, club_members, sittings
from mjaudit.parts.schemas.records import canonical_json

__all__ = [
    "REGISTRY",
    "Label",
    "SimulationError",
    "SimulationSummary",
    "labels_path",
    "simulate",
    "simulate_sittings",
    "write_simulation",
]


def rulesets() -> tuple[str, ...]:
    """The rulesets the simulator can play."""
    return tuple(sorted(REGISTRY))


def _play_one(
    ruleset: str, sitting: Any, seed: int, violations: float
) -> list[tuple[dict[str, Any], list[Label]]]:
    """One sitting, in a worker process (module level so it can be pickled)."""
    sim = REGISTRY[ruleset]
    return list(sim.play(sitting, random.Random(seed), violations))


def simulate_sittings(
    ruleset: str,
    games: int,
    seed: int = 0,
    players: int = 12,
    violations: float = 0.0,
    workers: int = 1,
) -> Iterator[tuple[dict[str, Any], list[Label]]]:
    """Like :func:`simulate`, with the labels as :class:`Label` values.

    Each sitting is played from its own seed, drawn in order from the club's generator,
    so ``workers`` > 1 plays sittings in parallel (spawned processes) and yields exactly
    the same hands in the same order.
    """
    sim = REGISTRY.get(ruleset)
    if sim is None:
        known = ", ".join(rulesets())
        raise ValueError(f"no simulator for ruleset {ruleset!r} (available: {known})")
    if games < 0:
        raise ValueError("games must be >= 0")
    if not 0.0 <= violations <= 1.0:
        raise ValueError("violations is a share of hands, from 0 to 1")
    rng = random.Random(seed)
    members = club_members(rng, players, sim.make_style)
    plan = [(sitting, rng.getrandbits(64)) for sitting in sittings(sim, games, rng, members)]
    if workers <= 1 or len(plan) < 2:
        for sitting, sitting_seed in plan:
            yield from sim.play(sitting, random.Random(sitting_seed), violations)
        return
    ctx = multiprocessing.get_context("spawn")  # polars and fork can deadlock
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for hands in pool.map(
            _play_one,
            [ruleset] * len(plan),
            [s for s, _ in plan],
            [k for _, k in plan],
            [violations] * len(plan),
            chunksize=4,
        ):
            yield from hands


def simulate(
    ruleset: str,
    games: int,
    seed: int = 0,
    players: int = 12,
    violations: float = 0.0,
    workers: int = 1,
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Play ``games`` sittings of ``ruleset`` with a club of ``players`` members.

    Yields (canonical hand record, labels) per hand, in game and hand order. About
    ``violations`` of the hands carry one planted rule break; its labels (JSON-ready dicts:
    game_id, hand_no, event_index, code, class, seat, violation, reason, note) say what
    the replayer should report. Raises ValueError for an unknown ruleset or bad numbers.
    """
    for record, labels in simulate_sittings(ruleset, games, seed, players, violations, workers):
        yield record, [label.to_json() for label in labels]


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    path: Path
    labels_path: Path
    hands: int
    games: int
    labels: int


def labels_path(path: str | Path) -> Path:
    """``sim.jsonl`` -> ``sim.labels.jsonl`` (any other name gets ``.labels.jsonl`` added)."""
    p = Path(path)
    if p.name.endswith(".jsonl"):
        return p.with_name(p.name[: -len(".jsonl")] + ".labels.jsonl")
    return p.with_name(p.name + ".labels.jsonl")


def write_simulation(
    path: str | Path,
    ruleset: str,
    games: int,
    seed: int = 0,
    players: int = 12,
    violations: float = 0.0,
    workers: int = 1,
    on_hand: Callable[[int], None] = lambda sittings_done: None,
) -> SimulationSummary:
    """Write the records to ``path`` (JSON Lines, sorted keys) and the labels beside it.

    ``on_hand(sittings_done)`` follows each hand written (for a progress display): the
    sittings finished before this hand's (a sitting is done when the next one's first hand
    comes; the last one when the function returns).
    """
    if ruleset not in REGISTRY:  # before any file is created
        raise ValueError(
            f"no simulator for ruleset {ruleset!r} (available: {', '.join(rulesets())})"
        )
    out = Path(path)
    side = labels_path(out)
    enc = msgspec.json.Encoder(order="sorted")
    hands = n_labels = 0
    game_ids: set[str] = set()
    with out.open("wb") as f, side.open("wb") as g:
        for record, labels in simulate_sittings(ruleset, games, seed, players, violations, workers):
            f.write(canonical_json(record) + b"\n")
            hands += 1
            game_ids.add(record["game_id"])
            on_hand(len(game_ids) - 1)
            for label in labels:
                g.write(enc.encode(label.to_json()) + b"\n")
                n_labels += 1
    return SimulationSummary(out, side, hands, len(game_ids), n_labels)
