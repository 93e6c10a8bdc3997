"""The penalty and liability examples of both rules files, as full logs through the replayer.

hk-classic §7 and its "Penalty examples" table: F1, F2, N1, N2, N3, L1, D1.
hk-mahjongo §7 and its "Penalty quick reference": M2a (and M2b), P1/M4, P1b (three
options), P1c, P2/M5, P3.

Each test asserts the exact per-seat deltas, the liable seat, the patterns and the fan the
example states. Seats: the dealer is seat 0 (E), so seat k has wind ESWN[k].
"""

from __future__ import annotations

import pytest
from logbuilder import INFO, VIOL, Hand, clean, dead, only, with_code

E, S, W, N = 0, 1, 2, 3
FULL = {"hk-classic": 144, "hk-mahjongo": 136}
RESERVED = {"hk-classic": 14, "hk-mahjongo": 0}


def live_count_before(rec: dict, index: int) -> int:
    """L just before event ``index``, counted from the record (not from the engine)."""
    dealt = sum(len(h) for h in rec["start_hands"])
    drawn = sum(1 for e in rec["events"][:index] if e["type"] in ("draw", "replacement"))
    return FULL[rec["ruleset"]] - RESERVED[rec["ruleset"]] - dealt - drawn


# ================================================================ hk-classic §7


def f1_false_win() -> Hand:
    """F1: S holds 1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s, draws 6s and declares a self-drawn win."""
    b = Hand().hand(S, "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s", exact=True)
    return b.discard(E).draw(S, "6s").win(S, "6s")


def test_F1_false_win_incomplete_hand() -> None:
    r = f1_false_win().replay()
    only(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_HAND_INCOMPLETE")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=S, index=2)
    assert r.deltas == (64, -192, 64, 64)
    assert (r.winners, r.fan, r.patterns, r.liable) == ((), None, (), None)
    assert r.ended_by == "false_win"  # the hand ends; E remains dealer


def test_F1_recorded_penalty_matches() -> None:
    r = f1_false_win().result([], deltas=[64, -192, 64, 64]).replay()
    assert with_code(r, "RECORDED_RESULT_MISMATCH") == []
    assert r.matches_recorded is True
    r = f1_false_win().result([], deltas=[0, 0, 0, 0]).replay()
    assert len(with_code(r, "RECORDED_RESULT_MISMATCH")) == 1


def test_F1_options() -> None:
    r = f1_false_win().replay({"false_win_penalty": "flat_32"})
    assert r.deltas == (32, -96, 32, 32)
    r = f1_false_win().replay({"false_win_penalty": "max_self_draw"})  # 2 x P(8) = 128
    assert r.deltas == (128, -384, 128, 128)


def c1(min_fan: int | None = None) -> Hand:
    """C1: W (f1) [pung 5p5p5p <- S] 2m3m4m 7s8s9s 3p4p 1m1m wins on 2p discarded by N."""
    b = Hand(options={} if min_fan is None else {"min_fan": min_fan})
    b.hand(W, "f1 5p5p 2m3m4m 7s8s9s 3p4p 1m1m", exact=True)
    b.flower(W, "f1").replacement(W, "N")
    b.discard(E).draw(S).discard(S, "5p").pung(W, S, "5p").discard(W, "N")
    return b.draw(N).discard(N, "2p").win(W, "2p", N)


def test_C1_chicken_hand_is_a_valid_win() -> None:
    r = c1().result([W], 0, ["chicken_hand"], [-1, -1, 4, -2]).replay()
    clean(r)
    assert (r.winners, r.discarder, r.fan, r.raw_fan) == ((W,), N, 0, 0)
    assert r.patterns == (("chicken_hand", 0),)
    assert r.deltas == (-1, -1, 4, -2)


def test_F2_C1_with_min_fan_3() -> None:
    r = c1(min_fan=3).replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=9, reason="WIN_BELOW_MIN_FAN")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=W, index=9)
    # W pays 64 to each of E, S and N; N, the discarder, owes nothing
    assert r.deltas == (64, 64, -192, 64)
    assert (r.winners, r.liable) == ((), None)


def three_bamboo_melds(concealed: str, options: dict[str, object] | None = None) -> Hand:
    """N1/N2 set-up: W (g4) makes [chow 4s5s6s <- S], [pung 2s <- N], [pung 8s <- E] and
    keeps ``concealed``. Returns the builder right after the third meld (event 15), which
    activates the warning."""
    b = Hand(options=options).hand(W, f"g4 4s6s 2s2s 8s8s {concealed}")
    b.flower(W, "g4").replacement(W, "1p")
    b.discard(E).draw(S).discard(S, "5s").chow(W, S, "5s", "4s5s6s").discard(W, "1p")
    b.draw(N).discard(N, "2s").pung(W, N, "2s").discard(W)
    return b.draw(N).discard(N).draw(E).discard(E, "8s").pung(W, E, "8s")


def n1() -> Hand:
    """N1: W holds 7s7s 9s9s; N discards 9s and W wins (trigger A)."""
    b = three_bamboo_melds("7s7s 9s9s").discard(W)
    return b.draw(N).discard(N, "9s").win(W, "9s", N)


def test_N1_nine_tile_warning_discard_win() -> None:
    b = n1()
    r = b.replay()
    clean(r)
    only(r, "NINE_TILE_WARNING_ACTIVE", INFO, seat=W, index=15)
    only(r, "NINE_TILE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.winners, r.discarder, r.liable) == ((W,), N, N)
    assert r.patterns == (("full_flush", 6),)
    assert (r.raw_fan, r.fan) == (6, 6)
    assert r.deltas == (0, 0, 128, -128)


def test_N1_without_the_rule_pays_normally() -> None:
    r = n1().replay({"nine_tile_warning": False})
    assert r.liable is None
    assert with_code(r, "NINE_TILE_LIABILITY") == []
    assert r.deltas == (-32, -32, 128, -64)


def test_N2_nine_tile_warning_kong_then_replacement_win() -> None:
    b = three_bamboo_melds("9s9s9s 7s").discard(W).draw(N).discard(N, "9s").kong(W, N, "9s")
    b.replacement(W, "7s").win(W, "7s")
    r = b.replay()
    clean(r)
    only(r, "NINE_TILE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.winners, r.self_drawn, r.liable) == ((W,), True, N)
    assert dict(r.patterns) == {"full_flush": 6, "self_draw": 1, "win_on_kong_replacement": 1}
    assert (r.raw_fan, r.fan) == (8, 8)
    assert r.deltas == (0, 0, 384, -384)  # 6P, not 4P


def test_N2_chained_kongs_and_a_pung_near_miss() -> None:
    # trigger B with chained kongs: kong of N's 9s, replacement 2s added to the 2s pung,
    # replacement 7s wins
    b = three_bamboo_melds("9s9s9s 7s").discard(W).draw(N).discard(N, "9s").kong(W, N, "9s")
    b.replacement(W, "2s").added_kong(W, "2s").replacement(W, "7s").win(W, "7s")
    r = b.replay()
    clean(r)
    only(r, "NINE_TILE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.fan, r.liable, r.deltas) == (8, N, (0, 0, 384, -384))
    # a pung of N's discard followed by a later self-drawn win: no liability
    b = three_bamboo_melds("9s9s 7s 1p").discard(W).draw(N).discard(N, "9s").pung(W, N, "9s")
    b.discard(W, "1p").turns(N, 3).draw(W, "7s").win(W, "7s")
    r = b.replay()
    clean(r)
    assert with_code(r, "NINE_TILE_LIABILITY") == []
    assert dict(r.patterns) == {"full_flush": 6, "self_draw": 1}
    assert (r.fan, r.liable, r.deltas) == (7, None, (-96, -96, 288, -96))


def n3(second_warner_wins: bool, e_hand: str = "", e_draw: str | None = None) -> Hand:
    """N3: S's warning for dots becomes active first, then W's for characters."""
    b = Hand().hand(S, "1p1p 3p3p 7p7p 1m2m9m 5p5p8p9p").hand(W, "1m1m 2m2m 9m9m 3p7p 4m6m7m7m")
    if e_hand:
        b.hand(E, e_hand, exact=True)
    b.discard(E, "1p").pung(S, E, "1p").discard(S, "1m").pung(W, S, "1m").discard(W, "3p")
    b.pung(S, W, "3p").discard(S, "2m").pung(W, S, "2m").discard(W, "7p")
    b.pung(S, W, "7p")  # index 9: S warns for p
    b.discard(S, "9m").pung(W, S, "9m")  # index 11: W warns for m
    b.discard(W).draw(N).discard(N).draw(E, e_draw)
    if second_warner_wins:
        return b.discard(E, "5m").win(W, "5m", E)
    return b.discard(E, "7p").win(S, "7p", E)


def test_N3_second_warning_is_exempt() -> None:
    r = n3(second_warner_wins=True).replay()
    clean(r)
    active = [(f.seat, f.event_index) for f in with_code(r, "NINE_TILE_WARNING_ACTIVE")]
    assert active == [(S, 9), (W, 11)]
    assert with_code(r, "NINE_TILE_LIABILITY") == []
    assert r.liable is None
    # full_flush 6 + no_flowers 1 = 7, P = 48: E pays 2P, S and N pay P each
    assert dict(r.patterns) == {"full_flush": 6, "no_flowers": 1}
    assert r.fan == 7
    assert r.deltas == (-96, -48, 192, -48)


def test_N3_first_warning_stays_liable() -> None:
    b = n3(second_warner_wins=False)
    r = b.replay()
    clean(r)
    only(r, "NINE_TILE_LIABILITY", INFO, seat=E, index=b.i)
    assert (r.winners, r.liable) == ((S,), E)
    assert dict(r.patterns) == {"full_flush": 6, "no_flowers": 1}
    assert r.deltas == (-192, 192, 0, 0)  # E pays 4P


def test_N3_exemption_option_holding_one_suit() -> None:
    opts = {"nine_tile_second_warning_exemption": "holding_one_suit"}
    e_hand = "1p 5m 1s2s3s4s5s6s7s8s9s E S N"
    # E holds no dot (the first warner's suit) when discarding 5m: still exempt
    r = n3(True, e_hand, "W").replay(opts)
    clean(r)
    assert (r.liable, r.deltas) == (None, (-96, -48, 192, -48))
    # E holds a dot: no exemption, E pays 4P
    r = n3(True, e_hand, "5p").replay(opts)
    clean(r)
    assert (r.liable, r.deltas) == (E, (-192, 0, 192, 0))


def test_N3_exemption_option_none() -> None:
    r = n3(second_warner_wins=True).replay({"nine_tile_second_warning_exemption": "none"})
    assert r.liable == E
    assert r.deltas == (-192, 0, 192, 0)


def l1(enabled: bool = True, c_seen: bool = False) -> Hand:
    """L1: N draws leaving L = 3 and discards an unseen C (``c_seen``: S discarded a C
    earlier); E wins on it."""
    b = Hand(options={"last_five_tiles_penalty": enabled}, avoid="C")
    b.hand(E, "f1 2m2m 5p7p 3s4s5s 8s8s8s C").hand(S, "f2").hand(W, "f3")
    b.flower(E, "f1").replacement(E).flower(S, "f2").replacement(S)
    b.flower(W, "f3").replacement(W)
    b.discard(E).draw(S).discard(S, "2m").pung(E, S, "2m").discard(E)
    b.draw(S).discard(S, "C" if c_seen else None).draw(W).discard(W)
    b.draw(N).discard(N, "6p").chow(E, N, "6p", "5p6p7p").discard(E)
    b.turns(S, 66).draw(N).discard(N, "C")
    return b.win(E, "C", N)


def test_L1_last_five_tiles() -> None:
    b = l1()
    rec = b.record()
    assert live_count_before(rec, b.i - 1) == 3  # N's discard, after N's draw
    assert not any(e.get("tile") == "C" for e in rec["events"][: b.i - 1])  # C is unseen
    r = b.replay()
    clean(r)
    only(r, "LAST_FIVE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.winners, r.discarder, r.liable) == ((E,), N, N)
    assert r.patterns == (("seat_flower", 1),)
    assert (r.raw_fan, r.fan) == (1, 1)
    assert r.deltas == (8, 0, 0, -8)


def test_L1_near_misses() -> None:
    # C was seen before: not an unseen tile
    r = l1(c_seen=True).replay()
    clean(r)
    assert (r.liable, r.deltas) == (None, (8, -2, -2, -4))
    # a threshold below the live count
    r = l1().replay({"last_five_threshold": 2})
    assert (r.liable, r.deltas) == (None, (8, -2, -2, -4))


def test_L1_rule_off_by_default() -> None:
    r = l1(enabled=False).replay()
    clean(r)
    assert r.liable is None
    assert r.deltas == (8, -2, -2, -4)


def test_D1_kong_without_replacement_dead_hand_pays() -> None:
    b = Hand().hand(W, "6p6p6p").hand(E, "2m3m4m 5s6s7s 8p8p8p 9m")
    b.discard(E).draw(S).discard(S)
    b.draw(W, "6p").concealed_kong(W, "6p").discard(W)  # index 5: no replacement
    b.draw(N).discard(N, "1s").pung(E, N, "1s").discard(E)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
    r = b.draw(E, "9m").win(E, "9m").replay()
    only(r, "KONG_WITHOUT_REPLACEMENT", VIOL, seat=W, index=5)
    only(r, "SHORT_HAND", VIOL, seat=W, index=5)
    dead(r, W, "KONG_WITHOUT_REPLACEMENT", 5)
    # E: [pung 1s] 234m 567s 888p 9m9m, self_draw 1 + no_flowers 1 = 2, P = 4
    assert r.winners == (E,)
    assert dict(r.patterns) == {"self_draw": 1, "no_flowers": 1}
    assert r.fan == 2
    assert r.deltas == (24, -8, -8, -8)  # the dead W pays 8 like the others


def test_D1_dead_hand_cannot_win() -> None:
    b = Hand().hand(W, "6p6p6p 1m2m3m 4m5m6m 7m8m9m").hand(N, "E")
    b.discard(E).draw(S).discard(S)
    b.draw(W, "6p").concealed_kong(W, "6p").discard(W, "E")  # dead, and short: 12 tiles
    b.draw(N, "E").discard(N, "E")
    b.win(W, "E", N)
    r = b.replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_HAND_INCOMPLETE")
    assert r.deltas == (64, 64, -192, 64)  # the false-win penalty of 64 to each


# ================================================================ hk-mahjongo §7


def mj(**options: object) -> Hand:
    return Hand("hk-mahjongo", options=options or None)


def m2(self_drawn: bool) -> Hand:
    """M2: W holds 2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m; 8s by N's discard or self-drawn."""
    b = mj().hand(W, "2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m", exact=True)
    b.draw(E).discard(E).draw(S).discard(S)
    if self_drawn:
        return b.draw(W, "8s").win(W, "8s")
    return b.draw(W).discard(W).draw(N).discard(N, "8s").win(W, "8s", N)


def test_M2a_false_win_below_three_fan() -> None:
    b = m2(self_drawn=False)
    r = b.replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_BELOW_MIN_FAN")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=W, index=b.i)
    assert r.deltas == (128, 128, -384, 128)  # S(10) = 128 to each
    assert (r.winners, r.ended_by) == ((), "false_win")


def test_M2a_false_win_options() -> None:
    assert m2(False).replay({"false_win_penalty": "max_self_draw_total"}).deltas == (
        384,
        384,
        -1152,
        384,
    )
    assert m2(False).replay({"false_win_penalty": "flat_32"}).deltas == (32, 32, -96, 32)


def test_M2b_self_drawn_is_valid() -> None:
    r = m2(self_drawn=True).replay()
    clean(r)
    assert dict(r.patterns) == {"all_chows": 1, "concealed_hand": 1, "self_draw": 1}
    assert r.fan == 3
    assert r.deltas == (-8, -8, 24, -8)


def dragons_for_E(concealed: str = "7m8m 5p5p") -> Hand:
    """P1 step 1: E has [pung C <- S], [pung F <- W]; N discards P and E pungs it (trigger
    B, pao[E] = N, event index 18); E discards (index 19)."""
    b = mj().hand(E, f"C C F F P P {concealed}")
    b.draw(E).discard(E)
    b.draw(S).discard(S, "C").pung(E, S, "C").discard(E)
    b.draw(S).discard(S).draw(W).discard(W, "F").pung(E, W, "F").discard(E)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "P").pung(E, N, "P")
    assert b.i == 18
    return b.discard(E)


def p1(winning_discard_by: int | None = None, **options: object) -> Hand:
    """P1 (self-drawn 9m) and its variants P1b (W discards 9m), P1c (N discards 9m)."""
    b = dragons_for_E()
    b.options.update(options)
    if winning_discard_by == W:
        return b.draw(S).discard(S).draw(W).discard(W, "9m").win(E, "9m", W)
    if winning_discard_by == N:
        b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "9m")
        return b.win(E, "9m", N)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
    return b.draw(E, "9m").win(E, "9m")


def test_P1_third_dragon_pao_self_drawn() -> None:
    b = p1()
    r = b.replay()
    clean(r)
    only(r, "PAO_ASSIGNED", INFO, seat=N, index=18)
    only(r, "PAO_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.winners, r.self_drawn, r.liable) == ((E,), True, N)
    assert dict(r.patterns) == {"big_three_dragons": 5, "dragon_pung": 3, "self_draw": 1}
    assert (r.raw_fan, r.fan) == (9, 9)
    assert r.deltas == (288, 0, 0, -288)  # 3 x S(9)


@pytest.mark.parametrize(
    ("option", "deltas", "liable"),
    [
        (None, (128, 0, -128, 0), None),  # default discarder_pays: W pays, N nothing
        ("discarder_pays", (128, 0, -128, 0), None),
        ("liable_pays_all", (128, 0, 0, -128), N),
        ("split_half", (128, 0, -64, -64), N),
    ],
)
def test_P1b_winning_tile_discarded_by_another_player(
    option: str | None, deltas: tuple[int, ...], liable: int | None
) -> None:
    opts = {} if option is None else {"pao_on_other_discard": option}
    r = p1(W, **opts).replay()
    clean(r)
    assert (r.winners, r.discarder) == ((E,), W)
    assert dict(r.patterns) == {"big_three_dragons": 5, "dragon_pung": 3}
    assert (r.raw_fan, r.fan) == (8, 8)
    assert r.deltas == deltas  # D(8) = 128
    if liable is not None:
        assert r.liable == liable


def test_P1c_winning_tile_discarded_by_the_pao_player() -> None:
    r = p1(N).replay()
    clean(r)
    assert (r.winners, r.discarder) == ((E,), N)
    assert r.fan == 8
    assert r.deltas == (128, 0, 0, -128)


def p2() -> Hand:
    """P2: E keeps 5p5p 9m9m; W discards 5p and E pungs it: the fourth set moves Pao to W."""
    b = dragons_for_E("5p5p 9m9m")
    b.draw(S).discard(S).draw(W).discard(W, "5p").pung(E, W, "5p")
    assert b.i == 24
    b.discard(E, "9m")
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
    return b.draw(E, "9m").win(E, "9m")


def test_P2_later_pao_replaces_earlier() -> None:
    b = p2()
    r = b.replay()
    clean(r)
    only(r, "PAO_ASSIGNED", INFO, seat=N, index=18)
    only(r, "PAO_REPLACED", INFO, seat=W, index=24)
    only(r, "PAO_LIABILITY", INFO, seat=W, index=b.i)
    assert (r.winners, r.liable) == ((E,), W)
    assert dict(r.patterns) == {
        "big_three_dragons": 5,
        "dragon_pung": 3,
        "all_pungs": 3,
        "self_draw": 1,
    }
    assert (r.raw_fan, r.fan) == (12, 10)
    assert r.deltas == (384, 0, -384, 0)  # 3 x S(10)


def p3() -> Hand:
    """P3: S pungs three of E's discards, then declares a concealed kong as the fourth set."""
    b = mj().hand(S, "2m2m 5p5p 8s8s 9p9p9p N")
    b.draw(E).discard(E, "2m").pung(S, E, "2m").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E, "5p").pung(S, E, "5p").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E, "8s").pung(S, E, "8s").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "9p").concealed_kong(S, "9p").replacement(S).discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    return b.draw(S, "N").win(S, "N")


def test_P3_no_pao_from_a_concealed_kong() -> None:
    r = p3().replay()
    clean(r)
    assert with_code(r, "PAO_ASSIGNED") == [] and with_code(r, "PAO_LIABILITY") == []
    assert (r.winners, r.liable) == ((S,), None)
    # [2m] [5p] [8s] [ckong 9p] NN: all_pungs 3 + self_draw 1 = 4, S(4) = 16 each
    assert dict(r.patterns) == {"all_pungs": 3, "self_draw": 1}
    assert r.fan == 4
    assert r.deltas == (-16, 48, -16, -16)


def test_M3_second_dragon_pung_is_no_pao() -> None:
    """M3: N (seat 3, prevailing S) [pung C <- E] [pung F <- S] 2s3s4s 6p6p P P wins on 6p
    discarded by W: little three dragons 3 + dragon_pung 2, W pays D(5) = 48."""
    b = Hand("hk-mahjongo", wind="S", hand_no=5).hand(N, "C C F F 2s3s4s 6p6p P P")
    b.draw(E).discard(E, "C").pung(N, E, "C").discard(N)
    b.draw(E).discard(E).draw(S).discard(S, "F").pung(N, S, "F").discard(N)
    b.draw(E).discard(E).draw(S).discard(S).draw(W).discard(W, "6p").win(N, "6p", W)
    r = b.replay()
    clean(r)
    assert with_code(r, "PAO_ASSIGNED") == []
    assert dict(r.patterns) == {"little_three_dragons": 3, "dragon_pung": 2}
    assert r.fan == 5
    assert r.deltas == (0, 0, -48, 48)
