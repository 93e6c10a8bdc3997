"""``mjaudit score`` for vn-160: every worked example of §11, from notation alone.

One test per example (V1-V7 and penalty F1), written as the notation and flags a referee
would type (khung in the hand as ``8m8mBM``, declared flowers and khung in ``flowers``),
asserting the phán and the payments the rules file states. Then the vn-160 errors.
"""

from __future__ import annotations

from typing import Any

import pytest
from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from mjaudit.parts.replay.rulesets.vn160.score import score_vn160
from score_helpers import pats, pays
from score_helpers import score as score_as


def score(hand: str, **flags: Any) -> ScoreReport:
    return score_as("vn-160", hand, **flags)


def test_V1_u_muoi_on_a_discard() -> None:
    r = score(
        "[chow 1m2m3m <- E] 4p5p6p 7s7s7s 3s4s5s 9m 9m", seat="S", from_seat="W", flowers=("f3",)
    )
    assert r.unit == "phán"
    assert pats(r) == {"u_muoi": 0}
    assert r.value == 0
    assert pays(r) == {"W": -2, "E": -1, "N": -1, "S": 4}


def test_V2_phinh_xuyen_bat_cau_nhan() -> None:
    r = score("1p2p3p 4s5s6s 7s8s9s 6m8m 2m2m 7m", seat="W", self_draw=True, flowers=("g2",))
    assert pats(r) == {"u_phinh": 1, "bat_cau_nhan": 1, "u_xuyen": 1}
    assert r.value == 3
    assert pays(r) == {"E": -16, "S": -16, "N": -16, "W": 48}


def test_V3_tieu_tam_nguyen_tui_tui_khong_khung_seat_flower() -> None:
    r = score(
        "[pung CCC <- S] [pung FFF <- E] 9s9s9s 2p2p2p P P",
        seat="W",
        from_seat="N",
        flowers=("f3", "q1"),
    )
    assert pats(r) == {"tieu_tam_nguyen": 6, "tui_tui": 4, "seat_flower": 1}
    assert r.value == 11
    assert pays(r) == {"N": -128, "E": -64, "S": -64, "W": 256}


def test_V4_toan_hang_with_a_khung_seat_flower() -> None:
    r = score(
        "[chow 2m3m4m <- W] 1m1m1m 5m6m7m 8m8m BM 9m 9m",
        seat="N",
        self_draw=True,
        flowers=("k4",),
    )
    assert pats(r) == {"toan_hang": 6, "seat_flower": 1}
    assert r.value == 7
    assert "BM as 8m" in r.reading
    assert pays(r) == {"E": -128, "S": -128, "W": -128, "N": 384}


def test_V5_khan_khan_khong_khung_xuyen_seat_flower() -> None:
    r = score("1p1p1p 5p5p5p 7s7s7s W W W 3m 3m", seat="S", self_draw=True, flowers=("g2",))
    assert pats(r) == {"khan_khan": 24, "u_xuyen": 1, "seat_flower": 1}
    assert r.value == 26
    assert pays(r) == {"E": -1024, "W": -1024, "N": -1024, "S": 3072}


def test_V6_thap_tam_thai_bao_on_a_discard() -> None:
    r = score("1m 9m 1p 9p 1s 9s E S W N C F P", win="C", seat="E", from_seat="S", flowers=("f1",))
    assert pats(r) == {"thap_tam_thai_bao": 13, "seat_flower": 1}
    assert r.value == 14
    assert pays(r) == {"S": -256, "W": -128, "N": -128, "E": 512}


def test_V7_thien_u_khong_hoa_khong_la() -> None:
    r = score("1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p", seat="E", heavenly=True)
    assert pats(r) == {"thien_u": 6, "khong_hoa_khong_la": 6, "u_phinh": 1, "bat_cau_nhan": 1}
    assert r.value == 14
    assert pays(r) == {"S": -256, "W": -256, "N": -256, "E": 768}


def test_F1_false_win_on_an_incomplete_hand() -> None:
    with pytest.raises(ValueError, match="WIN_HAND_INCOMPLETE") as err:
        score("1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s 6s", seat="S", self_draw=True)
    assert not isinstance(err.value, NotationError)
    assert "S -192, E +64, W +64, N +64" in str(err.value)


def test_khung_in_a_declared_set_and_declared_at_the_start() -> None:
    """A khung in a bracketed set reads inside its domain; BT+ RU+ is tong_hop_dau (§5.3)."""
    r = score(
        "[pung 4p4pBP <- N] 1m2m3m 7s8s9s 5m6m7m 2s 2s",
        seat="S",
        self_draw=True,
        flowers=("BT+", "RU+"),
    )
    assert pats(r)["tong_hop_dau"] == 9
    assert "[pung 4p4pBP <- N]" in r.reading and "BP as 4p" in r.reading


def test_below_min_phan_pays_the_false_win_penalty() -> None:
    r = score(
        "[chow 1m2m3m <- E] 4p5p6p 7s7s7s 3s4s5s 9m 9m",
        seat="S",
        from_seat="W",
        flowers=("f3",),
        options={"min_phan": "1"},
    )
    assert (r.minimum, r.meets_minimum) == (1, False)
    assert pays(r) == {"S": -192, "E": 64, "W": 64, "N": 64}


# ------------------------------------------------------------------ bad notation


def notation_error(hand: str, **flags: Any) -> NotationError:
    with pytest.raises(NotationError) as err:
        score_vn160("vn-160", ScoreRequest(hand=hand, **flags))
    return err.value


def test_flower_in_the_hand() -> None:
    err = notation_error("123m 456p 789s EEE f1 5p", self_draw=True)
    assert (err.token, err.position) == ("f1", 19)
    assert "--flowers" in err.expected


def test_khung_outside_its_domain_in_a_set() -> None:
    err = notation_error("[pung 4p4pBS] 123m 789s EEE 5p 5p", self_draw=True)
    assert err.token == "[pung 4p4pBS]" and "domain" in err.expected


def test_khung_of_a_set_not_in_play() -> None:
    err = notation_error("123m 456p 789s EEE BT2 5p", self_draw=True)
    assert err.token == "BT2" and "khung_sets" in err.expected


def test_no_liability_rule() -> None:
    err = notation_error("123m 456p 789s EEE 5p5p", seat="S", self_draw=True, liable="E")
    assert err.where == "--liable"


def test_robbing_a_kong_is_an_option() -> None:
    err = notation_error("123m 456p 789s EEE 5p5p", seat="S", from_seat="E", robbing_kong=True)
    assert "rob_kong" in err.expected


def test_bad_declared_tile() -> None:
    err = notation_error("123m 456p 789s EEE 5p5p", seat="S", self_draw=True, flowers=("5p",))
    assert (err.token, err.where) == ("5p", "--flowers")
    err = notation_error("123m 456p 789s EEE 5p5p", seat="S", self_draw=True, flowers=("f1+",))
    assert err.token == "f1+"


def test_unknown_option() -> None:
    err = notation_error("123m 456p 789s EEE 5p5p", self_draw=True, options={"min_fan": "3"})
    assert (err.token, err.where) == ("min_fan=3", "--option")
    assert "min_phan" in err.expected
