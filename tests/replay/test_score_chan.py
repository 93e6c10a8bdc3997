"""``mjaudit score --ruleset chan``: the worked examples of chan.md §13 (and the §9/§10
settlement examples about a win's payments) from notation.

Each example is the winner's cards as the rules file lists them, E (the mat) in brackets,
H (concealed) loose and the winning card last, with the flags a referee would give; the
total T and the payments asserted are the ones the rules file states.
"""

from __future__ import annotations

import json

import pytest
from mjaudit.parts.replay.engine.registry import get
from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from typer.testing import CliRunner

from mjaudit.cli import app

X1 = "[5v5v] [2v2n] [4n4s] 7n7n7n 3v3v 3s3s CC CC 9v9s 8s8v 7n"
X2 = "[9v9v] [8v8n] [2n2n] 8s8s CC 9s9n 4v4v 6s6s 3v3n 5n5s CC"
X3 = "[6v6v] [3n3s] [8n8v] 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n 5v"
X4 = "[9v9v] [3v3n] [2v2n] 6n 2s2s 4v4v 5n5n 7s7s 8s8n 7v7n 6n"
X5 = "[5v5s] [7v7s] CC CC CC CC 2v2v 4s4s 6n6n 9n9n 4v4n 3v 3n"
X6 = "[5v5v] [8n8n] 2v2v 2n2n 3n3n 4s4s 6n6n 9n9n 6v6v 7s 7s"
X7 = "[5v5v] [3n3s] [6v6n] 2v 4n4n 6s6s 7v7v 9n9n 8s8n 4v4s 2v"
X8 = "[bon 6v6v] [3v3n] [8n8v] 6v 2s2s 4n4n 5v5v 7s7s 9n9s 2v2n 6v"


def _score(hand: str, seat: str, **kw: object) -> ScoreReport:
    rules = get("chan")
    assert rules is not None and rules.scorer is not None
    return rules.scorer("chan", ScoreRequest(hand=hand, seat=seat, **kw))  # type: ignore[arg-type]


def _pay(r: ScoreReport) -> list[float]:
    return list(r.payments)


def _ids(r: ScoreReport) -> list[str]:
    return [p.id for p in r.patterns]


def test_x1_chiu_u_bach_thu_2_tom_leo_9() -> None:
    r = _score(
        X1, "s1", from_seat="s0", options={"via": "chiu", "cuoc": "chiu_u,bach_thu,tom:2,leo"}
    )
    assert r.value == 9 and r.unit == "điểm" and r.meets_minimum
    assert _ids(r) == ["leo", "bach_thu", "tom", "tom", "chiu_u"]
    assert [p.value for p in r.patterns] == [5, 1, 1, 1, 1]
    assert _pay(r) == [-9, 27, -9, -9]
    assert "wait bạch thủ" in r.reading and "tôm 2, lèo 1" in r.reading


def test_x2_chi_bach_thu_chi_tam_do_2_leo_31() -> None:
    r = _score(X2, "s0", self_draw=True, options={"cuoc": "chi,bach_thu_chi,tam_do,leo:2"})
    assert r.value == 31
    assert sorted(p.id for p in r.patterns if p.section == "chan §7.5") == [
        "ga_bach_thu_chi",
        "ga_chi_bach_thu",
        "ga_tam_do",
    ]
    assert _pay(r) == [93, -31, -31, -31]


def test_x3_plain_wide_win_xuong_2() -> None:
    r = _score(X3, "s2", from_seat="s3", options={"cuoc": ""})
    assert r.value == 2 and _ids(r) == ["xuong"]
    assert _pay(r) == [-2, -2, 6, -2]
    assert "wait wide" in r.reading


def test_x3_variant_mode_4_11_u_4_11_thieu_diem() -> None:
    r = _score(X3, "s2", from_seat="s3", options={"cuoc": "", "mode_4_11": "true"})
    assert r.minimum == 4 and not r.meets_minimum
    assert _pay(r) == [11, 11, -33, 11]


def test_x4_thong_chi_bach_thu_11() -> None:
    r = _score(X4, "s1", self_draw=True, options={"cuoc": "thong,chi,bach_thu", "thong": "true"})
    assert r.value == 11 and _pay(r) == [-11, 33, -11, -11]


def test_x5_kinh_tu_chi_with_thien_khai_18() -> None:
    r = _score(
        X5,
        "s0",
        from_seat="s1",
        options={"cuoc": "kinh_tu_chi,co_thien_khai", "thien_khai": "CC"},
    )
    assert r.value == 18 and _pay(r) == [54, -18, -18, -18]


def test_x6_thap_thanh_bach_dinh_chi_27() -> None:
    r = _score(X6, "s3", self_draw=True, options={"cuoc": "thap_thanh,bach_dinh,chi"})
    assert r.value == 27 and _pay(r) == [-27, -27, -27, 81]


def test_x7_hoa_roi_cua_phat_20() -> None:
    r = _score(X7, "s0", self_draw=True, options={"cuoc": "hoa_roi_cua_phat"})
    assert r.value == 20 and _pay(r) == [60, -20, -20, -20]


def test_x7_auto_value_is_20_not_chi_bach_thu() -> None:
    """Without a declaration the best one (§7.6) is scored: hoa rơi cửa phật, 20."""
    r = _score(X7, "s0", self_draw=True)
    assert r.value == 20 and _ids(r) == ["hoa_roi_cua_phat"]


def test_x7_declaring_hoa_roi_cua_phat_and_chi_is_xuong_sai_21() -> None:
    r = _score(X7, "s0", self_draw=True, options={"cuoc": "hoa_roi_cua_phat,chi"})
    assert r.value == 21 and not r.meets_minimum
    assert any("XUONG_SAI" in n for n in r.notes)
    assert _pay(r) == [-63, 21, 21, 21]


def test_x8_u_bon_bach_thu_10() -> None:
    r = _score(X8, "s1", from_seat="s2", options={"cuoc": "u_bon,bach_thu"})
    assert r.value == 10 and _pay(r) == [-10, 30, -10, -10]


def test_p1_x1_with_s2_caught_for_bo_an_chan() -> None:
    r = _score(
        X1,
        "s1",
        from_seat="s0",
        liable="s2",
        options={"via": "chiu", "cuoc": "chiu_u,bach_thu,tom:2,leo"},
    )
    assert _pay(r) == [0, 27, -27, 0]


def test_p2_x4_with_the_winners_treo_tranh_scores_0() -> None:
    r = _score(
        X4,
        "s1",
        self_draw=True,
        options={"cuoc": "thong,chi,bach_thu", "thong": "true", "treo_tranh": "true"},
    )
    assert r.value == 0 and _pay(r) == [0, 0, 0, 0]


def test_p3_x4_declaring_a_missing_tom_is_xuong_sai_12() -> None:
    r = _score(
        X4, "s1", self_draw=True, options={"cuoc": "thong,chi,bach_thu,tom", "thong": "true"}
    )
    assert r.value == 12 and not r.meets_minimum
    assert _pay(r) == [12, -36, 12, 12]


def test_p4_p3_with_s2_caught_pays_auto_value_to_each_payee() -> None:
    r = _score(
        X4,
        "s1",
        self_draw=True,
        liable="s2",
        options={"cuoc": "thong,chi,bach_thu,tom", "thong": "true"},
    )
    assert _pay(r) == [12 + 11, -24, -22, 12 + 11]


def test_p5_u_lao_on_a_discarded_card() -> None:
    r = _score(X3, "s0", from_seat="s3", options={"via": "discard"})
    assert not r.meets_minimum and _pay(r) == [-36, 12, 12, 12]


def test_p6_x3_with_mode_4_11() -> None:
    r = _score(X3, "s2", from_seat="s3", options={"mode_4_11": "true"})
    assert _pay(r) == [11, 11, -33, 11]


def test_10_4_bo_an_chan_then_s3_wins_9_s1_pays_27() -> None:
    """§10.4 example 1: s1 is out; s3 wins with T = 9 (X1's cards): s1 pays 27 alone."""
    r = _score(
        X1,
        "s3",
        from_seat="s0",
        liable="s1",
        options={"via": "chiu", "cuoc": "chiu_u,bach_thu,tom:2,leo"},
    )
    assert r.value == 9 and _pay(r) == [0, -27, 0, 27]


def test_10_7_xuong_sai_chi_bach_thu_on_a_wide_wait_10() -> None:
    """§10.7: s1 draws 6n with a wide wait (6v also wins) and declares chi, bach_thu."""
    hand = "[9v9v] [3v3n] [2v2n] 2s2s 4v4v 5n5n 7s7s 8s8s 7v7n 6s 6n"
    r = _score(hand, "s1", self_draw=True, options={"cuoc": "chi,bach_thu"})
    assert r.value == 10 and not r.meets_minimum
    assert _pay(r) == [10, -30, 10, 10]


def test_10_8_u_4_11_xuong_on_a_card_drawn_by_s2() -> None:
    r = _score(X3, "s0", from_seat="s2", options={"cuoc": "xuong", "mode_4_11": "true"})
    assert _pay(r) == [-33, 11, 11, 11]


def test_thien_u_of_the_dealer_and_stake() -> None:
    r = _score(
        "[khai CC] 2v2v 4s4s 6n6n 9n9n 5v5s 7v7s 4v4n 3v3n",
        "s0",
        options={"via": "deal", "stake": "2"},
    )
    assert _ids(r) == ["kinh_tu_chi", "thien_u", "co_thien_khai", "ga_kinh_tu_chi"]
    assert r.value == 19 and _pay(r) == [114, -38, -38, -38]


def test_not_a_win_says_u_lao() -> None:
    with pytest.raises(ValueError, match=r"not 10 pairs with at least 6 chắn.*U_LAO"):
        _score("[6v6v] [3n3s] [8n8v] 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n 2v", "s2", self_draw=True)


@pytest.mark.parametrize(
    ("hand", "options", "token"),
    [
        (X3.replace("5n 5v", "5n 5x"), {}, "5x"),  # unknown card
        (X3.replace("[3n3s]", "[3n4s]"), {}, "[3n4s]"),  # not a chắn or cạ
        (X3.replace("[6v6v]", "[bon 6v6n]"), {}, "[bon 6v6n]"),  # ăn bòn is a chắn
        (X3.replace("[6v6v]", "[pung 6v6v]"), {}, "pung"),  # no such group
        (X3.replace(" 5v", ""), {}, X3.replace(" 5v", "")),  # wrong count (19 cards)
        (X3.replace("2v2v 4n4n", "5v5v 5v5v"), {}, "5v"),  # a fifth 5v
        (X3, {"cuoc": "bach_thu,tom_2"}, "tom_2"),  # unknown cước
        (X3, {"cuoc": "tom:0"}, "tom:0"),
        (X3, {"via": "wall"}, "wall"),
        (X3, {"thong": "maybe"}, "maybe"),
        (X3, {"stake": "0"}, "stake=0"),
    ],
)
def test_bad_notation_names_the_token(hand: str, options: dict[str, str], token: str) -> None:
    with pytest.raises(NotationError) as err:
        _score(hand, "s2", from_seat="s3", options=options)
    assert err.value.token == token


def test_bad_seats_and_flags() -> None:
    with pytest.raises(NotationError, match="seat s0-s3") as err:
        _score(X3, "s7", from_seat="s3")
    assert err.value.token == "s7"
    with pytest.raises(NotationError, match=r"--self-draw .* or --from SEAT"):
        _score(X3, "s2")
    with pytest.raises(NotationError, match="no --robbing-kong"):
        _score(X3, "s2", from_seat="s3", robbing_kong=True)
    with pytest.raises(NotationError, match="dealer"):
        _score(X3, "s2", options={"via": "deal"})


# --- through the command -------------------------------------------------------------


def _run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["score", "--ruleset", "chan", *args])
    return res.exit_code, res.output


def test_cli_x1_text() -> None:
    code, out = _run(
        X1, "--seat", "s1", "--from", "s0", "-o", "via=chiu",
        "-o", "cuoc=chiu_u,bach_thu,tom:2,leo",
    )  # fmt: skip
    assert code == 0, out
    assert "điểm 9" in out and "+27" in out and "Chíu ù" in out


def test_cli_x2_json() -> None:
    code, out = _run(
        X2, "--seat", "s0", "--self-draw", "-o", "cuoc=chi,bach_thu_chi,tam_do,leo:2",
        "--format", "json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["win"] is True and data["unit"] == "điểm" and data["value"] == 31
    assert data["payments"] == {"s0": 93, "s1": -31, "s2": -31, "s3": -31}
    assert data["patterns"][0] == {
        "id": "tam_do",
        "value": 8,
        "section": "chan §7.3",
        "note": "Tám đỏ: điểm, the largest",
    }


def test_cli_xuong_sai_exits_1_bad_card_exits_2() -> None:
    code, out = _run(X7, "--self-draw", "-o", "cuoc=hoa_roi_cua_phat,chi")
    assert code == 1 and "XUONG_SAI" in out and "-63" in out
    code, out = _run(X7.replace("2v", "2x", 1), "--self-draw")
    assert code == 2


def test_roles_name_the_winner_and_the_caught_player() -> None:
    """The payments line says who is who: the winner, the player caught (đền), and the
    dealer of a thiên ù."""
    chiu: dict[str, object] = {"from_seat": "s0", "options": {"via": "chiu", "cuoc": "chiu_u"}}
    assert _score(X1, "s1", **chiu).roles == ("", "winner", "", "")
    assert _score(X1, "s1", liable="s2", **chiu).roles == ("", "winner", "liable", "")
    thien_u = _score(
        "[khai CC] 2v2v 4s4s 6n6n 9n9n 5v5s 7v7s 4v4n 3v3n", "s0", options={"via": "deal"}
    )
    assert thien_u.roles == ("dealer, winner", "", "", "")
