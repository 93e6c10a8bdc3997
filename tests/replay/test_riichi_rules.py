"""riichi (docs/rules/riichi.md): per finding code a log that triggers it and one that does
not, on the small deal of ``riichi_builder`` (seat 1 waits on 1p and 4p after its first
discard), and the options."""

from __future__ import annotations

import pytest
from mjaudit.parts.replay.engine.findings import FindingClass
from mjaudit.parts.replay.engine.options import OptionError
from mjaudit.parts.replay.rulesets.riichi.options import OPTION_NAMES, RiichiOptions, options_for
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_riichi

from tests.replay.riichi_builder import (
    DEAL,
    codes,
    discard,
    draw,
    opening,
    record,
    replay,
    riichi,
    ron,
)

ABANDON = {"type": "abandon", "reason": "test"}
GO_ROUND = [
    draw(2, "5m"),
    discard(2, "5m"),
    draw(3, "6m"),
    discard(3, "6m"),
    draw(0, "7p"),
    discard(0, "7p"),
]


def serious(rep) -> set[str]:  # type: ignore[no-untyped-def]
    return {f.code for f in rep.findings if f.cls is not FindingClass.INFO}


def cls_of(rep, code: str) -> FindingClass:  # type: ignore[no-untyped-def]
    return next(f.cls for f in rep.findings if f.code == code)


def test_clean_riichi_ron_is_settled() -> None:
    rep = replay([*opening(), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)])
    assert serious(rep) == set()
    assert rep.winners == (1,) and rep.ended_by == "win"
    # riichi on the first discard with no call before: double riichi; the ron comes
    # before seat 1's next draw: ippatsu; the indicator N makes the E pair two dora
    assert dict(rep.patterns) == {"daburu_riichi": 2, "ippatsu": 1, "dora": 2}
    # a 5-han mangan: seat 2 pays 8,000; seat 1's riichi stick comes back to it
    assert rep.deltas == (0, 8000, -8000, 0)


def test_riichi_not_tenpai() -> None:
    rep = replay([*opening(drop="E"), ABANDON])
    assert "RIICHI_NOT_TENPAI" in codes(rep)
    assert cls_of(rep, "RIICHI_NOT_TENPAI") is FindingClass.PLAYER_VIOLATION
    assert "RIICHI_NOT_TENPAI" not in codes(replay([*opening(), ABANDON]))


def test_riichi_invalid_with_an_open_hand() -> None:
    events = [
        *opening(declare=False),
        draw(2, "E"),
        discard(2, "E"),
        {"type": "pung", "seat": 1, "tile": "E", "from": 2},
        discard(1, "1m"),
        *GO_ROUND,
        draw(1, "1m"),
        riichi(1),
        discard(1, "1m"),
        ABANDON,
    ]
    rep = replay(events)
    assert "RIICHI_INVALID" in codes(rep)
    assert "RIICHI_INVALID" not in codes(replay([*opening(), ABANDON]))


def test_riichi_invalid_without_the_stick() -> None:
    rep = replay([*opening(), ABANDON], scores=[25000, 500, 25000, 25000])
    assert "RIICHI_INVALID" in codes(rep)


def test_call_after_riichi() -> None:
    tail = [
        draw(2, "E"),
        discard(2, "E"),
        {"type": "pung", "seat": 1, "tile": "E", "from": 2},
        discard(1, "2p"),
        ABANDON,
    ]
    rep = replay([*opening(), *tail])
    assert "CALL_AFTER_RIICHI" in codes(rep)
    assert cls_of(rep, "CALL_AFTER_RIICHI") is FindingClass.PLAYER_VIOLATION
    assert "CALL_AFTER_RIICHI" not in codes(replay([*opening(declare=False), *tail]))


def test_wait_changed_after_riichi() -> None:
    """Planted: after riichi on 1p-4p, seat 1 keeps the drawn 3p and throws 2p: 3p/E."""
    rep = replay([*opening(), *GO_ROUND, draw(1, "3p"), discard(1, "2p"), ABANDON])
    assert "WAIT_CHANGED_AFTER_RIICHI" in codes(rep)
    assert cls_of(rep, "WAIT_CHANGED_AFTER_RIICHI") is FindingClass.PLAYER_VIOLATION
    clean = replay([*opening(), *GO_ROUND, draw(1, "3p"), discard(1, "3p"), ABANDON])
    assert serious(clean) == set()


def test_riichi_discard_not_drawn() -> None:
    """The wait stays 1p-4p (1m out, 4m in), but the tile thrown is not the one drawn."""
    rep = replay([*opening(), *GO_ROUND, draw(1, "4m"), discard(1, "1m"), ABANDON])
    assert codes(rep) & {"RIICHI_DISCARD_NOT_DRAWN", "WAIT_CHANGED_AFTER_RIICHI"} == {
        "RIICHI_DISCARD_NOT_DRAWN"
    }


def _furiten_deal() -> list[list[str]]:
    hands = [list(h) for h in DEAL]
    hands[1][-1] = "1p"  # seat 1 throws 1p: a wait among its own discards
    hands[3][-3] = "N"
    return hands


def test_furiten_ron_on_a_wait_among_own_discards() -> None:
    """Planted: seat 1 declares riichi throwing 1p and then rons 4p."""
    rep = replay(
        [*opening(drop="1p"), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)],
        hands=_furiten_deal(),
    )
    assert "FURITEN_RON" in codes(rep)
    assert cls_of(rep, "FURITEN_RON") is FindingClass.PLAYER_VIOLATION
    assert rep.winners == ()


def test_furiten_ron_after_passing_a_winning_tile() -> None:
    """Temporary furiten: seat 1 lets 4p go and rons 1p before its own next discard."""
    events = [
        *opening(declare=False),
        draw(2, "5m"),
        discard(2, "4p"),
        draw(3, "5m"),
        discard(3, "1p"),
        ron(1, "1p", 3),
    ]
    assert "FURITEN_RON" in codes(replay(events))


def test_furiten_ron_after_riichi_passes_for_good() -> None:
    """Riichi furiten: the pass is not lifted by seat 1's own discard."""
    events = [
        *opening(),
        draw(2, "5m"),
        discard(2, "4p"),
        draw(3, "5m"),
        discard(3, "1p"),
        draw(0, "7p"),
        discard(0, "7p"),
        draw(1, "2s"),
        discard(1, "2s"),
        draw(2, "6m"),
        discard(2, "1p"),
        ron(1, "1p", 2),
    ]
    assert "FURITEN_RON" in codes(replay(events))
    clean = [*opening(), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)]
    assert "FURITEN_RON" not in codes(replay(clean))


def test_false_win_without_a_yaku() -> None:
    rep = replay([*opening(declare=False), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)])
    assert "FALSE_WIN" in codes(rep)


def test_tile_overcount_of_a_red_five() -> None:
    hands = [list(h) for h in DEAL]
    hands[0][2], hands[3][4] = "0m", "0m"
    assert "TILE_OVERCOUNT" in codes(replay([ABANDON], hands=hands))
    hands[3][4] = "6m"
    assert "TILE_OVERCOUNT" not in codes(replay([ABANDON], hands=hands))


def test_red_fives_option_off_refuses_a_red_five() -> None:
    hands = [list(h) for h in DEAL]
    hands[0][2] = "0m"
    rep = replay([ABANDON], hands=hands, options={"red_fives": False})
    assert "TILE_OVERCOUNT" in codes(rep)


def test_out_of_turn_and_tile_not_in_hand_are_corrupt() -> None:
    rep = replay([draw(0, "9s"), discard(0, "9s"), draw(2, "5m")])
    assert "OUT_OF_TURN" in codes(rep) and rep.corrupt
    rep = replay([draw(0, "9s"), discard(0, "E")])
    assert "TILE_NOT_IN_HAND" in codes(rep) and rep.corrupt
    assert not replay([draw(0, "9s"), discard(0, "9s"), ABANDON]).corrupt


def test_claim_not_live_and_chow_only_from_the_left() -> None:
    rep = replay(
        [draw(0, "9s"), discard(0, "9s"), {"type": "pung", "seat": 2, "tile": "N", "from": 0}]
    )
    assert "CLAIM_NOT_LIVE" in codes(rep)
    bad = {"type": "chow", "seat": 2, "tile": "7s", "from": 0, "tiles": ["5s", "6s", "7s"]}
    assert "INVALID_MELD" in codes(replay([draw(0, "7s"), discard(0, "7s"), bad]))
    good = {"type": "chow", "seat": 1, "tile": "7s", "from": 0, "tiles": ["7s", "8s", "9s"]}
    rep = replay([draw(0, "7s"), discard(0, "7s"), good, discard(1, "N"), ABANDON])
    assert serious(rep) == set()


def test_kong_invalid_and_dora_invalid() -> None:
    assert "KONG_INVALID" in codes(
        replay([draw(0, "9s"), {"type": "added_kong", "seat": 0, "tile": "9s"}])
    )
    assert "DORA_INVALID" in codes(replay([draw(0, "9s"), {"type": "dora", "tile": "3m"}]))


def test_replacement_without_a_kan() -> None:
    rep = replay([draw(0, "9s"), discard(0, "9s"), {"type": "replacement", "seat": 1, "tile": "E"}])
    assert "REPLACEMENT_INVALID" in codes(rep)


def test_abortive_draw_nine_terminals() -> None:
    """Seat 0's first draw: 1s 9m 9p 9s C F P W S, nine kinds; seat 1 has four."""
    nine = {"type": "abortive_draw", "reason": "nine_terminals", "seat": 0}
    rep = replay([draw(0, "9s"), nine])
    assert serious(rep) == set() and rep.ended_by == "abortive_draw"
    assert rep.extras["dealer_stays"] and rep.extras["next_honba"] == 1
    late = {"type": "abortive_draw", "reason": "nine_terminals", "seat": 1}
    assert "ABORTIVE_DRAW_INVALID" in codes(
        replay([draw(0, "9s"), discard(0, "9s"), draw(1, "E"), late])
    )


def test_abortive_draw_four_winds_needs_one_wind() -> None:
    four = {"type": "abortive_draw", "reason": "four_winds"}
    rep = replay([*opening(declare=False), draw(2, "5m"), discard(2, "5m"), four])
    assert "ABORTIVE_DRAW_INVALID" in codes(rep)


def test_wrong_payment_is_a_result_mismatch() -> None:
    """Planted: the log records the ron paid by the wrong player."""
    events = [*opening(), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)]
    rep = replay(events)
    right = list(rep.deltas or ())
    ok = replay_riichi(record(events, result={"winners": [1], "deltas": right}))
    assert ok.matches_recorded is True and "RESULT_MISMATCH" not in codes(ok)
    wrong = [right[0] + right[2], right[1], 0, right[3]]  # seat 0 pays instead of seat 2
    bad = replay_riichi(record(events, result={"winners": [1], "deltas": wrong}))
    assert bad.matches_recorded is False
    assert cls_of(bad, "RESULT_MISMATCH") is FindingClass.SCORE_MISMATCH


def test_options_names_defaults_and_a_bad_value() -> None:
    assert {
        "red_fives",
        "open_tanyao",
        "multiple_winners",
        "abortive_draws",
        "tobi",
    } == OPTION_NAMES
    assert options_for() == RiichiOptions()
    assert options_for({"open_tanyao": False}).open_tanyao is False
    for name in OPTION_NAMES:
        with pytest.raises(OptionError):
            options_for({name: "yes please"})
    with pytest.raises(OptionError):
        options_for({"kiriage": True})
    rep = replay([ABANDON], options={"tobi": 3})
    assert rep.ended_by == "corrupt" and "RECORD_INVALID" in codes(rep)


def test_abortive_draws_option_off() -> None:
    rep = replay(
        [draw(0, "9s"), {"type": "abortive_draw", "reason": "nine_terminals", "seat": 0}],
        options={"abortive_draws": False},
    )
    assert "ABORTIVE_DRAW_INVALID" in codes(rep)


def test_played_after_tobi() -> None:
    """§8: under tobi the game ends below zero; a hand that starts below zero is flagged,
    one that starts at exactly zero, or with tobi off, is not."""
    events = [*opening(), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)]
    below = replay_riichi(record(events, scores=[-1000, 41000, 30000, 30000]))
    assert cls_of(below, "PLAYED_AFTER_TOBI") is FindingClass.SCORE_MISMATCH
    assert "PLAYED_AFTER_TOBI" not in codes(
        replay_riichi(record(events, scores=[0, 40000, 30000, 30000]))
    )
    off = record(events, scores=[-1000, 41000, 30000, 30000], options={"tobi": False})
    assert "PLAYED_AFTER_TOBI" not in codes(replay_riichi(off))
    # the scores the hand before left, when the record gives none: seat 2 deals in below zero
    first = replay_riichi(record(events, scores=[33000, 33000, 500, 33500]))
    assert first.extras["scores_after"][2] < 0
    nxt = record(events, hand_no=2, dealer=1, round=1)
    del nxt["scores"]
    assert "PLAYED_AFTER_TOBI" in codes(replay_riichi(nxt, None, first))
    assert "PLAYED_AFTER_TOBI" not in codes(replay_riichi(record(events)))
