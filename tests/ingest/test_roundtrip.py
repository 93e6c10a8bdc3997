"""Property: a valid ``mjlog/1`` record survives parse -> rows -> Parquet -> rows -> record.

Generated records vary the ruleset (chắn cards, vn-160 khung codes, american jokers), the
optional fields, unknown extra fields (top level, events, result, penalties), results with
and without deltas and penalties, started_at with offsets, and tile aliases. Each one must
also be valid under the committed JSON Schema (Draft 2020-12).
"""

from __future__ import annotations

import json
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from ingest_helpers import DROP, line, record
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.schemas.records import RecordError, parse_record
from mjaudit.parts.schemas.rows import RowBuffers, records_from_tables
from mjaudit.parts.schemas.rulesets import RULESET_IDS, RULESETS
from mjaudit.parts.schemas.tiles import TileSet

from bench.synthlog import records as synth_records

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "schemas" / "mjlog-1.schema.json"

# Names of unknown fields; none is a field of the format (those have their own tests).
TOP_EXTRA = ["client", "comment", "x_source", "rated", "notes"]
EVENT_EXTRA = ["ms", "note", "client_seq", "x"]
RESULT_EXTRA = ["settled_by", "note"]
PENALTY_EXTRA = ["note", "referee"]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
numbers = st.integers(-100_000, 100_000) | st.floats(
    allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12
)

_Z = [f"{i}z" for i in range(1, 8)]
_UNICODE = [chr(cp) for cp in range(0x1F000, 0x1F02B)]


def tiles_of(tileset: TileSet) -> st.SearchStrategy[str]:
    """Canonical codes, and the aliases this tile set accepts (Unicode with or without VS)."""
    canonical = st.sampled_from(tileset.codes)
    z = [a for a in _Z if a in tileset]
    uni = [a for a in _UNICODE if a in tileset]
    if not z:
        return canonical
    return st.one_of(
        canonical,
        canonical,
        st.sampled_from(z),
        st.tuples(st.sampled_from(uni), st.sampled_from(["", "\ufe0f", "\ufe0e"])).map("".join),
    )


def offsets() -> st.SearchStrategy[timezone]:
    return st.integers(-12 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))


def timestamps() -> st.SearchStrategy[str]:
    return st.tuples(
        st.datetimes(
            min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31), timezones=offsets()
        ),
        st.booleans(),
    ).map(lambda t: t[0].isoformat().replace("+00:00", "Z" if t[1] else "+00:00"))


def _with_extra(base: st.SearchStrategy[dict], names: list[str]) -> st.SearchStrategy[dict]:
    extra = st.dictionaries(st.sampled_from(names), json_values, max_size=2)
    return st.tuples(base, extra).map(lambda t: {**t[0], **t[1]})


def events_of(n: int, tile: st.SearchStrategy[str]) -> st.SearchStrategy[dict[str, Any]]:
    seat = st.integers(0, n - 1)
    with_ = st.lists(tile, max_size=3)

    def ev(kind: str, required: dict, optional: dict | None = None) -> st.SearchStrategy[dict]:
        return st.fixed_dictionaries({"type": st.just(kind), **required}, optional=optional or {})

    basic = [
        ev(kind, {"seat": seat, "tile": tile})
        for kind in ("draw", "flower", "replacement", "discard")
    ]
    kinds = [
        *basic,
        ev(
            "chow",
            {
                "seat": seat,
                "from": seat,
                "tile": tile,
                "tiles": st.lists(tile, min_size=3, max_size=3),
            },
        ),
        ev("pung", {"seat": seat, "from": seat, "tile": tile}, {"with": with_}),
        ev("kong", {"seat": seat, "from": seat, "tile": tile}, {"with": with_}),
        ev("concealed_kong", {"seat": seat, "tile": tile}, {"with": with_}),
        ev("added_kong", {"seat": seat, "tile": tile}, {"with": with_}),
        ev(
            "announce",
            {"seat": seat, "what": st.text(min_size=1, max_size=12)},
            {"suit": st.sampled_from(["m", "p", "s"]), "target": seat},
        ),
        ev(
            "win",
            {"seat": seat, "tile": tile},
            {
                "from": seat,
                "robbed_kong": st.booleans(),
                "claim": st.dictionaries(st.text(max_size=6), json_values, max_size=3),
            },
        ),
        ev("exhaustive_draw", {}),
        ev("abandon", {}, {"reason": st.text(max_size=12)}),
    ]
    return _with_extra(st.one_of(kinds), EVENT_EXTRA)


def results_of(n: int) -> st.SearchStrategy[dict[str, Any]]:
    seat = st.integers(0, n - 1)
    deltas = st.lists(numbers, min_size=n, max_size=n)
    penalty = _with_extra(
        st.fixed_dictionaries(
            {"seat": seat, "code": st.sampled_from(["FALSE_WIN", "WRONG_DISCARD", "DEAD_HAND"])},
            optional={"deltas": deltas},
        ),
        PENALTY_EXTRA,
    )
    base = st.fixed_dictionaries(
        {},
        optional={
            "winners": st.lists(seat, unique=True, max_size=n),
            "fan": st.integers(-(2**31), 2**31 - 1),
            "patterns": st.lists(st.text(max_size=10), max_size=3),
            "deltas": deltas,
            "penalties": st.lists(penalty, max_size=2),
        },
    )
    return _with_extra(base, RESULT_EXTRA)


@st.composite
def mjlog_records(draw: st.DrawFn) -> dict[str, Any]:
    ruleset = draw(st.sampled_from(RULESET_IDS))
    shape = RULESETS[ruleset]
    n = draw(st.integers(shape.min_players, shape.max_players))
    tile = tiles_of(shape.tiles)
    seat = st.integers(0, n - 1)
    rec: dict[str, Any] = {
        "format": "mjlog/1",
        "game_id": draw(st.text(min_size=1, max_size=12)),
        "hand_no": draw(st.integers(1, 2**31 - 1)),
        "ruleset": ruleset,
        "players": draw(st.lists(st.text(min_size=1, max_size=8), min_size=n, max_size=n)),
        "dealer": draw(seat),
        "events": draw(st.lists(events_of(n, tile), max_size=8)),
    }
    if shape.needs_prevailing_wind or draw(st.booleans()):
        rec["prevailing_wind"] = draw(st.sampled_from("ESWN"))
    optional = {
        "options": st.dictionaries(st.text(min_size=1, max_size=8), json_values, max_size=3),
        "started_at": timestamps(),
        "venue": st.text(max_size=10),
        "table": st.text(max_size=4),
        "dice": st.lists(st.integers(1, 6), max_size=3),
        "wall": st.lists(tile, max_size=12),
        "dead_wall": st.lists(tile, max_size=6),
        "start_hands": st.lists(st.lists(tile, max_size=5), min_size=n, max_size=n),
        "result": results_of(n),
    }
    for name, strategy in optional.items():
        if draw(st.booleans()):
            rec[name] = draw(strategy)
    for name in draw(st.lists(st.sampled_from(TOP_EXTRA), unique=True, max_size=2)):
        rec[name] = draw(json_values)
    # Key order and encoding must not matter.
    if draw(st.booleans()):
        rec = dict(reversed(list(rec.items())))
    return rec


def encode(rec: dict[str, Any], ascii_only: bool) -> bytes:
    return json.dumps(rec, ensure_ascii=ascii_only).encode()


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    assert SCHEMA_PATH.exists(), (
        f"{SCHEMA_PATH} missing: run `python -m mjaudit.parts.schemas.generate`"
    )
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def roundtrip(raws: list[bytes], root: Path) -> tuple[list[dict], list[dict]]:
    """Parse, fill RowBuffers, commit to Parquet, read back, rebuild the records."""
    parsed = [parse_record(raw) for raw in raws]
    buffers = RowBuffers()
    for i, p in enumerate(parsed):
        buffers.add(p, "gen.jsonl", i + 1)
    data = DataDir(root)
    with data.writing():
        data.commit(buffers.to_tables())
    tables = {name: data.read(name) for name in data.schemas}
    return [p.record for p in parsed], list(records_from_tables(tables))


NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]  # shrinking 40 Parquet writes is slow
SLOW = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@settings(SLOW, max_examples=40, phases=NO_SHRINK)
@given(recs=st.lists(mjlog_records(), min_size=1, max_size=3), ascii_only=st.booleans())
def test_record_survives_parquet_roundtrip(
    validator: jsonschema.Draft202012Validator, recs: list[dict[str, Any]], ascii_only: bool
) -> None:
    """Not shrunk (40 Parquet writes per shrink step is slow): the in-memory property below
    checks the same conversion and shrinks to a minimal example."""
    for i, rec in enumerate(recs):  # one hand per key
        rec["game_id"] = f"{rec['game_id']}#{i}"
    for rec in recs:
        validator.validate(rec)
    with tempfile.TemporaryDirectory() as tmp:
        canonical, back = roundtrip([encode(r, ascii_only) for r in recs], Path(tmp))
    assert back == canonical


@settings(SLOW, max_examples=200)
@given(rec=mjlog_records())
def test_generated_records_are_valid_under_json_schema_and_parse(
    validator: jsonschema.Draft202012Validator, rec: dict[str, Any]
) -> None:
    validator.validate(rec)
    parsed = parse_record(encode(rec, True))
    # The canonical form is itself a valid record, and a fixed point.
    validator.validate(parsed.record)
    again = parse_record(json.dumps(parsed.record).encode())
    assert again.record == parsed.record
    assert again.content_hash == parsed.content_hash


@settings(SLOW, max_examples=150)
@given(recs=st.lists(mjlog_records(), min_size=1, max_size=4))
def test_rows_roundtrip_in_memory(recs: list[dict[str, Any]]) -> None:
    for i, rec in enumerate(recs):
        rec["game_id"] = f"{rec['game_id']}#{i}"
    parsed = [parse_record(encode(r, False)) for r in recs]
    buffers = RowBuffers()
    for i, p in enumerate(parsed):
        buffers.add(p, "gen.jsonl", i + 1)
    assert list(records_from_tables(buffers.to_tables())) == [p.record for p in parsed]


def test_synthetic_records_roundtrip(
    tmp_path: Path, validator: jsonschema.Draft202012Validator
) -> None:
    recs = list(synth_records(3, seed=11))
    for rec in recs:
        validator.validate(rec)
    canonical, back = roundtrip([line(r) for r in recs], tmp_path / "data")
    assert back == canonical
    assert len(back) == 3 and back[0]["events"][-1] == {"type": "exhaustive_draw"}


def test_committed_schema_is_fresh() -> None:
    from mjaudit.parts.schemas.generate import render

    assert SCHEMA_PATH.read_text(encoding="utf-8") == render(), (
        "schemas/mjlog-1.schema.json is stale: run `python -m mjaudit.parts.schemas.generate`"
    )


@pytest.mark.parametrize(
    "bad",
    [
        record(game_id=""),
        record(format="mjlog/2"),
        record(ruleset="mcr"),
        record(events=[{"type": "charleston", "seat": 0}]),
        record(events=[{"type": "discard", "seat": 0}]),
        record(events=[{"type": "discard", "seat": 0, "tile": "10p"}]),
        record(hand_no=0),
        record(dice=[7]),
    ],
    ids=["empty-game-id", "format", "ruleset", "event-type", "no-tile", "tile", "hand-no", "dice"],
)
def test_schema_rejects_what_ingest_rejects(
    validator: jsonschema.Draft202012Validator, bad: dict[str, Any]
) -> None:
    assert not validator.is_valid(bad)


# --------------------------------------------------------------------------------------
# Round trips that lose or break data (found while writing the property above)


EVENT_CASES = {
    # Fields of the format that have no column of their own (they go to `extra`).
    "announce-what": {"type": "announce", "seat": 3, "what": "dead_hand"},
    "abandon-reason": {"type": "abandon", "reason": "dispute"},
    "exhaustive-draw-note": {"type": "exhaustive_draw", "note": "14 tiles left"},
    "win-claim": {"type": "win", "seat": 1, "tile": "C", "claim": {"fan": 5}},
    "pung-with": {"type": "pung", "seat": 1, "from": 0, "tile": "5m", "with": ["5m"]},
    # Unknown fields whose names are those of a column.
    "tile-null": {"type": "exhaustive_draw", "tile": None},
    "tiles-null": {"type": "draw", "seat": 0, "tile": "1m", "tiles": None},
    "from-null": {"type": "abandon", "reason": "dispute", "from": None},
    "tiles-string": {"type": "announce", "seat": 1, "what": "ready", "tiles": "1m2m3m"},
}


@pytest.mark.parametrize("event", list(EVENT_CASES.values()), ids=list(EVENT_CASES))
def test_event_fields_survive_the_tables(tmp_path: Path, event: dict[str, Any]) -> None:
    """parse_record keeps every field of an event; the tables must give each one back."""
    raw = line(record(events=[event]))
    canonical, back = roundtrip([raw], tmp_path / "data")
    assert canonical[0]["events"] == [event]
    assert back[0]["events"] == [event]


# The american and chan vocabularies (rules/american.md §9.1, rules/chan.md §6), each in a
# record of its ruleset (their tile codes belong to it).
RULESET_EVENT_CASES = {
    "charleston-blind": ("american", {
        "type": "charleston_pass", "seat": 0, "pass": 3,
        "tiles": ["1m", {"tile": "J", "blind": True}, "E"],
    }),
    "charleston-plain": ("american", {
        "type": "charleston_pass", "seat": 0, "pass": 1, "tiles": ["1m", "2m", "E"],
    }),
    "courtesy": ("american", {
        "type": "courtesy_pass", "seat": 0, "partner": 2, "asked": 2, "tiles": ["1m", "2m"],
    }),
    "joker-exchange": ("american", {
        "type": "joker_exchange", "seat": 2, "tile": "7m", "target": 1, "exposure": 0,
    }),
    "quint-with": ("american", {
        "type": "quint", "seat": 1, "from": 0, "tile": "5m", "with": ["5m", "J", "J", "J"],
    }),
    "dead-hand": ("american", {"type": "announce", "seat": 1, "what": "dead_hand", "target": 3}),
    "chan-eat": ("chan", {"type": "eat", "seat": 1, "from": 0, "tile": "2v", "with": "2v"}),
    "chan-chiu": ("chan", {
        "type": "chiu", "seat": 1, "from": 0, "tile": "2v", "with": ["2v", "2v", "2v"],
    }),
    "chan-discard-to": ("chan", {"type": "discard", "seat": 1, "tile": "3n", "to": 0}),
    "chan-win-via": ("chan", {
        "type": "win", "seat": 1, "tile": "CC", "via": "stock", "claim": {"cuoc": []},
    }),
    "chan-bao": ("chan", {"type": "announce", "seat": 0, "what": "bao", "accused": 1,
                          "code": "TREO_TRANH"}),
}  # fmt: skip


@pytest.mark.parametrize(
    ("ruleset", "event"), list(RULESET_EVENT_CASES.values()), ids=list(RULESET_EVENT_CASES)
)
def test_ruleset_events_survive_the_tables(
    tmp_path: Path, ruleset: str, event: dict[str, Any]
) -> None:
    raw = line(record(ruleset=ruleset, prevailing_wind=DROP, events=[event]))
    canonical, back = roundtrip([raw], tmp_path / "data")
    assert canonical[0]["events"] == [event]
    assert back[0]["events"] == [event]


@pytest.mark.parametrize("started_at", ["9999-12-31T23:30:00-01:00", "0001-01-01T00:30:00+01:00"])
def test_extreme_timestamp_either_rejected_or_round_trips(tmp_path: Path, started_at: str) -> None:
    """A timestamp whose UTC instant is outside years 1-9999 must be quarantined at parse time
    or read back; reading the tables must not crash."""
    raw = line(record(started_at=started_at))
    try:
        parsed = parse_record(raw)
    except RecordError as err:  # quarantined: acceptable
        assert (err.code, err.path) == ("INVALID_VALUE", "$.started_at")
        return
    canonical, back = roundtrip([raw], tmp_path / "data")
    assert back == canonical == [parsed.record]
