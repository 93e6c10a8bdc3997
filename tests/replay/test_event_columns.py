"""Events read as columns (``records_from_tables(lazy_events=True)``, the archive replay's
input) are the same events as the dicts, and every engine gives the same reports on them.

The Hong Kong engine reads type, seat and tile straight from the columns on its inline
path; the other engines iterate the events and get each dict built on demand.
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Any

import msgspec
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.engine.findings import FindingClass
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.schemas import rows
from mjaudit.parts.schemas.event_columns import EventColumns, event_field
from mjaudit.parts.schemas.records import parse_record
from mjaudit.parts.schemas.rows import RowBuffers, _cut_by_hands, records_from_tables

SITTINGS = (
    ("hk-classic", 2),
    ("hk-mahjongo", 2),
    ("hk-mahjongo-2p", 3),
    ("vn-160", 2),
    ("american", 2),
    ("chan", 2),
)
KEYS = ("type", "seat", "tile", "from", "tiles", "note", "claim")


def _tables(records: list[dict[str, Any]]) -> dict[str, pa.Table]:
    buffers = RowBuffers()
    for i, rec in enumerate(records):
        buffers.add(parse_record(msgspec.json.encode(rec)), "sim.jsonl", i + 1)
    return buffers.to_tables()


def _simulated(ruleset: str, games: int) -> list[dict[str, Any]]:
    return [rec for rec, _ in simulate(ruleset, games, seed=3, violations=0.25)]


@pytest.mark.parametrize(("ruleset", "games"), SITTINGS)
def test_engines_give_the_same_reports_on_event_columns(ruleset: str, games: int) -> None:
    tables = _tables(_simulated(ruleset, games))
    eager = list(records_from_tables(tables))
    lazy = list(records_from_tables(tables, lazy_events=True))
    assert all(isinstance(r["events"], EventColumns) for r in lazy if r["events"])
    assert lazy == eager
    reports = list(replay_games(lazy))
    assert reports == list(replay_games(eager))
    assert any(f.cls is not FindingClass.INFO for r in reports for f in r.findings)


@pytest.mark.parametrize(("ruleset", "games"), SITTINGS)
def test_event_columns_behave_as_the_list_of_dicts(ruleset: str, games: int) -> None:
    tables = _tables(_simulated(ruleset, games))
    for rec in records_from_tables(tables, lazy_events=True):
        events = rec["events"]
        dicts = list(events)
        assert len(events) == len(dicts)
        for key in KEYS:  # incl. fields kept in `extra` (a chắn claim, a note)
            assert event_field(events, key) == list(map(dict.get, dicts, repeat(key)))
        if dicts:
            assert events[-1] == dicts[-1] and events[0] == dicts[0]
            assert events[1:4] == dicts[1:4] and events[::-3] == dicts[::-3]
            with pytest.raises(IndexError):
                events[len(dicts)]


def test_events_stored_out_of_order_are_put_in_order() -> None:
    """Ingest writes each hand's events together and in order; a table that is not (an
    older or foreign writer) is sorted first, and gives the same records."""
    tables = _tables(_simulated("hk-mahjongo", 1))
    expected = list(records_from_tables(tables))
    events = tables["events"]
    order = list(range(events.num_rows))
    random.Random(5).shuffle(order)
    shuffled = dict(tables, events=events.take(pa.array(order)))
    assert list(records_from_tables(shuffled, lazy_events=True)) == expected
    assert list(records_from_tables(shuffled)) == expected


def test_a_field_outside_the_columns_is_read_from_the_extra() -> None:
    """An event field with no column of its own (or only named like one) lives in the
    events' ``extra``; the columns give it back as the dicts do."""
    events = EventColumns(
        ["draw", "exhaustive_draw"],
        [0, None],
        ["1m", None],
        [None, None],
        [None, None],
        [None, '{"tile":"2m","note":"odd"}'],
    )
    assert list(events) == [
        {"type": "draw", "seat": 0, "tile": "1m"},
        {"type": "exhaustive_draw", "tile": "2m", "note": "odd"},
    ]
    assert events.field("tile") == ["1m", "2m"]
    assert events != [{"type": "draw", "seat": 0, "tile": "1m"}]


def test_events_are_cut_by_key_when_they_do_not_follow_the_hands() -> None:
    """The events are cut by each hand's ``n_events`` only when they follow the hands
    rows; hands in another order, or counts that disagree with the events (a foreign
    writer), are grouped by key instead, with the same records."""
    tables = _tables(_simulated("hk-classic", 1))
    expected = {(r["game_id"], r["hand_no"]): r for r in records_from_tables(tables)}
    hands = tables["hands"]
    assert hands.num_rows > 3
    reversed_hands = dict(tables, hands=hands.take(pa.array(range(hands.num_rows - 1, -1, -1))))
    counts = hands.column("n_events").to_pylist()
    counts[0], counts[1] = counts[0] + 1, counts[1] - 1  # same total, wrong cut
    miscounted = dict(
        tables,
        hands=hands.set_column(
            hands.schema.get_field_index("n_events"), "n_events", pa.array(counts, pa.int32())
        ),
    )
    for variant, cut in ((tables, True), (reversed_hands, False), (miscounted, False)):
        frames = {name: pl.from_arrow(variant[name]) for name in ("events", "hands")}
        assert (_cut_by_hands(frames["events"], frames["hands"]) is not None) is cut
        back = list(records_from_tables(variant, lazy_events=True))
        assert {(r["game_id"], r["hand_no"]): r for r in back} == expected


_codes = st.one_of(st.none(), st.sampled_from(["1m", "9p", "E", "draw", "discard", "é"]))


@settings(max_examples=150, deadline=None)
@given(
    data=st.one_of(
        st.lists(_codes),
        st.lists(st.one_of(st.none(), st.lists(_codes, max_size=5))),
        st.lists(st.one_of(st.none(), st.lists(st.one_of(st.none(), st.lists(_codes))))),
    ),
    cut=st.integers(0, 3),
)
def test_interned_columns_equal_to_list_and_share_one_object_per_value(data, cut) -> None:
    """rows._interned (the replay's conversion of event types and tile codes, and of walls
    and start hands) gives what ``to_list`` gives, for flat and nested string columns with
    nulls, empty lists and slices, and holds one object per distinct string."""
    series = pl.Series(data, dtype=_string_type(data))[cut:]
    got = rows._interned(series)
    assert got == series.to_list()
    strings: dict[str, int] = {}
    stack: list[Any] = list(got)
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif item is not None:
            assert strings.setdefault(item, id(item)) == id(item)


def _string_type(data: list[Any]) -> pl.DataType:
    depth, probe = 0, data
    while True:
        inner = [x for x in probe if x is not None]
        if not inner or not isinstance(inner[0], list):
            break
        depth += 1
        probe = [y for x in inner for y in x]
    kind: pl.DataType = pl.String()
    for _ in range(depth):
        kind = pl.List(kind)
    return kind


def test_interned_columns_of_many_distinct_strings_or_only_nulls_equal_to_list() -> None:
    """Past 1,024 distinct strings (player names, not codes) _interned converts as to_list
    does, flat or inside lists; a column of nulls without a type too."""
    names = [f"player{i}" for i in range(3000)] * 2
    for series in (
        pl.Series(names),
        pl.Series([names[:5], None, [], names[5:2000]])[1:],
        pl.Series([None, None]),
        pl.Series([None, [None]]),
    ):
        assert rows._interned(series) == series.to_list()
