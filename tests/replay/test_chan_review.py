"""Independent review of the ``chan`` engine against chan.md: one test per deviation found,
named after the rule it checks (see the review report for what the engine did before).
"""

from __future__ import annotations

import pytest
from chan_builder import ENGINE_READY, VIOL, Chan, only

pytestmark = pytest.mark.skipif(not ENGINE_READY, reason="the chan engine is not registered")

S0, S1, S2, S3 = 0, 1, 2, 3

# §13 X3: a wide wait on rank 5 (5v, 5n or 5s wins).
X3 = "6v6v 3n3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n"
# 22 nọc cards that give s2 (holding X3) no win: no rank 5.
SAFE_DRAWS = ["2s", "3v", "6n", "6s", "7n", "7s", "8s", "9n", "9v", "CC", "2n"] * 2


def _x3_after_dead_card(**options: object) -> Chan:
    """s0 opens, 22 draw-and-pass turns, then s3 draws the dead 23rd card (5v) and s2
    declares ù on it: §3.2 / §11 #17 make the hand a draw at that draw."""
    b = Chan(options=options).hand(S2, X3, exact=True).discard(S0, "2n")
    for k, card in enumerate(SAFE_DRAWS):
        b.dp((S1 + k) % 4, card)
    return b.draw(S3, "5v").win(S2, "5v", frm=S3)


def test_s11_17_win_after_the_dead_last_card_has_no_winner() -> None:
    """§11 #17, §5.6: after BOC_QUAN_NOC_CHET the hand is settled as a draw; a later
    (otherwise valid) win is reported, not settled: no winner, no total, and the next hand
    must not see a winner (§3.1 cái giver, §7.2 thông)."""
    r = _x3_after_dead_card().replay()
    only(r, "BOC_QUAN_NOC_CHET", VIOL, seat=S3, index=45)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (0, 0, 0, 0)
    assert r.winners == ()
    assert r.fan is None
    assert r.extras["win_seat"] is None and r.extras["void"] is None


def test_s11_17_void_win_after_the_dead_last_card_is_not_settled() -> None:
    """§11 #17 with ``continue_after_void_u``: a false ù after the dead-card draw is a
    finding, but it moves no money (the hand was settled as a draw before it)."""
    b = Chan(options={"continue_after_void_u": True}).discard(S0, "2n").turns(S1, 22)
    r = b.draw(S3, "CC").win(S0, "CC", frm=S3).replay()
    only(r, "BOC_QUAN_NOC_CHET", VIOL, seat=S3, index=45)
    only(r, "U_LAO", VIOL, seat=S0, index=46)
    assert r.deltas == (0, 0, 0, 0)


# --- §7.2 rows that had no test before the review (they pass: coverage, not deviations) ---


def test_s7_2_ca_loi_san_dinh_is_20() -> None:
    """§7.2 cá lội sân đình: chì bạch thủ on 8v with a chắn 5v 5v eaten on the mat."""
    b = Chan(dealer=S1).hand(S0, "8v 4n4n 6s6s 7v7v 9n9n 2s2n 4v4s")
    b.discard(S1, "9s").dp(S2).dp(S3)
    b.draw(S0, "5v").eat(S0, "5v", S0, "5v").discard(S0, "9v").dp(S1).dp(S2).dp(S3)
    b.draw(S0, "3n").eat(S0, "3n", S0, "3s").discard(S0, "5s").dp(S1).dp(S2).dp(S3)
    b.draw(S0, "6v").eat(S0, "6v", S0, "6n").discard(S0, "7s").dp(S1).dp(S2).dp(S3)
    r = b.draw(S0, "8v").win(S0, "8v", cuoc=["ca_loi_san_dinh"]).replay()
    assert [f.code for f in r.findings] == []
    assert sorted(r.extras["cuoc"]) == ["bach_thu", "ca_loi_san_dinh", "chi"]
    assert (r.fan, r.deltas) == (20, (60, -20, -20, -20))


def test_s7_2_co_an_bon_counts_the_quad_eaten_from_a_dealt_chan() -> None:
    """§7.2 có ăn bòn: dealt 6v 6v, the 3rd eaten with one of them, the 4th with the other."""
    hand = "6v6v 2s2s 4n4n 5v5v 7s7s 9n9s 2v2n 3v3n 8n 8s 9v"
    b = Chan(dealer=S0).hand(S1, hand, exact=True)
    b.discard(S0, "6v").eat(S1, "6v", S0, "6v").discard(S1, "8n").dp(S2).dp(S3).dp(S0)
    b.draw(S1, "6v").eat(S1, "6v", S1, "6v").discard(S1, "8s").dp(S2).dp(S3).dp(S0)
    r = b.draw(S1, "9v").win(S1, "9v", cuoc=["co_an_bon", "chi"]).replay()
    assert [f.code for f in r.findings] == []
    assert sorted(r.extras["cuoc"]) == ["chi", "co_an_bon"]
    assert (r.fan, r.deltas) == (4, (-4, 12, -4, -4))


def test_s7_2_chiu_u_on_own_first_draw_is_chi_and_dia_u() -> None:
    """§7.2: chì is "also true for a chíu ù on a card W drew"; địa ù on W's first draw.
    X1's 20 cards, all concealed: lèo 5 + chíu ù, chì, địa ù, bạch thủ, 2 tôm 1 each = 11,
    gà chì bạch thủ 5 → 16."""
    hand = "7n7n7n 3v3v3s3s CCCC 9v9s8s8v 5v5v 2v2n 4n4s"
    b = Chan(dealer=S0).hand(S1, hand, exact=True).discard(S0, "6n").draw(S1, "7n")
    cuoc = ["chiu_u", "chi", "dia_u", "bach_thu", ("tom", 2), "leo"]
    r = b.win(S1, "7n", via="chiu", with_="7n7n7n", cuoc=cuoc).replay()
    assert [f.code for f in r.findings] == []
    assert sorted(r.extras["cuoc"]) == [
        "bach_thu",
        "chi",
        "chiu_u",
        "dia_u",
        "leo",
        "tom",
        "tom",
    ]
    assert (r.fan, r.deltas) == (16, (-16, 48, -16, -16))


# --- §12: gà options whose effect no earlier test showed ----------------------------------

# 8 red cards (8v 8v 9s 9s 8s 8s 9v 9v) and no CC, so no lèo; wide on rank 7.
TAM_DO_NO_LEO = "8v8v 9s9s 8s8s 9v9v 2v2v 4n4n 3v3n 5n5s 6v6s 7v"


def _tam_do_no_leo(**options: object) -> Chan:
    b = Chan(options=options, avoid="7s").hand(S1, TAM_DO_NO_LEO, exact=True)
    return b.discard(S0, "2n").draw(S1, "7n").win(S1, "7n", cuoc=["tam_do", "chi"])


@pytest.mark.parametrize(
    ("options", "total"),
    [
        ({}, 8 + 1 + 5),  # gà tám đỏ
        ({"ga_tam_do_needs_leo": True}, 8 + 1),  # "tám đỏ có lèo": no lèo, no gà
        ({"ga_tam_do": 2}, 8 + 1 + 10),
        ({"ga_tam_do": 0}, 8 + 1),
    ],
)
def test_s12_ga_tam_do_options_change_the_total(options: dict[str, object], total: int) -> None:
    r = _tam_do_no_leo(**options).replay()
    assert [f.code for f in r.findings] == []
    assert r.fan == total and r.deltas == (-total, 3 * total, -total, -total)
