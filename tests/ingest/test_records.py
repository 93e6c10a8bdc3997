"""``parse_record`` against the ``mjlog/1`` contract, and quarantine through ``ingest()``.

Every example of design/log-format.md, made into a full record, is accepted; each
quarantine cause gives its code, the JSON path of the field and a message saying what was
expected, both from ``parse_record`` and end to end as a row of the quarantine table.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from ingest_helpers import DROP, catalog_query, counts, line, record, write_lines
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.schemas.records import ErrorCode, RecordError, canonical_json, parse_record


def parse(rec: dict[str, Any]) -> dict[str, Any]:
    return parse_record(line(rec)).record


def rejected(raw: bytes) -> RecordError:
    with pytest.raises(RecordError) as info:
        parse_record(raw)
    return info.value


# --------------------------------------------------------------------------------------
# The examples of log-format.md are accepted, with the canonical form they should have


def test_base_record_canonical_form_is_the_record_itself() -> None:
    rec = record()
    assert parse(rec) == rec


def test_announce_nine_tile_warning_keeps_suit() -> None:
    ev = {"type": "announce", "seat": 2, "what": "nine_tile_warning", "suit": "s"}
    rec = record(events=[{"type": "draw", "seat": 0, "tile": "1s"}, ev])
    assert parse(rec)["events"][1] == ev


def test_american_dead_hand_announce_needs_no_prevailing_wind() -> None:
    ev = {"type": "announce", "seat": 3, "what": "dead_hand"}
    rec = record(ruleset="american", prevailing_wind=DROP, events=[ev, {"type": "exhaustive_draw"}])
    parsed = parse_record(line(rec))
    assert parsed.record == rec
    assert parsed.shape.id == "american"
    assert "prevailing_wind" not in parsed.record


def test_win_with_from_and_claim() -> None:
    win = {
        "type": "win",
        "seat": 1,
        "tile": "7z",
        "from": 0,
        "claim": {"fan": 5, "patterns": ["all_pungs", "dragon_pung"]},
    }
    rec = record(
        events=[{"type": "discard", "seat": 0, "tile": "7z"}, win],
        result={"winners": [1], "fan": 5, "patterns": ["all_pungs", "dragon_pung"]},
    )
    out = parse(rec)
    assert out["events"] == [
        {"type": "discard", "seat": 0, "tile": "C"},
        {**win, "tile": "C"},
    ]
    assert out["result"] == {"winners": [1], "fan": 5, "patterns": ["all_pungs", "dragon_pung"]}


def test_self_drawn_american_win_with_card_claim() -> None:
    win = {"type": "win", "seat": 2, "tile": "J", "claim": {"hand": "2468-1"}}
    rec = record(
        ruleset="american",
        prevailing_wind=DROP,
        events=[{"type": "draw", "seat": 2, "tile": "\U0001f02a"}, win],
    )
    out = parse(rec)
    assert out["events"] == [{"type": "draw", "seat": 2, "tile": "J"}, win]
    assert "from" not in out["events"][1]


def test_robbed_kong_win() -> None:
    events = [
        {"type": "added_kong", "seat": 0, "tile": "3p"},
        {"type": "win", "seat": 3, "tile": "3p", "from": 0, "robbed_kong": True},
    ]
    assert parse(record(events=events))["events"] == events


def test_robbed_kong_false_is_a_default_and_omitted() -> None:
    ev = {"type": "win", "seat": 3, "tile": "3p", "from": 0, "robbed_kong": False}
    assert parse(record(events=[ev]))["events"] == [
        {"type": "win", "seat": 3, "tile": "3p", "from": 0}
    ]


def test_result_with_penalties() -> None:
    result = {
        "winners": [],
        "deltas": [0, 0, 0, 0],
        "penalties": [{"seat": 2, "code": "FALSE_WIN", "deltas": [8, 8, -24, 8]}],
    }
    out = parse(record(result=result))
    assert out["result"] == {
        "deltas": [0.0, 0.0, 0.0, 0.0],
        "penalties": [{"seat": 2, "code": "FALSE_WIN", "deltas": [8.0, 8.0, -24.0, 8.0]}],
    }
    assert all(isinstance(d, float) for d in out["result"]["penalties"][0]["deltas"])


def test_penalty_unknown_fields_and_result_unknown_fields_are_kept() -> None:
    result = {
        "winners": [3, 1],
        "fan": 8,
        "settled_by": "referee",
        "penalties": [{"seat": 0, "code": "WRONG_DISCARD", "note": "second offence"}],
    }
    out = parse(record(result=result))
    assert out["result"] == {
        "winners": [1, 3],  # sorted
        "fan": 8,
        "settled_by": "referee",
        "penalties": [{"seat": 0, "code": "WRONG_DISCARD", "note": "second offence"}],
    }


def test_unknown_top_level_fields_are_kept_in_canonical_form() -> None:
    rec = record(client={"app": "TableApp", "version": [3, 1]}, comment="late start", rated=None)
    out = parse(rec)
    assert out["client"] == {"app": "TableApp", "version": [3, 1]}
    assert out["comment"] == "late start"
    assert "rated" in out and out["rated"] is None


def test_unknown_event_fields_are_kept() -> None:
    events = [
        {"type": "draw", "seat": 0, "tile": "1z", "ms": 1520},
        {"type": "discard", "seat": 0, "tile": "E", "tsumogiri": True, "ms": 3010},
        {"type": "exhaustive_draw", "note": {"tiles_left": 14}},
    ]
    assert parse(record(events=events))["events"] == [
        {"type": "draw", "seat": 0, "tile": "E", "ms": 1520},
        {"type": "discard", "seat": 0, "tile": "E", "tsumogiri": True, "ms": 3010},
        {"type": "exhaustive_draw", "note": {"tiles_left": 14}},
    ]


EVERY_EVENT = [
    {"type": "draw", "seat": 0, "tile": "1m"},
    {"type": "flower", "seat": 0, "tile": "f2"},
    {"type": "replacement", "seat": 0, "tile": "9s"},
    {"type": "discard", "seat": 0, "tile": "3m"},
    {"type": "chow", "seat": 1, "from": 0, "tile": "3m", "tiles": ["1m", "2m", "3m"]},
    {"type": "discard", "seat": 1, "tile": "W"},
    {"type": "pung", "seat": 3, "from": 1, "tile": "W"},
    {"type": "discard", "seat": 3, "tile": "5p"},
    {"type": "kong", "seat": 2, "from": 3, "tile": "5p"},
    {"type": "replacement", "seat": 2, "tile": "g3"},
    {"type": "flower", "seat": 2, "tile": "g3"},
    {"type": "replacement", "seat": 2, "tile": "N"},
    {"type": "concealed_kong", "seat": 2, "tile": "N"},
    {"type": "replacement", "seat": 2, "tile": "6s"},
    {"type": "discard", "seat": 2, "tile": "F"},
    {"type": "draw", "seat": 3, "tile": "W"},
    {"type": "added_kong", "seat": 3, "tile": "W"},
    {"type": "replacement", "seat": 3, "tile": "P"},
    {"type": "announce", "seat": 3, "what": "calling"},
    {"type": "discard", "seat": 3, "tile": "P"},
    {"type": "win", "seat": 0, "tile": "P", "from": 3},
]


def test_every_mahjong_event_type_and_every_optional_field() -> None:
    rec = record(
        hand_no=7,
        options={"min_fan": 3, "limit": 13},
        started_at="2026-03-01T19:30:00+07:00",
        venue="Hội quán Bến Thành",
        table="T3",
        dice=[3, 5, 6],
        wall=["1m", "f2", "9s"],
        dead_wall=["9s", "g3", "N", "6s", "P"],
        start_hands=[["2m", "3m"], ["1m", "2m"], ["N", "N", "N"], ["W", "W", "5p"]],
        events=EVERY_EVENT,
        result={
            "winners": [0],
            "fan": 4,
            "patterns": ["self_drawn"],
            "deltas": [48, -16, -16, -16],
        },
    )
    out = parse(rec)
    assert out == {**rec, "result": {**rec["result"], "deltas": [48.0, -16.0, -16.0, -16.0]}}


@pytest.mark.parametrize("first_tile_in_start_hand", [True, False])
def test_dealer_extra_tile_in_start_hands_or_first_draw(first_tile_in_start_hand: bool) -> None:
    dealer = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"]
    others = [["5p"] * 13, ["6p"] * 13, ["7p"] * 13]
    events = [{"type": "discard", "seat": 0, "tile": "E"}]
    if first_tile_in_start_hand:
        hands = [[*dealer, "E"], *others]
    else:
        hands = [dealer, *others]
        events = [{"type": "draw", "seat": 0, "tile": "E"}, *events]
    rec = record(start_hands=hands, events=events)
    assert parse(rec) == rec


def test_record_without_start_hands_and_wall_is_accepted() -> None:
    out = parse(record())
    assert "start_hands" not in out and "wall" not in out


@pytest.mark.parametrize(
    ("ruleset", "n_players", "tile"),
    [
        ("hk-classic", 4, "5s"),
        ("hk-mahjongo", 4, "5s"),
        ("hk-mahjongo-2p", 2, "5s"),
        ("vn-160", 4, "BT2"),
        ("american", 4, "FL"),
        ("chan", 2, "CC"),
        ("chan", 3, "2v"),
        ("chan", 5, "9n"),
    ],
)
def test_each_ruleset_and_player_count(ruleset: str, n_players: int, tile: str) -> None:
    wind = "E" if ruleset not in ("american", "chan") else DROP
    rec = record(
        ruleset=ruleset,
        prevailing_wind=wind,
        players=[f"p{i}" for i in range(n_players)],
        dealer=n_players - 1,
        events=[{"type": "draw", "seat": n_players - 1, "tile": tile}, {"type": "exhaustive_draw"}],
        result={"winners": [], "deltas": [0] * n_players},
    )
    out = parse(rec)
    assert out["ruleset"] == ruleset
    assert out["events"][0]["tile"] == tile
    assert out["result"] == {"deltas": [0.0] * n_players}


def test_vn160_pung_with_khung() -> None:
    ev = {"type": "pung", "seat": 1, "from": 0, "tile": "5m", "with": ["5m", "BM"]}
    rec = record(ruleset="vn-160", events=[{"type": "discard", "seat": 0, "tile": "5m"}, ev])
    assert parse(rec)["events"][1] == ev


def test_abandon_with_and_without_reason() -> None:
    for ev in ({"type": "abandon", "reason": "dispute"}, {"type": "abandon"}):
        assert parse(record(events=[ev]))["events"] == [ev]


def test_started_at_keeps_its_offset() -> None:
    assert parse(record(started_at="2026-03-01T19:30:00-03:30"))["started_at"] == (
        "2026-03-01T19:30:00-03:30"
    )
    assert parse(record(started_at="2026-03-01T12:30:00+00:00"))["started_at"] == (
        "2026-03-01T12:30:00Z"
    )


def test_aliases_are_normalised_everywhere() -> None:
    rec = record(
        wall=["5z", "\U0001f004\ufe0f"],
        dead_wall=["\U0001f024"],
        start_hands=[["1z"], ["\U0001f010"], ["\U0001f019"], ["6z"]],
        events=[
            {"type": "discard", "seat": 0, "tile": "\U0001f007"},
            {
                "type": "chow",
                "seat": 1,
                "from": 0,
                "tile": "\U0001f007",
                "tiles": ["1m", "2m", "3m"],
            },
            {"type": "flower", "seat": 1, "tile": "\U0001f025"},
        ],
    )
    rec["events"][1]["tiles"] = ["\U0001f007", "\U0001f008", "\U0001f009"]
    out = parse(rec)
    assert out["wall"] == ["P", "C"]
    assert out["dead_wall"] == ["f4"]
    assert out["start_hands"] == [["E"], ["1s"], ["1p"], ["F"]]
    assert out["events"] == [
        {"type": "discard", "seat": 0, "tile": "1m"},
        {"type": "chow", "seat": 1, "from": 0, "tile": "1m", "tiles": ["1m", "2m", "3m"]},
        {"type": "flower", "seat": 1, "tile": "f3"},
    ]


def test_canonical_json_and_content_hash_are_stable() -> None:
    """The content hash decides 'already present' vs 'conflict' on re-ingest: it must not drift."""
    rec = record(
        events=[{"type": "win", "seat": 1, "tile": "5z", "from": 0, "robbed_kong": False}],
        result={"winners": [1], "fan": 3, "deltas": [-8, 8, 0, 0]},
        zz=1,
    )
    parsed = parse_record(line(rec))
    assert canonical_json(parsed.record) == (
        b'{"dealer":0,"events":[{"from":0,"seat":1,"tile":"P","type":"win"}],"format":"mjlog/1",'
        b'"game_id":"club-2026-03-01-t1","hand_no":1,"players":["an","binh","chi","dung"],'
        b'"prevailing_wind":"E","result":{"deltas":[-8.0,8.0,0.0,0.0],"fan":3,"winners":[1]},'
        b'"ruleset":"hk-classic","zz":1}'
    )
    assert (
        parsed.content_hash
        == hashlib.blake2b(canonical_json(parsed.record), digest_size=16).hexdigest()
    )
    assert parsed.key == ("club-2026-03-01-t1", 1)


def test_content_hash_ignores_whitespace_key_order_and_aliases() -> None:
    rec = record(
        wall=["5z", "1m"],
        events=[{"type": "discard", "seat": 0, "tile": "7z"}, {"type": "exhaustive_draw"}],
        result={"winners": [2, 0], "deltas": [1, 0, -1, 0]},
        extra_info={"b": 1, "a": 2},
    )
    same = dict(reversed(list(record().items())))
    same.update(
        wall=["\U0001f006", "\U0001f007\ufe0f"],
        events=[{"tile": "\U0001f004", "seat": 0, "type": "discard"}, {"type": "exhaustive_draw"}],
        result={"deltas": [1.0, 0.0, -1.0, 0.0], "winners": [0, 2]},
        extra_info={"a": 2, "b": 1},
    )
    raw_a = json.dumps(rec).encode()
    raw_b = json.dumps(same, indent=3, ensure_ascii=False).encode()
    raw_c = b"  " + json.dumps(rec, separators=(",", ":")).encode() + b"\t "
    assert raw_a != raw_b
    hashes = {parse_record(r).content_hash for r in (raw_a, raw_b, raw_c)}
    assert len(hashes) == 1

    changed = json.loads(raw_a)
    changed["events"][0]["tile"] = "6z"
    assert parse_record(json.dumps(changed).encode()).content_hash not in hashes
    extra_changed = {**json.loads(raw_a), "extra_info": {"a": 2, "b": 2}}
    assert parse_record(json.dumps(extra_changed).encode()).content_hash not in hashes


# --------------------------------------------------------------------------------------
# Quarantine causes: (id, raw line, code, field path, substrings the message must contain)


def _raw(rec: dict[str, Any]) -> bytes:
    return json.dumps(rec, ensure_ascii=False).encode()


def _event(i: int, **fields: Any) -> dict[str, Any]:
    events = [
        {"type": "draw", "seat": 0, "tile": "5m"},
        {"type": "discard", "seat": 0, "tile": "9p"},
    ]
    events[i] = fields
    return record(hand_no=9, events=events)


_LATIN1 = _raw(record(hand_no=9, venue="CAFE")).replace(b"CAFE", b"CAF\xc9")

CASES: list[tuple[str, bytes, ErrorCode, str, list[str]]] = [
    ("bad-json", b'{"format": "mjlog/1", "game_id": "g", ', ErrorCode.BAD_JSON, "$", ["JSON"]),
    ("bad-json-trailing", _raw(record(hand_no=9)) + b" }", ErrorCode.BAD_JSON, "$", ["JSON"]),
    ("bad-encoding", _LATIN1, ErrorCode.BAD_ENCODING, "$", ["UTF-8"]),
    ("not-object-array", b"[1, 2]", ErrorCode.NOT_AN_OBJECT, "$", ["expected a JSON object"]),
    ("not-object-string", b'"hand 9"', ErrorCode.NOT_AN_OBJECT, "$", ["expected a JSON object"]),
    (
        "missing-game-id",
        _raw(record(hand_no=9, game_id=DROP)),
        ErrorCode.MISSING_FIELD,
        "$.game_id",
        ["required"],
    ),
    (
        "missing-event-tile",
        _raw(_event(1, type="discard", seat=0)),
        ErrorCode.MISSING_FIELD,
        "$.events[1].tile",
        ["required"],
    ),
    (
        "missing-event-type",
        _raw(_event(1, seat=0, tile="9p")),
        ErrorCode.MISSING_FIELD,
        "$.events[1].type",
        ["required"],
    ),
    (
        "missing-events",
        _raw(record(hand_no=9, events=DROP)),
        ErrorCode.MISSING_FIELD,
        "$.events",
        ["required"],
    ),
    (
        "missing-prevailing-wind",
        _raw(record(hand_no=9, prevailing_wind=DROP)),
        ErrorCode.MISSING_FIELD,
        "$.prevailing_wind",
        ["hk-classic", "E, S, W, N"],
    ),
    (
        "hand-no-string",
        _raw(record(hand_no="9")),
        ErrorCode.WRONG_TYPE,
        "$.hand_no",
        ["Expected `int`, got `str`"],
    ),
    (
        "players-string",
        _raw(record(hand_no=9, players="an,binh,chi,dung")),
        ErrorCode.WRONG_TYPE,
        "$.players",
        ["Expected `array`, got `str`"],
    ),
    (
        "event-seat-out-of-range",
        _raw(_event(1, type="discard", seat=4, tile="9p")),
        ErrorCode.INVALID_VALUE,
        "$.events[1].seat",
        ["seat 4", "0-3"],
    ),
    (
        "claim-from-out-of-range",
        _raw(_event(1, type="pung", seat=1, **{"from": 4}, tile="9p")),
        ErrorCode.INVALID_VALUE,
        "$.events[1].from",
        ["0-3"],
    ),
    (
        "dealer-out-of-range-2p",
        _raw(record(hand_no=9, ruleset="hk-mahjongo-2p", players=["a", "b"], dealer=2)),
        ErrorCode.INVALID_VALUE,
        "$.dealer",
        ["0-1"],
    ),
    (
        "deltas-wrong-length",
        _raw(record(hand_no=9, result={"winners": [0], "deltas": [16, -8, -8]})),
        ErrorCode.INVALID_VALUE,
        "$.result.deltas",
        ["expected one delta per player (4), got 3"],
    ),
    (
        "penalty-deltas-wrong-length",
        _raw(record(hand_no=9, result={"penalties": [{"seat": 1, "code": "X", "deltas": [1]}]})),
        ErrorCode.INVALID_VALUE,
        "$.result.penalties[0].deltas",
        ["expected one delta per player (4), got 1"],
    ),
    (
        "winner-listed-twice",
        _raw(record(hand_no=9, result={"winners": [1, 1]})),
        ErrorCode.INVALID_VALUE,
        "$.result.winners",
        ["twice"],
    ),
    (
        "timestamp-without-offset",
        _raw(record(hand_no=9, started_at="2026-03-01T19:30:00")),
        ErrorCode.INVALID_VALUE,
        "$.started_at",
        ["UTC offset", "expected e.g. 2026-03-01T19:30:00+07:00"],
    ),
    ("hand-no-zero", _raw(record(hand_no=0)), ErrorCode.INVALID_VALUE, "$.hand_no", [">= 1"]),
    (
        "wrong-player-count",
        _raw(record(hand_no=9, ruleset="hk-mahjongo-2p")),
        ErrorCode.INVALID_VALUE,
        "$.players",
        ["hk-mahjongo-2p needs 2 players, got 4"],
    ),
    (
        "chow-two-tiles",
        _raw(_event(1, type="chow", seat=1, **{"from": 0}, tile="1m", tiles=["1m", "2m"])),
        ErrorCode.INVALID_VALUE,
        "$.events[1].tiles",
        ["length >= 3"],
    ),
    # The three below are held to the promise of schemas/records.py ("a sentence saying what
    # was expected"): the msgspec text alone does not say it.
    (
        "event-seat-beyond-five",
        _raw(_event(1, type="discard", seat=7, tile="9p")),
        ErrorCode.INVALID_VALUE,
        "$.events[1].seat",
        ["0-3"],
    ),
    (
        "prevailing-wind-invalid",
        _raw(record(hand_no=9, prevailing_wind="X")),
        ErrorCode.INVALID_VALUE,
        "$.prevailing_wind",
        ["E, S, W, N"],
    ),
    (
        "timestamp-malformed",
        _raw(record(hand_no=9, started_at="yesterday evening")),
        ErrorCode.INVALID_VALUE,
        "$.started_at",
        ["expected"],
    ),
    (
        "unknown-format",
        _raw(record(hand_no=9, format="mjlog/2")),
        ErrorCode.UNKNOWN_FORMAT,
        "$.format",
        ["'mjlog/2'", "expected 'mjlog/1'"],
    ),
    (
        "unknown-ruleset",
        _raw(record(hand_no=9, ruleset="mcr")),
        ErrorCode.UNKNOWN_RULESET,
        "$.ruleset",
        ["'mcr'", "hk-classic, hk-mahjongo, hk-mahjongo-2p, vn-160, american, chan, riichi"],
    ),
    (
        "unknown-event",
        _raw(_event(1, type="charleston", seat=0, tiles=["1m", "2m", "3m"])),
        ErrorCode.UNKNOWN_EVENT,
        "$.events[1].type",
        ["'charleston'", "draw, flower, replacement, discard"],
    ),
    (
        "unknown-tile-event",
        _raw(_event(1, type="discard", seat=0, tile="0m")),
        ErrorCode.UNKNOWN_TILE,
        "$.events[1].tile",
        ["'0m'", "1m-9m"],
    ),
    (
        "unknown-tile-wall",
        _raw(record(hand_no=9, wall=["1m", "2m", "Z"])),
        ErrorCode.UNKNOWN_TILE,
        "$.wall[2]",
        ["'Z'", "1m-9m"],
    ),
    (
        "unknown-tile-dead-wall",
        _raw(record(hand_no=9, dead_wall=["J"])),
        ErrorCode.UNKNOWN_TILE,
        "$.dead_wall[0]",
        ["'J'", "1m-9m"],
    ),
    (
        "unknown-tile-start-hands",
        _raw(record(hand_no=9, start_hands=[["1m"], ["2m"], ["3m", "BT"], ["4m"]])),
        ErrorCode.UNKNOWN_TILE,
        "$.start_hands[2][1]",
        ["'BT'", "mahjong (hk-*)"],
    ),
    (
        "unknown-tile-chow-tiles",
        _raw(_event(1, type="chow", seat=1, **{"from": 0}, tile="1m", tiles=["1m", "2m", "10m"])),
        ErrorCode.UNKNOWN_TILE,
        "$.events[1].tiles[2]",
        ["'10m'"],
    ),
    (
        "unknown-tile-chan",
        _raw(
            record(
                hand_no=9,
                ruleset="chan",
                prevailing_wind=DROP,
                events=[{"type": "draw", "seat": 0, "tile": "2m"}],
            )
        ),
        ErrorCode.UNKNOWN_TILE,
        "$.events[0].tile",
        ["'2m'", "2v-9v, 2n-9n, 2s-9s or CC"],
    ),
]


@pytest.mark.parametrize(
    ("raw", "code", "path", "needles"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_parse_record_rejects(raw: bytes, code: ErrorCode, path: str, needles: list[str]) -> None:
    err = rejected(raw)
    assert (err.code, err.path) == (code, path)
    for needle in needles:
        assert needle in err.message
    assert str(err) == f"{path}: {err.message}"


@pytest.mark.parametrize(
    ("raw", "code", "path", "needles"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_ingest_quarantines(
    tmp_path: Path, raw: bytes, code: ErrorCode, path: str, needles: list[str]
) -> None:
    """Good line, bad line, good line: the bad one goes whole and byte-exact to quarantine."""
    good1, good2 = record(hand_no=1), record(hand_no=2)
    log = write_lines(tmp_path / "night.jsonl", [line(good1), raw, line(good2)])
    data = tmp_path / "data"
    summary = ingest([str(log)], data)

    assert summary.records == 3
    assert summary.hands_added == 2
    assert summary.quarantined == Counter({code.value: 1})
    assert counts(data) == {
        "hands": 2,
        "seats": 8,
        "events": 6,
        "recorded_results": 0,
        "quarantine": 1,
    }
    rows = DataDir(data).read("quarantine").to_pylist()
    assert len(rows) == 1
    row = rows[0]
    assert row["source_file"] == str(log.resolve())
    assert row["source_line"] == 2
    assert row["code"] == code.value
    assert row["field"] == path
    assert row["raw"] == raw
    assert row["raw_hash"] == hashlib.blake2b(raw, digest_size=16).hexdigest()
    message = row["message"]
    assert message.startswith(f"{log.resolve()}:2: ")
    assert path in message
    for needle in needles:
        assert needle in message
    hands = DataDir(data).read("hands").to_pylist()
    assert [(h["hand_no"], h["source_line"]) for h in hands] == [(1, 1), (2, 3)]
    assert catalog_query(data, "select code, field from quarantine") == [(code.value, path)]


def test_good_records_beside_bad_ones_are_all_ingested(tmp_path: Path) -> None:
    lines = [
        line(record(hand_no=1)),
        b"",
        b"{not json",
        line(record(hand_no=2, ruleset="mcr")),
        line(record(hand_no=3)),
        b"   ",
        line(record(hand_no=4, events=[{"type": "discard", "seat": 0, "tile": "0p"}])),
        line(record(hand_no=5)),
    ]
    log = write_lines(tmp_path / "mixed.jsonl", lines)
    summary = ingest([str(log)], tmp_path / "data")
    assert summary.records == 6  # blank lines are not records
    assert summary.hands_added == 3
    assert summary.quarantined == Counter({"BAD_JSON": 1, "UNKNOWN_RULESET": 1, "UNKNOWN_TILE": 1})
    data = DataDir(tmp_path / "data")
    assert [(h["hand_no"], h["source_line"]) for h in data.read("hands").to_pylist()] == [
        (1, 1),
        (3, 5),
        (5, 8),
    ]
    q = sorted((r["source_line"], r["code"], r["raw"]) for r in data.read("quarantine").to_pylist())
    assert q == [
        (3, "BAD_JSON", lines[2]),
        (4, "UNKNOWN_RULESET", lines[3]),
        (7, "UNKNOWN_TILE", lines[6]),
    ]


def test_hand_rows_carry_the_canonical_content(tmp_path: Path) -> None:
    rec = record(
        hand_no=3,
        started_at="2026-03-01T19:30:00+07:00",
        client={"app": "TableApp"},
        events=[
            {"type": "announce", "seat": 2, "what": "nine_tile_warning", "suit": "s"},
            {"type": "discard", "seat": 0, "tile": "5z", "ms": 120},
            {"type": "win", "seat": 1, "tile": "P", "from": 0, "claim": {"fan": 5}},
        ],
        result={"winners": [1], "fan": 5, "deltas": [-40, 40, 0, 0], "penalties": []},
    )
    log = write_lines(tmp_path / "a.jsonl", [line(rec)])
    ingest([str(log)], tmp_path / "data")
    data = DataDir(tmp_path / "data")
    hand = data.read("hands").to_pylist()[0]
    assert hand["extra"] == '{"client":{"app":"TableApp"}}'
    assert hand["utc_offset_minutes"] == 420
    assert hand["n_events"] == 3
    assert hand["has_result"] is True
    assert hand["game"] == "mahjong"
    assert hand["content_hash"] == parse_record(line(rec)).content_hash
    events = data.read("events").to_pylist()
    assert [(e["type"], e["seat"], e["tile"], e["from_seat"], e["extra"]) for e in events] == [
        ("announce", 2, None, None, '{"suit":"s","what":"nine_tile_warning"}'),
        ("discard", 0, "P", None, '{"ms":120}'),
        ("win", 1, "P", 0, '{"claim":{"fan":5}}'),
    ]
    results = data.read("recorded_results").to_pylist()
    assert [(r["seat"], r["player"], r["delta"], r["is_winner"], r["fan"]) for r in results] == [
        (0, "an", -40.0, False, 5),
        (1, "binh", 40.0, True, 5),
        (2, "chi", 0.0, False, 5),
        (3, "dung", 0.0, False, 5),
    ]
    seats = data.read("seats").to_pylist()
    assert [(s["seat"], s["seat_wind"]) for s in seats] == [(0, "E"), (1, "S"), (2, "W"), (3, "N")]


def test_seat_rows_and_winds(tmp_path: Path) -> None:
    recs = [
        record(hand_no=1, dealer=2),
        record(
            hand_no=2,
            ruleset="hk-mahjongo-2p",
            players=["an", "binh"],
            dealer=1,
            options={"two_player_seats": ["E", "S"]},
        ),
        record(hand_no=3, ruleset="chan", prevailing_wind=DROP, players=["a", "b", "c"], events=[]),
    ]
    ingest([str(write_lines(tmp_path / "a.jsonl", [line(r) for r in recs]))], tmp_path / "data")
    seats = DataDir(tmp_path / "data").read("seats").to_pylist()
    # rows come per partition (ruleset, month), so compare them in key order
    seats.sort(key=lambda s: (s["hand_no"], s["seat"]))
    assert [(s["hand_no"], s["seat"], s["player"], s["seat_wind"]) for s in seats] == [
        (1, 0, "an", "W"),
        (1, 1, "binh", "N"),
        (1, 2, "chi", "E"),
        (1, 3, "dung", "S"),
        (2, 0, "an", "S"),
        (2, 1, "binh", "E"),
        (3, 0, "a", None),
        (3, 1, "b", None),
        (3, 2, "c", None),
    ]
    hands = sorted(DataDir(tmp_path / "data").read("hands").to_pylist(), key=lambda h: h["hand_no"])
    assert [(h["game"], h["n_players"], h["options"]) for h in hands] == [
        ("mahjong", 4, "{}"),
        ("mahjong", 2, '{"two_player_seats":["E","S"]}'),
        ("chan", 3, "{}"),
    ]


def test_event_rows_keep_fields_that_have_no_column(tmp_path: Path) -> None:
    """``what``, ``reason`` and unknown fields live in events.extra, even when they are the
    event's only field besides type/seat."""
    rec = record(
        ruleset="american",
        prevailing_wind=DROP,
        events=[
            {"type": "announce", "seat": 3, "what": "dead_hand"},
            {"type": "exhaustive_draw", "note": "wall empty"},
            {"type": "abandon", "reason": "dispute"},
        ],
    )
    log = write_lines(tmp_path / "a.jsonl", [line(rec)])
    ingest([str(log)], tmp_path / "data")
    events = DataDir(tmp_path / "data").read("events").to_pylist()
    assert [(e["type"], e["seat"], e["extra"]) for e in events] == [
        ("announce", 3, '{"what":"dead_hand"}'),
        ("exhaustive_draw", None, '{"note":"wall empty"}'),
        ("abandon", None, '{"reason":"dispute"}'),
    ]
    assert catalog_query(
        tmp_path / "data", "select count(*) from events where extra like '%dead_hand%'"
    ) == [(1,)]


# --------------------------------------------------------------------------------------
# DUPLICATE_KEY_CONFLICT: same game_id + hand_no, different content; the stored one is kept


def test_conflict_within_one_file(tmp_path: Path) -> None:
    first = record(hand_no=4)
    second = record(hand_no=4, table="T9")
    raw2 = line(second)
    log = write_lines(tmp_path / "a.jsonl", [line(first), raw2, line(record(hand_no=5))])
    summary = ingest([str(log)], tmp_path / "data")
    assert summary.hands_added == 2
    assert summary.quarantined == Counter({"DUPLICATE_KEY_CONFLICT": 1})
    data = DataDir(tmp_path / "data")
    hands = {h["hand_no"]: h for h in data.read("hands").to_pylist()}
    assert hands[4]["table"] is None
    assert hands[4]["content_hash"] == parse_record(line(first)).content_hash
    (row,) = data.read("quarantine").to_pylist()
    assert (row["source_line"], row["code"], row["field"]) == (
        2,
        "DUPLICATE_KEY_CONFLICT",
        "$.hand_no",
    )
    assert (row["game_id"], row["hand_no"]) == ("club-2026-03-01-t1", 4)
    assert row["raw"] == raw2
    assert row["message"].startswith(f"{log.resolve()}:2: $.hand_no: ")
    assert "already ingested with different content" in row["message"]
    assert "expected a record identical to the stored one" in row["message"]
    assert "the stored record is kept" in row["message"]


def test_conflict_across_runs_keeps_the_stored_record(tmp_path: Path) -> None:
    stored = record(hand_no=4, result={"winners": [1], "fan": 3})
    changed = record(hand_no=4, result={"winners": [1], "fan": 6})
    data = tmp_path / "data"
    ingest([str(write_lines(tmp_path / "a.jsonl", [line(stored)]))], data)
    before = counts(data)

    b = write_lines(tmp_path / "b.jsonl", [line(changed)])
    summary = ingest([str(b)], data)
    assert summary.hands_added == 0
    assert summary.skipped_present == 0
    assert summary.quarantined == Counter({"DUPLICATE_KEY_CONFLICT": 1})
    assert counts(data) == {**before, "quarantine": 1}
    hands = DataDir(data).read("hands").to_pylist()
    assert [(h["hand_no"], h["source_file"]) for h in hands] == [
        (4, str((tmp_path / "a.jsonl").resolve()))
    ]
    results = DataDir(data).read("recorded_results").to_pylist()
    assert {r["fan"] for r in results} == {3}
    (row,) = DataDir(data).read("quarantine").to_pylist()
    assert (row["source_file"], row["source_line"], row["raw"]) == (
        str(b.resolve()),
        1,
        line(changed),
    )

    # Reporting the conflict again on a re-run would add a second row: it must not.
    again = ingest([str(b)], data)
    assert again.quarantined == Counter()
    assert counts(data) == {**before, "quarantine": 1}


def test_same_hand_written_differently_is_not_a_conflict(tmp_path: Path) -> None:
    rec = record(hand_no=4, events=[{"type": "discard", "seat": 0, "tile": "C"}])
    alias = json.loads(json.dumps(rec))
    alias["events"][0]["tile"] = "\U0001f004"
    data = tmp_path / "data"
    ingest([str(write_lines(tmp_path / "a.jsonl", [line(rec)]))], data)
    summary = ingest(
        [str(write_lines(tmp_path / "b.jsonl", [json.dumps(alias, indent=None).encode() + b"  "]))],
        data,
    )
    assert (summary.hands_added, summary.skipped_present) == (0, 1)
    assert summary.quarantined == Counter()
    assert counts(data)["hands"] == 1


def test_message_for_a_short_chow_is_about_the_count() -> None:
    """The problem is two tiles instead of three, not a bad tile code."""
    raw = _raw(_event(1, type="chow", seat=1, **{"from": 0}, tile="1m", tiles=["1m", "2m"]))
    err = rejected(raw)
    assert (err.code, err.path) == (ErrorCode.INVALID_VALUE, "$.events[1].tiles")
    assert "3" in err.message
    assert "tile code" not in err.message
