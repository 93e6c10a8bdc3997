"""vn-160 §8.2 legality checklist #1-#30 and the §7 violations, as full logs through the replayer.

Written from ``vn-160.md`` alone, independent of the engine's internals. For every code there
is a log that triggers it (``test_<CODE>_triggers``: exact code, class, event index and seat)
and a clean counterpart (``test_<CODE>_clean``): the same situation done legally gives no
finding. §7.2 "mất ù" is checked through its consequence: a later win by the player is a
false win (``WIN_AFTER_MAT_U``), and the player still pays as a loser (F2, F3).

Seats: the dealer is seat 0 (East), so seat k has wind ESWN[k] and seat number k + 1 (§0).
Where the rules do not say which seat a record-level finding names, either ``None`` or the
seat concerned is accepted (``seat=(None, X)``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from logbuilder import (
    AUDIT,
    HARD,
    INFO,
    VIOL,
    Hand,
    bonus_tiles,
    canonical,
    clean,
    full_set,
    serious,
    stopped,
    tiles,
    with_code,
)
from mjaudit.parts.replay.engine.findings import Finding, HandReport
from mjaudit.parts.replay.engine.run import replay_games, replay_hand, supported
from mjaudit.parts.schemas.records import ErrorCode, RecordError

E, S, W, N = 0, 1, 2, 3
RULESET = "vn-160"
_ANY = object()

pytestmark = pytest.mark.skipif(
    not supported(RULESET), reason="the vn-160 engine is not registered in replay/engine/run.py"
)


def vn(**kw: Any) -> Hand:
    return Hand(RULESET, **kw)


def one(
    r: HandReport,
    code: str,
    cls: Any,
    *,
    seat: int | tuple[int | None, ...] | None,
    index: int | tuple[int | None, ...] | None,
    reason: object = _ANY,
) -> Finding:
    """The one finding with ``code``: class, event index and seat exact (``seat`` and
    ``index`` may be tuples of accepted values, where the rules leave it open); the reason
    is checked only when the rules name one."""
    found = with_code(r, code)
    assert len(found) == 1, f"expected one {code}, got {r.findings}"
    f = found[0]
    seats = seat if isinstance(seat, tuple) else (seat,)
    indices = index if isinstance(index, tuple) else (index,)
    assert f.cls == cls, f
    assert f.event_index in indices, f
    assert f.seat in seats, f
    if reason is not _ANY:
        assert f.reason == reason, f
    assert f.message
    return f


def has(r: HandReport, code: str, *, seat: int | None, index: int | None) -> None:
    """``code`` is among the findings at ``index`` for ``seat`` (other codes may be there too)."""
    assert any(f.code == code and f.seat == seat and f.event_index == index for f in r.findings), (
        r.findings
    )


def no(r: HandReport, *codes: str) -> None:
    assert [f for f in r.findings if f.code in codes] == [], r.findings


# --- shared hands ----------------------------------------------------------------------------


def baseline() -> Hand:
    """A legal hand using every kind of action: initial khung and flower declarations, a chow
    from the left, a pung with a khung, a concealed kong, an added kong, replacements and a
    self-drawn win."""
    b = vn(dealer=E)
    b.hand(S, "BT 1m2m 9s9s9s 4m5m6m 2p2p 7s8s")
    b.hand(W, "5p BP")
    b.hand(N, "f3")
    b.flower(S, "BT").replacement(S, "N")  # khung declared at the start (dựng đầu)
    b.flower(N, "f3").replacement(N)
    b.discard(E, "3m").chow(S, E, "3m", "1m2m3m").discard(S, "N")
    b.draw(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E, "5p").pung(W, E, "5p", with_="5p BP").discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    b.draw(S, "9s").concealed_kong(S, "9s").replacement(S).discard(S)
    b.draw(W, "5p").added_kong(W, "5p").replacement(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    # S: [chow 123m] [concealed kong 9s] 456m 78s+6s 22p
    return b.draw(S, "6s").win(S, "6s")


def v1() -> Hand:
    """§11 V1: S wins ù muỗi (0 phán) on W's 9m. W −2, E −1, N −1, S +4."""
    b = vn(dealer=E)
    b.hand(S, "f3 4p5p6p 7s7s7s 3s4s5s 9m 1m2m")
    b.flower(S, "f3").replacement(S, "N")
    b.discard(E, "3m").chow(S, E, "3m", "1m2m3m").discard(S, "N")
    return b.draw(W).discard(W, "9m").win(S, "9m", W)


V1_DELTAS = (-1, 4, -2, -1)


def first_go_round(b: Hand) -> Hand:
    """The dealer's first discard and one plain turn each, up to the dealer's second draw:
    a later win on the dealer's discard is not địa ù."""
    b.discard(E).draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
    return b.draw(E)


def quick_win(dealer: int, hand_no: int, wind: str = "E") -> Hand:
    """next(dealer) wins on the dealer's first discard (địa ù): the deal passes."""
    w = (dealer + 1) % 4
    b = vn(dealer=dealer, hand_no=hand_no, wind=wind)
    b.hand(w, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    return b.discard(dealer, "E").win(w, "E", dealer)


def thien_u(dealer: int = E, hand_no: int = 1, wind: str = "E") -> Hand:
    """§11 V7: the dealer wins with the 14 dealt tiles (thiên ù): the dealer stays."""
    b = vn(dealer=dealer, hand_no=hand_no, wind=wind)
    b.hand(dealer, "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p", exact=True)
    return b.win(dealer, "5p")


def f1_false_win(**kw: Any) -> Hand:
    """§7.1 example (F1): S's incomplete self-drawn "win" (2s3s + 6s is not a set)."""
    b = vn(dealer=E, **kw).hand(S, "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s")
    return b.discard(E).draw(S, "6s").win(S, "6s")


# Exhausting the wall: exact deals of 53 ordinary tiles; every bonus tile is drawn early,
# declared (khung too, on the drawer's own turn) and replaced; then plain turns.
_DEALS = (
    "1m1m1m1m 2m2m2m2m 3m3m3m3m 4m4m",
    "5m5m5m5m 6m6m6m6m 7m7m7m7m 8m",
    "1p1p1p1p 2p2p2p2p 3p3p3p3p 4p",
    "1s1s1s1s 2s2s2s2s 3s3s3s3s 4s",
)
LEFT_AFTER_DEAL = 160 - 53  # no tail is held back by default (§2.2)


def exhaust(
    *,
    reserved: int = 0,
    short: int = 0,
    extra_draw: bool = False,
    last_bonus: bool = False,
    dealer: int = E,
    hand_no: int = 1,
    wind: str = "E",
    options: dict[str, Any] | None = None,
) -> Hand:
    """Play the wall to its end (``reserved`` tail tiles held back); ``short`` plain turns
    fewer; ``extra_draw``: one more draw after the end; ``last_bonus``: the last live tile
    is a flower, declared, with its replacement due and no tile left."""
    opts = dict(options or {})
    if reserved:
        opts["reserved_tail_tiles"] = reserved
    b = vn(dealer=dealer, hand_no=hand_no, wind=wind, options=opts)
    dealt: Counter[str] = Counter()
    for k, text in enumerate(_DEALS):
        seat = (dealer + k) % 4
        b.hand(seat, text, exact=True)
        dealt.update(tiles(text))
    left = full_set(RULESET) - dealt
    bonus = sorted(t for t in left.elements() if t in bonus_tiles(RULESET))
    ordinary = sorted(t for t in left.elements() if t not in bonus_tiles(RULESET))
    assert len(bonus) == 24 and len(bonus) + len(ordinary) == LEFT_AFTER_DEAL
    last = bonus.pop() if last_bonus else None
    b.discard(dealer, "4m")
    seat = dealer
    for t in bonus:
        seat = (seat + 1) % 4
        o = ordinary.pop()
        b.draw(seat, t).flower(seat, t).replacement(seat, o).discard(seat, o)
    for _ in range(LEFT_AFTER_DEAL - reserved - 2 * len(bonus) - short - (last is not None)):
        seat = (seat + 1) % 4
        o = ordinary.pop()
        b.draw(seat, o).discard(seat, o)
    if last is not None:
        seat = (seat + 1) % 4
        b.draw(seat, last).flower(seat, last)
    if extra_draw:
        seat = (seat + 1) % 4
        o = ordinary.pop()
        b.draw(seat, o).discard(seat, o)
    return b


# --- the baseline ----------------------------------------------------------------------------


def test_baseline_is_clean() -> None:
    r = baseline().replay()
    assert serious(r) == [], r.findings
    assert (r.winners, r.self_drawn, r.ended_by) == ((S,), True, "win")
    # BT declared at the start: 2 + 1 = 3 phán (§5.3); a chow was claimed and the wait is
    # 6s/9s, so nothing else. Con 8, Cái 16, self-drawn: each loser pays Cái.
    assert (r.fan, r.deltas) == (3, (-16, 48, -16, -16))


def test_baseline_with_wall_is_clean() -> None:
    rec = baseline().record(wall=True)
    assert len(rec["wall"]) == 160
    r = replay_hand(rec)
    assert serious(r) == [], r.findings
    assert r.winners == (S,)


# --- #1 RECORD_INVALID -----------------------------------------------------------------------


def test_RECORD_INVALID_triggers() -> None:
    r = vn(players=["ann", "ann", "cat", "dan"]).discard(E).abandon().replay()
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_RECORD_INVALID_triggers_unknown_option() -> None:
    r = vn(options={"fan_cap": 9}).discard(E).abandon().replay()
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_RECORD_INVALID_triggers_bad_option_value() -> None:
    r = vn(options={"khung_sets": 4}).discard(E).abandon().replay()
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)
    r = vn(options={"dealer_on_draw": "sometimes"}).discard(E).abandon().replay()
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)
    r = vn(options={"reserved_tail_tiles": 15}).discard(E).abandon().replay()  # 0-14 (§10)
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)
    r = vn(options={"players": 5}).discard(E).abandon().replay()  # only 4 is specified
    one(r, "RECORD_INVALID", HARD, seat=None, index=None)


def test_RECORD_INVALID_clean() -> None:
    opts = {
        "khung_sets": 2,
        "ru_domain": "any_tile",
        "dealer_on_draw": "stay",
        "allow_bonus_discard": True,
        "min_phan": 0,
        "multiple_winners": False,
        "phinh_pair_rule": "no_honour_pair",
        "false_win_effect": "end_hand",
    }
    clean(vn(options=opts).discard(E).abandon().replay())
    clean(vn().discard(E).abandon().replay())


def test_RECORD_INVALID_format_is_refused_at_ingest() -> None:
    # `format` is checked by the log-format layer before any engine runs.
    rec = vn().discard(E).abandon().record()
    rec["format"] = "mjlog/2"
    with pytest.raises(RecordError) as err:
        canonical(rec)
    assert err.value.code is ErrorCode.UNKNOWN_FORMAT


# --- #2 UNKNOWN_TILE -------------------------------------------------------------------------


def test_UNKNOWN_TILE_triggers() -> None:
    # a second-set khung without option khung_sets = 2 is not a code of §1
    b = vn().discard(E).draw(S, "RU2")
    r = b.discard(S).abandon().replay()
    one(r, "UNKNOWN_TILE", HARD, seat=(None, S), index=1)
    stopped(r)


def test_UNKNOWN_TILE_triggers_third_set_with_two_sets() -> None:
    b = vn(options={"khung_sets": 2}).discard(E).draw(S, "BT3")
    r = b.discard(S).abandon().replay()
    one(r, "UNKNOWN_TILE", HARD, seat=(None, S), index=1)


def test_UNKNOWN_TILE_triggers_start_hand() -> None:
    r = vn().hand(W, "BM3").discard(E).abandon().replay()
    one(r, "UNKNOWN_TILE", HARD, seat=(None, W), index=None)


def test_UNKNOWN_TILE_clean() -> None:
    # option khung_sets = 2: RU2 exists (168 tiles); declared on one's own turn and replaced
    b = vn(options={"khung_sets": 2}).discard(E).draw(S, "RU2")
    b.flower(S, "RU2").replacement(S).discard(S)
    clean(b.abandon().replay())


def test_UNKNOWN_TILE_non_codes_are_refused_at_ingest() -> None:
    rec = vn().discard(E).abandon().record()
    rec["events"][0]["tile"] = "X9"
    with pytest.raises(RecordError) as err:
        canonical(rec)
    assert err.value.code is ErrorCode.UNKNOWN_TILE


# --- #3 TILE_OVERCOUNT -----------------------------------------------------------------------


def test_TILE_OVERCOUNT_triggers() -> None:
    r = vn().hand(S, "1m1m1m").hand(W, "1m1m").discard(E).abandon().replay()
    one(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    stopped(r)


def test_TILE_OVERCOUNT_triggers_flower_and_khung() -> None:
    # one copy of each flower (§1.1) and of each khung (§1.2)
    r = vn().hand(S, "k2").hand(W, "k2").discard(E).abandon().replay()
    one(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    r = vn().hand(S, "BT").hand(N, "BT").discard(E).abandon().replay()
    one(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)


def test_TILE_OVERCOUNT_triggers_on_a_draw() -> None:
    b = vn().hand(S, "RD").discard(E).draw(S).discard(S).draw(W, "RD")
    r = b.flower(W, "RD").replacement(W).discard(W).abandon().replay()
    one(r, "TILE_OVERCOUNT", HARD, seat=(None, W), index=3)


def test_TILE_OVERCOUNT_triggers_second_set_khung() -> None:
    b = vn(options={"khung_sets": 2}).hand(S, "BT2").hand(W, "BT2")
    r = b.discard(E).abandon().replay()
    one(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)


def test_TILE_OVERCOUNT_clean() -> None:
    # four copies, and one of every bonus tile in play
    b = vn().hand(S, "1m1m RD k2 q4").hand(W, "1m1m BT g1")
    b.flower(S, "k2").replacement(S).flower(S, "q4").replacement(S)
    b.flower(W, "g1").replacement(W)
    clean(b.discard(E).abandon().replay())


# --- #4 DEALER_ROTATION_MISMATCH -------------------------------------------------------------


def test_DEALER_ROTATION_MISMATCH_triggers() -> None:
    first = quick_win(E, 1).replay()  # S wins: the deal passes to S
    assert first.winners == (S,) and serious(first) == []
    r = quick_win(E, 2).replay(previous=first)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, E), index=None)
    stopped(r)


def test_DEALER_ROTATION_MISMATCH_clean() -> None:
    first = quick_win(E, 1).replay()
    clean(quick_win(S, 2).replay(previous=first))


def test_DEALER_ROTATION_MISMATCH_dealer_win_stays() -> None:
    """§2.1 thượng trương: the dealer wins and deals again."""
    first = thien_u().replay()
    assert first.winners == (E,)
    clean(quick_win(E, 2).replay(previous=first))
    r = quick_win(S, 2).replay(previous=first)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, S), index=None)


def test_DEALER_ROTATION_MISMATCH_draw_passes_the_deal() -> None:
    """§2.1 [D]: an exhaustive draw passes the deal (option dealer_on_draw = stay keeps it)."""
    draw = exhaust().exhaustive_draw().replay()
    assert draw.ended_by == "exhaustive_draw" and serious(draw) == [], draw.findings
    clean(quick_win(S, 2).replay(previous=draw))
    r = quick_win(E, 2).replay(previous=draw)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, E), index=None)
    stay = {"dealer_on_draw": "stay"}
    draw = exhaust(options=stay).exhaustive_draw().replay()
    clean(quick_win(E, 2).replay(stay, previous=draw))
    r = quick_win(S, 2).replay(stay, previous=draw)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, S), index=None)


def test_DEALER_ROTATION_MISMATCH_false_win_counts_as_draw() -> None:
    false_win = f1_false_win().replay()
    assert false_win.ended_by == "false_win"
    clean(quick_win(S, 2).replay(previous=false_win))
    r = quick_win(E, 2).replay(previous=false_win)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, E), index=None)
    # ... so with dealer_on_draw = stay the dealer keeps the deal after a false win
    stay = {"dealer_on_draw": "stay"}
    false_win = f1_false_win(options=stay).replay()
    clean(quick_win(E, 2).replay(stay, previous=false_win))
    r = quick_win(S, 2).replay(stay, previous=false_win)
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, S), index=None)


def test_DEALER_ROTATION_MISMATCH_prevailing_wind() -> None:
    """The round ends when the deal has passed through all four seats (§2.1)."""
    reports = list(replay_games([quick_win(d, d + 1).record() for d in range(4)]))
    for rep in reports:
        assert serious(rep) == [], rep.findings
    clean(quick_win(E, 5, wind="S").replay(previous=reports[-1]))
    r = quick_win(E, 5, wind="E").replay(previous=reports[-1])
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, E), index=None)
    r = quick_win(S, 2, wind="S").replay(previous=reports[0])  # mid-round: still East
    one(r, "DEALER_ROTATION_MISMATCH", HARD, seat=(None, S), index=None)


# --- #5 DEAL_INVALID -------------------------------------------------------------------------


def test_DEAL_INVALID_triggers() -> None:
    b = vn().hand(W, "1m2m3m4m5m6m7m8m9m1p2p3p", exact=True).discard(E).abandon()
    r = b.replay()
    one(r, "DEAL_INVALID", HARD, seat=(None, W), index=None)
    stopped(r)


def test_DEAL_INVALID_triggers_dealer_15() -> None:
    r = vn(dealer_tiles=15).discard(E).abandon().replay()
    one(r, "DEAL_INVALID", HARD, seat=(None, E), index=None)


def test_DEAL_INVALID_triggers_dealer_13_without_first_draw() -> None:
    # the dealer holds 13 and discards: its 14th tile never came (#5)
    r = vn(dealer_tiles=13).discard(E).draw(S).discard(S).abandon().replay()
    one(r, "DEAL_INVALID", HARD, seat=(None, E), index=(None, 0))
    stopped(r)


def test_DEAL_INVALID_triggers_wall_not_the_full_set() -> None:
    rec = baseline().record(wall=True)
    del rec["wall"][100]  # an undrawn tile is missing: 159 tiles
    r = replay_hand(rec)
    one(r, "DEAL_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_DEAL_INVALID_triggers_wall_disagrees_with_the_deal() -> None:
    rec = baseline().record(wall=True)
    wall = rec["wall"]
    j = next(j for j in range(4, 8) if wall[j] != wall[0])  # a tile dealt to S
    wall[0], wall[j] = wall[j], wall[0]
    r = replay_hand(rec)
    one(r, "DEAL_INVALID", HARD, seat=(None, E, S), index=None)
    stopped(r)


def test_DEAL_INVALID_triggers_khung_sets_option() -> None:
    # option khung_sets = 2: the full set has 168 tiles, so a 160-tile wall is not it
    rec = baseline().record(wall=True)
    rec["options"] = {"khung_sets": 2}
    r = replay_hand(rec)
    one(r, "DEAL_INVALID", HARD, seat=None, index=None)


def test_DEAL_INVALID_clean_khung_sets_option() -> None:
    b = baseline()
    b.options["khung_sets"] = 2
    rec = b.record(wall=True)
    assert len(rec["wall"]) == 168 and "BT2" in rec["wall"]
    assert serious(replay_hand(rec)) == []


def test_DEAL_INVALID_clean() -> None:
    clean(vn().discard(E).abandon().replay())
    # 13 + a first draw
    clean(vn().draw(E).discard(E).abandon().replay())
    # §2.2: the dealer's last two tiles are dealt side by side (positions 48, 49)
    rec = baseline().record(wall=True)
    assert rec["wall"][48:50] == rec["start_hands"][E][12:14]
    assert serious(replay_hand(rec)) == []


# --- #6 FLOWER_INVALID -----------------------------------------------------------------------


def test_FLOWER_INVALID_triggers() -> None:
    r = vn().hand(S, "5m").flower(S, "5m").replacement(S).discard(E).abandon().replay()
    one(r, "FLOWER_INVALID", HARD, seat=S, index=0)
    stopped(r)


def test_FLOWER_INVALID_triggers_not_held() -> None:
    b = vn().hand(W, "q2").hand(S, "", add=False).flower(S, "q2")
    r = b.replacement(S).discard(E).abandon().replay()
    one(r, "FLOWER_INVALID", HARD, seat=S, index=0)


def test_FLOWER_INVALID_triggers_declared_twice() -> None:
    b = vn().hand(S, "q2", add=False).flower(S, "q2").replacement(S).flower(S, "q2")
    r = b.replacement(S).discard(E).abandon().replay()
    one(r, "FLOWER_INVALID", HARD, seat=S, index=2)


def test_FLOWER_INVALID_clean() -> None:
    b = vn().hand(S, "q2 RW").flower(S, "q2").replacement(S).flower(S, "RW").replacement(S)
    clean(b.discard(E).abandon().replay())


# --- #7 KHUNG_DECLARED_OFF_TURN --------------------------------------------------------------


def khung_off_turn(off_turn: bool) -> Hand:
    """W declares BT and takes its replacement (9s); later W wins on N's E (u_phinh, BT)."""
    b = vn().hand(W, "BT 2m3m4m 5p6p7p 3s4s5s 7s8s E")
    b.discard(E).draw(S)
    if off_turn:
        b.flower(W, "BT").replacement(W, "9s")  # during S's turn
        b.discard(S).draw(W).discard(W)
    else:
        b.discard(S).draw(W, "1p").flower(W, "BT").replacement(W, "9s").discard(W, "1p")
    return b.draw(N).discard(N, "E").win(W, "E", N)


def test_KHUNG_DECLARED_OFF_TURN_triggers() -> None:
    r = khung_off_turn(True).replay()
    one(r, "KHUNG_DECLARED_OFF_TURN", VIOL, seat=W, index=2)
    assert [f.code for f in serious(r)] == ["KHUNG_DECLARED_OFF_TURN"]
    # a finding only: W keeps the right to win; u_phinh 1 + BT 2 = 3 phán, Con 8, Cái 16
    assert r.winners == (W,) and r.ended_by == "win"
    assert r.deltas == (-8, -8, 32, -16)


def test_KHUNG_DECLARED_OFF_TURN_triggers_after_own_discard() -> None:
    b = vn().hand(S, "RD").discard(E).draw(S).discard(S).flower(S, "RD").replacement(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "KHUNG_DECLARED_OFF_TURN", VIOL, seat=S, index=3)


def test_KHUNG_DECLARED_OFF_TURN_clean() -> None:
    r = khung_off_turn(False).replay()
    clean(r)
    assert r.winners == (W,) and r.deltas == (-8, -8, 32, -16)
    # in the initial phase, by anyone, in turn order
    b = vn().hand(S, "RD").hand(N, "RW").flower(S, "RD").replacement(S)
    clean(b.flower(N, "RW").replacement(N).discard(E).abandon().replay())
    # after a pung, before the discard: the claimer's own turn
    b = vn().hand(W, "5m5m RD").discard(E, "5m").pung(W, E, "5m")
    b.flower(W, "RD").replacement(W).discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


# --- #8 SHORT_HAND: no replacement after a flower or a kong ---------------------------------


def test_SHORT_HAND_triggers_flower_not_replaced() -> None:
    b = vn().discard(E).draw(S, "f1").flower(S, "f1").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "SHORT_HAND", VIOL, seat=S, index=3)
    assert {f.seat for f in serious(r)} == {S}


def test_SHORT_HAND_triggers_kong_not_replaced() -> None:
    b = vn().hand(W, "6p6p6p").discard(E).draw(S).discard(S)
    b.draw(W, "6p").concealed_kong(W, "6p").discard(W)
    bad = b.i
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "SHORT_HAND", VIOL, seat=W, index=bad)
    # an exposed kong needs its replacement too
    b = vn().hand(S, "7m7m7m").discard(E, "7m").kong(S, E, "7m").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "SHORT_HAND", VIOL, seat=S, index=2)


def test_SHORT_HAND_clean_replacements() -> None:
    b = vn().discard(E).draw(S, "f1").flower(S, "f1").replacement(S).discard(S)
    clean(b.draw(W).discard(W).abandon().replay())
    b = vn().hand(S, "7m7m7m").discard(E, "7m").kong(S, E, "7m").replacement(S).discard(S)
    clean(b.draw(W).discard(W).abandon().replay())
    # a kong with a khung (§3.4), replaced
    b = vn().hand(W, "6p6p BP").discard(E).draw(S).discard(S)
    b.draw(W, "6p").concealed_kong(W, "6p", with_="6p6p6p BP").replacement(W).discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


def test_SHORT_HAND_clean_initial_phase_batch() -> None:
    """§2.3: in the initial phase a player "declares every flower in hand ..., drawing one
    replacement per declared tile ..., repeating until no flower is left": declaring both
    flowers and then drawing both replacements completes the phase (reading: #8 is met
    when the replacements owed are all drawn before the player's next other action)."""
    b = vn().hand(S, "f1 f2").flower(S, "f1").flower(S, "f2").replacement(S).replacement(S)
    clean(b.discard(E).draw(S).discard(S).abandon().replay())


# --- #9 DRAW_FROM_EMPTY_WALL -----------------------------------------------------------------


def test_DRAW_FROM_EMPTY_WALL_triggers() -> None:
    # option reserved_tail_tiles = 14: the tail exists but may not be drawn
    b = exhaust(reserved=14, extra_draw=True)
    bad = b.i - 1  # the extra draw
    r = b.exhaustive_draw().replay()
    one(r, "DRAW_FROM_EMPTY_WALL", HARD, seat=b.events[bad]["seat"], index=bad)
    stopped(r)


def test_DRAW_FROM_EMPTY_WALL_triggers_replacement() -> None:
    # the last live tile is a flower: its replacement cannot be drawn (§3.5)
    b = exhaust(reserved=14, last_bonus=True)
    seat = b.events[-1]["seat"]
    b.replacement(seat)
    bad = b.i
    r = b.discard(seat).exhaustive_draw().replay()
    one(r, "DRAW_FROM_EMPTY_WALL", HARD, seat=seat, index=bad)
    stopped(r)


def test_DRAW_FROM_EMPTY_WALL_clean_replacement_due() -> None:
    """§3.5: a replacement is due and the wall is empty: an exhaustive draw."""
    r = exhaust(reserved=14, last_bonus=True).exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"
    r = exhaust(last_bonus=True).exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"


def test_DRAW_FROM_EMPTY_WALL_clean() -> None:
    r = exhaust(reserved=14).exhaustive_draw().replay()
    clean(r)
    assert (r.ended_by, r.winners) == ("exhaustive_draw", ())
    assert r.deltas == (0, 0, 0, 0)


def test_DRAW_FROM_EMPTY_WALL_default_plays_the_last_tile() -> None:
    """§2.2 [D]: no tail is held back: all 107 tiles after the deal are drawn."""
    b = exhaust()
    assert sum(e["type"] in ("draw", "replacement") for e in b.events) == LEFT_AFTER_DEAL
    r = b.exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (0, 0, 0, 0)  # nobody pays on an exhaustive draw


# --- #10 WALL_MISMATCH -----------------------------------------------------------------------


def test_WALL_MISMATCH_triggers() -> None:
    rec = baseline().record(wall=True)
    first_draw = next(i for i, e in enumerate(rec["events"]) if e["type"] == "draw")
    assert rec["wall"][53] == rec["events"][first_draw]["tile"]
    j = next(j for j in range(80, 110) if rec["wall"][j] != rec["wall"][53])
    rec["wall"][53], rec["wall"][j] = rec["wall"][j], rec["wall"][53]
    r = replay_hand(rec)
    one(r, "WALL_MISMATCH", HARD, seat=rec["events"][first_draw]["seat"], index=first_draw)
    stopped(r)


def test_WALL_MISMATCH_triggers_replacement_end() -> None:
    rec = baseline().record(wall=True)
    assert rec["events"][1] == {"type": "replacement", "seat": S, "tile": rec["wall"][-1]}
    j = next(j for j in range(80, 110) if rec["wall"][j] != rec["wall"][-1])
    rec["wall"][-1], rec["wall"][j] = rec["wall"][j], rec["wall"][-1]
    r = replay_hand(rec)
    one(r, "WALL_MISMATCH", HARD, seat=S, index=1)


def test_WALL_MISMATCH_clean() -> None:
    rec = baseline().record(wall=True)
    assert serious(replay_hand(rec)) == []
    # a dead_wall equal to the back of the wall read backwards (§2.2)
    reps = [e["tile"] for e in rec["events"] if e["type"] == "replacement"]
    rec["dead_wall"] = list(reversed(rec["wall"]))[: len(reps)]
    assert rec["dead_wall"] == reps
    assert serious(replay_hand(canonical(rec))) == []


# --- #11 DRAW_WRONG_PLACE (mất ù) ------------------------------------------------------------


def f2(wrong: bool) -> Hand:
    """F2: N takes a replacement on a normal turn; later N wins self-drawn (complete hand)."""
    b = vn().hand(N, "1m2m3m 4p5p6p 7s8s9s 2s3s4s 5s")
    b.discard(E).draw(S).discard(S).draw(W).discard(W)
    if wrong:
        b.replacement(N)  # §7.2 example "#30 replacement N" on a normal turn
    else:
        b.draw(N)
    b.discard(N)
    b.draw(E).discard(E).draw(S).discard(S).draw(W).discard(W)
    return b.draw(N, "5s").win(N, "5s")


def test_DRAW_WRONG_PLACE_triggers() -> None:
    b = f2(True)
    r = b.replay()
    one(r, "DRAW_WRONG_PLACE", VIOL, seat=N, index=5)
    one(r, "FALSE_WIN", VIOL, seat=N, index=b.i, reason="WIN_AFTER_MAT_U")
    assert r.ended_by == "false_win" and r.winners == ()
    assert r.deltas == (64, 64, 64, -192)


def test_DRAW_WRONG_PLACE_triggers_draw_when_replacement_owed() -> None:
    b = vn().discard(E).draw(S, "f1").flower(S, "f1").draw(S).discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "DRAW_WRONG_PLACE", VIOL, seat=S, index=3)


def test_DRAW_WRONG_PLACE_triggers_draw_after_kong() -> None:
    b = vn().hand(S, "7m7m7m").discard(E, "7m").kong(S, E, "7m").draw(S).discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "DRAW_WRONG_PLACE", VIOL, seat=S, index=2)


def test_DRAW_WRONG_PLACE_clean() -> None:
    r = f2(False).replay()
    clean(r)
    assert r.winners == (N,) and r.self_drawn


# --- #12, #14 OUT_OF_TURN (mất ù) ------------------------------------------------------------


def test_OUT_OF_TURN_triggers() -> None:
    r = vn().discard(E).draw(W).draw(S).discard(S).abandon().replay()  # S holds the turn
    one(r, "OUT_OF_TURN", VIOL, seat=W, index=1)
    assert {f.seat for f in serious(r)} == {W}


def test_OUT_OF_TURN_triggers_draw_after_a_claim() -> None:
    # W's pung took the turn: S, next(E), may no longer draw
    b = vn().discard(E, "5m").pung(W, E, "5m").draw(S).discard(W)
    r = b.abandon().replay()
    one(r, "OUT_OF_TURN", VIOL, seat=S, index=2)


def test_OUT_OF_TURN_triggers_second_draw() -> None:
    r = vn().discard(E).draw(S).draw(S).discard(S).abandon().replay()
    one(r, "OUT_OF_TURN", VIOL, seat=S, index=2)
    one(r, "LONG_HAND", VIOL, seat=S, index=3)


def test_OUT_OF_TURN_triggers_discard() -> None:
    r = vn().discard(E).discard(W).draw(S).discard(S).abandon().replay()
    one(r, "OUT_OF_TURN", VIOL, seat=W, index=1)
    one(r, "SHORT_HAND", VIOL, seat=W, index=1)
    assert {f.seat for f in serious(r)} == {W}


def test_OUT_OF_TURN_triggers_mat_u() -> None:
    # W draws and discards while S holds the turn; W's later win on a discard is false
    b = vn().hand(W, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    b.discard(E).draw(W).discard(W)  # 14 - 1 = 13 again, but W has mất ù
    b.draw(S).discard(S, "E").win(W, "E", S)
    r = b.replay()
    has(r, "OUT_OF_TURN", seat=W, index=1)
    assert {f.seat for f in with_code(r, "OUT_OF_TURN")} == {W}
    one(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_AFTER_MAT_U")
    assert r.deltas == (64, 64, -192, 64)


def test_OUT_OF_TURN_clean() -> None:
    clean(vn().discard(E).draw(S).discard(S).draw(W).discard(W).abandon().replay())
    # a claim moves the turn: N may chow W's discard across the dealer, then E draws
    b = vn().discard(E).draw(S).discard(S).draw(W).discard(W, "4m")
    clean(b.chow(N, W, "4m", "4m5m6m").discard(N).draw(E).discard(E).abandon().replay())


# --- #13 TILE_NOT_IN_HAND --------------------------------------------------------------------


def test_TILE_NOT_IN_HAND_triggers() -> None:
    b = vn().hand(E, "1m2m3m4m5m6m7m8m 1s2s3s4s5s6s", exact=True).discard(E, "9p")
    r = b.abandon().replay()
    one(r, "TILE_NOT_IN_HAND", HARD, seat=E, index=0)
    stopped(r)


def test_TILE_NOT_IN_HAND_triggers_declared_khung() -> None:
    # a declared khung is out of the hand: it cannot be discarded
    b = vn(options={"allow_bonus_discard": True}).hand(S, "BS", add=False)
    b.flower(S, "BS").replacement(S)
    b.discard(E).draw(S).discard(S, "BS")
    r = b.abandon().replay()
    one(r, "TILE_NOT_IN_HAND", HARD, seat=S, index=4)


def test_TILE_NOT_IN_HAND_clean() -> None:
    b = vn().hand(E, "1m2m3m4m5m6m7m8m 1s2s3s4s5s6s", exact=True).discard(E, "8m")
    clean(b.abandon().replay())


# --- #15 BONUS_DISCARDED (mất ù) -------------------------------------------------------------


def test_BONUS_DISCARDED_triggers() -> None:
    b = vn().hand(E, "BM 2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    b.discard(E, "BM")  # §7.2 example "#20 discard E BM"
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "E").win(E, "E", N)
    r = b.replay()
    one(r, "BONUS_DISCARDED", VIOL, seat=E, index=0)
    one(r, "FALSE_WIN", VIOL, seat=E, index=b.i, reason="WIN_AFTER_MAT_U")  # mất ù
    assert r.deltas == (-192, 64, 64, 64)


def test_BONUS_DISCARDED_triggers_flower() -> None:
    b = vn().discard(E).draw(S, "g2").discard(S, "g2")
    r = b.draw(W).discard(W).abandon().replay()
    has(r, "BONUS_DISCARDED", seat=S, index=2)


def test_BONUS_DISCARDED_clean() -> None:
    b = vn(options={"allow_bonus_discard": True}).hand(E, "BM").discard(E, "BM")
    clean(b.draw(S).discard(S).abandon().replay())
    # the default: the khung is kept (or declared) and an ordinary tile discarded
    clean(vn().hand(E, "BM").discard(E, "5p").draw(S).discard(S).abandon().replay())


# --- #16 FLOWER_NOT_DECLARED (mất ù) ---------------------------------------------------------


def test_FLOWER_NOT_DECLARED_triggers() -> None:
    # the initial phase ends (the dealer's first discard) with W holding q3
    r = vn().hand(W, "q3").discard(E).draw(S).discard(S).abandon().replay()
    one(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=0)


def test_FLOWER_NOT_DECLARED_triggers_discard_while_holding() -> None:
    # §7.2 example: "#12 discard S 7p while S holds g3"
    b = vn().hand(S, "7p").discard(E).draw(S, "g3").discard(S, "7p")
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "FLOWER_NOT_DECLARED", VIOL, seat=S, index=2)


def test_FLOWER_NOT_DECLARED_triggers_mat_u() -> None:
    # W keeps k1 through the initial phase, declares it later; its win is a false win
    b = vn().hand(W, "k1 2m3m4m 5p6p7p 3s4s5s 7s8s9s")
    b.discard(E).draw(S).discard(S)
    b.draw(W, "1p").flower(W, "k1").replacement(W, "E").discard(W, "1p")
    b.draw(N).discard(N, "E").win(W, "E", N)
    r = b.replay()
    one(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=0)
    one(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_AFTER_MAT_U")


def initial_phase_unfinished() -> HandReport:
    """W declares f2 but takes its replacement only after the dealer's first discard."""
    b = vn().hand(W, "f2").flower(W, "f2").discard(E).replacement(W)
    return b.draw(S).discard(S).abandon().replay()


def test_FLOWER_NOT_DECLARED_triggers_initial_phase_unfinished() -> None:
    """#16: at the dealer's first discard the initial phase must be complete (§2.3: one
    replacement per declared tile, until no flower is left)."""
    one(initial_phase_unfinished(), "FLOWER_NOT_DECLARED", VIOL, seat=W, index=1)


def test_OUT_OF_TURN_clean_late_owed_replacement() -> None:
    """The late replacement is still owed (§3.3): a ``replacement`` that is owed is neither
    a wrong-end draw (#11) nor an out-of-turn ``draw`` (#12 is about ``draw`` only)."""
    no(initial_phase_unfinished(), "OUT_OF_TURN", "DRAW_WRONG_PLACE")


def test_FLOWER_NOT_DECLARED_rh_is_a_khung() -> None:
    """§1.2: a held RH is a joker, not a flower, unless rh_must_be_declared."""
    clean(vn().hand(W, "RH").discard(E).draw(S).discard(S).abandon().replay())
    b = vn(options={"rh_must_be_declared": True}).hand(W, "RH")
    r = b.discard(E).draw(S).discard(S).abandon().replay()
    one(r, "FLOWER_NOT_DECLARED", VIOL, seat=W, index=0)


def test_FLOWER_NOT_DECLARED_clean() -> None:
    b = vn().hand(W, "q3").flower(W, "q3").replacement(W)
    clean(b.discard(E).draw(S).discard(S).abandon().replay())
    b = vn().hand(S, "7p").discard(E).draw(S, "g3").flower(S, "g3").replacement(S)
    clean(b.discard(S, "7p").draw(W).discard(W).abandon().replay())
    # a replacement that is itself a flower is declared and replaced again (§2.3)
    b = vn().hand(W, "q3").flower(W, "q3").replacement(W, "f4").flower(W, "f4").replacement(W)
    clean(b.discard(E).draw(S).discard(S).abandon().replay())


# --- #17 SHORT_HAND / LONG_HAND after a discard (mất ù) --------------------------------------


def test_SHORT_HAND_triggers() -> None:
    # S discards without drawing: 12 tiles
    r = vn().discard(E).discard(S).draw(W).discard(W).abandon().replay()
    one(r, "SHORT_HAND", VIOL, seat=S, index=1)
    assert {f.seat for f in serious(r)} == {S}


def test_LONG_HAND_triggers() -> None:
    # S draws twice (OUT_OF_TURN, #12) and discards once: 14 tiles
    r = vn().discard(E).draw(S).draw(S).discard(S).draw(W).discard(W).abandon().replay()
    one(r, "LONG_HAND", VIOL, seat=S, index=3)


def test_LONG_HAND_triggers_at_a_self_drawn_win() -> None:
    # §7.2: size must be 14 at a self-drawn win; S drew twice (OUT_OF_TURN) and holds 15
    b = vn().hand(S, "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s").discard(E).draw(S, "N").draw(S, "4s")
    r = b.win(S, "4s").replay()
    one(r, "LONG_HAND", VIOL, seat=S, index=3)
    one(r, "FALSE_WIN", VIOL, seat=S, index=3)  # mất ù and 15 tiles: either reason
    assert r.deltas == (64, -192, 64, 64)


def test_LONG_HAND_triggers_pung_without_discard() -> None:
    # W pungs and draws instead of discarding: 15 - 1 = 14 after its discard
    b = vn().discard(E, "5m").pung(W, E, "5m").draw(W).discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "LONG_HAND", VIOL, seat=W, index=3)


def test_SHORT_HAND_clean() -> None:
    clean(vn().discard(E).draw(S).discard(S).draw(W).discard(W).abandon().replay())


def test_LONG_HAND_clean() -> None:
    b = vn().discard(E, "5m").pung(W, E, "5m").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


# --- #18 CLAIM_TILES_NOT_IN_HAND -------------------------------------------------------------


def test_CLAIM_TILES_NOT_IN_HAND_triggers() -> None:
    b = vn().hand(W, "5m 1p2p3p4p5p6p7p8p9p 1s2s3s", exact=True)
    r = b.discard(E, "5m").pung(W, E, "5m").discard(W, "1p").abandon().replay()
    one(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=W, index=1)
    stopped(r)


def test_CLAIM_TILES_NOT_IN_HAND_triggers_khung_not_held() -> None:
    b = vn().hand(W, "4p 1m2m3m4m5m6m7m8m9m 1s2s3s", exact=True)
    r = b.discard(E, "4p").pung(W, E, "4p", with_="4p BP").discard(W, "1m").abandon().replay()
    one(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=W, index=1)
    b = vn().hand(S, "4m 1p2p3p4p5p6p7p8p9p 1s2s3s", exact=True)
    r = b.discard(E, "5m").chow(S, E, "5m", "4m5m BM").discard(S, "1p").abandon().replay()
    one(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=S, index=1)


def test_CLAIM_TILES_NOT_IN_HAND_triggers_own_discard() -> None:
    r = vn().hand(E, "5m5m5m").discard(E, "5m").pung(E, E, "5m").abandon().replay()
    one(r, "CLAIM_TILES_NOT_IN_HAND", HARD, seat=E, index=1)


def test_CLAIM_TILES_NOT_IN_HAND_clean() -> None:
    b = vn().hand(W, "4p BP").discard(E, "4p").pung(W, E, "4p", with_="4p BP").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())
    b = vn().hand(S, "4m BM").discard(E, "5m").chow(S, E, "5m", "4m5m BM").discard(S)
    clean(b.draw(W).discard(W).abandon().replay())


# --- #19 LATE_CLAIM (mất ù) ------------------------------------------------------------------


def test_LATE_CLAIM_triggers() -> None:
    # the window closed when S (next(E)) drew
    r = vn().discard(E, "5m").draw(S).pung(W, E, "5m").abandon().replay()
    one(r, "LATE_CLAIM", VIOL, seat=W, index=2)


def test_LATE_CLAIM_triggers_not_the_latest_discard() -> None:
    # §7.2 example: "#70 draw S; #71 pung N 9s on E's earlier discard"
    b = vn().discard(E, "9s").draw(S).discard(S, "6m").pung(N, E, "9s")
    r = b.abandon().replay()
    one(r, "LATE_CLAIM", VIOL, seat=N, index=3)


def test_LATE_CLAIM_triggers_mat_u() -> None:
    # N pungs E's earlier 9s, discards, and later "wins" on E's E: a false win
    b = vn().hand(N, "9s9s 2m3m4m 5p6p7p 1s2s3s E 1p")
    b.discard(E, "9s").draw(S).discard(S, "6m").pung(N, E, "9s").discard(N, "1p")
    b.draw(E).discard(E, "E").win(N, "E", E)
    r = b.replay()
    one(r, "LATE_CLAIM", VIOL, seat=N, index=3)
    one(r, "FALSE_WIN", VIOL, seat=N, index=b.i, reason="WIN_AFTER_MAT_U")
    assert r.deltas == (64, 64, 64, -192)


def test_LATE_CLAIM_clean() -> None:
    b = vn().discard(E, "5m").pung(W, E, "5m").discard(W).draw(N).discard(N)
    clean(b.abandon().replay())


# --- #20 INVALID_MELD (mất ù) ----------------------------------------------------------------


def test_INVALID_MELD_triggers() -> None:
    # §7.2 example: pung 4p with [4p, BS]: BS (bamboo) cannot stand for 4p
    b = vn().hand(W, "4p BS").discard(E, "4p").pung(W, E, "4p", with_="4p BS").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=W, index=1)


def test_INVALID_MELD_triggers_chow() -> None:
    b = vn().hand(S, "3m6m").discard(E, "4m").chow(S, E, "4m", "3m4m6m").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=S, index=1)
    # honours never form a chow, not even with a wind khung
    b = vn().hand(S, "S RW").discard(E, "E").chow(S, E, "E", "E S RW").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=S, index=1)
    # BP (dots) cannot complete a chow of characters
    b = vn().hand(S, "3m BP").discard(E, "4m").chow(S, E, "4m", "3m4m BP").discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=S, index=1)


def test_INVALID_MELD_triggers_kong() -> None:
    # RW (winds) cannot stand for 7m in a concealed kong
    b = vn().hand(S, "7m7m7m RW").discard(E).draw(S)
    b.concealed_kong(S, "7m", with_="7m7m7m RW").replacement(S).discard(S)
    r = b.draw(W).discard(W).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=S, index=2)


def test_INVALID_MELD_triggers_added_kong() -> None:
    # W adds BP (dots) to its pung of 5m
    b = vn().hand(W, "5m5m BP").discard(E, "5m").pung(W, E, "5m").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    b.draw(W).added_kong(W, "5m", with_="BP").replacement(W).discard(W)
    r = b.abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=W, index=10)


def test_INVALID_MELD_triggers_mat_u() -> None:
    # W's later win uses the invalid pung: a false win (mất ù, and the pung is no set)
    b = vn().hand(W, "4p BS 2m3m4m 5p6p7p 7s8s9s E 9p")
    b.discard(E, "4p").pung(W, E, "4p", with_="4p BS").discard(W, "9p")
    b.draw(N).discard(N).draw(E).discard(E, "E").win(W, "E", E)
    r = b.replay()
    one(r, "INVALID_MELD", VIOL, seat=W, index=1)
    one(r, "FALSE_WIN", VIOL, seat=W, index=b.i)
    assert r.deltas == (64, 64, -192, 64)


def test_INVALID_MELD_ru_domain_option() -> None:
    """§1.2 [D]: RU (Hợp) is any suit tile; option ru_domain = any_tile adds the honours."""
    b = vn().hand(W, "N RU").discard(E, "N").pung(W, E, "N", with_="N RU").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "INVALID_MELD", VIOL, seat=W, index=1)
    clean(b.replay({"ru_domain": "any_tile"}))


def test_INVALID_MELD_clean() -> None:
    b = vn().hand(W, "4p BP").discard(E, "4p").pung(W, E, "4p", with_="4p BP").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())
    for run, held in (("3m4m BM", "3m BM"), ("3m4m RU", "3m RU"), ("3m4m BT", "3m BT")):
        b = vn().hand(S, held).discard(E, "4m").chow(S, E, "4m", run).discard(S)
        clean(b.draw(W).discard(W).abandon().replay())
    b = vn().hand(W, "C RD").discard(E, "C").pung(W, E, "C", with_="C RD").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


# --- #21 CHOW_NOT_FROM_LEFT (mất ù) ----------------------------------------------------------


def f3(chower: int) -> Hand:
    """F3: ``chower`` chows E's 4m; S then wins V1-style (0 phán) on W's 9m."""
    b = vn().hand(S, "f3 4p5p6p 7s7s7s 3s4s5s 1m2m3m")
    b.flower(S, "f3").replacement(S, "9m")
    if chower == S:  # S chows with its own 2m3m
        return b.discard(E, "4m").chow(S, E, "4m", "2m3m4m").discard(S, "9m").abandon()
    b.discard(E, "4m").chow(chower, E, "4m", "3m4m5m").discard(chower)
    return b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S).draw(W).discard(W, "9m")


def test_CHOW_NOT_FROM_LEFT_triggers() -> None:
    # §7.2 example: "#62 chow W 3m on E's discard"; F3: W still pays as a loser
    b = f3(W).win(S, "9m", W)
    r = b.replay()
    one(r, "CHOW_NOT_FROM_LEFT", VIOL, seat=W, index=3)
    assert r.winners == (S,)
    assert r.deltas == (-1, 4, -2, -1)


def test_CHOW_NOT_FROM_LEFT_triggers_mat_u() -> None:
    # W's chow is well formed, but W has mất ù: its later win on E's E is a false win
    b = vn().hand(W, "3m5m 1p2p3p 4s5s6s 7s8s9s E 9p")
    b.discard(E, "4m").chow(W, E, "4m", "3m4m5m").discard(W, "9p")
    b.draw(N).discard(N).draw(E).discard(E, "E").win(W, "E", E)
    r = b.replay()
    one(r, "CHOW_NOT_FROM_LEFT", VIOL, seat=W, index=1)
    one(r, "FALSE_WIN", VIOL, seat=W, index=b.i, reason="WIN_AFTER_MAT_U")
    assert r.deltas == (64, 64, -192, 64)


def test_CHOW_NOT_FROM_LEFT_clean() -> None:
    clean(f3(S).replay())
    # N is next(W): N may chow W's discard
    b = vn().discard(E).draw(S).discard(S).draw(W).discard(W, "4m")
    clean(b.chow(N, W, "4m", "4m5m6m").discard(N).draw(E).discard(E).abandon().replay())


# --- #22 CLAIM_PRIORITY_VIOLATION ------------------------------------------------------------


def test_CLAIM_PRIORITY_VIOLATION_triggers() -> None:
    # N announces a win on E's 5m (N is ready on it) but W's pung is executed
    b = vn().hand(N, "1m2m3m 4p5p6p 7s8s9s 2s3s4s 5m").hand(W, "5m5m 2m3m4m 5p6p7p 7s8s9s E 9p")
    b.discard(E, "5m").announce(N, "claim", claim="win").pung(W, E, "5m").discard(W, "9p")
    b.draw(N).discard(N).draw(E).discard(E, "E").win(W, "E", E)
    r = b.replay()
    one(r, "CLAIM_PRIORITY_VIOLATION", VIOL, seat=W, index=2)
    # §7.3: no settlement effect; W keeps the right to win. W: pung, no flower or khung:
    # không hoa không lá 1 mủn = 6 phán, Con 64, Cái 128
    assert [f.code for f in serious(r)] == ["CLAIM_PRIORITY_VIOLATION"]
    assert r.winners == (W,) and r.deltas == (-128, -64, 256, -64)


def test_CLAIM_PRIORITY_VIOLATION_triggers_chow_over_pung() -> None:
    b = vn().hand(W, "5m5m").hand(S, "4m6m")
    b.discard(E, "5m").announce(W, "claim", claim="pung").chow(S, E, "5m", "4m5m6m")
    r = b.discard(S).draw(W).discard(W).abandon().replay()
    one(r, "CLAIM_PRIORITY_VIOLATION", VIOL, seat=S, index=2)


def test_CLAIM_PRIORITY_VIOLATION_triggers_natural_pair_beats_khung() -> None:
    """§3.2, item 9: "đôi thật được ưu tiên với đôi phải dùng khung". S announces a pung
    with its natural pair; W's pung with a khung is executed instead."""
    b = vn().hand(S, "5m5m").hand(W, "5m BM").discard(E, "5m")
    b.announce(S, "claim", claim="pung").pung(W, E, "5m", with_="5m BM").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "CLAIM_PRIORITY_VIOLATION", VIOL, seat=W, index=2)


def test_CLAIM_PRIORITY_VIOLATION_triggers_nearest_pung() -> None:
    """§3.2: two pung claims both using khung: the nearest after the discarder (S) wins."""
    b = vn().hand(S, "5m BT").hand(W, "5m BM").discard(E, "5m")
    b.announce(S, "claim", claim="pung").pung(W, E, "5m", with_="5m BM").discard(W)
    r = b.draw(N).discard(N).abandon().replay()
    one(r, "CLAIM_PRIORITY_VIOLATION", VIOL, seat=W, index=2)


def test_CLAIM_PRIORITY_VIOLATION_clean_natural_pair() -> None:
    # W's natural pair beats S's khung pair although S is nearer
    b = vn().hand(S, "5m BT").hand(W, "5m5m").discard(E, "5m")
    b.announce(S, "claim", claim="pung").pung(W, E, "5m").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


def test_CLAIM_PRIORITY_VIOLATION_clean() -> None:
    b = vn().hand(W, "5m5m").hand(S, "4m6m")
    b.discard(E, "5m").announce(S, "claim", claim="chow").pung(W, E, "5m").discard(W)
    clean(b.draw(N).discard(N).abandon().replay())


# --- #23 KONG_INVALID ------------------------------------------------------------------------


def test_KONG_INVALID_triggers() -> None:
    # three 6p only
    b = vn().hand(S, "6p6p6p 1m2m3m4m5m6m7m8m9m 1s", exact=True).discard(E).draw(S, "2s")
    r = b.concealed_kong(S, "6p").replacement(S).discard(S).abandon().replay()
    one(r, "KONG_INVALID", HARD, seat=S, index=2)
    stopped(r)


def test_KONG_INVALID_triggers_added_without_pung() -> None:
    b = vn().discard(E).draw(S, "6p").added_kong(S, "6p").replacement(S).discard(S)
    r = b.abandon().replay()
    one(r, "KONG_INVALID", HARD, seat=S, index=2)


def test_KONG_INVALID_triggers_off_turn() -> None:
    b = vn().hand(W, "6p6p6p6p").discard(E).draw(S).concealed_kong(W, "6p")
    r = b.replacement(W).discard(S).abandon().replay()
    one(r, "KONG_INVALID", HARD, seat=W, index=2)


def test_KONG_INVALID_triggers_khung_not_held() -> None:
    b = vn().hand(S, "6p6p6p 1m2m3m4m5m6m7m8m9m 1s", exact=True).discard(E).draw(S, "2s")
    r = b.concealed_kong(S, "6p", with_="6p6p6p BP").replacement(S).discard(S).abandon()
    one(r.replay(), "KONG_INVALID", HARD, seat=S, index=2)


def test_KONG_INVALID_clean() -> None:
    # the dealer's first turn starts at step 2 (§3.1): a concealed kong before any draw
    b = vn().hand(E, "6p6p6p6p").concealed_kong(E, "6p").replacement(E).discard(E)
    clean(b.draw(S).discard(S).abandon().replay())
    b = vn().hand(W, "5m5m").discard(E, "5m").pung(W, E, "5m").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    b.draw(W, "5m").added_kong(W, "5m").replacement(W).discard(W)
    clean(b.abandon().replay())


# --- #24 WIN_TILE_NOT_AVAILABLE --------------------------------------------------------------


def test_WIN_TILE_NOT_AVAILABLE_triggers() -> None:
    b = vn().hand(S, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    r = b.discard(E, "W").win(S, "E", E).replay()
    one(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=1)
    stopped(r)


def test_WIN_TILE_NOT_AVAILABLE_triggers_self_drawn() -> None:
    # the tile is not S's latest draw
    b = vn().hand(S, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    r = b.discard(E).draw(S, "N").win(S, "E").replay()
    one(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=2)


def test_WIN_TILE_NOT_AVAILABLE_triggers_thien_u() -> None:
    # thiên ù on a tile the dealer does not hold
    b = vn().hand(E, "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p", exact=True)
    r = b.win(E, "6p").replay()
    one(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=E, index=0)


def test_WIN_TILE_NOT_AVAILABLE_triggers_window_closed() -> None:
    # S drew: E's discard is no longer live for N
    b = vn().hand(N, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    r = b.discard(E, "E").draw(S).win(N, "E", E).replay()
    one(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=N, index=2)


def test_WIN_TILE_NOT_AVAILABLE_triggers_wrong_discarder() -> None:
    b = vn().hand(N, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    r = b.discard(E, "E").win(N, "E", W).replay()
    one(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=N, index=1)


def test_WIN_TILE_NOT_AVAILABLE_clean() -> None:
    # V7 thiên ù: the tile is the last of the dealer's 14
    r = thien_u().replay()
    clean(r)
    assert r.winners == (E,) and r.deltas == (768, -256, -256, -256)
    # the latest replacement (after declaring RH) is available for a self-drawn win
    b = vn().hand(S, "RH 1m2m3m 4p5p6p 7s8s9s 5s E E").discard(E).draw(S, "E")
    b.flower(S, "RH").replacement(S, "5s").win(S, "5s")
    r = b.replay()
    clean(r)
    assert r.winners == (S,) and r.self_drawn


# --- #25 FALSE_WIN (§7.1 (a)-(d)) ------------------------------------------------------------


def test_FALSE_WIN_triggers() -> None:
    """§7.1 (a) WIN_HAND_INCOMPLETE, the §7.1 example and F1: the declarer pays 64 to each
    other player; the hand ends with no winner."""
    b = f1_false_win()
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_HAND_INCOMPLETE")
    assert (r.ended_by, r.winners) == ("false_win", ())
    assert r.deltas == (64, -192, 64, 64)


def test_FALSE_WIN_clean() -> None:
    b = vn().hand(S, "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s").discard(E).draw(S, "4s")
    r = b.win(S, "4s").replay()
    clean(r)
    assert r.winners == (S,) and r.ended_by == "win"


def test_FALSE_WIN_WIN_WITH_FLOWER_triggers() -> None:
    # (b): RH is never part of the 14 tiles; it must be declared first
    b = vn().hand(S, "RH 1m2m3m 4p5p6p 7s8s9s 5s E E").discard(E).draw(S, "5s")
    r = b.win(S, "5s").replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_WITH_FLOWER")
    assert r.deltas == (64, -192, 64, 64)


def test_FALSE_WIN_WIN_WITH_FLOWER_triggers_drawn_flower() -> None:
    # S "wins" on the flower it just drew instead of declaring it
    b = vn().hand(S, "1m2m3m 4p5p6p 7s8s9s 2s3s4s 5s").discard(E).draw(S, "k3")
    r = b.win(S, "k3").replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_WITH_FLOWER")


def test_FALSE_WIN_WIN_WITH_FLOWER_clean() -> None:
    b = vn().hand(S, "RH 1m2m3m 4p5p6p 7s8s9s 5s E E").discard(E).draw(S, "E")
    r = b.flower(S, "RH").replacement(S, "5s").win(S, "5s").replay()
    clean(r)


def test_FALSE_WIN_WIN_AFTER_MAT_U_triggers() -> None:
    r = f2(True).replay()
    one(r, "FALSE_WIN", VIOL, seat=N, index=f2(True).i, reason="WIN_AFTER_MAT_U")


def test_FALSE_WIN_WIN_AFTER_MAT_U_clean() -> None:
    clean(f2(False).replay())


def test_FALSE_WIN_WIN_BELOW_MIN_triggers() -> None:
    # V1 is worth 0 phán; option min_phan = 1
    b = v1()
    b.options["min_phan"] = 1
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=b.i, reason="WIN_BELOW_MIN")
    assert r.deltas == (64, -192, 64, 64)


def test_FALSE_WIN_WIN_BELOW_MIN_clean() -> None:
    # §4: no minimum by default: ù muỗi is a valid win
    r = v1().replay()
    clean(r)
    assert (r.winners, r.fan, r.deltas) == ((S,), 0, V1_DELTAS)


def test_FALSE_WIN_penalty_option() -> None:
    r = f1_false_win(options={"false_win_penalty": 10}).replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=2, reason="WIN_HAND_INCOMPLETE")
    assert r.deltas == (10, -30, 10, 10)


def test_FALSE_WIN_continue_mat_u_option() -> None:
    """false_win_effect = continue_mat_u: S pays, keeps playing; W later wins on S's 6s."""
    b = vn(options={"false_win_effect": "continue_mat_u"})
    b.hand(S, "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s")
    b.hand(W, "f1 1p2p3p 4s5s 7m8m9m 2m3m4m E").flower(W, "f1").replacement(W, "E")
    b.discard(E).draw(S, "6s").win(S, "6s")
    b.discard(S, "6s").win(W, "6s", S)
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=4, reason="WIN_HAND_INCOMPLETE")
    no(r, "EVENT_AFTER_END")
    assert r.winners == (W,)
    # W: u_phinh 1 phán (Con 2, Cái 4) on S's discard, plus S's 64 to each
    assert r.deltas == (62, -196, 72, 62)


# --- #26 FALSE_WIN on a discarded bonus tile -------------------------------------------------


def bonus_deal_in(opts: dict[str, Any] | None) -> Hand:
    """S (f4 declared, ready on 5s) wins on the BM that E discards on its second turn
    (not the dealer's first discard: no địa ù)."""
    b = vn(options=opts).hand(S, "f4 1m2m3m 4p5p6p 7s8s9s 2s3s4s").hand(E, "BM")
    b.flower(S, "f4").replacement(S, "5s")
    return first_go_round(b).discard(E, "BM").win(S, "BM", E)


def test_FALSE_WIN_bonus_discard_triggers() -> None:
    b = bonus_deal_in(None)
    r = b.replay()
    one(r, "BONUS_DISCARDED", VIOL, seat=E, index=b.i - 1)
    one(r, "FALSE_WIN", VIOL, seat=S, index=b.i)
    assert r.deltas == (64, -192, 64, 64)


def test_FALSE_WIN_bonus_discard_clean() -> None:
    """§3.6: with allow_bonus_discard the khung is won on as a Tổng; +1 mủn; the
    discarder alone pays Cái + Con + Con."""
    r = bonus_deal_in({"allow_bonus_discard": True}).replay()
    clean(r)
    assert r.winners == (S,)
    # u_phinh 1 + bonus_deal_in_mun 6 = 7 phán: Con 64, Cái 128 -> E pays 256
    assert r.fan == 7
    assert r.deltas == (-256, 256, 0, 0)
    r = bonus_deal_in({"allow_bonus_discard": True, "bonus_deal_in_mun": 0}).replay()
    assert r.fan == 1 and r.deltas == (-8, 8, 0, 0)  # Con 2, Cái 4: 4 + 2 + 2


def three_khung(khung: str, hand: str, opts: dict[str, Any]) -> Hand:
    """E discards the three ``khung`` on its first three turns (nobody wins on them), then
    draws 9m and declares a win (§3.6 options three_blue/red_khung_win)."""
    b = vn(options={"allow_bonus_discard": True, **opts}).hand(E, khung + " " + hand, exact=True)
    k = tiles(khung)
    b.discard(E, k[0])
    for t, x in ((k[1], "1s"), (k[2], "3s")):
        b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
        b.draw(E, x).discard(E, t)
    b.draw(S).discard(S).draw(W).discard(W).draw(N).discard(N)
    return b.draw(E, "9m").win(E, "9m")


ORPHANS_11 = "1m2m 4p7p 2s5s8s E S W N"  # E's 11 ordinary tiles: nothing like a hand
NO_HONOUR_11 = "1m2m 4p7p 2s5s8s 1p3p5p9p"


def test_FALSE_WIN_three_blue_khung_triggers() -> None:
    b = three_khung("BP BS BM", ORPHANS_11, {})
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=E, index=b.i, reason="WIN_HAND_INCOMPLETE")


def test_FALSE_WIN_three_blue_khung_clean() -> None:
    """three_blue_khung_win: 1 mủn whatever the hand, settled as self-drawn (Cái 128 each)."""
    b = three_khung("BP BS BM", ORPHANS_11, {"three_blue_khung_win": True})
    r = b.replay()
    clean(r)
    assert r.winners == (E,) and r.self_drawn
    assert r.deltas == (384, -128, -128, -128)


def test_FALSE_WIN_three_red_khung_triggers() -> None:
    # the red version needs a hand with no honour ("phải sạch tài phao")
    b = three_khung("RU RD RW", ORPHANS_11, {"three_red_khung_win": True})
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=E, index=b.i)


def test_FALSE_WIN_three_red_khung_clean() -> None:
    b = three_khung("RU RD RW", NO_HONOUR_11, {"three_red_khung_win": True})
    r = b.replay()
    clean(r)
    assert r.winners == (E,) and r.deltas == (384, -128, -128, -128)


# --- #27 claim groups: WIN_CLAIM_OVERRIDDEN / FALSE_WIN --------------------------------------


def s_ready(b: Hand, s_hand: str = "1m2m3m 4p5p6p 7s8s9s 2s3s4s") -> Hand:
    """S declares g1 (so no không hoa không lá) and is ready on 5m (u_phinh 1 phán)."""
    b.hand(S, "g1 " + s_hand)
    return b.flower(S, "g1").replacement(S, "5m")


def two_wins(
    w_hand: str = "6m7m 1p1p1p 2p3p4p 7p8p9p E", s_hand: str = "1m2m3m 4p5p6p 7s8s9s 2s3s4s"
) -> Hand:
    """E discards 5m on its second turn; W then S declare a win on it (one claim group,
    W logged first).
    W declares g4 and is ready on 5m or 8m (0 phán: it has a pung)."""
    b = s_ready(vn(), s_hand).hand(W, "g4 " + w_hand).flower(W, "g4").replacement(W, "E")
    return first_go_round(b).discard(E, "5m").win(W, "5m", E).win(S, "5m", E)


W_WIN_INDEX = 13
# S: 123m 456p 789s 234s 55m, all chows -> u_phinh 1: Con 2, Cái 4
S_WIN = (-4, 8, -2, -2)


def test_WIN_CLAIM_OVERRIDDEN_triggers() -> None:
    r = two_wins().replay()
    one(r, "WIN_CLAIM_OVERRIDDEN", INFO, seat=W, index=W_WIN_INDEX)
    assert serious(r) == [], r.findings
    assert r.winners == (S,)  # head-bump: S is nearest after E
    assert r.deltas == S_WIN


def test_WIN_CLAIM_OVERRIDDEN_clean() -> None:
    r = first_go_round(s_ready(vn())).discard(E, "5m").win(S, "5m", E).replay()
    clean(r)
    no(r, "WIN_CLAIM_OVERRIDDEN")
    assert r.deltas == S_WIN


def test_WIN_CLAIM_OVERRIDDEN_false_win_in_group() -> None:
    # W's declaration is invalid: a false win, its penalty charged as well; S is settled
    r = two_wins("6m8m 1p1p1p 2p3p4p 7p8p9p E").replay()
    one(r, "FALSE_WIN", VIOL, seat=W, index=W_WIN_INDEX, reason="WIN_HAND_INCOMPLETE")
    no(r, "WIN_CLAIM_OVERRIDDEN")
    assert r.winners == (S,)
    assert r.deltas == (-4 + 64, 8 + 64, -2 - 192, -2 + 64)


def test_WIN_CLAIM_OVERRIDDEN_head_bump_among_valid_only() -> None:
    # S (nearest) declares an incomplete hand: W, the nearest *valid* declaration, is settled
    b = two_wins(s_hand="1m2m3m 4p5p6p 7s8s9s 2s3s5s")
    r = b.replay()
    one(r, "FALSE_WIN", VIOL, seat=S, index=b.i, reason="WIN_HAND_INCOMPLETE")
    no(r, "WIN_CLAIM_OVERRIDDEN")
    assert r.winners == (W,)
    # W 0 phán on E's discard (E −2, S −1, N −1, W +4) and S's 64 to each other player
    assert r.deltas == (-2 + 64, -1 - 192, 4 + 64, -1 + 64)


def test_WIN_CLAIM_OVERRIDDEN_multiple_winners_option() -> None:
    r = two_wins().replay({"multiple_winners": True})
    clean(r)
    no(r, "WIN_CLAIM_OVERRIDDEN")
    assert r.winners == (S, W)
    # W: pung 111p, so 0 phán: Con 1, Cái 2; each winner settled on E's discard
    assert r.deltas == (-4 - 2, 8 - 1, -2 + 4, -2 - 1)


# --- #28 HAND_END_INVALID --------------------------------------------------------------------


def test_HAND_END_INVALID_triggers() -> None:
    b = exhaust(short=1).exhaustive_draw()  # one tile is still there
    r = b.replay()
    one(r, "HAND_END_INVALID", HARD, seat=None, index=b.i)
    stopped(r)


def test_HAND_END_INVALID_clean() -> None:
    r = exhaust().exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"


# --- #29 EVENT_AFTER_END ---------------------------------------------------------------------


def test_EVENT_AFTER_END_triggers() -> None:
    b = quick_win(E, 1).draw(W)
    r = b.replay()
    one(r, "EVENT_AFTER_END", HARD, seat=(None, W), index=2)
    stopped(r)


def test_EVENT_AFTER_END_triggers_after_abandon() -> None:
    r = vn().discard(E).abandon().draw(S).replay()
    one(r, "EVENT_AFTER_END", HARD, seat=(None, S), index=2)


def test_EVENT_AFTER_END_triggers_after_false_win() -> None:
    r = f1_false_win().discard(S, "6s").replay()  # default false_win_effect = end_hand
    one(r, "EVENT_AFTER_END", HARD, seat=(None, S), index=3)


def test_EVENT_AFTER_END_triggers_after_exhaustive_draw() -> None:
    b = exhaust().exhaustive_draw().abandon()
    r = b.replay()
    one(r, "EVENT_AFTER_END", HARD, seat=None, index=b.i)


def test_EVENT_AFTER_END_clean() -> None:
    # the rest of the win's claim group may follow the win
    r = two_wins().replay()
    no(r, "EVENT_AFTER_END")
    assert serious(r) == []
    clean(vn().discard(E).abandon().replay())


# --- #30 RESULT_MISMATCH / MULTIPLE_WINNERS --------------------------------------------------


# Result findings name the last event (the project's convention, as in hk-classic #44).


def test_RESULT_MISMATCH_triggers() -> None:
    b = v1().result([S], 1, None, [-2, 8, -4, -2])
    r = b.replay()
    one(r, "RESULT_MISMATCH", AUDIT, seat=(None, S), index=b.i)
    assert r.matches_recorded is False
    assert r.deltas == V1_DELTAS  # the computed result stands


def test_RESULT_MISMATCH_triggers_deltas_only() -> None:
    b = v1().result([S], 0, None, [-2, 4, -1, -1])  # E and W swapped
    one(b.replay(), "RESULT_MISMATCH", AUDIT, seat=(None, S), index=b.i)


def test_RESULT_MISMATCH_clean() -> None:
    r = v1().result([S], 0, None, list(V1_DELTAS)).replay()
    clean(r)
    assert r.matches_recorded is True


def test_RESULT_MISMATCH_triggers_false_win_penalty() -> None:
    b = f1_false_win().result([], None, None, [32, -96, 32, 32])
    one(b.replay(), "RESULT_MISMATCH", AUDIT, seat=(None, S), index=b.i)


def test_RESULT_MISMATCH_clean_false_win_penalty() -> None:
    b = f1_false_win().result([], None, None, [64, -192, 64, 64])
    r = b.replay()
    no(r, "RESULT_MISMATCH")
    assert r.matches_recorded is True


V7_PATTERNS = ["thien_u", "khong_hoa_khong_la", "u_phinh", "bat_cau_nhan"]


def test_RESULT_MISMATCH_triggers_patterns() -> None:
    # §11 V7: thiên ù 6 + không hoa không lá 6 + u_phinh 1 + bất cầu nhần 1 = 14 phán
    b = thien_u().result([E], 14, V7_PATTERNS[:3], [768, -256, -256, -256])
    one(b.replay(), "RESULT_MISMATCH", AUDIT, seat=(None, E), index=b.i)


def test_RESULT_MISMATCH_clean_patterns() -> None:
    b = thien_u().result([E], 14, reversed(V7_PATTERNS), [768, -256, -256, -256])
    r = b.replay()
    clean(r)
    assert r.matches_recorded is True and r.fan == 14


def test_RESULT_MISMATCH_triggers_penalty() -> None:
    wrong = {"seat": W, "code": "FALSE_WIN", "deltas": [64, 64, -192, 64]}
    b = f1_false_win().result([], None, None, [64, -192, 64, 64], [wrong])
    one(b.replay(), "RESULT_MISMATCH", AUDIT, seat=(None, S, W), index=b.i)


def test_RESULT_MISMATCH_clean_penalty() -> None:
    right = {"seat": S, "code": "FALSE_WIN", "deltas": [64, -192, 64, 64]}
    b = f1_false_win().result([], None, None, [64, -192, 64, 64], [right])
    r = b.replay()
    no(r, "RESULT_MISMATCH")
    assert r.matches_recorded is True


def test_MULTIPLE_WINNERS_triggers() -> None:
    b = two_wins().result([S, W])
    one(b.replay(), "MULTIPLE_WINNERS", AUDIT, seat=None, index=b.i)


def test_MULTIPLE_WINNERS_clean() -> None:
    r = two_wins().result([S, W]).replay({"multiple_winners": True})
    no(r, "MULTIPLE_WINNERS", "RESULT_MISMATCH")
    clean(r)


# --- PARTIAL_INFORMATION ---------------------------------------------------------------------


def test_PARTIAL_INFORMATION_triggers() -> None:
    rec = v1().record()
    del rec["start_hands"]
    r = replay_hand(canonical(rec))
    one(r, "PARTIAL_INFORMATION", INFO, seat=None, index=None)
    assert serious(r) == [], r.findings


def test_PARTIAL_INFORMATION_clean() -> None:
    r = v1().replay()
    no(r, "PARTIAL_INFORMATION")
    # the wall alone gives the deal (§2.2), so the information is complete
    rec = baseline().record(wall=True)
    del rec["start_hands"]
    r = replay_hand(canonical(rec))
    no(r, "PARTIAL_INFORMATION")
    assert serious(r) == [], r.findings


# --- legal random hands: no checklist code fires on a legal log ------------------------------

_FLOWER_CODES = frozenset(t for t in bonus_tiles(RULESET) if t[0] in "fgkq")
_KHUNG_CODES = bonus_tiles(RULESET) - _FLOWER_CODES


def in_domain(khung: str, tile: str) -> bool:
    """§1.2: the ordinary tiles a khung can stand for (RU: suit tiles, the default)."""
    suited = tile[0].isdigit()
    return {
        "BT": True,
        "BP": suited and tile[1] == "p",
        "BS": suited and tile[1] == "s",
        "BM": suited and tile[1] == "m",
        "RU": suited,
        "RD": tile in "CFP",
        "RW": tile in "ESWN",
    }.get(khung, False)


def random_legal_hand(seed: int) -> dict[str, Any]:
    """A random legal vn-160 hand with its wall, ending in an exhaustive draw.

    The wall is dealt as §2.2 deals it; flowers are declared at once (one replacement each,
    from the back of the wall), khung sometimes declared on the owner's turn and otherwise
    kept; players discard ordinary tiles at random; a natural pair sometimes pungs, three
    naturals sometimes kong, next(discarder) sometimes chows with natural tiles, and on
    one's own turn a concealed or added kong is sometimes made. Pungs and chows sometimes use
    a khung in place of a missing tile (``with`` / a khung code in ``tiles``)."""
    import random

    rng = random.Random(seed)
    wall = sorted(full_set(RULESET).elements())
    rng.shuffle(wall)
    dealer = rng.randrange(4)
    order = [(dealer + k) % 4 for k in range(4)]
    start: list[list[str]] = [[] for _ in range(4)]
    pos = 0
    for _ in range(3):
        for s in order:
            start[s] += wall[pos : pos + 4]
            pos += 4
    start[dealer] += wall[pos : pos + 2]
    pos += 2
    for s in order[1:]:
        start[s].append(wall[pos])
        pos += 1
    hands = [Counter(h) for h in start]
    pungs: list[set[str]] = [set() for _ in range(4)]
    events: list[dict[str, Any]] = []
    ends = {"front": pos, "back": len(wall)}

    def take(kind: str, seat: int) -> str | None:
        if ends["front"] >= ends["back"]:
            return None
        if kind == "draw":
            t = wall[ends["front"]]
            ends["front"] += 1
        else:
            ends["back"] -= 1
            t = wall[ends["back"]]
        hands[seat][t] += 1
        events.append({"type": kind, "seat": seat, "tile": t})
        return t

    def declare(seat: int, t: str) -> bool:
        """Declare a bonus tile and draw its replacement; False when the wall is empty."""
        hands[seat][t] -= 1
        events.append({"type": "flower", "seat": seat, "tile": t})
        return take("replacement", seat) is not None

    def settle_bonus(seat: int, own_turn: bool) -> bool:
        """Declare every flower (and, on one's own turn, some khung); False: wall empty."""
        while True:
            flowers = sorted(t for t in +hands[seat] if t in _FLOWER_CODES)
            khung = sorted(t for t in +hands[seat] if t in _KHUNG_CODES)
            if flowers:
                if not declare(seat, flowers[0]):
                    return False
            elif own_turn and khung and rng.random() < 0.3:
                if not declare(seat, khung[0]):
                    return False
            else:
                return True

    def discard(seat: int) -> str:
        choices = sorted(t for t in +hands[seat] if t not in bonus_tiles(RULESET))
        t = rng.choice(choices)
        hands[seat][t] -= 1
        events.append({"type": "discard", "seat": seat, "tile": t})
        return t

    for s in order:  # initial phase, in turn order from the dealer
        if not settle_bonus(s, own_turn=True):
            raise AssertionError("wall empty in the initial phase")
    # drew: the turn holder has drawn (or was dealt 14): kongs only then (#23)
    seat, need_draw, drew = dealer, False, True
    while True:
        if need_draw:
            if take("draw", seat) is None:
                break
            need_draw, drew = False, True
        if not settle_bonus(seat, own_turn=True):
            break
        kongs = [t for t, n in hands[seat].items() if n == 4 and t not in bonus_tiles(RULESET)]
        added = [t for t in pungs[seat] if hands[seat][t] > 0]
        if drew and kongs and rng.random() < 0.5:
            hands[seat][kongs[0]] -= 4
            events.append({"type": "concealed_kong", "seat": seat, "tile": kongs[0]})
            if take("replacement", seat) is None:
                break
            continue
        if drew and added and rng.random() < 0.5:
            hands[seat][added[0]] -= 1
            pungs[seat].discard(added[0])
            events.append({"type": "added_kong", "seat": seat, "tile": added[0]})
            if take("replacement", seat) is None:
                break
            continue
        t = discard(seat)
        nxt = (seat + 1) % 4
        claimed = False
        for c in (nxt, (seat + 2) % 4, (seat + 3) % 4):
            if hands[c][t] == 3 and rng.random() < 0.3:
                hands[c][t] -= 3
                events.append({"type": "kong", "seat": c, "from": seat, "tile": t})
                if take("replacement", c) is None:
                    claimed = True
                    seat = -1
                    break
                seat, drew, claimed = c, False, True
                break
            if hands[c][t] >= 2 and rng.random() < 0.3:
                hands[c][t] -= 2
                pungs[c].add(t)
                events.append({"type": "pung", "seat": c, "from": seat, "tile": t})
                seat, drew, claimed = c, False, True
                break
            jokers = sorted(k for k in +hands[c] if in_domain(k, t))
            if hands[c][t] >= 1 and jokers and rng.random() < 0.3:
                hands[c][t] -= 1
                hands[c][jokers[0]] -= 1
                ev = {"type": "pung", "seat": c, "from": seat, "tile": t, "with": [t, jokers[0]]}
                events.append(ev)
                seat, drew, claimed = c, False, True
                break
        if seat == -1:
            break
        if not claimed and t[-1] in "mps" and rng.random() < 0.3:
            n, suit = int(t[0]), t[1]
            for lo in (n - 2, n - 1, n):
                run = [f"{k}{suit}" for k in range(lo, lo + 3)]
                if lo < 1 or lo + 2 > 9:
                    continue
                others = list(run)
                others.remove(t)
                missing = [x for x in others if hands[nxt][x] == 0]
                jokers = sorted(k for k in +hands[nxt] if missing and in_domain(k, missing[0]))
                if len(missing) == 1 and jokers and rng.random() < 0.5:
                    run[run.index(missing[0])] = jokers[0]
                    others[others.index(missing[0])] = jokers[0]
                    missing = []
                if not missing:
                    for x in others:
                        hands[nxt][x] -= 1
                    events.append(
                        {"type": "chow", "seat": nxt, "from": seat, "tile": t, "tiles": run}
                    )
                    seat, drew, claimed = nxt, False, True
                    break
        if claimed:
            continue
        seat, need_draw, drew = nxt, True, False
    events.append({"type": "exhaustive_draw"})
    rec = {
        "format": "mjlog/1",
        "game_id": f"rand{seed}",
        "hand_no": 1,
        "ruleset": RULESET,
        "players": ["ann", "bob", "cat", "dan"],
        "dealer": dealer,
        "prevailing_wind": "E",
        "start_hands": start,
        "wall": wall,
        "events": events,
    }
    return canonical(rec)


@pytest.mark.parametrize("seed", range(30))
def test_random_legal_hand_is_clean(seed: int) -> None:
    rec = random_legal_hand(seed)
    r = replay_hand(rec)
    assert serious(r) == [], (seed, r.findings)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (0, 0, 0, 0)
    del rec["wall"]  # the same hand from start_hands alone
    r = replay_hand(rec)
    assert serious(r) == [], (seed, r.findings)
    assert r.ended_by == "exhaustive_draw"
