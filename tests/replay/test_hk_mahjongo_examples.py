"""hk-mahjongo §10 worked examples M1-M11 and the §7.2 Pao examples P1-P3."""

from __future__ import annotations

import pytest
from hk_helpers import SEAT, deltas, win
from mjaudit.parts.replay.rulesets.hk import (
    HK_MAHJONGO,
    HK_MAHJONGO_2P,
    WinSource,
    evaluate,
    false_win_deltas,
    options_for,
    settle,
)

E, S, W, N = (SEAT[x] for x in "ESWN")
SELF, DISCARD, ROBBED = WinSource.SELF_DRAW, WinSource.DISCARD, WinSource.ROBBED_KONG


def _score(ctx, opts=HK_MAHJONGO):  # type: ignore[no-untyped-def]
    result = evaluate(ctx, opts)
    assert result is not None, "expected a winning structure"
    return result


def test_M1_half_flush_minimum() -> None:
    ctx = win("1m2m3m 5m6m7m 8m8m N N", "8m", melds=("pung 3m3m3m <- W",), seat="S")
    r = _score(ctx)
    assert r.patterns == (("half_flush", 3),)
    assert r.fan == 3 and r.meets_min_fan
    assert settle(r.fan, S, DISCARD, HK_MAHJONGO, discarder=E) == deltas(E=-16, S=16)


def test_M2_below_minimum_false_win_and_self_drawn() -> None:
    a = _score(win("2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m", "8s", seat="W"))
    assert dict(a.patterns) == {"all_chows": 1, "concealed_hand": 1}
    assert a.fan == 2 and not a.meets_min_fan  # FALSE_WIN (WIN_BELOW_MIN_FAN)
    assert false_win_deltas(W, HK_MAHJONGO) == deltas(W=-384, E=128, S=128, N=128)
    b = _score(win("2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m", "8s", "self_draw", seat="W"))
    assert dict(b.patterns) == {"all_chows": 1, "concealed_hand": 1, "self_draw": 1}
    assert b.fan == 3 and b.meets_min_fan
    assert settle(b.fan, W, SELF, HK_MAHJONGO) == deltas(E=-8, S=-8, N=-8, W=24)


def test_M3_little_three_dragons() -> None:
    ctx = win(
        "2s3s4s 6p6p P P", "6p", melds=("pung CCC <- E", "pung FFF <- S"), seat="N", prevailing="S"
    )
    r = _score(ctx)
    assert dict(r.patterns) == {"little_three_dragons": 3, "dragon_pung": 2}
    assert r.fan == 5
    assert settle(r.fan, N, DISCARD, HK_MAHJONGO, discarder=W) == deltas(W=-48, N=48)


P_MELDS = ("pung CCC <- S", "pung FFF <- W", "pung PPP <- N")


def test_M4_P1_big_three_dragons_pao_self_drawn() -> None:
    r = _score(win("7m8m 5p5p", "9m", "self_draw", melds=P_MELDS))
    assert dict(r.patterns) == {"big_three_dragons": 5, "dragon_pung": 3, "self_draw": 1}
    assert r.fan == 9
    assert settle(r.fan, E, SELF, HK_MAHJONGO, liable=N) == deltas(N=-288, E=288)
    assert settle(r.fan, E, SELF, HK_MAHJONGO) == deltas(S=-96, W=-96, N=-96, E=288)


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("discarder_pays", deltas(W=-128, E=128)),
        ("liable_pays_all", deltas(N=-128, E=128)),
        ("split_half", deltas(N=-64, W=-64, E=128)),
    ],
)
def test_P1b_pao_on_other_discard(rule: str, expected: tuple[int, ...]) -> None:
    opts = options_for("hk-mahjongo", {"pao_on_other_discard": rule})
    r = _score(win("7m8m 5p5p", "9m", melds=P_MELDS), opts)
    assert r.fan == 8
    assert settle(r.fan, E, DISCARD, opts, discarder=W, liable=N) == expected


def test_P1c_pao_on_liable_players_discard() -> None:
    r = _score(win("7m8m 5p5p", "9m", melds=P_MELDS))
    assert settle(r.fan, E, DISCARD, HK_MAHJONGO, discarder=N, liable=N) == deltas(N=-128, E=128)


def test_M5_P2_later_pao_replaces_earlier() -> None:
    r = _score(win("9m", "9m", "self_draw", melds=(*P_MELDS, "pung 5p5p5p <- W")))
    assert dict(r.patterns) == {
        "big_three_dragons": 5,
        "dragon_pung": 3,
        "all_pungs": 3,
        "self_draw": 1,
    }
    assert (r.raw_fan, r.fan, r.is_limit) == (12, 10, True)
    assert settle(r.fan, E, SELF, HK_MAHJONGO, liable=W) == deltas(W=-384, E=384)


def test_P3_no_pao_normal_payment() -> None:
    assert settle(4, S, SELF, HK_MAHJONGO) == deltas(E=-16, W=-16, N=-16, S=48)


def test_M6_full_flush_all_chows() -> None:
    r = _score(win("1p2p3p 3p4p5p 6p7p8p 9p9p 4p5p", "6p", seat="W", prevailing="S"))
    assert dict(r.patterns) == {"full_flush": 7, "all_chows": 1, "concealed_hand": 1}
    assert r.fan == 9
    assert settle(r.fan, W, DISCARD, HK_MAHJONGO, discarder=S) == deltas(S=-192, W=192)


def test_M7_terminal_and_honour_pungs() -> None:
    ctx = win("9p9p9p 9s9s C C", "C", melds=("pung 1m1m1m <- N", "pung EEE <- W"), seat="S")
    r = _score(ctx)
    assert dict(r.patterns) == {
        "all_pungs": 3,
        "terminals_honours_pungs": 1,
        "dragon_pung": 1,
        "prevailing_wind_pung": 1,
    }
    assert r.fan == 6
    assert settle(r.fan, S, DISCARD, HK_MAHJONGO, discarder=E) == deltas(E=-64, S=64)


def test_M8_robbing_the_kong() -> None:
    r = _score(win("2m3m4m 6p7p8p 4s5s 7s8s9s 8m8m", "6s", "robbed_kong", seat="N"))
    assert dict(r.patterns) == {"all_chows": 1, "concealed_hand": 1, "robbing_the_kong": 1}
    assert r.fan == 3
    assert settle(r.fan, N, ROBBED, HK_MAHJONGO, discarder=S) == deltas(S=-16, N=16)


def test_M9_four_concealed_pungs_self_drawn_vs_discard() -> None:
    a = _score(win("2m2m2m 5p5p5p 7s7s7s 9p9p N N", "N", "self_draw", seat="W"))
    assert dict(a.patterns) == {
        "four_concealed_pungs": 10,
        "all_pungs": 3,
        "concealed_hand": 1,
        "self_draw": 1,
    }
    assert (a.raw_fan, a.fan) == (15, 10)
    assert settle(a.fan, W, SELF, HK_MAHJONGO) == deltas(E=-128, S=-128, N=-128, W=384)
    b = _score(win("2m2m2m 5p5p5p 7s7s7s 9p9p N N", "9p", seat="W"))
    assert dict(b.patterns) == {"all_pungs": 3, "concealed_hand": 1}
    assert settle(b.fan, W, DISCARD, HK_MAHJONGO, discarder=S) == deltas(S=-32, W=32)


def test_M10_last_tile_of_the_wall() -> None:
    ctx = win(
        "1m1m1m 4p5p6p 7p8p9p 3s3s 5s5s", "5s", "self_draw", seat="N", prevailing="S", last=True
    )
    r = _score(ctx)
    assert dict(r.patterns) == {"last_tile_draw": 1, "self_draw": 1, "concealed_hand": 1}
    assert settle(r.fan, N, SELF, HK_MAHJONGO) == deltas(E=-8, S=-8, W=-8, N=24)


def test_M11_two_player_half_flush() -> None:
    r = _score(win("1p2p3p 5p5p5p 7p8p9p E E C C", "C", "self_draw"), HK_MAHJONGO_2P)
    assert dict(r.patterns) == {
        "half_flush": 3,
        "dragon_pung": 1,
        "concealed_hand": 1,
        "self_draw": 1,
    }
    assert r.fan == 6
    assert settle(r.fan, 0, SELF, HK_MAHJONGO_2P) == (64, -64)
    assert settle(r.fan, 0, DISCARD, HK_MAHJONGO_2P, discarder=1) == (64, -64)


def test_two_player_false_win() -> None:
    assert false_win_deltas(1, HK_MAHJONGO_2P) == (256, -256)


def test_score_table_6_1() -> None:
    d = {3: 16, 4: 32, 5: 48, 6: 64, 7: 96, 8: 128, 9: 192, 10: 256}
    for fan, amount in d.items():
        assert settle(fan, S, DISCARD, HK_MAHJONGO, discarder=N) == deltas(N=-amount, S=amount)
        half = amount // 2
        assert settle(fan, S, SELF, HK_MAHJONGO) == deltas(E=-half, W=-half, N=-half, S=3 * half)
