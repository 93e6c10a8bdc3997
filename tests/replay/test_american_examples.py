"""american.md §11 worked examples A1-A9, each a full mjlog/1 record through replay_hand.

Seats: E=0 (dealer), S=1, W=2, N=3. Every record carries the full 152-tile wall, so the
deal, every draw and the tile counts are checked too; the sample card of §6 scores.
"""

from __future__ import annotations

import json

from american_record_builder import RecordBuilder
from mjaudit.parts.replay.engine.findings import FindingClass
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record

E, S, W, N = 0, 1, 2, 3


def _replay(rec: dict, **overrides: object):  # type: ignore[no-untyped-def]
    """Through the schema first: the records use only the §9.1 vocabulary."""
    canonical = parse_record(json.dumps(rec).encode()).record
    return replay_hand(canonical, overrides or None)


def _serious(report) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [
        (f.code, f.message)
        for f in report.findings
        if f.cls
        in (FindingClass.CORRUPT_LOG, FindingClass.PLAYER_VIOLATION, FindingClass.SCORE_MISMATCH)
    ]


def _codes(report) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.code for f in report.findings]


def _check_win(rec: dict, hand: str, value: int, deltas: list[int], winner: int) -> None:
    rec["result"] = {"winners": [winner], "fan": value, "patterns": [hand], "deltas": deltas}
    report = _replay(rec)
    assert _serious(report) == []
    assert report.winners == (winner,)
    assert report.patterns == ((hand, value),)
    assert report.fan == value
    assert report.extras["hand"] == hand
    assert report.extras["card_id"] == "sample-original-1"
    assert list(report.deltas) == deltas
    assert report.matches_recorded is True
    assert report.ended_by == "win"


def test_A1_year_self_drawn_with_jokers() -> None:
    b = RecordBuilder({E: "3p 1m", S: "3p 3p J 1s 1s f1 f2 J 2m P 3m", N: "1s"}, reserve="1m")
    b.discard(E, "3p")
    b.call("kong", S, E, "3p", "3p 3p J")
    b.discard(S)
    b.turn_round(W)
    b.draw(N)
    b.discard(N, "1s")
    b.call("pung", S, N, "1s", "1s 1s")
    b.discard(S)
    for seat in (W, N, E):
        b.turn_round(seat)
    b.draw(S, "1m")
    b.win(S, "1m", claim="YEAR-1")
    rec = b.record()
    _check_win(rec, "YEAR-1", 25, [-50, 150, -50, -50], S)
    report = _replay(rec)
    assert report.self_drawn and report.extras["jokerless"] is False
    assert report.extras["binding"] == "A=craks, B=dots, C=bams"


def test_A2_like_numbers_on_a_discard() -> None:
    b = RecordBuilder({E: "N", S: "7m", W: "7m 7m 7p 7p 7p 7s 7s 7s 7s J N", N: "7p"})
    b.discard(E)
    b.draw(S)
    b.discard(S, "7m")
    b.call("pung", W, S, "7m", "7m 7m")
    b.discard(W)
    b.draw(N)
    b.discard(N, "7p")
    b.call("kong", W, N, "7p", "7p 7p 7p")
    b.discard(W)
    b.turn_round(N)
    b.draw(E)
    b.discard(E, "N")
    b.win(W, "N", frm=E)
    _check_win(b.record(), "LIKE-1", 35, [-70, -35, 140, -35], W)


def test_A3_pairs_self_drawn_no_jokerless_bonus() -> None:
    b = RecordBuilder({N: "N N S S E E 1m 9m 1p 9p 1s f3 g4"}, reserve="9s")
    b.discard(E)
    b.turn_round(S)
    b.turn_round(W)
    b.draw(N, "9s")
    b.win(N, "9s")
    rec = b.record()
    _check_win(rec, "PAIRS-1", 50, [-100, -100, -100, 300], N)
    assert _replay(rec).extras["jokerless_bonus"] is False


def test_A4_odd_numbers_jokerless_on_a_discard() -> None:
    b = RecordBuilder({E: "9s 9s 9s 5m 5m 3s 3s 3s f1 f4 g1", S: "3s", W: "9s", N: "5m"})
    b.discard(E)
    b.turn_round(S)
    b.draw(W)
    b.discard(W, "9s")
    b.call("kong", E, W, "9s", "9s 9s 9s")
    b.discard(E)
    b.turn_round(S)
    b.turn_round(W)
    b.draw(N)
    b.discard(N, "5m")
    b.call("pung", E, N, "5m", "5m 5m")
    b.discard(E)
    b.draw(S)
    b.discard(S, "3s")
    b.win(E, "3s", frm=S)
    rec = b.record()
    _check_win(rec, "ODD-1", 50, [200, -100, -50, -50], E)
    report = _replay(rec)
    assert report.extras["jokerless"] is True and report.extras["card_value"] == 25


def test_A5_concealed_winds_dragons_on_a_discard() -> None:
    b = RecordBuilder({S: "N N N C C C S S F F F f2 g3", W: "S"})
    b.discard(E)
    b.draw(S)
    b.discard(S, b.draws[-1])
    b.draw(W)
    b.discard(W, "S")
    b.win(S, "S", frm=W)
    _check_win(b.record(), "WIND-2", 80, [-80, 320, -160, -80], S)


def test_A6_sextet_self_drawn() -> None:
    b = RecordBuilder({S: "W", W: "E E J W W W 4p 4p 4p 4p J", N: "E"}, reserve="J")
    b.discard(E)
    b.draw(S)
    b.discard(S, "W")
    b.call("kong", W, S, "W", "W W W")
    b.discard(W)
    b.draw(N)
    b.discard(N, "E")
    b.call("kong", W, N, "E", "E E J")
    b.discard(W)
    for seat in (N, E, S):
        b.turn_round(seat)
    b.draw(W, "J")
    b.win(W, "J")
    _check_win(b.record(), "SEXTET-1", 60, [-120, -120, 360, -120], W)


def a7_record() -> dict:
    """A7: N pungs 6m, S pungs 9m with a joker, N draws 9m, exchanges it for S's joker."""
    b = RecordBuilder(
        {E: "6m", S: "9m J", W: "9m", N: "6m 6m 6p 6p 6p 6p 6s 6s 6s 6s N N"}, reserve="9m"
    )
    b.discard(E, "6m")
    b.call("pung", N, E, "6m", "6m 6m")
    b.discard(N)
    b.turn_round(E)
    b.turn_round(S)
    b.draw(W)
    b.discard(W, "9m")
    b.call("pung", S, W, "9m", "9m J")
    b.discard(S)
    b.turn_round(W)
    b.draw(N, "9m")
    b.exchange(N, "9m", S, 0)
    b.win(N, "9m")
    return b.record()


def test_A7_joker_exchange_then_self_drawn() -> None:
    rec = a7_record()
    _check_win(rec, "LIKE-1", 35, [-70, -70, -70, 210], N)
    assert "BAD_JOKER_EXCHANGE" not in _codes(_replay(rec))


def test_A8_dead_hand_still_pays() -> None:
    b = RecordBuilder(
        {E: "3m 3m N N N", S: "N", W: "1p 1p 1p 1p 3p 3p 3p 3p 5s 5s f1 f2 f3", N: "3m 5s"}
    )
    b.discard(E)
    b.turn_round(S)
    b.draw(W)
    b.discard(W, b.draws[-1])
    b.draw(N)
    b.discard(N, "3m")
    b.call("pung", E, N, "3m", "3m 3m")
    b.discard(E)
    b.draw(S)
    b.discard(S, "N")
    b.call("kong", E, S, "N", "N N N")  # -> DEAD_BY_EXPOSURE: E stops playing
    b.dead.add(E)
    b.turn = S
    b.turn_round(S)
    b.draw(W)
    b.discard(W, b.draws[-1])
    b.draw(N)
    b.discard(N, "5s")
    b.win(W, "5s", frm=N)
    rec = b.record()
    rec["result"] = {
        "winners": [W],
        "fan": 50,
        "patterns": ["ODD-1"],
        "deltas": [-50, -50, 200, -100],
    }
    report = _replay(rec)
    dead = [f for f in report.findings if f.code == "DEAD_BY_EXPOSURE"]
    assert [(f.seat, f.event_index, f.cls) for f in dead] == [
        (E, 11, FindingClass.PLAYER_VIOLATION)
    ]
    assert [c for c, _ in _serious(report)] == ["DEAD_BY_EXPOSURE"]
    assert report.patterns == (("ODD-1", 50),)
    assert list(report.deltas) == [-50, -50, 200, -100]
    assert report.extras["dead"] == {"0": "DEAD_BY_EXPOSURE"}
    assert report.matches_recorded is True


def test_A9_mahjong_in_error_play_continues() -> None:
    b = RecordBuilder({E: "5p", S: "5p 5p 5s 5s 5s 5m 5m 5m 5m J N", W: "5s"}, reserve="J")
    b.discard(E, "5p")
    b.call("pung", S, E, "5p", "5p 5p")
    b.discard(S)
    b.draw(W)
    b.discard(W, "5s")
    b.call("kong", S, W, "5s", "5s 5s 5s")
    b.discard(S)
    for seat in (W, N, E):
        b.turn_round(seat)
    b.draw(S, "J")
    b.win(S, "J", claim="LIKE-1")  # the pair N J holds a joker: no card hand matches
    b.dead.add(S)
    b.turn = W
    b.play_out()
    rec = b.record()
    rec["result"] = {"winners": [], "deltas": [0, 0, 0, 0]}
    report = _replay(rec)
    mie = [f for f in report.findings if f.code == "MAHJONG_IN_ERROR"]
    assert [(f.seat, f.event_index) for f in mie] == [(S, 14)]
    assert [c for c, _ in _serious(report)] == ["MAHJONG_IN_ERROR"]
    assert report.winners == () and report.ended_by == "exhaustive_draw"
    assert list(report.deltas) == [0, 0, 0, 0]
    assert report.extras["dead"] == {"1": "MAHJONG_IN_ERROR"}
    assert report.matches_recorded is True
    # with the option, S pays each other player
    paid = _replay(rec, mahjong_in_error_payment={"each": 10})
    assert list(paid.deltas) == [10, -30, 10, 10]


# --- §7/§10 options on the examples ------------------------------------------------------


def _a4() -> RecordBuilder:
    b = RecordBuilder({E: "9s 9s 9s 5m 5m 3s 3s 3s f1 f4 g1", S: "3s", W: "9s", N: "5m"})
    b.discard(E)
    b.turn_round(S)
    b.draw(W)
    b.discard(W, "9s")
    b.call("kong", E, W, "9s", "9s 9s 9s")
    b.discard(E)
    b.turn_round(S)
    b.turn_round(W)
    b.draw(N)
    b.discard(N, "5m")
    b.call("pung", E, N, "5m", "5m 5m")
    b.discard(E)
    b.draw(S)
    b.discard(S, "3s")
    b.win(E, "3s", frm=S)
    return b


def test_A4_jokerless_doubles_off_and_point_value() -> None:
    rec = _a4().record()
    plain = _replay(rec, jokerless_doubles=False)
    assert plain.patterns == (("ODD-1", 25),) and plain.extras["jokerless_bonus"] is False
    assert list(plain.deltas) == [100, -50, -25, -25]
    money = _replay(rec, point_value=0.5)
    assert list(money.deltas) == [100, -50, -25, -25]
    assert money.fan == 50  # V is in card points; point_value scales the money only


def _call_then_mahjong() -> dict:
    """W calls S's 7m for a pung and then finds LIKE-1 complete (§7.2 [D])."""
    b = RecordBuilder({S: "7m", W: "7m 7m 7p 7p 7p 7p 7s 7s 7s 7s J N N"})
    b.discard(E)
    b.draw(S)
    b.discard(S, "7m")
    b.call("pung", W, S, "7m", "7m 7m")
    b.win(W, "7m", frm=S)
    return b.record()


def test_call_then_mahjong_is_a_discard_win_by_default() -> None:
    report = _replay(_call_then_mahjong())
    assert _serious(report) == []
    assert report.patterns == (("LIKE-1", 35),)
    assert (report.self_drawn, report.liable) == (False, S)
    assert list(report.deltas) == [-35, -70, 140, -35]


def test_call_then_mahjong_liability_self_draw_option() -> None:
    report = _replay(_call_then_mahjong(), call_then_mahjong_liability="self_draw")
    assert report.self_drawn and list(report.deltas) == [-70, -70, 210, -70]


def test_unknown_option_is_record_invalid() -> None:
    report = _replay(_call_then_mahjong(), jokerless_triples=True)
    assert [(f.code, f.cls) for f in report.findings] == [
        ("RECORD_INVALID", FindingClass.CORRUPT_LOG)
    ]
    assert report.deltas is None


def test_card_file_override_and_missing_card(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mjaudit.parts.replay.rulesets.american.card import SAMPLE_CARD_PATH

    rec = _call_then_mahjong()
    via_file = _replay(rec, card_file=str(SAMPLE_CARD_PATH))
    assert via_file.patterns == (("LIKE-1", 35),)
    rec["options"]["card"] = "no-such-card"
    missing = _replay(rec)
    assert [f.code for f in missing.findings] == ["CARD_INVALID"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: mj-card/1\ncard_id: x\nhands: []\n")
    broken = _replay(rec, card_file=str(bad))
    assert [f.code for f in broken.findings] == ["CARD_INVALID"]
    assert "hands" in broken.findings[0].message
