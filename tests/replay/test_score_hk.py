"""``mjaudit score`` for the Hong Kong presets: every worked example, from notation alone.

One test per example of hk-classic §10 (C1-C10 and the penalty table F1, F2, N1, N2, L1)
and hk-mahjongo §10 (M1-M11, with P1b/P1c of §7.2), each written as the notation and
flags a referee would type, asserting the fan and the payments the rules file states.
The liable seat of N1/N2/L1/M4/M5 comes from play before the win, so it is given as
``liable`` (``--liable``). Then the errors: every bad token is named with its column.
"""

from __future__ import annotations

from typing import Any

import pytest
from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from mjaudit.parts.replay.rulesets.hk.patterns import FAN_TABLES
from mjaudit.parts.replay.rulesets.hk.score import RULES_FILE, score_hk, section
from score_helpers import pats, pays, score


def classic(hand: str, **flags: Any) -> ScoreReport:
    return score("hk-classic", hand, **flags)


def mahjongo(hand: str, **flags: Any) -> ScoreReport:
    return score("hk-mahjongo", hand, **flags)


# ------------------------------------------------------------------ hk-classic §10


def test_C1_chicken_hand() -> None:
    r = classic(
        "[pung 5p5p5p <- S] 2m3m4m 7s8s9s 3p4p 1m1m 2p", seat="W", from_seat="N", flowers=("f1",)
    )
    assert pats(r) == {"chicken_hand": 0}
    assert (r.raw, r.value) == (0, 0)
    assert pays(r) == {"N": -2, "E": -1, "S": -1, "W": 4}
    assert r.reading == "[pung 555p <- S] 234m 234p 789s 11m"


def test_C2_all_chows_concealed_self_drawn_no_bonus_tiles() -> None:
    r = classic("1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p 8s", seat="S", self_draw=True)
    assert pats(r) == {"all_chows": 1, "self_draw": 1, "concealed_self_draw": 1, "no_flowers": 1}
    assert r.value == 4
    assert pays(r) == {"E": -32, "W": -32, "N": -32, "S": 96}


def test_C3_seed_example_three_fan_under_both_value_sets() -> None:
    hand = "1m2m3m 6m8m 4p5p6p 2s3s4s 5s5s 7m"
    r = classic(hand, seat="S", self_draw=True, flowers=("f3",))
    assert pats(r) == {"all_chows": 1, "self_draw": 1, "concealed_self_draw": 1}
    assert r.value == 3
    assert pays(r) == {"E": -16, "W": -16, "N": -16, "S": 48}
    six = classic(
        hand, seat="S", self_draw=True, flowers=("f3",), options={"fan_value_set": "section6"}
    )
    assert pats(six) == {"single_wait": 1, "all_chows": 1, "concealed_self_draw": 1}
    assert six.value == 3


def test_C4_little_three_dragons() -> None:
    hand = "[pung CCC <- E] [pung FFF <- W] 1s2s3s 7p7p P P 7p"
    flags: dict[str, Any] = {"seat": "N", "round": "S", "from_seat": "S", "flowers": ("g2",)}
    r = classic(hand, **flags)
    assert pats(r) == {"dragon_pung": 2, "little_three_dragons": 3}
    assert r.value == 5
    assert pays(r) == {"S": -48, "E": -24, "W": -24, "N": 96}
    six = classic(hand, **flags, options={"fan_value_set": "section6"})
    assert pats(six) == {"little_three_dragons": 6}
    assert six.raw == 6
    assert pays(six) == {"S": -64, "E": -32, "W": -32, "N": 128}  # P = 32 (§6.2: 2P, P, P)


def test_C5_all_pungs_with_the_double_wind_self_drawn() -> None:
    r = classic("[pung EEE <- N] 2p2p2p 9s9s9s 5m5m 7m7m 7m", seat="E", round="E", self_draw=True)
    assert pats(r) == {
        "all_pungs": 3,
        "seat_wind_pung": 1,
        "prevailing_wind_pung": 1,
        "self_draw": 1,
        "no_flowers": 1,
    }
    assert r.value == 7
    assert pays(r) == {"S": -96, "W": -96, "N": -96, "E": 288}


def test_C6_full_flush_concealed_won_on_a_discard() -> None:
    hand = "1s1s1s 2s3s4s 5s6s7s 8s8s 9s9s 9s"
    flags: dict[str, Any] = {"seat": "N", "round": "S", "from_seat": "W", "flowers": ("f1",)}
    r = classic(hand, **flags)
    assert pats(r) == {"full_flush": 6}
    assert pays(r) == {"W": -64, "E": -32, "S": -32, "N": 128}
    opt = classic(hand, **flags, options={"concealed_on_discard_fan": "1"})
    assert opt.raw == 7
    assert pays(opt) == {"W": -96, "E": -48, "S": -48, "N": 192}


def test_C7_thirteen_orphans_self_drawn_capped() -> None:
    r = classic("1m9m1p9p1s9s E S W N C F P 9m", seat="W", self_draw=True)
    assert pats(r) == {
        "thirteen_orphans": 8,
        "self_draw": 1,
        "concealed_self_draw": 1,
        "no_flowers": 1,
    }
    assert (r.raw, r.value, r.cap) == (11, 8, 8)
    assert pays(r) == {"E": -128, "S": -128, "N": -128, "W": 384}


def test_C8_win_on_a_kong_replacement_with_a_full_flower_group() -> None:
    hand = "[chow 2p3p4p <- E] [ckong 4m] 6s7s8s 5m5m 9m9m 9m"
    flowers = ("f1", "f2", "f3", "f4")
    r = classic(hand, seat="S", kong_replacement=True, flowers=flowers)
    assert pats(r) == {
        "win_on_kong_replacement": 1,
        "self_draw": 1,
        "seat_flower": 1,
        "flower_set": 2,
    }
    assert r.value == 5
    assert pays(r) == {"E": -48, "W": -48, "N": -48, "S": 144}
    absorbed = classic(
        hand,
        seat="S",
        kong_replacement=True,
        flowers=flowers,
        options={"flower_set_absorbs_seat_flower": "true"},
    )
    assert absorbed.value == 4


def test_C9_big_three_dragons_capped() -> None:
    hand = "[pung CCC <- N] [pung FFF <- S] P P 3m4m5m 8p8p P"
    flags: dict[str, Any] = {"seat": "E", "round": "E", "from_seat": "W", "flowers": ("g1",)}
    r = classic(hand, **flags)
    assert pats(r) == {"big_three_dragons": 6, "dragon_pung": 3, "seat_flower": 1}
    assert (r.raw, r.value) == (10, 8)
    assert pays(r) == {"W": -128, "N": -64, "S": -64, "E": 256}
    six = classic(hand, **flags, options={"fan_value_set": "section6", "fan_cap": "none"})
    assert pats(six) == {"big_three_dragons": 9, "seat_flower": 1}
    assert (six.value, six.cap) == (10, None)
    assert pays(six) == {"W": -256, "N": -128, "S": -128, "E": 512}


def test_C10_all_melds_claimed_from_discards() -> None:
    r = classic(
        "[chow 1m2m3m <- W] [pung 7p7p7p <- E] [pung 9s9s9s <- S] [chow 4s5s6s <- W] 2p 2p",
        seat="N",
        from_seat="E",
        flowers=("f4",),
    )
    assert pats(r) == {"fully_claimed": 1, "seat_flower": 1}
    assert pays(r) == {"E": -8, "S": -4, "W": -4, "N": 16}


def test_F1_false_win_on_an_incomplete_hand() -> None:
    with pytest.raises(ValueError, match="WIN_HAND_INCOMPLETE") as err:
        classic("1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s 6s", seat="S", self_draw=True)
    assert not isinstance(err.value, NotationError)
    assert "S -192, E +64, W +64, N +64" in str(err.value)


def test_F2_chicken_hand_below_min_fan_three() -> None:
    r = classic(
        "[pung 5p5p5p <- S] 2m3m4m 7s8s9s 3p4p 1m1m 2p",
        seat="W",
        from_seat="N",
        flowers=("f1",),
        options={"min_fan": "3"},
    )
    assert (r.value, r.minimum, r.meets_minimum) == (0, 3, False)
    assert pays(r) == {"W": -192, "E": 64, "S": 64, "N": 64}


def test_N1_nine_tile_warning_discard_win() -> None:
    r = classic(
        "[pung 2s2s2s <- N] [chow 4s5s6s <- S] [pung 8s8s8s <- E] 7s7s 9s9s 9s",
        seat="W",
        from_seat="N",
        flowers=("g4",),
        liable="N",
    )
    assert pats(r) == {"full_flush": 6}
    assert pays(r) == {"N": -128, "E": 0, "S": 0, "W": 128}


def test_N2_nine_tile_warning_kong_then_replacement_win() -> None:
    r = classic(
        "[pung 2s <- N] [chow 456s <- S] [pung 8s <- E] [kong 9s <- N] 7s 7s",
        seat="W",
        kong_replacement=True,
        flowers=("g4",),
        liable="N",
    )
    assert pats(r) == {"self_draw": 1, "win_on_kong_replacement": 1, "full_flush": 6}
    assert r.value == 8
    assert pays(r) == {"N": -384, "E": 0, "S": 0, "W": 384}


def test_L1_last_five_tiles_liability() -> None:
    r = classic(
        "[pung 2m2m2m <- S] [chow 5p6p7p <- N] 3s4s5s 8s8s8s C C",
        seat="E",
        round="E",
        from_seat="N",
        flowers=("f1",),
        liable="N",
        options={"last_five_tiles_penalty": "true"},
    )
    assert pats(r) == {"seat_flower": 1}
    assert pays(r) == {"N": -8, "S": 0, "W": 0, "E": 8}


# ------------------------------------------------------------------ hk-mahjongo §10


def test_M1_half_flush_the_minimum() -> None:
    r = mahjongo("[pung 3m3m3m <- W] 1m2m3m 5m6m7m 8m8m N N 8m", seat="S", from_seat="E")
    assert pats(r) == {"half_flush": 3}
    assert (r.value, r.minimum, r.meets_minimum) == (3, 3, True)
    assert pays(r) == {"E": -16, "S": 16, "W": 0, "N": 0}


def test_M2_below_the_minimum_is_a_false_win_self_drawn_is_valid() -> None:
    hand = "2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m 8s"
    a = mahjongo(hand, seat="W", from_seat="N")
    assert pats(a) == {"all_chows": 1, "concealed_hand": 1}
    assert (a.value, a.meets_minimum) == (2, False)
    assert pays(a) == {"W": -384, "E": 128, "S": 128, "N": 128}
    b = mahjongo(hand, seat="W", self_draw=True)
    assert pats(b) == {"all_chows": 1, "concealed_hand": 1, "self_draw": 1}
    assert b.meets_minimum
    assert pays(b) == {"E": -8, "S": -8, "N": -8, "W": 24}


def test_M3_little_three_dragons() -> None:
    r = mahjongo(
        "[pung CCC <- E] [pung FFF <- S] 2s3s4s 6p6p P P 6p", seat="N", round="S", from_seat="W"
    )
    assert pats(r) == {"dragon_pung": 2, "little_three_dragons": 3}
    assert pays(r) == {"W": -48, "N": 48, "E": 0, "S": 0}


P1_HAND = "[pung CCC <- S] [pung FFF <- W] [pung PPP <- N] 7m8m 5p5p 9m"


def test_M4_big_three_dragons_with_pao_self_drawn() -> None:
    r = mahjongo(P1_HAND, seat="E", round="E", self_draw=True, liable="N")
    assert pats(r) == {"dragon_pung": 3, "self_draw": 1, "big_three_dragons": 5}
    assert r.value == 9
    assert pays(r) == {"N": -288, "S": 0, "W": 0, "E": 288}
    # P1b: W discards the 9m (fan 8, D(8) = 128), under each pao_on_other_discard
    b = mahjongo(P1_HAND, seat="E", from_seat="W", liable="N")
    assert b.value == 8
    assert pays(b) == {"W": -128, "N": 0, "S": 0, "E": 128}
    all_ = mahjongo(
        P1_HAND,
        seat="E",
        from_seat="W",
        liable="N",
        options={"pao_on_other_discard": "liable_pays_all"},
    )
    assert pays(all_) == {"N": -128, "W": 0, "S": 0, "E": 128}
    half = mahjongo(
        P1_HAND, seat="E", from_seat="W", liable="N", options={"pao_on_other_discard": "split_half"}
    )
    assert pays(half) == {"N": -64, "W": -64, "S": 0, "E": 128}
    # P1c: N, the liable player, discards it
    c = mahjongo(P1_HAND, seat="E", from_seat="N", liable="N")
    assert pays(c) == {"N": -128, "W": 0, "S": 0, "E": 128}


def test_M5_pao_replaced_by_the_fourth_set_capped() -> None:
    r = mahjongo(
        "[pung CCC <- S] [pung FFF <- W] [pung PPP <- N] [pung 5p5p5p <- W] 9m 9m",
        seat="E",
        self_draw=True,
        liable="W",
    )
    assert pats(r) == {"dragon_pung": 3, "self_draw": 1, "all_pungs": 3, "big_three_dragons": 5}
    assert (r.raw, r.value, r.cap) == (12, 10, 10)
    assert pays(r) == {"W": -384, "N": 0, "S": 0, "E": 384}


def test_M6_full_flush_with_all_chows_won_on_a_discard() -> None:
    r = mahjongo("1p2p3p 3p4p5p 6p7p8p 9p9p 4p5p 6p", seat="W", round="S", from_seat="S")
    assert pats(r) == {"all_chows": 1, "concealed_hand": 1, "full_flush": 7}
    assert pays(r) == {"S": -192, "W": 192, "E": 0, "N": 0}


def test_M7_terminal_and_honour_pungs() -> None:
    r = mahjongo(
        "[pung 1m1m1m <- N] [pung EEE <- W] 9p9p9p 9s9s C C C", seat="S", round="E", from_seat="E"
    )
    assert pats(r) == {
        "all_pungs": 3,
        "terminals_honours_pungs": 1,
        "dragon_pung": 1,
        "prevailing_wind_pung": 1,
    }
    assert pays(r) == {"E": -64, "S": 64, "W": 0, "N": 0}


def test_M8_robbing_the_kong() -> None:
    r = mahjongo("2m3m4m 6p7p8p 4s5s 7s8s9s 8m8m 6s", seat="N", from_seat="S", robbing_kong=True)
    assert pats(r) == {"all_chows": 1, "concealed_hand": 1, "robbing_the_kong": 1}
    assert pays(r) == {"S": -16, "N": 16, "E": 0, "W": 0}


def test_M9_four_concealed_pungs_self_drawn_versus_won_on_a_discard() -> None:
    hand = "2m2m2m 5p5p5p 7s7s7s 9p9p N N"  # 13 tiles: --win is the 14th
    a = mahjongo(hand, win="N", seat="W", self_draw=True)
    assert pats(a) == {
        "concealed_hand": 1,
        "self_draw": 1,
        "all_pungs": 3,
        "four_concealed_pungs": 10,
    }
    assert (a.raw, a.value) == (15, 10)
    assert pays(a) == {"E": -128, "S": -128, "N": -128, "W": 384}
    b = mahjongo(hand, win="9p", seat="W", from_seat="S")
    assert pats(b) == {"concealed_hand": 1, "all_pungs": 3}
    assert pays(b) == {"S": -32, "W": 32, "E": 0, "N": 0}


def test_M10_last_tile_of_the_wall() -> None:
    r = mahjongo(
        "1m1m1m 4p5p6p 7p8p9p 3s3s 5s5s 5s", seat="N", round="S", self_draw=True, last_tile=True
    )
    assert pats(r) == {"concealed_hand": 1, "self_draw": 1, "last_tile_draw": 1}
    assert pays(r) == {"E": -8, "S": -8, "W": -8, "N": 24}


def test_M11_two_player_half_flush_with_a_dragon_pung_self_drawn() -> None:
    r = score("hk-mahjongo-2p", "1p2p3p 5p5p5p 7p8p9p E E C C C", seat="E", self_draw=True)
    assert pats(r) == {"concealed_hand": 1, "self_draw": 1, "dragon_pung": 1, "half_flush": 3}
    assert r.seats == ("E", "W")
    assert pays(r) == {"W": -64, "E": 64}


# ------------------------------------------------------------------ sections and readings


@pytest.mark.parametrize("ruleset", sorted(RULES_FILE))
def test_every_fan_row_has_its_rules_section(ruleset: str) -> None:
    """A row added to a fan table without its §5.3 reference fails here, not in a referee's hand."""
    name = RULES_FILE[ruleset][0]
    tables = [t for t in FAN_TABLES.values() if t.name.startswith(name)]
    assert tables
    for table in tables:
        for row in table.rows:
            assert section(ruleset, row.id).startswith(f"{name} §")


def test_patterns_name_their_rules_row() -> None:
    r = classic("[pung CCC <- E] [pung FFF <- W] 1s2s3s 7p7p P P 7p", seat="N", from_seat="S")
    assert {p.id: p.section for p in r.patterns} == {
        "dragon_pung": "hk-classic §5.3 #11",
        "little_three_dragons": "hk-classic §5.3 #17",
        "no_flowers": "hk-classic §5.3 #7",
    }
    assert [p.note for p in r.patterns if p.id == "dragon_pung"] == ["2 × 1"]


def test_log_per_tile_codes_and_runs_read_the_same() -> None:
    runs = classic("123m 456m 345p 67s 99p 8s", seat="S", self_draw=True)
    single = classic("1m 2m 3m 4m 5m 6m 3p 4p 5p 6s 7s 9p 9p 8s", seat="S", self_draw=True)
    z = classic("123m 456m 345p 67s 99p", win="8s", seat="S", self_draw=True)
    assert pays(runs) == pays(single) == pays(z) == {"E": -32, "W": -32, "N": -32, "S": 96}


def test_consecutive_kong_win_from_the_kong_chain() -> None:
    r = mahjongo(
        "[kong 3p <- N] [ckong 7s] 1m1m1m 5m6m7m 9p 9p",
        seat="S",
        kong_replacement=True,
        extras={"kong_chain": 2},
    )
    assert {"win_on_kong_replacement", "consecutive_kong_win", "self_draw"} <= set(pats(r))
    assert r.value == 10


def test_heavenly_and_earthly_timing_flags() -> None:
    """No notation shows the timing, so the flags carry it to the engine's rows 25/26."""
    heaven = classic("123m 456m 345p 678s 9p9p", seat="E", heavenly=True)
    assert pats(heaven)["heavenly_hand"] == 8 and heaven.value == 8
    assert pays(heaven) == {"E": 384, "S": -128, "W": -128, "N": -128}
    earth = mahjongo("123m 456m 345p 678s 9p 9p", seat="S", earthly=True)  # from E implied
    assert pats(earth)["earthly_hand"] == 10
    assert pays(earth) == {"E": -256, "S": 256, "W": 0, "N": 0}


# ------------------------------------------------------------------ bad notation


def notation_error(ruleset: str, hand: str, **flags: Any) -> NotationError:
    with pytest.raises(NotationError) as err:
        score_hk(ruleset, ScoreRequest(hand=hand, **flags))
    return err.value


def test_unknown_tile_is_named_with_its_column() -> None:
    err = notation_error("hk-classic", "123m 456p 789s RRR 5p5p", self_draw=True)
    assert (err.token, err.where, err.position) == ("R", "hand", 15)
    assert "C F P" in err.expected
    assert "column 16" in str(err)


def test_digits_without_a_suit() -> None:
    err = notation_error("hk-classic", "123m 456 789s EEE 5p5p", self_draw=True)
    assert (err.token, err.position) == ("456", 5)


def test_bad_meld_kind() -> None:
    err = notation_error("hk-classic", "[pong 5p5p5p] 123m 789s EEE 5p", from_seat="N")
    assert (err.token, err.position) == ("pong", 1)
    assert "ckong" in err.expected


def test_bad_meld_tiles() -> None:
    err = notation_error("hk-classic", "[chow 3s5s6s] 123m 789s EEE 5p5p", from_seat="N")
    assert err.token == "[chow 3s5s6s]"
    err = notation_error("hk-classic", "[pung 5p5p] 123m 789s EEE 4p4p", from_seat="N")
    assert err.token == "[pung 5p5p]" and "3 identical" in err.expected


def test_unclosed_bracket() -> None:
    err = notation_error("hk-classic", "123m [pung 5p5p5p 789s EEE 4p4p", from_seat="N")
    assert (err.token, err.position) == ("[pung", 5)


def test_wrong_tile_count() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE", self_draw=True)
    assert "14 concealed tiles" in err.expected and "got 12" in err.expected
    err = notation_error("hk-classic", "[pung 5p] 123m 789s EEE 4p4p 9s", from_seat="N")
    assert "11 concealed tiles besides the 1 set" in err.expected


def test_thirteen_tiles_need_the_win() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p", self_draw=True)
    assert "winning tile is missing" in err.expected


def test_win_not_in_the_hand() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p", win="9m", self_draw=True)
    assert (err.token, err.where) == ("9m", "--win")


def test_fifth_copy_of_a_tile() -> None:
    err = notation_error("hk-classic", "[kong 5p] 555p 123m 789s 4p4p", from_seat="N")
    assert err.token == "5p" and "at most 4" in err.expected


def test_bad_seat_letters() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p", seat="X", self_draw=True)
    assert (err.token, err.where) == ("X", "--seat")
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p", from_seat="Q")
    assert (err.token, err.where) == ("Q", "--from")
    err = notation_error("hk-classic", "[pung 5p <- Z] 123m 789s EEE 4p4p", from_seat="N")
    assert (err.token, err.position) == ("Z", 12)
    err = notation_error("hk-mahjongo-2p", "123p 555p 789p EE CCC", seat="S", self_draw=True)
    assert err.token == "S" and "E W" in err.expected


def test_win_needs_a_source() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p")
    assert err.where == "--from" and "--self-draw" in err.expected
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p", from_seat="E")
    assert "own discard" in err.expected


def test_unknown_option() -> None:
    err = notation_error(
        "hk-classic", "123m 456p 789s EEE 5p5p", self_draw=True, options={"fan_limit": "8"}
    )
    assert (err.token, err.where) == ("fan_limit=8", "--option")
    assert "fan_cap" in err.expected


def test_bad_option_value() -> None:
    err = notation_error(
        "hk-classic", "123m 456p 789s EEE 5p5p", self_draw=True, options={"fan_cap": "7"}
    )
    assert err.token == "fan_cap=7" and "8, 10, 13" in err.expected
    # an hk-classic option is not an hk-mahjongo one
    err = notation_error(
        "hk-mahjongo", "123m 456p 789s EEE 5p5p", self_draw=True, options={"payment_table": "spicy"}
    )
    assert err.token == "payment_table=spicy"


def test_preset_tile_sets() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE f1 5p", self_draw=True)
    assert err.token == "f1" and "--flowers" in err.expected
    err = notation_error("hk-mahjongo", "123m 456p 789s EEE 5p5p", self_draw=True, flowers=("f1",))
    assert err.where == "--flowers"
    err = notation_error("hk-mahjongo-2p", "123p 555p 789p EE 5m5m5m", self_draw=True)
    assert err.token == "5m" and "only 1 and 9" in err.expected


def test_liable_seat_checks() -> None:
    err = notation_error(
        "hk-classic", "123m 456p 789s EEE 5p5p", seat="S", self_draw=True, liable="S"
    )
    assert err.where == "--liable"
    err = notation_error(
        "hk-mahjongo-2p", "1p2p3p 5p5p5p 7p8p9p E E C C C", self_draw=True, liable="W"
    )
    assert "two players" in err.expected


def test_dealer_is_east() -> None:
    err = notation_error("hk-classic", "123m 456p 789s EEE 5p5p", dealer="S", self_draw=True)
    assert err.where == "--dealer"


def test_timing_flags_checked() -> None:
    err = notation_error("hk-classic", "123m 456m 345p 678s 9p9p", seat="S", heavenly=True)
    assert err.token == "--heavenly"
    err = notation_error(
        "hk-classic", "123m 456m 345p 678s 9p9p", seat="S", earthly=True, from_seat="W"
    )
    assert err.token == "--earthly"
    err = notation_error(
        "hk-mahjongo",
        "[kong 3p <- N] 1m1m1m 5m6m7m 7s7s7s 9p 9p",
        seat="S",
        kong_replacement=True,
        extras={"kong_chain": 2},
    )
    assert (err.token, err.where) == ("2", "--kong-chain") and "1 to 1" in err.expected
    err = notation_error("hk-classic", "123m 456m 345p 678s 9p9p", seat="S", kong_replacement=True)
    assert err.token == "--kong-replacement" and "a kong" in err.expected
