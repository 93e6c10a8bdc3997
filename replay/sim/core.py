"""What every ruleset's simulator shares: labels, the bot protocol, the registry, the club,
and the planting framework's bookkeeping (a plant's labels, the fallback to a wrong
recorded payment, the engine's stop and a clean hand's findings as simulator bugs, the
canonical record).

A ruleset plugs in by registering a :class:`RulesetSimulator`: a function that plays one
whole sitting (rotation, rounds, hands) and yields each hand's canonical record with the
labels of the violations planted in it. The club (players, venue, tables, dates) is the
same for every ruleset, so statistics over a simulated archive look like one club's.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from mjaudit.parts.replay.engine.findings import SERIOUS, Finding, FindingClass
from mjaudit.parts.schemas.records import RecordError, parse_object

Record = dict[str, Any]
AUDIT = FindingClass.SCORE_MISMATCH.value


class SimulationError(RuntimeError):
    """The simulator produced something its own engine rejects (a simulator bug)."""


@dataclass(frozen=True, slots=True)
class Label:
    """One planted rule break, as the engine should report it (never written into the log).

    ``violation`` names the planted scenario; one scenario can give several labels (a
    discard out of turn is also a short hand at the same event). ``cls`` is the finding
    class expected: PAO_ASSIGNED and NINE_TILE_LIABILITY are INFO, labelled for recall
    but not violations.
    """

    game_id: str
    hand_no: int
    event_index: int
    code: str
    cls: str
    seat: int | None
    violation: str
    reason: str | None = None
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "event_index": self.event_index,
            "code": self.code,
            "class": self.cls,
            "seat": self.seat,
            "violation": self.violation,
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.note is not None:
            out["note"] = self.note
        return out


# What a plant records as it takes over a decision: (event index, code, finding class,
# seat, FALSE_WIN reason, note); it becomes a :class:`Label` once the hand is over.
PlantLabel = tuple[int | None, str, str, int | None, str | None, str | None]


class Planted(Protocol):
    """A ruleset's planted scenario: its kind (the label's ``violation``) and labels."""

    kind: str
    labels: list[PlantLabel]


def planted_labels(
    plant: Planted,
    record: Record,
    falsify: Callable[[], str],
    *,
    code: str,
    scenario: str,
    due: bool,
) -> list[Label]:
    """The hand's labels. With ``due`` (the plant is a wrong payment) or when the plant
    found no chance in play, ``falsify()`` changes the recorded result (it says how) and
    the hand carries ``code`` instead, so about the requested share of hands has a label."""
    if due or not plant.labels:
        what = falsify()
        if plant.kind != scenario:
            plant.kind = f"{scenario} (no chance for {plant.kind})"
        plant.labels.append((len(record["events"]) - 1, code, AUDIT, None, None, what))
    game_id, hand_no = record["game_id"], record["hand_no"]
    return [
        Label(game_id, hand_no, i, c, cls, seat, plant.kind, reason, note)  # type: ignore[arg-type]
        for i, c, cls, seat, reason, note in plant.labels
    ]


def canonical(record: Record) -> Record:
    """The finished record as the log format reads it (an error is a simulator bug)."""
    try:
        return parse_object(record).record
    except RecordError as exc:  # pragma: no cover - a simulator bug
        raise SimulationError(f"{record['game_id']} hand {record['hand_no']}: {exc}") from None


def engine_stopped(
    record: Record, index: int, ev: dict[str, Any], found: Finding
) -> SimulationError:
    """The engine stopped on an event the simulator wrote (CORRUPT_LOG ``found``)."""
    return SimulationError(
        f"{record['game_id']} hand {record['hand_no']} event {index} {ev}: "
        f"the engine stops with {found.code}: {found.message}"
    )


class HasFindings(Protocol):
    findings: list[Finding]


def check_clean(record: Record, hand: HasFindings) -> None:
    """A hand with nothing planted must carry no serious finding (the simulator's promise)."""
    serious = [f for f in hand.findings if f.cls in SERIOUS]
    if serious:
        f = serious[0]
        raise SimulationError(
            f"{record['game_id']} hand {record['hand_no']}: a clean hand has the finding "
            f"{f.code} at event {f.event_index}: {f.message}"
        )


class HandSim:
    """One hand being simulated: the record it writes event by event, the ruleset's
    options, the seats' bots, the random source and the plant (None: a clean hand)."""

    def __init__(
        self, record: Record, opts: Any, bots: list[Any], rng: random.Random, plant: Any
    ) -> None:
        self.record = record
        self.events: list[dict[str, Any]] = record["events"]
        self.opts = opts
        self.bots = bots
        self.rng = rng
        self.plant = plant


class Bot(Protocol):
    """A player: the ruleset's driver offers only legal choices, the bot picks a sensible one.

    Every game of the family discards, so that is the shared method; claims, kongs and
    declarations are the ruleset's own methods (a Hong Kong bot chows, a chắn bot eats
    cards), called by that ruleset's driver only. ``view`` is what the seat may know.
    """

    def choose_discard(self, view: Any) -> int: ...


@dataclass(frozen=True, slots=True)
class Venue:
    name: str
    utc_offset_hours: int
    tables: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Member:
    """A club member: display id plus the habits the ruleset's bot reads (``style``)."""

    name: str
    style: Any


@dataclass(frozen=True)
class Sitting:
    """One sitting to play: who sits where, where and when it starts."""

    game_id: str
    ruleset: str
    players: tuple[str, ...]
    members: tuple[Member, ...]
    venue: str
    table: str
    start: datetime
    first_dealer: int


StyleFn = Callable[[random.Random], Any]
BotFn = Callable[[Any, random.Random], Bot]
SittingFn = Callable[
    ["RulesetSimulator", Sitting, random.Random, float], Iterator[tuple[Record, list[Label]]]
]


@dataclass(frozen=True)
class RulesetSimulator:
    """How one ruleset is simulated: seats per table, venues, player habits, bots, sittings.

    ``play_sitting(sim, sitting, rng, violation_rate)`` plays a whole sitting and yields
    (canonical record, labels) per hand; ``violation_kinds`` lists what it can plant.
    """

    ruleset: str
    n_players: int
    venues: tuple[Venue, ...]
    make_style: StyleFn
    make_bot: BotFn
    play_sitting: SittingFn
    violation_kinds: tuple[str, ...] = field(default=())


REGISTRY: dict[str, RulesetSimulator] = {}


def register(sim: RulesetSimulator) -> RulesetSimulator:
    REGISTRY[sim.ruleset] = sim
    return sim


# Given names heard at Vietnamese and Hong Kong tables (ids must be unique per club).
GIVEN_NAMES: tuple[str, ...] = (
    "An", "Bình", "Chi", "Dũng", "Giang", "Hà", "Hải", "Hạnh", "Hoa", "Hùng", "Huy",
    "Khánh", "Lan", "Linh", "Long", "Mai", "Minh", "Nam", "Ngọc", "Nhung", "Phong",
    "Phương", "Quân", "Sơn", "Tâm", "Thảo", "Thu", "Trang", "Tuấn", "Vy",
    "Ka-ming", "Wai-man", "Siu-fung", "Mei-ling", "Chi-keung", "Ho-yin", "Kit",
    "Suk-yee", "Wing", "Yuk-lan", "Man-kit", "Pui-san", "Ka-yan", "Tsz-hin",
)  # fmt: skip


def club_members(rng: random.Random, k: int, make_style: StyleFn) -> tuple[Member, ...]:
    """K members with distinct names (a numeral is added once the name list runs out)."""
    pool = list(GIVEN_NAMES)
    rng.shuffle(pool)
    names = [pool[i % len(pool)] + (f" {i // len(pool) + 1}" if i >= len(pool) else "")
             for i in range(k)]  # fmt: skip
    return tuple(Member(n, make_style(rng)) for n in names)


def slug(text: str) -> str:
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "-".join("".join(ch if ch.isalnum() else " " for ch in ascii_).lower().split())


def sittings(
    sim: RulesetSimulator, games: int, rng: random.Random, members: tuple[Member, ...]
) -> list[Sitting]:
    """The schedule: evenings spread over about eight months, in time order."""
    if len(members) < sim.n_players:
        raise ValueError(
            f"{sim.ruleset} needs at least {sim.n_players} players, got {len(members)}"
        )
    venue = sim.venues[rng.randrange(len(sim.venues))]
    tz = timezone(timedelta(hours=venue.utc_offset_hours))
    year = 2024 + rng.randrange(3)
    base = datetime(year, 1 + rng.randrange(12), 1, tzinfo=tz)
    starts = sorted(
        base
        + timedelta(
            days=rng.randrange(240), hours=18 + rng.randrange(4), minutes=15 * rng.randrange(4)
        )
        for _ in range(games)
    )
    out = []
    for g, start in enumerate(starts):
        seated = rng.sample(members, sim.n_players)
        table = venue.tables[rng.randrange(len(venue.tables))]
        game_id = f"{slug(venue.name)}-{start:%Y-%m-%d}-{slug(table)}-{g + 1:05d}"
        out.append(
            Sitting(
                game_id=game_id,
                ruleset=sim.ruleset,
                players=tuple(m.name for m in seated),
                members=tuple(seated),
                venue=venue.name,
                table=table,
                start=start,
                first_dealer=rng.randrange(sim.n_players),
            )
        )
    return out
