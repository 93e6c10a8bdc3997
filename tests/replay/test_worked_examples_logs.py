"""The §10 worked examples of both Hong Kong rules files, as full ``mjlog/1`` logs.

hk-classic §10: C1..C10 and the option variants they state (C3 and C4 under ``section6``,
C6 with ``concealed_on_discard_fan = 1``, C8 with ``flower_set_absorbs_seat_flower``, C9 under
``section6`` with ``fan_cap = none``). hk-mahjongo §10: M1..M11 and their variants (M2a/M2b,
M4's P1b, M9's self-drawn and discard wins).

Every example is played as a whole hand: the deal, the draws and discards, the claims of the
exposed melds from the seats the example names, kongs with their replacements, bonus tiles with
theirs (hk-classic), and the win. The replay must give exactly the patterns, raw and capped fan,
liable player and per-seat deltas the example states, with no CORRUPT_LOG, PLAYER_VIOLATION or
SCORE_MISMATCH finding; each log also records the example's result, which must match.

Seats are indices 0..3 and the dealer is East, so seat ``(dealer + k) % 4`` has wind ESWN[k]
(:class:`Table`); the examples are spread over all four dealer seats, so a seat's wind is not
its index by accident. Each seat plays the wind, and each hand the prevailing wind, that the
example states (prevailing S needs a hand number past the East round).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from logbuilder import INFO, VIOL, Hand, clean, only, serious
from mjaudit.parts.replay.engine.findings import HandReport

FULL = {"hk-classic": 144, "hk-mahjongo": 136, "hk-mahjongo-2p": 80}
RESERVED = {"hk-classic": 14, "hk-mahjongo": 0, "hk-mahjongo-2p": 0}


@dataclass(frozen=True)
class Table:
    """Seat indices by wind when ``dealer`` deals: seat ``(dealer + k) % 4`` has wind ESWN[k];
    the two-player table seats E (the dealer) and W (``two_player_seats`` [E, W])."""

    dealer: int
    winds: str = "ESWN"

    def seat(self, wind: str) -> int:
        return (self.dealer + self.winds.index(wind)) % len(self.winds)

    @property
    def E(self) -> int:
        return self.seat("E")

    @property
    def S(self) -> int:
        return self.seat("S")

    @property
    def W(self) -> int:
        return self.seat("W")

    @property
    def N(self) -> int:
        return self.seat("N")

    def deltas(self, **by_wind: int) -> tuple[int, ...]:
        """Deltas given by wind (``E=-16, S=16``) as a per-seat tuple; missing winds are 0."""
        out = [0] * len(self.winds)
        for wind in self.winds:
            out[self.seat(wind)] = by_wind.get(wind, 0)
        return tuple(out)


def live_count_before(rec: dict, index: int) -> int:
    """L just before event ``index``, counted from the record (not from the engine)."""
    dealt = sum(len(h) for h in rec["start_hands"])
    drawn = sum(1 for e in rec["events"][:index] if e["type"] in ("draw", "replacement"))
    return FULL[rec["ruleset"]] - RESERVED[rec["ruleset"]] - dealt - drawn


def settled(
    b: Hand,
    *,
    winner: int,
    patterns: Mapping[str, int],
    raw: int,
    fan: int,
    deltas: tuple[int, ...],
    discarder: int | None = None,
    liable: int | None = None,
) -> HandReport:
    """Record the example's result in the log, replay it and check the whole outcome."""
    b.result([winner], fan, deltas=list(deltas))
    assert b.record()["events"][-1]["type"] == "win"
    r = b.replay()
    got = (
        r.ended_by,
        r.winners,
        r.self_drawn,
        r.discarder,
        sorted(r.patterns),
        r.raw_fan,
        r.fan,
        r.liable,
        r.deltas,
    )
    want = (
        "win",
        (winner,),
        discarder is None,
        discarder,
        sorted(patterns.items()),
        raw,
        fan,
        liable,
        deltas,
    )
    assert got == want, f"findings: {r.findings}"
    clean(r)
    assert r.matches_recorded is True
    return r


def not_last_tile(b: Hand) -> None:
    """The win (the last event) is not on the last drawable tile: L > 0 after the last draw."""
    rec = b.record()
    assert live_count_before(rec, len(rec["events"])) > 0


# ================================================================ hk-classic §10


def c1() -> Hand:
    """C1: W (f1) [pung 5p5p5p <- S] 2m3m4m 7s8s9s 3p4p 1m1m wins on 2p discarded by N."""
    t = Table(0)
    b = Hand(dealer=t.dealer).hand(t.W, "f1 5p5p 2m3m4m 7s8s9s 3p4p 1m1m", exact=True)
    b.flower(t.W, "f1").replacement(t.W, "N")  # initial bonus-tile replacement
    b.discard(t.E).draw(t.S).discard(t.S, "5p").pung(t.W, t.S, "5p").discard(t.W, "N")
    b.draw(t.N).discard(t.N, "2p")
    return b.win(t.W, "2p", t.N)


def test_C1_chicken_hand() -> None:
    t = Table(0)
    b = c1()
    not_last_tile(b)
    settled(
        b,
        winner=t.W,
        discarder=t.N,
        patterns={"chicken_hand": 0},
        raw=0,
        fan=0,
        deltas=t.deltas(N=-2, E=-1, S=-1, W=4),
    )


def test_C2_all_chows_concealed_self_drawn_no_flowers() -> None:
    t = Table(1)
    b = Hand(dealer=t.dealer).hand(t.S, "1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p", exact=True)
    b.discard(t.E).turns(t.S, 4).draw(t.S, "8s").win(t.S, "8s")
    not_last_tile(b)
    settled(
        b,
        winner=t.S,
        patterns={"all_chows": 1, "self_draw": 1, "concealed_self_draw": 1, "no_flowers": 1},
        raw=4,
        fan=4,
        deltas=t.deltas(E=-32, W=-32, N=-32, S=96),
    )


def c3(options: dict[str, object] | None = None) -> Hand:
    """C3: S draws f3 during play (replaced), then self-draws 7m, the only winning tile."""
    t = Table(2)
    b = Hand(dealer=t.dealer, options=options)
    b.hand(t.S, "1m2m3m 6m8m 4p5p6p 2s3s4s 5s5s", exact=True)
    b.discard(t.E).draw(t.S, "f3").flower(t.S, "f3").replacement(t.S).discard(t.S)
    return b.turns(t.W, 3).draw(t.S, "7m").win(t.S, "7m")


def test_C3_seed_example_single_wait() -> None:
    t = Table(2)
    b = c3()
    not_last_tile(b)
    settled(
        b,
        winner=t.S,
        patterns={"all_chows": 1, "self_draw": 1, "concealed_self_draw": 1},
        raw=3,
        fan=3,
        deltas=t.deltas(E=-16, W=-16, N=-16, S=48),
    )


def test_C3_seed_example_section6() -> None:
    t = Table(2)
    # section6: single_wait 1 + all_chows 1 + concealed_self_draw 1 + self_draw 0 = 3; the
    # 0-fan self_draw row is left out of the reported patterns (checklist #44). P = 8.
    settled(
        c3({"fan_value_set": "section6"}),
        winner=t.S,
        patterns={"single_wait": 1, "all_chows": 1, "concealed_self_draw": 1},
        raw=3,
        fan=3,
        deltas=t.deltas(E=-16, W=-16, N=-16, S=48),
    )


def c4(options: dict[str, object] | None = None) -> Hand:
    """C4: N (g2, prevailing S) [pung CCC <- E] [pung FFF <- W] 1s2s3s 7p7p P P wins on 7p
    discarded by S."""
    t = Table(3)
    b = Hand(dealer=t.dealer, wind="S", hand_no=5, options=options)
    b.hand(t.N, "g2 C C F F 1s2s3s 7p7p P P 9m", exact=True)
    b.flower(t.N, "g2").replacement(t.N, "5m")
    b.discard(t.E, "C").pung(t.N, t.E, "C").discard(t.N, "9m")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W, "F").pung(t.N, t.W, "F")
    b.discard(t.N, "5m")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S, "7p")
    return b.win(t.N, "7p", t.S)


def test_C4_little_three_dragons() -> None:
    t = Table(3)
    settled(
        c4(),
        winner=t.N,
        discarder=t.S,
        patterns={"dragon_pung": 2, "little_three_dragons": 3},
        raw=5,
        fan=5,
        deltas=t.deltas(S=-48, E=-24, W=-24, N=96),
    )


def test_C4_little_three_dragons_section6() -> None:
    t = Table(3)
    # little_three_dragons 6, inclusive of the dragon pungs: raw 6, P = 32
    settled(
        c4({"fan_value_set": "section6"}),
        winner=t.N,
        discarder=t.S,
        patterns={"little_three_dragons": 6},
        raw=6,
        fan=6,
        deltas=t.deltas(S=-64, E=-32, W=-32, N=128),
    )


def test_C5_all_pungs_double_wind_self_drawn() -> None:
    t = Table(0)
    b = Hand(dealer=t.dealer).hand(t.E, "E E 2p2p2p 9s9s9s 5m5m 7m7m 1p 9m", exact=True)
    b.discard(t.E, "1p").draw(t.S).discard(t.S).draw(t.W).discard(t.W).draw(t.N).discard(t.N, "E")
    b.pung(t.E, t.N, "E").discard(t.E, "9m")
    b.turns(t.S, 3).draw(t.E, "7m").win(t.E, "7m")
    not_last_tile(b)
    settled(
        b,
        winner=t.E,
        patterns={
            "all_pungs": 3,
            "seat_wind_pung": 1,
            "prevailing_wind_pung": 1,
            "self_draw": 1,
            "no_flowers": 1,
        },
        raw=7,
        fan=7,
        deltas=t.deltas(S=-96, W=-96, N=-96, E=288),
    )


def c6(options: dict[str, object] | None = None) -> Hand:
    """C6: N (f1, prevailing S) keeps 1s1s1s 2s3s4s 5s6s7s 8s8s 9s9s and wins on W's 9s."""
    t = Table(1)
    b = Hand(dealer=t.dealer, wind="S", hand_no=6, options=options)
    b.hand(t.N, "f1 1s1s1s 2s3s4s 5s6s7s 8s8s 9s", exact=True)
    b.flower(t.N, "f1").replacement(t.N, "9s")
    b.discard(t.E).turns(t.S, 5).draw(t.W).discard(t.W, "9s")
    return b.win(t.N, "9s", t.W)


def test_C6_full_flush_concealed_on_discard() -> None:
    t = Table(1)
    settled(
        c6(),
        winner=t.N,
        discarder=t.W,
        patterns={"full_flush": 6},
        raw=6,
        fan=6,
        deltas=t.deltas(W=-64, E=-32, S=-32, N=128),
    )


def test_C6_concealed_on_discard_fan_1() -> None:
    t = Table(1)
    # raw 7, P = 48; the rules file names only the option: the engine's row id for the 1 fan
    # of a concealed hand won on a discard is "concealed_on_discard"
    settled(
        c6({"concealed_on_discard_fan": 1}),
        winner=t.N,
        discarder=t.W,
        patterns={"full_flush": 6, "concealed_on_discard": 1},
        raw=7,
        fan=7,
        deltas=t.deltas(W=-96, E=-48, S=-48, N=192),
    )


def test_C7_thirteen_orphans_capped() -> None:
    t = Table(2)
    b = Hand(dealer=t.dealer).hand(t.W, "1m9m1p9p1s9s E S W N C F P", exact=True)
    b.discard(t.E).turns(t.S, 5).draw(t.W, "9m").win(t.W, "9m")
    not_last_tile(b)
    settled(
        b,
        winner=t.W,
        patterns={
            "thirteen_orphans": 8,
            "self_draw": 1,
            "concealed_self_draw": 1,
            "no_flowers": 1,
        },
        raw=11,
        fan=8,
        deltas=t.deltas(E=-128, S=-128, N=-128, W=384),
    )


def c8(options: dict[str, object] | None = None) -> Hand:
    """C8: S exposes f1 f2 f3 f4 (f4 comes as a replacement), chows E's 3p, then draws the
    4th 4m, declares a concealed kong and wins on the replacement 9m."""
    t = Table(3)
    b = Hand(dealer=t.dealer, options=options)
    b.hand(t.S, "f1 f2 f3 4m4m4m 6s7s8s 5m5m 9m 2p", exact=True)
    b.flower(t.S, "f1").replacement(t.S, "9m").flower(t.S, "f2").replacement(t.S, "4p")
    b.flower(t.S, "f3").replacement(t.S, "f4").flower(t.S, "f4").replacement(t.S, "N")
    b.discard(t.E, "3p").chow(t.S, t.E, "3p", "2p3p4p").discard(t.S, "N")
    b.turns(t.W, 3).draw(t.S, "4m").concealed_kong(t.S, "4m").replacement(t.S, "9m")
    return b.win(t.S, "9m")


def test_C8_kong_replacement_with_flower_set() -> None:
    t = Table(3)
    b = c8()
    not_last_tile(b)
    settled(
        b,
        winner=t.S,
        patterns={
            "win_on_kong_replacement": 1,
            "self_draw": 1,
            "seat_flower": 1,
            "flower_set": 2,
        },
        raw=5,
        fan=5,
        deltas=t.deltas(E=-48, W=-48, N=-48, S=144),
    )


def test_C8_flower_set_absorbs_seat_flower() -> None:
    t = Table(3)
    # 4 fan: f2 is paid by flower_set alone; P = 16
    settled(
        c8({"flower_set_absorbs_seat_flower": True}),
        winner=t.S,
        patterns={"win_on_kong_replacement": 1, "self_draw": 1, "flower_set": 2},
        raw=4,
        fan=4,
        deltas=t.deltas(E=-32, W=-32, N=-32, S=96),
    )


def c9(options: dict[str, object] | None = None) -> Hand:
    """C9: E, the dealer (g1), [pung CCC <- N] [pung FFF <- S] P P 3m4m5m 8p8p wins on W's P."""
    t = Table(1)
    b = Hand(dealer=t.dealer, options=options)
    b.hand(t.E, "g1 C C F F P P 3m4m5m 8p8p 1s 9s", exact=True)
    b.flower(t.E, "g1").replacement(t.E, "W")
    b.discard(t.E, "1s").draw(t.S).discard(t.S, "F").pung(t.E, t.S, "F").discard(t.E, "9s")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W).draw(t.N).discard(t.N, "C").pung(t.E, t.N, "C")
    b.discard(t.E, "W")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W, "P")
    return b.win(t.E, "P", t.W)


def test_C9_big_three_dragons_capped() -> None:
    t = Table(1)
    settled(
        c9(),
        winner=t.E,
        discarder=t.W,
        patterns={"big_three_dragons": 6, "dragon_pung": 3, "seat_flower": 1},
        raw=10,
        fan=8,
        deltas=t.deltas(W=-128, N=-64, S=-64, E=256),
    )


def test_C9_section6_no_cap() -> None:
    t = Table(1)
    settled(
        c9({"fan_value_set": "section6", "fan_cap": "none"}),
        winner=t.E,
        discarder=t.W,
        patterns={"big_three_dragons": 9, "seat_flower": 1},
        raw=10,
        fan=10,
        deltas=t.deltas(W=-256, N=-128, S=-128, E=512),
    )


def test_C10_fully_claimed() -> None:
    t = Table(2)
    b = Hand(dealer=t.dealer).hand(t.N, "f4 1m3m 7p7p 9s9s 4s6s 2p E S C", exact=True)
    b.flower(t.N, "f4").replacement(t.N, "F")
    b.discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W, "2m")
    b.chow(t.N, t.W, "2m", "1m2m3m").discard(t.N, "E")
    b.draw(t.E).discard(t.E, "7p").pung(t.N, t.E, "7p").discard(t.N, "S")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S, "9s").pung(t.N, t.S, "9s").discard(t.N, "C")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W, "5s")
    b.chow(t.N, t.W, "5s", "4s5s6s").discard(t.N, "F")
    b.draw(t.E).discard(t.E, "2p").win(t.N, "2p", t.E)
    settled(
        b,
        winner=t.N,
        discarder=t.E,
        patterns={"fully_claimed": 1, "seat_flower": 1},
        raw=2,
        fan=2,
        deltas=t.deltas(E=-8, S=-4, W=-4, N=16),
    )


# ================================================================ hk-mahjongo §10


def mj(dealer: int, **kw: object) -> Hand:
    return Hand("hk-mahjongo", dealer=dealer, **kw)  # type: ignore[arg-type]


def test_M1_half_flush_minimum() -> None:
    t = Table(0)
    b = mj(t.dealer).hand(t.S, "3m3m 1m2m3m 5m6m7m 8m8m N N 9p", exact=True)
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S)
    b.draw(t.W).discard(t.W, "3m").pung(t.S, t.W, "3m").discard(t.S, "9p")
    b.draw(t.W).discard(t.W).draw(t.N).discard(t.N)
    b.draw(t.E).discard(t.E, "8m").win(t.S, "8m", t.E)
    settled(
        b,
        winner=t.S,
        discarder=t.E,
        patterns={"half_flush": 3},
        raw=3,
        fan=3,
        deltas=t.deltas(E=-16, S=16),
    )


M2_HAND = "2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m"


def test_M2a_false_win_below_minimum() -> None:
    t = Table(3)
    b = mj(t.dealer).hand(t.W, M2_HAND, exact=True)
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W)
    b.draw(t.N).discard(t.N, "8s").win(t.W, "8s", t.N)
    deltas = t.deltas(W=-384, E=128, S=128, N=128)  # S(10) = 128 to each
    r = b.result([], deltas=list(deltas)).replay()
    # all_chows 1 + concealed_hand 1 = 2 < 3: the one violation the example states
    f = only(r, "FALSE_WIN", VIOL, seat=t.W, index=b.i, reason="WIN_BELOW_MIN_FAN")
    assert serious(r) == [f]
    assert (r.ended_by, r.winners, r.liable, r.deltas) == ("false_win", (), None, deltas)
    assert r.matches_recorded is True


def test_M2b_self_drawn_is_valid() -> None:
    t = Table(3)
    b = mj(t.dealer).hand(t.W, M2_HAND, exact=True)
    b.turns(t.E, 6).draw(t.W, "8s").win(t.W, "8s")
    not_last_tile(b)
    settled(
        b,
        winner=t.W,
        patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
        raw=3,
        fan=3,
        deltas=t.deltas(E=-8, S=-8, N=-8, W=24),
    )


def test_M3_little_three_dragons() -> None:
    t = Table(1)
    b = mj(t.dealer, wind="S", hand_no=5).hand(t.N, "C C F F 2s3s4s 6p6p P P 1m 9s", exact=True)
    b.draw(t.E).discard(t.E, "C").pung(t.N, t.E, "C").discard(t.N, "1m")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S, "F").pung(t.N, t.S, "F").discard(t.N, "9s")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W, "6p").win(t.N, "6p", t.W)
    r = settled(
        b,
        winner=t.N,
        discarder=t.W,
        patterns={"little_three_dragons": 3, "dragon_pung": 2},
        raw=5,
        fan=5,
        deltas=t.deltas(W=-48, N=48),
    )
    assert not [f for f in r.findings if f.code.startswith("PAO")]


PAO_PUNG = 18  # event index of E's pung of N's P


def three_dragons_for_E(t: Table, concealed: str) -> Hand:
    """P1 set-up: E (the dealer, prevailing E) makes [pung CCC <- S], [pung FFF <- W], then
    pungs N's P (the third dragon: Pao on N) and discards, keeping ``concealed``."""
    b = mj(t.dealer).hand(t.E, f"C C F F P P {concealed} 1s 9s 1p", exact=True)
    b.draw(t.E).discard(t.E)
    b.draw(t.S).discard(t.S, "C").pung(t.E, t.S, "C").discard(t.E, "1s")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W, "F").pung(t.E, t.W, "F").discard(t.E, "9s")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W).draw(t.N).discard(t.N, "P").pung(t.E, t.N, "P")
    assert b.i == PAO_PUNG
    return b.discard(t.E, "1p")


def test_M4_big_three_dragons_pao_self_drawn() -> None:
    t = Table(2)
    b = three_dragons_for_E(t, "7m8m 5p5p")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W).draw(t.N).discard(t.N)
    b.draw(t.E, "9m").win(t.E, "9m")
    not_last_tile(b)
    r = settled(
        b,
        winner=t.E,
        liable=t.N,
        patterns={"big_three_dragons": 5, "dragon_pung": 3, "self_draw": 1},
        raw=9,
        fan=9,
        deltas=t.deltas(N=-288, E=288),
    )
    only(r, "PAO_ASSIGNED", INFO, seat=t.N, index=PAO_PUNG)
    only(r, "PAO_LIABILITY", INFO, seat=t.N, index=b.i)


def test_M4_P1b_winning_tile_discarded_by_W() -> None:
    t = Table(2)
    b = three_dragons_for_E(t, "7m8m 5p5p")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W, "9m").win(t.E, "9m", t.W)
    # default discarder_pays: W pays D(8) = 128 and N, the Pao player, pays 0
    r = settled(
        b,
        winner=t.E,
        discarder=t.W,
        liable=None,
        patterns={"big_three_dragons": 5, "dragon_pung": 3},
        raw=8,
        fan=8,
        deltas=t.deltas(W=-128, E=128),
    )
    only(r, "PAO_ASSIGNED", INFO, seat=t.N, index=PAO_PUNG)
    assert [f for f in r.findings if f.code == "PAO_LIABILITY"] == []


def test_M5_pao_replaced_by_the_fourth_set() -> None:
    t = Table(2)
    b = three_dragons_for_E(t, "5p5p 9m9m")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W, "5p").pung(t.E, t.W, "5p")
    fourth_set = b.i
    b.discard(t.E, "9m")
    b.draw(t.S).discard(t.S).draw(t.W).discard(t.W).draw(t.N).discard(t.N)
    b.draw(t.E, "9m").win(t.E, "9m")
    not_last_tile(b)
    r = settled(
        b,
        winner=t.E,
        liable=t.W,
        patterns={"big_three_dragons": 5, "dragon_pung": 3, "all_pungs": 3, "self_draw": 1},
        raw=12,
        fan=10,
        deltas=t.deltas(W=-384, E=384),
    )
    only(r, "PAO_ASSIGNED", INFO, seat=t.N, index=PAO_PUNG)
    only(r, "PAO_REPLACED", INFO, seat=t.W, index=fourth_set)
    only(r, "PAO_LIABILITY", INFO, seat=t.W, index=b.i)


def test_M6_full_flush_all_chows() -> None:
    t = Table(3)
    b = mj(t.dealer, wind="S", hand_no=6).hand(t.W, "1p2p3p 3p4p5p 6p7p8p 9p9p 4p5p", exact=True)
    b.turns(t.E, 5).draw(t.S).discard(t.S, "6p").win(t.W, "6p", t.S)
    settled(
        b,
        winner=t.W,
        discarder=t.S,
        patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1},
        raw=9,
        fan=9,
        deltas=t.deltas(S=-192, W=192),
    )


def test_M7_terminal_and_honour_pungs() -> None:
    t = Table(0)
    b = mj(t.dealer).hand(t.S, "1m1m E E 9p9p9p 9s9s C C 5p 5s", exact=True)
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S).draw(t.W).discard(t.W, "E").pung(t.S, t.W, "E")
    b.discard(t.S, "5p")
    b.draw(t.W).discard(t.W).draw(t.N).discard(t.N, "1m").pung(t.S, t.N, "1m").discard(t.S, "5s")
    b.draw(t.W).discard(t.W).draw(t.N).discard(t.N).draw(t.E).discard(t.E, "C").win(t.S, "C", t.E)
    settled(
        b,
        winner=t.S,
        discarder=t.E,
        patterns={
            "all_pungs": 3,
            "terminals_honours_pungs": 1,
            "dragon_pung": 1,
            "prevailing_wind_pung": 1,
        },
        raw=6,
        fan=6,
        deltas=t.deltas(E=-64, S=64),
    )


def test_M8_robbing_the_kong() -> None:
    t = Table(1)
    b = mj(t.dealer).hand(t.N, "2m3m4m 6p7p8p 4s5s 7s8s9s 8m8m", exact=True).hand(t.S, "6s6s")
    b.draw(t.E).discard(t.E).draw(t.S).discard(t.S)
    b.draw(t.W).discard(t.W, "6s").pung(t.S, t.W, "6s").discard(t.S)
    b.draw(t.W).discard(t.W).draw(t.N).discard(t.N).draw(t.E).discard(t.E)
    b.draw(t.S, "6s").added_kong(t.S, "6s").win(t.N, "6s", t.S, robbed_kong=True)
    settled(
        b,
        winner=t.N,
        discarder=t.S,
        patterns={"all_chows": 1, "concealed_hand": 1, "robbing_the_kong": 1},
        raw=3,
        fan=3,
        deltas=t.deltas(S=-16, N=16),
    )


M9_HAND = "2m2m2m 5p5p5p 7s7s7s 9p9p N N"


def test_M9_four_concealed_pungs_self_drawn() -> None:
    t = Table(2)
    b = mj(t.dealer).hand(t.W, M9_HAND, exact=True)
    b.turns(t.E, 6).draw(t.W, "N").win(t.W, "N")
    not_last_tile(b)
    settled(
        b,
        winner=t.W,
        patterns={
            "four_concealed_pungs": 10,
            "all_pungs": 3,
            "concealed_hand": 1,
            "self_draw": 1,
        },
        raw=15,
        fan=10,
        deltas=t.deltas(E=-128, S=-128, N=-128, W=384),
    )


def test_M9_won_on_a_discard_three_concealed_pungs() -> None:
    t = Table(2)
    b = mj(t.dealer).hand(t.W, M9_HAND, exact=True)
    b.turns(t.E, 5).draw(t.S).discard(t.S, "9p").win(t.W, "9p", t.S)
    settled(
        b,
        winner=t.W,
        discarder=t.S,
        patterns={"all_pungs": 3, "concealed_hand": 1},
        raw=4,
        fan=4,
        deltas=t.deltas(S=-32, W=32),
    )


def test_M10_last_tile_of_the_wall() -> None:
    t = Table(3)
    b = mj(t.dealer, wind="S", hand_no=7).hand(t.N, "1m1m1m 4p5p6p 7p8p9p 3s3s 5s5s", exact=True)
    b.turns(t.E, 83).draw(t.N, "5s")
    assert live_count_before(b.record(), b.i) == 1  # N's draw takes L from 1 to 0
    b.win(t.N, "5s")
    settled(
        b,
        winner=t.N,
        patterns={"last_tile_draw": 1, "self_draw": 1, "concealed_hand": 1},
        raw=3,
        fan=3,
        deltas=t.deltas(E=-8, S=-8, W=-8, N=24),
    )


def test_M11_two_player_half_flush() -> None:
    t = Table(1, "EW")  # the dealer is E, the other seat W
    b = Hand("hk-mahjongo-2p", dealer=t.dealer)
    b.hand(t.E, "1p2p3p 5p5p5p 7p8p9p E E C C", exact=True)
    b.turns(t.E, 4).draw(t.E, "C").win(t.E, "C")
    not_last_tile(b)
    settled(
        b,
        winner=t.E,
        patterns={"half_flush": 3, "dragon_pung": 1, "concealed_hand": 1, "self_draw": 1},
        raw=6,
        fan=6,
        deltas=t.deltas(W=-64, E=64),  # G(6) = 64 under the provisional Golden table
    )
