"""hk-mahjongo §8 legality checklist #1-#40, one test per code, as full logs through the replayer.

Same method as test_checklist_hk_classic.py: a log that breaks one rule, the exact finding
(code, class, seat, event index, reason) and the stated consequence, plus near misses.
hk-mahjongo has no bonus tiles and no reserved tail (L = U), a minimum of 3 fan, a cap of
10 and Pao. Seats: the dealer is seat 0 (E), so seat k has wind ESWN[k].
"""

from __future__ import annotations

from logbuilder import (
    AUDIT,
    HARD,
    INFO,
    VIOL,
    Hand,
    clean,
    dead,
    only,
    serious,
    stopped,
    with_code,
)
from mjaudit.parts.replay.engine.run import replay_games, replay_hand
from test_penalty_examples import dragons_for_E, m2, p1, p2, p3

E, S, W, N = 0, 1, 2, 3
WALL = 84  # 136 - 4 x 13: every tile can be drawn


def mj(**kw: object) -> Hand:
    return Hand("hk-mahjongo", **kw)  # type: ignore[arg-type]


def baseline() -> Hand:
    """A legal hand: chow from the left, pung, concealed kong, added kong, replacements and
    a self-drawn half flush by S with a correct result."""
    b = mj().hand(S, "1m2m C 9m9m9m 5m6m7m N N 8m8m")
    b.draw(E).discard(E, "3m").chow(S, E, "3m", "1m2m3m").discard(S, "C")
    b.draw(W).discard(W).draw(N).discard(N)
    b.draw(E).discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "9m").concealed_kong(S, "9m").replacement(S).discard(S)
    b.draw(W, "5p").added_kong(W, "5p").replacement(W).discard(W)
    b.draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "8m").win(S, "8m")
    # [chow 123m] [ckong 9m] 567m 888m NN: half_flush 3 + self_draw 1 = 4, S(4) = 16
    return b.result([S], 4, ["half_flush", "self_draw"], [-16, 48, -16, -16])


def test_baseline_is_clean() -> None:
    r = baseline().replay()
    assert r.findings == ()
    assert (r.winners, r.fan, r.ended_by, r.liable) == ((S,), 4, "win", None)
    assert r.patterns == (("self_draw", 1), ("half_flush", 3))
    assert r.deltas == (-16, 48, -16, -16)
    assert r.matches_recorded is True
    assert replay_hand(baseline().record(wall=True)).findings == ()


def quick_win(dealer: int, hand_no: int, wind: str = "E") -> Hand:
    """The next seat wins on the dealer's first discard (earthly hand, 10 fan)."""
    w = (dealer + 1) % 4
    b = mj(dealer=dealer, hand_no=hand_no, wind=wind).hand(w, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    return b.discard(dealer, "E").win(w, "E", dealer)


WAITING_E = "2m3m4m 5p6p7p 3s4s5s 7s8s9s E"


# --- #1-#8 --------------------------------------------------------------------------------


def test_01_RULESET_UNKNOWN() -> None:
    r = mj(options={"min_fan": 2}).discard(E).abandon().replay()  # fixed by the seed
    only(r, "RULESET_UNKNOWN", HARD, seat=None, index=None)
    stopped(r)
    r = mj(options={"payment_table": "spicy"}).discard(E).abandon().replay()  # classic only
    only(r, "RULESET_UNKNOWN", HARD, seat=None, index=None)
    clean(mj(options={"pao_on_other_discard": "split_half"}).discard(E).abandon().replay())


def test_02_SEATING_INVALID() -> None:
    r = mj(players=["ann", "bob", "ann", "dan"]).discard(E).abandon().replay()
    only(r, "SEATING_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_03_DEALER_ROTATION_MISMATCH() -> None:
    first = quick_win(E, 1).replay()
    clean(first)
    r = quick_win(E, 2).replay(previous=first)
    only(r, "DEALER_ROTATION_MISMATCH", HARD, seat=E, index=None)
    stopped(r)
    clean(quick_win(S, 2).replay(previous=first))
    # an exhaustive draw keeps the dealer
    draw = mj().turns(E, WALL).exhaustive_draw().replay()
    clean(quick_win(E, 2).replay(previous=draw))
    only(
        quick_win(S, 2).replay(previous=draw), "DEALER_ROTATION_MISMATCH", HARD, seat=S, index=None
    )


def test_03_PREVAILING_WIND_MISMATCH() -> None:
    only(quick_win(E, 1, "W").replay(), "PREVAILING_WIND_MISMATCH", HARD, seat=None, index=None)
    reports = list(replay_games([quick_win(d, d + 1).record() for d in range(4)]))
    assert [serious(r) for r in reports] == [[], [], [], []]
    only(
        quick_win(E, 5, "E").replay(previous=reports[-1]),
        "PREVAILING_WIND_MISMATCH",
        HARD,
        seat=None,
        index=None,
    )
    clean(quick_win(E, 5, "S").replay(previous=reports[-1]))


def test_03_PREVIOUS_HAND_MISSING() -> None:
    r = quick_win(W, 7, "S").replay()
    only(r, "PREVIOUS_HAND_MISSING", INFO, seat=None, index=None)
    clean(r)


def test_04_TILE_CODE_INVALID() -> None:
    r = mj().hand(W, "f1").discard(E).abandon().replay()  # no bonus tiles in this set
    only(r, "TILE_CODE_INVALID", HARD, seat=W, index=None)
    stopped(r)
    r = mj().discard(E).draw(S, "g2").discard(S).abandon().replay()
    only(r, "TILE_CODE_INVALID", HARD, seat=S, index=1)
    # the 80-tile two-player set has no 2-8 of characters or bamboo
    b = Hand("hk-mahjongo-2p").hand(1, "5s").draw(E).discard(E).abandon()
    only(b.replay(), "TILE_CODE_INVALID", HARD, seat=1, index=None)


def test_05_TILE_OVERCOUNT() -> None:
    r = mj().hand(S, "C C C").hand(N, "C C").draw(E).discard(E).abandon().replay()
    only(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    stopped(r)
    b = mj().hand(S, "C C").hand(N, "C C").draw(E).discard(E).draw(S, "C")
    only(b.abandon().replay(), "TILE_OVERCOUNT", HARD, seat=None, index=2)


def test_06_WALL_INVALID() -> None:
    rec = baseline().record(wall=True)
    assert len(rec["wall"]) == 136
    rec["wall"][-3] = next(t for t in rec["wall"] if t != rec["wall"][-3])
    r = replay_hand(rec)
    only(r, "WALL_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_07_DEAL_SIZE_INVALID() -> None:
    b = mj().hand(N, "1m2m3m4m5m6m7m8m9m 1p2p3p4p5p", exact=True).draw(E).discard(E).abandon()
    only(b.replay(), "DEAL_SIZE_INVALID", HARD, seat=None, index=None)
    b = mj(options={"dealer_initial_tiles": "13+draw"}).discard(E).abandon()  # dealt 14
    only(b.replay(), "DEAL_SIZE_INVALID", HARD, seat=None, index=None)
    clean(mj().discard(E).abandon().replay())  # `either` accepts 14 too


def test_07_DEAL_SIZE_INVALID_dealer_13_without_first_draw() -> None:
    r = mj(dealer_tiles=13).discard(E).draw(S).discard(S).abandon().replay()
    found = with_code(r, "DEAL_SIZE_INVALID")
    # found at the dealer's discard (event 0), which shows the 14th tile never came
    assert [(f.cls, f.seat, f.event_index) for f in found] == [(HARD, E, 0)], r.findings
    stopped(r)


def test_07_DEAL_MISMATCH() -> None:
    rec = baseline().record(wall=True)
    wall = rec["wall"]
    j = next(j for j in range(8, 12) if wall[j] != wall[0])  # a tile dealt to W
    wall[0], wall[j] = wall[j], wall[0]
    r = replay_hand(rec)
    only(r, "DEAL_MISMATCH", HARD, seat=E, index=None)
    stopped(r)


def test_08_FLOWER_is_TILE_CODE_INVALID() -> None:
    # any FLOWER action: with a bonus code ...
    r = mj().hand(S, "1m", add=False).draw(E).discard(E).flower(S, "f2").abandon().replay()
    only(r, "TILE_CODE_INVALID", HARD, seat=S, index=2)
    stopped(r)
    # ... or with a playing tile
    r = mj().hand(S, "1m").draw(E).discard(E).draw(S).flower(S, "1m").abandon().replay()
    only(r, "TILE_CODE_INVALID", HARD, seat=S, index=3)


# --- #9-#17 -------------------------------------------------------------------------------


def test_09_DRAW_OUT_OF_TURN() -> None:
    b = mj().draw(E).discard(E).draw(N)  # S's turn
    b.draw(S).discard(S)
    r = b.abandon().replay()
    only(r, "DRAW_OUT_OF_TURN", VIOL, seat=N, index=2)
    dead(r, N, "DRAW_OUT_OF_TURN", 2)
    assert [f.seat for f in serious(r)] == [N]


def test_09_violations_are_hard_errors() -> None:
    b = mj(options={"violations_are_hard_errors": True}).draw(E).discard(E).draw(N)
    r = b.draw(S).discard(S).abandon().replay()
    only(r, "DRAW_OUT_OF_TURN", HARD, seat=N, index=2)
    stopped(r)


def test_10_DOUBLE_DRAW() -> None:
    r = mj().draw(E).draw(E).discard(E).abandon().replay()
    only(r, "DOUBLE_DRAW", VIOL, seat=E, index=1)
    dead(r, E, "DOUBLE_DRAW", 1)
    only(r, "LONG_HAND", VIOL, seat=E, index=2)


def test_11_DRAW_FROM_EMPTY_WALL() -> None:
    b = mj().turns(E, WALL)  # the whole wall is drawn
    r = b.draw(E, "1m").discard(E).exhaustive_draw().replay()
    only(r, "DRAW_FROM_EMPTY_WALL", HARD, seat=E, index=2 * WALL)
    stopped(r)
    r = mj().turns(E, WALL).exhaustive_draw().replay()
    clean(r)
    assert (r.ended_by, r.deltas) == ("exhaustive_draw", (0, 0, 0, 0))


def test_11_win_on_the_last_tile_of_the_wall() -> None:
    # M10: N self-draws 5s, the last tile of the wall
    b = mj().hand(N, "1m1m1m 4p5p6p 7p8p9p 3s3s 5s5s", exact=True).turns(E, WALL - 1)
    r = b.draw(N, "5s").win(N, "5s").replay()
    clean(r)
    assert dict(r.patterns) == {"last_tile_draw": 1, "self_draw": 1, "concealed_hand": 1}
    assert r.fan == 3
    assert r.deltas == (-8, -8, -8, 24)


def test_12_DRAW_TILE_MISMATCH() -> None:
    rec = baseline().record(wall=True)
    assert rec["events"][0] == {"type": "draw", "seat": E, "tile": rec["wall"][52]}
    j = next(j for j in range(90, 110) if rec["wall"][j] != rec["wall"][52])
    rec["wall"][52], rec["wall"][j] = rec["wall"][j], rec["wall"][52]
    r = replay_hand(rec)
    only(r, "DRAW_TILE_MISMATCH", HARD, seat=E, index=0)
    stopped(r)


def test_13_REPLACEMENT_UNEXPECTED() -> None:
    r = mj().draw(E).replacement(E).discard(E).abandon().replay()
    only(r, "REPLACEMENT_UNEXPECTED", HARD, seat=E, index=1)
    stopped(r)


def test_14_KONG_WITHOUT_REPLACEMENT() -> None:
    b = mj().hand(S, "7m7m7m").draw(E).discard(E, "7m").kong(S, E, "7m").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    only(r, "KONG_WITHOUT_REPLACEMENT", VIOL, seat=S, index=3)
    only(r, "SHORT_HAND", VIOL, seat=S, index=3)
    dead(r, S, "KONG_WITHOUT_REPLACEMENT", 3)


def test_15_DISCARD_OUT_OF_TURN() -> None:
    r = mj().draw(E).discard(E).discard(N).draw(S).discard(S).abandon().replay()
    only(r, "DISCARD_OUT_OF_TURN", VIOL, seat=N, index=2)
    dead(r, N, "DISCARD_OUT_OF_TURN", 2)
    assert {f.seat for f in serious(r)} == {N}


def test_16_DISCARD_NOT_IN_HAND() -> None:
    b = mj().hand(E, "1m2m3m4m5m6m7m8m 1s2s3s4s5s", exact=True).draw(E, "6s").discard(E, "C")
    r = b.abandon().replay()
    only(r, "DISCARD_NOT_IN_HAND", HARD, seat=E, index=1)
    stopped(r)


def test_17_SHORT_HAND() -> None:
    r = mj().draw(E).discard(E).discard(S).abandon().replay()
    only(r, "SHORT_HAND", VIOL, seat=S, index=2)
    assert r.deltas == (0, 0, 0, 0)  # no payment


def test_17_LONG_HAND() -> None:
    b = mj().draw(E).discard(E).draw(S).draw(S).discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    r = b.abandon().replay()
    only(r, "LONG_HAND", VIOL, seat=S, index=4)  # once only


# --- #18-#25: claims ----------------------------------------------------------------------


def test_18_CLAIM_NO_LIVE_DISCARD() -> None:
    r = mj().draw(E).discard(E, "5m").draw(S).pung(W, E, "5m").discard(W).abandon().replay()
    only(r, "CLAIM_NO_LIVE_DISCARD", HARD, seat=W, index=3)
    stopped(r)


def test_19_CLAIM_OWN_DISCARD() -> None:
    r = mj().hand(E, "5m5m5m").draw(E).discard(E, "5m").kong(E, E, "5m").abandon().replay()
    only(r, "CLAIM_OWN_DISCARD", HARD, seat=E, index=2)
    stopped(r)


def test_20_CLAIM_TILES_NOT_IN_HAND() -> None:
    b = mj().hand(W, "5m5m 1p2p3p4p5p6p7p8p9p 1s2s", exact=True)
    r = b.draw(E).discard(E, "5m").kong(W, E, "5m").abandon().replay()
    only(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=W, index=2)
    stopped(r)


def test_21_INVALID_MELD() -> None:
    b = mj().hand(S, "8p9p").draw(E).discard(E, "1p").chow(S, E, "1p", "8p9p1p").discard(S)
    r = b.abandon().replay()  # sequences do not wrap
    only(r, "INVALID_MELD", VIOL, seat=S, index=2)
    dead(r, S, "INVALID_MELD", 2)


def test_22_CHOW_NOT_FROM_LEFT() -> None:
    b = mj().draw(E).discard(E, "4m").chow(N, E, "4m", "2m3m4m").discard(N)
    r = b.abandon().replay()
    only(r, "CHOW_NOT_FROM_LEFT", VIOL, seat=N, index=2)
    dead(r, N, "CHOW_NOT_FROM_LEFT", 2)
    clean(mj().draw(E).discard(E, "4m").chow(S, E, "4m", "2m3m4m").discard(S).abandon().replay())


def test_22_and_25_two_player_table() -> None:
    """2p: check 22 always passes (the opponent is both next and prev), check 25 skipped."""
    b = Hand("hk-mahjongo-2p").hand(1, "1p2p 4p5p 7p8p 9p9p")
    b.draw(0).discard(0, "3p").chow(1, 0, "3p", "1p2p3p").discard(1)
    b.draw(0).discard(0, "6p").chow(1, 0, "6p", "4p5p6p").discard(1)
    b.draw(0).discard(0, "9p").pung(1, 0, "9p").discard(1)
    b.draw(0).discard(0, "9p").chow(1, 0, "9p", "7p8p9p")  # a fourth exposed set
    r = b.discard(1).abandon().replay()
    clean(r)
    assert with_code(r, "PAO_ASSIGNED") == []


def test_23_ACTION_AFTER_HAND_END_claim_at_empty_wall() -> None:
    b = mj().turns(E, WALL - 1).draw(N).discard(N, "C")  # L = 0
    r = b.pung(E, N, "C").discard(E).exhaustive_draw().replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=E, index=2 * WALL)
    stopped(r)


def test_24_CLAIM_PRIORITY_VIOLATION() -> None:
    b = mj().hand(N, "5m5m").draw(E).discard(E, "5m").announce(N, "claim", claim="pung")
    r = b.chow(S, E, "5m", "5m6m7m").discard(S).abandon().replay()
    only(r, "CLAIM_PRIORITY_VIOLATION", HARD, seat=S, index=3)
    stopped(r)


def test_25_PAO_ASSIGNED() -> None:
    # trigger B: the third dragon set (example P1, step 1)
    r = dragons_for_E().abandon().replay()
    clean(r)
    only(r, "PAO_ASSIGNED", INFO, seat=N, index=18)
    # trigger A: a chow can be the fourth declared set too
    b = mj().hand(S, "1m2m 4m5m 7m8m 2p3p")
    for k, (t, run) in enumerate(
        (("3m", "1m2m3m"), ("6m", "4m5m6m"), ("9m", "7m8m9m"), ("4p", "2p3p4p"))
    ):
        if k:
            b.draw(W).discard(W).draw(N).discard(N)
        b.draw(E).discard(E, t).chow(S, E, t, run).discard(S)
    fourth = b.i - 1
    r = b.abandon().replay()
    clean(r)
    only(r, "PAO_ASSIGNED", INFO, seat=E, index=fourth)
    # near misses: a concealed kong as the fourth set (P3), pao disabled
    assert with_code(p3().replay(), "PAO_ASSIGNED") == []
    r = p1().replay({"pao_enabled": False})
    assert with_code(r, "PAO_ASSIGNED") == [] and r.liable is None
    assert r.deltas == (288, -96, -96, -96)  # S(9) each


def test_25_pao_near_misses() -> None:
    # the winning tile completes the third dragon set: a win, not a claim, so no Pao
    b = mj().hand(E, "C C F F P P 7m8m9m 5p5p")
    b.draw(E).discard(E)
    b.draw(S).discard(S, "C").pung(E, S, "C").discard(E)
    b.draw(S).discard(S).draw(W).discard(W, "F").pung(E, W, "F").discard(E)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "P").win(E, "P", N)
    r = b.replay()
    clean(r)
    assert with_code(r, "PAO_ASSIGNED") == [] and with_code(r, "PAO_LIABILITY") == []
    assert (r.fan, r.liable, r.deltas) == (8, None, (128, 0, 0, -128))


def _ckong_then_three_pungs(**options: object) -> Hand:
    """S declares a concealed kong, then pungs three of E's discards: the third pung is S's
    fourth declared set."""
    b = mj(options=options or None).hand(S, "9p9p9p9p 2m2m 5p5p 8s8s")
    b.draw(E).discard(E).draw(S).concealed_kong(S, "9p").replacement(S).discard(S)
    for t in ("2m", "5p", "8s"):
        b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E, t).pung(S, E, t).discard(S)
    return b.abandon()


def test_25_PAO_ASSIGNED_fourth_set_counts_a_concealed_kong() -> None:
    b = _ckong_then_three_pungs()
    r = b.replay()
    clean(r)
    only(r, "PAO_ASSIGNED", INFO, seat=E, index=b.i - 2)
    r = _ckong_then_three_pungs(pao_fourth_set_counts_concealed_kongs=False).replay()
    assert with_code(r, "PAO_ASSIGNED") == []


def test_25_PAO_REPLACED() -> None:
    r = p2().replay()  # example P2
    only(r, "PAO_ASSIGNED", INFO, seat=N, index=18)
    only(r, "PAO_REPLACED", INFO, seat=W, index=24)


# --- #26-#30: kongs -----------------------------------------------------------------------


def test_26_KONG_OUT_OF_SEQUENCE() -> None:
    b = mj().hand(S, "5m5m C C C C").draw(E).discard(E, "5m").pung(S, E, "5m")
    b.concealed_kong(S, "C").replacement(S).discard(S)
    r = b.abandon().replay()
    only(r, "KONG_OUT_OF_SEQUENCE", VIOL, seat=S, index=3)
    dead(r, S, "KONG_OUT_OF_SEQUENCE", 3)


def test_27_KONG_TILES_NOT_IN_HAND() -> None:
    b = mj().hand(E, "C C 1m2m3m4m5m6m7m8m9m 1p2p", exact=True)
    r = b.draw(E, "C").concealed_kong(E, "C").replacement(E).discard(E).abandon().replay()
    only(r, "KONG_TILES_NOT_IN_HAND", HARD, seat=E, index=1)
    stopped(r)


def test_28_KONG_ADDED_NO_PUNG() -> None:
    # W has the pung of 5p, but adds a 6p
    b = mj().hand(W, "5p5p 6p").draw(E).discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    r = b.draw(W).added_kong(W, "6p").replacement(W).discard(W).abandon().replay()
    only(r, "KONG_ADDED_NO_PUNG", HARD, seat=W, index=11)
    stopped(r)


def test_29_KONG_WITHOUT_LIVE_TILE() -> None:
    b = mj().hand(N, "9p9p9p").turns(E, WALL - 1).draw(N, "9p").concealed_kong(N, "9p")
    r = b.replacement(N).discard(N).exhaustive_draw().replay()
    only(r, "KONG_WITHOUT_LIVE_TILE", HARD, seat=N, index=2 * WALL - 1)
    stopped(r)


def _added_kong_by_W() -> Hand:
    b = mj().draw(E).discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    return b.draw(W, "5p").added_kong(W, "5p")


def test_30_ACTION_OUT_OF_ORDER() -> None:
    b = _added_kong_by_W()
    kong = b.i
    r = b.draw(N).discard(N).abandon().replay()
    only(r, "ACTION_OUT_OF_ORDER", HARD, seat=N, index=kong + 1)
    stopped(r)


def test_30_robbing_win_before_the_replacement_is_allowed() -> None:
    # M8: N (seat N, prevailing E) 2m3m4m 6p7p8p 4p6p 7s8s9s 8m8m robs the added 5p
    b = _added_kong_by_W().hand(N, "2m3m4m 6p7p8p 4p6p 7s8s9s 8m8m")
    r = b.win(N, "5p", W, robbed_kong=True).replay()
    clean(r)
    assert dict(r.patterns) == {"all_chows": 1, "concealed_hand": 1, "robbing_the_kong": 1}
    assert r.fan == 3
    assert r.deltas == (0, 0, -16, 16)  # the konger pays D(3)


# --- #31-#37: wins ------------------------------------------------------------------------


def test_31_WIN_TILE_NOT_AVAILABLE() -> None:
    b = mj().hand(S, WAITING_E).draw(E).discard(E, "5m").win(S, "E", E)
    r = b.replay()
    only(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=2)
    stopped(r)


def test_32_FALSE_WIN_WIN_HAND_INCOMPLETE() -> None:
    b = mj().hand(S, "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s", exact=True)
    r = b.draw(E).discard(E).draw(S, "6s").win(S, "6s").replay()
    only(r, "FALSE_WIN", VIOL, seat=S, index=3, reason="WIN_HAND_INCOMPLETE")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=S, index=3)
    assert (r.ended_by, r.deltas) == ("false_win", (128, -384, 128, 128))


def test_33_FALSE_WIN_WIN_BELOW_MIN_FAN() -> None:
    b = m2(self_drawn=False)  # example M2a: 2 fan
    r = b.replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_BELOW_MIN_FAN")
    assert r.deltas == (128, 128, -384, 128)
    clean(m2(self_drawn=True).replay())  # M2b: 3 fan is enough


def test_34_FALSE_WIN_WIN_BY_DEAD_HAND() -> None:
    # M6-like full flush by W, but W drew out of turn earlier
    b = mj().hand(W, "1p2p3p 3p4p5p 6p7p8p 9p9p 4p5p")
    b.draw(E).discard(E).draw(W).discard(W)  # W draws in S's turn: dead
    b.draw(S).discard(S, "6p")
    r = b.win(W, "6p", S).replay()
    only(r, "DRAW_OUT_OF_TURN", VIOL, seat=W, index=2)
    only(r, "FALSE_WIN", VIOL, seat=W, index=6, reason="WIN_BY_DEAD_HAND")
    assert r.deltas == (128, 128, -384, 128)


def test_35_FALSE_WIN_ROB_NOT_ALLOWED() -> None:
    # N waits on 9p (234m 789s CCC 7p8p EE); W's concealed kong of 9p cannot be robbed
    b = mj().hand(W, "9p9p9p").hand(N, "2m3m4m 7s8s9s C C C 7p8p E E")
    b.draw(E).discard(E).draw(S).discard(S)
    b.draw(W, "9p").concealed_kong(W, "9p")
    r = b.win(N, "9p", W, robbed_kong=True).replay()
    only(r, "FALSE_WIN", VIOL, seat=N, index=b.i, reason="ROB_NOT_ALLOWED")
    assert r.deltas == (128, 128, 128, -384)
    # option rob_concealed_kong_for_thirteen_orphans allows it for thirteen orphans only
    r = b.replay({"rob_concealed_kong_for_thirteen_orphans": True})
    only(r, "FALSE_WIN", VIOL, seat=N, index=b.i, reason="ROB_NOT_ALLOWED")


def test_32_two_player_false_win_pays_golden_10() -> None:
    b = Hand("hk-mahjongo-2p").hand(1, "1p2p3p 4p5p6p 7p8p9p 1m1m 9s E", exact=True)
    r = b.draw(0).discard(0).draw(1, "C").win(1, "C").replay()
    only(r, "FALSE_WIN", VIOL, seat=1, index=3, reason="WIN_HAND_INCOMPLETE")
    assert r.deltas == (256, -256)  # G(10) = D(10) provisionally


def _two_wins() -> Hand:
    """S and W wait on 6p with a full flush in dots; E discards it; W declares first."""
    b = mj().hand(S, "1p2p3p 3p4p5p 7p8p9p 9p9p 4p5p").hand(W, "1s2s3s 3s4s5s 7s8s9s E E 4p5p")
    return b.draw(E).discard(E, "6p").win(W, "6p", E).win(S, "6p", E)


def test_36_WIN_CLAIM_OVERRIDDEN() -> None:
    r = _two_wins().replay()
    only(r, "WIN_CLAIM_OVERRIDDEN", INFO, seat=W, index=2)
    clean(r)
    assert r.winners == (S,)
    # S: earthly_hand 10 + full_flush 7 + all_chows 1 + concealed_hand 1, capped at 10
    assert r.fan == 10
    assert r.deltas == (-256, 256, 0, 0)


def test_36_MULTIPLE_WINNERS() -> None:
    r = _two_wins().result([S, W]).replay()
    only(r, "MULTIPLE_WINNERS", AUDIT, seat=None, index=3)
    assert r.winners == (S,)
    r = _two_wins().result([S, W]).replay({"multiple_winners": True})
    assert with_code(r, "MULTIPLE_WINNERS") == []
    assert r.winners == (S, W)


def test_37_PAO_LIABILITY() -> None:
    b = p1()  # example P1
    r = b.replay()
    only(r, "PAO_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.liable, r.deltas) == (N, (288, 0, 0, -288))


# --- #38-#40 ------------------------------------------------------------------------------


def test_38_ACTION_AFTER_HAND_END() -> None:
    b = mj().hand(S, WAITING_E).draw(E).discard(E, "E").win(S, "E", E).discard(E)
    r = b.replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=E, index=3)
    stopped(r)


def test_39_HAND_END_INVALID() -> None:
    r = mj().turns(E, 8).exhaustive_draw().replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=16)
    stopped(r)
    r = mj().turns(E, 8).replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=15)


def test_40_RECORDED_RESULT_MISMATCH() -> None:
    last = len(baseline().events) - 1
    r = baseline().result([S], 4, ["half_flush", "self_draw"], [0, 48, -24, -24]).replay()
    f = only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last)
    assert "deltas" in f.message
    assert r.deltas == (-16, 48, -16, -16)
    r = baseline().result([S], 5, ["half_flush", "self_draw"], [-16, 48, -16, -16]).replay()
    assert "fan" in only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last).message
