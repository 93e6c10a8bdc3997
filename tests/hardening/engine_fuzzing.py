"""Mutated hand records for the engines: the fields each engine reads, set to anything.

Where :mod:`tests.hardening.fuzzing` damages bytes and JSON anywhere, this targets what
the rules engines read: an event's seat, tile, tiles, with, from, claim, what, via... (set
to a plausible wrong value or to any JSON value, on the event that defines it or on one
that does not), events dropped, duplicated, swapped or retyped, and the record fields a
replay starts from (dealer, start hands, wall, options, result). A mutant is either
quarantined by ingest with its message, or replayed with findings: never an exception,
never an ``ENGINE_ERROR`` (which would mean a field no check handles).

The bases are real logs of every ruleset (``examples/``) and simulated hk-mahjongo and
hk-mahjongo-2p hands.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from mjaudit.parts.ingest.tenhou_xml import read as read_tenhou_xml
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.rulesets.american.options import OPTION_NAMES as AMERICAN_OPTIONS
from mjaudit.parts.replay.rulesets.chan.options import OPTION_NAMES as CHAN_OPTIONS
from mjaudit.parts.replay.rulesets.hk.options import OPTION_NAMES as HK_OPTIONS
from mjaudit.parts.replay.rulesets.riichi.options import OPTION_NAMES as RIICHI_OPTIONS
from mjaudit.parts.replay.rulesets.vn160.options import OPTION_NAMES as VN160_OPTIONS
from mjaudit.parts.replay.sim import simulate_sittings
from mjaudit.parts.schemas.mjlog import EVENT_TYPES
from mjaudit.parts.schemas.records import RecordError, parse_record
from mjaudit.parts.schemas.rows import RowBuffers, records_from_tables
from mjaudit.parts.schemas.tiles import AMERICAN, CHAN, MAHJONG, RIICHI, VN160

from tests.hardening.fuzzing import JSON_VALUES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RIICHI_LOG = Path(__file__).resolve().parents[1] / "data" / "riichi" / "mjx" / "double-ron.mjlog"


def _bases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in ("club-night", "vn160-evening", "american-evening", "chan-evening"):
        lines = (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        out.extend(json.loads(ln) for ln in lines[:4])
    for ruleset in ("hk-mahjongo", "hk-mahjongo-2p"):
        hands = simulate_sittings(ruleset, games=1, seed=3, players=4)
        out.extend(rec for rec, _ in list(hands)[:3])
    out.extend(item.record for item in list(read_tenhou_xml(RIICHI_LOG))[:4])  # type: ignore[union-attr]
    return out


BASES = _bases()
RULESETS = sorted({b["ruleset"] for b in BASES})

OPTIONS: dict[str, frozenset[str]] = {
    **HK_OPTIONS,
    "vn-160": VN160_OPTIONS,
    "american": AMERICAN_OPTIONS,
    "chan": CHAN_OPTIONS,
    "riichi": RIICHI_OPTIONS,
}
# Every code of every tile family plus aliases and near misses: a tile of another game is
# as likely in a bad log as a random string.
ALL_CODES = (set(MAHJONG.codes) | set(VN160.codes) | set(AMERICAN.codes) | set(CHAN.codes)) | set(
    RIICHI.codes
)
TILE_CODES = [*sorted(ALL_CODES), "5z", "0m", "10p", "", "🀄", "1M"]
TILES = st.sampled_from(TILE_CODES)
SEATS = st.integers(-2, 6)
WHATS = st.sampled_from(
    ["claim", "nine_tile_warning", "dead_hand", "bao", "riichi", "", "pung", "win"]
)
CLAIMS = st.dictionaries(
    st.sampled_from(["fan", "patterns", "hand", "cuoc", "claim", "tiles", "x"]),
    JSON_VALUES | st.lists(st.text(max_size=8), max_size=3) | st.integers(-5, 100),
    max_size=3,
) | st.sampled_from(["win", "pung", "kong", "chow", "eat", "chiu"])

# What each field an engine reads may be set to: plausible wrong values first, then any
# JSON value (which ingest should refuse with its own message).
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "seat": SEATS,
    "from": SEATS,
    "to": SEATS,
    "target": SEATS,
    "accused": SEATS,
    "partner": SEATS,
    "tile": TILES,
    "tiles": st.lists(TILES, max_size=7)
    | st.lists(st.fixed_dictionaries({"tile": TILES, "blind": st.booleans()}), max_size=3),
    "with": TILES | st.lists(TILES, max_size=5),
    "claim": CLAIMS,
    "what": WHATS,
    "suit": st.sampled_from(["m", "p", "s", "z", "", "x"]),
    "code": st.sampled_from(["AN_SAI_LUOT", "X", ""]) | st.text(max_size=6),
    "via": st.sampled_from(["stock", "chiu", "deal", "air"]),
    "placement": st.sampled_from(["hand_on_top", "eaten_on_top", "side"]),
    "robbed_kong": st.booleans(),
    "exposure": st.integers(-1, 9),
    "pass": st.integers(0, 8),
    "asked": st.integers(-1, 5),
    "reason": st.text(max_size=6),
}
FIELDS = sorted(FIELD_VALUES)


def _value(draw: st.DrawFn, name: str) -> Any:
    plausible = FIELD_VALUES.get(name)
    if plausible is not None and draw(st.integers(0, 3)):
        return draw(plausible)
    return draw(JSON_VALUES)


@st.composite
def engine_mutant(draw: st.DrawFn) -> tuple[dict[str, Any], str]:
    """A record of one base with one to three mutations, and what they were (for messages)."""
    rec = copy.deepcopy(draw(st.sampled_from(BASES)))
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        events: list[dict[str, Any]] = rec["events"]
        kind = draw(
            st.sampled_from(
                ["set", "set", "set", "set", "delete", "retype", "drop", "dup", "swap", "record"]
            )
        )
        if not events and kind != "record":
            kind = "record"
        i = draw(st.integers(0, max(len(events) - 1, 0)))
        if kind == "set":  # a field the engines read, on an event that may not define it
            own = [k for k in events[i] if k in FIELD_VALUES]
            name = draw(
                st.sampled_from(own) if own and draw(st.booleans()) else st.sampled_from(FIELDS)
            )
            events[i][name] = _value(draw, name)
            done.append(f"events[{i}].{name}={events[i][name]!r}")
        elif kind == "delete":
            keys = sorted(events[i])
            name = draw(st.sampled_from(keys))
            del events[i][name]
            done.append(f"del events[{i}].{name}")
        elif kind == "retype":
            events[i]["type"] = draw(st.sampled_from(EVENT_TYPES))
            done.append(f"events[{i}].type={events[i]['type']}")
        elif kind == "drop":
            del events[i]
            done.append(f"drop events[{i}]")
        elif kind == "dup":
            events.insert(i, copy.deepcopy(events[i]))
            done.append(f"dup events[{i}]")
        elif kind == "swap":
            j = draw(st.integers(0, len(events) - 1))
            events[i], events[j] = events[j], events[i]
            done.append(f"swap events[{i}] events[{j}]")
        else:
            done.append(_mutate_record(draw, rec))
    return rec, "; ".join(done)


def _mutate_record(draw: st.DrawFn, rec: dict[str, Any]) -> str:
    """One of the fields a replay starts from."""
    field = draw(
        st.sampled_from(["dealer", "start_hands", "wall", "dead_wall", "options", "result"])
    )
    if field == "dealer":
        rec["dealer"] = draw(SEATS)
    elif field == "start_hands":
        hands = rec.get("start_hands") or [[] for _ in rec["players"]]
        seat = draw(st.integers(0, len(hands) - 1))
        hands[seat] = draw(st.lists(TILES, max_size=16))
        rec["start_hands"] = hands
    elif field in ("wall", "dead_wall"):
        rec[field] = draw(st.lists(TILES, max_size=30))
    elif field == "options":
        names = sorted(OPTIONS.get(rec["ruleset"], ()))
        name = draw(st.sampled_from(names)) if names else "x"
        rec.setdefault("options", {})[name] = draw(
            JSON_VALUES | st.integers(-3, 20) | st.booleans() | st.text(max_size=10)
        )
    else:
        result = rec.setdefault("result", {})
        key = draw(st.sampled_from(["winners", "fan", "patterns", "deltas", "penalties"]))
        result[key] = draw(
            st.lists(SEATS, max_size=3)
            | st.lists(
                st.floats(-1e6, 1e6, allow_nan=False),
                min_size=len(rec["players"]),
                max_size=len(rec["players"]),
            )
            | JSON_VALUES
        )
    return f"{field}={rec.get(field)!r}"[:200]


def check_mutant(record: dict[str, Any], what: str) -> None:
    """Ingest's parse, then both replay paths: the promises of the module docstring."""
    raw = json.dumps(record, ensure_ascii=False).encode()
    try:
        parsed = parse_record(raw)
    except RecordError as exc:
        assert exc.path.startswith("$") and exc.message, (what, exc)
        return
    (by_dicts,) = replay_games([parsed.record])
    errors = [f.message for f in by_dicts.findings if f.code == ENGINE_ERROR]
    assert not errors, (what, errors)
    buffers = RowBuffers()
    buffers.add(parsed, "fuzz.jsonl", 1)
    (stored,) = records_from_tables(buffers.to_tables(), lazy_events=True)
    (by_columns,) = replay_games([stored])
    assert by_columns.to_json() == by_dicts.to_json(), what
