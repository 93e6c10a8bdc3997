"""The native log format ``mjlog/1`` as typed structs: the one source of truth.

The published JSON Schema (``schemas/mjlog-1.schema.json``) is generated from these
structs, and the Arrow schemas of the ingested tables (``schemas/tables.py``) take their
column types from them, so a field added here shows up in all three places.

Validation is done by msgspec (C speed, error paths such as ``$.events[12].tile``). Three
things msgspec cannot express are checked afterwards in :func:`schemas.validate.check_record`:
tile codes (they depend on the ruleset), seat numbers against the number of players, and
list lengths that must equal the number of players.

The events are the mahjong vocabulary of ``design/log-format.md`` (with the ``with`` field
that ``vn-160`` adds to pung and kong), plus the ruleset-specific vocabularies:
``american`` (rules/american.md §9.1: Charleston passes, quint, sextet, joker exchange) and
``chan`` (rules/chan.md §6: eat, chíu, expose, khai, pass, decline_u, and the ``to``,
``via`` and ``with`` fields of discard and win). Which events a ruleset may use is the
replayer's business (an ``eat`` in a Hong Kong hand is a CORRUPT_LOG finding there).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

import msgspec
from mjaudit.parts.schemas.rulesets import RULESET_IDS
from mjaudit.parts.schemas.sheet import SheetLine
from mjaudit.parts.schemas.tiles import (
    AMERICAN,
    CHAN,
    MAHJONG,
    RIICHI,
    VN160,
)
from msgspec import Meta, Struct, field

FORMAT = "mjlog/1"
MAX_SEATS = 5  # chan is played by 2-5 players; mahjong by 4 (2 in hk-mahjongo-2p)

_ALL_CODES = sorted(
    set(MAHJONG.codes)
    | set(VN160.codes)
    | set(AMERICAN.codes)
    | set(CHAN.codes)
    | set(RIICHI.codes)
    | {"5mr", "5pr", "5sr"}  # riichi: MJAI's red fives, read as 0m 0p 0s
)
TILE_PATTERN = "^(?:" + "|".join(_ALL_CODES) + "|[1-7]z|[\U0001f000-\U0001f02a][\ufe0e\ufe0f]?)$"

Tile = Annotated[
    str,
    Meta(
        description=(
            "A tile or card code of the ruleset (see rules/): 1m-9m, 1p-9p, 1s-9s, E S W N, "
            "C F P, f1-f4, g1-g4, plus the ruleset's own codes (vn-160: k1-k4 q1-q4 and khung; "
            "american: J, FL; chan: 2v-9v 2n-9n 2s-9s CC; riichi: the red fives 0m 0p 0s). Aliases 1z-7z and Unicode mahjong "
            "tiles are accepted and normalised."
        ),
        extra_json_schema={"pattern": TILE_PATTERN},
    ),
]
Seat = Annotated[int, Meta(ge=0, lt=MAX_SEATS, description="seat index into `players`")]
Wind = Literal["E", "S", "W", "N"]
NonEmptyStr = Annotated[str, Meta(min_length=1)]


class _Event(Struct, tag_field="type", omit_defaults=True, frozen=True):
    """Common envelope: every event has a ``type``; the subclasses add their fields."""


class Draw(_Event, tag="draw"):
    """Draw from the live wall."""

    seat: Seat
    tile: Tile


class Flower(_Event, tag="flower"):
    """Expose a flower, season or other bonus tile."""

    seat: Seat
    tile: Tile


class Replacement(_Event, tag="replacement"):
    """Draw from the dead wall after a flower or a kong."""

    seat: Seat
    tile: Tile


class Discard(_Event, tag="discard"):
    """Discard; chan: ``to`` is the seat whose discard pile (cửa) takes the card."""

    seat: Seat
    tile: Tile
    to: Seat | None = None


class Chow(_Event, tag="chow"):
    """Claim the last discard (``tile``) into the run ``tiles`` (3 tiles, sorted)."""

    seat: Seat
    from_: Seat = field(name="from")
    tile: Tile
    tiles: Annotated[list[Tile], Meta(min_length=3, max_length=3)]


class Pung(_Event, tag="pung"):
    """Claim the last discard into a pung; ``with`` lists the hand tiles when a joker is used."""

    seat: Seat
    from_: Seat = field(name="from")
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class Kong(_Event, tag="kong"):
    """Claim the last discard into an exposed kong."""

    seat: Seat
    from_: Seat = field(name="from")
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class ConcealedKong(_Event, tag="concealed_kong"):
    seat: Seat
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class AddedKong(_Event, tag="added_kong"):
    """Add a drawn tile to one's own exposed pung."""

    seat: Seat
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class Announce(_Event, tag="announce"):
    """A spoken declaration the rules require, e.g. ``what: "nine_tile_warning"``.

    ``target`` (american dead_hand), ``accused`` and ``code`` (chan bắt báo) and ``tile``
    (a claim that was not executed) are typed; further fields depend on ``what``
    (``suit``, ``claim``...) and are kept as they are.
    """

    seat: Seat
    what: NonEmptyStr
    target: Seat | None = None
    accused: Seat | None = None
    code: NonEmptyStr | None = None
    tile: Tile | None = None


class Win(_Event, tag="win"):
    """Declare a win on ``tile``; no ``from`` means self-drawn.

    chan: ``via`` says how (a nọc card, a chíu with the three copies in ``with``, or
    thiên ù from the deal) and ``claim`` holds the spoken cước list.
    """

    seat: Seat
    tile: Tile
    from_: Seat | None = field(name="from", default=None)
    robbed_kong: bool = False
    claim: dict[str, Any] | None = None
    via: Literal["stock", "chiu", "deal"] | None = None
    with_: list[Tile] | None = field(name="with", default=None)


class ExhaustiveDraw(_Event, tag="exhaustive_draw"):
    """The wall ran out: no winner."""


class Riichi(_Event, tag="riichi"):
    """riichi: ``seat`` declares riichi; its next discard is the declaration tile and, once
    nobody wins on it, a 1,000-point stick goes to the table."""

    seat: Seat


class Dora(_Event, tag="dora"):
    """riichi: a new dora indicator ``tile`` is turned (after a kan)."""

    tile: Tile


class AbortiveDraw(_Event, tag="abortive_draw"):
    """riichi: the hand is drawn before the wall is exhausted (``reason``: ``nine_terminals``,
    ``four_winds``, ``four_riichi``, ``four_kans``, ``triple_ron``)."""

    reason: str
    seat: Seat | None = None


class Abandon(_Event, tag="abandon"):
    """The hand was stopped (dispute, disconnection); it is not settled."""

    reason: str | None = None


class Quint(_Event, tag="quint"):
    """american: call the latest discard into an exposure of five (jokers in ``with``)."""

    seat: Seat
    from_: Seat = field(name="from")
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class Sextet(_Event, tag="sextet"):
    """american: call the latest discard into an exposure of six."""

    seat: Seat
    from_: Seat = field(name="from")
    tile: Tile
    with_: list[Tile] | None = field(name="with", default=None)


class BlindTile(Struct, frozen=True):
    """american: a tile passed on in a blind Charleston pass without being looked at."""

    tile: Tile
    blind: bool = True


class CharlestonPass(_Event, tag="charleston_pass"):
    """american: one player's part of Charleston pass ``pass`` (1-6)."""

    seat: Seat
    pass_: Annotated[int, Meta(ge=1, le=6)] = field(name="pass")
    tiles: list[Tile | BlindTile]


class CharlestonStop(_Event, tag="charleston_stop"):
    """american: a player declines the second Charleston."""

    seat: Seat


class CourtesyPass(_Event, tag="courtesy_pass"):
    """american: one player's part of the courtesy pass with ``partner`` (0-3 tiles)."""

    seat: Seat
    partner: Seat
    asked: Annotated[int, Meta(ge=0, le=3)]
    tiles: list[Tile]


class JokerExchange(_Event, tag="joker_exchange"):
    """american: give natural ``tile`` for a joker in exposure ``exposure`` of ``target``."""

    seat: Seat
    tile: Tile
    target: Seat
    exposure: Annotated[int, Meta(ge=0)]


class Eat(_Event, tag="eat"):
    """chan: ăn the card ``tile`` from ``from``'s cửa with the hand card ``with``."""

    seat: Seat
    tile: Tile
    from_: Seat = field(name="from")
    with_: Tile = field(name="with")
    placement: Literal["hand_on_top", "eaten_on_top"] | None = None


class Chiu(_Event, tag="chiu"):
    """chan: chíu the card ``tile`` with the copies in ``with`` (normally three)."""

    seat: Seat
    tile: Tile
    from_: Seat = field(name="from")
    with_: list[Tile] = field(name="with")


class Expose(_Event, tag="expose"):
    """chan: finish exposing a chíu quad."""

    seat: Seat
    tiles: list[Tile]


class Khai(_Event, tag="khai"):
    """chan: expose a thiên khai quad."""

    seat: Seat
    tile: Tile


class Pass(_Event, tag="pass"):
    """chan: leave the drawn card on one's cửa; the turn ends."""

    seat: Seat


class DeclineU(_Event, tag="decline_u"):
    """chan: "không ù" (silence has the same effect)."""

    seat: Seat


Event = Union[
    Draw,
    Flower,
    Replacement,
    Discard,
    Chow,
    Pung,
    Kong,
    ConcealedKong,
    AddedKong,
    Announce,
    Win,
    ExhaustiveDraw,
    Abandon,
    Riichi,
    Dora,
    AbortiveDraw,
    Quint,
    Sextet,
    CharlestonPass,
    CharlestonStop,
    CourtesyPass,
    JokerExchange,
    Eat,
    Chiu,
    Expose,
    Khai,
    Pass,
    DeclineU,
]
EVENT_TYPES: tuple[str, ...] = tuple(t.__struct_config__.tag for t in Event.__args__)  # type: ignore[attr-defined]


class Penalty(Struct, omit_defaults=True, frozen=True):
    """A penalty as the source applied it."""

    seat: Seat
    code: NonEmptyStr
    deltas: list[float] | None = None


class Result(Struct, omit_defaults=True, frozen=True):
    """The outcome as the source recorded it. The replayer checks it; it never trusts it."""

    winners: list[Seat] = []
    fan: Annotated[int, Meta(ge=-(2**31), lt=2**31)] | None = None
    patterns: list[str] | None = None
    deltas: list[float] | None = None
    penalties: list[Penalty] = []


class HandRecord(Struct, omit_defaults=True, frozen=True):
    """One hand: everything needed to replay and score it.

    Unknown top-level fields are allowed and kept by ingest (in the ``extra`` column).
    """

    format: Literal["mjlog/1"]
    game_id: NonEmptyStr
    hand_no: Annotated[int, Meta(ge=1, lt=2**31)]
    ruleset: Literal[RULESET_IDS]  # type: ignore[valid-type]
    players: Annotated[list[NonEmptyStr], Meta(min_length=2, max_length=MAX_SEATS)]
    dealer: Seat
    events: list[Event]
    options: dict[str, Any] = {}
    started_at: (
        Annotated[
            datetime,
            Meta(
                description="ISO 8601 timestamp with a UTC offset, e.g. 2026-03-01T19:30:00+07:00"
            ),
        ]
        | None
    ) = None
    venue: str | None = None
    table: str | None = None
    prevailing_wind: Wind | None = None
    dice: list[Annotated[int, Meta(ge=1, le=6)]] | None = None
    wall: list[Tile] | None = None
    dead_wall: list[Tile] | None = None
    start_hands: list[list[Tile]] | None = None
    result: Result | None = None
    sheet: SheetLine | None = None


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of a hand record (``schemas/mjlog-1.schema.json``)."""
    schema = msgspec.json.schema(HandRecord)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "mjlog-1.schema.json",
        "title": "mjlog/1 hand record",
        "description": (
            "One hand of a mahjong-family game, one per line of a .jsonl log file. "
            "Generated from schemas/mjlog.py; do not edit by hand."
        ),
        **schema,
    }
    return schema
