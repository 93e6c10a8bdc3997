"""What every ruleset's simulator shares: labels, the bot protocol, the one sitting driver
(:func:`play_sitting`), the one hand driver (:meth:`HandSim.run`) and the step of a chosen
legal action (:meth:`HandSim.take`), the registry, the club, and the planting framework
(a plant's base and labels, the fallback to a wrong recorded payment and the one way a
scorer falsifies a payment, :func:`wrong_payment`, the engine's stop and a clean hand's
findings as simulator bugs, the record's first keys, the canonical record, the next
hand's start, a style's habits).

A ruleset plugs in by registering a :class:`RulesetSimulator` whose :class:`Table` says
what the driver cannot know: how a hand is dealt (the wall, the record, the plant, the
bots: its :class:`HandSim`), the recorded result, who deals next and when the sitting
ends; its hand sim says what each table state does (its bots' decisions and its plants).
The club (players, venue, tables, dates) is the same for every ruleset, so statistics
over a simulated archive look like one club's.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any, Protocol

from mjaudit.parts.replay.engine.findings import SERIOUS, Finding, FindingClass, points
from mjaudit.parts.schemas.records import RecordError, parse_object

Record = dict[str, Any]
# A hand's table state: (step, seat), the step naming the hand sim's ``do_<step>`` method
# that plays it; None once the hand has ended.
State = tuple[str, int] | None
MAX_STEPS = 2000  # a safety stop for a hand that does not end (a simulator bug)
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


@dataclass
class Plant:
    """One planted scenario in one hand, and the labels it has produced so far (a
    ruleset's plant adds what its scenarios remember)."""

    kind: str
    earliest: int  # no takeover before this event index (spreads breaks over the hand)
    chance: float  # per opportunity, once past ``earliest``
    labels: list[PlantLabel] = field(default_factory=list)
    done: bool = False

    def label(
        self,
        index: int,
        code: str,
        cls: str,
        seat: int | None,
        reason: str | None = None,
        note: str | None = None,
    ) -> None:
        self.labels.append((index, code, cls, seat, reason, note))


def standard_slip(d: list[Any], result: Record, rng: random.Random, slips: Slips) -> str:
    """The largest payer recorded paying double or half, or the payment charged to
    another player (``d``: the deltas, changed in place)."""
    n = len(d)
    losers = [s for s in range(n) if d[s] < 0]
    payer = min(losers, key=lambda s: (d[s], s))
    gainer = max(range(n), key=lambda s: (d[s], -s))
    if slips.swap_among_payers:  # another payer, or a seat that neither pays nor gains
        others = [s for s in range(n) if s != payer and d[s] <= 0 and d[s] != d[payer]]
    else:  # any seat but the payer and the largest gainer
        others = [s for s in range(n) if s != payer and s != gainer and d[s] != d[payer]]
    mode = rng.choice(("double", "half", "wrong_payer"))
    if mode == "wrong_payer" and others:
        q = others[rng.randrange(len(others))]
        d[payer], d[q] = d[q], d[payer]
        return "the payment charged to the wrong player"
    if mode == "half" and (not slips.half_whole_only or d[payer] % 2 == 0):
        half = d[payer] / 2
        d[payer] -= half
        d[gainer] += half
        return "the payer recorded paying half"
    d[gainer] -= d[payer]
    d[payer] *= 2
    return "the payer recorded paying double"


def nobody_pays(result: Record, d: list[Any]) -> bool:
    """No seat pays in the recorded deltas."""
    return not any(x < 0 for x in d)


@dataclass(frozen=True)
class Slips:
    """How a ruleset's scorer gets a payment wrong (:func:`wrong_payment`), and how the
    wrong recorded result is labelled."""

    code: str  # the finding the wrong result gives (RESULT_MISMATCH, ...)
    scenario: str  # the plant's kind for it (the label's ``violation``)
    unit: float  # what a payment recorded where nobody pays moves
    nobody: str  # that hand, in words ("a drawn hand")
    seats: int = 4  # the deltas when the result records none
    idle: Callable[[Record, list[Any]], bool] = nobody_pays  # is it such a hand?
    # the slip on a hand where someone pays: (deltas, result, rng, slips) -> what it did
    slip: Callable[[list[Any], Record, random.Random, Slips], str] = standard_slip
    swap_among_payers: bool = True  # standard_slip: the wrong payer is another loser
    half_whole_only: bool = False  # standard_slip: half only when it halves into points
    penalties_follow: bool = False  # a penalty's recorded deltas are the hand's


def wrong_payment(result: Record, rng: random.Random, slips: Slips) -> str:
    """Falsify the recorded result as a scorer might (the one way for every ruleset;
    ``slips`` says what the ruleset's scorer gets wrong) and say how."""
    d = list(result.get("deltas") or [0] * slips.seats)
    if slips.idle(result, d):
        a, b = rng.sample(range(len(d)), 2)
        d[a] -= slips.unit
        d[b] += slips.unit
        what = f"a payment recorded on {slips.nobody}"
    else:
        what = slips.slip(d, result, rng, slips)
    result["deltas"] = [points(x) for x in d]
    if slips.penalties_follow:
        for pen in result.get("penalties", ()):
            pen["deltas"] = result["deltas"]
    return what


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


def hand_labels(
    plant: Planted | None,
    record: Record,
    result: Record,
    rng: random.Random,
    slips: Slips,
    *,
    due: bool,
    clean: HasFindings | None = None,
) -> list[Label]:
    """The finished hand's labels, and its ``result`` recorded (falsified by ``slips``
    when the plant is a wrong payment, ``due``, or found no chance). A hand with nothing
    planted has none, and is checked to be ``clean`` when its hand state is given."""
    labels: list[Label] = []
    if plant is None:
        if clean is not None:
            check_clean(record, clean)
    else:
        falsify = partial(wrong_payment, result, rng, slips)
        labels = planted_labels(
            plant, record, falsify, code=slips.code, scenario=slips.scenario, due=due
        )
    record["result"] = result
    return labels


def record_head(sitting: Sitting, hand_no: int, at: datetime, dealer: int) -> Record:
    """The keys every simulated hand record starts with (the ruleset adds its own)."""
    return {
        "format": "mjlog/1",
        "game_id": sitting.game_id,
        "hand_no": hand_no,
        "ruleset": sitting.ruleset,
        "started_at": at.isoformat(),
        "venue": sitting.venue,
        "table": sitting.table,
        "players": list(sitting.players),
        "dealer": dealer,
    }


def next_start(
    at: datetime, record: Record, rng: random.Random, minutes: int, per_event: float
) -> datetime:
    """When the next hand starts: ``minutes`` plus ``per_event`` a recorded event, and a
    few minutes' chat."""
    return at + timedelta(
        minutes=minutes + round(len(record["events"]) * per_event) + rng.randint(0, 3)
    )


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

    hand: Any  # the ruleset's hand state, which the record's events are stepped through

    def __init__(
        self, record: Record, opts: Any, bots: list[Any], rng: random.Random, plant: Any
    ) -> None:
        self.record = record
        self.events: list[dict[str, Any]] = record["events"]
        self.opts = opts
        self.bots = bots
        self.rng = rng
        self.plant = plant

    def fail(self, msg: str) -> SimulationError:
        """A simulator bug in this hand."""
        return SimulationError(f"{self.record['game_id']} hand {self.record['hand_no']}: {msg}")

    def begin(self) -> State:
        """Start the hand (the engine's deal, and what comes before the first turn) and
        say its first table state."""
        raise NotImplementedError

    def run(self) -> None:
        """The one hand driver: from :meth:`begin`, each table state ``(step, seat)`` is
        played by the ruleset's ``do_<step>(seat)``, which says the next, until None."""
        state = self.begin()
        for _ in range(MAX_STEPS):
            if state is None:
                return
            step, seat = state
            state = getattr(self, "do_" + step)(seat)
        raise self.fail("the hand does not end")

    def emit(self, ev: dict[str, Any]) -> int:
        """Append ``ev`` to the record and step the ruleset's state with it."""
        raise NotImplementedError

    def legal(self, seat: int, kinds: Container[str] | None = None) -> list[dict[str, Any]]:
        """The events the ruleset's state lists as legal for ``seat`` now (of the types
        ``kinds`` when given)."""
        raise NotImplementedError

    @staticmethod
    def fits(want: dict[str, Any], action: dict[str, Any]) -> bool:
        """Is the listed ``action`` the one the bot chose (``want``: the fields it names,
        none of them None)?"""
        return want.items() <= action.items()

    @staticmethod
    def made(action: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
        """The event of the listed ``action`` the bot chose as ``want``: the listed one (a
        new dict: the driver adds what it knows to it)."""
        return dict(action)

    def take(self, seat: int, want: dict[str, Any], **extra: Any) -> int:
        """Step the action the seat's bot chose from the state's legal actions: the first
        listed action that :meth:`fits` ``want`` (with ``seat``), as :meth:`made` makes
        it, with ``extra`` added (what the driver knows and the list leaves open: a
        draw's tile, the value a winner claims).

        A clean hand makes only listed actions (anything else is a simulator bug). In a
        hand with a plant the table may be off the rules by now (the plant's break, or
        its own follow-up such as the discard after a kong with no replacement): an
        action the list lacks is then recorded as the bot chose it. A field None in
        ``want`` is one the action lacks (``"seat": None`` for an event of the table).
        """
        given = {"seat": seat}
        absent: list[str] = []  # fields the action must lack
        for k, v in want.items():
            if v is None:
                given.pop(k, None)
                absent.append(k)
            else:
                given[k] = v
        fits = self.fits
        for action in self.legal(seat, (want["type"],)):
            if fits(given, action) and not (absent and any(k in action for k in absent)):
                ev = self.made(action, given)  # a new dict
                ev.update(extra)
                return self.emit(ev)
        if self.plant is None:
            raise SimulationError(
                f"{self.record['game_id']} hand {self.record['hand_no']} event "
                f"{len(self.events)}: the state does not list {given} for seat {seat}"
            )
        return self.emit({**given, **extra})


class Bot(Protocol):
    """A player: the ruleset's driver offers only legal choices, the bot picks a sensible one.

    Every game of the family discards, so that is the shared method; claims, kongs and
    declarations are the ruleset's own methods (a Hong Kong bot chows, a chắn bot eats
    cards), called by that ruleset's driver only. ``view`` is what the seat may know.
    """

    def choose_discard(self, view: Any) -> int: ...


def habits(rng: random.Random, **ranges: tuple[float, float]) -> dict[str, float]:
    """A member's habits drawn uniformly from ``ranges`` (name -> (low, high)), in the
    order given, to two decimals: a bot style's ``random``."""
    return {name: round(rng.uniform(lo, hi), 2) for name, (lo, hi) in ranges.items()}


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


class Table:
    """A ruleset's side of one sitting, the hooks of :func:`play_sitting`: the ruleset's
    subclass deals each hand (:meth:`deal`), reads its result (:meth:`result`) and moves
    the deal on (:meth:`next_hand`). Made at the sitting's start (a ruleset may draw its
    house options there, from ``rng``)."""

    hands: int = 160  # the most hands a sitting plays (a safety stop where it has no end)
    minutes: int = 2  # a hand's minutes (:func:`next_start`), and
    per_event: float = 0.04  # those a recorded event adds
    slips: Slips  # how the ruleset's scorer records a wrong payment
    check_clean = False  # a hand with nothing planted is checked to be clean

    def __init__(
        self, sim: RulesetSimulator, sitting: Sitting, rng: random.Random, rate: float
    ) -> None:
        self.sim = sim
        self.sitting = sitting
        self.rng = rng
        self.rate = rate  # the share of hands with a plant
        self.n = sim.n_players
        self.setup()

    def setup(self) -> None:
        """The ruleset's own state for the sitting (its options, the first dealer)."""

    def deal(self, hand_no: int, at: datetime) -> HandSim:
        """Hand ``hand_no``, starting ``at``: the shuffled wall, the record (its head from
        :func:`record_head`), the plant and the bots, as the hand sim to play."""
        raise NotImplementedError

    def result(self, hs: Any) -> tuple[Record, bool]:
        """The played hand's result as the table records it, and whether the plant is a
        wrong recorded payment (then :func:`hand_labels` falsifies it)."""
        raise NotImplementedError

    def check(self, record: Record, labels: list[Label]) -> None:
        """The ruleset's own check of a finished record and its labels."""

    def next_hand(self, hs: Any, result: Record) -> bool:
        """Move the deal on after the hand; False once the sitting is over."""
        return True


def play_sitting(
    sim: RulesetSimulator, sitting: Sitting, rng: random.Random, rate: float
) -> Iterator[tuple[Record, list[Label]]]:
    """The one sitting driver: hand after hand, the ruleset's :class:`Table` deals it, its
    hand sim plays it (:meth:`HandSim.run`), the result and the plant's labels are
    recorded and (canonical record, labels) yielded, until the table says the sitting is
    over."""
    table = sim.table(sim, sitting, rng, rate)
    at = sitting.start
    for hand_no in range(1, table.hands + 1):
        hs = table.deal(hand_no, at)
        hs.run()
        record = hs.record
        result, due = table.result(hs)
        clean = hs.hand if table.check_clean else None
        labels = hand_labels(hs.plant, record, result, rng, table.slips, due=due, clean=clean)
        table.check(record, labels)
        yield canonical(record), labels
        if not table.next_hand(hs, result):
            return
        at = next_start(at, record, rng, table.minutes, table.per_event)


@dataclass(frozen=True)
class RulesetSimulator:
    """How one ruleset is simulated: seats per table, venues, player habits, bots, and
    its :class:`Table` (what :func:`play_sitting` asks of the ruleset);
    ``violation_kinds`` lists what it can plant."""

    ruleset: str
    n_players: int
    venues: tuple[Venue, ...]
    make_style: StyleFn
    make_bot: BotFn
    table: Callable[[RulesetSimulator, Sitting, random.Random, float], Table]
    violation_kinds: tuple[str, ...] = field(default=())

    def play(
        self, sitting: Sitting, rng: random.Random, rate: float
    ) -> Iterator[tuple[Record, list[Label]]]:
        """A whole sitting, (canonical record, labels) per hand (:func:`play_sitting`)."""
        return play_sitting(self, sitting, rng, rate)


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
