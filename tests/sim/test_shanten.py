"""The bots' shanten estimate agrees with the engine's decomposition where it matters."""

from __future__ import annotations

import random

from mjaudit.parts.replay.rulesets.mahjong.decompose import is_complete, winning_tiles
from mjaudit.parts.replay.sim import REGISTRY
from mjaudit.parts.replay.sim.shanten import orphans_shanten, pung_shanten, shanten


def test_complete_and_waiting_agree_with_decompose() -> None:
    rng = random.Random(4)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(3000):
        rng.shuffle(wall)
        c = [0] * 34
        for t in wall[:14]:
            c[t] += 1
        orphans = orphans_shanten(c) == -1
        assert (shanten(c, 0) == -1 or orphans) == is_complete(c, 0)
        c[wall[0]] -= 1
        if orphans_shanten(c) != 0:
            assert (shanten(c, 0) == 0) == bool(winning_tiles(c, 0))


def test_built_hands() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        c = [0] * 34
        declared = rng.randrange(3)
        for _ in range(4 - declared):
            if rng.random() < 0.5:
                low = rng.randrange(3) * 9 + rng.randrange(7)
                for t in (low, low + 1, low + 2):
                    c[t] += 1
            else:
                c[rng.randrange(34)] += 3
        c[rng.randrange(34)] += 2
        if max(c) > 4:
            continue
        assert shanten(c, declared) == -1
        held = [t for t in range(34) if c[t]]
        c[held[rng.randrange(len(held))]] -= 1
        assert shanten(c, declared) == 0


def test_pung_shanten() -> None:
    c = [0] * 34
    for t, n in ((0, 3), (9, 3), (18, 3), (27, 2), (30, 2)):
        c[t] = n
    assert pung_shanten(c, 0) == 0  # two pairs: a pung wait on either
    c[30] = 3
    assert pung_shanten(c, 0) == -1


def test_registry_lists_the_hong_kong_rulesets() -> None:
    assert {"hk-classic", "hk-mahjongo", "hk-mahjongo-2p"} <= set(REGISTRY)
    assert REGISTRY["hk-mahjongo-2p"].n_players == 2
    assert "pao_feed" in REGISTRY["hk-mahjongo"].violation_kinds
    assert "nine_tile_feed" in REGISTRY["hk-classic"].violation_kinds
