"""Rows of a fast-path record are exactly the rows of its canonical dict.

``RowBuffers`` reads a record of the strict fast path from its struct (events as shared
value rows keyed by the frozen event, or by its JSON when it holds a list or dict), and
any other record from its canonical dict. Both must give the same tables, for every event
vocabulary, and in batches that mix both kinds of records.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pyarrow as pa
import pytest
from ingest_helpers import DROP, record
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.schemas.records import ParsedRecord, parse_object, parse_record
from mjaudit.parts.schemas.rows import RowBuffers

from bench.synthlog import records as synth_records

RULESET_EVENTS: dict[str, list[dict[str, Any]]] = {
    "american": [
        {"type": "charleston_pass", "seat": 0, "pass": 3,
         "tiles": ["1m", {"tile": "J", "blind": True}, "E"]},
        {"type": "charleston_pass", "seat": 1, "pass": 1, "tiles": ["1m", "2m", "E"]},
        {"type": "charleston_stop", "seat": 2},
        {"type": "courtesy_pass", "seat": 0, "partner": 2, "asked": 2, "tiles": ["1m", "2m"]},
        {"type": "joker_exchange", "seat": 2, "tile": "7m", "target": 1, "exposure": 0},
        {"type": "quint", "seat": 1, "from": 0, "tile": "5m", "with": ["5m", "J", "J", "J"]},
        {"type": "announce", "seat": 1, "what": "dead_hand", "target": 3},
        {"type": "draw", "seat": 0, "tile": "5m"},
        {"type": "draw", "seat": 0, "tile": "5m"},
    ],
    "chan": [
        {"type": "eat", "seat": 1, "from": 0, "tile": "2v", "with": "2v"},
        {"type": "chiu", "seat": 1, "from": 0, "tile": "2v", "with": ["2v", "2v", "2v"]},
        {"type": "discard", "seat": 1, "tile": "3n", "to": 0},
        {"type": "discard", "seat": 1, "tile": "3n"},
        {"type": "win", "seat": 1, "tile": "CC", "via": "stock", "claim": {"cuoc": []}},
        {"type": "announce", "seat": 0, "what": "bao", "accused": 1, "code": "TREO_TRANH"},
        {"type": "pass", "seat": 2},
        {"type": "expose", "seat": 1, "tiles": ["2v", "2v", "2v", "2v"]},
    ],
    "hk-classic": [
        {"type": "draw", "seat": 0, "tile": "5m"},
        {"type": "chow", "seat": 1, "from": 0, "tile": "5m", "tiles": ["4m", "5m", "6m"]},
        {"type": "pung", "seat": 2, "from": 1, "tile": "E"},
        {"type": "kong", "seat": 2, "from": 1, "tile": "E", "with": ["E", "E", "E"]},
        {"type": "announce", "seat": 1, "what": "nine_tile_warning"},
        {"type": "win", "seat": 3, "tile": "5m", "from": 0, "robbed_kong": True},
        {"type": "win", "seat": 3, "tile": "5m", "claim": {"fan": 3}},
        {"type": "abandon", "reason": "dispute"},
        {"type": "exhaustive_draw"},
    ],
}  # fmt: skip


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for ruleset in ("hk-classic", "vn-160", "american", "chan"):
        cases += [r for r, _ in simulate(ruleset, games=1, seed=2, violations=0.5)][:3]
    cases += list(synth_records(2, seed=3))
    for ruleset, events in RULESET_EVENTS.items():
        wind = "E" if ruleset == "hk-classic" else DROP
        cases.append(record(ruleset=ruleset, prevailing_wind=wind, events=events))
    unsorted = copy.deepcopy(cases[-1])
    unsorted["result"] = {
        "winners": [3, 0],
        "fan": 8,
        "deltas": [1.5, -1, 0, -0.5],
        "penalties": [{"seat": 1, "code": "FALSE_WIN", "deltas": [1, -3, 1, 1]}],
    }
    unsorted["started_at"] = "2026-03-01T19:30:00.250Z"
    cases.append(unsorted)
    for i, rec in enumerate(cases):
        rec["game_id"] = f"{rec['game_id']}#{i}"
    return cases


CASES = _cases()
# Some simulated records carry unknown fields (chan's "cai") and take the general path.
FAST = [r for r in CASES if parse_record(msgspec.json.encode(r)).struct is not None]


def test_the_cases_cover_every_vocabulary() -> None:
    fast_ids = {r["game_id"] for r in FAST}
    assert {r["ruleset"] for r in FAST} >= {"hk-classic", "vn-160", "american", "chan"}
    assert all(r["game_id"] in fast_ids for r in CASES[-4:])  # the hand-made ones


def _tables(parsed: list[ParsedRecord]) -> dict[str, pa.Table]:
    buffers = RowBuffers()
    for i, p in enumerate(parsed):
        buffers.add(p, "cases.jsonl", i + 1)
    return buffers.to_tables()


def _assert_same(a: dict[str, pa.Table], b: dict[str, pa.Table]) -> None:
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].schema == b[name].schema, name
        assert a[name].to_pylist() == b[name].to_pylist(), name


@pytest.mark.parametrize("rec", FAST, ids=lambda r: r["game_id"])
def test_fast_path_rows_equal_dict_rows(rec: dict[str, Any]) -> None:
    raw = msgspec.json.encode(rec)
    fast = parse_record(raw)
    general = parse_object(msgspec.json.decode(raw))
    assert general.struct is None
    _assert_same(_tables([fast]), _tables([general]))


def test_mixed_batch_rows_equal_dict_rows() -> None:
    """Fast and general records interleaved in one batch share the value rows correctly."""
    raws = [msgspec.json.encode(r) for r in CASES]
    mixed = [parse_record(r) if i % 2 else parse_object(msgspec.json.decode(r))
             for i, r in enumerate(raws)]  # fmt: skip
    general = [parse_object(msgspec.json.decode(r)) for r in raws]
    assert any(p.struct is not None for p in mixed)
    _assert_same(_tables(mixed), _tables(general))
    fast = [parse_record(r) for r in raws]
    _assert_same(_tables(fast + fast[::-1]), _tables(general + general[::-1]))
