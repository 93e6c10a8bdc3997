"""Simulated American sittings (american.md, sample card of §6 by default), event by event.

Every hand is built the way the replayer reads it: each event goes through
:meth:`replay.american.hand.AmericanHand.apply` at once, so the table the bots see is the
engine's own (one definition of legal), and a Mahjong is declared only when the engine's
matcher (:meth:`AmericanHand.winning_match`) says the tiles are a card hand. The recorded
``result`` is the engine's settlement of that same hand. A hand with no plant must end
with no serious finding, or :class:`SimulationError` is raised (a simulator bug).

A planted violation (:class:`Plant`) takes over one decision of one hand: a joker or a
short pass in the Charleston, a blind pass where none is allowed, a second Charleston
after a stop, a courtesy pass with the wrong partner, a call for a pair or a run, a call
of a discarded joker, a late call, an exposure no card hand can hold, a joker exchange
with the wrong tile or out of turn, a Mahjong in error (then, in one scenario, the dead
hand plays on), a draw or discard out of turn, a claim priority ignored, a wrong dead-hand
call, or a wrong recorded payment. It waits for a moment where the break is possible and
natural; if none comes, the recorded payment is falsified instead, so about the requested
share of hands carries labels.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from mjaudit.parts.replay.engine.findings import FindingClass, Stop, points
from mjaudit.parts.replay.rulesets.american.card import Card, sample_card
from mjaudit.parts.replay.rulesets.american.hand import (
    CALL_SIZES,
    FULL_SET,
    PASS_OFFSET,
    AmericanHand,
)
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape, exposures_fit, match_all
from mjaudit.parts.replay.rulesets.american.options import AmericanOptions, options_for
from mjaudit.parts.replay.rulesets.american.tiles import FLOWER, JOKER_KIND, kind
from mjaudit.parts.replay.sim import core
from mjaudit.parts.replay.sim.american_bot import AmericanBot, Assessment, CardModel, Style
from mjaudit.parts.replay.sim.core import HandSim, Record, SimulationError, State
from mjaudit.parts.schemas.tiles import JOKER

N = 4
# A listed action's fields that the player fills in (a Charleston pass's tiles, a
# courtesy pass's count): not compared with the event made.
TEMPLATE = ("choose", "blind_allowed", "asked")
END: dict[str, Any] = {"type": "exhaustive_draw", "seat": None}  # the table's
HANDS_PER_SITTING = 16  # every player is East four times (§2.5: East passes right each hand)
SIZE_TYPE = {n: t for t, n in CALL_SIZES.items()}
COURTESY = 7  # Plant.at_pass for the courtesy pass

VIOL = FindingClass.PLAYER_VIOLATION.value

# Planted scenarios (the ``violation`` field of a label).
JOKER_PASSED = "joker_passed"
BLIND_PASS_NOT_ALLOWED = "blind_pass_not_allowed"
SHORT_PASS = "short_pass"
SECOND_CHARLESTON_AFTER_STOP = "second_charleston_after_stop"
COURTESY_WRONG_PARTNER = "courtesy_wrong_partner"
CALL_FOR_PAIR = "call_for_pair"
CALL_FOR_RUN = "call_for_run"
CALL_DISCARDED_JOKER = "call_discarded_joker"
LATE_CALL = "late_call"
EXPOSURE_FITS_NO_HAND = "exposure_fits_no_hand"
JOKER_EXCHANGE_WRONG_TILE = "joker_exchange_wrong_tile"
JOKER_EXCHANGE_OUT_OF_TURN = "joker_exchange_out_of_turn"
MAHJONG_IN_ERROR = "mahjong_in_error"
DEAD_HAND_PLAYS_ON = "dead_hand_plays_on"
DRAW_OUT_OF_TURN = "draw_out_of_turn"
DISCARD_OUT_OF_TURN = "discard_out_of_turn"
CALL_PRIORITY_IGNORED = "call_priority_ignored"
DEAD_CALL_INCORRECT = "dead_call_incorrect"
RECORDED_RESULT_MISMATCH = "recorded_result_mismatch"

MENU: tuple[str, ...] = (
    JOKER_PASSED, BLIND_PASS_NOT_ALLOWED, SHORT_PASS, SECOND_CHARLESTON_AFTER_STOP,
    COURTESY_WRONG_PARTNER, CALL_FOR_PAIR, CALL_FOR_RUN, CALL_DISCARDED_JOKER, LATE_CALL,
    EXPOSURE_FITS_NO_HAND, JOKER_EXCHANGE_WRONG_TILE, JOKER_EXCHANGE_OUT_OF_TURN,
    MAHJONG_IN_ERROR, DEAD_HAND_PLAYS_ON, DRAW_OUT_OF_TURN, DISCARD_OUT_OF_TURN,
    CALL_PRIORITY_IGNORED, DEAD_CALL_INCORRECT, RECORDED_RESULT_MISMATCH,
)  # fmt: skip
CHARLESTON_KINDS = frozenset(
    {
        JOKER_PASSED,
        BLIND_PASS_NOT_ALLOWED,
        SHORT_PASS,
        SECOND_CHARLESTON_AFTER_STOP,
        COURTESY_WRONG_PARTNER,
    }
)
# Rare moments are taken at the first chance; common ones at a random later one.
RARE = frozenset(
    {CALL_DISCARDED_JOKER, JOKER_EXCHANGE_WRONG_TILE, JOKER_EXCHANGE_OUT_OF_TURN, MAHJONG_IN_ERROR,
     DEAD_HAND_PLAYS_ON, CALL_PRIORITY_IGNORED, LATE_CALL}
)  # fmt: skip


@dataclass
class Plant:
    """One planted scenario in one hand, and the labels it has produced so far."""

    kind: str
    delay: int  # play events to let pass before the first takeover
    chance: float  # per opportunity, once past the delay
    at_pass: int = 1  # Charleston plants: the pass they take over
    at_wall_end: bool = False  # LATE_CALL: the last discard called for an exposure
    labels: list[core.PlantLabel] = field(default_factory=list)
    done: bool = False
    play_start: int | None = None
    pending: dict[int, str] = field(default_factory=dict)  # seat -> code at its next discard
    oblivious: int | None = None  # DEAD_HAND_PLAYS_ON: the dead seat that plays on
    forced_joker_call: tuple[int, int] | None = None  # (caller, natural kind) for a J discard

    def label(
        self, index: int, code: str, seat: int | None, cls: str = VIOL, note: str | None = None
    ) -> None:
        self.labels.append((index, code, cls, seat, None, note))


def make_plant(rng: random.Random, rate: float) -> Plant | None:
    if rate <= 0 or rng.random() >= rate:
        return None
    kind_ = rng.choice(MENU)
    at_pass = rng.choice((1, 2, 3))
    if kind_ == BLIND_PASS_NOT_ALLOWED:
        at_pass = rng.choice((1, 2))
    elif kind_ == JOKER_PASSED:
        at_pass = rng.choice((1, 2, 3, COURTESY))
    rare = kind_ in RARE
    plant = Plant(kind_, rng.randint(0, 10 if rare else 60), 1.0 if rare else 0.35, at_pass)
    plant.at_wall_end = kind_ == LATE_CALL and rng.random() < 0.4
    return plant


class AmericanHandSim(HandSim):
    """Plays one hand: the engine's state is the table, the bots choose, the plant meddles."""

    def __init__(
        self,
        record: Record,
        opts: AmericanOptions,
        card: Card,
        bots: list[AmericanBot],
        rng: random.Random,
        plant: Plant | None,
    ) -> None:
        super().__init__(record, opts, bots, rng, plant)
        self.card = card
        self.model = CardModel.of(card)
        self.hand = AmericanHand(record, opts, card)
        self.wall: list[str] = record["wall"]
        self.dealer: int = record["dealer"]
        self._assessed: dict[int, Assessment | None] = {}
        self._concealed: dict[int, list[int]] = {}

    # -- plumbing ----------------------------------------------------------------------

    def legal(self, seat: int, kinds: Collection[str] | None = None) -> list[dict[str, Any]]:
        return self.hand.legal_actions(seat, kinds)

    @staticmethod
    def fits(want: dict[str, Any], action: dict[str, Any]) -> bool:
        """The chosen event ``want`` is the listed ``action``: the fields the list gives
        are the same (an exposure's ``with`` as a multiset of kinds), but for those its
        template leaves to the player (:data:`TEMPLATE`)."""
        for k, v in action.items():
            if k == "with":
                if sorted(map(kind, v)) != sorted(map(kind, want.get(k) or ())):
                    return False
            elif k not in TEMPLATE and want.get(k) != v:
                return False
        return True

    @staticmethod
    def made(action: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
        """The listed action as the player fills it in: the tiles passed, asked for, the
        flowers shown."""
        return {k: v for k, v in want.items() if v is not None}

    def emit(self, ev: dict[str, Any]) -> int:
        try:
            self.hand.apply(ev)
        except Stop:
            raise core.engine_stopped(
                self.record, len(self.events) - 1, ev, self.hand.findings[-1]
            ) from None
        i = len(self.events) - 1
        if ev["type"] in ("charleston_pass", "courtesy_pass"):
            self._assessed.clear()
            self._concealed.clear()
        else:  # only the actor's hand changes (and a joker exchange's target's exposure)
            for cache in (self._assessed, self._concealed):
                cache.pop(ev.get("seat"), None)  # type: ignore[arg-type]
                cache.pop(ev.get("target"), None)  # type: ignore[arg-type]
        p = self.plant
        if p is not None and ev["type"] == "discard" and ev["seat"] in p.pending:
            p.label(i, p.pending.pop(ev["seat"]), ev["seat"])
        return i

    def concealed(self, seat: int) -> list[int]:
        """The seat's concealed kind counts (a fresh copy: callers may change it)."""
        c = self._concealed.get(seat)
        if c is None:
            c = self._concealed[seat] = self.hand.kinds_vector(self.hand.hands[seat])
        return list(c)

    def shapes(self, seat: int) -> list[ExposureShape]:
        return self.hand.shapes(seat)

    def live(self, seat: int) -> bool:
        return seat not in self.hand.dead

    def codes(self, seat: int, kinds: list[int]) -> list[str]:
        """Log codes in ``seat``'s concealed hand for these kinds (distinct flowers)."""
        pool = Counter(self.hand.hands[seat])
        out = []
        for k in kinds:
            code = next(c for c in sorted(pool) if pool[c] > 0 and kind(c) == k)
            pool[code] -= 1
            out.append(code)
        return out

    def holds(self, seat: int, k: int) -> int:
        return self.concealed(seat)[k]

    def assess(self, seat: int) -> Assessment | None:
        """The seat's bot's view of its hand (cached until an event changes the hand)."""
        if seat not in self._assessed:
            self._assessed[seat] = self.bots[seat].assess(
                self.model, self.concealed(seat), self.shapes(seat)
            )
        return self._assessed[seat]

    def give_away(self, seat: int, k: int) -> list[str]:
        """``k`` tiles the seat needs least (a dead-by-exposure hand gives its first tiles)."""
        a = self.assess(seat)
        if a is None:
            return self.hand.concealed_codes(seat)[:k]
        return self.codes(
            seat, self.bots[seat].least_useful(self.model, a, self.concealed(seat), k)
        )

    def distance(self, seat: int) -> int:
        a = self.assess(seat)
        return 99 if a is None else a.distance

    def completes(self, seat: int, tile: str | None = None) -> bool:
        """The engine's matcher says the seat's tiles (plus a called ``tile``) are a card
        hand, and no concealed hand would match but for the exposures (§8.2)."""
        if self.distance(seat) > (1 if tile is not None else 0):
            return False  # one tile mends at most one missing tile
        c = self.concealed(seat)
        if tile is not None:
            c[kind(tile)] += 1
        if self.hand.winning_match(seat, tile) is None:
            return False
        shapes = self.shapes(seat)
        return not (shapes and self.concealed_only(c, shapes))

    def concealed_only(self, c: list[int], shapes: list[ExposureShape]) -> bool:
        return any(m.hand.concealed for m in match_all(self.card, c, shapes, ignore_rule4=True))

    # -- the hand ------------------------------------------------------------------------

    def begin(self) -> State:
        """The deal, East's Mahjong on the deal (then the hand is over) or the Charleston,
        then the first turn."""
        h = self.hand
        try:
            h.start()
        except Stop:
            raise self.fail(f"deal rejected: {h.findings[-1]}") from None
        if h.winning_match(self.dealer) is not None and (
            self.plant is None or self.plant.kind not in CHARLESTON_KINDS
        ):
            tile = h.concealed_codes(self.dealer)[0]
            m = h.winning_match(self.dealer)
            assert m is not None
            self.take(self.dealer, {"type": "win", "tile": tile}, claim={"hand": m.hand.id})
            return None
        self.charleston()
        p = self.plant
        if p is not None:
            p.play_start = len(self.events)
            if p.kind in CHARLESTON_KINDS:
                p.done = p.done or not p.labels
        return self.table_state()

    # -- Charleston (§3) -----------------------------------------------------------------

    def order(self) -> list[int]:
        return [(self.dealer + k) % N for k in range(N)]

    def charleston(self) -> None:
        p = self.plant
        for k in (1, 2, 3):
            self.do_pass(k)
        stop_anyway = p is not None and p.kind == SECOND_CHARLESTON_AFTER_STOP
        stopper = None
        for s in self.order():
            if not self.bots[s].wants_second_charleston(self.distance(s)):
                stopper = s
                break
        if stop_anyway and stopper is None:
            stopper = self.order()[self.rng.randrange(N)]
        if stopper is not None:
            self.take(stopper, {"type": "charleston_stop"})
        if stopper is None or stop_anyway:
            for k in (4, 5, 6):
                self.do_pass(k, after_stop=stopper is not None)
            if p is not None and stop_anyway:
                p.done = True
        self.courtesy()

    def do_pass(self, k: int, *, after_stop: bool = False) -> None:
        p = self.plant
        off = PASS_OFFSET[k]
        take = p is not None and not p.done and p.at_pass == k
        blind = {s: 0 for s in range(N)}
        if k in self.opts.blind_pass_passes:
            for s in self.order():
                want = self.bots[s].blind_count()
                # blind tiles come from the giver's own part, so both can't pass blind in full
                blind[s] = min(want, 3 - blind[(s - off) % N], 3 - blind[(s + off) % N])
        wrong_blind = short = joker = None
        if take and p is not None:
            blind = {s: 0 for s in range(N)}  # the planted part is the only odd one
            seats = self.order()
            self.rng.shuffle(seats)
            if p.kind == BLIND_PASS_NOT_ALLOWED:
                wrong_blind = seats[0]
                blind[wrong_blind] = self.rng.choice((1, 2))
            elif p.kind == SHORT_PASS:
                short = seats[0]
                blind[short] = 0
            elif p.kind == JOKER_PASSED:
                joker = next((s for s in seats if self.holds(s, JOKER_KIND)), None)
                if joker is not None:
                    blind[joker] = 0
                elif k == 3:
                    p.done = True  # no joker dealt to pass: the fallback applies
        own: dict[int, list[str]] = {}
        for s in self.order():
            n_own = 3 - blind[s] - (1 if s == short else 0)
            if s == joker:
                own[s] = [JOKER, *self.give_away(s, n_own - 1)]
            else:
                own[s] = self.give_away(s, n_own)
        for s in self.order():
            parts: list[Any] = list(own[s])
            if blind[s]:
                giver = (s - off) % N
                parts += [{"tile": t, "blind": True} for t in self.rng.sample(own[giver], blind[s])]
            ev = {"type": "charleston_pass", "pass": k, "tiles": parts}
            i = self.act_as(s, ev, after_stop or s in (wrong_blind, short, joker))
            if p is None:
                continue
            if after_stop:
                p.label(i, "SECOND_CHARLESTON_AFTER_STOP", s)
            if s == wrong_blind:
                p.label(i, "CHARLESTON_BAD_PASS", s, note=f"blind tiles in pass {k}")
                p.done = True
            if s == joker:
                p.label(i, "JOKER_PASSED", s)
                p.done = True
            if s == short:
                p.label(i, "CHARLESTON_BAD_PASS", s, note=f"2 tiles in pass {k}")
                p.pending[s] = "WRONG_TILE_COUNT"
                p.pending[(s + off) % N] = "WRONG_TILE_COUNT"
                p.done = True

    def courtesy(self) -> None:
        p = self.plant
        if p is not None and not p.done and p.kind == COURTESY_WRONG_PARTNER:
            a = self.order()[self.rng.randrange(N)]
            b = (a + 1) % N
            n = self.rng.choice((1, 2, 3))
            tiles = {s: self.give_away(s, n) for s in (a, b)}
            for s, other in ((a, b), (b, a)):
                i = self.emit(
                    {"type": "courtesy_pass", "seat": s, "partner": other, "asked": n,
                     "tiles": tiles[s]}
                )  # fmt: skip
                p.label(i, "CHARLESTON_BAD_PASS", s, note="courtesy partner not across")
            p.done = True
            return
        if p is not None and not p.done and p.kind == JOKER_PASSED and p.at_pass == COURTESY:
            giver = next((s for s in self.order() if self.holds(s, JOKER_KIND)), None)
            if giver is not None:
                partner = (giver + 2) % N
                n = self.rng.choice((1, 2, 3))
                tiles = {giver: [JOKER, *self.give_away(giver, n - 1)]}
                tiles[partner] = self.give_away(partner, n)
                for s in sorted(tiles, key=lambda x: (x - self.dealer) % N):
                    i = self.emit(
                        {"type": "courtesy_pass", "seat": s, "partner": (s + 2) % N,
                         "asked": n, "tiles": tiles[s]}
                    )  # fmt: skip
                    if s == giver:
                        p.label(i, "JOKER_PASSED", s, note="a joker in the courtesy pass")
                return
            p.done = True  # no joker to pass: the fallback applies
        # Both across pairs pass at once: the parts are recorded in seat order from East.
        asked = {s: self.bots[s].courtesy_ask(self.distance(s)) for s in self.order()}
        parts = {}
        for s in self.order():
            b = (s + 2) % N
            if min(asked[s], asked[b]) > 0:  # a declined courtesy pass is not recorded
                parts[s] = self.give_away(s, min(asked[s], asked[b]))
        for s, tiles in parts.items():
            self.take(
                s, {"type": "courtesy_pass", "partner": (s + 2) % N, "asked": asked[s],
                    "tiles": tiles}
            )  # fmt: skip

    # -- play (§4) -----------------------------------------------------------------------

    def table_state(self) -> State:
        """The table state of play (§4): whose turn, and whether that seat holds 14
        (``act``) or draws; the table's end once three hands are dead (by option)."""
        h = self.hand
        if h.phase == "ended":
            return None
        if self.opts.end_when_three_dead and len(h.dead) >= 3:
            return ("end", h.turn)
        return ("act" if h.holding else "draw", h.turn)

    def do_end(self, seat: int) -> State:
        self.take(seat, END)
        return None

    def do_act(self, seat: int) -> State:
        return self.table_state() if self.act(seat) else None

    def do_draw(self, seat: int) -> State:
        """The seat's draw (a wall game when none is left), or the plant's instead."""
        h = self.hand
        p = self.plant
        if h.remaining <= 0:
            return self.do_end(seat)
        if p is not None and self.plant_before_draw(seat):
            return self.table_state()
        self.take(seat, {"type": "draw"}, tile=self.wall[h.head])
        if p is not None:
            self.plant_after_draw(seat)
        return self.table_state()

    def act(self, seat: int) -> bool:
        """The seat holds 14: joker exchanges, Mahjong, or a discard (and its call window).
        False when the hand has ended."""
        h = self.hand
        if self.plant is not None:
            taken = self.plant_act(seat)
            if taken is not None:
                return taken
        for _ in range(4):
            ex = self.exchange_option(seat)
            if ex is None:
                break
            self.take(seat, ex)
        if h.turn_by in ("draw", "call") and self.completes(seat):
            tile = h.drawn if h.turn_by == "draw" else h.call_tile
            m = h.winning_match(seat)
            assert m is not None and tile is not None
            self.take(seat, {"type": "win", "tile": tile}, claim={"hand": m.hand.id})
            return False
        (code,) = self.give_away(seat, 1)
        return self.discard(seat, code)

    def discard(self, seat: int, code: str, planted: bool = False) -> bool:
        """The seat's discard (``planted``: the plant's, as it makes it), then the calls."""
        self.act_as(seat, {"type": "discard", "tile": code}, planted)
        return self.claims(seat)

    def act_as(self, seat: int, want: dict[str, Any], planted: bool) -> int:
        """The seat's action: listed (:meth:`take`), or the plant's own (``planted``)."""
        return self.emit({"seat": seat, **want}) if planted else self.take(seat, want)

    def exchange_option(self, seat: int) -> dict[str, Any] | None:
        h = self.hand
        c = self.concealed(seat)
        a = self.assess(seat)
        if a is None:
            return None
        for target in range(N):
            for i, e in enumerate(h.exposures[target]):
                if (
                    JOKER in e.tiles
                    and c[e.kind] > 0
                    and e.kind != JOKER_KIND
                    and self.bots[seat].wants_exchange(self.model, a, e.kind)
                ):
                    (code,) = self.codes(seat, [e.kind])
                    return {
                        "type": "joker_exchange",
                        "seat": seat,
                        "tile": code,
                        "target": target,
                        "exposure": i,
                    }
        return None

    def claims(self, discarder: int) -> bool:
        """The call window (§4.2): Mahjong first, then an exposure, nearest seat first."""
        h = self.hand
        assert h.latest is not None
        t = h.latest.tile
        if self.plant is not None:
            taken = self.plant_claims(discarder, t)
            if taken is not None:
                return taken
        order = [(discarder + k) % N for k in range(1, N)]
        if t != JOKER:
            for s in order:
                if self.live(s) and self.completes(s, t):
                    m = h.winning_match(s, t)
                    assert m is not None
                    want = {"type": "win", "tile": t, "from": discarder}
                    self.take(s, want, claim={"hand": m.hand.id})
                    return False
            if h.remaining > 0:
                for s in order:
                    a = self.assess(s)
                    if not self.live(s) or a is None:
                        continue
                    size = self.bots[s].call_size(
                        self.model, a, self.concealed(s), self.shapes(s), kind(t)
                    )
                    if size is not None:
                        self.call(s, discarder, t, size)
                        return True
        if h.remaining <= 0:
            self.take(h.turn, END)
            return False
        return True

    def call_with(self, seat: int, t: str, size: int) -> list[str] | None:
        """Hand tiles for an exposure of ``size``: naturals first, then jokers."""
        k = kind(t)
        c = self.concealed(seat)
        nat = min(c[k], size - 1)
        if nat + c[JOKER_KIND] < size - 1:
            return None
        return self.codes(seat, [k] * nat) + [JOKER] * (size - 1 - nat)

    def call(self, seat: int, discarder: int, t: str, size: int, planted: bool = False) -> int:
        with_ = self.call_with(seat, t, size)
        assert with_ is not None
        want = {"type": SIZE_TYPE[size], "from": discarder, "tile": t, "with": with_}
        return self.act_as(seat, want, planted)

    # -- planting ------------------------------------------------------------------------

    def ready(self) -> bool:
        p = self.plant
        if p is None or p.done or p.kind in CHARLESTON_KINDS or p.play_start is None:
            return False
        if len(self.events) - p.play_start < p.delay:
            return False
        return p.chance >= 1 or self.rng.random() < p.chance

    def plant_before_draw(self, seat: int) -> bool:
        """Out-of-turn draws and discards, and a dead hand that plays on."""
        p = self.plant
        h = self.hand
        assert p is not None
        last = self.events[-1]
        o = p.oblivious
        if (
            o is not None
            and last["type"] == "discard"
            and last["seat"] == (o - 1) % N
            and h.remaining >= 2
        ):
            p.oblivious = None
            p.done = True
            i = self.emit({"type": "draw", "seat": o, "tile": self.wall[h.head]})
            p.label(i, "ACTION_BY_DEAD_HAND", o)
            (code,) = self.give_away(o, 1)
            i = self.emit({"type": "discard", "seat": o, "tile": code})
            p.label(i, "ACTION_BY_DEAD_HAND", o)
            return True
        if p.kind not in (DRAW_OUT_OF_TURN, DISCARD_OUT_OF_TURN) or h.remaining < 2:
            return False
        other = h.next_live(seat)
        if other == seat or not self.ready():
            return False
        p.done = True
        if p.kind == DRAW_OUT_OF_TURN:
            i = self.emit({"type": "draw", "seat": other, "tile": self.wall[h.head]})
            p.label(i, "OUT_OF_TURN", other)
        else:
            (code,) = self.give_away(other, 1)
            i = self.emit({"type": "discard", "seat": other, "tile": code})
            p.label(i, "OUT_OF_TURN", other)
            p.label(i, "WRONG_TILE_COUNT", other)
        # The entitled seat takes its turn: the table follows the log either way (§0), and
        # this is the order the simulator has always played.
        if not (self.opts.end_when_three_dead and len(h.dead) >= 3):
            self.emit({"type": "draw", "seat": seat, "tile": self.wall[h.head]})
            self.plant_after_draw(seat)
        return True

    def plant_after_draw(self, drawer: int) -> None:
        """A late call: a third player calls the discard the drawer has just passed by."""
        p = self.plant
        h = self.hand
        assert p is not None
        if p.kind != LATE_CALL or p.at_wall_end or h.latest is None or h.latest.tile == JOKER:
            return
        t = h.latest.tile
        d = h.latest.seat
        for s in range(N):
            if s in (d, drawer) or not self.live(s) or self.holds(s, kind(t)) < 2:
                continue
            if not self.ready():
                return
            self.planted_pung(s, d, t, [kind(t)] * 2, "LATE_CALL")
            return

    def plant_act(self, seat: int) -> bool | None:
        """Mahjong in error, a joker exchange with the wrong tile, a joker thrown to be
        called. None: the seat plays normally; a bool: the hand goes on (True) or ended."""
        p = self.plant
        h = self.hand
        assert p is not None
        kind_ = p.kind
        if kind_ in (MAHJONG_IN_ERROR, DEAD_HAND_PLAYS_ON) and h.turn_by == "draw":
            shapes = self.shapes(seat)
            c = self.concealed(seat)
            if (
                self.distance(seat) == 1
                and h.winning_match(seat) is None
                and not (shapes and self.concealed_only(c, shapes))
                and self.ready()
            ):
                i = self.emit({"type": "win", "seat": seat, "tile": h.drawn})
                p.label(i, "MAHJONG_IN_ERROR", seat)
                if kind_ == DEAD_HAND_PLAYS_ON:
                    p.oblivious = seat
                else:
                    p.done = True
                return True
        if kind_ == JOKER_EXCHANGE_WRONG_TILE:
            c = self.concealed(seat)
            for target in range(N):
                for idx, e in enumerate(h.exposures[target]):
                    if JOKER not in e.tiles:
                        continue
                    wrong = [k for k in range(FLOWER + 1) if c[k] and k != e.kind]
                    if not wrong or not self.ready():
                        continue
                    near = [k for k in wrong if k < 27 and e.kind < 27 and k % 9 == e.kind % 9]
                    k = (near or wrong)[self.rng.randrange(len(near or wrong))]
                    (code,) = self.codes(seat, [k])
                    self.bad_exchange(seat, code, target, idx)
                    return True
        if kind_ == CALL_DISCARDED_JOKER and self.holds(seat, JOKER_KIND) and h.remaining > 0:
            for k in range(1, N):
                s = (seat + k) % N
                if not self.live(s):
                    continue
                c = self.concealed(s)
                pairs = [x for x in range(FLOWER + 1) if c[x] >= 2]
                if pairs and self.ready():
                    p.forced_joker_call = (s, pairs[self.rng.randrange(len(pairs))])
                    return self.discard(seat, JOKER, planted=True)
        return None

    def planted_pung(self, seat: int, frm: int, t: str, kinds: list[int], code: str) -> None:
        """A planted pung call of ``t`` with the seat's tiles of ``kinds``, labelled
        ``code``; the plant is then done."""
        p = self.plant
        assert p is not None
        ev = {"type": "pung", "seat": seat, "from": frm, "tile": t}
        i = self.emit({**ev, "with": self.codes(seat, kinds)})
        p.label(i, code, seat)
        p.done = True

    def bad_exchange(self, seat: int, code: str, target: int, exposure: int) -> None:
        """A planted joker exchange (BAD_JOKER_EXCHANGE); the plant is then done."""
        p = self.plant
        assert p is not None
        ev = {"type": "joker_exchange", "seat": seat, "tile": code, "target": target}
        i = self.emit({**ev, "exposure": exposure})
        p.label(i, "BAD_JOKER_EXCHANGE", seat)
        p.done = True

    def last_discard_exposure(self, discarder: int, t: str) -> bool | None:
        """§4.2: the last discard may be called only for Mahjong; a pung of it is late."""
        p = self.plant
        assert p is not None
        for j in range(1, N):
            s = (discarder + j) % N
            k = kind(t)
            able = self.holds(s, k) >= 1 and self.holds(s, k) + self.holds(s, JOKER_KIND) >= 2
            if self.live(s) and able and self.ready():
                i = self.call(s, discarder, t, 3, planted=True)
                p.label(i, "LATE_CALL", s, note="the last discard called for an exposure")
                p.done = True
                return True
        return None

    def plant_claims(self, discarder: int, t: str) -> bool | None:
        p = self.plant
        h = self.hand
        assert p is not None
        if p.forced_joker_call is not None:
            s, x = p.forced_joker_call
            p.forced_joker_call = None
            if t == JOKER and self.live(s) and self.holds(s, x) >= 2:
                self.planted_pung(s, discarder, JOKER, [x, x], "CALL_DISCARDED_JOKER")
                return True
        if p.done or t == JOKER:
            return None
        if h.remaining <= 0:
            last = p.kind == LATE_CALL and p.at_wall_end
            return self.last_discard_exposure(discarder, t) if last else None
        k = kind(t)
        order = [(discarder + j) % N for j in range(1, N)]
        live = [s for s in order if self.live(s)]
        kind_ = p.kind
        if kind_ == CALL_FOR_PAIR:
            for s in live:
                if self.holds(s, k) >= 1 and self.ready():
                    self.planted_pung(s, discarder, t, [k], "CALL_FOR_SINGLE_OR_PAIR")
                    return True
        elif kind_ == CALL_FOR_RUN and k < 27:
            for s in live:
                c = self.concealed(s)
                r = k % 9
                runs = [
                    (k + a - r, k + b - r)
                    for a, b in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2))
                    if a >= 0 and b <= 8 and c[k + a - r] and c[k + b - r]
                ]
                if runs and self.ready():
                    a, b = runs[self.rng.randrange(len(runs))]
                    self.planted_pung(s, discarder, t, [a, b], "ILLEGAL_EXPOSURE")
                    return True
        elif kind_ == EXPOSURE_FITS_NO_HAND:
            for s in live:
                shapes = self.shapes(s)
                c = self.concealed(s)
                for size in (3, 4, 5, 6):
                    if c[k] + c[JOKER_KIND] < size - 1:
                        break
                    jokers = max(0, size - 1 - c[k])
                    new = [*shapes, ExposureShape(k, size, jokers)]
                    if not exposures_fit(self.card, new) and self.ready():
                        i = self.call(s, discarder, t, size, planted=True)
                        p.label(i, "DEAD_BY_EXPOSURE", s)
                        p.done = True
                        return True
        elif kind_ == CALL_PRIORITY_IGNORED:
            # Only four of a tile exist, so the two claims usually lean on jokers.
            def able(s: int) -> bool:
                return self.holds(s, k) >= 1 and self.holds(s, k) + self.holds(s, JOKER_KIND) >= 2

            for ai, a in enumerate(live):
                if not able(a):
                    continue
                for c_seat in live[ai + 1 :]:
                    with_ = self.call_with(c_seat, t, 3)
                    jokers = 0 if with_ is None else with_.count(JOKER)
                    new = [*self.shapes(c_seat), ExposureShape(k, 3, jokers)]
                    if able(c_seat) and exposures_fit(self.card, new):
                        if not self.ready():
                            return None
                        self.emit(
                            {"type": "announce", "seat": a, "what": "claim", "claim": "pung",
                             "tile": t}
                        )  # fmt: skip
                        i = self.call(c_seat, discarder, t, 3, planted=True)
                        p.label(i, "CALL_PRIORITY", c_seat)
                        p.done = True
                        return True
        elif kind_ == DEAD_CALL_INCORRECT:
            exposed = [s for s in range(N) if self.live(s) and h.exposures[s]]
            if exposed and self.ready():
                target = exposed[self.rng.randrange(len(exposed))]
                callers = [s for s in range(N) if s != target and self.live(s)]
                a = callers[self.rng.randrange(len(callers))]
                i = self.emit(
                    {"type": "announce", "seat": a, "what": "dead_hand", "target": target}
                )
                p.label(i, "CALL_DEAD_INCORRECT", a)
                p.done = True
                return None  # the call window goes on
        elif kind_ == JOKER_EXCHANGE_OUT_OF_TURN:
            for s in live:
                c = self.concealed(s)
                for target in range(N):
                    for idx, e in enumerate(h.exposures[target]):
                        if JOKER in e.tiles and c[e.kind] and self.ready():
                            (code,) = self.codes(s, [e.kind])
                            self.bad_exchange(s, code, target, idx)
                            return None
        elif kind_ == MAHJONG_IN_ERROR:
            for s in live:
                c = self.concealed(s)
                c[k] += 1
                shapes = self.shapes(s)
                if (
                    self.distance(s) == 1
                    and h.winning_match(s, t) is None
                    and not (shapes and self.concealed_only(c, shapes))
                    and self.ready()
                ):
                    i = self.emit({"type": "win", "seat": s, "tile": t, "from": discarder})
                    p.label(i, "MAHJONG_IN_ERROR", s)
                    p.done = True
                    return None
        return None


# -- the record's result -------------------------------------------------------------------


def result_of(hs: AmericanHandSim) -> dict[str, Any]:
    h = hs.hand
    deltas = h.settlement()
    if deltas is None:
        raise SimulationError(f"{hs.record['game_id']}: the hand cannot be settled ({h.ended_by})")
    out: dict[str, Any] = {"winners": [], "deltas": [points(d) for d in deltas]}
    if h.win is not None and h.win.match is not None:
        out["winners"] = [h.win.seat]
        out["fan"] = h.win.match.final
        out["patterns"] = [h.win.match.hand.id]
    if h.penalties:
        out["penalties"] = [
            {"seat": s, "code": c, "deltas": [points(x) for x in d]} for s, c, d in h.penalties
        ]
    return out


def value_slip(d: list[Any], result: dict[str, Any], rng: random.Random, slips: core.Slips) -> str:
    """An American scorer's slips (:func:`replay.sim.core.wrong_payment`): self-drawn rates
    for a discard win, the jokerless double forgotten or wrongly given, the wrong payer."""
    w = result["winners"][0]
    v = result["fan"]
    payers = [s for s in range(N) if s != w]
    discarder = next(
        (s for s in payers if d[s] == -2 * v and any(d[o] == -v for o in payers)), None
    )
    mode = rng.choice(("value", "wrong_payer" if discarder is not None else "value", "all_double"))
    if mode == "wrong_payer" and discarder is not None:
        q = rng.choice([s for s in payers if s != discarder])
        d[discarder], d[q] = d[q], d[discarder]
        return "the discarder's double payment charged to another player"
    if mode == "all_double" and discarder is not None:
        for s in payers:
            d[s] = -2 * v
        d[w] = 6 * v
        return "a discard win paid at self-drawn rates"
    factor = 0.5 if v % 2 == 0 and rng.random() < 0.5 else 2
    d[:] = [x * factor for x in d]
    result["fan"] = points(v * factor)
    return "the jokerless double " + ("forgotten" if factor == 0.5 else "wrongly given")


def wall_game(result: dict[str, Any], d: list[Any]) -> bool:
    """A hand nobody won: any payment recorded on it is wrong."""
    return not result["winners"]


# A wrong recorded result (#36): a paid wall game, or one of the value's slips.
SLIPS = core.Slips(
    "RESULT_MISMATCH", RECORDED_RESULT_MISMATCH, 25, "a wall game", idle=wall_game, slip=value_slip
)


# -- sittings ------------------------------------------------------------------------------


def deal(wall: list[str], dealer: int) -> list[list[str]]:
    """§2.4: 4 tiles each three rounds (E S W N), then East 2 and S W N one each."""
    order = [(dealer + k) % N for k in range(N)]
    hands: list[list[str]] = [[] for _ in range(N)]
    pos = 0
    for _ in range(3):
        for seat in order:
            hands[seat].extend(wall[pos : pos + 4])
            pos += 4
    for k, seat in enumerate(order):
        take = 2 if k == 0 else 1
        hands[seat].extend(wall[pos : pos + take])
        pos += take
    return hands


TILES: tuple[str, ...] = tuple(sorted(FULL_SET.elements()))


class AmericanTable(core.Table):
    """Sixteen hands; East passes to the right after every hand, whatever the result (§2.5)."""

    hands = HANDS_PER_SITTING
    minutes, per_event = 3, 0.05
    slips = SLIPS
    check_clean = True

    def setup(self) -> None:
        self.card = sample_card()
        self.options = {"card": self.card.card_id}
        self.opts = options_for(self.options)
        self.dealer = self.sitting.first_dealer

    def deal(self, hand_no: int, at: datetime) -> AmericanHandSim:
        rng = self.rng
        wall = list(TILES)
        rng.shuffle(wall)
        record: Record = {
            **core.record_head(self.sitting, hand_no, at, self.dealer),
            "options": dict(self.options),
            "wall": wall,
            "start_hands": deal(wall, self.dealer),
            "events": [],
        }
        plant = make_plant(rng, self.rate)
        bots = [cast(AmericanBot, self.sim.make_bot(m.style, rng)) for m in self.sitting.members]
        return AmericanHandSim(record, self.opts, self.card, bots, rng, plant)

    def result(self, hs: AmericanHandSim) -> tuple[Record, bool]:
        plant = hs.plant
        return result_of(hs), plant is not None and plant.kind == RECORDED_RESULT_MISMATCH

    def next_hand(self, hs: AmericanHandSim, result: Record) -> bool:
        self.dealer = (self.dealer + 1) % N
        return True


_VENUES = (
    core.Venue("Maple Street Mah Jongg Club", -5, ("Table 1", "Table 2", "Table 3", "Table 4")),
    core.Venue("Desert Palms Mah Jongg League", -7, tuple(f"Table {i}" for i in range(1, 9))),
    core.Venue("Harbor Senior Center", -8, ("Card Room A", "Card Room B", "Card Room C")),
)

core.register(
    core.RulesetSimulator("american", 4, _VENUES, Style.random, AmericanBot, AmericanTable, MENU)
)
