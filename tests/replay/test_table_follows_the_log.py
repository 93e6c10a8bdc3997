"""§0 of every ruleset: "After an out-of-turn action the table follows the log."

hk-classic.md and hk-mahjongo.md §0 (line 91), vn-160.md §0 (line 44), american.md §0
(line 38): the out-of-turn ``draw`` or ``discard`` is flagged once, against the player who
made it, with its consequence (a dead hand, mất ù, a short hand); the entitled player whose
turn it was is not penalised; players who then act in the order the recorded actions imply
(the player after the one who actually discarded draws next) are never flagged for it.

Each scenario runs for every ruleset (the test id names it). Seats: the dealer is seat 0
(East); E discards first, so S is entitled to draw and W's draw or discard is out of turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from american_builder import AmHand
from logbuilder import INFO, VIOL, Hand, serious
from mjaudit.parts.replay.engine.findings import Finding, HandReport
from mjaudit.parts.replay.rulesets.hk.replayer import replay_hk

E, S, W, N = 0, 1, 2, 3


@dataclass(frozen=True)
class Ruleset:
    name: str
    new: Callable[[], Any]  # a fresh builder (Hand or AmHand)
    draw_code: str  # the finding of an out-of-turn draw
    discard_code: str  # ... and of an out-of-turn discard
    lost: str  # the INFO finding of the offender's consequence (dead hand / mất ù)
    short: str  # the size finding an out-of-turn discard brings (one tile short)
    after_s: int  # who draws after S's discard once W is out of turn (a dead hand is skipped)

    @property
    def codes(self) -> tuple[str, ...]:
        return (self.draw_code, self.discard_code)


RULESETS = [
    Ruleset(
        "hk-classic",
        lambda: Hand("hk-classic"),
        "DRAW_OUT_OF_TURN",
        "DISCARD_OUT_OF_TURN",
        "DEAD_HAND",
        "SHORT_HAND",
        W,
    ),
    Ruleset(
        "hk-mahjongo",
        lambda: Hand("hk-mahjongo"),
        "DRAW_OUT_OF_TURN",
        "DISCARD_OUT_OF_TURN",
        "DEAD_HAND",
        "SHORT_HAND",
        W,
    ),
    Ruleset(
        "vn-160", lambda: Hand("vn-160"), "OUT_OF_TURN", "OUT_OF_TURN", "MAT_U", "SHORT_HAND", W
    ),
    # american §8.1: a dead hand stops playing, its turns are skipped: N draws after S
    Ruleset("american", AmHand, "OUT_OF_TURN", "OUT_OF_TURN", "DEAD_HAND", "WRONG_TILE_COUNT", N),
]
MAHJONG = [r for r in RULESETS if r.name != "american"]


def by_ruleset(rulesets: list[Ruleset]) -> Any:
    return pytest.mark.parametrize("rs", rulesets, ids=[r.name for r in rulesets])


def out_of_turn(rs: Ruleset, r: HandReport) -> list[Finding]:
    return [f for f in r.findings if f.code in rs.codes]


def one(f: list[Finding], code: str, *, seat: int, index: int) -> None:
    """Exactly one finding in ``f``: ``code``, a PLAYER_VIOLATION on ``seat`` at ``index``."""
    assert len(f) == 1, f
    assert (f[0].code, f[0].cls, f[0].seat, f[0].event_index) == (code, VIOL, seat, index), f[0]
    assert f[0].message


def flagged_once(rs: Ruleset, r: HandReport, code: str, *, index: int, short: bool = False) -> None:
    """W's out-of-turn action is the one out-of-turn finding; its consequence falls on W
    alone at the same event (and a short hand after an out-of-turn discard); nobody else
    has any violation."""
    one(out_of_turn(rs, r), code, seat=W, index=index)
    lost = [f for f in r.findings if f.code == rs.lost]
    assert [(f.cls, f.seat, f.event_index) for f in lost] == [(INFO, W, index)], lost
    expected = {(code, W, index)} | ({(rs.short, W, index)} if short else set())
    assert {(f.code, f.seat, f.event_index) for f in serious(r)} == expected, serious(r)
    assert len(serious(r)) == len(expected), serious(r)
    assert not r.corrupt


def same_fast_and_stepped(rs: Ruleset, b: Any) -> None:
    """HK: the inline path of ``HKHand.run`` falls back to ``step`` in the new state."""
    if rs.name.startswith("hk"):
        rec = b.record()
        assert replay_hk(rec, None, None) == replay_hk(
            rec, None, None, observer=lambda i, hand: None
        )


# --- an out-of-turn draw -------------------------------------------------------------------


@by_ruleset(RULESETS)
def test_out_of_turn_draw_flagged_once_when_the_offender_continues(rs: Ruleset) -> None:
    """W draws in S's turn and discards; N (after W) and E then play on: only W's draw."""
    b = rs.new().discard(E).draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    b.abandon()
    flagged_once(rs, b.replay(), rs.draw_code, index=1)
    same_fast_and_stepped(rs, b)


@by_ruleset(RULESETS)
def test_out_of_turn_draw_flagged_once_when_the_entitled_player_continues(rs: Ruleset) -> None:
    """W draws in S's turn and discards; S then takes its turn, and the table goes on."""
    b = rs.new().discard(E).draw(W).discard(W).draw(S).discard(S)
    b.draw(rs.after_s).discard(rs.after_s).abandon()
    flagged_once(rs, b.replay(), rs.draw_code, index=1)
    same_fast_and_stepped(rs, b)


@by_ruleset(RULESETS)
def test_out_of_turn_draw_entitled_player_draws_before_the_offender_discards(
    rs: Ruleset,
) -> None:
    """W draws in S's turn; S draws anyway and discards: S was entitled, only W is flagged."""
    b = rs.new().discard(E).draw(W).draw(S).discard(S).abandon()
    flagged_once(rs, b.replay(), rs.draw_code, index=1)
    same_fast_and_stepped(rs, b)


# --- an out-of-turn discard ----------------------------------------------------------------


@by_ruleset(RULESETS)
def test_out_of_turn_discard_flagged_once_when_the_next_seat_draws(rs: Ruleset) -> None:
    """W discards in S's turn; N (after W, the one who actually discarded) draws next."""
    b = rs.new().discard(E).discard(W).draw(N).discard(N).draw(E).discard(E).abandon()
    flagged_once(rs, b.replay(), rs.discard_code, index=1, short=True)
    same_fast_and_stepped(rs, b)


@by_ruleset(RULESETS)
def test_out_of_turn_discard_flagged_once_when_the_entitled_player_draws(rs: Ruleset) -> None:
    """W discards in S's turn; S takes its turn all the same, and the table goes on."""
    b = rs.new().discard(E).discard(W).draw(S).discard(S)
    b.draw(rs.after_s).discard(rs.after_s).abandon()
    flagged_once(rs, b.replay(), rs.discard_code, index=1, short=True)
    same_fast_and_stepped(rs, b)


@by_ruleset(RULESETS)
def test_out_of_turn_discard_can_be_called(rs: Ruleset) -> None:
    """W's out-of-turn discard is the latest discard: S's pung of it is no late claim."""
    b = rs.new().hand(S, "5p5p").hand(W, "5p").discard(E).discard(W, "5p").pung(S, W, "5p")
    b.discard(S).draw(rs.after_s).discard(rs.after_s).abandon()
    flagged_once(rs, b.replay(), rs.discard_code, index=1, short=True)
    same_fast_and_stepped(rs, b)


@by_ruleset(MAHJONG)
def test_out_of_turn_discard_entitled_player_chows_the_earlier_discard(rs: Ruleset) -> None:
    """W discards in S's turn; S takes its turn by chowing E's discard (still its to take)."""
    b = rs.new().hand(S, "1m2m").discard(E, "3m").discard(W).chow(S, E, "3m", "1m2m3m")
    b.discard(S).draw(W).discard(W).abandon()
    flagged_once(rs, b.replay(), rs.discard_code, index=1, short=True)
    same_fast_and_stepped(rs, b)


# --- what is still out of turn -------------------------------------------------------------


@by_ruleset(RULESETS)
def test_out_of_turn_again_in_the_new_order_is_flagged(rs: Ruleset) -> None:
    """After W's out-of-turn turn and N's, E draws next: S's draw there is out of turn too."""
    b = rs.new().discard(E).draw(W).discard(W).draw(N).discard(N).draw(S)
    b.discard(S).abandon()
    r = b.replay()
    found = out_of_turn(rs, r)
    assert [(f.code, f.seat, f.event_index) for f in found] == [
        (rs.draw_code, W, 1),
        (rs.draw_code, S, 5),
    ], found
    assert {f.seat for f in serious(r)} == {W, S}, serious(r)
    assert {f.seat for f in r.findings if f.code == rs.lost} == {W, S}
    same_fast_and_stepped(rs, b)


@by_ruleset(RULESETS)
def test_another_draw_before_the_offender_discards_is_flagged(rs: Ruleset) -> None:
    """W draws in S's turn; N draws before W discards: neither order lets N draw."""
    b = rs.new().discard(E).draw(W).draw(N).abandon()
    r = b.replay()
    found = out_of_turn(rs, r)
    assert [(f.code, f.seat, f.event_index) for f in found] == [
        (rs.draw_code, W, 1),
        (rs.draw_code, N, 2),
    ], found
    same_fast_and_stepped(rs, b)


@by_ruleset(MAHJONG)
def test_second_draw_by_the_offender_is_still_a_double_draw(rs: Ruleset) -> None:
    """W draws out of turn and draws again: the second draw is W's own finding (HK
    DOUBLE_DRAW; vn-160 flags the second draw of a turn as OUT_OF_TURN, §8.2 #12)."""
    b = rs.new().discard(E).draw(W).draw(W).abandon()
    r = b.replay()
    second = "DOUBLE_DRAW" if rs.name.startswith("hk") else "OUT_OF_TURN"
    got = [(f.code, f.seat, f.event_index) for f in serious(r) if f.event_index == 2]
    assert (second, W, 2) in got, r.findings
    assert {f.seat for f in serious(r)} == {W}, serious(r)
    same_fast_and_stepped(rs, b)
