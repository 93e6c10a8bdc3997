"""american §9.2 legality checklist #1-#36 (and the §8 dead hands and violations), as logs.

Written from ``rules/american.md`` alone, not from the engine. For every code of the
checklist there is a log that triggers it (``test_<CODE>_triggers``: the exact code, class,
event index and seat) and a clean counterpart (``test_<CODE>_clean``) that does the same
thing legally; options that change a check have their own tests. Consequences stated by
the rules are checked through behaviour: a CORRUPT_LOG finding stops the replay (nothing
settled); a dead hand's later actions are ``ACTION_BY_DEAD_HAND``; a dead hand still pays.

Seats: the dealer is seat 0 (East) unless said otherwise, so seat k is wind ESWN[k] and
passes go right = k+1, across = k+2, left = k+3. The card is the §6 sample card.

Conventions the rules file does not fix (checked leniently, see ``at``): record-level
findings have event index None, and their seat may be None or the seat concerned; for
findings about a tile seen too often the seat may be None or the actor.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import msgspec
import pytest
from american_builder import (
    CARD,
    DEAL,
    LIVE_AFTER_DEAL,
    AmHand,
    E,
    N,
    S,
    W,
    canonical,
)
from mjaudit.parts.replay.engine.findings import SERIOUS, Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.run import replay_hand, supported

HARD = FindingClass.CORRUPT_LOG
VIOL = FindingClass.PLAYER_VIOLATION
AUDIT = FindingClass.SCORE_MISMATCH
INFO = FindingClass.INFO

pytestmark = pytest.mark.skipif(
    not supported("american"), reason="the american engine is not registered yet"
)

# --- looking at findings --------------------------------------------------------------------

Where = int | None | Collection[int | None]


def _ok(value: int | None, want: Where) -> bool:
    if isinstance(want, Collection):
        return value in want
    return value == want


def with_code(r: HandReport, code: str) -> list[Finding]:
    return [f for f in r.findings if f.code == code]


def at(r: HandReport, code: str, cls: FindingClass, *, seat: Where, index: Where) -> Finding:
    """The one finding with ``code``: its class, seat and event index are as given (a
    collection means "one of these")."""
    found = with_code(r, code)
    assert len(found) == 1, f"expected one {code}, got {r.findings}"
    f = found[0]
    assert f.cls is cls, f
    assert _ok(f.seat, seat), f
    assert _ok(f.event_index, index), f
    assert f.message
    return f


def some(r: HandReport, code: str, cls: FindingClass, *, seat: int, index: int) -> Finding:
    """A finding with ``code`` at ``index`` for ``seat`` (others with the code may exist)."""
    found = [f for f in with_code(r, code) if f.event_index == index and f.seat == seat]
    assert found, f"expected {code} at #{index} for seat {seat}, got {r.findings}"
    assert found[0].cls is cls, found[0]
    return found[0]


def no(r: HandReport, *codes: str) -> None:
    hits = [f for f in r.findings if f.code in codes]
    assert hits == [], hits


def clean(r: HandReport) -> None:
    """No CORRUPT_LOG, PLAYER_VIOLATION or SCORE_MISMATCH finding."""
    serious = [f for f in r.findings if f.cls in SERIOUS]
    assert serious == [], serious


def stopped(r: HandReport) -> None:
    """A CORRUPT_LOG finding stops the replay: exactly one, and nothing is settled."""
    assert [f.cls for f in r.findings].count(HARD) == 1, r.findings
    assert r.corrupt
    assert r.deltas is None
    assert r.winners == ()


def replay_rec(
    rec: dict[str, Any],
    overrides: dict[str, object] | None = None,
    previous: HandReport | None = None,
    *,
    validate: bool = True,
) -> HandReport:
    """Replay a record edited by hand (validated again unless ``validate=False``)."""
    return replay_hand(canonical(rec) if validate else rec, overrides, previous)


def dead_after(b: AmHand, seat: int, overrides: dict[str, object] | None = None) -> None:
    """``seat``'s hand is dead: a discard by it now is ``ACTION_BY_DEAD_HAND``."""
    b.discard(seat)
    r = b.replay(overrides)
    some(r, "ACTION_BY_DEAD_HAND", VIOL, seat=seat, index=b.i)


# --- worked examples of §11 as logs (the clean wins the checks are measured against) -------


def a1_year_self_drawn() -> AmHand:
    """A1: S wins YEAR-1 self-drawn with jokers, V = 25."""
    b = AmHand()
    b.hand(S, "3p3p J 1s1s f1 f2 J 2m P 3m")
    b.discard(E, "3p").kong(S, E, "3p", "3p 3p J").discard(S)
    b.draw(W).discard(W)
    b.draw(N).discard(N, "1s").pung(S, N, "1s", "1s 1s").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "1m").win(S, "1m")
    return b.result([S], 25, ["YEAR-1"], [-50, 150, -50, -50])


def a2_like_on_discard() -> AmHand:
    """A2: W wins LIKE-1 on E's discard N, V = 35."""
    b = AmHand()
    b.hand(W, "7m7m 7p7p7p 7s7s7s7s J N")
    b.discard(E).draw(S).discard(S, "7m").pung(W, S, "7m", "7m 7m").discard(W)
    b.draw(N).discard(N, "7p").kong(W, N, "7p", "7p 7p 7p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E, "N").win(W, "N", E)
    return b.result([W], 35, ["LIKE-1"], [-70, -35, 140, -35])


def a4_odd_jokerless() -> AmHand:
    """A4: E wins ODD-1 jokerless on S's discard 3s, V = 50."""
    b = AmHand()
    b.hand(E, "9s9s9s 5m5m 3s3s3s f1 f4 g1")
    b.discard(E).draw(S).discard(S).draw(W).discard(W, "9s").kong(E, W, "9s", "9s 9s 9s")
    b.discard(E).draw(S).discard(S).draw(W).discard(W).draw(N).discard(N, "5m")
    b.pung(E, N, "5m", "5m 5m").discard(E).draw(S).discard(S, "3s").win(E, "3s", S)
    return b.result([E], 50, ["ODD-1"], [200, -100, -50, -50])


def a5_concealed_on_discard() -> AmHand:
    """A5: S wins WIND-2 (concealed) on W's discard S, jokerless, V = 80."""
    b = AmHand()
    b.hand(S, "N N N C C C S S F F F f2 g3", exact=True)
    b.discard(E).draw(S, "9p").discard(S, "9p").draw(W).discard(W, "S").win(S, "S", W)
    return b.result([S], 80, ["WIND-2"], [-80, 320, -160, -80])


def a7_exchange_then_self_drawn(*, charleston: bool = False) -> AmHand:
    """A7: N takes S's joker with 9m and wins LIKE-1 self-drawn, V = 35.

    ``charleston``: the hand starts with a first Charleston (N's 6m 6m reach it from S),
    a stop and a courtesy pass E-W."""
    b = AmHand()
    if charleston:
        b.hand(N, "6p6p6p6p 6s6s6s6s N N")
        b.hand(S, "9m J")
        b.first_charleston(arrive={N: "6m 6m"})
        b.charleston_stop(W)
        b.courtesy_pass(E, W, 2).courtesy_pass(W, E, 3, count=2)  # both pass min(2, 3)
    else:
        b.hand(N, "6m6m 6p6p6p6p 6s6s6s6s N N")
    b.discard(E, "6m").pung(N, E, "6m", "6m 6m").discard(N)
    b.draw(E).discard(E).draw(S).discard(S)
    b.draw(W).discard(W, "9m").pung(S, W, "9m", "9m J").discard(S)
    b.draw(W).discard(W)
    b.draw(N, "9m").joker_exchange(N, "9m", S, 0).win(N, "9m")
    return b.result([N], 35, ["LIKE-1"], [-70, -70, -70, 210])


def a9_mahjong_in_error() -> AmHand:
    """A9: S declares LIKE-1 with the pair N J: no card hand matches."""
    b = AmHand()
    b.hand(S, "5p5p 5s5s5s 5m5m5m5m J N")
    b.discard(E, "5p").pung(S, E, "5p", "5p 5p").discard(S)
    b.draw(W).discard(W, "5s").kong(S, W, "5s", "5s 5s 5s").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "J").win(S, "J")
    return b


def east_initial(dealer: int = 0, hand_no: int = 1) -> AmHand:
    """East's initial Mahjong: WIND-2 dealt (jokerless, V = 80), before any Charleston."""
    b = AmHand(dealer=dealer, hand_no=hand_no)
    b.hand(dealer, "N N N C C C S S S F F F f2 g3", exact=True)
    return b.win(dealer, "N")


# --- the examples are clean (the base every trigger is compared with) ---------------------


@pytest.mark.parametrize(
    "make",
    [a1_year_self_drawn, a2_like_on_discard, a4_odd_jokerless, a5_concealed_on_discard],
)
def test_worked_examples_are_clean(make: Any) -> None:
    b = make()
    r = b.replay()
    clean(r)
    assert r.ended_by == "win"
    assert r.deltas == tuple(b.res["deltas"])
    assert r.matches_recorded is True


def test_a7_with_charleston_stop_and_courtesy_is_clean() -> None:
    for charleston in (False, True):
        b = a7_exchange_then_self_drawn(charleston=charleston)
        for wall in (False, True):
            r = b.replay(wall=wall)
            clean(r)
            assert (r.winners, r.fan, r.self_drawn) == ((N,), 35, True)
            assert r.deltas == (-70, -70, -70, 210)


def test_east_initial_mahjong_is_clean() -> None:
    r = east_initial().result([E], 80, ["WIND-2"], [480, -160, -160, -160]).replay()
    clean(r)
    assert (r.winners, r.fan) == ((E,), 80)
    assert r.deltas == (480, -160, -160, -160)


# --- #1 RECORD_INVALID, #2 CARD_INVALID ---------------------------------------------------


def _short() -> AmHand:
    return AmHand().discard(E).draw(S).discard(S)


def test_RECORD_INVALID_triggers() -> None:
    r = AmHand(options={"fan_cap": 9}).discard(E).replay()  # an option american lacks
    at(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)
    r = AmHand(options={"courtesy_partner": "left"}).discard(E).replay()  # a bad value
    at(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)
    r = AmHand(players=["ann", "bob", "ann", "dan"]).discard(E).replay()  # 4 distinct players
    at(r, "RECORD_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_RECORD_INVALID_clean() -> None:
    opts = {
        "verify_deal_positions": False,
        "second_charleston": "always",
        "courtesy_partner": "any_agreed",
        "blind_pass_passes": [3, 6],
        "east_initial_mahjong": True,
        "last_discard_exposure_call": False,
        "end_when_three_dead": True,
        "jokerless_doubles": True,
        "call_then_mahjong_liability": "discarder",
        "dead_by_visible_tiles": False,
        "wrong_dead_call": "no_effect",
        "point_value": 2,
    }
    clean(AmHand(options=opts).discard(E).draw(S).discard(S).replay())


def test_RECORD_INVALID_override_option() -> None:
    """`mjaudit check --option K=V` goes through the same check."""
    r = _short().replay({"second_charleston": "sometimes"})
    at(r, "RECORD_INVALID", HARD, seat=None, index=None)
    clean(_short().replay({"second_charleston": "never"}))


def test_CARD_INVALID_triggers_unknown_card() -> None:
    r = AmHand(card="no-such-card-2031").discard(E).replay()
    at(r, "CARD_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_CARD_INVALID_triggers_no_card_named() -> None:
    """§9.1: options must name the card; without one nothing can be matched."""
    r = AmHand(card=None).discard(E).replay()
    at(r, "CARD_INVALID", HARD, seat=None, index=None)
    stopped(r)


BAD_CARD = """\
format: mj-card/1
card_id: bad-card-13
hands:
  - id: SHORT-1
    category: broken
    concealed: false
    value: 25
    groups:
      - {t: F, n: 3}
      - {t: "N", n: 4}
      - {t: E, n: 4}
      - {t: W, n: 2}
"""


def test_CARD_INVALID_triggers_card_file_breaking_5_4(tmp_path: Path) -> None:
    """A card whose hand has 13 tiles (§5.4: the group sizes total 14)."""
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_CARD)
    r = AmHand(card="bad-card-13").discard(E).replay({"card_file": str(path)})
    at(r, "CARD_INVALID", HARD, seat=None, index=None)
    stopped(r)


def test_CARD_INVALID_clean() -> None:
    clean(AmHand(card=CARD).discard(E).draw(S).discard(S).replay())


# --- #3 UNKNOWN_TILE, #4 TILE_OVERCOUNT ---------------------------------------------------


def test_UNKNOWN_TILE_triggers() -> None:
    # a vn-160 flower is no american tile (the schema rejects it, so the raw dict is replayed)
    rec = AmHand().hand(S, "3m").discard(E).draw(S).discard(S, "3m").record(validate=False)
    rec["events"][2]["tile"] = "k1"
    r = replay_rec(rec, validate=False)
    at(r, "UNKNOWN_TILE", HARD, seat={S, None}, index=2)
    stopped(r)
    rec = AmHand().discard(E).record(validate=False)
    rec["start_hands"][W][0] = "X9"
    r = replay_rec(rec, validate=False)
    at(r, "UNKNOWN_TILE", HARD, seat={W, None}, index=None)


def test_UNKNOWN_TILE_clean() -> None:
    """`FL` (a flower whose identity was not recorded) and every flower are tiles."""
    b = AmHand().hand(S, "FL g4").discard(E).draw(S).discard(S, "FL")
    clean(
        b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E).draw(S).discard(S, "g4").replay()
    )


def test_TILE_OVERCOUNT_triggers() -> None:
    # a fifth 5m in the deal
    r = AmHand().hand(E, "5m5m5m5m").hand(S, "5m").discard(E).replay()
    at(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    stopped(r)
    # a ninth joker, drawn
    b = AmHand().hand(E, "J J J J").hand(S, "J J J J").discard(E).draw(S, "J")
    r = b.replay()
    at(r, "TILE_OVERCOUNT", HARD, seat={None, S}, index=1)
    stopped(r)
    # f1 exists once
    r = AmHand().hand(E, "f1").hand(N, "f1").discard(E).replay()
    at(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)
    # nine flowers: the eight named ones and an FL
    r = AmHand().hand(E, "f1 f2 f3 f4 g1").hand(W, "g2 g3 g4 FL").discard(E).replay()
    at(r, "TILE_OVERCOUNT", HARD, seat=None, index=None)


def test_TILE_OVERCOUNT_clean() -> None:
    b = AmHand().hand(E, "J J J J f1 f2 f3 f4").hand(S, "J J J g1 g2 g3").hand(W, "J FL")
    clean(b.discard(E).draw(S).discard(S).replay())


# --- #5 DEALER_ROTATION_MISMATCH ----------------------------------------------------------


def test_DEALER_ROTATION_MISMATCH_triggers() -> None:
    """§2.5: East passes right after every hand, even after East's own win."""
    first = east_initial(0, 1).replay()
    clean(first)
    assert first.winners == (E,)
    r = AmHand(dealer=0, hand_no=2).discard(0).replay(previous=first)
    at(r, "DEALER_ROTATION_MISMATCH", HARD, seat={0, None}, index=None)
    stopped(r)
    r = AmHand(dealer=2, hand_no=2).discard(2).replay(previous=first)
    at(r, "DEALER_ROTATION_MISMATCH", HARD, seat={2, None}, index=None)


def test_DEALER_ROTATION_MISMATCH_clean() -> None:
    first = east_initial(0, 1).replay()
    clean(AmHand(dealer=1, hand_no=2).discard(1).replay(previous=first))
    # after a wall game too
    wall_game = AmHand(dealer=3, hand_no=4).discard(3).turns(0, LIVE_AFTER_DEAL)
    done = wall_game.exhaustive_draw().replay()
    clean(done)
    assert done.ended_by == "exhaustive_draw"
    nxt = AmHand(dealer=0, hand_no=5).discard(0).replay(previous=done)
    clean(nxt)


# --- #6 DEAL_INVALID ------------------------------------------------------------------------


def test_DEAL_INVALID_triggers_sizes() -> None:
    rec = _short().record()
    rec["start_hands"][S].append("9p")  # S dealt 14
    r = replay_rec(rec)
    at(r, "DEAL_INVALID", HARD, seat={S, None}, index=None)
    stopped(r)
    rec = _short().record()
    rec["start_hands"][E].pop()  # East 13, but its first event is a discard, not a draw
    r = replay_rec(rec)
    at(r, "DEAL_INVALID", HARD, seat={E, None}, index=None)


def test_DEAL_INVALID_triggers_wall() -> None:
    rec = _short().record(wall=True)
    rec["wall"].pop()  # 151 tiles
    r = replay_rec(rec)
    at(r, "DEAL_INVALID", HARD, seat=None, index=None)
    stopped(r)
    rec = _short().record(wall=True)
    far = next(k for k in range(100, 152) if rec["wall"][k] != rec["wall"][0])
    rec["wall"][0], rec["wall"][far] = rec["wall"][far], rec["wall"][0]
    r = replay_rec(rec)  # the first 53 are no longer the dealt hands
    at(r, "DEAL_INVALID", HARD, seat=None, index=None)


def test_DEAL_INVALID_clean() -> None:
    clean(_short().replay(wall=True))
    # East dealt 13 and its 14th as the first draw (event 0, before any Charleston event)
    b = AmHand().draw(E).first_charleston().discard(E)
    assert len(b.record()["start_hands"][E]) == 13
    clean(b.replay())
    clean(b.replay(wall=True))
    assert len(b.record(wall=True)["wall"]) == 152


def test_DEAL_INVALID_verify_deal_positions() -> None:
    """The deal's multiset is right but its positions are not: only checked on option."""
    rec = _short().record(wall=True)
    rec["wall"][:DEAL] = rec["wall"][:DEAL][::-1]
    clean(replay_rec(rec))
    r = replay_rec(rec, {"verify_deal_positions": True})
    at(r, "DEAL_INVALID", HARD, seat=None, index=None)
    clean(_short().replay({"verify_deal_positions": True}, wall=True))


# --- #7-#12: the Charleston -----------------------------------------------------------------


def test_TILE_NOT_IN_HAND_triggers_charleston_pass() -> None:
    b = AmHand(avoid="9p").hand(E, "", add=False)
    b.charleston_pass(E, 1, "9p 9p 1m")
    r = b.replay()
    at(r, "TILE_NOT_IN_HAND", HARD, seat=E, index=0)
    stopped(r)


def test_TILE_NOT_IN_HAND_clean_charleston_pass() -> None:
    """A tile received in pass 1 may be passed on in pass 2."""
    b = AmHand().hand(N, "9p 9p 1m")
    b.charleston_pass(E, 1).charleston_pass(S, 1).charleston_pass(W, 1)
    b.charleston_pass(N, 1, "9p 9p 1m")  # N -> E
    b.charleston_pass(E, 2, "9p 9p 1m").charleston_pass(S, 2).charleston_pass(W, 2)
    b.charleston_pass(N, 2).pass_round(3)
    clean(b.replay())


def test_BLIND_TILE_INVALID_triggers() -> None:
    # pass 3 goes left: S receives W's tiles; 9p is not among them
    b = AmHand(avoid="9p").pass_round(1).pass_round(2)
    b.charleston_pass(E, 3).charleston_pass(W, 3).charleston_pass(N, 3)
    b.charleston_pass(S, 3, blind="9p")
    r = b.replay()
    at(r, "BLIND_TILE_INVALID", HARD, seat=S, index=b.i)
    stopped(r)


def test_BLIND_TILE_INVALID_clean() -> None:
    b = AmHand().pass_round(1).pass_round(2).pass_round(3, blind={S: 1, W: 3})
    clean(b.pass_round(4).pass_round(5).pass_round(6, blind={N: 2}).discard(E).replay())


def test_BLIND_TILE_INVALID_clean_passes_are_simultaneous() -> None:
    """§3: every pass is simultaneous, so the blind passer may be written first."""
    b = AmHand().pass_round(1).pass_round(2)
    b.charleston_pass(S, 3, blind=3).charleston_pass(E, 3).charleston_pass(W, 3)
    b.charleston_pass(N, 3)
    rec = b.record()
    assert all(isinstance(t, dict) for t in rec["events"][8]["tiles"])
    clean(b.discard(E).replay())


def test_JOKER_PASSED_triggers() -> None:
    b = AmHand().hand(E, "J").charleston_pass(E, 1, "J 1m 2m")
    b.charleston_pass(S, 1).charleston_pass(W, 1).charleston_pass(N, 1)
    b.pass_round(2).pass_round(3)
    r = b.replay()
    at(r, "JOKER_PASSED", VIOL, seat=E, index=0)
    no(r, "ACTION_BY_DEAD_HAND")
    assert r.corrupt is False
    # the pass is applied as recorded: S (who received the joker in pass 1) may use it later,
    # and no hand died for it
    b2 = AmHand().hand(E, "J").hand(S, "4p 4p")
    b2.charleston_pass(E, 1, "J 1m 2m").charleston_pass(S, 1).charleston_pass(W, 1)
    b2.charleston_pass(N, 1)
    b2.discard(E, "4p").pung(S, E, "4p", "4p J").discard(S)
    r = b2.replay()
    at(r, "JOKER_PASSED", VIOL, seat=E, index=0)
    no(r, "TILE_NOT_IN_HAND", "ACTION_BY_DEAD_HAND")


def test_JOKER_PASSED_triggers_courtesy() -> None:
    b = AmHand().hand(W, "J").first_charleston().charleston_stop(N)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 1, "J")
    r = b.replay()
    at(r, "JOKER_PASSED", VIOL, seat=W, index=b.i)


def test_JOKER_PASSED_clean() -> None:
    b = AmHand().hand(E, "J").first_charleston().charleston_stop(N)
    clean(b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 1).discard(E).replay())


def test_CHARLESTON_BAD_PASS_triggers_count() -> None:
    b = AmHand().charleston_pass(E, 1, "1m 2m")  # 2 tiles
    b.charleston_pass(S, 1).charleston_pass(W, 1).charleston_pass(N, 1)
    r = b.replay()
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=E, index=0)
    assert not r.corrupt


def test_CHARLESTON_BAD_PASS_triggers_order() -> None:
    """Pass 2 skipped: the pass-3 parts are out of order (the first is E's, #4)."""
    b = AmHand().pass_round(1).pass_round(3)
    r = b.replay()
    found = with_code(r, "CHARLESTON_BAD_PASS")
    assert found, r.findings
    assert all(f.cls is VIOL for f in found)
    first = min(found, key=lambda f: f.event_index or 0)
    assert (first.event_index, first.seat) == (4, E)


def test_CHARLESTON_BAD_PASS_triggers_blind_outside_3_and_6() -> None:
    b = AmHand().charleston_pass(S, 1).charleston_pass(W, 1).charleston_pass(N, 1)
    b.charleston_pass(E, 1, blind=1)  # E forwards one of N's tiles in pass 1
    b.pass_round(2).pass_round(3)
    r = b.replay()
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=E, index=3)


def test_CHARLESTON_BAD_PASS_clean() -> None:
    b = AmHand().first_charleston().second_charleston()
    clean(b.courtesy_pass(S, N, 3).courtesy_pass(N, S, 3).discard(E).replay())


def test_CHARLESTON_BAD_PASS_blind_pass_passes_option() -> None:
    b = AmHand().charleston_pass(S, 1).charleston_pass(W, 1).charleston_pass(N, 1)
    b.charleston_pass(E, 1, blind=1).pass_round(2).pass_round(3)
    clean(b.replay({"blind_pass_passes": [1, 3, 6]}))
    # and blind in 3 is then a bad pass when 3 is not in the list
    b = AmHand().pass_round(1).pass_round(2).pass_round(3, blind={W: 2})
    r = b.replay({"blind_pass_passes": [6]})
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=W, index=10)


def test_SECOND_CHARLESTON_AFTER_STOP_triggers() -> None:
    b = AmHand().first_charleston().charleston_stop(N)
    stop = b.i
    b.second_charleston()
    r = b.replay()
    found = with_code(r, "SECOND_CHARLESTON_AFTER_STOP")
    assert found and all(f.cls is VIOL for f in found), r.findings
    assert {f.seat for f in found} == {E, S, W, N}  # all passers
    assert min(f.event_index for f in found) == stop + 1  # E's part of pass 4
    assert not r.corrupt


def test_SECOND_CHARLESTON_AFTER_STOP_clean() -> None:
    clean(AmHand().first_charleston().second_charleston().discard(E).replay())
    # a stop with no second Charleston after it
    clean(AmHand().first_charleston().charleston_stop(N).discard(E).replay())


def test_SECOND_CHARLESTON_option_never() -> None:
    """`second_charleston = never`: passes 4-6 break the option (reported as a finding)."""
    b = AmHand().first_charleston().second_charleston().discard(E)
    r = b.replay({"second_charleston": "never"})
    bad = [
        f for f in r.findings if f.code in ("SECOND_CHARLESTON_AFTER_STOP", "CHARLESTON_BAD_PASS")
    ]
    assert bad and all(f.cls is VIOL for f in bad), r.findings
    assert min(f.event_index for f in bad) == 12


def test_CHARLESTON_BAD_PASS_triggers_courtesy_partner_not_across() -> None:
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, S, 2).courtesy_pass(S, E, 2)  # neighbours, not across
    r = b.replay()
    found = with_code(r, "CHARLESTON_BAD_PASS")
    assert found and all(f.cls is VIOL for f in found)
    assert {(f.seat, f.event_index) for f in found} <= {(E, b.i - 1), (S, b.i)}
    assert min(f.event_index for f in found) == b.i - 1


def test_CHARLESTON_BAD_PASS_courtesy_partner_option() -> None:
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, S, 2).courtesy_pass(S, E, 2).discard(E)
    clean(b.replay({"courtesy_partner": "any_agreed"}))


def test_CHARLESTON_BAD_PASS_triggers_courtesy_count() -> None:
    """E asks 1, W asks 3: both must pass min = 1; W passes 3."""
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 3)
    r = b.replay()
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=W, index=b.i)


def test_CHARLESTON_BAD_PASS_clean_courtesy() -> None:
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 3, count=1)
    clean(b.discard(E).replay())
    # asking 0 passes nothing
    b = AmHand().first_charleston().charleston_stop(W)
    clean(b.courtesy_pass(S, N, 0).courtesy_pass(N, S, 2, "").discard(E).replay())


# --- #13-#18: draws and discards ------------------------------------------------------------


def test_WALL_MISMATCH_triggers() -> None:
    rec = _short().draw(W).discard(W).record(wall=True)
    k = next(k for k in range(DEAL + 5, 152) if rec["wall"][k] != rec["wall"][DEAL])
    rec["wall"][DEAL], rec["wall"][k] = rec["wall"][k], rec["wall"][DEAL]
    r = replay_rec(rec)  # S's draw (#1) is not the next wall tile
    at(r, "WALL_MISMATCH", HARD, seat={S, None}, index=1)
    stopped(r)


def test_WALL_MISMATCH_clean() -> None:
    clean(_short().draw(W).discard(W).replay(wall=True))


def test_DRAW_FROM_EMPTY_WALL_triggers() -> None:
    """99 wall draws after the deal (152 - 53); a 100th cannot come from the wall."""
    b = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL).draw(E)
    for wall in (False, True):
        r = b.replay(wall=wall)
        at(r, "DRAW_FROM_EMPTY_WALL", HARD, seat={E, None}, index=b.i)
        stopped(r)


def test_DRAW_FROM_EMPTY_WALL_clean() -> None:
    b = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL)
    clean(b.replay())
    clean(b.replay(wall=True))


def test_OUT_OF_TURN_triggers_draw() -> None:
    r = AmHand().discard(E).draw(W).discard(W).replay()  # S's turn
    some(r, "OUT_OF_TURN", VIOL, seat=W, index=1)
    assert not r.corrupt
    # after a call the caller holds the turn: S may not draw
    b = AmHand().hand(W, "5m5m").discard(E, "5m").pung(W, E, "5m").draw(S)
    some(b.replay(), "OUT_OF_TURN", VIOL, seat=S, index=b.i)


def test_OUT_OF_TURN_clean_draw() -> None:
    """Turns in between a call are skipped (§4.2): after W's call N draws."""
    b = AmHand().hand(W, "5m5m").discard(E, "5m").pung(W, E, "5m").discard(W)
    clean(b.draw(N).discard(N).draw(E).discard(E).replay())


def test_OUT_OF_TURN_triggers_discard() -> None:
    b = AmHand().discard(E).draw(S).discard(S).discard(W)  # W did not draw
    r = b.replay()
    some(r, "OUT_OF_TURN", VIOL, seat=W, index=b.i)
    dead_after(b, W)


def test_OUT_OF_TURN_clean_discard() -> None:
    clean(AmHand().discard(E).draw(S).discard(S).draw(W).discard(W).replay())


def test_TILE_NOT_IN_HAND_triggers_discard() -> None:
    b = AmHand(avoid="9p").hand(S, "", add=False).discard(E).draw(S, "1m").discard(S, "9p")
    r = b.replay()
    at(r, "TILE_NOT_IN_HAND", HARD, seat=S, index=b.i)
    stopped(r)


def test_TILE_NOT_IN_HAND_clean_discard() -> None:
    clean(AmHand().hand(S, "9p").discard(E).draw(S, "1m").discard(S, "9p").replay())


def test_WRONG_TILE_COUNT_triggers_discard() -> None:
    """§8.1: draw S 4p; discard S 4p; discard S 7m -> S has 12 tiles."""
    b = AmHand().hand(S, "7m").discard(E).draw(S, "4p").discard(S, "4p").discard(S, "7m")
    r = b.replay()
    some(r, "WRONG_TILE_COUNT", VIOL, seat=S, index=3)
    assert not r.corrupt


def test_WRONG_TILE_COUNT_clean_discard() -> None:
    clean(AmHand().hand(S, "7m").discard(E).draw(S, "4p").discard(S, "7m").replay())


# --- #19-#25: calls -------------------------------------------------------------------------


def test_TILE_NOT_IN_HAND_triggers_call() -> None:
    b = AmHand().hand(W, "5m5m", add=False).discard(E, "5m").pung(W, E, "5m", "5m J")
    r = b.replay()
    at(r, "TILE_NOT_IN_HAND", HARD, seat=W, index=1)
    stopped(r)


def test_TILE_NOT_IN_HAND_clean_call() -> None:
    b = AmHand().hand(W, "5m J").discard(E, "5m").pung(W, E, "5m", "5m J").discard(W)
    clean(b.replay())


def _late_call() -> AmHand:
    """§8.2: #4 discard W 6s; #5 draw N 2p; #6 pung E 6s from=W with=[6s,J]."""
    b = AmHand().hand(E, "6s J").discard(E).draw(S).discard(S).draw(W).discard(W, "6s")
    return b.draw(N, "2p").pung(E, W, "6s", "6s J")


def test_LATE_CALL_triggers() -> None:
    b = _late_call()
    r = b.replay()
    at(r, "LATE_CALL", VIOL, seat=E, index=6)
    assert not r.corrupt
    dead_after(b, E)


def test_LATE_CALL_triggers_not_latest_discard() -> None:
    """E calls W's 6s after S has called it and discarded: 6s is not the latest discard."""
    b = AmHand().hand(E, "6s J").hand(N, "6s 6s").discard(E).draw(S).discard(S)
    b.draw(W).discard(W, "6s").pung(N, W, "6s", "6s 6s").discard(N, "2p")
    b.pung(E, W, "6s", "6s J")
    r = b.replay()
    some(r, "LATE_CALL", VIOL, seat=E, index=b.i)


def test_LATE_CALL_triggers_win() -> None:
    """A Mahjong call of W's discard after N drew (A2's hand, W the discarder E's turn)."""
    b = AmHand()
    b.hand(W, "7m7m 7p7p7p 7s7s7s7s J N")
    b.discard(E).draw(S).discard(S, "7m").pung(W, S, "7m", "7m 7m").discard(W)
    b.draw(N).discard(N, "7p").kong(W, N, "7p", "7p 7p 7p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E, "N").draw(S).win(W, "N", E)
    r = b.replay()
    some(r, "LATE_CALL", VIOL, seat=W, index=b.i)
    assert r.winners == ()


def test_LATE_CALL_clean() -> None:
    b = AmHand().hand(E, "6s J").discard(E).draw(S).discard(S).draw(W).discard(W, "6s")
    b.pung(E, W, "6s", "6s J").discard(E).draw(S).discard(S)
    clean(b.replay())


def test_LATE_CALL_dead_hand_turns_are_skipped() -> None:
    """§8.1: after E's hand died at #6 its turns are skipped: S draws after N's discard."""
    b = _late_call().discard(N, "2p").draw(S).discard(S).draw(W).discard(W)
    r = b.replay()
    at(r, "LATE_CALL", VIOL, seat=E, index=6)
    no(r, "OUT_OF_TURN", "ACTION_BY_DEAD_HAND", "WRONG_TILE_COUNT")


def _to_last_discard(last: str) -> AmHand:
    """The wall is emptied: 99 draws after the deal, N's last draw is ``last``, discarded."""
    b = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL - 1)
    return b.draw(N, last).discard(N, last)


def test_LATE_CALL_triggers_last_discard_exposure() -> None:
    """§4.2: when the wall is empty the last discard may be called only for Mahjong."""
    b = _to_last_discard("9p").hand(E, "9p 9p").pung(E, N, "9p", "9p 9p")
    r = b.replay()
    at(r, "LATE_CALL", VIOL, seat=E, index=b.i)


def test_LATE_CALL_clean_last_discard_mahjong() -> None:
    b = _to_last_discard("S").hand(E, "N N N C C C S S F F F f2 g3")
    r = b.win(E, "S", N).replay()
    clean(r)
    assert (r.winners, r.discarder, r.fan) == ((E,), N, 80)


def test_LATE_CALL_last_discard_exposure_call_option() -> None:
    b = _to_last_discard("9p").hand(E, "9p 9p").pung(E, N, "9p", "9p 9p").discard(E)
    r = b.exhaustive_draw().replay({"last_discard_exposure_call": True})
    clean(r)
    assert r.ended_by == "exhaustive_draw"


def test_CALL_DISCARDED_JOKER_triggers() -> None:
    b = AmHand().hand(W, "J").hand(N, "5m 5m").discard(E).draw(S).discard(S)
    b.draw(W).discard(W, "J").pung(N, W, "J", "5m 5m")
    r = b.replay()
    at(r, "CALL_DISCARDED_JOKER", VIOL, seat=N, index=b.i)
    dead_after(b, N)


def test_CALL_DISCARDED_JOKER_triggers_win() -> None:
    b = AmHand().hand(N, "N N N C C C S S S F F F f2").hand(W, "J")
    b.discard(E).draw(S).discard(S).draw(W).discard(W, "J").win(N, "J", W)
    r = b.replay()
    some(r, "CALL_DISCARDED_JOKER", VIOL, seat=N, index=b.i)
    assert r.winners == ()


def test_CALL_DISCARDED_JOKER_clean() -> None:
    """Jokers from the hand may go into an exposure; only a discarded one cannot be called."""
    b = AmHand().hand(N, "5m J J").discard(E).draw(S).discard(S).draw(W).discard(W, "5m")
    clean(b.kong(N, W, "5m", "5m J J").discard(N).replay())


def test_ILLEGAL_EXPOSURE_triggers() -> None:
    # unlike tiles
    b = AmHand().hand(W, "5m 6m").discard(E, "5m").pung(W, E, "5m", "5m 6m")
    at(b.replay(), "ILLEGAL_EXPOSURE", VIOL, seat=W, index=1)
    # a kong of three tiles: the size does not match the type
    b = AmHand().hand(W, "5m 5m").discard(E, "5m").kong(W, E, "5m", "5m 5m")
    at(b.replay(), "ILLEGAL_EXPOSURE", VIOL, seat=W, index=1)
    # a quint of four
    b = AmHand().hand(W, "5m 5m J").discard(E, "5m").quint(W, E, "5m", "5m 5m J")
    r = b.replay()
    at(r, "ILLEGAL_EXPOSURE", VIOL, seat=W, index=1)
    assert not r.corrupt
    dead_after(b, W)


def test_ILLEGAL_EXPOSURE_clean() -> None:
    b = AmHand().hand(W, "5m 5m J J").discard(E, "5m").quint(W, E, "5m", "5m 5m J J")
    clean(b.discard(W).replay())
    b = AmHand().hand(W, "4p J J J J").discard(E, "4p").sextet(W, E, "4p", "4p J J J J")
    clean(b.discard(W).replay())
    # any flower counts as "flower": f1 f2 f3 is a group of identical tiles (YEAR-1's FFF)
    b = AmHand().hand(W, "f2 f3").discard(E, "f1").pung(W, E, "f1", "f2 f3")
    clean(b.discard(W).replay())


def test_CALL_FOR_SINGLE_OR_PAIR_triggers() -> None:
    b = AmHand().hand(W, "5m").discard(E, "5m").pung(W, E, "5m", "5m")
    r = b.replay()
    at(r, "CALL_FOR_SINGLE_OR_PAIR", VIOL, seat=W, index=1)
    dead_after(b, W)


def test_CALL_FOR_SINGLE_OR_PAIR_clean() -> None:
    """A pair may be called for Mahjong (A2: W calls N to complete its NN)."""
    clean(a2_like_on_discard().replay())


def test_CALL_PRIORITY_triggers_mahjong_beats_exposure() -> None:
    b = AmHand().hand(W, "5m5m").discard(E, "5m").announce_claim(S, "win", "5m")
    b.pung(W, E, "5m", "5m 5m")
    r = b.replay()
    at(r, "CALL_PRIORITY", VIOL, seat=W, index=b.i)
    no(r, "ACTION_BY_DEAD_HAND")
    b.discard(W).draw(N)  # finding only: the table's decision stands, W goes on
    no(b.replay(), "OUT_OF_TURN", "ACTION_BY_DEAD_HAND")


def test_CALL_PRIORITY_triggers_next_in_turn() -> None:
    """Two exposure claims: W is next in turn after E before N."""
    b = AmHand().hand(W, "5m5m").hand(N, "5m J").discard(E, "5m")
    b.announce_claim(W, "pung", "5m").pung(N, E, "5m", "5m J")
    at(b.replay(), "CALL_PRIORITY", VIOL, seat=N, index=b.i)


def test_CALL_PRIORITY_clean() -> None:
    b = AmHand().hand(W, "5m5m").hand(N, "5m J").discard(E, "5m")
    b.announce_claim(N, "pung", "5m").pung(W, E, "5m", "5m 5m").discard(W)
    clean(b.replay())


def test_DEAD_BY_EXPOSURE_triggers() -> None:
    """§8.1: 3m pung and N kong fit no X hand of the sample card: dead at the 2nd exposure."""
    b = AmHand().hand(E, "3m 3m N N N").discard(E).draw(S).discard(S).draw(W).discard(W)
    b.draw(N).discard(N, "3m").pung(E, N, "3m", "3m 3m").discard(E)
    b.draw(S).discard(S, "N").kong(E, S, "N", "N N N")
    r = b.replay()
    at(r, "DEAD_BY_EXPOSURE", VIOL, seat=E, index=b.i)
    dead_after(b, E)


def test_DEAD_BY_EXPOSURE_triggers_first_exposure() -> None:
    """No X hand of the sample card has a dragon pung."""
    b = AmHand().hand(S, "C C").discard(E, "C").pung(S, E, "C", "C C")
    at(b.replay(), "DEAD_BY_EXPOSURE", VIOL, seat=S, index=1)


def test_DEAD_BY_EXPOSURE_clean() -> None:
    """A 3p kong and a 1s pung fit YEAR-1 (3333(B) 111(C))."""
    b = AmHand().hand(S, "3p 3p J 1s 1s").discard(E, "3p").kong(S, E, "3p", "3p 3p J")
    b.discard(S).draw(W).discard(W).draw(N).discard(N, "1s").pung(S, N, "1s", "1s 1s")
    clean(b.discard(S).replay())


def test_A8_dead_hand_still_pays() -> None:
    """A8: E dead by exposure stops playing; W wins ODD-1 jokerless on N's discard, E pays V."""
    b = AmHand().hand(E, "3m 3m N N N").hand(W, "1p1p1p1p 3p3p3p3p 5s5s f1 f2 f3", exact=True)
    b.discard(E).draw(S).discard(S).draw(W, "9m").discard(W, "9m")
    b.draw(N).discard(N, "3m").pung(E, N, "3m", "3m 3m").discard(E)
    b.draw(S).discard(S, "N").kong(E, S, "N", "N N N")
    dead_at = b.i  # E's turns are skipped from now on: S plays next
    b.draw(S).discard(S).draw(W, "8m").discard(W, "8m").draw(N).discard(N, "5s")
    b.win(W, "5s", N)
    r = b.result([W], 50, ["ODD-1"], [-50, -50, 200, -100]).replay()
    at(r, "DEAD_BY_EXPOSURE", VIOL, seat=E, index=dead_at)
    assert r.winners == (W,) and r.fan == 50
    assert r.deltas == (-50, -50, 200, -100)
    no(r, "RESULT_MISMATCH", "OUT_OF_TURN", "ACTION_BY_DEAD_HAND")


# --- #26-#27: joker exchange --------------------------------------------------------------


def _s_exposes_7p() -> AmHand:
    """S has the exposure 7p 7p J (its exposure 0); then W draws."""
    b = AmHand().hand(S, "7p J").discard(E, "7p").pung(S, E, "7p", "7p J").discard(S)
    return b


def test_EXCHANGE_INVALID_triggers_no_such_exposure() -> None:
    b = _s_exposes_7p().hand(W, "7p").draw(W).joker_exchange(W, "7p", S, 1)
    r = b.replay()
    at(r, "EXCHANGE_INVALID", HARD, seat=W, index=b.i)
    stopped(r)
    b = _s_exposes_7p().hand(W, "7p").draw(W).joker_exchange(W, "7p", N, 0)
    at(b.replay(), "EXCHANGE_INVALID", HARD, seat=W, index=b.i)


def test_EXCHANGE_INVALID_triggers_no_joker() -> None:
    b = AmHand().hand(S, "7p 7p").hand(W, "7p").discard(E, "7p").pung(S, E, "7p", "7p 7p")
    b.discard(S).draw(W).joker_exchange(W, "7p", S, 0)
    at(b.replay(), "EXCHANGE_INVALID", HARD, seat=W, index=b.i)


def test_EXCHANGE_INVALID_triggers_tile_not_in_hand() -> None:
    b = _s_exposes_7p().hand(W, "", add=False).draw(W, "1m").joker_exchange(W, "7p", S, 0)
    at(b.replay(), "EXCHANGE_INVALID", HARD, seat=W, index=b.i)


def test_EXCHANGE_INVALID_clean() -> None:
    b = _s_exposes_7p().hand(W, "7p").draw(W).joker_exchange(W, "7p", S, 0).discard(W, "J")
    r = b.replay()
    clean(r)
    no(r, "JOKER_PASSED")


def test_BAD_JOKER_EXCHANGE_triggers_non_matching() -> None:
    """§8.2: W gives 7m for the joker of S's 7p 7p J."""
    b = _s_exposes_7p().hand(W, "7m").draw(W, "3m").joker_exchange(W, "7m", S, 0)
    r = b.replay()
    at(r, "BAD_JOKER_EXCHANGE", VIOL, seat=W, index=b.i)
    assert not r.corrupt
    dead_after(b, W)


def test_BAD_JOKER_EXCHANGE_triggers_out_of_turn() -> None:
    """N exchanges while it is W's turn."""
    b = _s_exposes_7p().hand(N, "7p").draw(W).joker_exchange(N, "7p", S, 0)
    r = b.replay()
    at(r, "BAD_JOKER_EXCHANGE", VIOL, seat=N, index=b.i)


def test_BAD_JOKER_EXCHANGE_clean() -> None:
    # on one's own turn after a draw (W), and after a call before discarding (N)
    b = _s_exposes_7p().hand(W, "7p").draw(W).joker_exchange(W, "7p", S, 0).discard(W, "J")
    clean(b.replay())
    b = _s_exposes_7p().hand(N, "7p 5s 5s").draw(W).discard(W, "5s")
    b.pung(N, W, "5s", "5s 5s").joker_exchange(N, "7p", S, 0).discard(N, "J")
    clean(b.replay())
    # with one's own exposure
    b = _s_exposes_7p().hand(S, "7p J 7p").draw(W).discard(W).draw(N).discard(N)
    b.draw(E).discard(E).draw(S).joker_exchange(S, "7p", S, 0).discard(S, "J")
    clean(b.replay())


def test_BAD_JOKER_EXCHANGE_clean_from_dead_hand() -> None:
    """§8.1: a dead hand's jokers may still be exchanged by others."""
    b = _late_call().discard(N, "2p").hand(S, "6s").draw(S).joker_exchange(S, "6s", E, 0)
    r = b.discard(S, "J").replay()
    at(r, "LATE_CALL", VIOL, seat=E, index=6)
    no(r, "BAD_JOKER_EXCHANGE", "EXCHANGE_INVALID", "ACTION_BY_DEAD_HAND")


# --- #28-#31: Mahjong -------------------------------------------------------------------------


def test_WIN_TILE_NOT_AVAILABLE_triggers_not_the_latest_discard() -> None:
    b = a2_like_on_discard()
    b.events[-1]["tile"] = "7s"  # E discarded N, not 7s
    r = b.replay()
    at(r, "WIN_TILE_NOT_AVAILABLE", HARD, seat=W, index=b.i)
    stopped(r)


def test_WIN_TILE_NOT_AVAILABLE_triggers_not_drawn() -> None:
    """A self-drawn win's tile is the tile drawn that turn (S drew 1m, names 3m)."""
    b = a1_year_self_drawn()
    b.events[-1]["tile"] = "3m"
    at(b.replay(), "WIN_TILE_NOT_AVAILABLE", HARD, seat=S, index=b.i)


def test_WIN_TILE_NOT_AVAILABLE_triggers_east_initial_after_charleston() -> None:
    """East's initial Mahjong only before pass 1."""
    b = AmHand().hand(E, "N N N C C C S S S F F F f2 g3", exact=True)
    b.charleston_pass(E, 1, "N C S").charleston_pass(S, 1).charleston_pass(W, 1)
    b.charleston_pass(N, 1).win(E, "F")
    at(b.replay(), "WIN_TILE_NOT_AVAILABLE", HARD, seat=E, index=b.i)


def test_WIN_TILE_NOT_AVAILABLE_clean() -> None:
    clean(a2_like_on_discard().replay())
    clean(a1_year_self_drawn().replay())
    clean(east_initial().replay())
    # A7: the drawn 9m was given away in a joker exchange; it stays the win's tile
    clean(a7_exchange_then_self_drawn().replay())


def test_east_initial_mahjong_option_off() -> None:
    """`east_initial_mahjong = false`: East's dealt hand is not a win."""
    r = east_initial().replay({"east_initial_mahjong": False})
    assert r.winners == ()
    bad = [f for f in r.findings if f.cls in SERIOUS and f.event_index == 0]
    assert bad and bad[0].seat == E, r.findings


def test_WRONG_TILE_COUNT_triggers_win() -> None:
    """W passed N only 2 tiles in pass 1, so N holds 12 and calls E's discard: T is 13."""
    b = AmHand().charleston_pass(E, 1).charleston_pass(S, 1).charleston_pass(W, 1, "1m 2m")
    b.charleston_pass(N, 1).pass_round(2).pass_round(3).discard(E, "9p").win(N, "9p", E)
    r = b.replay()
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=W, index=2)
    some(r, "WRONG_TILE_COUNT", VIOL, seat=N, index=b.i)
    assert r.winners == ()


def test_WRONG_TILE_COUNT_clean_win() -> None:
    r = a4_odd_jokerless().replay()
    clean(r)
    assert r.winners == (E,)


def test_MAHJONG_IN_ERROR_triggers() -> None:
    """A9: a joker in the pair N J: no card hand matches; S is dead, nobody pays."""
    b = a9_mahjong_in_error()
    r = b.replay()
    at(r, "MAHJONG_IN_ERROR", VIOL, seat=S, index=b.i)
    assert r.winners == ()
    assert not r.corrupt
    assert r.deltas in (None, (0, 0, 0, 0))
    assert r.ended_by != "win"


def test_MAHJONG_IN_ERROR_play_continues() -> None:
    """§8.1 [D]: play continues; S's turns are skipped (W draws next), S is dead."""
    b = a9_mahjong_in_error()
    win_at = b.i
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    r = b.replay()
    at(r, "MAHJONG_IN_ERROR", VIOL, seat=S, index=win_at)
    no(r, "OUT_OF_TURN", "EVENT_AFTER_END", "ACTION_BY_DEAD_HAND")
    b.draw(S)
    some(b.replay(), "ACTION_BY_DEAD_HAND", VIOL, seat=S, index=b.i)


def test_MAHJONG_IN_ERROR_clean() -> None:
    r = a1_year_self_drawn().replay()
    clean(r)
    assert (r.winners, r.fan, r.patterns) == ((S,), 25, (("YEAR-1", 25),))


CONCEALED_CARD = """\
format: mj-card/1
card_id: test-concealed-{n}
hands:
  - id: WIND-2
    category: winds_dragons
    concealed: true
    value: 40
    groups:
      - {{t: "N", n: 3}}
      - {{t: D.A, n: 3}}
      - {{t: S,   n: 3}}
      - {{t: D.B, n: 3}}
      - {{t: F,   n: 2}}
  - id: NPUNG-X
    category: winds
    concealed: false
    value: 20
    groups:
      - {{t: "N", n: 3}}
      - {{t: E,   n: 3}}
      - {{t: W,   n: 3}}
      - {{t: 1.A, n: 3}}
      - {{t: F,   n: 2}}
{extra}"""

SAME_AS_X = """\
  - id: WIND-2X
    category: winds_dragons
    concealed: false
    value: 20
    groups:
      - {t: "N", n: 3}
      - {t: D.A, n: 3}
      - {t: S,   n: 3}
      - {t: D.B, n: 3}
      - {t: F,   n: 2}
"""


def _concealed_call(card_id: str) -> AmHand:
    """S exposes N N N (fits NPUNG-X), then wins WIND-2's tiles on W's discard."""
    b = AmHand(card=card_id)
    b.hand(S, "N N C C C S S F F F f2 g3")
    b.discard(E, "N").pung(S, E, "N", "N N").discard(S)
    return b.draw(W).discard(W, "S").win(S, "S", W)


def test_CONCEALED_HAND_CALL_triggers(tmp_path: Path) -> None:
    """Only the concealed WIND-2 matches, but S has an exposure: also MAHJONG_IN_ERROR."""
    path = tmp_path / "c1.yaml"
    path.write_text(CONCEALED_CARD.format(n=1, extra=""))
    b = _concealed_call("test-concealed-1")
    r = b.replay({"card_file": str(path)})
    no(r, "DEAD_BY_EXPOSURE")
    at(r, "CONCEALED_HAND_CALL", VIOL, seat=S, index=b.i)
    some(r, "MAHJONG_IN_ERROR", VIOL, seat=S, index=b.i)
    assert r.winners == ()


def test_CONCEALED_HAND_CALL_triggers_x_hand_scores(tmp_path: Path) -> None:
    """WIND-2 cannot score (exposure) but the X hand WIND-2X matches and scores."""
    path = tmp_path / "c2.yaml"
    path.write_text(CONCEALED_CARD.format(n=2, extra=SAME_AS_X))
    b = _concealed_call("test-concealed-2")
    r = b.replay({"card_file": str(path)})
    at(r, "CONCEALED_HAND_CALL", VIOL, seat=S, index=b.i)
    no(r, "MAHJONG_IN_ERROR")
    assert r.winners == (S,)
    assert r.patterns[0][0] == "WIND-2X" and r.fan == 40  # 20, jokerless doubled


def test_CONCEALED_HAND_CALL_clean() -> None:
    """A5: a concealed hand may call its Mahjong tile."""
    r = a5_concealed_on_discard().replay()
    clean(r)
    assert r.patterns[0][0] == "WIND-2"


def test_ACTION_BY_DEAD_HAND_triggers_win() -> None:
    """#31: E's hand died by a late call; its later declaration is MAHJONG_IN_ERROR."""
    b = _late_call().discard(N, "2p").draw(S).discard(S).draw(W).discard(W).draw(N)
    b.discard(N).win(E, b.events[-1]["tile"], N)
    r = b.replay()
    dead_decl = [
        f
        for f in r.findings
        if f.code in ("ACTION_BY_DEAD_HAND", "MAHJONG_IN_ERROR") and f.event_index == b.i
    ]
    assert dead_decl and all(f.seat == E and f.cls is VIOL for f in dead_decl), r.findings
    assert r.winners == ()


def test_ACTION_BY_DEAD_HAND_clean_win() -> None:
    clean(a4_odd_jokerless().replay())


# --- #32-#33: dead hands --------------------------------------------------------------------


def _e_dead() -> AmHand:
    """E dead at #6 (late call); N discards 2p at #7; S draws at #8 (E skipped)."""
    return _late_call().discard(N, "2p").draw(S)


def test_ACTION_BY_DEAD_HAND_triggers() -> None:
    # a draw
    b = _e_dead().discard(S).draw(W).discard(W).draw(N).discard(N).draw(E)
    some(b.replay(), "ACTION_BY_DEAD_HAND", VIOL, seat=E, index=b.i)
    # a call
    b = _e_dead().hand(E, "6s J 4p 4p").discard(S, "4p").pung(E, S, "4p", "4p 4p")
    some(b.replay(), "ACTION_BY_DEAD_HAND", VIOL, seat=E, index=b.i)
    # an exchange, on what would have been its turn
    b = _e_dead().hand(S, "7p J").discard(S).draw(W).discard(W, "7p")
    b.pung(S, W, "7p", "7p J").discard(S).draw(W).discard(W).draw(N).discard(N)
    b.hand(E, "6s J 7p").joker_exchange(E, "7p", S, 0)
    some(b.replay(), "ACTION_BY_DEAD_HAND", VIOL, seat=E, index=b.i)


def test_ACTION_BY_DEAD_HAND_clean() -> None:
    """The live seats play on around the dead one; nobody acts for it."""
    b = _e_dead().discard(S).draw(W).discard(W).draw(N).discard(N).draw(S).discard(S)
    r = b.replay()
    at(r, "LATE_CALL", VIOL, seat=E, index=6)
    no(r, "ACTION_BY_DEAD_HAND", "OUT_OF_TURN")


def test_CALL_DEAD_INCORRECT_triggers() -> None:
    b = AmHand().discard(E).draw(S).discard(S).announce_dead(N, W)
    r = b.replay()
    at(r, "CALL_DEAD_INCORRECT", VIOL, seat=N, index=b.i)
    # finding only by default: N plays on
    b.draw(W).discard(W).draw(N).discard(N)
    no(b.replay(), "ACTION_BY_DEAD_HAND")


def test_CALL_DEAD_INCORRECT_wrong_dead_call_option() -> None:
    """`wrong_dead_call = caller_dead`: the wrong caller's hand dies."""
    b = AmHand().discard(E).draw(S).discard(S).announce_dead(N, W)
    at(b.replay({"wrong_dead_call": "caller_dead"}), "CALL_DEAD_INCORRECT", VIOL, seat=N, index=b.i)
    b.draw(W).discard(W).draw(N)
    some(
        b.replay({"wrong_dead_call": "caller_dead"}),
        "ACTION_BY_DEAD_HAND",
        VIOL,
        seat=N,
        index=b.i,
    )


def test_CALL_DEAD_INCORRECT_clean() -> None:
    """A correct dead call (§8.1): E's hand is dead by the late call."""
    b = _e_dead().announce_dead(S, E).discard(S)
    r = b.replay()
    no(r, "CALL_DEAD_INCORRECT")
    at(r, "LATE_CALL", VIOL, seat=E, index=6)


# --- #34-#36: the end of the hand and the result --------------------------------------------


def test_HAND_END_INVALID_triggers() -> None:
    b = AmHand().discard(E).turns(S, 10).exhaustive_draw()
    r = b.replay()
    at(r, "HAND_END_INVALID", HARD, seat=None, index=b.i)
    stopped(r)


def test_HAND_END_INVALID_clean() -> None:
    r = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL).exhaustive_draw().replay()
    clean(r)
    assert r.ended_by == "exhaustive_draw"
    assert r.deltas == (0, 0, 0, 0)


def _three_dead() -> AmHand:
    """S, W and N each discard twice after one draw (WRONG_TILE_COUNT): three dead hands."""
    b = AmHand().discard(E)
    for s in (S, W, N):
        b.draw(s).discard(s).discard(s)
    return b.exhaustive_draw()


def test_HAND_END_INVALID_clean_three_dead() -> None:
    r = _three_dead().replay()
    assert {f.seat for f in with_code(r, "WRONG_TILE_COUNT")} == {S, W, N}
    no(r, "HAND_END_INVALID")
    assert r.ended_by == "exhaustive_draw"


def test_HAND_END_INVALID_end_when_three_dead_option() -> None:
    b = _three_dead()
    r = b.replay({"end_when_three_dead": False})
    at(r, "HAND_END_INVALID", HARD, seat=None, index=b.i)


def test_EVENT_AFTER_END_triggers() -> None:
    b = a2_like_on_discard().discard(S)
    r = b.replay()
    at(r, "EVENT_AFTER_END", HARD, seat={S, None}, index=b.i)
    b = AmHand().discard(E).abandon().draw(S)
    at(b.replay(), "EVENT_AFTER_END", HARD, seat={S, None}, index=b.i)
    b = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL).exhaustive_draw().abandon()
    at(b.replay(), "EVENT_AFTER_END", HARD, seat=None, index=b.i)


def test_EVENT_AFTER_END_clean() -> None:
    """A Mahjong in error does not end the hand (A9), so play after it is no event after the end."""
    b = a9_mahjong_in_error().draw(W).discard(W)
    no(b.replay(), "EVENT_AFTER_END")
    r = AmHand().discard(E).draw(S).discard(S).abandon().replay()
    clean(r)
    assert r.ended_by == "abandon"


def test_RESULT_MISMATCH_triggers() -> None:
    b = a2_like_on_discard()
    last = b.i
    b.result([W], 35, ["LIKE-1"], [-35, -35, 105, -35])  # paid as self-drawn-ish: wrong
    r = b.replay()
    at(r, "RESULT_MISMATCH", AUDIT, seat=None, index={last, None})
    assert r.matches_recorded is False
    b.result([W], 70, ["LIKE-1"], [-70, -35, 140, -35])  # jokerless bonus with a joker
    at(b.replay(), "RESULT_MISMATCH", AUDIT, seat=None, index={last, None})
    b.result([W], 35, ["RUN-1"], [-70, -35, 140, -35])
    at(b.replay(), "RESULT_MISMATCH", AUDIT, seat=None, index={last, None})
    b.result([S], 35, ["LIKE-1"], [-70, -35, 140, -35])
    at(b.replay(), "RESULT_MISMATCH", AUDIT, seat=None, index={last, None})


def test_RESULT_MISMATCH_clean() -> None:
    for make in (a1_year_self_drawn, a2_like_on_discard, a4_odd_jokerless):
        r = make().replay()
        no(r, "RESULT_MISMATCH")
        assert r.matches_recorded is True
    r = AmHand().discard(E).turns(S, LIVE_AFTER_DEAL).exhaustive_draw()
    r = r.result([], deltas=[0, 0, 0, 0]).replay()
    clean(r)
    assert r.matches_recorded is True


def test_RESULT_MISMATCH_jokerless_doubles_option() -> None:
    """A4 with `jokerless_doubles = false` is worth 25, not 50."""
    b = a4_odd_jokerless()
    r = b.replay({"jokerless_doubles": False})
    assert r.fan == 25
    assert r.deltas == (100, -50, -25, -25)
    at(r, "RESULT_MISMATCH", AUDIT, seat=None, index={b.i, None})
    clean(b.result([E], 25, ["ODD-1"], [100, -50, -25, -25]).replay({"jokerless_doubles": False}))


def test_CLAIMED_HAND_DIFFERS_info() -> None:
    b = a2_like_on_discard()
    b.events[-1]["claim"] = {"hand": "RUN-1"}
    r = b.replay()
    at(r, "CLAIMED_HAND_DIFFERS", INFO, seat={W, None}, index=b.i)
    clean(r)
    b.events[-1]["claim"] = {"hand": "LIKE-1"}
    no(b.replay(), "CLAIMED_HAND_DIFFERS")


def test_PARTIAL_INFORMATION_info() -> None:
    rec = _short().record()
    del rec["start_hands"]
    r = replay_rec(rec)
    at(r, "PARTIAL_INFORMATION", INFO, seat=None, index=None)
    clean(r)
    no(_short().replay(), "PARTIAL_INFORMATION")


def test_records_validate_through_the_schema() -> None:
    """Every event kind of §9.1 the builder writes passes schemas.records.parse_record."""
    from mjaudit.parts.schemas.records import parse_record

    blind = AmHand().pass_round(1).pass_round(2).pass_round(3, blind={S: 2})
    for b in (a7_exchange_then_self_drawn(charleston=True), blind, a1_year_self_drawn()):
        rec = b.record(validate=False)
        assert parse_record(msgspec.json.encode(rec)).record == canonical(rec)
    kinds = {ev["type"] for ev in a7_exchange_then_self_drawn(charleston=True).record()["events"]}
    assert {"charleston_pass", "charleston_stop", "courtesy_pass", "joker_exchange"} <= kinds
    tiles = blind.record()["events"][9]["tiles"]
    assert tiles[:2] == [{"tile": t["tile"], "blind": True} for t in tiles[:2]]


# --- more of §5.3 / §7 / §8 through the checks above ------------------------------------------


def a3_pairs_self_drawn() -> AmHand:
    """A3: N wins PAIRS-1 self-drawn; no joker but no group of 3+: no bonus, V = 50."""
    b = AmHand().hand(N, "N N S S E E 1m 9m 1p 9p 1s f3 g4", exact=True)
    b.discard(E).draw(S).discard(S).draw(W).discard(W).draw(N, "9s").win(N, "9s")
    return b.result([N], 50, ["PAIRS-1"], [-100, -100, -100, 300])


def a6_sextet_self_drawn() -> AmHand:
    """A6: W wins SEXTET-1 self-drawn on a drawn joker, V = 60."""
    b = AmHand().hand(W, "E E J W W W 4p4p4p4p J")
    b.discard(E).draw(S).discard(S, "W").kong(W, S, "W", "W W W").discard(W)
    b.draw(N).discard(N, "E").kong(W, N, "E", "E E J").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S).draw(W, "J").win(W, "J")
    return b.result([W], 60, ["SEXTET-1"], [-120, -120, 360, -120])


@pytest.mark.parametrize("make", [a3_pairs_self_drawn, a6_sextet_self_drawn])
def test_worked_examples_a3_a6_are_clean(make: Any) -> None:
    b = make()
    r = b.replay()
    clean(r)
    assert (r.winners, r.fan) == (tuple(b.res["winners"]), b.res["fan"])
    assert r.deltas == tuple(b.res["deltas"])


@pytest.mark.parametrize("dealer", [1, 2, 3])
def test_a2_with_another_dealer(dealer: int) -> None:
    """The same hand with East at another seat: winds, turns and payments move with it."""

    def at_(k: int) -> int:
        return (dealer + k) % 4

    b = AmHand(dealer=dealer)
    b.hand(at_(2), "7m7m 7p7p7p 7s7s7s7s J N")
    b.discard(at_(0)).draw(at_(1)).discard(at_(1), "7m").pung(at_(2), at_(1), "7m", "7m 7m")
    b.discard(at_(2)).draw(at_(3)).discard(at_(3), "7p").kong(at_(2), at_(3), "7p", "7p 7p 7p")
    b.discard(at_(2)).draw(at_(3)).discard(at_(3)).draw(at_(0)).discard(at_(0), "N")
    b.win(at_(2), "N", at_(0))
    deltas = [0.0] * 4
    for k, d in enumerate([-70, -35, 140, -35]):
        deltas[at_(k)] = d
    r = b.result([at_(2)], 35, ["LIKE-1"], deltas).replay(wall=True)
    clean(r)
    assert r.deltas == tuple(deltas)


def test_MAHJONG_IN_ERROR_triggers_exposure_cannot_grow() -> None:
    """§5.3 rule 3: W's exposed 7p pung cannot become LIKE-1's 7p kong with a 7p in hand."""
    b = AmHand().hand(W, "7p7p 7p 7m7m7m 7s7s7s7s J N")
    b.discard(E, "7p").pung(W, E, "7p", "7p 7p").discard(W)
    b.draw(N).discard(N, "N").win(W, "N", N)
    r = b.replay()
    no(r, "DEAD_BY_EXPOSURE")
    at(r, "MAHJONG_IN_ERROR", VIOL, seat=W, index=b.i)
    assert r.winners == ()


def test_MAHJONG_IN_ERROR_clean_exposure_fits() -> None:
    """The same exposure as LIKE-1's pung: 7p pung (A), 7m kong (B), 7s quint (C), NN."""
    b = AmHand().hand(W, "7p7p 7m7m7m7m 7s7s7s7s J N")
    b.discard(E, "7p").pung(W, E, "7p", "7p 7p").discard(W)
    b.draw(N).discard(N, "N").win(W, "N", N)
    r = b.result([W], 35, ["LIKE-1"], [-35, -35, 140, -70]).replay()
    clean(r)
    assert r.deltas == (-35, -35, 140, -70)


def test_CALL_PRIORITY_triggers_two_mahjong_claims() -> None:
    """S (next after E) claimed Mahjong too; W's Mahjong was executed instead."""
    b = AmHand().hand(W, "N N N C C C S S F F F f2 g3", exact=True)
    b.discard(E, "S").announce_claim(S, "win", "S").win(W, "S", E)
    r = b.replay()
    at(r, "CALL_PRIORITY", VIOL, seat=W, index=b.i)
    assert r.winners == (W,)  # finding only: the table's decision stands


def test_CALL_PRIORITY_clean_mahjong_beats_exposure() -> None:
    b = AmHand().hand(W, "N N N C C C S S F F F f2 g3", exact=True).hand(S, "S J")
    b.discard(E, "S").announce_claim(S, "pung", "S").win(W, "S", E)
    r = b.replay()
    clean(r)
    assert r.winners == (W,)


def test_UNKNOWN_TILE_triggers_in_with() -> None:
    rec = AmHand().hand(W, "5m 5m").discard(E, "5m").pung(W, E, "5m").record(validate=False)
    rec["events"][1]["with"] = ["5m", "Q"]
    r = replay_rec(rec, validate=False)
    at(r, "UNKNOWN_TILE", HARD, seat={W, None}, index=1)


def test_RECORD_INVALID_triggers_format() -> None:
    rec = _short().record()
    rec["format"] = "mjlog/2"
    r = replay_rec(rec, validate=False)
    at(r, "RECORD_INVALID", HARD, seat=None, index=None)


def test_DEAL_INVALID_triggers_first_draw_after_charleston() -> None:
    """§9.1: East's 14th may be the first draw only as event 0, before any Charleston event."""
    b = AmHand().draw(E, "9s").first_charleston().discard(E)
    rec = b.record()
    rec["events"].insert(12, rec["events"].pop(0))
    r = replay_rec(rec)
    at(r, "DEAL_INVALID", HARD, seat={E, None}, index=None)


def test_mahjong_in_error_payment_option() -> None:
    """§8.1 [D]: by default nobody pays for a Mahjong in error; with {each: 10} S pays."""
    b = a9_mahjong_in_error()
    error_at = b.i
    b.turns(W, LIVE_AFTER_DEAL - b.draws, skip=(S,)).exhaustive_draw()
    r = b.replay()
    at(r, "MAHJONG_IN_ERROR", VIOL, seat=S, index=error_at)
    no(r, "OUT_OF_TURN", "ACTION_BY_DEAD_HAND", "HAND_END_INVALID")
    assert (r.ended_by, r.deltas) == ("exhaustive_draw", (0, 0, 0, 0))
    r = b.replay({"mahjong_in_error_payment": {"each": 10}})
    assert r.deltas == (10, -30, 10, 10)


def test_point_value_option() -> None:
    b = a2_like_on_discard().result([W], 35, ["LIKE-1"], [-140, -70, 280, -70])
    r = b.replay({"point_value": 2})
    assert r.deltas == (-140, -70, 280, -70)
    no(r, "RESULT_MISMATCH")


def test_MAHJONG_IN_ERROR_on_a_discard_play_continues() -> None:
    """§8.1: S's Mahjong in error on E's discard kills S's hand and play continues; S's
    turns are skipped, so W (the next live player after E) draws."""
    b = AmHand().discard(E, "9p").win(S, "9p", E)
    error_at = b.i
    b.draw(W).discard(W).draw(N).discard(N)
    r = b.replay()
    at(r, "MAHJONG_IN_ERROR", VIOL, seat=S, index=error_at)
    no(r, "OUT_OF_TURN", "ACTION_BY_DEAD_HAND", "WRONG_TILE_COUNT")


def test_LATE_CALL_triggers_win_after_another_call() -> None:
    """§4.2: a discard may be called only before another call is executed."""
    b = AmHand().hand(W, "5m5m").hand(S, "N N N C C C S S F F F f2 g3", exact=True)
    b.discard(E, "5m").pung(W, E, "5m").win(S, "5m", E)
    some(b.replay(), "LATE_CALL", VIOL, seat=S, index=b.i)


def test_CHARLESTON_BAD_PASS_triggers_after_play_began() -> None:
    b = AmHand().discard(E).pass_round(1)
    r = b.replay()
    found = with_code(r, "CHARLESTON_BAD_PASS")
    assert found and all(f.cls is VIOL for f in found), r.findings
    assert min(f.event_index for f in found) == 1
    assert {f.seat for f in found} <= {E, S, W, N}


def test_CHARLESTON_BAD_PASS_triggers_missing_part() -> None:
    """§3: each pass moves 3 tiles from every player; N has no part in pass 1."""
    b = AmHand().charleston_pass(E, 1).charleston_pass(S, 1).charleston_pass(W, 1)
    r = b.pass_round(2).replay()
    some(r, "CHARLESTON_BAD_PASS", VIOL, seat=N, index=3)


def _s_two_exposures() -> AmHand:
    """S exposes 3p 3p 3p 3p (exposure 0) and 1s 1s J (exposure 1): YEAR-1 still fits."""
    b = AmHand().hand(S, "3p 3p 3p 1s J").hand(N, "1s")
    b.discard(E, "3p").kong(S, E, "3p", "3p 3p 3p").discard(S)
    b.draw(W).discard(W, "1s").pung(S, W, "1s", "1s J").discard(S)
    return b.draw(W).discard(W).draw(N)


def test_EXCHANGE_INVALID_clean_second_exposure() -> None:
    """Exposures are numbered 0, 1, ... in the order made (§9.1)."""
    b = _s_two_exposures().joker_exchange(N, "1s", S, 1).discard(N, "J")
    clean(b.replay())


def test_EXCHANGE_INVALID_triggers_exposure_without_joker() -> None:
    b = _s_two_exposures().joker_exchange(N, "1s", S, 0)  # exposure 0 is 3p x4, no joker
    at(b.replay(), "EXCHANGE_INVALID", HARD, seat=N, index=b.i)


def test_BAD_JOKER_EXCHANGE_clean_flower_exposure() -> None:
    """§4.3: any flower counts as "flower", so g1 (or an FL) replaces the J of f1 f2 J."""
    for flower in ("g1", "FL"):
        b = AmHand().hand(S, "f2 J").hand(W, flower).discard(E, "f1")
        b.pung(S, E, "f1", "f2 J").discard(S).draw(W).joker_exchange(W, flower, S, 0)
        clean(b.discard(W, "J").replay())


def test_BAD_JOKER_EXCHANGE_triggers_before_drawing() -> None:
    """§4.4: on one's own turn after a draw (or a call): W exchanges before drawing."""
    b = _s_exposes_7p().hand(W, "7p").joker_exchange(W, "7p", S, 0)
    at(b.replay(), "BAD_JOKER_EXCHANGE", VIOL, seat=W, index=b.i)


def test_CHARLESTON_BAD_PASS_triggers_courtesy_partners_disagree() -> None:
    """E names W, but W names S (not across, and not E)."""
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 2).courtesy_pass(W, S, 2)
    some(b.replay(), "CHARLESTON_BAD_PASS", VIOL, seat=W, index=b.i)


# --- a dead hand's turn is skipped however it died (§8.1) --------------------------------------


def test_BAD_JOKER_EXCHANGE_dead_before_its_draw_turn_passes() -> None:
    """W dies by exchanging before drawing; its turn is skipped, so N draws next (§8.1)."""
    b = _s_exposes_7p().hand(W, "7p").joker_exchange(W, "7p", S, 0)
    died = b.i
    b.draw(N).discard(N).draw(E).discard(E)
    r = b.replay()
    at(r, "BAD_JOKER_EXCHANGE", VIOL, seat=W, index=died)
    no(r, "OUT_OF_TURN", "ACTION_BY_DEAD_HAND")


def test_CALL_DEAD_INCORRECT_caller_dead_turn_passes() -> None:
    """With wrong_dead_call = caller_dead, S (next to draw after E) dies; W draws next."""
    b = AmHand().discard(E).announce_dead(S, W)
    died = b.i
    b.draw(W).discard(W).draw(N).discard(N)
    r = b.replay({"wrong_dead_call": "caller_dead"})
    at(r, "CALL_DEAD_INCORRECT", VIOL, seat=S, index=died)
    no(r, "OUT_OF_TURN", "ACTION_BY_DEAD_HAND")


def test_OUT_OF_TURN_discard_then_next_player_draws() -> None:
    """W discards instead of drawing (dead); N, next after the last discard, draws (#15)."""
    b = AmHand().discard(E).draw(S).discard(S).discard(W)
    died = b.i
    b.draw(N).discard(N)
    r = b.replay()
    at(r, "OUT_OF_TURN", VIOL, seat=W, index=died)
    no(r, "ACTION_BY_DEAD_HAND")
    assert [f.seat for f in with_code(r, "OUT_OF_TURN")] == [W]


def test_WALL_MISMATCH_clean_wall_only_east_draws_first() -> None:
    """§9.1: with a wall and no start_hands the deal is the wall's; East's 14th may still
    be recorded as the first draw (event 0), and it is a tile of the deal (#6)."""
    b = AmHand().draw(E).discard(E).draw(S).discard(S)
    rec = b.record(wall=True)
    del rec["start_hands"]
    r = replay_rec(rec)
    clean(r)


def test_RESULT_MISMATCH_triggers_penalties() -> None:
    """The recorded penalty names W, but S made the Mahjong in error (option payment)."""
    b = a9_mahjong_in_error()
    b.turns(W, LIVE_AFTER_DEAL - b.draws, skip=(S,)).exhaustive_draw()
    opts = {"mahjong_in_error_payment": {"each": 10}}
    pen = {"code": "MAHJONG_IN_ERROR", "deltas": [10, -30, 10, 10]}
    b.result([], deltas=[10, -30, 10, 10], penalties=[{**pen, "seat": W}])
    at(b.replay(opts), "RESULT_MISMATCH", AUDIT, seat=None, index={b.i, None})
    b.result([], deltas=[10, -30, 10, 10], penalties=[{**pen, "seat": S}])
    r = b.replay(opts)
    no(r, "RESULT_MISMATCH")
    assert r.matches_recorded is True


def _two_kongs(first: str, second: str) -> AmHand:
    """S kongs ``first`` from E and ``second`` from W, each with three jokers."""
    b = AmHand().hand(S, "J J J J J J")
    b.discard(E, first).kong(S, E, first, "J J J").discard(S)
    b.draw(W).discard(W, second).kong(S, W, second, "J J J")
    return b


def test_DEAD_BY_EXPOSURE_triggers_constraint() -> None:
    """5p and 5p kongs: ODD-1 would need x < y; no other X hand has two number kongs."""
    b = _two_kongs("5p", "5p")
    at(b.replay(), "DEAD_BY_EXPOSURE", VIOL, seat=S, index=b.i)


def test_DEAD_BY_EXPOSURE_clean_constraint() -> None:
    """5p and 7p kongs fit ODD-1 (x = 5 < y = 7, suit A = dots)."""
    b = _two_kongs("5p", "7p")
    r = b.discard(S).replay()
    clean(r)


def test_DEAD_BY_EXPOSURE_triggers_odd_numbers() -> None:
    """6p kong + 3m pung: ODD-1 needs odd numbers, LIKE-1 one number, YEAR-1 3333 + 111."""
    b = AmHand().hand(S, "6p J J 3m 3m").discard(E, "6p").kong(S, E, "6p", "6p J J").discard(S)
    b.draw(W).discard(W, "3m").pung(S, W, "3m", "3m 3m")
    at(b.replay(), "DEAD_BY_EXPOSURE", VIOL, seat=S, index=b.i)


def test_DEAD_BY_EXPOSURE_clean_odd_numbers() -> None:
    """5p kong + 3m pung fit ODD-1: yyyy(A) = 5p with x < 5, zzz(B) = 3m."""
    b = AmHand().hand(S, "5p J J 3m 3m").discard(E, "5p").kong(S, E, "5p", "5p J J").discard(S)
    b.draw(W).discard(W, "3m").pung(S, W, "3m", "3m 3m").discard(S)
    clean(b.replay())


def test_east_initial_mahjong_clean_dealt_13_and_first_draw() -> None:
    """§9.1: East's 14th tile as the first draw still makes an initial Mahjong (§7.2)."""
    b = AmHand().hand(E, "N N N C C C S S S F F F f2", exact=True).draw(E, "g3").win(E, "g3")
    r = b.result([E], 80, ["WIND-2"], [480, -160, -160, -160]).replay(wall=True)
    clean(r)
    assert r.deltas == (480, -160, -160, -160)


def test_BAD_JOKER_EXCHANGE_clean_two_exchanges_in_one_turn() -> None:
    """§4.4: any number of exchanges: N takes both jokers of S's 7p J J."""
    b = AmHand().hand(S, "7p J J").hand(N, "7p 7p").discard(E, "7p").pung(S, E, "7p", "J J")
    b.discard(S).draw(W).discard(W).draw(N)
    b.joker_exchange(N, "7p", S, 0).joker_exchange(N, "7p", S, 0).discard(N, "J")
    clean(b.replay())


# --- §5.5 / §7.1: which hand scores (a custom card of three hands with the same groups) -------

VALUE_CARD = """\
format: mj-card/1
card_id: test-values-1
hands:
  - id: H-LOW
    category: winds
    concealed: false
    value: 25
    groups: [{t: "N", n: 3}, {t: E, n: 3}, {t: W, n: 3}, {t: S, n: 3}, {t: F, n: 2}]
  - id: H-HIGH
    category: winds
    concealed: false
    value: 30
    jokerless_bonus: false
    groups: [{t: "N", n: 3}, {t: E, n: 3}, {t: W, n: 3}, {t: S, n: 3}, {t: F, n: 2}]
  - id: H-TIE
    category: winds
    concealed: false
    value: 25
    groups: [{t: "N", n: 3}, {t: E, n: 3}, {t: W, n: 3}, {t: S, n: 3}, {t: F, n: 2}]
"""


@pytest.mark.parametrize(
    ("concealed", "hand", "value"),
    [
        # jokerless: H-LOW and H-TIE are doubled to 50 > 30; the tie goes to the first listed
        ("N N N E E E W W W S S S f1", "H-LOW", 50),
        # a joker: no bonus, H-HIGH's 30 > 25
        ("N N N E E E W W J S S S f1", "H-HIGH", 30),
    ],
)
def test_scoring_hand_is_the_largest_final_value(
    tmp_path: Path, concealed: str, hand: str, value: int
) -> None:
    path = tmp_path / "values.yaml"
    path.write_text(VALUE_CARD)
    b = AmHand(card="test-values-1").hand(S, concealed, exact=True)
    b.discard(E).draw(S, "f2").win(S, "f2")
    b.result([S], value, [hand], [-2 * value, 6 * value, -2 * value, -2 * value])
    r = b.replay({"card_file": str(path)})
    clean(r)
    assert (r.fan, r.patterns) == (value, ((hand, value),))


def test_jokerless_bonus_doubles_year_1() -> None:
    """A1 without jokers (natural 3p kong, f3 for the joker of FFF): V = 25 x 2 = 50."""
    b = AmHand()
    b.hand(S, "3p3p3p 1s1s f1 f2 f3 2m P 3m")
    b.discard(E, "3p").kong(S, E, "3p", "3p 3p 3p").discard(S)
    b.draw(W).discard(W)
    b.draw(N).discard(N, "1s").pung(S, N, "1s", "1s 1s").discard(S)
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.draw(S, "1m").win(S, "1m")
    r = b.result([S], 50, ["YEAR-1"], [-100, 300, -100, -100]).replay()
    clean(r)
    assert r.fan == 50


def test_CHARLESTON_BAD_PASS_clean_courtesy_pairs_one_after_the_other() -> None:
    """§3: both across pairs may exchange; the second pair's parts may follow the first's."""
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 1).courtesy_pass(S, N, 2).courtesy_pass(N, S, 2)
    clean(b.discard(E).replay())


def test_CHARLESTON_BAD_PASS_triggers_second_courtesy_pass_by_the_same_pair() -> None:
    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 1).courtesy_pass(E, W, 1)
    r = b.replay()
    at(r, "CHARLESTON_BAD_PASS", VIOL, seat=E, index=b.i)
