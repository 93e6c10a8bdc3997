"""hk-classic §10 worked examples C1-C10 and the §7 penalty/liability examples."""

from __future__ import annotations

import dataclasses

from hk_helpers import SEAT, deltas, win
from mjaudit.parts.replay.rulesets.hk import (
    HK_CLASSIC,
    WinSource,
    evaluate,
    false_win_deltas,
    options_for,
    settle,
)

E, S, W, N = (SEAT[x] for x in "ESWN")
SELF, DISCARD = WinSource.SELF_DRAW, WinSource.DISCARD


def _score(ctx, opts=HK_CLASSIC):  # type: ignore[no-untyped-def]
    result = evaluate(ctx, opts)
    assert result is not None, "expected a winning structure"
    return result


def test_C1_chicken_hand() -> None:
    ctx = win("2m3m4m 7s8s9s 3p4p 1m1m", "2p", melds=("pung 5p5p5p <- S",), seat="W", flowers="f1")
    r = _score(ctx)
    assert r.patterns == (("chicken_hand", 0),)
    assert (r.raw_fan, r.fan) == (0, 0)
    assert settle(r.fan, W, DISCARD, HK_CLASSIC, discarder=N) == deltas(N=-2, E=-1, S=-1, W=4)


def test_C2_all_chows_concealed_self_drawn() -> None:
    r = _score(win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", "self_draw", seat="S"))
    assert dict(r.patterns) == {
        "all_chows": 1,
        "self_draw": 1,
        "concealed_self_draw": 1,
        "no_flowers": 1,
    }
    assert (r.raw_fan, r.fan) == (4, 4)
    assert settle(r.fan, S, SELF, HK_CLASSIC) == deltas(E=-32, W=-32, N=-32, S=96)


def test_C3_seed_example_single_wait() -> None:
    ctx = win("1m2m3m 6m8m 4p5p6p 2s3s4s 5s5s", "7m", "self_draw", seat="S", flowers="f3")
    r = _score(ctx)
    assert dict(r.patterns) == {"all_chows": 1, "self_draw": 1, "concealed_self_draw": 1}
    assert r.fan == 3
    assert settle(r.fan, S, SELF, HK_CLASSIC) == deltas(E=-16, W=-16, N=-16, S=48)
    r6 = _score(ctx, options_for("hk-classic", {"fan_value_set": "section6"}))
    assert dict(r6.patterns) == {"single_wait": 1, "all_chows": 1, "concealed_self_draw": 1}
    assert r6.fan == 3


def test_C4_little_three_dragons() -> None:
    ctx = win(
        "1s2s3s 7p7p P P",
        "7p",
        melds=("pung CCC <- E", "pung FFF <- W"),
        seat="N",
        prevailing="S",
        flowers="g2",
    )
    r = _score(ctx)
    assert dict(r.patterns) == {"dragon_pung": 2, "little_three_dragons": 3}
    assert r.instances.count("dragon_pung") == 2
    assert (r.raw_fan, r.fan) == (5, 5)
    assert settle(r.fan, N, DISCARD, HK_CLASSIC, discarder=S) == deltas(S=-48, E=-24, W=-24, N=96)
    r6 = _score(ctx, options_for("hk-classic", {"fan_value_set": "section6"}))
    assert r6.patterns == (("little_three_dragons", 6),)
    assert settle(r6.fan, N, DISCARD, HK_CLASSIC, discarder=S)[N] == 4 * 32


def test_C5_all_pungs_double_wind_self_drawn() -> None:
    ctx = win("2p2p2p 9s9s9s 5m5m 7m7m", "7m", "self_draw", melds=("pung EEE <- N",))
    r = _score(ctx)
    assert dict(r.patterns) == {
        "all_pungs": 3,
        "seat_wind_pung": 1,
        "prevailing_wind_pung": 1,
        "self_draw": 1,
        "no_flowers": 1,
    }
    assert r.fan == 7
    assert settle(r.fan, E, SELF, HK_CLASSIC) == deltas(S=-96, W=-96, N=-96, E=288)


def test_C6_full_flush_concealed_on_discard() -> None:
    ctx = win("1s1s1s 2s3s4s 5s6s7s 8s8s 9s9s", "9s", seat="N", prevailing="S", flowers="f1")
    r = _score(ctx)
    assert r.patterns == (("full_flush", 6),)
    assert settle(r.fan, N, DISCARD, HK_CLASSIC, discarder=W) == deltas(W=-64, E=-32, S=-32, N=128)
    opts = options_for("hk-classic", {"concealed_on_discard_fan": 1})
    r1 = _score(ctx, opts)
    assert r1.raw_fan == 7
    assert settle(r1.fan, N, DISCARD, opts, discarder=W) == deltas(W=-96, E=-48, S=-48, N=192)


def test_C7_thirteen_orphans_capped() -> None:
    r = _score(win("1m9m1p9p1s9s E S W N C F P", "9m", "self_draw", seat="W"))
    assert dict(r.patterns) == {
        "thirteen_orphans": 8,
        "self_draw": 1,
        "concealed_self_draw": 1,
        "no_flowers": 1,
    }
    assert (r.raw_fan, r.fan, r.is_limit) == (11, 8, True)
    assert settle(r.fan, W, SELF, HK_CLASSIC) == deltas(E=-128, S=-128, N=-128, W=384)


def test_C8_kong_replacement_with_flower_set() -> None:
    ctx = win(
        "6s7s8s 5m5m 9m9m",
        "9m",
        "self_draw",
        melds=("chow 2p3p4p <- E", "ckong 4m4m4m4m"),
        seat="S",
        flowers="f1 f2 f3 f4",
        chain=1,
    )
    r = _score(ctx)
    assert dict(r.patterns) == {
        "win_on_kong_replacement": 1,
        "self_draw": 1,
        "seat_flower": 1,
        "flower_set": 2,
    }
    assert r.fan == 5
    assert settle(r.fan, S, SELF, HK_CLASSIC) == deltas(E=-48, W=-48, N=-48, S=144)
    absorb = options_for("hk-classic", {"flower_set_absorbs_seat_flower": True})
    assert _score(ctx, absorb).fan == 4


def test_C9_big_three_dragons_capped() -> None:
    ctx = win("P P 3m4m5m 8p8p", "P", melds=("pung CCC <- N", "pung FFF <- S"), flowers="g1")
    r = _score(ctx)
    assert dict(r.patterns) == {"big_three_dragons": 6, "dragon_pung": 3, "seat_flower": 1}
    assert (r.raw_fan, r.fan) == (10, 8)
    assert settle(r.fan, E, DISCARD, HK_CLASSIC, discarder=W) == deltas(W=-128, N=-64, S=-64, E=256)
    opts = options_for("hk-classic", {"fan_value_set": "section6", "fan_cap": "none"})
    r6 = _score(ctx, opts)
    assert dict(r6.patterns) == {"big_three_dragons": 9, "seat_flower": 1}
    assert (r6.raw_fan, r6.fan, r6.is_limit) == (10, 10, False)
    assert settle(r6.fan, E, DISCARD, opts, discarder=W) == deltas(W=-256, N=-128, S=-128, E=512)


def test_C10_fully_claimed() -> None:
    ctx = win(
        "2p",
        "2p",
        seat="N",
        flowers="f4",
        melds=("chow 1m2m3m <- W", "pung 7p7p7p <- E", "pung 9s9s9s <- S", "chow 4s5s6s <- W"),
    )
    r = _score(ctx)
    assert dict(r.patterns) == {"fully_claimed": 1, "seat_flower": 1}
    assert r.fan == 2
    assert settle(r.fan, N, DISCARD, HK_CLASSIC, discarder=E) == deltas(E=-8, S=-4, W=-4, N=16)


def test_F1_false_win_incomplete_hand() -> None:
    ctx = win("1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s", "6s", "self_draw", seat="S")
    assert evaluate(ctx, HK_CLASSIC) is None  # WIN_HAND_INCOMPLETE
    assert false_win_deltas(S, HK_CLASSIC) == deltas(S=-192, E=64, W=64, N=64)


def test_F2_below_min_fan() -> None:
    opts = options_for("hk-classic", {"min_fan": 3})
    ctx = win("2m3m4m 7s8s9s 3p4p 1m1m", "2p", melds=("pung 5p5p5p <- S",), seat="W", flowers="f1")
    r = _score(ctx, opts)
    assert not r.meets_min_fan
    assert false_win_deltas(W, opts) == deltas(W=-192, E=64, S=64, N=64)


def test_N1_nine_tile_liability_on_discard() -> None:
    ctx = win(
        "7s7s 9s9s",
        "9s",
        seat="W",
        flowers="g4",
        melds=("pung 2s2s2s <- N", "chow 4s5s6s <- S", "pung 8s8s8s <- E"),
    )
    r = _score(ctx)
    assert r.patterns == (("full_flush", 6),)
    assert settle(r.fan, W, DISCARD, HK_CLASSIC, discarder=N) == deltas(N=-64, E=-32, S=-32, W=128)
    assert settle(r.fan, W, DISCARD, HK_CLASSIC, discarder=N, liable=N) == deltas(N=-128, W=128)


def test_N2_nine_tile_liability_kong_replacement() -> None:
    ctx = win(
        "7s",
        "7s",
        "self_draw",
        seat="W",
        flowers="g4",
        chain=1,
        melds=("pung 2s2s2s <- N", "chow 4s5s6s <- S", "pung 8s8s8s <- E", "kong 9s9s9s9s <- N"),
    )
    r = _score(ctx)
    assert dict(r.patterns) == {"full_flush": 6, "self_draw": 1, "win_on_kong_replacement": 1}
    assert r.fan == 8
    assert settle(r.fan, W, SELF, HK_CLASSIC) == deltas(E=-128, S=-128, N=-128, W=384)
    assert settle(r.fan, W, SELF, HK_CLASSIC, liable=N) == deltas(N=-384, W=384)


def test_N3_second_warner_pays_normally() -> None:
    # No liability for the second warner: the replay loop passes liable=None.
    assert settle(6, W, DISCARD, HK_CLASSIC, discarder=E) == deltas(E=-64, S=-32, N=-32, W=128)
    assert settle(6, S, DISCARD, HK_CLASSIC, discarder=E, liable=E) == deltas(E=-128, S=128)


def test_L1_last_five_tiles_liability() -> None:
    ctx = win(
        "3s4s5s 8s8s8s C",
        "C",
        flowers="f1",
        melds=("pung 2m2m2m <- S", "chow 5p6p7p <- N"),
        last=False,
    )
    r = _score(ctx)
    assert r.patterns == (("seat_flower", 1),)
    assert settle(r.fan, E, DISCARD, HK_CLASSIC, discarder=N) == deltas(N=-4, S=-2, W=-2, E=8)
    assert settle(r.fan, E, DISCARD, HK_CLASSIC, discarder=N, liable=N) == deltas(N=-8, E=8)


def test_D1_dead_hand_pays_like_any_loser() -> None:
    assert settle(2, E, SELF, HK_CLASSIC) == deltas(S=-8, W=-8, N=-8, E=24)


def test_settlement_table_6_3() -> None:
    p = {0: 1, 1: 2, 2: 4, 3: 8, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64}
    for fan, pts in p.items():
        assert settle(fan, S, DISCARD, HK_CLASSIC, discarder=W) == deltas(
            W=-2 * pts, E=-pts, N=-pts, S=4 * pts
        )
        assert settle(fan, S, SELF, HK_CLASSIC) == deltas(
            E=-2 * pts, W=-2 * pts, N=-2 * pts, S=6 * pts
        )


def test_robbing_the_kong_pays_as_discard() -> None:
    r = settle(3, N, WinSource.ROBBED_KONG, HK_CLASSIC, discarder=S)
    assert r == deltas(S=-16, E=-8, W=-8, N=32)
    alt = dataclasses.replace(HK_CLASSIC, robbing_kong_payment="konger_pays_all")
    assert settle(3, N, WinSource.ROBBED_KONG, alt, discarder=S) == deltas(S=-48, N=48)
