"""What the mahjong simulators share (Hong Kong, vn-160), over the shared hand state.

A hand is a walk over table states: ``("draw" | "act" | "discard" | "claims", seat)``, None
once the hand has ended, walked by the one hand driver (:meth:`~replay.sim.core.HandSim.run`).
At each the driver asks the ruleset's hand
(:class:`replay.rulesets.mahjong.hand.MahjongHand`) for the seat's legal actions, the bot
picks one and the driver steps it (:meth:`~replay.sim.core.HandSim.take`): each event is
appended to the record and at once stepped through that same hand, so the bots see the
engine's own table; a plant writes its events itself. :class:`MahjongHandSim` holds the
claim window's plant takeover, the own-kong choice, the planting steps both rulesets take
the same way (a double draw, a kong without replacement) and the recorded result's common
part; a ruleset's subclass says what each state does (``do_draw``, ``do_act``,
``do_discard``, ``claims``) and plants its own scenarios. :class:`MahjongTable` is the
sitting's four rounds (:class:`Rounds`) for the one sitting driver. Bots stay per ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any, Protocol

from mjaudit.parts.replay.engine.findings import FindingClass, Stop, points
from mjaudit.parts.replay.rulesets.mahjong.hand import MahjongHand
from mjaudit.parts.replay.rulesets.mahjong.melds import WinSource
from mjaudit.parts.replay.sim import core
from mjaudit.parts.replay.sim.core import HandSim, Record, SimulationError, State, engine_stopped

Plan = tuple[bool, State]  # a plant's step: (taken over, the table state it leaves)
# The scenarios both rulesets plant the same way (the ``violation`` of their labels).
DOUBLE_DRAW = "double_draw"
KONG_WITHOUT_REPLACEMENT = "kong_without_replacement"
KONGS = ("concealed_kong", "added_kong")  # an own kong's event type, by ``added``
SETS = ("kong", "pung", "chow")  # the sets claimed on a discard
WIN = ("win",)
VIOL = FindingClass.PLAYER_VIOLATION.value
EXHAUSTIVE_DRAW: dict[str, Any] = {"type": "exhaustive_draw", "seat": None}  # the table's


class Rounds:
    """A sitting's four rounds (E S W N): the deal passes to the right unless the dealer
    stays, and the round wind moves on when the deal comes back to the first dealer."""

    def __init__(self, dealer: int, n: int) -> None:
        self.dealer = dealer
        self.first = dealer
        self.n = n
        self.wind = 0

    @property
    def prevailing(self) -> str:
        return "ESWN"[self.wind]

    def next_hand(self, stays: bool) -> bool:
        """Move on after a hand; False once the North round is over."""
        if not stays:
            self.dealer = (self.dealer + 1) % self.n
            if self.dealer == self.first:
                if self.wind == 3:
                    return False
                self.wind += 1
        return True


class MahjongTable(core.Table):
    """A mahjong sitting for the one sitting driver: four rounds (:class:`Rounds`); the
    ruleset says when the dealer stays (:meth:`stays`)."""

    def setup(self) -> None:
        self.rounds = Rounds(self.sitting.first_dealer, self.n)

    def head(self, hand_no: int, at: Any) -> Record:
        """The record's first keys: the shared ones and the prevailing wind."""
        dealer = self.rounds.dealer
        return {
            **core.record_head(self.sitting, hand_no, at, dealer),
            "prevailing_wind": self.rounds.prevailing,
        }

    def stays(self, hs: Any, result: Record) -> bool:
        """Does the dealer deal again after this hand?"""
        raise NotImplementedError

    def next_hand(self, hs: Any, result: Record) -> bool:
        return self.rounds.next_hand(self.stays(hs, result))


class Plant(Protocol):
    """What the shared steps read of a ruleset's plant."""

    earliest: int  # no takeover before this event index
    chance: float  # per opportunity, once past ``earliest``
    done: bool


class MahjongHandSim(HandSim):
    """One hand being played (module docstring); the subclass makes ``hand``. A plant's
    ``oblivious`` seat is a dead hand that plays on as if it were not."""

    hand: MahjongHand
    # What the subclass defines: what each table state does, a seat's view for its bot,
    # and the planted scenarios' steps.
    do_draw: Callable[[int], State]
    do_act: Callable[[int], State]
    do_discard: Callable[[int], State]
    claims: Callable[[int, int], State]  # (discarder, tile): the claim window's claims
    view: Callable[[int], Any]
    kong_discard: Callable[[int], State]  # the discard after a planted kong, labelled
    second_draw: Callable[[int], State]  # the DOUBLE_DRAW plant's draw, and what follows
    plant_claims: Callable[[int, int], tuple[bool, State]]  # a plant's takeover of it
    VALUE = "fan"  # the attribute of the winner's score that the result records as "fan"
    HAND: Callable[[Record, Any], MahjongHand]  # the ruleset's hand state, from (record, opts)

    def __init__(
        self, record: Record, wall: list[int], opts: Any, bots: list[Any], rng: Any, plant: Any
    ) -> None:
        """``wall``: the tile ints of ``record["wall"]``, as the ruleset's hand reads them."""
        super().__init__(record, opts, bots, rng, plant)
        self.hand = self.HAND(record, opts)
        self.n = len(record["players"])
        self.dealer: int = record["dealer"]
        self.wall = wall
        self.setup()

    def setup(self) -> None:
        """The ruleset's own state for the hand (after the shared part)."""

    def emit(self, ev: dict[str, Any]) -> int:
        """Append ``ev`` to the record and step it; the engine stopping is a simulator bug."""
        i = len(self.events)
        self.events.append(ev)
        try:
            self.hand.step(i, ev)
        except Stop:
            raise engine_stopped(self.record, i, ev, self.hand.findings[-1]) from None
        return i

    def takeover(self, plant_step: Callable[[int], tuple[bool, State]], seat: int) -> Plan:
        """The plant's step at this point of the seat's turn: (taken, the state it leaves);
        (False, None) in a clean hand."""
        if self.plant is None:
            return False, None
        return plant_step(seat)

    def legal(self, seat: int, kinds: Container[str] | None = None) -> list[dict[str, Any]]:
        return self.hand.legal_actions(seat, kinds)

    # -- wins ------------------------------------------------------------------------------

    def win_score(self, seat: int, t: int, source: WinSource) -> Any:
        """The score of the seat's win on ``t`` now as the ruleset's scoring gives it (None:
        not a valid win)."""
        raise NotImplementedError

    def listed_win(
        self, seat: int, t: int, source: WinSource, legal: list[dict[str, Any]] | None = None
    ) -> Any:
        """The value of the win on ``t`` among the seat's legal actions (``legal`` when
        already asked), as its bot reads it (None: the state lists no win)."""
        listed = self.legal(seat, WIN) if legal is None else legal
        if not any(a["type"] == "win" for a in listed):
            return None
        return self.win_score(seat, t, source)

    def take_win(self, seat: int, t: int, frm: int | None, score: Any, robbed: bool = False) -> int:
        """The listed win the seat's bot takes, with the value it claims (:attr:`VALUE`)."""
        want = {
            "type": "win",
            "tile": self.hand.CODES[t],
            "from": frm,
            "robbed_kong": robbed or None,
        }
        return self.take(seat, want, claim={"fan": getattr(score, self.VALUE)})

    def win(self, seat: int, t: int, frm: int | None, score: Any) -> int:
        """A planted win, written as the plant makes it (the claimed value when scored)."""
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": self.hand.CODES[t]}
        if frm is not None:
            ev["from"] = frm
        if score is not None:
            ev["claim"] = {"fan": getattr(score, self.VALUE)}
        return self.emit(ev)

    def false_win(
        self, seat: int, t: int, frm: int | None, score: Any, reason: str, oblivious: bool = False
    ) -> None:
        """A planted win the engine rejects for ``reason``: written (:meth:`win`) and
        labelled FALSE_WIN; the plant is then done (an ``oblivious`` dead hand's win: the
        seat is no longer oblivious)."""
        p = self.plant
        i = self.win(seat, t, frm, score)
        p.label(i, "FALSE_WIN", VIOL, seat, reason)
        if oblivious:
            p.oblivious = None
        else:
            p.done = True

    def wall_empty(self, seat: int) -> bool:
        """No live tile is left for ``seat``'s draw: the hand ends in an exhaustive draw
        (written)."""
        if self.hand.live_count < 1:
            self.take(seat, EXHAUSTIVE_DRAW)
            return True
        return False

    def do_claims(self, discarder: int) -> State:
        """The claim window on ``discarder``'s discard: the plant's takeover, else the
        ruleset's claims."""
        live = self.hand.live
        assert live is not None
        t = live.tile
        if self.plant is not None:
            taken, state = self.plant_claims(discarder, t)
            if taken:
                return state
        return self.claims(discarder, t)

    def inactive(self, seat: int) -> bool:
        """A dead hand (mất ù) that knows it: it plays on but never claims, kongs or wins."""
        return seat in self.hand.dead and (self.plant is None or self.plant.oblivious != seat)

    def chow_options(self, seat: int, t: int) -> list[tuple[int, int]]:
        """The pairs of natural tiles in hand that make a chow with ``t`` (lowest run first)."""
        if t >= 27:
            return []
        c = self.hand.concealed[seat]
        r = t % 9
        out = []
        for low_rank in (r - 2, r - 1, r):
            if 0 <= low_rank <= 6:
                low = t - r + low_rank
                a, b = (x for x in (low, low + 1, low + 2) if x != t)
                if c[a] and c[b]:
                    out.append((a, b))
        return out

    # -- kongs -------------------------------------------------------------------------------

    def kong_options(self, seat: int, legal: list[dict[str, Any]]) -> list[tuple[int, bool]]:
        """(tile, added) for each own kong among the seat's ``legal`` actions (four held,
        or a pung's fourth)."""
        index = self.hand.TILE_INDEX
        return [(index[e["tile"]], e["type"] == "added_kong") for e in legal if e["type"] in KONGS]

    def chosen_kong(self, seat: int, legal: list[dict[str, Any]]) -> tuple[int, bool] | None:
        """The kong the seat's bot declares now among its ``legal`` actions, if any: the
        first it wants, lowest tile first."""
        if self.inactive(seat):
            return None
        options = self.kong_options(seat, legal)
        if not options:
            return None
        bot = self.bots[seat]
        v = self.view(seat)
        for t, added in sorted(options):
            if bot.wants_own_kong(v, t, added):
                self.take(seat, self.kong_event(t, added))
                return t, added
        return None

    def kong_event(self, t: int, added: bool) -> dict[str, Any]:
        return {"type": KONGS[added], "tile": self.hand.CODES[t]}

    # -- planting ----------------------------------------------------------------------------

    def ready(self, p: Plant) -> bool:
        """The plant takes this opportunity: not done, past its earliest event, by chance."""
        return (
            not p.done
            and len(self.events) >= p.earliest
            and (p.chance >= 1 or self.rng.random() < p.chance)
        )

    def plant_turn_end(self, seat: int, kind: str) -> tuple[bool, State]:
        """The plants a turn offers last: a second draw, a kong with no replacement."""
        if kind == DOUBLE_DRAW and self.double_drawn(seat):
            self.plant.done = True
            return True, self.second_draw(seat)
        if kind == KONG_WITHOUT_REPLACEMENT:
            return self.planted_kong(seat)
        return False, None

    def kong_then_discard(self, seat: int) -> State:
        """After a kong the plant declared (own or claimed): no replacement, a discard."""
        self.plant.done = True
        return self.kong_discard(seat)

    def double_drawn(self, seat: int) -> bool:
        """The seat's own draw was the last event and two live tiles are left: the moment
        of a planted double draw."""
        last = self.events[-1]
        return self.hand.live_count >= 2 and last["type"] == "draw" and last["seat"] == seat

    def planted_kong(self, seat: int) -> tuple[bool, State]:
        """A kong the seat holds (one at random), declared with no replacement to follow
        (none with no live tile left)."""
        if self.hand.live_count < 1:
            return False, None
        options = self.kong_options(seat, self.hand.own_kongs(seat))
        if not options:
            return False, None
        k, added = options[self.rng.randrange(len(options))]
        self.emit({**self.kong_event(k, added), "seat": seat})
        return True, self.kong_then_discard(seat)

    # -- the record's result -----------------------------------------------------------------

    def finished(self) -> MahjongHand:
        """The hand after its last event (the engine stopping is a simulator bug)."""
        h = self.hand
        h.finish(len(self.events) - 1)
        if h.stopped:
            raise SimulationError(f"{self.record['game_id']}: hand stopped: {h.findings[-1]}")
        return h

    def recorded(self, deltas: list[Any]) -> dict[str, Any]:
        """The result as the table records it: winners, the head winner's value
        (:attr:`VALUE`) and patterns, the payments."""
        h = self.hand
        out: dict[str, Any] = {"winners": sorted(c.seat for c in h.settled)}
        if h.settled:
            top = h.settled[0].score
            assert top is not None
            out["fan"] = getattr(top, self.VALUE)
            out["patterns"] = list(top.instances)
        out["deltas"] = [points(d) for d in deltas]
        return out
