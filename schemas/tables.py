"""Arrow schemas of the ingested Parquet tables, derived from the ``mjlog/1`` structs.

A column that holds a record field takes its Arrow type from that field's msgspec type
(:func:`column`), so narrowing a field in ``schemas/mjlog.py`` narrows the column too.
Integer columns use the smallest type that the field's bounds allow (a seat is ``int8``).
JSON-valued fields (``options``, unknown fields) are stored as canonical JSON text.
"""

from __future__ import annotations

import functools

import msgspec
import msgspec.inspect as mi
import pyarrow as pa
from mjaudit.parts.schemas.mjlog import Event, HandRecord, Result, Win

JSON = pa.string()  # canonical JSON text


def _int_type(t: mi.IntType) -> pa.DataType:
    lo = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
    hi = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
    if lo is None or hi is None:
        return pa.int64()
    for bits, arrow in ((8, pa.int8()), (16, pa.int16()), (32, pa.int32())):
        if -(2 ** (bits - 1)) <= lo and hi < 2 ** (bits - 1):
            return arrow
    return pa.int64()


def arrow_type(t: mi.Type) -> tuple[pa.DataType, bool]:
    """The Arrow type of a msgspec type, and whether it is nullable."""
    if isinstance(t, mi.Metadata):
        return arrow_type(t.type)
    if isinstance(t, mi.UnionType):
        inner = [x for x in t.types if not isinstance(x, mi.NoneType)]
        if len(inner) != 1:
            raise TypeError(f"no Arrow column type for union {t}")
        return arrow_type(inner[0])[0], True
    if isinstance(t, mi.StrType | mi.LiteralType):
        return pa.string(), False
    if isinstance(t, mi.IntType):
        return _int_type(t), False
    if isinstance(t, mi.FloatType):
        return pa.float64(), False
    if isinstance(t, mi.BoolType):
        return pa.bool_(), False
    if isinstance(t, mi.DateTimeType):
        return pa.timestamp("us", tz="UTC"), False
    if isinstance(t, mi.ListType):
        return pa.list_(arrow_type(t.item_type)[0]), False
    if isinstance(t, mi.DictType | mi.AnyType):
        return JSON, False
    raise TypeError(f"no Arrow column type for {t}")


def _unwrap(t: mi.Type) -> mi.Type:
    return t.type if isinstance(t, mi.Metadata) else t


@functools.cache
def _type_info(struct: type[msgspec.Struct]) -> mi.Type:
    """One inspection per struct: inspecting HandRecord once per column took a quarter of
    a second of every command's start-up."""
    return mi.type_info(struct)


def _field_type(struct: type[msgspec.Struct], name: str) -> mi.Type:
    info = _type_info(struct)
    for f in info.fields:  # type: ignore[attr-defined]
        if f.encode_name == name:
            return f.type
    raise KeyError(f"{struct.__name__} has no field {name!r}")


def column(
    struct: type[msgspec.Struct],
    name: str,
    *,
    rename: str | None = None,
    item: bool = False,
    nullable: bool | None = None,
) -> pa.Field:
    """A column holding ``struct.name`` (or, with ``item``, one element of that list field)."""
    t = _unwrap(_field_type(struct, name))
    optional = isinstance(t, mi.UnionType)
    if optional:
        t = _unwrap(next(x for x in t.types if not isinstance(x, mi.NoneType)))  # type: ignore[attr-defined]
    if item:
        t = _unwrap(_unwrap(t).item_type)  # type: ignore[attr-defined]
    arrow, inner_nullable = arrow_type(t)
    null = optional or inner_nullable if nullable is None else nullable
    return pa.field(rename or name, arrow, nullable=null)


KEY = [column(HandRecord, "game_id"), column(HandRecord, "hand_no")]
SEAT = column(HandRecord, "dealer", rename="seat")

HANDS = pa.schema(
    [
        *KEY,
        column(HandRecord, "ruleset"),
        pa.field("game", pa.string(), nullable=False),
        pa.field("source_kind", pa.string(), nullable=False),
        pa.field("options", JSON, nullable=False),
        column(HandRecord, "started_at"),
        pa.field("utc_offset_minutes", pa.int16()),
        column(HandRecord, "venue"),
        column(HandRecord, "table"),
        pa.field("n_players", pa.int8(), nullable=False),
        column(HandRecord, "dealer"),
        column(HandRecord, "prevailing_wind"),
        column(HandRecord, "dice"),
        column(HandRecord, "wall"),
        column(HandRecord, "dead_wall"),
        column(HandRecord, "start_hands"),
        pa.field("n_events", pa.int32(), nullable=False),
        pa.field("has_result", pa.bool_(), nullable=False),
        pa.field("result_extra", JSON),
        pa.field("extra", JSON),
        pa.field("sheet", JSON),  # the score-sheet line of a results-only hand (hk-sheet)
        pa.field("source_file", pa.string(), nullable=False),
        pa.field("source_line", pa.int64(), nullable=False),
        pa.field("content_hash", pa.string(), nullable=False),
    ]
)

SEATS = pa.schema(
    [
        *KEY,
        SEAT,
        column(HandRecord, "players", rename="player", item=True),
        column(HandRecord, "prevailing_wind", rename="seat_wind"),
    ]
)

# Every event type has `type`; seat/tile/from/tiles are the columns most queries need, the
# rest of an event (e.g. `with`, `claim`, `what`, `suit`, `reason`) is in `extra`.
EVENT_COLUMNS = ("type", "seat", "tile", "from", "tiles")
_draw, _chow = Event.__args__[0], Event.__args__[4]  # type: ignore[attr-defined]
EVENTS = pa.schema(
    [
        *KEY,
        pa.field("event_index", pa.int32(), nullable=False),
        pa.field("type", pa.string(), nullable=False),
        column(_draw, "seat", nullable=True),
        column(_draw, "tile", nullable=True),
        column(Win, "from", rename="from_seat"),
        column(_chow, "tiles", nullable=True),
        pa.field("extra", JSON),
    ]
)

RECORDED_RESULTS = pa.schema(
    [
        *KEY,
        SEAT,
        column(HandRecord, "players", rename="player", item=True),
        column(Result, "deltas", rename="delta", item=True, nullable=True),
        pa.field("is_winner", pa.bool_(), nullable=False),
        column(Result, "fan"),
        column(Result, "patterns"),
    ]
)

QUARANTINE = pa.schema(
    [
        pa.field("source_file", pa.string(), nullable=False),
        pa.field("source_line", pa.int64(), nullable=False),
        pa.field("code", pa.string(), nullable=False),
        pa.field("field", pa.string()),
        pa.field("message", pa.string(), nullable=False),
        pa.field("game_id", pa.string()),
        pa.field("hand_no", pa.int64()),
        pa.field("raw", pa.binary(), nullable=False),
        pa.field("raw_hash", pa.string(), nullable=False),
    ]
)

INGEST_TABLES: dict[str, pa.Schema] = {
    "hands": HANDS,
    "seats": SEATS,
    "events": EVENTS,
    "recorded_results": RECORDED_RESULTS,
    "quarantine": QUARANTINE,
}

# -- replay outputs (written by `mjaudit replay`, one file per game bucket) ---------------

FINDINGS = pa.schema(
    [
        *KEY,
        column(HandRecord, "ruleset"),
        pa.field("seq", pa.int32(), nullable=False),  # order of the finding within its hand
        pa.field("event_index", pa.int32()),
        pa.field("seat", pa.int8()),
        pa.field("player", pa.string()),
        pa.field("code", pa.string(), nullable=False),
        pa.field("reason", pa.string()),
        pa.field("class", pa.string(), nullable=False),
        pa.field("message", pa.string(), nullable=False),
    ]
)

SCORES = pa.schema(
    [
        *KEY,
        SEAT,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("delta", pa.float64()),
        pa.field("is_winner", pa.bool_(), nullable=False),
        pa.field("is_discarder", pa.bool_(), nullable=False),
        pa.field("is_liable", pa.bool_(), nullable=False),
        # Riichi's own per-seat facts (None for the other rulesets): the seat declared
        # riichi, called an open set (a concealed kong is not one), the value of its win
        # in points (before honba and sticks) and han, and its place at the game's end
        # (on the last hand of a log that records the end: Tenhou XML ``owari``).
        pa.field("riichi", pa.bool_()),
        pa.field("open_call", pa.bool_()),
        pa.field("win_points", pa.int32()),
        pa.field("win_han", pa.int16()),
        pa.field("place", pa.int8()),
    ]
)

RIICHI_SEAT_FACTS = ("riichi", "open_call", "win_points", "win_han", "place")

HAND_RESULTS = pa.schema(
    [
        *KEY,
        column(HandRecord, "ruleset"),
        pa.field("content_hash", pa.string(), nullable=False),
        pa.field("ended_by", pa.string(), nullable=False),
        pa.field("winners", pa.list_(pa.int8()), nullable=False),
        pa.field("self_drawn", pa.bool_(), nullable=False),
        pa.field("discarder", pa.int8()),
        pa.field("fan", pa.int32()),
        pa.field("raw_fan", pa.int32()),
        pa.field("is_limit", pa.bool_()),  # the win reached the fan cap (a limit hand)
        pa.field("liable", pa.int8()),
        pa.field("matches_recorded", pa.bool_()),
        pa.field("n_findings", pa.int32(), nullable=False),
        pa.field("n_serious", pa.int32(), nullable=False),
    ]
)

FANS = pa.schema(
    [
        *KEY,
        column(HandRecord, "ruleset"),
        SEAT,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("pattern", pa.string(), nullable=False),
        pa.field("fan", pa.int32(), nullable=False),
    ]
)

# The rows the engine writes per hand (ReportColumns).
HAND_REPLAY_TABLES: dict[str, pa.Schema] = {
    "findings": FINDINGS,
    "scores": SCORES,
    "hand_results": HAND_RESULTS,
    "fans": FANS,
}

# -- summary tables (written by the replay beside the hand rows, per game) -----------------
#
# The counts and sums every statistic needs, per game and local day of the table (the
# hands' ``started_at`` plus their UTC offset) and the hand columns the filters select on,
# so that readers sum a few rows per sitting instead of every seat of every hand. A game's
# rows depend only on its hands: a bucket's rows are carried over and replaced game by
# game like the hand rows. Averages are stored as a sum and a count; rates are computed
# after summing. ``game_days`` has a row for every replayed hand's game and day, so a
# bucket with hand_results files and none of game_days was written before these tables.

SUMMARY_KEY = [
    column(HandRecord, "game_id"),
    column(HandRecord, "ruleset"),
    pa.field("game", pa.string(), nullable=False),
    pa.field("source_kind", pa.string(), nullable=False),
    column(HandRecord, "venue"),
    column(HandRecord, "table"),
    pa.field("day", pa.date32()),  # the table's local date (None: the log gave no time)
]
COUNT = pa.int64()

GAME_DAYS = pa.schema(
    [
        *SUMMARY_KEY,
        pa.field("first_at", pa.timestamp("us", tz="UTC")),
        pa.field("last_at", pa.timestamp("us", tz="UTC")),
        pa.field("hands", COUNT, nullable=False),  # replayed hands
        pa.field("wins", COUNT, nullable=False),  # ended_by = 'win'
        pa.field("draws", COUNT, nullable=False),  # ended_by = 'exhaustive_draw'
    ]
)

PLAYER_GAMES = pa.schema(
    [
        *SUMMARY_KEY,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("hands", COUNT, nullable=False),
        pa.field("wins", COUNT, nullable=False),  # is_winner
        pa.field("win_hands", COUNT, nullable=False),  # is_winner of a hand ended by a win
        pa.field("self_draws", COUNT, nullable=False),
        pa.field("deal_ins", COUNT, nullable=False),
        pa.field("net", pa.float64(), nullable=False),  # sum of deltas (0 when none)
        pa.field("won", pa.float64(), nullable=False),  # sum of the positive deltas
        pa.field("paid", pa.float64(), nullable=False),  # minus the sum of the negative ones
        pa.field("liable", COUNT, nullable=False),
        pa.field("pao_paid", COUNT, nullable=False),
        pa.field("nine_tile_paid", COUNT, nullable=False),
        pa.field("last_five_paid", COUNT, nullable=False),
    ]
)

PLAYER_FANS = pa.schema(  # the winners' seat rows: a histogram of (capped) values
    [
        *SUMMARY_KEY,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("fan", pa.int32()),
        pa.field("by_win", pa.bool_(), nullable=False),  # the hand ended by a win
        pa.field("wins", COUNT, nullable=False),
        pa.field("self_draws", COUNT, nullable=False),
        pa.field("gain", pa.float64(), nullable=False),  # sum of their non-null deltas
        pa.field("gain_n", COUNT, nullable=False),  # how many deltas that sum has
        pa.field("self_gain", pa.float64(), nullable=False),  # the same, of the self-draws
        pa.field("self_gain_n", COUNT, nullable=False),
    ]
)

FINDING_COUNTS = pa.schema(
    [
        *SUMMARY_KEY,
        pa.field("player", pa.string()),  # None: a finding with no seat
        pa.field("class", pa.string(), nullable=False),
        pa.field("code", pa.string(), nullable=False),
        pa.field("n", COUNT, nullable=False),
    ]
)

PLAYER_PATTERNS = pa.schema(  # the winners' fans rows, per pattern
    [
        *SUMMARY_KEY,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("pattern", pa.string(), nullable=False),
        pa.field("wins_with", COUNT, nullable=False),  # winners' seats with the pattern
        pa.field("rows", COUNT, nullable=False),  # its rows (a pattern scored twice: two)
        pa.field("fan_sum", pa.float64(), nullable=False),  # sum of their values
    ]
)

PLAYER_PAIRS = pa.schema(  # a replayed seat row of `player` beside each other seat row
    [
        *SUMMARY_KEY,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("opponent", pa.string(), nullable=False),
        pa.field("hands", COUNT, nullable=False),  # hands together
        pa.field("net", pa.float64(), nullable=False),  # player's deltas (0 when none)
        pa.field("their_net", pa.float64(), nullable=False),
        pa.field("wins", COUNT, nullable=False),
        pa.field("their_wins", COUNT, nullable=False),
        pa.field("dealt_in_to_them", COUNT, nullable=False),
        pa.field("they_dealt_in", COUNT, nullable=False),
        pa.field("paid_to", pa.float64(), nullable=False),  # lost in hands they won
        pa.field("received_from", pa.float64(), nullable=False),  # they lost in hands won
    ]
)

LIMIT_WINS = pa.schema(  # one row per winner's seat of a win that reached the fan cap
    [
        *SUMMARY_KEY,
        column(HandRecord, "hand_no"),
        SEAT,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("started_at", pa.timestamp("us", tz="UTC")),
        pa.field("at", pa.timestamp("us")),  # the table's local time, as the club saw it
        pa.field("fan", pa.int32()),
        pa.field("raw_fan", pa.int32()),
        pa.field("self_drawn", pa.bool_(), nullable=False),
        pa.field("delta", pa.float64()),
        pa.field("patterns", pa.string()),  # "name, name" by fan (descending), then name
    ]
)

RIICHI_PLAYERS = pa.schema(  # riichi hands only: the per-seat facts of the scores rows
    [
        *SUMMARY_KEY,
        column(HandRecord, "players", rename="player", item=True),
        pa.field("hands", COUNT, nullable=False),
        pa.field("wins", COUNT, nullable=False),  # is_winner of a hand ended by a win
        pa.field("deal_ins", COUNT, nullable=False),
        pa.field("riichi", COUNT, nullable=False),  # hands with a riichi declaration
        pa.field("open_hands", COUNT, nullable=False),  # hands with an open call
        pa.field("exhaustive_draws", COUNT, nullable=False),
        pa.field("abortive_draws", COUNT, nullable=False),
        pa.field("win_points", pa.float64(), nullable=False),  # sum over their wins
        pa.field("win_han", pa.float64(), nullable=False),
        pa.field("valued_wins", COUNT, nullable=False),  # wins those sums have
        pa.field("games_ended", COUNT, nullable=False),  # games whose end the log records
        pa.field("first", COUNT, nullable=False),
        pa.field("second", COUNT, nullable=False),
        pa.field("third", COUNT, nullable=False),
        pa.field("fourth", COUNT, nullable=False),
        pa.field("place_sum", COUNT, nullable=False),
    ]
)

SUMMARY_TABLES: dict[str, pa.Schema] = {
    "game_days": GAME_DAYS,
    "player_games": PLAYER_GAMES,
    "player_fans": PLAYER_FANS,
    "finding_counts": FINDING_COUNTS,
    "player_patterns": PLAYER_PATTERNS,
    "player_pairs": PLAYER_PAIRS,
    "limit_wins": LIMIT_WINS,
    "riichi_players": RIICHI_PLAYERS,
}
# The summary tables a reader copies into memory (a row per sitting and day, or fewer);
# the others are read from their files by the queries that need them.
IN_MEMORY_SUMMARIES = ("game_days", "finding_counts")
ON_DISK_SUMMARIES = tuple(n for n in SUMMARY_TABLES if n not in IN_MEMORY_SUMMARIES)

REPLAY_TABLES: dict[str, pa.Schema] = {**HAND_REPLAY_TABLES, **SUMMARY_TABLES}


# -- totals (whole-archive sums of summary tables, per player and ruleset) ----------------
#
# A summary table summed over its game_id, venue, table and day: what the statistics with
# no venue, table or date filter read (`mjaudit stats`, the dashboard's start-up), a row
# per player and ruleset instead of one per sitting. They cover every game, so a bucket
# rewrite cannot replace them game by game: the replay recomputes them from the summary
# tables in the commit that changes those (replay/archive/totals.py). ``source`` is a
# digest of the summary table's committed files they were summed from: a reader whose
# summary files differ (written by a version without totals, or compacted) sums instead.
TOTALLED_AWAY = ("game_id", "venue", "table", "day")
# The place totals keep the venue and the table: a row per player, ruleset, venue and
# table, what a venue or table filter without dates reads (at 10M hands 96k rows of
# player_games' 2.5M, 761k of player_fans' 5.4M). Not of finding_counts (its 260k rows
# would make 241k) nor of player_patterns (11M rows would make 1.0M, but summing them
# so would add 6 of the replay's CPU seconds to the 4 of every total). A month grain would not pay: there a player sits about twice a
# month, at one of 48 rulesets x venues x tables, so a row per month is one per sitting.
PLACE_AWAY = ("game_id", "day")
# grain -> the columns its totals sum away
GRAINS = {"whole": TOTALLED_AWAY, "place": PLACE_AWAY}


def _totals_schema(source: pa.Schema, away: tuple[str, ...]) -> pa.Schema:
    kept = [f for f in source if f.name not in away]
    return pa.schema([*kept, pa.field("source", pa.string(), nullable=False)])


# totals table -> the summary table it sums
TOTALS_OF = {
    "player_totals": "player_games",
    "player_fan_totals": "player_fans",
    "finding_totals": "finding_counts",
    "pattern_totals": "player_patterns",
    "player_place_totals": "player_games",
    "player_fan_place_totals": "player_fans",
}
# totals table -> its grain (GRAINS)
TOTALS_GRAIN = {name: "place" if "_place_" in name else "whole" for name in TOTALS_OF}
TOTALS_TABLES: dict[str, pa.Schema] = {
    name: _totals_schema(SUMMARY_TABLES[source], GRAINS[TOTALS_GRAIN[name]])
    for name, source in TOTALS_OF.items()
}
ALL_TABLES: dict[str, pa.Schema] = {**INGEST_TABLES, **REPLAY_TABLES, **TOTALS_TABLES}
