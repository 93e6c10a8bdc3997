"""Random Hong Kong wins and their scores, recorded once so a faster evaluator can be held
to the old one's exact results (issue 24) without keeping the old code around.

``python tests/replay/hk_fan_record.py`` rewrites ``tests/data/hk-fan-outputs.json.gz``
with the evaluator of the tree it runs in; ``test_hk_fan_recorded.py`` compares. The
hands are stored whole (not a seed), so the fixture does not depend on the generator.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mjaudit.parts.replay.rulesets.hk import (
    HandScore,
    WinContext,
    WinSource,
    evaluate,
    evaluate_all,
    options_for,
)
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, ORPHANS
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind

from bench.fan_eval import random_win

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "hk-fan-outputs.json.gz"

#: (ruleset, overrides): the presets and every option the fan patterns read.
OPTION_SETS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hk-classic", {}),
    ("hk-classic", {"fan_value_set": "section6"}),
    ("hk-classic", {"fan_value_set": "section6", "fan_cap": "none", "all_chows_pair_rule": "any"}),
    (
        "hk-classic",
        {
            "all_chows_pair_rule": "seat_wind_only",
            "concealed_on_discard_fan": 1,
            "flower_set_absorbs_seat_flower": True,
            "last_discard_fan": 2,
            "min_fan": 3,
            "min_fan_counts_bonus": False,
            "fan_cap": 13,
        },
    ),
    ("hk-mahjongo", {}),
    (
        "hk-mahjongo",
        {
            "all_chows_pair_rule": "no_value_pair",
            "concealed_kong_breaks_concealed_hand": False,
            "four_concealed_pungs_allow_kongs": True,
            "nine_gates_pure_wait": True,
            "last_discard_fan": 1,
        },
    ),
    ("hk-mahjongo-2p", {}),
)

_KINDS = list(MeldKind)


def _flags(rng: random.Random, c: WinContext) -> WinContext:
    """``c`` with a random source, timing flags and, where a fourth tile is free, a pung
    turned into an exposed or added kong."""
    held = [0] * 34
    for t in (*c.concealed, c.win_tile):
        held[t] += 1
    for m in c.melds:
        for t in m.tiles:
            held[t] += 1
    melds = list(c.melds)
    for i, m in enumerate(melds):
        if m.kind is MeldKind.PUNG and held[m.tile] == 3 and rng.random() < 0.3:
            melds[i] = Meld(rng.choice([MeldKind.KONG, MeldKind.ADDED_KONG]), m.tile, m.from_seat)
            held[m.tile] = 4
    return WinContext(
        concealed=c.concealed,
        win_tile=c.win_tile,
        source=rng.choice(list(WinSource)),
        melds=tuple(melds),
        seat_wind=c.seat_wind,
        prevailing_wind=c.prevailing_wind,
        flowers=tuple(rng.sample(range(34, 42), rng.choice([0, 1, 2, 4, 5, 8]))),
        kong_replacement_chain=rng.choice([0, 0, 1, 2]),
        last_tile=rng.random() < 0.2,
        heavenly=rng.random() < 0.1,
        earthly=rng.random() < 0.1,
    )


def _special(rng: random.Random) -> WinContext:
    """Hands random sets rarely make: thirteen orphans, nine gates, all honours, and
    fourteen random tiles (mostly no win at all)."""
    kind = rng.randrange(4)
    if kind == 0:
        tiles = [*ORPHANS, rng.choice(ORPHANS)]
    elif kind == 1:
        base = 9 * rng.randrange(3)
        tiles = [base + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
        tiles.append(base + rng.randrange(9))
    elif kind == 2:
        pungs = rng.sample(range(EAST, 34), 5)
        tiles = [t for t in pungs[:4] for _ in range(3)] + [pungs[4]] * 2
    else:
        tiles = [rng.randrange(34) for _ in range(14)]
    win_tile = tiles.pop(rng.randrange(14))
    return WinContext(
        concealed=tuple(sorted(tiles)),
        win_tile=win_tile,
        source=WinSource.SELF_DRAW,
        seat_wind=rng.randrange(4),
        prevailing_wind=rng.randrange(4),
    )


def contexts(n: int = 3000, seed: int = 2424) -> list[WinContext]:
    """``n`` hands: random wins as bench/fan_eval.py draws them, the same with random
    flags, and one in ten a special shape."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 10 == 9:
            out.append(_flags(rng, _special(rng)) if i % 20 == 9 else _special(rng))
        elif i % 2:
            out.append(_flags(rng, random_win(rng)))
        else:
            out.append(random_win(rng))
    return out


def encode_context(c: WinContext) -> list[Any]:
    return [
        list(c.concealed),
        c.win_tile,
        c.source.value,
        [[m.kind.value, m.tile, m.from_seat] for m in c.melds],
        c.seat_wind,
        c.prevailing_wind,
        list(c.flowers),
        c.kong_replacement_chain,
        c.last_tile,
        c.heavenly,
        c.earthly,
    ]


def decode_context(v: list[Any]) -> WinContext:
    return WinContext(
        concealed=tuple(v[0]),
        win_tile=v[1],
        source=WinSource(v[2]),
        melds=tuple(Meld(MeldKind(k), t, s) for k, t, s in v[3]),
        seat_wind=v[4],
        prevailing_wind=v[5],
        flowers=tuple(v[6]),
        kong_replacement_chain=v[7],
        last_tile=v[8],
        heavenly=v[9],
        earthly=v[10],
    )


def encode_score(s: HandScore | None) -> str:
    """A score as one JSON string; JSON keeps 1 and true apart, so a bool where an int was
    (or the reverse) shows as a difference."""
    if s is None:
        return "null"
    d = s.decomposition
    return json.dumps(
        [
            s.patterns,
            s.instances,
            s.raw_fan,
            s.fan,
            s.is_limit,
            s.bonus_fan,
            s.min_fan_basis,
            s.meets_min_fan,
            s.structure.value,
            [d.structure.value, d.pair, d.chows, d.pungs],
        ],
        separators=(",", ":"),
    )


def record() -> dict[str, Any]:
    """Every hand's ``evaluate`` under every option set; ``evaluate_all`` for one in ten."""
    opts = [options_for(r, o) for r, o in OPTION_SETS]
    cases = []
    for i, c in enumerate(contexts()):
        row: list[Any] = [encode_context(c), [encode_score(evaluate(c, o)) for o in opts]]
        if i % 10 == 0:
            row.append([[encode_score(s) for s in evaluate_all(c, o)] for o in opts])
        cases.append(row)
    return {"option_sets": OPTION_SETS, "cases": cases}


if __name__ == "__main__":
    data = json.dumps(record(), separators=(",", ":")).encode()
    FIXTURE.write_bytes(gzip.compress(data, 9, mtime=0))
    print(f"{FIXTURE}: {len(data):,} bytes, {FIXTURE.stat().st_size:,} compressed")
