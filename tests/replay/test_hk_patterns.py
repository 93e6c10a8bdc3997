"""Patterns the worked examples do not reach, registry integrity, and decomposition basics."""

from __future__ import annotations

import dataclasses

import pytest
from hk_helpers import win
from mjaudit.parts.replay.rulesets.hk import (
    HK_CLASSIC,
    HK_MAHJONGO,
    REGISTRY,
    HKOptions,
    WinSource,
    evaluate,
    evaluate_all,
    options_for,
)
from mjaudit.parts.replay.rulesets.hk.patterns import FAN_TABLES
from mjaudit.parts.replay.rulesets.mahjong.counts import parse, to_counts
from mjaudit.parts.replay.rulesets.mahjong.decompose import Structure, decompose, winning_tiles

SECTION6 = options_for("hk-classic", {"fan_value_set": "section6", "fan_cap": "none"})


def fans(ctx, opts=HK_CLASSIC) -> dict[str, int]:  # type: ignore[no-untyped-def]
    r = evaluate(ctx, opts)
    assert r is not None
    return dict(r.patterns)


def test_every_table_row_has_a_registered_function() -> None:
    for table in FAN_TABLES.values():
        assert {row.id for row in table.rows} <= set(REGISTRY)
    assert len(REGISTRY) == len({row.id for t in FAN_TABLES.values() for row in t.rows})


BIG_WINDS = win("E E E S S S W W W N N N C", "C", "self_draw", seat="S", prevailing="E")


def test_big_four_winds_and_all_honours() -> None:
    assert fans(BIG_WINDS) == {
        "self_draw": 1,
        "concealed_self_draw": 1,
        "no_flowers": 1,
        "prevailing_wind_pung": 1,
        "seat_wind_pung": 1,
        "all_pungs": 3,
        "all_honours": 8,
        "big_four_winds": 8,
        "four_concealed_pungs": 8,
    }
    # section6: the "incl." values absorb wind pungs, all_pungs and concealed_self_draw.
    assert fans(BIG_WINDS, SECTION6) == {
        "no_flowers": 1,
        "all_honours": 18,
        "big_four_winds": 36,
        "four_concealed_pungs": 18,
        "single_wait": 1,  # the lone C was the only wait
    }
    m = fans(BIG_WINDS, HK_MAHJONGO)
    assert m["big_four_winds"] == 10 and m["all_honours"] == 10
    assert "terminals_honours_pungs" not in m  # pure honours is all_honours instead


def test_little_four_winds() -> None:
    ctx = win("E E E S S S W W W N 1m2m3m", "N", seat="N", prevailing="S")
    assert fans(ctx) == {
        "no_flowers": 1,
        "prevailing_wind_pung": 1,
        "half_flush": 3,
        "little_four_winds": 6,
    }
    assert fans(ctx, SECTION6) == {"no_flowers": 1, "half_flush": 3, "little_four_winds": 24}


def test_four_concealed_pungs_needs_self_draw_in_classic_only() -> None:
    ctx = win("2m2m2m 5p5p5p 7s7s7s 9p9p9p N", "N", seat="W")  # discard completes the pair
    assert "four_concealed_pungs" not in fans(ctx)
    assert fans(ctx, HK_MAHJONGO)["four_concealed_pungs"] == 10


def test_heavenly_and_earthly_hands() -> None:
    heavenly = win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", "self_draw", heavenly=True)
    assert fans(heavenly)["heavenly_hand"] == 8
    assert fans(heavenly, HK_MAHJONGO)["heavenly_hand"] == 10
    earthly = win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", seat="S", earthly=True)
    assert fans(earthly)["earthly_hand"] == 8


def test_kong_replacement_patterns() -> None:
    ctx = win(
        "6s7s8s 5m5m 9m9m",
        "9m",
        "self_draw",
        melds=("ckong 4m4m4m4m", "akong 2p2p2p2p <- E"),
        seat="S",
        chain=2,
    )
    got = fans(ctx, HK_MAHJONGO)
    assert got["win_on_kong_replacement"] == 1 and got["consecutive_kong_win"] == 10
    assert "consecutive_kong_win" not in fans(ctx)  # not an hk-classic row
    assert "consecutive_kong_win" not in fans(
        dataclasses.replace(ctx, kong_replacement_chain=1), HK_MAHJONGO
    )


def test_four_kongs_and_all_terminals() -> None:
    ctx = win(
        "9s",
        "9s",
        "self_draw",
        melds=("ckong 1m1m1m1m", "kong 9m9m9m9m <- S", "akong 1p1p1p1p <- W", "ckong 9p9p9p9p"),
    )
    got = fans(ctx, HK_MAHJONGO)
    assert got["four_kongs"] == 10 and got["all_terminals"] == 10 and got["all_pungs"] == 3
    assert "terminals_honours_pungs" not in got


def test_seat_flower_counts_both_groups() -> None:
    ctx = win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", seat="S", flowers="f2 g2 f1")
    assert fans(ctx) == {"all_chows": 1, "seat_flower": 2}


def test_thirteen_orphans_stacking() -> None:
    ctx = win("1m9m1p9p1s9s E S W N C F P", "C", "discard", seat="E")
    assert fans(ctx) == {"thirteen_orphans": 8, "no_flowers": 1}
    assert fans(ctx, SECTION6) == {"thirteen_orphans": 13, "no_flowers": 1}
    assert fans(ctx, HK_MAHJONGO) == {"concealed_hand": 1, "thirteen_orphans": 10}
    # a single wait, but single_wait does not stack with thirteen orphans in hk-classic
    drawn = dataclasses.replace(ctx, source=WinSource.SELF_DRAW)
    assert "single_wait" not in fans(drawn, SECTION6)


def test_single_wait_needs_exactly_one_kind() -> None:
    two_sided = win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", "self_draw")  # 5s or 8s
    assert "single_wait" not in fans(two_sided, SECTION6)
    pair_wait = win("1m2m3m 4m5m6m 3p4p5p 6s7s8s 9p", "9p", "self_draw")
    assert fans(pair_wait, SECTION6)["single_wait"] == 1
    assert "single_wait" not in fans(
        dataclasses.replace(pair_wait, source=WinSource.DISCARD), SECTION6
    )


def test_winning_tile_must_complete_and_sizes_must_match() -> None:
    assert evaluate(win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "1s"), HK_CLASSIC) is None
    assert evaluate(win("1m2m3m 4m5m6m 3p4p5p 6s7s", "9p"), HK_CLASSIC) is None


def test_no_seven_pairs() -> None:
    assert decompose(to_counts(parse("112233m 445566p EE"))) != ()  # as four chows
    assert decompose(to_counts(parse("11m 55m 33p 77p 11s 66s EE"))) == ()


def test_thirteen_orphans_only_without_melds() -> None:
    counts = to_counts(parse("19m19p19s ESWNCFP C"))
    (d,) = decompose(counts)
    assert d.structure is Structure.THIRTEEN_ORPHANS and d.pair == parse("C")[0]


def test_winning_tiles() -> None:
    assert winning_tiles(to_counts(parse("1112345678999m"))) == parse("123456789m")
    # all four 9p held: a pair wait on 9p cannot be drawn
    assert winning_tiles(to_counts(parse("123m 456m 789m 9p")), 1, to_counts(parse("9p9p9p"))) == ()


@pytest.mark.parametrize("opts", [HK_CLASSIC, SECTION6, HK_MAHJONGO])
@pytest.mark.parametrize(("fourth", "pungs"), [("4p5p6p", ()), ("5p5p5p", (0, 1, 2, 13))])
def test_best_split_is_the_highest_raw_fan(
    opts: HKOptions, fourth: str, pungs: tuple[int, ...]
) -> None:
    # 111222333m reads as three pungs or three chows: with a chow beside it the chows win
    # (all_chows), with a pung beside it the pungs win (all_pungs, four concealed pungs).
    ctx = win(f"1m1m1m2m2m2m3m3m3m {fourth} 9s", "9s", "self_draw")
    every = evaluate_all(ctx, opts)
    assert len(every) == 2 and every[0].raw_fan > every[1].raw_fan
    best = evaluate(ctx, opts)
    assert best == every[0]
    assert best is not None and best.decomposition.pungs == pungs
