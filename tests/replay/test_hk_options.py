"""Option validation, presets, and that each scoring/payment option changes what it should."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hk_helpers import SEAT, deltas, win
from mjaudit.parts.replay.rulesets.hk import (
    HK_CLASSIC,
    HK_MAHJONGO,
    HK_MAHJONGO_2P,
    PRESETS,
    OptionError,
    WinSource,
    evaluate,
    false_win_deltas,
    options_for,
    settle,
)
from mjaudit.parts.replay.rulesets.hk.options import OPTION_NAMES

E, S, W, N = (SEAT[x] for x in "ESWN")
SELF, DISCARD, ROBBED = WinSource.SELF_DRAW, WinSource.DISCARD, WinSource.ROBBED_KONG


def fans(ctx, opts) -> dict[str, int]:  # type: ignore[no-untyped-def]
    r = evaluate(ctx, opts)
    assert r is not None
    return dict(r.patterns)


# ------------------------------------------------------------------ validation


def test_presets() -> None:
    assert options_for("hk-classic") is HK_CLASSIC
    assert options_for("hk-mahjongo", {}) is HK_MAHJONGO
    assert PRESETS["hk-mahjongo-2p"] is HK_MAHJONGO_2P
    assert (HK_CLASSIC.min_fan, HK_CLASSIC.fan_cap, HK_CLASSIC.reserved_tail_tiles) == (0, 8, 14)
    assert (HK_MAHJONGO.min_fan, HK_MAHJONGO.fan_cap, HK_MAHJONGO.reserved_tail_tiles) == (3, 10, 0)
    assert HK_MAHJONGO.pao_enabled and not HK_MAHJONGO_2P.pao_enabled
    assert HK_MAHJONGO_2P.n_players == 2


def _as_json(value: object) -> object:
    if isinstance(value, tuple):
        return [_as_json(v) for v in value]
    return value


@pytest.mark.parametrize("ruleset", sorted(OPTION_NAMES))
def test_every_option_accepts_its_own_default_as_json(ruleset: str) -> None:
    preset = PRESETS[ruleset]
    for name in OPTION_NAMES[ruleset]:
        assert options_for(ruleset, {name: _as_json(getattr(preset, name))}) == preset, name


def test_unknown_ruleset() -> None:
    with pytest.raises(OptionError, match=r"unknown ruleset 'hk-modern'.*hk-classic"):
        options_for("hk-modern")


@pytest.mark.parametrize(
    ("ruleset", "name"),
    [
        ("hk-classic", "no_such_option"),
        ("hk-mahjongo", "fan_value_set"),  # hk-classic only
        ("hk-mahjongo", "golden_table"),  # 2p only
        ("hk-classic", "score_table"),  # hk-mahjongo only
    ],
)
def test_unknown_option_names_ruleset_and_option(ruleset: str, name: str) -> None:
    with pytest.raises(OptionError, match=f"unknown option '{name}' for {ruleset}"):
        options_for(ruleset, {name: 1})


@pytest.mark.parametrize(
    ("ruleset", "name", "value", "expected"),
    [
        ("hk-classic", "fan_cap", 9, "one of 8, 10, 13, 'none'"),
        ("hk-classic", "min_fan", True, "one of 0, 1, 2, 3"),
        ("hk-classic", "min_fan", "2", "one of 0, 1, 2, 3"),
        ("hk-classic", "base_unit", 0, "a number > 0"),
        ("hk-classic", "no_flowers", 1, None),
        ("hk-classic", "payment_table", "custom", "custom list"),
        ("hk-classic", "payment_table", [1, -2], "custom list"),
        ("hk-classic", "nine_tile_warning", "yes", "true or false"),
        ("hk-classic", "last_five_threshold", 15, "from 1 to 14"),
        ("hk-mahjongo", "min_fan", 2, "one of 3"),
        ("hk-mahjongo", "fan_cap", 8, "one of 10"),
        ("hk-mahjongo", "score_table", [[16, 8]], "8 \\[D, S\\] pairs"),
        ("hk-mahjongo", "false_win_penalty", "flat_x", "flat_N"),
        ("hk-mahjongo", "all_chows_pair_rule", "seat_wind_only", "'any', 'no_value_pair'"),
        ("hk-mahjongo-2p", "two_player_seats", ["E", "N"], "\\['E', 'W'\\]"),
        ("hk-mahjongo-2p", "golden_table", [1, 2, 3], "8 positive numbers"),
    ],
)
def test_bad_values_name_the_option_and_expectation(
    ruleset: str, name: str, value: object, expected: str | None
) -> None:
    with pytest.raises(OptionError) as err:
        options_for(ruleset, {name: value})
    if expected is None:
        assert f"unknown option '{name}'" in str(err.value)
    else:
        assert f"{ruleset} option '{name}'" in str(err.value)
        assert re.search(expected, str(err.value)), str(err.value)


def test_json_lists_become_tuples_and_stay_hashable() -> None:
    o = options_for(
        "hk-mahjongo-2p",
        {"golden_table": [10, 20, 30, 40, 50, 60, 70, 80], "two_player_seats": ["E", "S"]},
    )
    assert o.golden_table == (10, 20, 30, 40, 50, 60, 70, 80)
    assert o.two_player_seats == ("E", "S")
    hash(o)
    assert options_for("hk-classic", {"fan_cap": "none"}).fan_cap is None
    assert options_for("hk-classic", {"dealer_initial_tiles": 14}).dealer_initial_tiles == "14"


# ------------------------------------------------------------------ fan options

C7 = win("1m9m1p9p1s9s E S W N C F P", "9m", "self_draw", seat="W")
C10 = win(
    "2p",
    "2p",
    seat="N",
    flowers="f4",
    melds=("chow 1m2m3m <- W", "pung 7p7p7p <- E", "pung 9s9s9s <- S", "chow 4s5s6s <- W"),
)


def test_fan_cap() -> None:
    r = evaluate(C7, options_for("hk-classic", {"fan_cap": 13}))
    assert r is not None and (r.raw_fan, r.fan, r.is_limit) == (11, 11, False)
    r = evaluate(C7, options_for("hk-classic", {"fan_cap": 10}))
    assert r is not None and (r.fan, r.is_limit) == (10, True)


def test_min_fan_and_min_fan_counts_bonus() -> None:
    r = evaluate(C10, options_for("hk-classic", {"min_fan": 2}))
    assert r is not None and r.meets_min_fan and r.bonus_fan == 1
    r = evaluate(C10, options_for("hk-classic", {"min_fan": 2, "min_fan_counts_bonus": False}))
    assert r is not None and not r.meets_min_fan and r.min_fan_basis == 1 and r.fan == 2


@pytest.mark.parametrize(
    ("rule", "pair", "has"),
    [
        ("no_value_pair", "S", False),  # prevailing wind
        ("seat_wind_only", "S", True),
        ("any", "S", True),
        ("seat_wind_only", "W", False),  # seat wind
        ("no_value_pair", "C", False),
        ("no_value_pair", "N", True),
    ],
)
def test_all_chows_pair_rule(rule: str, pair: str, has: bool) -> None:
    ctx = win(f"1m2m3m 4m5m6m 3p4p5p 6s7s {pair} {pair}", "8s", seat="W", prevailing="S")
    got = fans(ctx, options_for("hk-classic", {"all_chows_pair_rule": rule}))
    assert ("all_chows" in got) is has


def test_mahjongo_all_chows_pair_rule() -> None:
    ctx = win("1m2m3m 4m5m6m 3p4p5p 6s7s C C", "8s", "self_draw", seat="W")
    assert "all_chows" in fans(ctx, HK_MAHJONGO)
    strict = options_for("hk-mahjongo", {"all_chows_pair_rule": "no_value_pair"})
    assert "all_chows" not in fans(ctx, strict)


def test_last_discard_fan() -> None:
    ctx = win("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", "8s", seat="S", last=True)
    assert "last_discard" not in fans(ctx, HK_CLASSIC)
    assert fans(ctx, options_for("hk-classic", {"last_discard_fan": 2}))["last_discard"] == 2
    assert fans(ctx, options_for("hk-mahjongo", {"last_discard_fan": 1}))["last_discard"] == 1
    drawn = dataclasses.replace(ctx, source=SELF)
    assert fans(drawn, HK_CLASSIC)["last_tile_draw"] == 2
    assert fans(drawn, HK_MAHJONGO)["last_tile_draw"] == 1


CKONG_HAND = win("2m2m2m 5p5p5p 7s7s7s N", "N", "self_draw", melds=("ckong 9p9p9p9p",), seat="W")


def test_concealed_kong_breaks_concealed_hand() -> None:
    assert "concealed_hand" not in fans(CKONG_HAND, HK_MAHJONGO)
    off = options_for("hk-mahjongo", {"concealed_kong_breaks_concealed_hand": False})
    assert fans(CKONG_HAND, off)["concealed_hand"] == 1


def test_four_concealed_pungs_allow_kongs() -> None:
    assert "four_concealed_pungs" not in fans(CKONG_HAND, HK_MAHJONGO)
    on = options_for("hk-mahjongo", {"four_concealed_pungs_allow_kongs": True})
    assert fans(CKONG_HAND, on)["four_concealed_pungs"] == 10
    assert fans(CKONG_HAND, HK_CLASSIC)["four_concealed_pungs"] == 8  # allowed in hk-classic


def test_nine_gates_pure_wait() -> None:
    pure = win("1m1m1m 2m3m4m5m6m7m8m 9m9m9m", "5m", "self_draw")
    impure = win("1m1m1m 2m3m4m5m5m6m7m8m 9m9m", "9m", "self_draw")
    strict = options_for("hk-mahjongo", {"nine_gates_pure_wait": True})
    assert fans(pure, HK_MAHJONGO)["nine_gates"] == 10
    assert fans(impure, HK_MAHJONGO)["nine_gates"] == 10
    assert fans(pure, strict)["nine_gates"] == 10
    assert "nine_gates" not in fans(impure, strict)
    assert "nine_gates" not in fans(pure, HK_CLASSIC)  # not an hk-classic row


# ------------------------------------------------------------------ payment options


def test_payment_table() -> None:
    for table, p5 in (("half_spicy", 24), ("spicy", 32), ("tiered", 16), ([1, 2, 3, 5], 5)):
        o = options_for("hk-classic", {"payment_table": table})
        assert settle(5, S, SELF, o) == deltas(E=-2 * p5, W=-2 * p5, N=-2 * p5, S=6 * p5)


def test_base_unit() -> None:
    o = options_for("hk-classic", {"base_unit": 0.5})
    assert settle(3, S, DISCARD, o, discarder=E) == deltas(E=-8.0, W=-4.0, N=-4.0, S=16.0)
    m = options_for("hk-mahjongo", {"base_unit": 10})
    assert settle(3, S, DISCARD, m, discarder=E) == deltas(E=-160, S=160)  # ans.fyi table
    assert settle(10, S, SELF, m) == deltas(E=-1280, W=-1280, N=-1280, S=3840)


def test_dealer_multiplier() -> None:
    o = options_for("hk-classic", {"dealer_multiplier": 2})
    assert settle(1, E, SELF, o) == deltas(S=-8, W=-8, N=-8, E=24)
    assert settle(1, S, DISCARD, o, discarder=E) == deltas(E=-8, W=-2, N=-2, S=12)
    assert settle(1, S, DISCARD, o, discarder=W) == deltas(E=-4, W=-4, N=-2, S=10)


def test_robbing_kong_payment_mahjongo() -> None:
    assert settle(3, N, ROBBED, HK_MAHJONGO, discarder=S) == deltas(S=-16, N=16)
    o = options_for("hk-mahjongo", {"robbing_kong_payment": "konger_pays_all"})
    assert settle(3, N, ROBBED, o, discarder=S) == deltas(S=-24, N=24)


def test_score_table() -> None:
    spicy = options_for("hk-mahjongo", {"score_table": "spicy_full_resp"})
    assert settle(5, S, DISCARD, spicy, discarder=E) == deltas(E=-64, S=64)
    custom = options_for("hk-mahjongo", {"score_table": [[10 * f, 4 * f] for f in range(3, 11)]})
    assert settle(5, S, DISCARD, custom, discarder=E) == deltas(E=-50, S=50)
    assert settle(5, S, SELF, custom) == deltas(E=-20, W=-20, N=-20, S=60)


def test_golden_table() -> None:
    o = options_for("hk-mahjongo-2p", {"golden_table": [3, 4, 5, 6, 7, 8, 9, 10]})
    assert settle(6, 1, SELF, o) == (-6, 6)
    assert false_win_deltas(0, o) == (-10, 10)


def test_false_win_penalty() -> None:
    assert false_win_deltas(
        N, options_for("hk-classic", {"false_win_penalty": "flat_32"})
    ) == deltas(N=-96, E=32, S=32, W=32)
    assert false_win_deltas(
        N, options_for("hk-classic", {"false_win_penalty": "max_self_draw"})
    ) == deltas(N=-384, E=128, S=128, W=128)
    total = options_for("hk-mahjongo", {"false_win_penalty": "max_self_draw_total"})
    assert false_win_deltas(E, total) == deltas(E=-1152, S=384, W=384, N=384)
    flat = options_for("hk-mahjongo", {"false_win_penalty": "flat_50"})
    assert false_win_deltas(E, flat) == deltas(E=-150, S=50, W=50, N=50)


def test_classic_pao_on_other_discard() -> None:
    # hk-classic §6.2: the liable player pays the whole 4P even on another's discard.
    assert settle(2, E, DISCARD, HK_CLASSIC, discarder=W, liable=N) == deltas(N=-16, E=16)
    o = options_for("hk-classic", {"pao_on_other_discard": "discarder_pays"})
    assert settle(2, E, DISCARD, o, discarder=W, liable=N) == deltas(W=-8, S=-4, N=-4, E=16)
    o = options_for("hk-classic", {"pao_on_other_discard": "split_half"})
    assert settle(2, E, DISCARD, o, discarder=W, liable=N) == deltas(W=-8, N=-8, E=16)


def test_settle_rejects_inconsistent_seats() -> None:
    with pytest.raises(ValueError, match="discarder"):
        settle(1, S, DISCARD, HK_CLASSIC)
    with pytest.raises(ValueError, match="discarder"):
        settle(1, S, DISCARD, HK_CLASSIC, discarder=S)
    with pytest.raises(ValueError, match="out of range"):
        settle(1, 2, SELF, HK_MAHJONGO_2P)


# One non-default value per option (JSON form). Options that only the replay loop reads
# (wall, rotation, nine-tile, last-five, Pao triggers, audit policy) are checked here to
# land in their field; the tests above check what the scoring options do.
ALTERNATIVE: dict[str, object] = {
    "reserved_tail_tiles": 7,
    "dealer_initial_tiles": "13+draw",
    "min_fan": 1,
    "min_fan_counts_bonus": False,
    "fan_cap": 13,
    "fan_value_set": "section6",
    "all_chows_pair_rule": ["no_value_pair", "any"],
    "concealed_on_discard_fan": 1,
    "flower_set_absorbs_seat_flower": True,
    "last_discard_fan": 1,
    "concealed_kong_breaks_concealed_hand": False,
    "four_concealed_pungs_allow_kongs": True,
    "nine_gates_pure_wait": True,
    "payment_table": "spicy",
    "score_table": "spicy_full_resp",
    "golden_table": [1, 2, 3, 4, 5, 6, 7, 8],
    "base_unit": 2,
    "dealer_multiplier": 2,
    "robbing_kong_payment": "konger_pays_all",
    "multiple_winners": True,
    "rob_concealed_kong_for_thirteen_orphans": True,
    "dealer_on_draw": "rotate",
    "nine_tile_warning": False,
    "nine_tile_requires_declaration": True,
    "nine_tile_counts_concealed_kongs": True,
    "nine_tile_pays_on_half_flush": True,
    "nine_tile_second_warning_exemption": "holding_one_suit",
    "last_five_tiles_penalty": True,
    "last_five_threshold": 3,
    "concealed_kong_visible": False,
    "false_win_effect": "continue_dead",
    "pao_enabled": False,
    "pao_third_dragon": False,
    "pao_fourth_wind": True,
    "pao_twelve_tiles": True,
    "pao_fourth_set": False,
    "pao_fourth_set_counts_concealed_kongs": False,
    "pao_on_other_discard": "split_half",
    "false_win_penalty": ["flat_32", "max_self_draw"],
    "draw_mismatch_policy": "wrong_position",
    "violations_are_hard_errors": True,
    "two_player_seats": ["E", "S"],
}
FIXED = {"hk-mahjongo": {"min_fan", "fan_cap", "pao_on_self_draw"}}
FIXED["hk-mahjongo-2p"] = FIXED["hk-mahjongo"]


@pytest.mark.parametrize("ruleset", sorted(OPTION_NAMES))
def test_every_option_changes_its_field(ruleset: str) -> None:
    preset = PRESETS[ruleset]
    for name in sorted(OPTION_NAMES[ruleset] - FIXED.get(ruleset, set())):
        default = getattr(preset, name)
        if isinstance(default, bool):
            value: object = not default
        else:
            alternatives = ALTERNATIVE[name]
            if name not in ("golden_table", "two_player_seats") and isinstance(alternatives, list):
                value = next(v for v in alternatives if v != default)
            else:
                value = alternatives
        changed = options_for(ruleset, {name: value})
        diff = {
            f.name
            for f in dataclasses.fields(preset)
            if getattr(changed, f.name) != getattr(preset, f.name)
        }
        assert diff == {name}, (name, value)
