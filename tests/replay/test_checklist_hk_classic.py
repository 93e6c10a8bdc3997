"""hk-classic §8 legality checklist #1-#44, one test per code, as full logs through the replayer.

Each test builds a log that breaks exactly one rule and asserts the exact finding (code,
class, seat, event index, reason) and the consequence the checklist states: HARD stops the
replay (no settlement), VIOL kills the hand where the table says so and play goes on.
Where it matters a near-miss shows the same situation done legally gives no finding.
Seats: the dealer is seat 0 (E), so seat k has wind ESWN[k].
"""

from __future__ import annotations

import pytest
from logbuilder import (
    AUDIT,
    HARD,
    INFO,
    VIOL,
    Hand,
    canonical,
    clean,
    dead,
    only,
    serious,
    stopped,
    with_code,
)
from mjaudit.parts.replay.engine.run import replay_games, replay_hand
from mjaudit.parts.schemas.records import ErrorCode, RecordError, parse_object
from test_penalty_examples import c1, l1, n1, three_bamboo_melds

E, S, W, N = 0, 1, 2, 3
LIVE_AFTER_DEAL = 78  # 144 - 4 x 13 - 14 reserved, when the dealer is dealt 13 + a draw


def baseline() -> Hand:
    """A legal hand using every kind of action: initial flower, chow from the left, pung,
    concealed kong, added kong, replacements, a self-drawn win and a correct result."""
    b = Hand(dealer=E)
    b.hand(S, "1m2m N 9s9s9s 4m5m6m 2p2p 7s8s")
    b.hand(N, "f3")
    b.flower(N, "f3").replacement(N)
    b.discard(E, "3m").chow(S, E, "3m", "1m2m3m").discard(S, "N")
    b.draw(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    b.draw(S, "9s").concealed_kong(S, "9s").replacement(S).discard(S)
    b.draw(W, "5p").added_kong(W, "5p").replacement(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    b.draw(S, "6s").win(S, "6s")
    # [chow 123m] [ckong 9s] 456m 678s 22p: self_draw 1 + no_flowers 1 = 2, P = 4
    return b.result([S], 2, ["self_draw", "no_flowers"], [-8, 24, -8, -8])


def test_baseline_is_clean() -> None:
    r = baseline().replay()
    clean(r)
    assert r.findings == ()
    assert (r.winners, r.fan, r.raw_fan, r.ended_by) == ((S,), 2, 2, "win")
    assert r.patterns == (("self_draw", 1), ("no_flowers", 1))
    assert r.deltas == (-8, 24, -8, -8)
    assert r.matches_recorded is True


def test_baseline_with_wall_is_clean() -> None:
    r = baseline().replay(wall=True)
    assert r.findings == ()
    assert r.deltas == (-8, 24, -8, -8)


def quick_win(dealer: int, hand_no: int, wind: str = "E", winner: int | None = None) -> Hand:
    """The next seat (or ``winner``) wins on the dealer's first discard; the dealer wins by a
    heavenly hand when ``winner`` is the dealer."""
    w = (dealer + 1) % 4 if winner is None else winner
    b = Hand(dealer=dealer, hand_no=hand_no, wind=wind)
    if w == dealer:
        b.hand(w, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E E")
        return b.win(w, "E")
    b.hand(w, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    return b.discard(dealer, "E").win(w, "E", dealer)


def drawn_hand(dealer: int, hand_no: int, wind: str = "E") -> Hand:
    """Nobody wins: 78 plain turns empty the live wall, then an exhaustive draw."""
    return Hand(dealer=dealer, hand_no=hand_no, wind=wind).turns(dealer, LIVE_AFTER_DEAL)


# --- #1-#7: HAND_START and DEAL ----------------------------------------------------------


def test_01_RULESET_UNKNOWN() -> None:
    r = Hand(options={"fan_cap": 9}).discard(E).abandon().replay()
    only(r, "RULESET_UNKNOWN", HARD, seat=None, index=None)
    stopped(r)
    # an option of the other Hong Kong preset is unknown here too
    r = Hand(options={"pao_fourth_set": True}).discard(E).abandon().replay()
    only(r, "RULESET_UNKNOWN", HARD, seat=None, index=None)
    # near miss: allowed values of known options
    r = Hand(options={"fan_cap": "none", "min_fan": 3}).discard(E).abandon().replay()
    clean(r)


def test_02_SEATING_INVALID() -> None:
    b = Hand(players=["ann", "ann", "cat", "dan"]).discard(E).abandon()
    r = b.replay()
    only(r, "SEATING_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_03_DEALER_ROTATION_MISMATCH() -> None:
    first = quick_win(E, 1).replay()  # S wins: the dealership passes to S
    clean(first)
    assert first.winners == (S,)
    r = quick_win(E, 2).replay(previous=first)
    only(r, "DEALER_ROTATION_MISMATCH", HARD, seat=E, index=None)
    stopped(r)
    clean(quick_win(S, 2).replay(previous=first))


def test_03_dealer_stays_after_dealer_win_draw_and_false_win() -> None:
    dealer_win = quick_win(E, 1, winner=E).replay()
    assert dealer_win.winners == (E,) and "heavenly_hand" in dict(dealer_win.patterns)
    clean(quick_win(E, 2).replay(previous=dealer_win))
    only(
        quick_win(S, 2).replay(previous=dealer_win),
        "DEALER_ROTATION_MISMATCH",
        HARD,
        seat=S,
        index=None,
    )

    draw = drawn_hand(E, 1).exhaustive_draw().replay()
    clean(draw)
    assert draw.ended_by == "exhaustive_draw"
    clean(quick_win(E, 2).replay(previous=draw))
    only(
        quick_win(S, 2).replay(previous=draw), "DEALER_ROTATION_MISMATCH", HARD, seat=S, index=None
    )
    rotate = drawn_hand(E, 1).exhaustive_draw().replay({"dealer_on_draw": "rotate"})
    clean(quick_win(S, 2).replay({"dealer_on_draw": "rotate"}, previous=rotate))

    false_win = Hand().discard(E, "5m").win(S, "5m", E).replay()
    assert false_win.ended_by == "false_win"
    clean(quick_win(E, 2).replay(previous=false_win))
    only(
        quick_win(S, 2).replay(previous=false_win),
        "DEALER_ROTATION_MISMATCH",
        HARD,
        seat=S,
        index=None,
    )


def test_03_dealer_stays_after_abandon() -> None:
    abandoned = Hand().discard(E).abandon().replay()
    assert abandoned.ended_by == "abandon"
    clean(quick_win(E, 2).replay(previous=abandoned))
    only(
        quick_win(S, 2).replay(previous=abandoned),
        "DEALER_ROTATION_MISMATCH",
        HARD,
        seat=S,
        index=None,
    )


def test_03_PREVAILING_WIND_MISMATCH() -> None:
    r = quick_win(E, 1, wind="S").replay()
    only(r, "PREVAILING_WIND_MISMATCH", HARD, seat=None, index=None)
    stopped(r)
    # the dealership goes round E -> S -> W -> N; back at E the round wind becomes S
    hands = [quick_win(d, d + 1).record() for d in range(4)]
    reports = list(replay_games(hands))
    for rep in reports:
        clean(rep)
    fifth_wrong = quick_win(E, 5, wind="E").replay(previous=reports[-1])
    only(fifth_wrong, "PREVAILING_WIND_MISMATCH", HARD, seat=None, index=None)
    clean(quick_win(E, 5, wind="S").replay(previous=reports[-1]))
    # in the middle of the round the wind does not change
    only(
        quick_win(S, 2, wind="S").replay(previous=reports[0]),
        "PREVAILING_WIND_MISMATCH",
        HARD,
        seat=None,
        index=None,
    )


def test_03_PREVIOUS_HAND_MISSING() -> None:
    r = quick_win(S, 3).replay()  # hand 2 is not in the archive: nothing is checked
    only(r, "PREVIOUS_HAND_MISSING", INFO, seat=None, index=None)
    clean(r)
    reports = list(replay_games([quick_win(E, 1).record(), quick_win(W, 3).record()]))
    assert with_code(reports[0], "PREVIOUS_HAND_MISSING") == []
    only(reports[1], "PREVIOUS_HAND_MISSING", INFO, seat=None, index=None)
    clean(reports[1])


def test_03_round_starts_at_the_first_present_hand() -> None:
    # hands 1-3 are missing; hand 4 (dealer N) opens the present part of the round, so the
    # wind changes only when the dealership returns to N
    h4 = quick_win(N, 4).replay()
    only(h4, "PREVIOUS_HAND_MISSING", INFO, seat=None, index=None)
    h5 = quick_win(E, 5).replay(previous=h4)
    clean(h5)
    only(
        quick_win(E, 5, wind="S").replay(previous=h4),
        "PREVAILING_WIND_MISMATCH",
        HARD,
        seat=None,
        index=None,
    )


def test_03_no_rotation_check_after_a_corrupt_hand() -> None:
    corrupt = quick_win(E, 1).discard(W, "9p").replay()  # an action after the win
    assert corrupt.corrupt
    r = quick_win(N, 2).replay(previous=corrupt)
    clean(r)
    assert with_code(r, "DEALER_ROTATION_MISMATCH") == []


def test_04_TILE_CODE_INVALID() -> None:
    # hk-classic has every code of the mahjong tile set, so an invalid code never reaches
    # the replayer: the log-format layer refuses the record (quarantine, UNKNOWN_TILE).
    rec = Hand().discard(E).abandon().record()
    rec["events"][0]["tile"] = "k1"
    with pytest.raises(RecordError) as err:
        canonical(rec)
    assert err.value.code is ErrorCode.UNKNOWN_TILE
    assert err.value.path == "$.events[0].tile"
    # aliases are normalised, not invalid
    rec["events"][0]["tile"] = "5z"
    assert canonical(rec)["events"][0]["tile"] == "P"


def test_05_TILE_OVERCOUNT() -> None:
    b = Hand().hand(S, "1m1m1m").hand(W, "1m1m").discard(E).abandon()
    r = b.replay()
    only(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    stopped(r)
    # the fifth copy arrives with a draw
    b = Hand().hand(S, "1m1m").hand(W, "1m1m").discard(E).draw(S, "1m")
    r = b.discard(S).abandon().replay()
    only(r, "TILE_OVERCOUNT", HARD, seat=None, index=1)
    # a bonus tile exists once
    r = Hand().hand(S, "f1").hand(W, "f1").discard(E).abandon().replay()
    only(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    # near miss: four copies are fine (the baseline holds all four 9s)
    clean(Hand().hand(S, "1m1m").hand(W, "1m1m").discard(E).abandon().replay())


def test_06_WALL_INVALID() -> None:
    rec = baseline().record(wall=True)
    assert len(rec["wall"]) == 144
    other = next(t for t in rec["wall"] if t != rec["wall"][-5])
    rec["wall"][-5] = other  # one tile too many, another missing
    r = replay_hand(rec)
    only(r, "WALL_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_07_DEAL_SIZE_INVALID() -> None:
    b = Hand().hand(W, "1m2m3m4m5m6m7m8m9m1p2p3p", exact=True).discard(E).abandon()
    r = b.replay()
    only(r, "DEAL_SIZE_INVALID", HARD, seat=None, index=None)
    stopped(r)
    # the dealer with 15 tiles
    r = Hand(dealer_tiles=15).discard(E).abandon().replay()
    only(r, "DEAL_SIZE_INVALID", HARD, seat=None, index=None)
    # option dealer_initial_tiles = 14 refuses 13 + first draw ...
    b = Hand(options={"dealer_initial_tiles": 14}).draw(E).discard(E).abandon()
    only(b.replay(), "DEAL_SIZE_INVALID", HARD, seat=None, index=None)
    # ... which the default `either` accepts, as it accepts 14
    clean(Hand().draw(E).discard(E).abandon().replay())
    clean(Hand().discard(E).abandon().replay())


def _partial(dealer_tiles: str, *events: tuple[str, int]) -> list[tuple[int | None, str]]:
    """A log without start hands or wall: only public actions, each (type, seat)."""
    rec = {
        "format": "mjlog/1",
        "game_id": "partial",
        "hand_no": 1,
        "ruleset": "hk-classic",
        "players": ["a", "b", "c", "d"],
        "dealer": 0,
        "prevailing_wind": "E",
        "options": {"dealer_initial_tiles": dealer_tiles},
        "events": [{"type": t, "seat": s, "tile": "2m"} for t, s in events] + [{"type": "abandon"}],
    }
    report = replay_hand(parse_object(rec).record)
    quiet = {"PARTIAL_INFORMATION", "HAND_ABANDONED"}  # INFO: what every such log gets
    return [(f.event_index, f.code) for f in report.findings if f.code not in quiet]


def test_07_partial_log_the_dealers_first_action_says_how_many_tiles_were_dealt() -> None:
    # no deal in the log: the dealer who discards first was dealt 14 (#7 allows it) ...
    assert _partial("either", ("discard", E), ("draw", S), ("discard", S)) == []
    assert _partial("either", ("draw", E), ("discard", E), ("draw", S)) == []
    assert _partial("14", ("discard", E), ("draw", S), ("discard", S)) == []
    # ... unless the option says 13 and a first draw: then the discard comes before it
    found = _partial("13+draw", ("discard", E), ("draw", S), ("discard", S))
    assert found[0] == (0, "DISCARD_OUT_OF_TURN")


def test_07_DEAL_SIZE_INVALID_dealer_13_without_first_draw() -> None:
    # the dealer is dealt 13, but its first action is a discard: its 14th tile is not in
    # the log (#7: "the dealer has 14, or 13 followed by a first draw event")
    r = Hand(dealer_tiles=13).discard(E).draw(S).discard(S).abandon().replay()
    found = with_code(r, "DEAL_SIZE_INVALID")
    # found at the dealer's discard (event 0), which shows the 14th tile never came
    assert [(f.cls, f.seat, f.event_index) for f in found] == [(HARD, E, 0)], r.findings
    stopped(r)
    # near miss: other players' initial flowers may come before the dealer's first draw
    b = Hand(dealer_tiles=13).hand(W, "f1").flower(W, "f1").replacement(W)
    clean(b.draw(E).discard(E).abandon().replay())


def test_07_DEAL_MISMATCH() -> None:
    rec = baseline().record(wall=True)
    wall = rec["wall"]
    j = next(j for j in range(4, 8) if wall[j] != wall[0])  # a tile dealt to S
    wall[0], wall[j] = wall[j], wall[0]  # E and S get each other's tile
    r = replay_hand(rec)
    only(r, "DEAL_MISMATCH", HARD, seat=E, index=None)
    stopped(r)


# --- #8-#12: bonus tiles -----------------------------------------------------------------


def test_08_FLOWER_INVALID() -> None:
    r = Hand().hand(S, "5m").flower(S, "5m").discard(E).abandon().replay()
    only(r, "FLOWER_INVALID", HARD, seat=S, index=0)
    stopped(r)
    # a bonus tile the actor does not hold
    r = Hand().hand(W, "f2").hand(S, "", add=False).flower(S, "f2").discard(E).abandon().replay()
    only(r, "FLOWER_INVALID", HARD, seat=S, index=0)


def test_09_FLOWER_OUT_OF_TURN() -> None:
    b = Hand().hand(W, "f2")
    b.discard(E)  # W still holds f2 at the dealer's first discard (#11)
    b.draw(S).flower(W, "f2")  # not W's turn
    r = b.replacement(W).discard(S).abandon().replay()
    only(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=0)
    only(r, "FLOWER_OUT_OF_TURN", HARD, seat=W, index=2)
    stopped(r)
    # near miss: in the initial phase, before the dealer's first discard, any order is fine
    b = Hand().hand(W, "f2").hand(S, "f1")
    b.flower(W, "f2").replacement(W).flower(S, "f1").replacement(S)
    clean(b.discard(E).abandon().replay())


def test_10_FLOWER_NOT_REPLACED() -> None:
    b = Hand().discard(E).draw(S, "f1").flower(S, "f1").discard(S)
    bad = b.i
    r = b.draw(W).discard(W).abandon().replay()
    only(r, "FLOWER_NOT_REPLACED", VIOL, seat=S, index=bad)
    only(r, "SHORT_HAND", VIOL, seat=S, index=bad)
    dead(r, S, "FLOWER_NOT_REPLACED", bad)
    assert r.deltas == (0, 0, 0, 0)  # play went on to the end
    # near miss: flower on one's own turn, then the replacement
    b = Hand().discard(E).draw(S, "f1").flower(S, "f1").replacement(S).discard(S)
    clean(b.draw(W).discard(W).abandon().replay())


def test_11_FLOWER_NOT_DECLARED() -> None:
    # held through the initial phase
    r = Hand().hand(W, "f2").discard(E).draw(S).discard(S).abandon().replay()
    only(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=0)
    dead(r, W, "FLOWER_NOT_DECLARED", 0)
    # drawn during play and kept while discarding: unusable, so also short
    b = Hand().discard(E).draw(S, "f1").discard(S, "N")
    r = b.abandon().replay()
    only(r, "FLOWER_NOT_DECLARED", VIOL, seat=S, index=2)
    only(r, "SHORT_HAND", VIOL, seat=S, index=2)
    dead(r, S, "FLOWER_NOT_DECLARED", 2)


def test_11_FLOWER_NOT_DECLARED_initial_phase_unfinished() -> None:
    # W exposes f2 in the initial phase but takes the replacement only after the dealer's
    # first discard: the initial phase must be complete before that discard (§2.5, #11)
    b = Hand().hand(W, "f2").flower(W, "f2").discard(E).replacement(W)
    r = b.draw(S).discard(S).abandon().replay()
    only(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=1)
    dead(r, W, "FLOWER_NOT_DECLARED", 1)
    assert [f.seat for f in serious(r)] == [W]


def test_12_FLOWER_DISCARDED() -> None:
    b = Hand().discard(E).draw(S, "f1").discard(S, "f1")
    r = b.draw(W).discard(W).abandon().replay()
    only(r, "FLOWER_DISCARDED", VIOL, seat=S, index=2)
    dead(r, S, "FLOWER_DISCARDED", 2)
    assert [f.code for f in serious(r)] == ["FLOWER_DISCARDED"]
    # the tile is out of play: it cannot be claimed
    b = Hand().hand(W, "", add=False).discard(E).draw(S, "f1").discard(S, "f1")
    r = b.pung(W, S, "f1").abandon().replay()
    only(r, "CLAIM_NO_LIVE_DISCARD", HARD, seat=W, index=3)


# --- #13-#21: draws and discards --------------------------------------------------------


def test_13_DRAW_OUT_OF_TURN() -> None:
    b = Hand().discard(E).draw(W)  # it is S's turn
    b.draw(S).discard(S)  # the turn stays with S: no finding
    b.draw(W).discard(W)  # W's hand is long
    r = b.abandon().replay()
    only(r, "DRAW_OUT_OF_TURN", VIOL, seat=W, index=1)
    dead(r, W, "DRAW_OUT_OF_TURN", 1)
    only(r, "LONG_HAND", VIOL, seat=W, index=5)
    assert [f.seat for f in serious(r)] == [W, W]
    # near miss: the dealer dealt 13 draws first
    clean(Hand().draw(E).discard(E).draw(S).discard(S).abandon().replay())


def test_13_violations_are_hard_errors() -> None:
    b = Hand(options={"violations_are_hard_errors": True}).discard(E).draw(W)
    r = b.draw(S).discard(S).abandon().replay()
    only(r, "DRAW_OUT_OF_TURN", HARD, seat=W, index=1)
    stopped(r)


def test_14_DOUBLE_DRAW() -> None:
    b = Hand().discard(E).draw(S).draw(S)
    r = b.discard(S).abandon().replay()
    only(r, "DOUBLE_DRAW", VIOL, seat=S, index=2)
    dead(r, S, "DOUBLE_DRAW", 2)
    only(r, "LONG_HAND", VIOL, seat=S, index=3)
    # a draw while a replacement is owed is also a double draw
    b = Hand().discard(E).draw(S, "f1").flower(S, "f1").draw(S)
    r = b.discard(S).abandon().replay()
    only(r, "DOUBLE_DRAW", VIOL, seat=S, index=3)
    only(r, "FLOWER_NOT_REPLACED", VIOL, seat=S, index=3)


def test_15_DRAW_FROM_RESERVED_TILES() -> None:
    b = Hand().turns(E, LIVE_AFTER_DEAL)  # L = 0 now; the last discard is S's
    r = b.draw(W).discard(W).exhaustive_draw().replay()
    only(r, "DRAW_FROM_RESERVED_TILES", HARD, seat=W, index=2 * LIVE_AFTER_DEAL)
    stopped(r)
    # near miss: the hand ends as an exhaustive draw; nobody pays
    r = Hand().turns(E, LIVE_AFTER_DEAL).exhaustive_draw().replay()
    clean(r)
    assert (r.ended_by, r.deltas, r.winners) == ("exhaustive_draw", (0, 0, 0, 0), ())


def test_15_replacement_from_reserved_tiles() -> None:
    # the last drawable tile is a bonus tile: no replacement is possible (§2.5)
    b = Hand().turns(E, LIVE_AFTER_DEAL - 1).draw(S, "f2").flower(S, "f2")
    r = b.replacement(S).discard(S).exhaustive_draw().replay()
    only(r, "DRAW_FROM_RESERVED_TILES", HARD, seat=S, index=2 * LIVE_AFTER_DEAL)
    b = Hand().turns(E, LIVE_AFTER_DEAL - 1).draw(S, "f2").flower(S, "f2")
    r = b.exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"


def test_16_DRAW_TILE_MISMATCH() -> None:
    b = baseline()
    rec = b.record(wall=True)
    first_draw = next(i for i, e in enumerate(rec["events"]) if e["type"] == "draw")
    assert rec["wall"][53] == rec["events"][first_draw]["tile"]
    j = next(j for j in range(80, 120) if rec["wall"][j] != rec["wall"][53])
    rec["wall"][53], rec["wall"][j] = rec["wall"][j], rec["wall"][53]
    r = replay_hand(rec)
    only(r, "DRAW_TILE_MISMATCH", HARD, seat=W, index=first_draw)
    stopped(r)
    # the first replacement comes from the tail
    rec = b.record(wall=True)
    assert rec["events"][1] == {"type": "replacement", "seat": N, "tile": rec["wall"][-1]}
    j = next(j for j in range(80, 120) if rec["wall"][j] != rec["wall"][-1])
    rec["wall"][-1], rec["wall"][j] = rec["wall"][j], rec["wall"][-1]
    only(replay_hand(rec), "DRAW_TILE_MISMATCH", HARD, seat=N, index=1)


def test_16_DRAW_TILE_MISMATCH_dead_wall() -> None:
    """With ``dead_wall`` the replacements are its tiles in order."""
    rec = baseline().record(wall=True)
    reps = [e["tile"] for e in rec["events"] if e["type"] == "replacement"]
    rec["wall"] = rec["wall"][: len(rec["wall"]) - len(reps)]
    rec["dead_wall"] = reps
    assert replay_hand(canonical(rec)).findings == ()
    rec["dead_wall"] = [reps[1], reps[0], *reps[2:]]
    assert reps[0] != reps[1]
    r = replay_hand(canonical(rec))
    only(r, "DRAW_TILE_MISMATCH", HARD, seat=N, index=1)


def test_16_WRONG_DRAW_POSITION() -> None:
    rec = baseline().record(wall=True)
    rec["options"] = {"draw_mismatch_policy": "wrong_position"}
    first_draw = next(i for i, e in enumerate(rec["events"]) if e["type"] == "draw")
    j = next(j for j in range(80, 120) if rec["wall"][j] != rec["wall"][53])
    rec["wall"][53], rec["wall"][j] = rec["wall"][j], rec["wall"][53]
    r = replay_hand(rec)
    only(r, "WRONG_DRAW_POSITION", VIOL, seat=W, index=first_draw)
    dead(r, W, "WRONG_DRAW_POSITION", first_draw)
    # the hand is still settled: S's win stands and the dead W pays like the others
    assert r.winners == (S,)
    assert r.deltas == (-8, 24, -8, -8)


def test_17_REPLACEMENT_UNEXPECTED() -> None:
    r = Hand().discard(E).draw(S).replacement(S).discard(S).abandon().replay()
    only(r, "REPLACEMENT_UNEXPECTED", HARD, seat=S, index=2)
    stopped(r)


def test_18_KONG_WITHOUT_REPLACEMENT() -> None:
    b = Hand().hand(W, "6p6p6p").discard(E).draw(S).discard(S)
    b.draw(W, "6p").concealed_kong(W, "6p").discard(W)
    bad = b.i
    r = b.draw(N).discard(N).abandon().replay()
    only(r, "KONG_WITHOUT_REPLACEMENT", VIOL, seat=W, index=bad)
    only(r, "SHORT_HAND", VIOL, seat=W, index=bad)
    dead(r, W, "KONG_WITHOUT_REPLACEMENT", bad)
    # an exposed kong needs its replacement too
    b = Hand().hand(S, "7m7m7m").discard(E, "7m").kong(S, E, "7m").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    only(r, "KONG_WITHOUT_REPLACEMENT", VIOL, seat=S, index=2)
    # near miss: the replacement is drawn
    b = Hand().hand(S, "7m7m7m").discard(E, "7m").kong(S, E, "7m").replacement(S)
    clean(b.discard(S).draw(W).discard(W).abandon().replay())


def test_19_DISCARD_OUT_OF_TURN() -> None:
    b = Hand().discard(E).discard(W)  # S holds the turn
    b.draw(S).discard(S)  # turn order unchanged: S plays on without a finding
    r = b.abandon().replay()
    only(r, "DISCARD_OUT_OF_TURN", VIOL, seat=W, index=1)
    only(r, "SHORT_HAND", VIOL, seat=W, index=1)
    dead(r, W, "DISCARD_OUT_OF_TURN", 1)
    assert {f.seat for f in serious(r)} == {W}


def test_20_DISCARD_NOT_IN_HAND() -> None:
    b = Hand().hand(E, "1m2m3m4m5m6m7m8m 1s2s3s4s5s6s", exact=True).discard(E, "9p")
    r = b.abandon().replay()
    only(r, "DISCARD_NOT_IN_HAND", HARD, seat=E, index=0)
    stopped(r)


def test_21_SHORT_HAND() -> None:
    # a discard without a draw leaves 12 tiles; emitted once however often it recurs
    b = Hand().discard(E).discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    r = b.abandon().replay()
    only(r, "SHORT_HAND", VIOL, seat=S, index=1)
    # no payment for a short hand
    assert r.deltas == (0, 0, 0, 0)


def test_21_LONG_HAND() -> None:
    b = Hand().discard(E).draw(S).draw(S).discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    r = b.abandon().replay()
    only(r, "LONG_HAND", VIOL, seat=S, index=3)
    assert r.deltas == (0, 0, 0, 0)


# --- #22-#28: claims ----------------------------------------------------------------------


def test_22_CLAIM_NO_LIVE_DISCARD() -> None:
    # the window closed when S drew
    r = Hand().discard(E, "5m").draw(S).pung(W, E, "5m").discard(W).abandon().replay()
    only(r, "CLAIM_NO_LIVE_DISCARD", HARD, seat=W, index=2)
    stopped(r)
    # not the live discard
    r = Hand().hand(W, "6m6m").discard(E, "5m").pung(W, E, "6m").discard(W).abandon().replay()
    only(r, "CLAIM_NO_LIVE_DISCARD", HARD, seat=W, index=1)
    # near miss: a pung of the live discard, skipping S
    r = Hand().discard(E, "5m").pung(W, E, "5m").discard(W).draw(N).discard(N).abandon()
    clean(r.replay())


def test_23_CLAIM_OWN_DISCARD() -> None:
    r = Hand().hand(E, "5m5m5m").discard(E, "5m").pung(E, E, "5m").abandon().replay()
    only(r, "CLAIM_OWN_DISCARD", HARD, seat=E, index=1)
    stopped(r)
    # winning on one's own discard
    b = Hand().hand(E, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E E").discard(E, "E").win(E, "E", E)
    only(b.replay(), "CLAIM_OWN_DISCARD", HARD, seat=E, index=1)


def test_24_CLAIM_TILES_NOT_IN_HAND() -> None:
    b = Hand().hand(W, "5m 1p2p3p4p5p6p7p8p9p 1s2s3s", exact=True)
    r = b.discard(E, "5m").pung(W, E, "5m").discard(W, "1p").abandon().replay()
    only(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=W, index=1)
    stopped(r)
    b = Hand().hand(S, "4m 1p2p3p4p5p6p7p8p9p 1s2s3s", exact=True)
    r = b.discard(E, "5m").chow(S, E, "5m", "4m5m6m").discard(S, "1p").abandon().replay()
    only(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=S, index=1)


def test_25_INVALID_MELD() -> None:
    b = Hand().hand(S, "3m6m").discard(E, "4m").chow(S, E, "4m", "3m4m6m").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    only(r, "INVALID_MELD", VIOL, seat=S, index=1)
    dead(r, S, "INVALID_MELD", 1)
    # the meld stays as logged: S's size is still right after the discard
    assert with_code(r, "SHORT_HAND") == [] and with_code(r, "LONG_HAND") == []
    # honours never form a chow
    b = Hand().hand(S, "S W").discard(E, "E").chow(S, E, "E", "ESW").discard(S)
    r = b.abandon().replay()
    only(r, "INVALID_MELD", VIOL, seat=S, index=1)


def test_26_CHOW_NOT_FROM_LEFT() -> None:
    b = Hand().discard(E, "4m").chow(W, E, "4m", "3m4m5m").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    only(r, "CHOW_NOT_FROM_LEFT", VIOL, seat=W, index=1)
    dead(r, W, "CHOW_NOT_FROM_LEFT", 1)
    # near miss: S is next(E)
    b = Hand().discard(E, "4m").chow(S, E, "4m", "3m4m5m").discard(S)
    clean(b.draw(W).discard(W).abandon().replay())
    # N is next(W): N may chow W's discard, across the dealer
    b = Hand().discard(E).draw(S).discard(S).draw(W).discard(W, "4m")
    clean(b.chow(N, W, "4m", "4m5m6m").discard(N).draw(E).discard(E).abandon().replay())


def _to_last_discard(last: str) -> Hand:
    """L = 0: S makes the last draw and discards ``last``."""
    b = Hand().turns(E, LIVE_AFTER_DEAL - 1)
    return b.draw(S).discard(S, last)


def test_27_ACTION_AFTER_HAND_END_claim_at_L0() -> None:
    b = _to_last_discard("C").pung(W, S, "C")
    r = b.discard(W).exhaustive_draw().replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=W, index=2 * LIVE_AFTER_DEAL)
    stopped(r)
    # near miss: at L = 0 the last discard may still be claimed for a win
    b = _to_last_discard("C").hand(W, "2m3m4m 5p6p7p 3s4s5s 7s8s9s C")
    r = b.win(W, "C", S).replay()
    clean(r)
    assert r.winners == (W,) and r.discarder == S


def test_28_CLAIM_PRIORITY_VIOLATION() -> None:
    # W declared a pung, yet S's chow was executed
    b = Hand().hand(W, "5m5m").discard(E, "5m").announce(W, "claim", claim="pung")
    r = b.chow(S, E, "5m", "4m5m6m").discard(S).abandon().replay()
    only(r, "CLAIM_PRIORITY_VIOLATION", HARD, seat=S, index=2)
    stopped(r)
    # two wins declared: the nearest after the discarder (S) has priority over W
    b = Hand().hand(S, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E").hand(W, "2m3m4m 5p6p7p 3s4s5s 7s8s9s")
    b.discard(E, "E").announce(S, "claim", claim="win").win(W, "E", E)
    only(b.replay(), "CLAIM_PRIORITY_VIOLATION", HARD, seat=W, index=2)
    # near miss: a pung beats a declared chow
    b = Hand().hand(W, "5m5m").discard(E, "5m").announce(S, "claim", claim="chow")
    clean(b.pung(W, E, "5m").discard(W).abandon().replay())


# --- #29-#33: kongs -----------------------------------------------------------------------


def test_29_KONG_OUT_OF_SEQUENCE() -> None:
    b = Hand().hand(W, "5m5m 9p9p9p9p").discard(E, "5m").pung(W, E, "5m")
    b.concealed_kong(W, "9p").replacement(W).discard(W)
    r = b.abandon().replay()
    only(r, "KONG_OUT_OF_SEQUENCE", VIOL, seat=W, index=2)
    dead(r, W, "KONG_OUT_OF_SEQUENCE", 2)
    # near miss: the dealer's first turn, when dealt 14
    b = Hand().hand(E, "9p9p9p9p").concealed_kong(E, "9p").replacement(E).discard(E)
    clean(b.draw(S).discard(S).abandon().replay())


def test_30_KONG_TILES_NOT_IN_HAND() -> None:
    b = Hand().hand(S, "9p9p 1m2m3m4m5m6m7m8m9m 1s2s", exact=True)
    b.discard(E).draw(S, "9p").concealed_kong(S, "9p")
    r = b.replacement(S).discard(S).abandon().replay()
    only(r, "KONG_TILES_NOT_IN_HAND", HARD, seat=S, index=2)
    stopped(r)


def test_31_KONG_ADDED_NO_PUNG() -> None:
    b = Hand().hand(S, "9p9p9p").discard(E).draw(S, "9p").added_kong(S, "9p")
    r = b.replacement(S).discard(S).abandon().replay()
    only(r, "KONG_ADDED_NO_PUNG", HARD, seat=S, index=2)
    stopped(r)


def test_32_KONG_WITHOUT_LIVE_TILE() -> None:
    b = Hand().hand(S, "9p9p9p").turns(E, LIVE_AFTER_DEAL - 1)
    b.draw(S, "9p").concealed_kong(S, "9p")  # S's draw was the last one: L = 0
    r = b.replacement(S).discard(S).exhaustive_draw().replay()
    only(r, "KONG_WITHOUT_LIVE_TILE", HARD, seat=S, index=2 * LIVE_AFTER_DEAL - 1)
    stopped(r)
    # near miss: the same kong one turn earlier (L = 4 after the draw)
    b = Hand().hand(S, "9p9p9p").turns(E, LIVE_AFTER_DEAL - 5)
    b.draw(S, "9p").concealed_kong(S, "9p").replacement(S).discard(S)
    r = b.turns(W, 3).exhaustive_draw().replay()
    clean(r)


def test_29_chained_kongs_and_kong_after_a_flower_replacement_are_in_sequence() -> None:
    b = Hand().hand(S, "9p9p9p 7m7m7m").discard(E).draw(S, "f1").flower(S, "f1")
    b.replacement(S, "9p").concealed_kong(S, "9p").replacement(S, "7m").concealed_kong(S, "7m")
    r = b.replacement(S).discard(S).draw(W).discard(W).abandon().replay()
    clean(r)


def _added_kong_by_W() -> Hand:
    """W pungs E's 5p, later draws the 4th 5p and adds it to the pung."""
    b = Hand().discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    return b.draw(W, "5p").added_kong(W, "5p")


def test_33_ACTION_OUT_OF_ORDER() -> None:
    b = _added_kong_by_W()
    kong = b.i
    b.draw(N).discard(N)  # N plays before W's replacement
    r = b.abandon().replay()
    only(r, "ACTION_OUT_OF_ORDER", HARD, seat=N, index=kong + 1)
    stopped(r)


def test_33_ACTION_OUT_OF_ORDER_discard() -> None:
    b = _added_kong_by_W()
    kong = b.i
    r = b.discard(N).abandon().replay()
    only(r, "ACTION_OUT_OF_ORDER", HARD, seat=N, index=kong + 1)
    stopped(r)


def test_33_robbing_win_before_the_replacement_is_allowed() -> None:
    b = _added_kong_by_W().hand(N, "2m3m4m 6p7p8p 4p6p 7s8s9s 8m8m")
    r = b.win(N, "5p", W, robbed_kong=True).replay()
    clean(r)
    assert r.winners == (N,) and r.discarder == W
    assert dict(r.patterns)["robbing_the_kong"] == 1
    # konger pays 2P, the other two P: all_chows 1 + robbing 1 + no_flowers 1 = 3, P = 8
    assert r.fan == 3
    assert r.deltas == (-8, -8, -16, 32)
    r = b.replay({"robbing_kong_payment": "konger_pays_all"})
    assert r.deltas == (0, 0, -48, 48)  # the konger pays 6P alone
    # near miss for #18: the konger draws the replacement; then play goes on
    b = _added_kong_by_W().replacement(W).discard(W).draw(N).discard(N).abandon()
    clean(b.replay())


# --- #34-#39: wins ------------------------------------------------------------------------

WAITING_E = "2m3m4m 5p6p7p 3s4s5s 7s8s9s E"  # waits on E only


def test_34_WIN_TILE_NOT_AVAILABLE() -> None:
    b = Hand().hand(S, WAITING_E).discard(E, "5m").win(S, "E", E)
    r = b.replay()
    only(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=1)
    stopped(r)
    # self-drawn on a tile S did not just draw
    b = Hand().hand(S, WAITING_E, exact=True)
    r = b.discard(E).draw(S).win(S, "E").replay()
    only(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=2)
    # a robbed-kong win on a tile nobody konged
    b = Hand().hand(S, WAITING_E).discard(E, "E").win(S, "E", E, robbed_kong=True)
    only(b.replay(), "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=1)


def test_34_wins_on_a_kong_replacement_and_on_the_last_drawable_tile() -> None:
    # C8: S (f1-f4) [chow 2p3p4p <- E] [ckong 4m] 678s 5m5m, replacement 9m makes 999m
    b = Hand().hand(S, "f1 f2 3p4p 4m4m4m 6s7s8s 5m5m 9m", exact=True)
    b.flower(S, "f1").replacement(S, "f3").flower(S, "f3").replacement(S, "f4")
    b.flower(S, "f4").replacement(S, "9m").flower(S, "f2").replacement(S, "N")
    b.discard(E, "2p").chow(S, E, "2p", "2p3p4p").discard(S, "N")
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "4m").concealed_kong(S, "4m").replacement(S, "9m").win(S, "9m")
    r = b.replay()
    clean(r)
    assert dict(r.patterns) == {
        "win_on_kong_replacement": 1,
        "self_draw": 1,
        "seat_flower": 1,
        "flower_set": 2,
    }
    assert r.fan == 5
    assert r.deltas == (-48, 144, -48, -48)
    # S self-draws E, the last drawable tile (L goes from 1 to 0)
    b = Hand().hand(S, WAITING_E, exact=True).turns(E, LIVE_AFTER_DEAL - 1)
    r = b.draw(S, "E").win(S, "E").replay()
    clean(r)
    assert dict(r.patterns) == {
        "self_draw": 1,
        "concealed_self_draw": 1,
        "no_flowers": 1,
        "last_tile_draw": 2,
    }
    assert r.deltas == (-48, 144, -48, -48)


def test_34_latest_draw_after_a_double_draw_is_available() -> None:
    # S draws twice and declares a self-drawn win on the second tile: that tile is S's most
    # recent draw (#34), so the log is not corrupt; S's 15 tiles make a false win (§7.1)
    b = Hand().hand(S, WAITING_E, exact=True).discard(E).draw(S).draw(S, "E").win(S, "E")
    r = b.replay()
    assert not r.corrupt, r.findings
    only(r, "DOUBLE_DRAW", VIOL, seat=S, index=2)
    only(r, "LONG_HAND", VIOL, seat=S, index=3)
    only(r, "FALSE_WIN", VIOL, seat=S, index=3, reason="WIN_HAND_INCOMPLETE")
    assert r.deltas == (64, -192, 64, 64)


def test_35_FALSE_WIN_WIN_HAND_INCOMPLETE() -> None:
    b = Hand().hand(S, "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s", exact=True)
    b.discard(E).draw(S, "6s").win(S, "6s")
    r = b.replay()
    only(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_HAND_INCOMPLETE")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=S, index=2)
    assert (r.ended_by, r.winners, r.deltas) == ("false_win", (), (64, -192, 64, 64))


def test_36_FALSE_WIN_ROB_NOT_ALLOWED() -> None:
    # N waits on 6p/9p; W's concealed kong of 9p cannot be robbed
    b = Hand().hand(W, "9p9p9p").hand(N, "1m2m3m 4m5m6m 7m8m9m 7p8p E E")
    b.discard(E).draw(S).discard(S).draw(W, "9p").concealed_kong(W, "9p")
    kong = b.i
    r = b.win(N, "9p", W, robbed_kong=True).replay()
    only(r, "FALSE_WIN", VIOL, seat=N, index=kong + 1, reason="ROB_NOT_ALLOWED")
    assert r.deltas == (64, 64, 64, -192)
    # nor can an exposed kong
    b = Hand().hand(W, "9p9p9p").hand(N, "1m2m3m 4m5m6m 7m8m9m 7p8p E E")
    b.discard(E).draw(S).discard(S, "9p").kong(W, S, "9p")
    r = b.win(N, "9p", W, robbed_kong=True).replay()
    only(r, "FALSE_WIN", VIOL, seat=N, index=4, reason="ROB_NOT_ALLOWED")


def test_36_thirteen_orphans_may_rob_a_concealed_kong_with_the_option() -> None:
    b = Hand().hand(W, "9p9p9p").hand(N, "1m1m 9m 1p 1s9s E S W N C F P", exact=True)
    b.discard(E).draw(S).discard(S).draw(W, "9p").concealed_kong(W, "9p")
    b.win(N, "9p", W, robbed_kong=True)
    only(b.replay(), "FALSE_WIN", VIOL, seat=N, index=b.i, reason="ROB_NOT_ALLOWED")
    r = b.replay({"rob_concealed_kong_for_thirteen_orphans": True})
    clean(r)
    assert (r.winners, r.discarder, r.fan) == ((N,), W, 8)
    assert "thirteen_orphans" in dict(r.patterns)
    assert r.deltas == (-64, -64, -128, 256)  # the konger pays as the discarder


def test_37_FALSE_WIN_WIN_BY_DEAD_HAND() -> None:
    b = Hand().hand(W, "2m3m5m 5p6p7p 3s4s5s 7s8s9s E", exact=True)
    b.discard(E, "4m").chow(W, E, "4m", "3m4m5m")  # not from the left: W is dead
    b.discard(W, "2m").draw(N).discard(N).draw(E).discard(E, "E")
    r = b.win(W, "E", E).replay()
    only(r, "CHOW_NOT_FROM_LEFT", VIOL, seat=W, index=1)
    only(r, "FALSE_WIN", VIOL, seat=W, index=7, reason="WIN_BY_DEAD_HAND")
    assert r.deltas == (64, 64, -192, 64)


def test_38_FALSE_WIN_WIN_BELOW_MIN_FAN() -> None:
    # C1 (a chicken hand, 0 fan) with min_fan 1
    r = c1(min_fan=1).replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=9, reason="WIN_BELOW_MIN_FAN")
    assert r.deltas == (64, 64, -192, 64)
    # near miss: the default min_fan 0 lets a chicken hand win
    r = c1().replay()
    clean(r)
    assert r.patterns == (("chicken_hand", 0),)
    assert r.deltas == (-1, -1, 4, -2)


def _two_wins() -> Hand:
    """S and W both wait on E; E discards it; W declares first, then S."""
    b = Hand().hand(S, WAITING_E).hand(W, "2m3m4m 5p6p7p 3s4s5s 6s7s8s E")
    return b.discard(E, "E").win(W, "E", E).win(S, "E", E)


def test_39_WIN_CLAIM_OVERRIDDEN() -> None:
    r = _two_wins().replay()
    only(r, "WIN_CLAIM_OVERRIDDEN", INFO, seat=W, index=1)
    clean(r)
    assert r.winners == (S,)  # head-bump: S is nearest after E
    # S: earthly hand 8 + all_chows ... capped at 8; E pays 2P, the others P
    assert r.fan == 8
    assert r.deltas == (-128, 256, -64, -64)


def test_39_valid_and_false_win_in_one_claim_group() -> None:
    # W's declaration is false (it does not wait on E), S's is valid: S is settled and W
    # pays the false-win penalty as well
    b = Hand().hand(S, WAITING_E).hand(W, "2m3m4m 5p6p7p 3s4s5s 6s7s 9p9p", exact=True)
    r = b.discard(E, "E").win(W, "E", E).win(S, "E", E).replay()
    only(r, "FALSE_WIN", VIOL, seat=W, index=1, reason="WIN_HAND_INCOMPLETE")
    assert with_code(r, "WIN_CLAIM_OVERRIDDEN") == []
    assert (r.winners, r.fan) == ((S,), 8)
    assert r.deltas == (-128 + 64, 256 + 64, -64 - 192, -64 + 64)


def test_39_MULTIPLE_WINNERS() -> None:
    r = _two_wins().result([S, W]).replay()
    only(r, "MULTIPLE_WINNERS", AUDIT, seat=None, index=2)
    assert r.winners == (S,)
    # with option multiple_winners both are settled against the discarder
    r = _two_wins().result([S, W]).replay({"multiple_winners": True})
    assert with_code(r, "MULTIPLE_WINNERS") == []
    assert r.winners == (S, W)
    # each is an earthly hand (8, P = 64) settled against E: E pays 2P twice
    assert r.deltas == (-256, 256 - 64, 256 - 64, -128)


# --- #40-#41: nine-tile warning -------------------------------------------------------------


def test_40_NINE_TILE_WARNING_UNFOUNDED() -> None:
    b = Hand().hand(W, "4s6s").discard(E).draw(S).discard(S, "5s")
    b.chow(W, S, "5s", "4s5s6s").announce(W, "nine_tile_warning", suit="s").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    only(r, "NINE_TILE_WARNING_UNFOUNDED", VIOL, seat=W, index=4)
    assert with_code(r, "DEAD_HAND") == []  # no effect on the hand
    assert with_code(r, "NINE_TILE_WARNING_ACTIVE") == []


def test_41_NINE_TILE_WARNING_NOT_DECLARED() -> None:
    b = three_bamboo_melds("7s7s 9s9s", {"nine_tile_requires_declaration": True})
    third = b.i
    b.discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    only(r, "NINE_TILE_WARNING_NOT_DECLARED", VIOL, seat=W, index=third + 1)
    assert with_code(r, "NINE_TILE_WARNING_ACTIVE") == []
    assert with_code(r, "DEAD_HAND") == []
    # near miss: declared before the discard, the warning becomes active there
    b = three_bamboo_melds("7s7s 9s9s", {"nine_tile_requires_declaration": True})
    b.announce(W, "nine_tile_warning", suit="s")
    said = b.i
    r = b.discard(W).draw(N).discard(N).abandon().replay()
    clean(r)
    only(r, "NINE_TILE_WARNING_ACTIVE", INFO, seat=W, index=said)


def test_NINE_TILE_WARNING_ACTIVE() -> None:
    b = three_bamboo_melds("7s7s 9s9s")
    third = b.i
    r = b.discard(W).draw(N).discard(N).abandon().replay()
    clean(r)
    only(r, "NINE_TILE_WARNING_ACTIVE", INFO, seat=W, index=third)
    # with the rule off there is no warning
    r = three_bamboo_melds("7s7s 9s9s", {"nine_tile_warning": False}).discard(W).abandon().replay()
    assert with_code(r, "NINE_TILE_WARNING_ACTIVE") == []


# --- #42-#44: end of hand -------------------------------------------------------------------


def test_42_ACTION_AFTER_HAND_END() -> None:
    b = Hand().hand(S, WAITING_E).discard(E, "E").win(S, "E", E).draw(W)
    r = b.replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=W, index=2)
    stopped(r)
    # after an exhaustive draw
    r = Hand().turns(E, LIVE_AFTER_DEAL).exhaustive_draw().abandon().replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=None, index=2 * LIVE_AFTER_DEAL + 1)
    # after a false win that ends the hand
    b = Hand().discard(E, "5m").win(S, "5m", E).draw(S)
    only(b.replay(), "ACTION_AFTER_HAND_END", HARD, seat=S, index=2)


def test_42_ACTION_AFTER_HAND_END_abandon() -> None:
    r = Hand().discard(E).abandon().draw(S).replay()
    only(r, "ACTION_AFTER_HAND_END", HARD, seat=S, index=2)
    stopped(r)


def test_43_HAND_END_INVALID() -> None:
    r = Hand().turns(E, 10).exhaustive_draw().replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=20)
    stopped(r)
    # the log stops while the hand is live
    r = Hand().turns(E, 10).replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=19)
    # L = 0, but the last drawer has not discarded yet (that discard may still be won)
    r = Hand().turns(E, LIVE_AFTER_DEAL - 1).draw(S).exhaustive_draw().replay()
    only(r, "HAND_END_INVALID", HARD, seat=None, index=2 * LIVE_AFTER_DEAL - 1)


def test_44_RECORDED_RESULT_MISMATCH() -> None:
    last = len(baseline().events) - 1
    r = baseline().result([S], 2, ["self_draw", "no_flowers"], [-8, 24, -16, 0]).replay()
    f = only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last)
    assert "deltas" in f.message
    assert r.matches_recorded is False
    assert r.deltas == (-8, 24, -8, -8)  # the computed settlement stands
    r = baseline().result([S], 3, ["self_draw", "no_flowers"], [-8, 24, -8, -8]).replay()
    assert "fan" in only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last).message
    r = baseline().result([S], 2, ["self_draw"], [-8, 24, -8, -8]).replay()
    assert "patterns" in only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last).message
    r = baseline().result([W], 2, ["self_draw", "no_flowers"], [-8, 24, -8, -8]).replay()
    assert "winners" in only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=last).message


def test_44_patterns_compare_as_a_multiset() -> None:
    # C9-like: big three dragons, dragon_pung three times
    b = Hand().hand(E, "C C F F P P 3m4m5m 8p8p")
    b.discard(E).draw(S).discard(S, "F").pung(E, S, "F").discard(E)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "C").pung(E, N, "C").discard(E)
    b.draw(S).discard(S).draw(W).discard(W, "P")
    b.win(E, "P", W)
    ok = ["dragon_pung", "dragon_pung", "dragon_pung", "big_three_dragons", "no_flowers"]
    r = b.result([E], 8, ok).replay()
    clean(r)
    assert r.raw_fan == 10 and r.fan == 8
    r = b.result([E], 8, ["dragon_pung", "big_three_dragons", "no_flowers"]).replay()
    only(r, "RECORDED_RESULT_MISMATCH", AUDIT, seat=None, index=b.i)


# --- liability events -------------------------------------------------------------------------


def test_DEAD_HAND() -> None:
    # D1 in short: the dead W pays like any loser; covered in full in test_penalty_examples
    b = Hand().hand(S, WAITING_E).discard(E).discard(W)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N).draw(E).discard(E, "E")
    r = b.win(S, "E", E).replay()
    dead(r, W, "DISCARD_OUT_OF_TURN", 1)
    assert r.winners == (S,)
    # no_flowers 1 (the E pair is a value honour: no all_chows), P = 2: E pays 4, W (dead)
    # and N pay 2
    assert r.deltas == (-4, 8, -2, -2)


def test_FALSE_WIN_PENALTY() -> None:
    r = Hand().discard(E, "5m").win(S, "5m", E).replay()  # default end_hand
    only(r, "FALSE_WIN_PENALTY", INFO, seat=S, index=1)
    assert (r.ended_by, r.deltas) == ("false_win", (64, -192, 64, 64))
    # continue_dead: the penalty is paid, the offender plays on dead and pays as a loser
    b = Hand(options={"false_win_effect": "continue_dead"}).hand(W, WAITING_E)
    b.discard(E, "5m").win(S, "5m", E)  # false: S keeps playing with a dead hand
    b.draw(S).discard(S, "E").win(W, "E", S)
    r = b.replay()
    only(r, "FALSE_WIN", VIOL, seat=S, index=1, reason="WIN_HAND_INCOMPLETE")
    only(r, "FALSE_WIN_PENALTY", INFO, seat=S, index=1)
    dead(r, S, "FALSE_WIN", 1)
    assert r.winners == (W,)
    # penalty 64 to each + W's win (no_flowers 1, P = 2) paid normally, S as discarder
    assert r.deltas == (64 - 2, -192 - 4, 64 + 8, 64 - 2)


def test_NINE_TILE_LIABILITY() -> None:
    b = n1()  # example N1
    r = b.replay()
    only(r, "NINE_TILE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.liable, r.deltas) == (N, (0, 0, 128, -128))
    # near miss: the warner wins with a half flush only, so nobody is liable ...
    b = three_bamboo_melds("E E 9s9s").discard(W).draw(N).discard(N, "9s").win(W, "9s", N)
    r = b.replay()
    clean(r)
    assert r.patterns == (("half_flush", 3),)
    assert with_code(r, "NINE_TILE_LIABILITY") == [] and r.liable is None
    assert r.deltas == (-8, -8, 32, -16)
    # ... unless option nine_tile_pays_on_half_flush is on
    r = b.replay({"nine_tile_pays_on_half_flush": True})
    only(r, "NINE_TILE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.liable, r.deltas) == (N, (0, 0, 32, -32))


def test_LAST_FIVE_LIABILITY() -> None:
    b = l1()  # example L1
    r = b.replay()
    only(r, "LAST_FIVE_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.liable, r.deltas) == (N, (8, 0, 0, -8))
    # near miss: the rule is off by default
    r = l1(enabled=False).replay()
    assert with_code(r, "LAST_FIVE_LIABILITY") == [] and r.liable is None


def _dragons_for_E(options: dict[str, object]) -> Hand:
    """E pungs C from S, F from W, and the third dragon P from N (hk-classic §7.5)."""
    b = Hand(options=options).hand(E, "C C F F P P 7m8m 5p5p")
    b.discard(E)
    b.draw(S).discard(S, "C").pung(E, S, "C").discard(E)
    b.draw(S).discard(S).draw(W).discard(W, "F").pung(E, W, "F").discard(E)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "P").pung(E, N, "P")
    return b.discard(E).draw(S).discard(S).draw(W)


def test_pao_third_dragon_option() -> None:
    # off by default: E's self-drawn big three dragons (fan 8, P = 64) is paid by all
    b = _dragons_for_E({}).discard(W).draw(N).discard(N).draw(E, "9m").win(E, "9m")
    r = b.replay()
    clean(r)
    assert with_code(r, "PAO_ASSIGNED") == []
    assert (r.fan, r.raw_fan, r.liable, r.deltas) == (8, 11, None, (384, -128, -128, -128))
    # on: N fed the third dragon pung and pays the whole self-drawn win, 6P
    r = b.replay({"pao_third_dragon": True})
    only(r, "PAO_ASSIGNED", INFO, seat=N, index=17)
    only(r, "PAO_LIABILITY", INFO, seat=N, index=b.i)
    assert (r.liable, r.deltas) == (N, (384, 0, 0, -384))
    # on a discard by W the Pao player N is liable (§6.2) and pays 4P
    b = _dragons_for_E({"pao_third_dragon": True}).discard(W, "9m").win(E, "9m", W)
    r = b.replay()
    assert (r.fan, r.liable, r.deltas) == (8, N, (256, 0, 0, -256))
