"""vn-160 §11 worked examples V1-V7 and penalty examples F1-F3, as full mjlog/1 records.

Each example is a whole hand (deal, declarations, draws, calls, the win) replayed through
``replay.engine.replay_hand``; the tests assert the exact phán, mủn, patterns and payments.
Seats are named by wind with the dealer at E (log seat = wind index), as in §11.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from mjaudit.parts.replay.engine.findings import FindingClass
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record

WINDS = "ESWN"
_PLAIN = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")


def tiles(text: str) -> list[str]:
    """``"1m2m3m 456p BM f3 E"``: runs of digits before m/p/s expand; other codes as they are."""
    out: list[str] = []
    for tok in text.split():
        if re.fullmatch(r"(\d[mps])+|\d+[mps]", tok) and tok[-1] in "mps":
            for part in re.findall(r"(\d+)([mps])", tok):
                out.extend(f"{d}{part[1]}" for d in part[0])
        else:
            out.append(tok)
    return out


def record(
    hands: dict[str, str],
    script: list[str],
    *,
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    hand_no: int = 1,
) -> dict[str, Any]:
    """A full vn-160 record; hands not given are filled with plain tiles (13, dealer 14).

    Script lines: ``"S flower f3"``, ``"S repl 2p"``, ``"W draw 9m"``, ``"E discard 3m"``,
    ``"S chow 3m 1m2m3m"``, ``"W pung F [F BT]"``, ``"S win 9m"`` (on the latest discard),
    ``"W tsumo 7m"`` (self-drawn). Every draw and discard of a filler tile is written out.
    """
    seat = {w: (dealer + i) % 4 for i, w in enumerate(WINDS)}
    used: Counter[str] = Counter()
    start = [[] for _ in range(4)]  # type: list[list[str]]
    for w, text in hands.items():
        start[seat[w]] = tiles(text)
        used.update(start[seat[w]])
    events: list[dict[str, Any]] = []
    last_discarder: int | None = None
    for line in script:
        w, kind, tile, *rest = line.split(maxsplit=3)
        s = seat[w]
        ev: dict[str, Any] = {"seat": s, "tile": tile}
        if kind in ("draw", "repl"):
            used[tile] += 1
            ev["type"] = "draw" if kind == "draw" else "replacement"
        elif kind in ("flower", "discard"):
            ev["type"] = kind
            if kind == "discard":
                last_discarder = s
        elif kind in ("chow", "pung", "kong"):
            ev.update(type=kind, **{"from": last_discarder})
            if kind == "chow":
                ev["tiles"] = tiles(rest[0])
            elif rest:
                ev["with"] = rest[0].strip("[]").split()
        elif kind == "win":
            ev.update(type="win", **{"from": last_discarder})
        elif kind == "tsumo":
            ev["type"] = "win"
        else:
            raise ValueError(line)
        events.append(ev)
    for s in range(4):  # a filler hand holds the tiles it discards without drawing them
        if not hands.get(WINDS[(s - dealer) % 4]):
            drawn: Counter[str] = Counter()
            for ev in events:
                if ev["seat"] == s and ev["type"] in ("draw", "replacement"):
                    drawn[ev["tile"]] += 1
                elif ev["seat"] == s and ev["type"] == "discard":
                    if drawn[ev["tile"]]:
                        drawn[ev["tile"]] -= 1
                    else:
                        start[s].append(ev["tile"])
                        used[ev["tile"]] += 1
    pool = [t for t in _PLAIN for _ in range(4 - used[t])]
    for s in range(4):
        want = 14 if s == dealer else 13
        if not hands.get(WINDS[(s - dealer) % 4]):
            while len(start[s]) < want:
                start[s].append(pool.pop())
    assert all(n <= 4 for t, n in Counter(t for h in start for t in h).items() if t in _PLAIN)
    rec: dict[str, Any] = {
        "format": "mjlog/1",
        "game_id": "vn160-examples",
        "hand_no": hand_no,
        "ruleset": "vn-160",
        "players": ["An", "Binh", "Chi", "Dung"],
        "dealer": dealer,
        "prevailing_wind": "E",
        "start_hands": start,
        "events": events,
    }
    if options:
        rec["options"] = options
    if result:
        rec["result"] = result
    return parse_record(json.dumps(rec).encode()).record


def deltas(**by_wind: int) -> tuple[float, ...]:
    out = [0.0] * 4
    for w, d in by_wind.items():
        out[WINDS.index(w)] = d
    return tuple(out)


def codes(rep) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.code for f in rep.findings]


def serious(rep) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.code for f in rep.findings if f.cls is not FindingClass.INFO]


# ------------------------------------------------------------------ V1-V7


def v1_record(result: dict[str, Any] | None = None) -> dict[str, Any]:
    return record(
        {"S": "f3 1m 2m 456p 777s 345s 9m", "E": "3m 1p 1p 1p 2p 2p 2p 3p 3p 3p E E E S"},
        [
            "S flower f3",
            "S repl 8p",
            "E discard 3m",
            "S chow 3m 1m2m3m",
            "S discard 8p",
            "W draw 9m",
            "W discard 9m",
            "S win 9m",
        ],
        result=result,
    )


def test_V1_u_muoi_on_a_discard() -> None:
    rep = replay_hand(v1_record())
    assert serious(rep) == []
    assert rep.winners == (1,) and rep.discarder == 2 and not rep.self_drawn
    assert rep.fan == 0 and rep.extras["mun"] == 0
    assert rep.patterns == (("u_muoi", 0),)
    assert rep.deltas == deltas(W=-2, E=-1, N=-1, S=4)
    assert (rep.extras["con"], rep.extras["cai"]) == (1, 2)


def test_V1_recorded_result_is_compared() -> None:
    good = {"winners": [1], "fan": 0, "patterns": ["u_muoi"], "deltas": [-1, 4, -2, -1]}
    rep = replay_hand(v1_record(good))
    assert rep.matches_recorded is True
    bad = {**good, "fan": 1, "deltas": [-2, 8, -4, -2]}
    rep = replay_hand(v1_record(bad))
    assert rep.matches_recorded is False
    (f,) = [f for f in rep.findings if f.code == "RESULT_MISMATCH"]
    assert f.cls is FindingClass.SCORE_MISMATCH


def test_V2_phinh_xuyen_bat_cau_nhan() -> None:
    rec = record(
        {"W": "g2 1p2p3p 4s5s6s 7s8s9s 6m8m 2m"},
        [
            "W flower g2",
            "W repl 2m",
            "E discard E",
            "S draw 9p",
            "S discard 9p",
            "W draw 7m",
            "W tsumo 7m",
        ],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"u_phinh": 1, "bat_cau_nhan": 1, "u_xuyen": 1}
    assert rep.fan == 3 and rep.extras["mun"] == 0
    assert rep.deltas == deltas(E=-16, S=-16, N=-16, W=48)


def test_V3_tieu_tam_nguyen_tui_tui_khong_khung_seat_flower() -> None:
    rec = record(
        {"W": "f3 q1 C C F F 9s9s9s 2p2p2p P", "E": "F 1m1m1m 2m2m2m 3m3m3m 4m4m4m 5m"},
        [
            "W flower f3",
            "W repl 7m",
            "W flower q1",
            "W repl 8m",
            "E discard F",
            "W pung F",
            "W discard 7m",
            "N draw 6m",
            "N discard 6m",
            "E draw 6m",
            "E discard 6m",
            "S draw C",
            "S discard C",
            "W pung C",
            "W discard 8m",
            "N draw P",
            "N discard P",
            "W win P",
        ],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"tieu_tam_nguyen": 6, "tui_tui": 4, "seat_flower": 1}
    assert rep.fan == 11 and rep.extras["mun"] == 1
    assert rep.deltas == deltas(N=-128, E=-64, S=-64, W=256)


def test_V4_toan_hang_with_a_khung() -> None:
    rec = record(
        {"N": "k4 2m 3m 1m1m1m 5m6m7m 8m8m BM 9m"},
        [
            "N flower k4",
            "N repl 1p",
            "E discard 2p",
            "S draw 3p",
            "S discard 3p",
            "W draw 4m",
            "W discard 4m",
            "N chow 4m 2m3m4m",
            "N discard 1p",
            "E draw 4p",
            "E discard 4p",
            "S draw 5p",
            "S discard 5p",
            "W draw 6p",
            "W discard 6p",
            "N draw 9m",
            "N tsumo 9m",
        ],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"toan_hang": 6, "seat_flower": 1}
    assert rep.fan == 7 and rep.extras["mun"] == 1
    assert rep.extras["khung_assignment"] == {"BM": "8m"}
    assert rep.extras["single_wait"] is False
    assert rep.deltas == deltas(E=-128, S=-128, W=-128, N=384)


def test_V5_khan_khan_khong_khung_xuyen_seat_flower() -> None:
    rec = record(
        {"S": "g2 1p1p1p 5p5p5p 7s7s7s W W W"},
        ["S flower g2", "S repl 3m", "E discard 9m", "S draw 3m", "S tsumo 3m"],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"khan_khan": 24, "u_xuyen": 1, "seat_flower": 1}
    assert rep.fan == 26 and rep.extras["mun"] == 4
    assert rep.extras["con"] == 512
    assert rep.deltas == deltas(E=-1024, W=-1024, N=-1024, S=3072)


def test_V6_thap_tam_thai_bao_on_a_discard() -> None:
    rec = record(
        {"E": "f1 1m 9m 1p 9p 1s 9s E S W N C F P"},
        ["E flower f1", "E repl 5s", "E discard 5s", "S draw C", "S discard C", "E win C"],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"thap_tam_thai_bao": 13, "seat_flower": 1}
    assert rep.fan == 14 and rep.extras["mun"] == 2
    assert rep.deltas == deltas(S=-256, W=-128, N=-128, E=512)
    # E won, so E deals again: hand 2 with E dealing passes the rotation check.
    nxt = record({}, ["E discard 1m", "S draw 2m", "S tsumo 2m"], hand_no=2)
    assert "DEALER_ROTATION_MISMATCH" not in codes(replay_hand(nxt, previous=rep))


def test_V7_thien_u_khong_hoa_khong_la() -> None:
    rec = record({"E": "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p"}, ["E tsumo 5p"])
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {
        "u_phinh": 1,
        "bat_cau_nhan": 1,
        "thien_u": 6,
        "khong_hoa_khong_la": 6,
    }
    assert rep.fan == 14 and rep.extras["mun"] == 2
    assert rep.deltas == deltas(S=-256, W=-256, N=-256, E=768)


# ------------------------------------------------------------------ penalty examples


def f1_record(hand_no: int = 1, dealer: int = 0) -> dict[str, Any]:
    return record(
        {"S": "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s"},
        ["E discard E", "S draw 6s", "S tsumo 6s"],
        hand_no=hand_no,
        dealer=dealer,
    )


def test_F1_false_win_incomplete_hand() -> None:
    rep = replay_hand(f1_record())
    (f,) = [f for f in rep.findings if f.code == "FALSE_WIN"]
    assert (f.seat, f.reason, f.cls) == (1, "WIN_HAND_INCOMPLETE", FindingClass.PLAYER_VIOLATION)
    assert rep.ended_by == "false_win" and rep.winners == ()
    assert rep.deltas == deltas(S=-192, E=64, W=64, N=64)
    # the deal passes: hand 2 dealt by S is in order, by E again is not
    passes = replay_hand(f1_record(hand_no=2, dealer=1), previous=rep)
    assert "DEALER_ROTATION_MISMATCH" not in codes(passes)
    stays = replay_hand(f1_record(hand_no=2, dealer=0), previous=rep)
    assert "DEALER_ROTATION_MISMATCH" in codes(stays)


def test_F2_draw_from_the_wrong_end_then_win() -> None:
    rec = record(
        {"N": "1m2m3m 4p5p6p 7s8s9s 2s3s 5s5s"},
        [
            "E discard E",
            "S draw S",
            "S discard S",
            "W draw W",
            "W discard W",
            "N repl N",
            "N discard N",
            "E draw C",
            "E discard C",
            "S draw F",
            "S discard F",
            "W draw P",
            "W discard P",
            "N draw 4s",
            "N tsumo 4s",
        ],
    )
    rep = replay_hand(rec)
    (wrong,) = [f for f in rep.findings if f.code == "DRAW_WRONG_PLACE"]
    assert (wrong.seat, wrong.event_index, wrong.cls) == (3, 5, FindingClass.PLAYER_VIOLATION)
    (f,) = [f for f in rep.findings if f.code == "FALSE_WIN"]
    assert (f.seat, f.reason) == (3, "WIN_AFTER_MAT_U")
    assert rep.deltas == deltas(N=-192, E=64, S=64, W=64)


def test_F3_chow_not_from_left_loser_still_pays() -> None:
    rec = record(
        {
            "W": "4m 5m 1p1p1p 2p2p2p 3p3p3p 4p 6p",
            "S": "f3 678m 456p 777s 345s",
        },
        [
            "S flower f3",
            "S repl 9m",
            "E discard 3m",
            "W chow 3m 3m4m5m",
            "W discard 4p",
            "N draw 1s",
            "N discard 1s",
            "E draw 2s",
            "E discard 2s",
            "S draw 9s",
            "S discard 9s",
            "W draw 9m",
            "W discard 9m",
            "S win 9m",
        ],
    )
    rep = replay_hand(rec)
    (f,) = [f for f in rep.findings if f.code == "CHOW_NOT_FROM_LEFT"]
    assert (f.seat, f.cls) == (2, FindingClass.PLAYER_VIOLATION)
    assert rep.extras["mat_u"] == {"2": "CHOW_NOT_FROM_LEFT"}
    assert rep.winners == (1,) and rep.fan == 0
    assert rep.deltas == deltas(W=-2, E=-1, N=-1, S=4)


# ------------------------------------------------------------------ step-through and options


def test_step_through_observer_and_replay_to() -> None:
    from mjaudit.parts.replay.engine.view import position_text
    from mjaudit.parts.replay.rulesets.vn160.render import view_of
    from mjaudit.parts.replay.rulesets.vn160.replayer import replay_to
    from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX

    rec = v1_record()
    seen: list[int] = []
    replay_hand(rec, observer=lambda i, hand: seen.append(i))
    assert seen == list(range(len(rec["events"])))
    hand = replay_to(rec, 3)  # after S's chow
    assert hand.turn == 1 and [str(m) for m in hand.melds[1]] == ["[chow 1m2m3m <- 0]"]
    assert hand.declared[1] == [(INDEX["f3"], True)]
    text = position_text(view_of(hand, 3))
    assert "flowers:  f3^  (^ = declared at the start)" in text  # ^: in the initial phase
    assert "after event 3: chow" in text


def test_declared_khung_values_and_tong_hop_dau() -> None:
    # §5.3: BT and RU declared at the start by S make 9 together; BS (number 3) 1 for S.
    rec = record(
        {"S": "BT RU BS 1m2m3m 4p5p6p 7s8s9s 2s"},
        [
            "S flower BT",
            "S repl 5s",
            "S flower RU",
            "S repl 5s",
            "S flower BS",
            "S repl 3s",
            "E discard E",
            "S draw 9p",
            "S discard 9p",
            "W draw 1p",
            "W discard 1p",
            "N draw 9s",
            "N discard 9s",
            "E draw 8p",
            "E discard 8p",
            "S draw 1s",
            "S tsumo 1s",
        ],
    )
    rep = replay_hand(rec)
    assert serious(rep) == []
    patterns = dict(rep.patterns)
    assert patterns == {"u_phinh": 1, "bat_cau_nhan": 1, "khung_declared": 1, "tong_hop_dau": 9}
    assert rep.fan == 12 and rep.extras["mun"] == 2


def test_bonus_discard_win_discarder_pays_for_all() -> None:
    # §3.6 with allow_bonus_discard: BM is won on as a Tổng, +1 mủn, E pays Cái + 2 Con.
    hands = {"E": "BM 1m1m1m 2m2m2m 3m3m3m 4m4m4m 5m", "S": "6m7m8m 4p5p6p 7s8s9s 5s5s 6s7s"}
    rec = record(hands, ["E discard BM", "S win BM"], options={"allow_bonus_discard": True})
    rep = replay_hand(rec)
    assert serious(rep) == []
    assert dict(rep.patterns) == {"u_phinh": 1, "dia_u": 6, "bonus_deal_in": 6}
    assert rep.fan == 13
    assert rep.deltas == deltas(E=-512, S=512)
    assert rep.liable == 0
    without = replay_hand(record(hands, ["E discard BM", "S win BM"]))
    assert {"BONUS_DISCARDED", "FALSE_WIN"} <= set(codes(without))


def test_simulator_queries_on_the_hand_state() -> None:
    """The state API a bot uses: legal claims (khung variants), self actions, win candidates."""
    from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
    from mjaudit.parts.replay.rulesets.vn160.replayer import replay_to
    from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX

    rec = record(
        {
            "E": "5m 1p1p1p 2p2p2p 3p3p3p 4p4p4p 9s",
            "S": "4m BM 6m7m8m 4p5p6p 7s8s9s 5s 6s",
            "W": "5m 5m 1s2s3s 4s5s6s 7p8p9p 9m 9m",
        },
        ["E discard 5m", "S chow 5m 4m 5m BM", "S discard 6s"],
    )
    hand = replay_to(rec, 0)  # E's 5m is live
    claims = hand.legal_claims(1)
    assert {"type": "pung", "seat": 1, "from": 0, "tile": "5m", "with": ["4m", "BM"]} not in claims
    chows = [c["tiles"] for c in claims if c["type"] == "chow"]
    assert ["4m", "5m", "BM"] in chows and ["5m", "6m", "7m"] in chows
    w_claims = hand.legal_claims(2)
    assert {"type": "win", "seat": 2, "tile": "5m", "from": 0} in w_claims
    assert {"type": "pung", "seat": 2, "from": 0, "tile": "5m"} in w_claims
    assert not any(c["type"] == "chow" for c in w_claims)  # only next(E) may chow
    score, reason = hand.win_candidate(2, INDEX["5m"], WinSource.DISCARD)
    assert score is not None and reason is None
    assert hand.win_candidate(3, INDEX["5m"], WinSource.DISCARD) == (None, "WIN_HAND_INCOMPLETE")
    assert INDEX["5m"] in hand.waits(2)
    after = replay_to(rec, 2)
    assert (after.turn, after.phase) == (2, "wait")
    assert after.concealed_codes(1) == ("6m", "7m", "8m", "4p", "5p", "6p", "5s", "7s", "8s", "9s")


def test_options_defaults_record_options_and_overrides() -> None:
    import pytest
    from mjaudit.parts.replay.rulesets.hk.options import OptionError
    from mjaudit.parts.replay.rulesets.vn160.options import VN160_DEFAULTS, options_for

    assert (VN160_DEFAULTS.false_win_penalty, VN160_DEFAULTS.ru_domain) == (64, "suit_tiles")
    assert VN160_DEFAULTS.dealer_on_draw == "rotate" and VN160_DEFAULTS.max_mun is None
    assert options_for({"false_win_penalty": "64 each"}).false_win_penalty == 64
    custom = options_for({"khung_values": {"BM": {"base": 3}, "tong_hop_dau": 12}})
    assert custom.khung_value("BM") == (3, 0, 1, 2) and custom.tong_hop_dau_phan == 12
    with pytest.raises(OptionError):
        options_for({"ru_domain": "honours"})
    # F1 under a record option, then with a command-line override on top
    rec = f1_record()
    rec["options"] = {"false_win_penalty": 32}
    assert replay_hand(rec).deltas == deltas(S=-96, E=32, W=32, N=32)
    assert replay_hand(rec, {"false_win_penalty": 10}).deltas == deltas(S=-30, E=10, W=10, N=10)
    rec["options"] = {"no_such_option": 1}
    assert codes(replay_hand(rec)) == ["RECORD_INVALID"]
