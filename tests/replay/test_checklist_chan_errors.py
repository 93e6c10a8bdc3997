"""chan.md §10 penalties (checklist #13, #27, #35): errors 1-14, treo tranh / trái vỉ and
ù 4-11, each as the rules file's (and the seed's) worked example turned into a log, with a
clean near miss, and the settlement cases of §9 they lead to.

Deltas are by seat (s0 … s3); s0 is the dealer. ``enforcement = auto`` unless stated.
"""

from __future__ import annotations

import pytest
from chan_builder import ENGINE_READY, HARD, VIOL, Chan, absent, clean, only, with_code
from test_checklist_chan import WIDE6, X3, wide6_win, x3_win

pytestmark = pytest.mark.skipif(not ENGINE_READY, reason="the chan engine is not registered")

S0, S1, S2, S3 = 0, 1, 2, 3

# 6 chắn, the cạ 2n2s 3v3s 4v4n and the què 9n: a wide wait on rank 9 (tôm 1 present).
W9 = "2v2v 3n3n 4s4s 6v6v 7n7n 8s8s 2n2s 3v3s 4v4n 9n"


# --- 1 BO_AN_CHAN (§10.4 rule 1) -------------------------------------------------------------


def _bo_an_chan(last_discard: str = "6n", **kw: object) -> Chan:
    """§10.4 example 1: s1 holds one 6n and leaves s0's 6n (#0, declined at #1); at #9 s1
    eats s0's 5v as a cạ and at #10 discards its 6n."""
    b = Chan(avoid="5n 6v 6s 9v 9s", **kw).hand(S1, "6n 5s 2s")  # type: ignore[arg-type]
    b.discard(S0, "6n").dp(S1).dp(S2).dp(S3).draw(S0, "5v").pass_(S0)
    return b.eat(S1, "5v", S0, "5s").discard(S1, last_discard)


def test_BO_AN_CHAN_triggers() -> None:
    r = _bo_an_chan().abandon().replay()
    only(r, "BO_AN_CHAN", VIOL, seat=S1, index=10)
    absent(r, "AN_CHON_CA")


def test_BO_AN_CHAN_clean() -> None:
    clean(_bo_an_chan(last_discard="2s").abandon().replay())


def test_BO_AN_CHAN_eats_the_declined_card_later() -> None:
    # (a): s1 leaves 6n at #0 and eats the next 6n (s0's draw) as a chắn
    b = Chan(avoid="6v 6s").hand(S1, "6n 2s").discard(S0, "6n").dp(S1).dp(S2).dp(S3)
    b.draw(S0, "6n").pass_(S0).eat(S1, "6n", S0, "6n").discard(S1, "2s")
    only(b.abandon().replay(), "BO_AN_CHAN", VIOL, seat=S1, index=9)


def test_BO_AN_CHAN_with_rule_2_reports_rule_1_only() -> None:
    # s1 holds 7v and 7s: at #0 it could eat 7s as a chắn and as a cạ; at #9 it eats 7s
    # with 7v (a cạ eat that also breaks §5.3 rule 2: it holds a 7s)
    b = Chan(avoid="7n").hand(S1, "7s 7v 2s").discard(S0, "7s").dp(S1).dp(S2).dp(S3)
    b.draw(S0, "7s").pass_(S0).eat(S1, "7s", S0, "7v").discard(S1, "2s")
    r = b.abandon().replay()
    only(r, "BO_AN_CHAN", VIOL, seat=S1, index=9)
    absent(r, "AN_CHON_CA")
    only(r, "TREO_TRANH_AN_CA_THAY_CHAN", VIOL, seat=S1, index=9)


def test_BO_AN_CHAN_option_strict() -> None:
    """Not rule 1 by default: after leaving 6n, s1 uses its 6n to eat a 6v as a cạ.
    ``bo_an_chan_strict`` adds it as case (c)."""

    def log(**opts: object) -> Chan:
        b = Chan(avoid="6s", options=opts).hand(S1, "6n 2s").discard(S0, "6n")
        b.dp(S1).dp(S2).dp(S3).draw(S0, "6v").pass_(S0)
        return b.eat(S1, "6v", S0, "6n").discard(S1, "2s").abandon()

    clean(log().replay())
    only(log(bo_an_chan_strict=True).replay(), "BO_AN_CHAN", VIOL, seat=S1, index=9)


def _bo_an_chan_then_s3_wins(
    *, bao: bool = False, cuoc: tuple[str, ...] = (), **kw: object
) -> Chan:
    """Error 1 by s1 at #10, then s3 (W9) wins on the 9v s2 draws."""
    b = _bo_an_chan(**kw).hand(S3, W9, exact=True)
    if bao:
        b.bao(S2, S1, "BO_AN_CHAN")
    return b.draw(S2, "9v").win(S3, "9v", frm=S2, cuoc=cuoc)


def test_BO_AN_CHAN_caught_pays_for_the_table() -> None:
    # §9 case B: s1 alone pays 3 x T (T = 2, xuông) to s3; s0 and s2 pay nothing
    r = _bo_an_chan_then_s3_wins().replay()
    only(r, "BO_AN_CHAN", VIOL, seat=S1, index=10)
    assert (r.winners, r.fan) == ((S3,), 2)
    assert r.deltas == (0, -6, 0, 6)


def test_BO_AN_CHAN_reported_only() -> None:
    # §10.9: unreported, the finding has no effect (case A) ...
    r = _bo_an_chan_then_s3_wins(options={"enforcement": "reported_only"}).replay()
    only(r, "BO_AN_CHAN", VIOL, seat=S1, index=10)
    assert r.deltas == (-2, -2, -2, 6)
    # ... reported by s2, s1 pays for the table (case B)
    r = _bo_an_chan_then_s3_wins(bao=True, options={"enforcement": "reported_only"}).replay()
    absent(r, "BAO_SAI")
    assert r.deltas == (0, -6, 0, 6)


def test_BO_AN_CHAN_then_winner_xuong_sai() -> None:
    # §9 case D (P4): s3 declares bạch thủ on a wide wait. Payees s0 and s2 each receive
    # T_decl = 4 from s3 and auto_value = 4 (one tôm) from the caught s1.
    r = _bo_an_chan_then_s3_wins(cuoc=("bach_thu",)).replay()
    only(r, "XUONG_SAI", VIOL, seat=S3, index=12)
    assert r.deltas == (8, -8, 8, -8)


def test_drawn_hand_caught_player_pays_nothing() -> None:
    # §9 case G: "Nếu ván bài hòa thì cũng không mất gì"
    b = _bo_an_chan().turns(S2, 18).exhaustive_draw()  # 4 + 18 = 22 draws
    r = b.replay()
    only(r, "BO_AN_CHAN", VIOL, seat=S1, index=10)
    assert (r.ended_by, r.deltas) == ("exhaustive_draw", (0, 0, 0, 0))


# --- 2 AN_CHON_CA ------------------------------------------------------------------------------


def _an_chon_ca(later: str, with_: str) -> Chan:
    """§10.4 example 2: s1 holds 7v (no 7s); it leaves s0's 7s at #0 (draws 3n at #1); at
    #9 it makes a cạ eat of s0's ``later`` card."""
    b = Chan(avoid="7n 4s").hand(S1, "7v 4v 2s", without="7s")
    b.discard(S0, "7s").draw(S1, "3n").pass_(S1).dp(S2).dp(S3).draw(S0, later).pass_(S0)
    return b.eat(S1, later, S0, with_).discard(S1, "2s").abandon()


def test_AN_CHON_CA_triggers() -> None:
    r = _an_chon_ca("7n", "7v").replay()
    only(r, "AN_CHON_CA", VIOL, seat=S1, index=9)
    absent(r, "BO_AN_CHAN")


def test_AN_CHON_CA_clean() -> None:
    clean(_an_chon_ca("4n", "4v").replay())  # a cạ eat of another rank


# --- 3 DANH_CA_CHAN ------------------------------------------------------------------------


def _two_discards(hand: str, first: str, second: str, **kw: object) -> Chan:
    """s1 eats its own draw as a chắn twice (2v at #2, 9n at #11) and discards ``first``
    at #3 and ``second`` at #12."""
    b = Chan(**kw).hand(S1, "2v 9n " + hand)  # type: ignore[arg-type]
    b.discard(S0, "3v").draw(S1, "2v").eat(S1, "2v", S1, "2v").discard(S1, first)
    b.dp(S2).dp(S3).dp(S0).draw(S1, "9n").eat(S1, "9n", S1, "9n")
    return b.discard(S1, second).abandon()


def test_DANH_CA_CHAN_triggers() -> None:
    # §10.4 example 3: s1 dealt 4s 4s discards both
    r = _two_discards("4s4s", "4s", "4s").replay()
    only(r, "DANH_CA_CHAN", VIOL, seat=S1, index=12)


def test_DANH_CA_CHAN_clean() -> None:
    clean(_two_discards("4s4s 5n", "4s", "5n").replay())


# --- 4 XE_CHAN ---------------------------------------------------------------------------------


def _xe_chan(draw: str, with_: str) -> Chan:
    """§10.4 example 4: s1 dealt 9n 9n discards one (#3); at #10-#11 it eats ``draw``."""
    b = Chan().hand(S1, "9n9n 2v 3s 5n", without="9v 9s")
    b.discard(S0, "3v").draw(S1, "2v").eat(S1, "2v", S1, "2v").discard(S1, "9n")
    b.dp(S2).dp(S3).dp(S0).draw(S1, draw).eat(S1, draw, S1, with_)
    return b.discard(S1, "5n").abandon()


def test_XE_CHAN_triggers() -> None:
    r = _xe_chan("9s", "9n").replay()  # (b) a cạ eat with the remaining 9n
    only(r, "XE_CHAN", VIOL, seat=S1, index=11)
    r = _xe_chan("9n", "9n").replay()  # (a) a chắn eat of 9n
    only(r, "XE_CHAN", VIOL, seat=S1, index=11)


def test_XE_CHAN_clean() -> None:
    clean(_xe_chan("3s", "3s").replay())


# --- 5 TACH_CHAN_AN_CA -----------------------------------------------------------------------


def _tach_chan(draw: str, with_: str, last: str) -> Chan:
    """§10.4 example 5: s1 holds 2n 2n and eats s0's 2v with a 2n (#1)."""
    b = Chan(avoid="2s").hand(S1, "2n2n 7s 3v 5n")
    b.discard(S0, "2v").eat(S1, "2v", S0, "2n").discard(S1, "7s").dp(S2).dp(S3).dp(S0)
    return b.draw(S1, draw).eat(S1, draw, S1, with_).discard(S1, last).abandon()


def test_TACH_CHAN_AN_CA_triggers() -> None:
    r = _tach_chan("3v", "3v", "2n").replay()  # (b) discards the other 2n
    only(r, "TACH_CHAN_AN_CA", VIOL, seat=S1, index=11)
    r = _tach_chan("2s", "2n", "5n").replay()  # (a) eats with the other 2n
    only(r, "TACH_CHAN_AN_CA", VIOL, seat=S1, index=10)
    absent(r, "TACH_CA_AN_CA")  # s1 held 2 copies of 2n: rule 5, not 9


def test_TACH_CHAN_AN_CA_clean() -> None:
    clean(_tach_chan("3v", "3v", "5n").replay())


# --- 6 AN_CHAN_XE_CHAN -----------------------------------------------------------------------


def _an_chan(last: str) -> Chan:
    b = Chan().hand(S1, "3s3s 5n").discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s")
    return b.discard(S1, last).abandon()


def test_AN_CHAN_XE_CHAN_triggers() -> None:
    # §10.4 example 6: same turn
    only(_an_chan("3s").replay(), "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)


def test_AN_CHAN_XE_CHAN_clean() -> None:
    clean(_an_chan("5n").replay())


# --- 7 AN_CA_DANH_CA -------------------------------------------------------------------------


def _an_ca_danh_ca(last: str, **kw: object) -> Chan:
    """§10.4 example 7: s1's cạ eat of 5v (#1), then discards 8n (#2) and ``last`` (#11)."""
    b = Chan(avoid="5s", **kw).hand(S1, "5n 8n8v 3v 4s")  # type: ignore[arg-type]
    b.discard(S0, "5v").eat(S1, "5v", S0, "5n").discard(S1, "8n").dp(S2).dp(S3).dp(S0)
    return b.draw(S1, "3v").eat(S1, "3v", S1, "3v").discard(S1, last).abandon()


def test_AN_CA_DANH_CA_triggers() -> None:
    only(_an_ca_danh_ca("8v").replay(), "AN_CA_DANH_CA", VIOL, seat=S1, index=11)


def test_AN_CA_DANH_CA_clean() -> None:
    clean(_an_ca_danh_ca("4s").replay())


def test_AN_CA_DANH_CA_option_same_rank() -> None:
    # [D] "cạ khác" = any rank; with `same_rank` a rank-5 eat and a rank-8 cạ do not match
    r = _an_ca_danh_ca("8v", options={"an_ca_danh_ca_scope": "same_rank"}).replay()
    absent(r, "AN_CA_DANH_CA")


def test_AN_CA_DANH_CA_discard_first() -> None:
    # "và ngược lại": the whole cạ 8n 8v goes first, the cạ eat comes later
    b = Chan(avoid="5s").hand(S1, "5n 8n8v 3v 2v 4s")
    b.discard(S0, "6s").draw(S1, "3v").eat(S1, "3v", S1, "3v").discard(S1, "8n")
    b.dp(S2).dp(S3).dp(S0).draw(S1, "2v").eat(S1, "2v", S1, "2v").discard(S1, "8v")
    b.dp(S2).dp(S3).draw(S0, "5v").pass_(S0).eat(S1, "5v", S0, "5n").discard(S1, "4s")
    r = b.abandon().replay()
    only(r, "AN_CA_DANH_CA", VIOL, seat=S1, index=b.i - 2)


# --- 8 XE_CA_AN_CA ---------------------------------------------------------------------------


def _xe_ca(draw: str, with_: str) -> Chan:
    """§10.4 example 8: s1 holds 6v 6s and discards 6v (#3)."""
    b = Chan().hand(S1, "6v6s 3v 4n 5n", without="6n")
    b.discard(S0, "2n").draw(S1, "3v").eat(S1, "3v", S1, "3v").discard(S1, "6v")
    b.dp(S2).dp(S3).dp(S0).draw(S1, draw).eat(S1, draw, S1, with_)
    return b.discard(S1, "5n").abandon()


def test_XE_CA_AN_CA_triggers() -> None:
    only(_xe_ca("6n", "6s").replay(), "XE_CA_AN_CA", VIOL, seat=S1, index=11)


def test_XE_CA_AN_CA_clean() -> None:
    clean(_xe_ca("4n", "4n").replay())


# --- 9 TACH_CA_AN_CA (the seed's own example) ----------------------------------------------


def _tach_ca(draw: str, with_: str, last: str) -> Chan:
    """The seed: s1 has the cạ nhị sách + nhị vạn, draws nhị văn and eats it with the nhị
    sách (#1-#2); later it draws ``draw`` and eats it with ``with_`` (#10-#11)."""
    b = Chan().hand(S1, "2s 2v 5n 3s 4s")
    b.discard(S0, "3v").draw(S1, "2n").eat(S1, "2n", S1, "2s").discard(S1, "5n")
    b.dp(S2).dp(S3).dp(S0).draw(S1, draw).eat(S1, draw, S1, with_)
    return b.discard(S1, last).abandon()


def test_TACH_CA_AN_CA_triggers() -> None:
    # "bốc tiếp lên … nhị vạn lại hạ nốt nhị vạn xuống ăn"
    only(_tach_ca("2v", "2v", "4s").replay(), "TACH_CA_AN_CA", VIOL, seat=S1, index=11)
    # "bốc tiếp lên nhị văn … hạ nốt nhị vạn xuống ăn"
    only(_tach_ca("2n", "2v", "4s").replay(), "TACH_CA_AN_CA", VIOL, seat=S1, index=11)
    # "hoặc là đánh nhị vạn đi"
    only(_tach_ca("3s", "3s", "2v").replay(), "TACH_CA_AN_CA", VIOL, seat=S1, index=12)


def test_TACH_CA_AN_CA_clean() -> None:
    clean(_tach_ca("3s", "3s", "4s").replay())


# the winner's 19 after the rule-9 eat: 2v què + 6 chắn + 2 cạ concealed, E = 2n 2s
TACH_CA_WINNER = "2s 2v 3n3n 4s4s 5v5v 6n6n 7n7n 9n9n 8n8v 3v3s CC"


def test_TACH_CA_AN_CA_win_is_void() -> None:
    """(c) + §9 case I: s1 splits 2s 2v to eat 2n (#2), becomes ready, and wins on a 2v
    (#11) with the 2v still in hand: the win is void and s1 pays T_decl = 2 to each.

    Dealt, s1 is ready on CC, so the cạ eat that moves its wait to rank 2 is also error 10
    (AN_CA_DOI_CHO, which makes s1 out and its win U_LAO); that local rule is turned off
    here to see rule 9 alone."""
    b = Chan(options={"rule_an_ca_doi_cho": False}).hand(S1, TACH_CA_WINNER, exact=True)
    b.discard(S0, "8s").draw(S1, "2n").eat(S1, "2n", S1, "2s").discard(S1, "CC")
    b.dp(S2).dp(S3).dp(S0).draw(S1, "2v").win(S1, "2v")
    r = b.replay()
    only(r, "TACH_CA_AN_CA", VIOL, seat=S1, index=11)
    assert r.deltas == (2, -6, 2, 2)


def test_TACH_CA_AN_CA_win_with_rule_10() -> None:
    """The same log under the default rule 10: s1 is caught for AN_CA_DOI_CHO at #3 (12 to
    each, §9 case H) and its win is U_LAO (d) (12 to each, case E)."""
    b = Chan().hand(S1, TACH_CA_WINNER, exact=True)
    b.discard(S0, "8s").draw(S1, "2n").eat(S1, "2n", S1, "2s").discard(S1, "CC")
    b.dp(S2).dp(S3).dp(S0).draw(S1, "2v").win(S1, "2v")
    r = b.replay()
    only(r, "AN_CA_DOI_CHO", VIOL, seat=S1, index=3)
    only(r, "U_LAO", VIOL, seat=S1, index=11)
    assert r.deltas == (24, -72, 24, 24)


# --- 10 AN_CA_DOI_CHO ---------------------------------------------------------------------------

# §10.5: 5 chắn, 4 cạ and the què 6s: bạch thủ on 6s.
DOI_CHO = "2v2v 3n3n 5s5s 7v7v 9n9n 4n4s 2s2n 5v5n 8n8v 6s"


def _doi_cho(last: str, **kw: object) -> Chan:
    """§10.5: s1 discards 4v (#3), s2 eats it with 4n (#4) and discards ``last`` (#5)."""
    b = Chan(avoid="6v 6n", **kw).hand(S2, DOI_CHO, exact=True)  # type: ignore[arg-type]
    b.hand(S1, "7s 4v").discard(S0, "CC").draw(S1, "7s").eat(S1, "7s", S1, "7s")
    return b.discard(S1, "4v").eat(S2, "4v", S1, "4n").discard(S2, last)


def test_AN_CA_DOI_CHO_triggers() -> None:
    r = _doi_cho("6s").abandon().replay()  # now waiting on 4s instead of 6s
    only(r, "AN_CA_DOI_CHO", VIOL, seat=S2, index=5)


def test_AN_CA_DOI_CHO_clean() -> None:
    # after discarding 5s s2 is not ready: the wait did not change into another one
    clean(_doi_cho("5s").abandon().replay())


def test_AN_CA_DOI_CHO_pays_12_each_whatever_the_outcome() -> None:
    # §9 case H, here with a drawn hand: 1 + 21 = 22 draws
    r = _doi_cho("6s").turns(S3, 21).exhaustive_draw().replay()
    only(r, "AN_CA_DOI_CHO", VIOL, seat=S2, index=5)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (12, 12, -36, 12)


def test_AN_CA_DOI_CHO_option_off() -> None:
    r = _doi_cho("6s", options={"rule_an_ca_doi_cho": False}).abandon().replay()
    absent(r, "AN_CA_DOI_CHO")


# --- treo tranh and trái vỉ: the win scores 0 (§9 case C) ----------------------------------


def test_treo_tranh_winner_scores_nothing() -> None:
    # s2 eats 3n with 3s trái vỉ (#3), then wins X3's hand on 5v: "vẫn được ù" but 0
    b = Chan().hand(S2, "6v6v 3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n CC", exact=True)
    b.discard(S0, "2n").draw(S1, "3n").pass_(S1)
    b.eat(S2, "3n", S1, "3s", placement="eaten_on_top").discard(S2, "CC")
    r = b.draw(S3, "5v").win(S2, "5v", frm=S3).replay()
    only(r, "TRAI_VI", VIOL, seat=S2, index=3)
    assert r.winners == (S2,)
    assert r.deltas == (0, 0, 0, 0)


# s1: 9n 9n 9n, then WIDE6 without its chắn 9n9n, plus CC to discard
KHONG_CHIU = "9n9n9n 2v2v 3n3n 4s4s 5v5v 8n8v 2n2s 3v3s 6v CC"


def test_treo_tranh_khong_chiu_winner_scores_nothing() -> None:
    # s1 eats its drawn 9n with one 9n instead of chíu (#2), then wins on 6n: scores 0
    b = Chan(avoid="6n 6s").hand(S1, KHONG_CHIU, exact=True)
    b.discard(S0, "7s").draw(S1, "9n").eat(S1, "9n", S1, "9n").discard(S1, "CC")
    b.dp(S2).dp(S3).dp(S0).draw(S1, "6n").win(S1, "6n", cuoc=["chi"])
    r = b.replay()
    only(r, "TREO_TRANH_KHONG_CHIU", VIOL, seat=S1, index=2)
    assert r.winners == (S1,)
    assert r.deltas == (0, 0, 0, 0)


# --- 11 U_LAO --------------------------------------------------------------------------------


def test_U_LAO_triggers() -> None:
    # (b) §10.6 example: s1 declares ù on s0's discarded 5n; s1 pays 12 to each
    b = Chan().hand(S1, X3, exact=True).discard(S0, "5n").win(S1, "5n", frm=S0)
    r = b.replay()
    only(r, "U_LAO", VIOL, seat=S1, index=1)
    assert r.deltas == (12, -36, 12, 12)
    # (a) the 20 cards are not 10 pairs with 6 chắn
    r = Chan().discard(S0, "2n").draw(S1, "CC").win(S1, "CC", cuoc=["chi"]).replay()
    only(r, "U_LAO", VIOL, seat=S1, index=2)
    assert r.deltas == (12, -36, 12, 12)


X1 = "7n7n7n 3v3v 3s3s CCCC 9v9s 8s8v 5v5v 2v2n 4n4s"  # §13 X1, all concealed


def test_U_LAO_chiu_u_needs_three_copies() -> None:
    # (c): a chíu ù with two copies in `with`
    b = Chan().hand(S1, X1, exact=True).discard(S0, "7n")
    r = b.win(S1, "7n", via="chiu", frm=S0, with_="7n7n", cuoc=["chiu_u"]).replay()
    only(r, "U_LAO", VIOL, seat=S1, index=1)


def test_U_LAO_clean() -> None:
    r = x3_win().replay()
    clean(r)
    # a discarded card may be won by chíu ù (§4.3): X1's chíu ù declared as chíu ù only
    b = Chan().hand(S1, X1, exact=True).discard(S0, "7n")
    r = b.win(S1, "7n", via="chiu", frm=S0, with_="7n7n7n", cuoc=["chiu_u"]).replay()
    clean(r)
    assert (r.fan, r.deltas) == (3, (-3, 9, -3, -3))


def test_U_LAO_option_penalty_intentional() -> None:
    b = Chan(options={"penalty_intentional": 20}).discard(S0, "2n").draw(S1, "CC")
    r = b.win(S1, "CC").replay()
    assert r.deltas == (20, -60, 20, 20)
    b = Chan(options={"penalty_intentional_with_ga": True}).discard(S0, "2n").draw(S1, "CC")
    r = b.win(S1, "CC").replay()
    assert r.deltas == (17, -51, 17, 17)


def test_U_LAO_caught_player_cannot_win() -> None:
    # (d) s1 eats its drawn 9n as a chắn and discards the other 9n (error 6, #3): it is out,
    # and its later ù on 6n, though the 20 cards win, is U_LAO
    b = Chan(avoid="6n 6s").hand(S1, WIDE6, exact=True)
    b.discard(S0, "CC").draw(S1, "9n").eat(S1, "9n", S1, "9n").discard(S1, "9n")
    b.dp(S2).dp(S3).dp(S0).draw(S1, "6n").win(S1, "6n", cuoc=["chi"])
    r = b.replay()
    only(r, "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)
    only(r, "U_LAO", VIOL, seat=S1, index=11)
    assert r.deltas == (12, -36, 12, 12)


# --- 12 U_CHI_RONG --------------------------------------------------------------------------

# §10.6: 7 chắn, the cạ 4n4s and 6v6s, and the què CC
CHI_RONG = "2v2v 3n3n 5s5s 7v7v 8n8n 9n9n 3s3s 4n4s 6v6s CC"


def _chi_rong(s3_discard: str, win_card: str) -> Chan:
    """s2 discards 4n (#5); s3 eats it as a chắn (#6) and discards ``s3_discard`` (#7);
    s0 draws ``win_card`` (#8) and s3 wins on it (#9)."""
    b = Chan().hand(S3, CHI_RONG, exact=True).hand(S2, "7s 4n")
    b.discard(S0, "2n").dp(S1).draw(S2, "7s").eat(S2, "7s", S2, "7s").discard(S2, "4n")
    b.eat(S3, "4n", S2, "4n").discard(S3, s3_discard)
    return b.draw(S0, win_card).win(S3, win_card, frm=S0)


def test_U_CHI_RONG_triggers() -> None:
    # discarding CC at #7 would have left s3 waiting on rank 4; it kept the chi rộng
    r = _chi_rong("4s", "CC").replay()
    only(r, "U_CHI_RONG", VIOL, seat=S3, index=9)
    assert r.deltas == (12, 12, 12, -36)


def test_U_CHI_RONG_clean() -> None:
    r = _chi_rong("CC", "4v").replay()  # s3 changed the wait
    clean(r)
    assert r.deltas == (-2, -2, -2, 6)
    # "nếu chi lên ngay vẫn được ù": the chi rộng from the deal, before any discard by s3
    b = Chan().hand(S3, CHI_RONG, exact=True).discard(S0, "2n").draw(S1, "CC")
    r = b.win(S3, "CC", frm=S1).replay()
    clean(r)
    assert r.deltas == (-2, -2, -2, 6)


# --- 13 BO_U -----------------------------------------------------------------------------------

# the dealer s0: 6 chắn, 3 cạ, què 7n (wide on rank 7) and 9s to discard
BO_U_DEALER = "2v2v 3n3n 4s4s 5v5v 6n6n 9n9n 8n8v 2n2s 3v3s 7n 9s"


def _bo_u_start() -> Chan:
    b = Chan().hand(S0, BO_U_DEALER, exact=True).hand(S3, "7s 4v")
    return b.discard(S0, "9s").dp(S1).draw(S2, "7v").pass_(S2)  # s0 could win on 7v (#3)


def test_BO_U_triggers() -> None:
    # §10.6 example: s3 eats the 7v, s0 draws (#7: barred), later s0 declares ù on a 7s
    b = _bo_u_start().eat(S3, "7v", S2, "7s").discard(S3, "4v").dp(S0).dp(S1)
    r = b.draw(S2, "7s").win(S0, "7s", frm=S2).replay()
    only(r, "BO_U", VIOL, seat=S0, index=12)
    absent(r, "U_LAO")
    assert r.deltas == (-36, 12, 12, 12)


def test_BO_U_clean() -> None:
    r = _bo_u_start().win(S0, "7v", frm=S2).replay()  # still live after s2's pass
    clean(r)
    assert r.deltas == (6, -2, -2, -2)


# --- 14 XUONG_SAI ------------------------------------------------------------------------------


def test_XUONG_SAI_triggers() -> None:
    # §10.7: a wide wait declared bạch thủ; T_decl = 4 + 1 + 5 (gà chì bạch thủ) = 10
    r = wide6_win(("chi", "bach_thu")).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)
    assert r.deltas == (10, -30, 10, 10)
    # more tôm than present (one tôm: 3v 3s 7n)
    r = wide6_win(("chi", ("tom", 2))).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)


def test_XUONG_SAI_clean() -> None:
    r = wide6_win(("chi",)).replay()
    clean(r)
    assert r.deltas == (-3, 9, -3, -3)
    # every cước present: tôm 4 + dịch chì 1 + dịch địa ù 1 = 6
    r = wide6_win(("chi", "dia_u", "tom")).replay()
    clean(r)
    assert (r.fan, r.deltas) == (6, (-6, 18, -6, -6))
    # xuông is never a wrong declaration (§7.4)
    r = wide6_win(("xuong", "chi")).replay()
    clean(r)
    assert r.fan == 3


# --- Ù 4-11 (§10.8) ---------------------------------------------------------------------------


def test_U_4_11_THIEU_DIEM_triggers() -> None:
    # §10.8 / X3 variant: xuông (T = 2) in 4-11 mode; s2 pays 11 to each
    r = x3_win(options={"mode_4_11": True}).replay()
    only(r, "U_4_11_THIEU_DIEM", VIOL, seat=S2, index=6)
    assert r.deltas == (11, 11, -33, 11)


def test_U_4_11_THIEU_DIEM_clean() -> None:
    r = wide6_win(("chi", "dia_u"), options={"mode_4_11": True}).replay()  # T = 4
    clean(r)
    assert r.deltas == (-4, 12, -4, -4)
    clean(x3_win().replay())  # mode off (default)


def test_U_4_11_THIEU_DIEM_options() -> None:
    opts = {"mode_4_11": True, "min_points_4_11": 5, "penalty_4_11": 7}
    r = wide6_win(("chi", "dia_u"), options=opts).replay()
    only(r, "U_4_11_THIEU_DIEM", VIOL, seat=S1, index=2)
    assert r.deltas == (7, -21, 7, 7)


# --- order of the win checks (§9, §11 #35) --------------------------------------------------


def test_BO_U_before_U_LAO() -> None:
    # the barred s0 then declares ù on a card that does not even win: BO_U applies
    b = _bo_u_start().eat(S3, "7v", S2, "7s").discard(S3, "4v").dp(S0).dp(S1)
    r = b.draw(S2, "CC").win(S0, "CC", frm=S2).replay()
    only(r, "BO_U", VIOL, seat=S0, index=12)
    assert r.deltas == (-36, 12, 12, 12)


# --- more settlement cases and options ------------------------------------------------------

# s1 holds the chắn 2n 2n, 6 more chắn, the cạ 8n8v 3v3s and CC (ready on CC when dealt)
TACH_CHAN_WINNER = "2n2n 3n3n 4s4s 5v5v 6n6n 7n7n 9n9n 8n8v 3v3s CC"


def test_TACH_CHAN_AN_CA_win_is_void() -> None:
    """Rule 5(c) + §9 case I: s1 splits its chắn 2n 2n to eat s0's 2v as a cạ (#1), and
    wins on a 2s (#10) with the other 2n still in hand (rule 10 off, as above)."""
    b = Chan(options={"rule_an_ca_doi_cho": False}).hand(S1, TACH_CHAN_WINNER, exact=True)
    b.discard(S0, "2v").eat(S1, "2v", S0, "2n").discard(S1, "CC").dp(S2).dp(S3).dp(S0)
    r = b.draw(S1, "2s").win(S1, "2s", cuoc=["chi"]).replay()
    only(r, "TACH_CHAN_AN_CA", VIOL, seat=S1, index=10)
    assert r.deltas == (3, -9, 3, 3)  # T_decl = chì 3 to each


def _caught_then_wins(**opts: object) -> Chan:
    """s1 makes error 6 at #3 (chắn eat of 9n, then discards the other 9n), stays ready on
    rank 6 and wins on its own 6n at #11 declaring chì."""
    b = Chan(avoid="6n 6s", options=opts).hand(S1, WIDE6, exact=True)
    b.discard(S0, "CC").draw(S1, "9n").eat(S1, "9n", S1, "9n").discard(S1, "9n")
    return b.dp(S2).dp(S3).dp(S0).draw(S1, "6n").win(S1, "6n", cuoc=["chi"])


def test_reported_only_unreported_error_does_not_stop_the_winner() -> None:
    r = _caught_then_wins(enforcement="reported_only").replay()
    only(r, "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)
    absent(r, "U_LAO")
    assert r.deltas == (-3, 9, -3, -3)


def test_reported_only_bao_after_the_win_voids_it() -> None:
    # §9 case I / §10.9: a báo recorded after the `win` counts; s1 pays T_decl = 3 to each
    r = _caught_then_wins(enforcement="reported_only").bao(S2, S1, "AN_CHAN_XE_CHAN").replay()
    absent(r, "BAO_SAI")
    absent(r, "EVENT_AFTER_END")
    assert r.deltas == (3, -9, 3, 3)


def _two_caught(**opts: object) -> Chan:
    """s1 (#3) and s2 (#6) each make error 6; s3 (W9) then wins on its own 9v (T = 3)."""
    b = Chan(options=opts).hand(S3, W9, exact=True).hand(S1, "3s3s").hand(S2, "5s5s")
    b.discard(S0, "5n").draw(S1, "3s").eat(S1, "3s", S1, "3s").discard(S1, "3s")
    b.draw(S2, "5s").eat(S2, "5s", S2, "5s").discard(S2, "5s")
    return b.draw(S3, "9v").win(S3, "9v", cuoc=["chi"])


def test_den_lang_multiple() -> None:
    # [D] only the earliest caught player pays (N - 1) x T ...
    r = _two_caught().replay()
    assert [(f.seat, f.event_index) for f in with_code(r, "AN_CHAN_XE_CHAN")] == [(S1, 3), (S2, 6)]
    assert r.deltas == (0, -9, 0, 9)
    # ... option `each`: every caught player does
    assert _two_caught(den_lang_multiple="each").replay().deltas == (0, -9, -9, 18)


def test_U_4_11_decline_bars_without_violation() -> None:
    """§8: in 4-11 mode s2 may decline a xuông win (decline_u); that is no violation, but
    from its own next nọc draw it is barred, exactly like bỏ ù."""

    def declined() -> Chan:
        b = Chan(options={"mode_4_11": True}).hand(S2, X3, exact=True)
        return b.discard(S0, "2n").dp(S1).dp(S2).draw(S3, "5v").decline_u(S2).pass_(S3)

    clean(declined().dp(S0).dp(S1).dp(S2).abandon().replay())
    b = declined().dp(S0).dp(S1).dp(S2).draw(S3, "5n").win(S2, "5n", frm=S3, cuoc=["chi"])
    r = b.replay()
    only(r, "BO_U", VIOL, seat=S2, index=b.i)
    assert r.deltas == (12, 12, -36, 12)


def test_thien_u_is_a_deal_win() -> None:
    # §5.1: the dealer wins with its 20 dealt cards (X3 + 5v), declaring thiên ù (3)
    b = Chan().hand(S0, X3 + " 5v", exact=True).win(S0, "5v", via="deal", cuoc=["thien_u"])
    r = b.replay()
    clean(r)
    assert r.deltas == (9, -3, -3, -3)


# --- probes of finer points -------------------------------------------------------------------


def test_BO_U_window_stays_open_until_own_draw() -> None:
    """§10.6 BO_U: "An eat of the card, or a draw by another player, does not close it".
    s0 could win on s2's 7v (#3); s3's draw (#5) kills the 7v; s0 then eats s3's 8n with its
    own 8n instead of drawing (#7) and discards 8v (still ready on rank 7); it wins on the
    7s s1 draws (#10): no nọc draw by s0 came between, so it is not barred."""
    b = _bo_u_start().draw(S3, "8n").pass_(S3).eat(S0, "8n", S3, "8n").discard(S0, "8v")
    r = b.draw(S1, "7s").win(S0, "7s", frm=S1).replay()
    clean(r)
    assert r.deltas == (6, -2, -2, -2)


def test_U_CHI_RONG_dealer_opening_discard_counts() -> None:
    """§10.6 U_CHI_RONG: "the dealer's opening discard does count as a chance to change".
    The dealer's 20 are CHI_RONG + 5n; discarding CC would leave it waiting on rank 5; it
    discards 5n and later wins on CC."""
    b = Chan().hand(S0, CHI_RONG + " 5n", exact=True).discard(S0, "5n")
    r = b.draw(S1, "CC").win(S0, "CC", frm=S1).replay()
    only(r, "U_CHI_RONG", VIOL, seat=S0, index=2)
    assert r.deltas == (-36, 12, 12, 12)
    b = Chan().hand(S0, CHI_RONG + " 5n", exact=True).discard(S0, "CC")
    clean(b.draw(S1, "5v").win(S0, "5v", frm=S1).replay())


def test_BO_AN_CHAN_declined_drawn_card() -> None:
    # kind = cua_chi: s1 draws 6n holding a 6n and leaves it (#2); it later discards its 6n
    b = Chan(avoid="6v 6s").hand(S1, "6n 3s 5s").discard(S0, "2n").draw(S1, "6n").pass_(S1)
    b.dp(S2).dp(S3).draw(S0, "5v").pass_(S0).eat(S1, "5v", S0, "5s").discard(S1, "6n")
    only(b.abandon().replay(), "BO_AN_CHAN", VIOL, seat=S1, index=10)


def test_decline_u_without_opportunity_is_a_no_op() -> None:
    # §11 #38
    clean(Chan().discard(S0, "2n").dp(S1).decline_u(S2).dp(S2).abandon().replay())


def test_reported_only_treo_tranh_needs_a_bao() -> None:
    """§10.9: with reported_only, trái vỉ takes effect only when reported; a báo after the
    win counts."""

    def log() -> Chan:
        b = Chan(options={"enforcement": "reported_only"})
        b.hand(S2, "6v6v 3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n CC", exact=True)
        b.discard(S0, "2n").draw(S1, "3n").pass_(S1)
        b.eat(S2, "3n", S1, "3s", placement="eaten_on_top").discard(S2, "CC")
        return b.draw(S3, "5v").win(S2, "5v", frm=S3)

    r = log().replay()
    only(r, "TRAI_VI", VIOL, seat=S2, index=3)
    assert r.deltas == (-2, -2, 6, -2)
    assert log().bao(S0, S2, "TRAI_VI").replay().deltas == (0, 0, 0, 0)


def test_reported_only_out_player_is_skipped_for_cua_tren() -> None:
    """§5.7: s1 is out after the báo (#4); s2's cửa trên is then s0's cửa chì, so s2 may eat
    s0's drawn 4v with `from` = s0."""
    b = Chan(options={"enforcement": "reported_only"}).hand(S1, "3s3s").hand(S2, "4v 2s")
    b.discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s").discard(S1, "3s")
    b.bao(S3, S1, "AN_CHAN_XE_CHAN").dp(S2).dp(S3).draw(S0, "4v").pass_(S0)
    r = b.eat(S2, "4v", S0, "4v").discard(S2, "2s").abandon().replay()
    absent(r, "EAT_SOURCE_MISMATCH")
    absent(r, "AN_SAI_LUOT")
    assert not r.corrupt


def test_three_players() -> None:
    # §2 [D]: N = 3, play runs s0, s1, s2; the winner is paid by the two others
    b = Chan(n=3).hand(S2, X3, exact=True).discard(S0, "2n").dp(S1).dp(S2).dp(S0)
    r = b.draw(S1, "5v").win(S2, "5v", frm=S1).replay()
    clean(r)
    assert r.deltas == (-2, -2, 4)


def test_three_players_caught_pays_twice_T() -> None:
    # §9 case B with N = 3: the caught player pays (N - 1) x T = 2 x 2
    b = Chan(n=3, avoid="5v 5n").hand(S2, W9, exact=True).hand(S1, "3s3s")
    b.discard(S0, "2s").draw(S1, "3s").eat(S1, "3s", S1, "3s").discard(S1, "3s")
    r = b.dp(S2).draw(S0, "9v").win(S2, "9v", frm=S0).replay()
    only(r, "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)
    assert r.deltas == (0, -4, 4)


def test_win_on_a_dead_card() -> None:
    # §11 #34: s3's 5v stops being live at s0's draw (#7); s2's ù on it is not on the
    # current live card
    b = Chan().hand(S2, X3, exact=True).discard(S0, "2n").dp(S1).dp(S2).dp(S3, "5v")
    r = b.draw(S0).win(S2, "5v", frm=S3).replay()
    only(r, "U_SOURCE_MISMATCH", HARD, seat=S2, index=8)


def test_win_after_the_dead_last_card_is_not_settled() -> None:
    # §11 #17: the hand is settled as a draw at the 23rd draw; later events are not settled
    b = Chan().discard(S0, "2n").turns(S1, 22).draw(S3, "CC").win(S0, "CC", frm=S3)
    r = b.replay()
    only(r, "BOC_QUAN_NOC_CHET", VIOL, seat=S3, index=45)
    assert r.deltas == (0, 0, 0, 0)


def test_den_lang_basis_on_wrong_call() -> None:
    """§9 case D option: the caught s1 pays the valid part of s3's declaration (here empty:
    xuông, 2) instead of auto_value (4)."""
    opts = {"den_lang_basis_on_wrong_call": "declared_valid"}
    r = _bo_an_chan_then_s3_wins(cuoc=("bach_thu",), options=opts).replay()
    only(r, "XUONG_SAI", VIOL, seat=S3, index=12)
    assert r.deltas == (6, -4, 6, -8)


def test_opportunity_taken_by_chiu_is_not_declined() -> None:
    """§10.1: O "is not declined if X is first taken by another player's win or chíu". s1
    (holding 6v) could eat s0's 6s as a cạ, but s3 takes it by chíu (#1) and returns a card
    into D(s0) (#2); s1's later cạ eat of a 6n is no ăn chọn cạ."""
    b = Chan(avoid="6n").hand(S3, "6s6s6s 2n").hand(S1, "6v 2s")
    b.discard(S0, "6s").chiu(S3, "6s", S0).discard(S3, "2n", to=S0)
    b.dp(S1).dp(S2).dp(S3).draw(S0, "6n").pass_(S0).eat(S1, "6n", S0, "6v")
    r = b.discard(S1, "2s").abandon().replay()
    absent(r, "AN_CHON_CA")
    clean(r)


def test_tra_cua_card_is_the_next_players_cua_tren() -> None:
    # §10.1 / §5.4: s0's trả cửa lands in D(s2) (#5); s3's turn begins with it as cửa trên
    b = _chiu_from_s2_probe().eat(S3, "2v", S2, "2n").discard(S3, "3s")
    clean(b.abandon().replay())


def _chiu_from_s2_probe() -> Chan:
    b = Chan().hand(S0, "6s6s6s 2v").hand(S3, "2n 3s")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2)
    return b.discard(S0, "2v", to=S2)


def test_chiu_u_on_another_players_draw() -> None:
    # §4.3 / §5.5: X1's s1 takes s3's drawn 7n by chíu ù; not chì
    b = Chan(avoid="7v 7s").hand(S1, X1, exact=True).discard(S0, "2s").dp(S1).dp(S2)
    r = b.draw(S3, "7n").win(S1, "7n", via="chiu", frm=S3, with_="7n7n7n", cuoc=["chiu_u"])
    rep = r.replay()
    clean(rep)
    assert rep.deltas == (-3, 9, -3, -3)
    b = Chan(avoid="7v 7s").hand(S1, X1, exact=True).discard(S0, "2s").dp(S1).dp(S2)
    b.draw(S3, "7n").win(S1, "7n", via="chiu", frm=S3, with_="7n7n7n", cuoc=["chiu_u", "chi"])
    only(b.replay(), "XUONG_SAI", VIOL, seat=S1, index=6)


def test_XUONG_SAI_combination_rules() -> None:
    """§7.4: `chiu_u` and `co_chiu` may not count the same chíu."""
    b = Chan().hand(S1, X1, exact=True).discard(S0, "7n")
    r = b.win(S1, "7n", via="chiu", frm=S0, with_="7n7n7n", cuoc=["chiu_u", "co_chiu"]).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=1)


def test_thong_from_the_previous_report() -> None:
    """§6: without `previous_hand` the engine reads the previous hand of the same game."""
    first = wide6_win(("chi",)).replay()
    assert first.winners == (S1,)
    second = wide6_win(("thong", "chi"), hand_no=2)
    r = second.replay(previous=first)
    absent(r, "THONG_UNVERIFIED")
    clean(r)
    assert r.deltas == (-4, 12, -4, -4)


def test_AN_CA_DOI_CHO_player_still_pays_a_valid_win() -> None:
    """§9 case H is added to case A: s2 (error 10, out) pays 12 to each, and as a loser of
    s3's valid win (T = 3) it pays 3 like the others (error 10 is not case B's 1-9)."""
    b = _doi_cho("6s").hand(S3, W9, exact=True)
    r = b.draw(S3, "9v").win(S3, "9v", cuoc=["chi"]).replay()
    only(r, "AN_CA_DOI_CHO", VIOL, seat=S2, index=5)
    assert r.deltas == (9, 9, -39, 21)


# --- options that change a check or its settlement (§12) -------------------------------------


def test_option_continue_after_void_u() -> None:
    """§5.6 [D]: a false ù ends the hand, so a later draw is EVENT_AFTER_END; with
    `continue_after_void_u` play goes on."""

    def log(**opts: object) -> Chan:
        b = Chan(options=opts).hand(S1, X3, exact=True).discard(S0, "5n")
        return b.win(S1, "5n", frm=S0).dp(S2).abandon()

    r = log().replay()
    only(r, "U_LAO", VIOL, seat=S1, index=1)
    only(r, "EVENT_AFTER_END", HARD, seat=S2, index=2)
    r = log(continue_after_void_u=True).replay()
    only(r, "U_LAO", VIOL, seat=S1, index=1)
    absent(r, "EVENT_AFTER_END")


# s1: WIDE6 with its cạ 8n8v replaced by 8v and a spare CC (not ready when dealt)
LATE_FIRST_DRAW = "2v2v 3n3n 4s4s 5v5v 7n7n 9n9n 8v 2n2s 3v3s 6v CC"


def _first_draw_in_round_two(**opts: object) -> Chan:
    """s1 eats s0's 8n with 8v in round 1 (no draw), and wins on its first nọc draw, in
    round 2, declaring chì and địa ù."""
    b = Chan(avoid="6n 6s", options=opts).hand(S1, LATE_FIRST_DRAW, exact=True)
    b.discard(S0, "8n").eat(S1, "8n", S0, "8v").discard(S1, "CC").dp(S2).dp(S3).dp(S0)
    return b.draw(S1, "6n").win(S1, "6n", cuoc=["chi", "dia_u"])


def test_option_dia_u_first_round_only() -> None:
    r = _first_draw_in_round_two().replay()  # §7.2: W's own first draw: địa ù
    clean(r)
    assert r.deltas == (-4, 12, -4, -4)
    r = _first_draw_in_round_two(dia_u_first_round_only=True).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=10)
    assert r.deltas == (4, -12, 4, 4)


def test_option_ga_in_a_wrong_declaration() -> None:
    # §10.7's T_decl = 4 + 1 + 5 counts the gà chì bạch thủ; without gà it is 5 ...
    r = wide6_win(("chi", "bach_thu"), options={"play_ga": False}).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)
    assert r.deltas == (5, -15, 5, 5)
    # ... and with 2 gà for chì bạch thủ (seed: "2 gà, hoặc 1 gà") it is 15
    r = wide6_win(("chi", "bach_thu"), options={"ga_chi_bach_thu": 2}).replay()
    assert r.deltas == (15, -45, 15, 15)


# --- báo and reported_only ----------------------------------------------------------------------


def _an_chan_xe_chan_s1() -> Chan:
    b = Chan().hand(S1, "3s3s").discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s")
    return b.discard(S1, "3s")


def test_BAO_SAI_wrong_accused_or_too_early() -> None:
    # §11 #39: the code must match a finding on the accused at or before the báo
    r = _an_chan_xe_chan_s1().bao(S2, S3, "AN_CHAN_XE_CHAN").abandon().replay()
    only(r, "BAO_SAI", VIOL, seat=S2, index=4)
    b = Chan().hand(S1, "3s3s").discard(S0, "2n").bao(S2, S1, "AN_CHAN_XE_CHAN")
    b.draw(S1, "3s").eat(S1, "3s", S1, "3s").discard(S1, "3s")
    only(b.abandon().replay(), "BAO_SAI", VIOL, seat=S2, index=1)


def test_reported_only_errors_11_to_14_need_no_bao() -> None:
    # §10.9: "Errors 11–14 and 4-11 are always applied"
    b = Chan(options={"enforcement": "reported_only"}).hand(S1, X3, exact=True)
    r = b.discard(S0, "5n").win(S1, "5n", frm=S0).replay()
    only(r, "U_LAO", VIOL, seat=S1, index=1)
    assert r.deltas == (12, -36, 12, 12)


def test_reported_only_AN_CA_DOI_CHO_needs_a_bao() -> None:
    opts = {"enforcement": "reported_only"}
    r = _doi_cho("6s", options=opts).turns(S3, 21).exhaustive_draw().replay()
    only(r, "AN_CA_DOI_CHO", VIOL, seat=S2, index=5)
    assert r.deltas == (0, 0, 0, 0)
    b = _doi_cho("6s", options=opts).bao(S3, S2, "AN_CA_DOI_CHO").turns(S3, 21)
    r = b.exhaustive_draw().replay()
    absent(r, "BAO_SAI")
    assert r.deltas == (12, 12, -36, 12)


def test_SAI_NGUOI_BAT_CAI_from_the_previous_report() -> None:
    """§6: without `previous_hand`, the previous hand of the game says who gives the cái:
    s1 won hand 1, so s1 must give the cái of hand 2."""
    first = wide6_win(("chi",)).replay()
    b = Chan(dealer=S0, hand_no=2).cai(S2, "3v").discard(S0, "2n").abandon()  # 2+3-1 = 0
    only(b.replay(previous=first), "SAI_NGUOI_BAT_CAI", VIOL, seat=S2, index=None)
    b = Chan(dealer=S3, hand_no=2).cai(S1, "3v").discard(S3, "2n").abandon()
    clean(b.replay(previous=first))


def test_tra_cua_is_a_discard_for_rule_3() -> None:
    # §10.4: "a trả cửa (§5.4) is a discard": s0 discards a 2v (#0) and later returns the
    # other 2v as its trả cửa after a chíu (#5)
    b = Chan().hand(S0, "6s6s6s 2v2v").discard(S0, "2v").dp(S1).draw(S2, "6s")
    b.chiu(S0, "6s", S2).discard(S0, "2v", to=S2).dp(S3)
    only(b.abandon().replay(), "DANH_CA_CHAN", VIOL, seat=S0, index=5)


def test_BO_U_own_drawn_card_left_then_next_draw_by_another() -> None:
    """s1 leaves its own winning 6n (#2); s2's draw (#3) does not bar s1, which wins on
    s2's 6s; had s1 waited for its own next draw, a later ù would be BO_U."""
    b = Chan(avoid="6v").hand(S1, WIDE6, exact=True).discard(S0, "CC").draw(S1, "6n")
    r = b.pass_(S1).draw(S2, "6s").win(S1, "6s", frm=S2).replay()
    clean(r)
    assert r.deltas == (-2, 6, -2, -2)
    b = Chan(avoid="6v").hand(S1, WIDE6, exact=True).discard(S0, "CC").draw(S1, "6n")
    b.pass_(S1).dp(S2).dp(S3).dp(S0).dp(S1).draw(S2, "6s").win(S1, "6s", frm=S2)
    only(b.replay(), "BO_U", VIOL, seat=S1, index=b.i)
