"""chan.md §11 replay legality checklist, one trigger and one clean log per code.

Each ``test_<CODE>_triggers`` builds a log that breaks exactly one rule and asserts the
finding's code, class, event index and seat (record-level findings have index None and
the seat they are about: the seat dealt a wrong hand, the recorded dealer for SAI_CAI, the
recorded giver for SAI_NGUOI_BAT_CAI; None for the record as a whole); each
``test_<CODE>_clean`` is the nearest log that keeps the rule. CORRUPT_LOG stops the replay and the hand is not settled (§0). The errors 1-14
of §10.4-§10.8 (checklist #13, #27, #35) have their own file,
``test_checklist_chan_errors.py``.

Seats: s0 is the dealer (20 cards) unless stated; play runs s0, s1, s2, s3 (§0).
"""

from __future__ import annotations

from collections import Counter

import pytest
from chan_builder import (
    AUDIT,
    DECK,
    ENGINE_READY,
    HARD,
    INFO,
    VIOL,
    Chan,
    absent,
    canonical,
    clean,
    only,
    stopped,
    with_code,
)
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import ErrorCode, RecordError

pytestmark = pytest.mark.skipif(not ENGINE_READY, reason="the chan engine is not registered")

S0, S1, S2, S3 = 0, 1, 2, 3

# §13 X3: 6 chắn, 3 cạ and the què 5n: a wide wait on rank 5 (5v, 5n or 5s wins).
X3 = "6v6v 3n3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n"
# A wide wait on rank 6 with the què 6v (§10.7's example hand): 6n or 6s wins.
WIDE6 = "2v2v 3n3n 4s4s 5v5v 7n7n 9n9n 8n8v 2n2s 3v3s 6v"


def x3_win(**kw: object) -> Chan:
    """§13 X3 as a log: s3 draws 5v and s2 wins on it, declaring xuông (T = 2)."""
    b = Chan(**kw).hand(S2, X3, exact=True)  # type: ignore[arg-type]
    b.discard(S0, "2n").dp(S1).dp(S2)
    return b.draw(S3, "5v").win(S2, "5v", frm=S3)


def wide6_win(cuoc: tuple[str, ...] = ("chi",), **kw: object) -> Chan:
    """s1 draws 6n on its first turn and wins on it (chì; địa ù present, not declared)."""
    b = Chan(avoid="6n 6s", **kw).hand(S1, WIDE6, exact=True)  # type: ignore[arg-type]
    return b.discard(S0, "CC").draw(S1, "6n").win(S1, "6n", cuoc=cuoc)


def test_baseline_x3_is_clean() -> None:
    r = x3_win().result([S2], 2, deltas=[-2, -2, 6, -2]).replay()
    assert r.findings == ()
    assert (r.winners, r.fan, r.ended_by) == ((S2,), 2, "win")
    assert r.deltas == (-2, -2, 6, -2)
    assert r.matches_recorded is True


def test_baseline_without_wall_is_clean() -> None:
    r = x3_win().replay(wall=False)
    assert r.findings == ()
    assert r.deltas == (-2, -2, 6, -2)


def test_builder_records_validate() -> None:
    rec = Chan(dealer=S3).cai(S1, "3v").discard(S3, "2n").turns(S0, 4).abandon().record()
    assert rec["ruleset"] == "chan"
    assert len(rec["wall"]) == 23
    assert [len(h) for h in rec["start_hands"]] == [19, 19, 19, 20]
    dealt = Counter(c for h in rec["start_hands"] for c in h) + Counter(rec["wall"])
    assert dealt == DECK  # the 100 cards, 4 of each of the 25 identities
    draws = [e["tile"] for e in rec["events"] if e["type"] == "draw"]
    assert rec["wall"][: len(draws)] == draws
    assert "3v" in rec["start_hands"][S3]


# --- #1-#2 record --------------------------------------------------------------------------


def test_RECORD_INVALID_triggers() -> None:
    r = Chan(options={"no_such_option": 1}).discard(S0, "2n").abandon().replay()
    only(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)
    r = Chan(options={"enforcement": "sometimes"}).discard(S0, "2n").abandon().replay()
    only(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)
    r = Chan(players=["an", "an", "chau", "dung"]).discard(S0, "2n").abandon().replay()
    only(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)
    # one player: below the 2-5 of §2 (a raw record: the schema refuses it already)
    rec = Chan().discard(S0, "2n").abandon().record(wall=False)
    rec["players"] = ["an"]
    rec["start_hands"] = rec["start_hands"][:1]
    r = replay_hand(rec)
    only(r, "RECORD_INVALID", HARD, seat=None, index=None)


def test_RECORD_INVALID_clean() -> None:
    opts = {"enforcement": "reported_only", "mode_4_11": False, "stake": 2}
    clean(Chan(options=opts).discard(S0, "2n").dp(S1).abandon().replay())
    clean(Chan(n=3).discard(S0, "2n").dp(S1).dp(S2).abandon().replay())
    clean(Chan(n=2).discard(S0, "2n").dp(S1).abandon().replay())


def test_PLAYER_COUNT_UNSUPPORTED_triggers() -> None:
    r = Chan(n=5).discard(S0, "2n").abandon().replay(wall=False)
    only(r, "PLAYER_COUNT_UNSUPPORTED", INFO, seat=None, index=None)
    assert r.deltas is None
    assert [f.code for f in r.findings] == ["PLAYER_COUNT_UNSUPPORTED"]  # no replay


def test_PLAYER_COUNT_UNSUPPORTED_clean() -> None:
    r = Chan().discard(S0, "2n").abandon().replay()
    absent(r, "PLAYER_COUNT_UNSUPPORTED")
    clean(r)


# --- #3-#8 cards and the deal -------------------------------------------------------------


def test_UNKNOWN_CARD_triggers() -> None:
    rec = Chan().discard(S0, "2n").dp(S1).abandon().record(wall=False)
    rec["events"][1]["tile"] = "1v"  # the nhất rank is not in the chắn deck (§1.1)
    with pytest.raises(RecordError) as err:  # ingest refuses it before the replayer sees it
        canonical(rec)
    assert err.value.code is ErrorCode.UNKNOWN_TILE
    assert err.value.path == "$.events[1].tile"
    r = replay_hand(rec)
    only(r, "UNKNOWN_CARD", HARD, seat=S1, index=1)
    stopped(r)
    rec = Chan().discard(S0, "2n").abandon().record(wall=False)
    rec["start_hands"][2][0] = "cc"  # codes are case-sensitive
    r = replay_hand(rec)
    only(r, "UNKNOWN_CARD", HARD, seat=None, index=None)
    stopped(r)


def test_UNKNOWN_CARD_clean() -> None:
    r = Chan().discard(S0, "2n").draw(S1, "CC").pass_(S1).abandon().replay(wall=False)
    absent(r, "UNKNOWN_CARD")
    clean(r)


def test_CARD_COUNT_EXCEEDED_triggers() -> None:
    # a fifth 7n in the deal
    b = Chan(allow_overcount=True).hand(S1, "7n7n7n").hand(S2, "7n7n")
    r = b.discard(S0, "2n").abandon().replay(wall=False)
    only(r, "CARD_COUNT_EXCEEDED", HARD, seat=None, index=None)
    stopped(r)
    # a fifth 7n turned up by a draw
    b = Chan(allow_overcount=True).hand(S1, "7n7n").hand(S2, "7n7n")
    r = b.discard(S0, "2n").draw(S1, "7n").pass_(S1).abandon().replay(wall=False)
    only(r, "CARD_COUNT_EXCEEDED", HARD, seat=S1, index=1)  # the event's seat
    stopped(r)


def test_CARD_COUNT_EXCEEDED_clean() -> None:
    b = Chan().hand(S1, "7n7n").hand(S2, "7n7n").discard(S0, "2n").dp(S1).abandon()
    r = b.replay(wall=False)
    absent(r, "CARD_COUNT_EXCEEDED")
    clean(r)


def test_DEAL_INVALID_triggers() -> None:
    # a non-dealer with 18 cards
    r = Chan().size(S2, 18).discard(S0, "2n").abandon().replay(wall=False)
    only(r, "DEAL_INVALID", HARD, seat=S2, index=None)  # the seat whose hand is wrong
    stopped(r)
    # the dealer with 19 (the cái pile has 20)
    r = Chan().size(S0, 19).discard(S0, "2n").abandon().replay(wall=False)
    only(r, "DEAL_INVALID", HARD, seat=S0, index=None)
    # a nọc of 22 cards
    rec = Chan().discard(S0, "2n").abandon().record()
    rec["wall"] = rec["wall"][:22]
    r = replay_hand(rec)
    only(r, "DEAL_INVALID", HARD, seat=None, index=None)
    stopped(r)
    # #6: the cái card is not in the dealer's hand
    rec = Chan(dealer=S3).cai(S1, "3v").discard(S3, "2n").abandon().record()
    rec["start_hands"][S3].remove("3v")
    rec["start_hands"][S3].append(rec["start_hands"][S1].pop())
    rec["start_hands"][S1].append("3v")  # s1 now holds the dealer's cái card
    r = replay_hand(rec)
    only(r, "DEAL_INVALID", HARD, seat=S3, index=None)  # the dealer
    stopped(r)


def test_DEAL_INVALID_clean() -> None:
    clean(Chan(dealer=S3).cai(S1, "3v").discard(S3, "2n").abandon().replay())
    # 2-3 players: the set-aside piles are unseen, the nọc is still 23 (§2)
    r = Chan(n=3).discard(S0, "2n").dp(S1).abandon().replay()
    absent(r, "DEAL_INVALID")
    clean(r)


def test_SAI_CAI_triggers() -> None:
    # giver s1 turns up a tam (3): s1 counts 1, s2 2, s3 3 -> s3 should be the dealer
    r = Chan().cai(S1, "3v").discard(S0, "2n").abandon().replay()
    only(r, "SAI_CAI", VIOL, seat=S0, index=None)  # seat: the recorded dealer
    assert r.deltas is not None and not r.corrupt  # finding only
    # CC counts as 1 [D]: giver s2 with chi chi makes s2 the dealer, not s0
    r = Chan().cai(S2, "CC").discard(S0, "2n").abandon().replay()
    only(r, "SAI_CAI", VIOL, seat=S0, index=None)


def test_SAI_CAI_clean() -> None:
    clean(Chan(dealer=S3).cai(S1, "3v").discard(S3, "2n").abandon().replay())
    clean(Chan(dealer=S2).cai(S2, "CC").discard(S2, "2n").abandon().replay())
    # the cửu (9) from s0 goes round twice and stops at s0
    clean(Chan().cai(S0, "9s").discard(S0, "2n").abandon().replay())


def test_SAI_CAI_option_cai_cc_counts_as() -> None:
    b = Chan(dealer=S3, options={"cai_cc_counts_as": 2}).cai(S2, "CC")
    clean(b.discard(S3, "2n").abandon().replay())
    b = Chan(dealer=S2, options={"cai_cc_counts_as": 2}).cai(S2, "CC")
    only(b.discard(S2, "2n").abandon().replay(), "SAI_CAI", VIOL, seat=S2, index=None)


def _next_hand(cai_giver: int, **prev: object) -> Chan:
    """A hand whose cái giver is ``cai_giver``, with the given ``previous_hand``. The cái
    card (a tam) makes ``cai_giver + 2`` the dealer, so SAI_CAI stays quiet."""
    dealer = (cai_giver + 2) % 4
    b = Chan(dealer=dealer, hand_no=2).cai(cai_giver, "3v").previous_hand(**prev)
    return b.discard(dealer, "2n").abandon()


def test_SAI_NGUOI_BAT_CAI_triggers() -> None:
    # the winner of the previous hand (s2) must give the cái
    r = _next_hand(S1, winner=S2, void=None, giver=S0).replay()
    only(r, "SAI_NGUOI_BAT_CAI", VIOL, seat=S1, index=None)  # seat: the recorded giver
    assert not r.corrupt
    # after a drawn hand, the player after the previous giver
    r = _next_hand(S0, winner=None, void=None, giver=S0).replay()
    only(r, "SAI_NGUOI_BAT_CAI", VIOL, seat=S0, index=None)
    # a false win (U_LAO) counts as a drawn hand [D]
    r = _next_hand(S2, winner=S2, void="U_LAO", giver=S0).replay()
    only(r, "SAI_NGUOI_BAT_CAI", VIOL, seat=S2, index=None)


def test_SAI_NGUOI_BAT_CAI_clean() -> None:
    clean(_next_hand(S2, winner=S2, void=None, giver=S0).replay())
    clean(_next_hand(S1, winner=None, void=None, giver=S0).replay())
    clean(_next_hand(S1, winner=S2, void="U_LAO", giver=S0).replay())
    # any other void still counts as won by that player (§3.1)
    clean(_next_hand(S2, winner=S2, void="XUONG_SAI", giver=S0).replay())
    # a field it needs is unknown: not checked
    clean(_next_hand(S3, winner=S2, giver=S0).replay())
    clean(_next_hand(S3, winner=None, void=None).replay())


# --- #9 khai ------------------------------------------------------------------------------


def test_KHAI_INVALID_triggers() -> None:
    # only three copies of 6n
    b = Chan().hand(S1, "6n6n6n", add=False).discard(S0, "2n").khai(S1, "6n")
    r = b.dp(S1).abandon().replay()
    only(r, "KHAI_INVALID", HARD, seat=S1, index=1)
    stopped(r)
    # four copies, but it is s1's turn, not s2's
    b = Chan().hand(S2, "6n6n6n6n").discard(S0, "2n").khai(S2, "6n")
    r = b.dp(S1).abandon().replay()
    only(r, "KHAI_INVALID", HARD, seat=S2, index=1)
    stopped(r)


def test_KHAI_INVALID_clean() -> None:
    b = Chan().hand(S1, "6n6n6n6n").discard(S0, "2n").khai(S1, "6n")
    clean(b.dp(S1).abandon().replay())
    # the dealer before its opening discard
    clean(Chan().hand(S0, "CC CC CC CC").khai(S0, "CC").discard(S0, "2n").abandon().replay())


# --- #10-#13 discard ----------------------------------------------------------------------


def test_CARD_NOT_IN_HAND_triggers() -> None:
    # the dealer's opening discard is not in its hand
    r = Chan().hand(S0, "", add=False).discard(S0, "9n").abandon().replay()
    only(r, "CARD_NOT_IN_HAND", HARD, seat=S0, index=0)
    stopped(r)
    # #22: the eat's `with` card is not in the eater's hand
    b = Chan().hand(S1, "", add=False).discard(S0, "5v").eat(S1, "5v", S0, "5n")
    r = b.discard(S1, "2s").abandon().replay()
    only(r, "CARD_NOT_IN_HAND", HARD, seat=S1, index=1)
    stopped(r)
    # a discard of a card that went to the mat with an eat
    b = Chan().hand(S1, "5n", add=False).discard(S0, "5v").eat(S1, "5v", S0, "5n")
    r = b.discard(S1, "5n").abandon().replay()
    only(r, "CARD_NOT_IN_HAND", HARD, seat=S1, index=2)


def test_CARD_NOT_IN_HAND_clean() -> None:
    b = Chan().hand(S1, "5n 2s").discard(S0, "5v").eat(S1, "5v", S0, "5n")
    r = b.discard(S1, "2s").abandon().replay()
    absent(r, "CARD_NOT_IN_HAND")
    clean(r)


def test_DANH_SAI_LUOT_triggers() -> None:
    # s1 draws and then discards from its hand without eating
    r = Chan().discard(S0, "2n").draw(S1).discard(S1, "3s").abandon().replay()
    only(r, "DANH_SAI_LUOT", VIOL, seat=S1, index=2)
    assert not r.corrupt
    # the dealer discards twice
    r = Chan().discard(S0, "2n").discard(S0, "3s").abandon().replay()
    only(r, "DANH_SAI_LUOT", VIOL, seat=S0, index=1)


def test_DANH_SAI_LUOT_clean() -> None:
    b = Chan().hand(S1, "4v 3s").discard(S0, "2n").draw(S1, "4v").eat(S1, "4v", S1, "4v")
    clean(b.discard(S1, "3s").abandon().replay())


def test_DANH_SAI_LUOT_cannot_win() -> None:
    # holding 18 after the stray discard: a later `win` by s1 is U_LAO ("cannot win")
    b = Chan(avoid="6n 6s").hand(S1, WIDE6, exact=True)
    b.discard(S0, "CC").draw(S1, "2s").discard(S1, "3s").dp(S2).dp(S3).dp(S0)
    r = b.draw(S1, "6n").win(S1, "6n", cuoc=["chi"]).replay()
    only(r, "DANH_SAI_LUOT", VIOL, seat=S1, index=2)
    only(r, "U_LAO", VIOL, seat=S1, index=b.i)


def _chiu_from_s2(to: int | None) -> Chan:
    """§10.2's example: s2 draws 6s, s0 (holding three) takes it by chíu out of turn."""
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s6s6s")
    return b.discard(S0, "2v", to=to)


def test_TREO_TRANH_TRA_CUA_triggers() -> None:
    b = _chiu_from_s2(to=S0)  # the trả cửa must go back into D(s2)
    r = b.dp(S3).abandon().replay()
    only(r, "TREO_TRANH_TRA_CUA", VIOL, seat=S0, index=5)
    assert not r.corrupt
    # a plain discard into another player's cửa
    r = Chan().discard(S0, "2n", to=S1).abandon().replay()
    only(r, "TREO_TRANH_TRA_CUA", VIOL, seat=S0, index=0)
    # chíu of the cửa trên card: the trả cửa goes into the chíu player's own cửa
    b = Chan().hand(S1, "6s6s6s 2v").discard(S0, "6s").chiu(S1, "6s", S0, "6s6s6s")
    r = b.discard(S1, "2v", to=S0).abandon().replay()
    only(r, "TREO_TRANH_TRA_CUA", VIOL, seat=S1, index=2)


def test_TREO_TRANH_TRA_CUA_clean() -> None:
    clean(_chiu_from_s2(to=S2).dp(S3).abandon().replay())
    clean(_chiu_from_s2(to=None).dp(S3).abandon().replay())  # no `to`: the required cửa
    b = Chan().hand(S1, "6s6s6s 2v").discard(S0, "6s").chiu(S1, "6s", S0, "6s6s6s")
    clean(b.discard(S1, "2v", to=S1).dp(S2).abandon().replay())


# --- #14-#19 draw and pass -----------------------------------------------------------------


def test_BOC_SAI_LUOT_triggers() -> None:
    r = Chan().discard(S0, "2n").draw(S2).pass_(S2).abandon().replay()
    only(r, "BOC_SAI_LUOT", VIOL, seat=S2, index=1)
    assert not r.corrupt
    # a second draw in the same turn
    r = Chan().discard(S0, "2n").draw(S1).draw(S1).pass_(S1).abandon().replay()
    only(r, "BOC_SAI_LUOT", VIOL, seat=S1, index=2)


def test_BOC_SAI_LUOT_clean() -> None:
    clean(Chan().discard(S0, "2n").dp(S1).dp(S2).dp(S3).dp(S0).abandon().replay())


def test_STOCK_MISMATCH_triggers() -> None:
    rec = Chan().discard(S0, "2n").draw(S1, "CC").pass_(S1).abandon().record()
    assert rec["wall"][0] == "CC"
    j = next(j for j, c in enumerate(rec["wall"]) if c != "CC")
    rec["wall"][0], rec["wall"][j] = rec["wall"][j], rec["wall"][0]
    r = replay_hand(rec)
    only(r, "STOCK_MISMATCH", HARD, seat=S1, index=1)
    stopped(r)


def test_STOCK_MISMATCH_clean() -> None:
    r = Chan().discard(S0, "2n").draw(S1, "CC").pass_(S1).abandon().replay()
    absent(r, "STOCK_MISMATCH")
    clean(r)


def test_STOCK_EXHAUSTED_triggers() -> None:
    # with every nọc card drawable (option), a 24th draw finds the nọc empty
    b = Chan(options={"last_stock_card_dead": False}, allow_overcount=True)
    b.discard(S0, "2n").turns(S1, 23)  # events 1-46
    r = b.draw(S0).pass_(S0).abandon().replay()
    only(r, "STOCK_EXHAUSTED", HARD, seat=S0, index=47)
    stopped(r)


def test_STOCK_EXHAUSTED_clean() -> None:
    b = Chan(options={"last_stock_card_dead": False}).discard(S0, "2n").turns(S1, 23)
    r = b.exhaustive_draw().replay()
    absent(r, "STOCK_EXHAUSTED")
    clean(r)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (0, 0, 0, 0)


def test_BOC_QUAN_NOC_CHET_triggers() -> None:
    # §3.2 [D]: the last nọc card is dead; the 23rd draw takes it
    r = Chan().discard(S0, "2n").turns(S1, 23).replay()  # the 23rd draw is event 45, by s3
    only(r, "BOC_QUAN_NOC_CHET", VIOL, seat=S3, index=45)
    assert not r.corrupt
    assert r.ended_by == "exhaustive_draw"  # settled as a draw at this point
    assert r.deltas == (0, 0, 0, 0)


def test_BOC_QUAN_NOC_CHET_clean() -> None:
    r = Chan().discard(S0, "2n").turns(S1, 22).exhaustive_draw().replay()
    absent(r, "BOC_QUAN_NOC_CHET")
    clean(r)
    assert (r.ended_by, r.deltas) == ("exhaustive_draw", (0, 0, 0, 0))
    # option: the 23rd card is live
    b = Chan(options={"last_stock_card_dead": False}).discard(S0, "2n").turns(S1, 23)
    clean(b.exhaustive_draw().replay())


def test_PASS_WITHOUT_DRAW_triggers() -> None:
    r = Chan().discard(S0, "2n").pass_(S1).abandon().replay()
    only(r, "PASS_WITHOUT_DRAW", HARD, seat=S1, index=1)
    stopped(r)
    # a pass after an eat
    b = Chan().hand(S1, "2n 3s").discard(S0, "2v").eat(S1, "2v", S0, "2n")
    r = b.discard(S1, "3s").pass_(S1).abandon().replay()
    only(r, "PASS_WITHOUT_DRAW", HARD, seat=S1, index=3)


def test_PASS_WITHOUT_DRAW_clean() -> None:
    r = Chan().discard(S0, "2n").draw(S1).pass_(S1).abandon().replay()
    absent(r, "PASS_WITHOUT_DRAW")
    clean(r)


# --- #20-#27 eat ------------------------------------------------------------------------------


def test_EAT_SOURCE_MISMATCH_triggers() -> None:
    # the card is not the top of D(prev)
    b = Chan().hand(S1, "5n 5s 3s").discard(S0, "5v").eat(S1, "5n", S0, "5s")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "EAT_SOURCE_MISMATCH", HARD, seat=S1, index=1)
    stopped(r)
    # the cửa trên card after drawing this turn
    b = Chan().hand(S1, "5n 3s").discard(S0, "5v").draw(S1, "CC").eat(S1, "5v", S0, "5n")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "EAT_SOURCE_MISMATCH", HARD, seat=S1, index=2)
    # from = a seat that is neither prev(seat) nor seat
    b = Chan().hand(S2, "5n 3s").discard(S0, "5v").eat(S2, "5v", S0, "5n")
    r = b.discard(S2, "3s").abandon().replay()
    only(r, "EAT_SOURCE_MISMATCH", HARD, seat=S2, index=1)
    # from = seat without a draw
    b = Chan().hand(S1, "5n 3s").discard(S0, "5v").eat(S1, "5v", S1, "5n")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "EAT_SOURCE_MISMATCH", HARD, seat=S1, index=1)


def test_EAT_SOURCE_MISMATCH_clean() -> None:
    b = Chan().hand(S1, "5n 3s").discard(S0, "5v").eat(S1, "5v", S0, "5n")
    clean(b.discard(S1, "3s").abandon().replay())
    b = Chan().hand(S1, "5n 3s").discard(S0, "2n").draw(S1, "5v").eat(S1, "5v", S1, "5n")
    clean(b.discard(S1, "3s").abandon().replay())


def test_AN_SAI_LUOT_triggers() -> None:
    # s1 leaves its drawn card, then eats it after its turn has ended
    b = Chan().hand(S1, "4v 3s").discard(S0, "2n").draw(S1, "4v").pass_(S1)
    r = b.eat(S1, "4v", S1, "4v").abandon().replay()
    only(r, "AN_SAI_LUOT", VIOL, seat=S1, index=3)
    assert not r.corrupt


def test_AN_SAI_LUOT_clean() -> None:
    b = Chan().hand(S1, "4v 3s").discard(S0, "2n").draw(S1, "4v").eat(S1, "4v", S1, "4v")
    r = b.discard(S1, "3s").abandon().replay()
    absent(r, "AN_SAI_LUOT")
    clean(r)


def test_AN_KHONG_THANH_CAP_triggers() -> None:
    b = Chan().hand(S1, "6v 3s").discard(S0, "5v").eat(S1, "5v", S0, "6v")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "AN_KHONG_THANH_CAP", VIOL, seat=S1, index=1)
    # CC never forms a cạ (§1.4)
    b = Chan().hand(S1, "9v 3s").discard(S0, "2n").draw(S1, "CC").eat(S1, "CC", S1, "9v")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "AN_KHONG_THANH_CAP", VIOL, seat=S1, index=2)


def test_AN_KHONG_THANH_CAP_clean() -> None:
    b = Chan().hand(S1, "5s 3s").discard(S0, "5v").eat(S1, "5v", S0, "5s")
    clean(b.discard(S1, "3s").abandon().replay())
    b = Chan().hand(S1, "CC 3s").discard(S0, "2n").draw(S1, "CC").eat(S1, "CC", S1, "CC")
    clean(b.discard(S1, "3s").abandon().replay())


def test_TREO_TRANH_KHONG_CHIU_triggers() -> None:
    # §10.2: s1 holds 9v 9v 9v, draws 9v and eats it with one copy
    b = Chan().hand(S1, "9v9v9v 3s").discard(S0, "2n").draw(S1, "9v").eat(S1, "9v", S1, "9v")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "TREO_TRANH_KHONG_CHIU", VIOL, seat=S1, index=2)
    assert not r.corrupt


def test_TREO_TRANH_KHONG_CHIU_clean() -> None:
    b = Chan().hand(S1, "9v9v9v 3s").discard(S0, "2n").draw(S1, "9v").chiu(S1, "9v", S1)
    r = b.discard(S1, "3s").dp(S2).abandon().replay()
    absent(r, "TREO_TRANH_KHONG_CHIU")
    clean(r)


def test_TREO_TRANH_AN_CA_THAY_CHAN_triggers() -> None:
    # §10.2 / the seed: chắn tứ văn + tứ sách, tứ văn drawn, eaten with tứ sách
    b = Chan().hand(S1, "4n4n4s 3s").discard(S0, "2n").draw(S1, "4n").eat(S1, "4n", S1, "4s")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "TREO_TRANH_AN_CA_THAY_CHAN", VIOL, seat=S1, index=2)


def test_TREO_TRANH_AN_CA_THAY_CHAN_clean() -> None:
    b = Chan().hand(S1, "4n4n4s 3s").discard(S0, "2n").draw(S1, "4n").eat(S1, "4n", S1, "4n")
    r = b.discard(S1, "3s").abandon().replay()
    absent(r, "TREO_TRANH_AN_CA_THAY_CHAN")
    clean(r)


def test_TRAI_VI_triggers() -> None:
    b = Chan().hand(S1, "7v 3s").discard(S0, "7s")
    b.eat(S1, "7s", S0, "7v", placement="eaten_on_top")
    r = b.discard(S1, "3s").abandon().replay()
    only(r, "TRAI_VI", VIOL, seat=S1, index=1)


def test_TRAI_VI_clean() -> None:
    b = Chan().hand(S1, "7v 3s").discard(S0, "7s")
    clean(b.eat(S1, "7s", S0, "7v", placement="hand_on_top").discard(S1, "3s").abandon().replay())
    b = Chan().hand(S1, "7v 3s").discard(S0, "7s").eat(S1, "7s", S0, "7v")  # default
    clean(b.discard(S1, "3s").abandon().replay())
    # a chắn has no top or bottom: only a cạ can be trái vỉ
    b = Chan().hand(S1, "7s 3s").discard(S0, "7s")
    b.eat(S1, "7s", S0, "7s", placement="eaten_on_top")
    clean(b.discard(S1, "3s").abandon().replay())


# --- #28 reported_only: an out player acts -------------------------------------------------


def _caught_s1(**opts: object) -> Chan:
    """s1 makes an ăn chắn xé chắn (error 6) at #3 and s2 reports it at #4."""
    b = Chan(options={"enforcement": "reported_only", **opts}).hand(S1, "3s3s")
    b.discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s").discard(S1, "3s")
    return b.bao(S2, S1, "AN_CHAN_XE_CHAN")


def test_HANH_DONG_KHI_DA_BI_BAO_triggers() -> None:
    b = _caught_s1().dp(S2).dp(S3).dp(S0)
    b.draw(S1)  # s1 is out (§5.7): its turns are skipped
    r = b.pass_(S1).abandon().replay()
    found = with_code(r, "HANH_DONG_KHI_DA_BI_BAO")  # one per action of the out player
    assert [(f.cls, f.seat, f.event_index) for f in found] == [(VIOL, S1, 11), (VIOL, S1, 12)]
    assert not r.corrupt


def test_HANH_DONG_KHI_DA_BI_BAO_clean() -> None:
    # the table skips s1: after s0 comes s2, whose cửa trên is D(s0)
    b = _caught_s1().dp(S2).dp(S3).dp(S0).dp(S2)
    r = b.abandon().replay()
    absent(r, "HANH_DONG_KHI_DA_BI_BAO")
    absent(r, "BOC_SAI_LUOT")
    only(r, "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)
    # with enforcement = auto the finding does not exist
    b = Chan().hand(S1, "3s3s").discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s")
    b.discard(S1, "3s").dp(S2).dp(S3).dp(S0).dp(S1)
    absent(b.abandon().replay(), "HANH_DONG_KHI_DA_BI_BAO")


# --- #29-#33 chíu and expose ----------------------------------------------------------------


def test_CHIU_INVALID_triggers() -> None:
    # only two copies in hand
    b = Chan().hand(S0, "6s6s 2v", add=False)
    b.discard(S0, "2v").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s6s6s")
    r = b.abandon().replay()
    only(r, "CHIU_INVALID", HARD, seat=S0, index=4)
    stopped(r)
    # `with` is not a copy of the card
    b = Chan().hand(S0, "6s6s6v 2v")
    b.discard(S0, "2v").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s6s6v")
    r = b.abandon().replay()
    only(r, "CHIU_INVALID", HARD, seat=S0, index=4)
    # the card is not the top of D(from)
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "2v").dp(S1).draw(S2, "6s").chiu(S0, "6s", S1, "6s6s6s")
    r = b.abandon().replay()
    only(r, "CHIU_INVALID", HARD, seat=S0, index=4)


def test_CHIU_INVALID_clean() -> None:
    r = _chiu_from_s2(to=S2).dp(S3).abandon().replay()
    absent(r, "CHIU_INVALID")
    clean(r)


def test_CHIU_QUAN_CHET_triggers() -> None:
    # 6s stays on top of D(s2), but s3's draw has made it dead (§5.5)
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").pass_(S2).draw(S3)
    b.chiu(S0, "6s", S2).discard(S0, "2v", to=S2)
    r = b.abandon().replay()
    only(r, "CHIU_QUAN_CHET", VIOL, seat=S0, index=6)
    assert not r.corrupt


def test_CHIU_QUAN_CHET_clean() -> None:
    # after s2 passes, 6s is still live until the next draw or eat
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").pass_(S2).chiu(S0, "6s", S2)
    r = b.discard(S0, "2v", to=S2).dp(S3).abandon().replay()
    absent(r, "CHIU_QUAN_CHET")
    clean(r)


def _chiu_one(then_expose: bool) -> Chan:
    """s0 takes s2's 6s by chíu laying down only one of its three copies (§10.2)."""
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s")
    if then_expose:
        b.expose(S0, "6s6s")
    return b.discard(S0, "2v", to=S2).dp(S3)


def test_TREO_TRANH_CHIU_KHONG_HA_DU_triggers() -> None:
    b = _chiu_one(then_expose=False)
    b.draw(S0)  # s0's next turn begins with the quad still not down
    r = b.pass_(S0).abandon().replay()
    only(r, "TREO_TRANH_CHIU_KHONG_HA_DU", VIOL, seat=S0, index=8)


def test_TREO_TRANH_CHIU_KHONG_HA_DU_triggers_at_an_eat() -> None:
    # s0's next turn begins with an eat of s3's drawn 4n instead of a draw
    b = Chan().hand(S0, "6s6s6s 2v 4n 3s")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s")
    b.discard(S0, "2v", to=S2).draw(S3, "4n").pass_(S3).eat(S0, "4n", S3, "4n")
    r = b.discard(S0, "3s").abandon().replay()
    only(r, "TREO_TRANH_CHIU_KHONG_HA_DU", VIOL, seat=S0, index=8)


def test_TREO_TRANH_CHIU_KHONG_HA_DU_clean() -> None:
    r = _chiu_one(then_expose=True).dp(S0).abandon().replay()
    absent(r, "TREO_TRANH_CHIU_KHONG_HA_DU")
    clean(r)
    # the expose may come later, as long as it is before s0's next turn
    b = Chan().hand(S0, "6s6s6s 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s")
    b.discard(S0, "2v", to=S2).draw(S3).expose(S0, "6s6s").pass_(S3).dp(S0)
    clean(b.abandon().replay())


def test_CHIU_THIEU_TRA_CUA_triggers() -> None:
    # s1 takes its cửa trên 6s by chíu, then draws instead of returning a card
    b = Chan().hand(S1, "6s6s6s").discard(S0, "6s").chiu(S1, "6s", S0)
    r = b.draw(S1).pass_(S1).abandon().replay()
    only(r, "CHIU_THIEU_TRA_CUA", VIOL, seat=S1, index=2)


def test_CHIU_THIEU_TRA_CUA_clean() -> None:
    b = Chan().hand(S1, "6s6s6s 2v").discard(S0, "6s").chiu(S1, "6s", S0)
    r = b.discard(S1, "2v").dp(S2).abandon().replay()
    absent(r, "CHIU_THIEU_TRA_CUA")
    clean(r)


def test_EXPOSE_INVALID_triggers() -> None:
    # the exposed cards are not copies of the chíu card
    b = Chan().hand(S0, "6s6s6s 6v6v 2v")
    b.discard(S0, "3n").dp(S1).draw(S2, "6s").chiu(S0, "6s", S2, "6s").expose(S0, "6v6v")
    r = b.discard(S0, "2v", to=S2).abandon().replay()
    only(r, "EXPOSE_INVALID", HARD, seat=S0, index=5)
    stopped(r)
    # no chíu at all
    b = Chan().hand(S1, "6s6s").discard(S0, "3n").expose(S1, "6s6s")
    r = b.abandon().replay()
    only(r, "EXPOSE_INVALID", HARD, seat=S1, index=1)


def test_EXPOSE_INVALID_clean() -> None:
    r = _chiu_one(then_expose=True).abandon().replay()
    absent(r, "EXPOSE_INVALID")
    clean(r)


# --- #34-#37 win -----------------------------------------------------------------------------


def test_U_SOURCE_MISMATCH_triggers() -> None:
    # not the live card: s3 drew 5v, s2 claims a 5s
    b = Chan().hand(S2, X3, exact=True).discard(S0, "2n").dp(S1).dp(S2).draw(S3, "5v")
    r = b.win(S2, "5s", frm=S3).replay()
    only(r, "U_SOURCE_MISMATCH", HARD, seat=S2, index=6)
    stopped(r)
    # `from` names the wrong drawer
    b = Chan().hand(S2, X3, exact=True).discard(S0, "2n").dp(S1).dp(S2).draw(S3, "5v")
    r = b.win(S2, "5v", frm=S1).replay()
    only(r, "U_SOURCE_MISMATCH", HARD, seat=S2, index=6)
    # thiên ù (via = deal) after the dealer's first discard
    b = Chan().hand(S0, "2n").discard(S0, "2n").win(S0, "2n", via="deal")
    r = b.replay()
    only(r, "U_SOURCE_MISMATCH", HARD, seat=S0, index=1)


def test_U_SOURCE_MISMATCH_clean() -> None:
    r = x3_win().replay()
    absent(r, "U_SOURCE_MISMATCH")
    clean(r)


def test_XUONG_SAI_unknown_cuoc_triggers() -> None:
    # #36: a regional cước that is disabled by default (§7.3)
    r = wide6_win(cuoc=("chi", "nha_lau_xe_hoi_hoa_roi_cua_phat")).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)
    r = wide6_win(cuoc=("no_such_cuoc",)).replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)


def test_XUONG_SAI_unknown_cuoc_clean() -> None:
    r = wide6_win(cuoc=("chi",)).replay()
    clean(r)
    assert (r.fan, r.deltas) == (3, (-3, 9, -3, -3))


def test_THONG_UNVERIFIED_triggers() -> None:
    r = wide6_win(cuoc=("thong", "chi")).replay()
    only(r, "THONG_UNVERIFIED", INFO, seat=S1, index=2)
    clean(r)  # the claim is accepted: thông 3 + chì dịch 1 = 4
    assert (r.fan, r.deltas) == (4, (-4, 12, -4, -4))
    # the previous hand's void is unknown
    r = wide6_win(cuoc=("thong", "chi")).previous_hand(winner=S1, giver=S3).replay()
    only(r, "THONG_UNVERIFIED", INFO, seat=S1, index=2)


def test_THONG_UNVERIFIED_clean() -> None:
    b = wide6_win(cuoc=("thong", "chi")).previous_hand(winner=S1, void=None, giver=S3)
    r = b.replay()
    absent(r, "THONG_UNVERIFIED")
    clean(r)
    assert r.fan == 4
    # the previous win was void: thông is a wrong declaration
    b = wide6_win(cuoc=("thong", "chi")).previous_hand(winner=S1, void="U_LAO", giver=S3)
    r = b.replay()
    only(r, "XUONG_SAI", VIOL, seat=S1, index=2)
    absent(r, "THONG_UNVERIFIED")


# --- #39-#42 báo, end of hand, result ----------------------------------------------------------


def test_BAO_SAI_triggers() -> None:
    r = Chan().discard(S0, "2n").dp(S1).bao(S2, S1, "DANH_CA_CHAN").abandon().replay()
    only(r, "BAO_SAI", VIOL, seat=S2, index=3)
    assert not r.corrupt
    # a player cannot report themself
    b = Chan().hand(S1, "3s3s").discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s")
    r = b.discard(S1, "3s").bao(S1, S1, "AN_CHAN_XE_CHAN").abandon().replay()
    only(r, "BAO_SAI", VIOL, seat=S1, index=4)


def test_BAO_SAI_clean() -> None:
    b = Chan().hand(S1, "3s3s").discard(S0, "2n").draw(S1, "3s").eat(S1, "3s", S1, "3s")
    r = b.discard(S1, "3s").bao(S2, S1, "AN_CHAN_XE_CHAN").abandon().replay()
    absent(r, "BAO_SAI")
    only(r, "AN_CHAN_XE_CHAN", VIOL, seat=S1, index=3)


def test_HAND_END_INVALID_triggers() -> None:
    r = Chan().discard(S0, "2n").turns(S1, 5).exhaustive_draw().replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=11)
    stopped(r)
    # option: with a live last card, 22 draws do not exhaust the nọc
    b = Chan(options={"last_stock_card_dead": False}).discard(S0, "2n").turns(S1, 22)
    r = b.exhaustive_draw().replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=45)


def test_HAND_END_INVALID_clean() -> None:
    r = Chan().discard(S0, "2n").turns(S1, 22).exhaustive_draw().replay()
    absent(r, "HAND_END_INVALID")
    clean(r)


def test_EVENT_AFTER_END_triggers() -> None:
    b = x3_win().draw(S0)
    r = b.pass_(S0).replay()
    only(r, "EVENT_AFTER_END", HARD, seat=S0, index=7)
    stopped(r)
    r = Chan().discard(S0, "2n").turns(S1, 22).exhaustive_draw().dp(S3).replay()
    only(r, "EVENT_AFTER_END", HARD, seat=S3, index=46)
    r = Chan().discard(S0, "2n").abandon().dp(S1).replay()
    only(r, "EVENT_AFTER_END", HARD, seat=S1, index=2)


def _trai_vi_winner() -> Chan:
    """§9 case C: s2 eats 3n with 3s trái vỉ, then wins X3's hand on 5v (scores 0)."""
    b = Chan().hand(S2, "6v6v 3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n CC", exact=True)
    b.discard(S0, "2n").draw(S1, "3n").pass_(S1)
    b.eat(S2, "3n", S1, "3s", placement="eaten_on_top").discard(S2, "CC")
    return b.draw(S3, "5v").win(S2, "5v", frm=S3)


def test_EVENT_AFTER_END_clean() -> None:
    # a báo recorded after the win is allowed (§10.9, §11 #41)
    r = _trai_vi_winner().bao(S0, S2, "TRAI_VI").replay()
    absent(r, "EVENT_AFTER_END")
    absent(r, "BAO_SAI")
    only(r, "TRAI_VI", VIOL, seat=S2, index=3)
    assert r.deltas == (0, 0, 0, 0)


def test_RESULT_MISMATCH_triggers() -> None:
    b = x3_win().result([S2], 3, deltas=[-3, -3, 9, -3])
    r = b.replay()
    only(r, "RESULT_MISMATCH", AUDIT, seat=None, index=b.i)
    assert r.matches_recorded is False
    b = x3_win().result([S3], 2, deltas=[-2, -2, -2, 6])
    only(b.replay(), "RESULT_MISMATCH", AUDIT, seat=None, index=b.i)


def test_RESULT_MISMATCH_clean() -> None:
    r = x3_win().result([S2], 2, deltas=[-2, -2, 6, -2]).replay()
    absent(r, "RESULT_MISMATCH")
    assert r.matches_recorded is True
    # a drawn hand recorded as such
    b = Chan().discard(S0, "2n").turns(S1, 22).exhaustive_draw().result([], deltas=[0, 0, 0, 0])
    r = b.replay()
    clean(r)
    assert r.matches_recorded is True


def test_PARTIAL_INFORMATION_triggers() -> None:
    rec = x3_win().record(wall=False)
    del rec["start_hands"]
    r = replay_hand(rec)
    only(r, "PARTIAL_INFORMATION", INFO, seat=None, index=None)
    assert not r.corrupt


def test_PARTIAL_INFORMATION_clean() -> None:
    absent(x3_win().replay(), "PARTIAL_INFORMATION")
