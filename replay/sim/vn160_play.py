"""Simulated ``vn-160`` sittings (Vietnamese mahjong, 160 tiles, flowers and khung jokers).

As in :mod:`replay.sim.hk_play`, every event is appended to the record and at once stepped
through the engine's own table (:class:`replay.vn160.hand.VNHand`), so there is one
definition of legal: claims come from :meth:`VNHand.legal_claims`, a win is declared only
when :meth:`VNHand.win_candidate` scores it valid (minimum included), and the recorded
``result`` is the engine's :meth:`VNHand.settlement` and :meth:`VNHand.penalties`. A clean
hand must replay with no serious finding; :func:`check_clean` raises
:class:`~replay.sim.core.SimulationError` otherwise.

A hand follows rules §2-§3: the §2.2 deal from a shuffled 160-tile wall (dealer 14), the
§2.3 initial declaration phase (flowers always, ``RH`` always, ``BT``/``RU`` by taste),
then turns with draws from the live end and replacements from the back. Sittings follow
§2.1: the dealer deals again after winning; a draw or false win passes the deal; a round
ends when the deal has gone round; four rounds E S W N. A quarter of the sittings play
with the house minimum ``min_phan = 1`` (an option of §10), which makes a win below the
minimum plantable.

A planted violation (:class:`~replay.sim.hk_play.Plant`) takes over one decision of one
hand, waits for a natural moment, and labels exactly what the engine reports (§7, §8.2):
see :data:`MENU`. If no moment comes, the recorded payment is falsified instead.
"""

from __future__ import annotations

import dataclasses
import random
from datetime import datetime
from typing import Any

from mjaudit.parts.replay.engine.findings import FindingClass, points
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.vn160.hand import ACT, VNHand
from mjaudit.parts.replay.rulesets.vn160.khung import is_winning, khung_domain
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions, options_for
from mjaudit.parts.replay.rulesets.vn160.scoring import VNScore
from mjaudit.parts.replay.rulesets.vn160.tiles import (
    CODES,
    INDEX,
    N_KINDS,
    full_set,
    is_flower,
    is_khung,
    is_rh,
)
from mjaudit.parts.replay.sim import core, mahjong_play
from mjaudit.parts.replay.sim.core import AUDIT, Record, SimulationError
from mjaudit.parts.replay.sim.core import check_clean as check_clean  # the tests import it here
from mjaudit.parts.replay.sim.hk_bot import SeatView
from mjaudit.parts.replay.sim.hk_play import Plant
from mjaudit.parts.replay.sim.mahjong_play import (
    EXHAUSTIVE_DRAW,
    KONGS,
    MahjongHandSim,
    State,
)
from mjaudit.parts.replay.sim.shanten import orphans_shanten, shanten
from mjaudit.parts.replay.sim.vn160_bot import VNBot, VNStyle

DEALT = 53  # 13 × 4 + 1: the deal of §2.2 (dealer 14)
RH = INDEX["RH"]


# Planted scenarios (the ``violation`` field of a label) and the codes they produce.
FALSE_WIN_INCOMPLETE = "false_win_incomplete"  # FALSE_WIN / WIN_HAND_INCOMPLETE
FALSE_WIN_WITH_FLOWER = "false_win_with_flower"  # FALSE_WIN / WIN_WITH_FLOWER (RH kept)
FALSE_WIN_AFTER_MAT_U = "false_win_after_mat_u"  # DRAW_WRONG_PLACE, FALSE_WIN / WIN_AFTER_MAT_U
FALSE_WIN_BELOW_MIN = "false_win_below_min"  # FALSE_WIN / WIN_BELOW_MIN (min_phan tables)
WIN_ON_BONUS_DISCARD = "win_on_bonus_discard"  # BONUS_DISCARDED, FALSE_WIN / WIN_ON_BONUS_…
DRAW_FROM_REPLACEMENT_END = "draw_from_replacement_end"  # DRAW_WRONG_PLACE
DRAW_INSTEAD_OF_REPLACEMENT = "draw_instead_of_replacement"  # DRAW_WRONG_PLACE
DISCARD_OUT_OF_TURN = "discard_out_of_turn"  # OUT_OF_TURN + SHORT_HAND
DISCARD_WITHOUT_DRAW = "discard_without_draw"  # SHORT_HAND
# planted by the shared driver (mahjong_play.plant_turn_end):
DOUBLE_DRAW = mahjong_play.DOUBLE_DRAW  # OUT_OF_TURN, then LONG_HAND at the discard
KONG_WITHOUT_REPLACEMENT = mahjong_play.KONG_WITHOUT_REPLACEMENT  # SHORT_HAND
FLOWER_WITHOUT_REPLACEMENT = "flower_without_replacement"  # SHORT_HAND
KHUNG_OUTSIDE_DOMAIN = "khung_outside_domain"  # INVALID_MELD
CHOW_NOT_FROM_LEFT = "chow_not_from_left"  # CHOW_NOT_FROM_LEFT
LATE_CLAIM = "late_claim"  # LATE_CLAIM
BONUS_DISCARDED = "bonus_discarded"  # BONUS_DISCARDED
FLOWER_NOT_DECLARED = "flower_not_declared"  # FLOWER_NOT_DECLARED at the holder's discard
FLOWER_NOT_DECLARED_AT_START = "flower_not_declared_at_start"  # … at the dealer's 1st discard
KHUNG_DECLARED_OFF_TURN = "khung_declared_off_turn"  # KHUNG_DECLARED_OFF_TURN
CLAIM_PRIORITY = "claim_priority"  # CLAIM_PRIORITY_VIOLATION (an announced pung passed over)
RECORDED_RESULT_MISMATCH = "recorded_result_mismatch"  # RESULT_MISMATCH (payments)
RECORDED_PHAN_MISMATCH = "recorded_phan_mismatch"  # RESULT_MISMATCH (phán)

MENU: tuple[str, ...] = (
    FALSE_WIN_INCOMPLETE, FALSE_WIN_WITH_FLOWER, FALSE_WIN_AFTER_MAT_U, FALSE_WIN_BELOW_MIN,
    WIN_ON_BONUS_DISCARD, DRAW_FROM_REPLACEMENT_END, DRAW_INSTEAD_OF_REPLACEMENT,
    DISCARD_OUT_OF_TURN, DISCARD_WITHOUT_DRAW, DOUBLE_DRAW, KONG_WITHOUT_REPLACEMENT,
    FLOWER_WITHOUT_REPLACEMENT, KHUNG_OUTSIDE_DOMAIN, CHOW_NOT_FROM_LEFT, LATE_CLAIM,
    BONUS_DISCARDED, FLOWER_NOT_DECLARED, FLOWER_NOT_DECLARED_AT_START,
    KHUNG_DECLARED_OFF_TURN, CLAIM_PRIORITY, RECORDED_RESULT_MISMATCH, RECORDED_PHAN_MISMATCH,
)  # fmt: skip
#: A wrong recorded payment (#30), as the Hong Kong scorer gets one wrong, in units.
SLIPS = core.Slips(
    "RESULT_MISMATCH", RECORDED_RESULT_MISMATCH, 4, "a drawn hand", penalties_follow=True
)
#: Scenarios that need a house minimum (``min_phan`` > 0).
NEEDS_MIN = (FALSE_WIN_BELOW_MIN,)
#: Scenarios that wait for a rare moment: tried at every chance, not 30% of them.
_PATIENT = (
    FALSE_WIN_WITH_FLOWER, FALSE_WIN_BELOW_MIN, WIN_ON_BONUS_DISCARD, KONG_WITHOUT_REPLACEMENT,
    FLOWER_WITHOUT_REPLACEMENT, FLOWER_NOT_DECLARED, KHUNG_OUTSIDE_DOMAIN, LATE_CLAIM,
    CLAIM_PRIORITY, FLOWER_NOT_DECLARED_AT_START, DRAW_INSTEAD_OF_REPLACEMENT,
)  # fmt: skip

VIOL = FindingClass.PLAYER_VIOLATION.value
MIN_PHAN_SHARE = 0.25  # share of sittings played with the house minimum min_phan = 1


def make_plant(rng: random.Random, rate: float, opts: VNOptions) -> Plant | None:
    if rate <= 0 or rng.random() >= rate:
        return None
    menu = [k for k in MENU if k not in NEEDS_MIN]
    if opts.min_phan > 0:  # only a quarter of the tables play with a minimum: weigh it up
        menu += [k for k in NEEDS_MIN for _ in range(4)]
    kind = rng.choice(menu)
    patient = kind in _PATIENT
    earliest = rng.randint(0, 12) if patient else rng.randint(4, 50)
    return Plant(kind, earliest, 1.0 if patient else 0.3)


class VNHandSim(MahjongHandSim):
    """Plays one hand: the engine's state is the table, the bots choose, the plant meddles."""

    VALUE = "phan"  # the winner's phán is recorded as the result's "fan"

    HAND = VNHand
    hand: VNHand

    def setup(self) -> None:
        self.visible = [0] * N_KINDS
        self.keep: set[tuple[int, int]] = set()  # (seat, tile): a flower left undeclared
        self.forgot_at_start: int | None = None  # seat that kept a flower past §2.3
        self.unclaimed: tuple[int, int] | None = None  # last discard whose window closed
        self.bonus_win = False  # WIN_ON_BONUS_DISCARD: a khung was just thrown for it
        self._near: dict[tuple[tuple[int, ...], int], int] = {}

    # -- plumbing ----------------------------------------------------------------------

    def label(self, index: int, code: str, seat: int | None, reason: str | None = None) -> None:
        p = self.plant
        assert p is not None
        p.label(index, code, VIOL, seat, reason)

    def view(self, seat: int) -> SeatView:
        h = self.hand
        wind = (seat - self.dealer) % 4
        return SeatView(
            counts=h.concealed[seat][:N_KINDS],
            melds=tuple(m.meld for m in h.melds[seat]),
            seat_wind=wind,
            prevailing=wind,  # no vn-160 pattern uses the prevailing wind (§2.1)
            visible=self.visible,
            min_fan=self.opts.min_phan,
            live_count=h.live_count,
            threat=any(len(h.melds[s]) >= 3 for s in range(4) if s != seat),
        )

    def khung(self, seat: int, rh_as_bt: bool = False) -> list[str]:
        c = self.hand.concealed[seat]
        out: list[str] = []
        for t in range(N_KINDS, len(c)):
            if c[t] and is_khung(t):
                code = "BT" if rh_as_bt and is_rh(t) else CODES[t]
                out.extend([code] * c[t])
        return out

    def complete(self, seat: int, extra: int | None = None, rh_as_bt: bool = False) -> bool:
        """Would the hand (plus ``extra``) be a §4 structure? (the engine's own test)."""
        h = self.hand
        if h.n_sets[seat] != len(h.melds[seat]):
            return False
        nat = h.concealed[seat][:N_KINDS]
        if extra is not None:
            if extra >= N_KINDS:
                return False
            nat[extra] += 1
        return is_winning(
            nat,
            self.khung(seat, rh_as_bt),
            len(h.melds[seat]),
            self.opts.ru_domain,
            allow_pe_pe=self.opts.allow_pe_pe,
        )

    def near(self, seat: int) -> int:
        """Shanten estimate with khung: each joker is worth one step (a bot's heuristic).

        -1 means the hand may be complete, 0 one tile away; it only gates the engine's
        exact test (:meth:`complete`), so it is cached per hand state.
        """
        h = self.hand
        key = (tuple(h.concealed[seat]), len(h.melds[seat]))
        hit = self._near.get(key)
        if hit is not None:
            return hit
        nat = h.concealed[seat][:N_KINDS]
        jokers = sum(1 for k in self.khung(seat) if k != "RH")
        est = shanten(nat, len(h.melds[seat]))
        if not h.melds[seat]:
            est = min(est, orphans_shanten(nat))
        val = max(-1, est - jokers)
        if len(self._near) > 4096:
            self._near.clear()
        self._near[key] = val
        return val

    def candidate(self, seat: int, t: int, source: WinSource) -> tuple[VNScore | None, str | None]:
        return self.hand.win_candidate(seat, t, source)

    def win_score(self, seat: int, t: int, source: WinSource) -> VNScore | None:
        return self.candidate(seat, t, source)[0]

    # -- drawing and declaring ---------------------------------------------------------

    def live_tile(self) -> int:
        return self.wall[self.hand.head]

    def back_tile(self) -> int:
        return self.wall[len(self.wall) - 1 - self.hand.tail]

    def replacement(self, seat: int) -> bool:
        """The replacement owed after a declaration or kong; False if the hand ended."""
        h = self.hand
        if h.live_count < 1:
            self.take(seat, EXHAUSTIVE_DRAW)
            return False
        p = self.plant
        if (
            p is not None
            and p.kind == DRAW_INSTEAD_OF_REPLACEMENT
            and not h.initial
            and seat == h.turn
            and self.ready(p)
        ):
            i = self.emit({"type": "draw", "seat": seat, "tile": CODES[self.live_tile()]})
            self.label(i, "DRAW_WRONG_PLACE", seat)
            p.done = True
            return True
        self.take(seat, {"type": "replacement"}, tile=CODES[self.back_tile()])
        return True

    def declare(self, seat: int, t: int) -> bool:
        """The seat declares the bonus tile ``t`` (as its legal actions list it), then
        draws the replacement."""
        self.take(seat, {"type": "flower", "tile": CODES[t]})
        return self.replacement(seat)

    def to_declare(self, seat: int, off_turn: bool = False) -> int | None:
        """The next bonus tile the seat declares now: a flower, or RH (kept only by a plant;
        off turn RH waits for the seat's own turn, as every khung must, §8.2 #7)."""
        c = self.hand.concealed[seat]
        for t in range(N_KINDS, len(c)):
            if not c[t] or (seat, t) in self.keep:
                continue
            if is_flower(t):
                return t
            if is_rh(t) and not off_turn and not self.keeps_rh(seat):
                return t
        return None

    def keeps_rh(self, seat: int) -> bool:
        p = self.plant
        return p is not None and p.kind == FALSE_WIN_WITH_FLOWER and p.favoured == seat

    def declare_all(self, seat: int, off_turn: bool = False) -> bool:
        while True:
            t = self.to_declare(seat, off_turn)
            if t is None:
                return True
            if not self.declare(seat, t):
                return False

    def initial_phase(self) -> bool:
        """§2.3: from the dealer, each player declares flowers (and chosen khung)."""
        h = self.hand
        p = self.plant
        for k in range(4):
            seat = (self.dealer + k) % 4
            bot = self.bots[seat]
            chosen = [
                t
                for t in range(N_KINDS, len(h.concealed[seat]))
                if h.concealed[seat][t]
                and is_khung(t)
                and not is_rh(t)
                and bot.declares_at_start(CODES[t])
            ]
            if (
                p is not None
                and p.kind == FLOWER_NOT_DECLARED_AT_START
                and p.favoured == seat
                and seat != self.dealer
            ):
                held = [t for t in range(N_KINDS, len(h.concealed[seat])) if h.concealed[seat][t]]
                flowers = [t for t in held if is_flower(t)]
                if flowers:
                    self.keep.add((seat, flowers[0]))
                    self.forgot_at_start = seat
            for t in chosen:
                if not self.declare(seat, t):
                    return False
            if not self.declare_all(seat):
                return False
        return True

    # -- the hand ------------------------------------------------------------------------

    def begin(self) -> State:
        self.hand.start()
        return ("act", self.dealer) if self.initial_phase() else None

    def do_draw(self, seat: int) -> State:
        if self.wall_empty(seat):
            return None
        if self.plant is not None and not self.plant.done:
            taken, state = self.plant_draw(seat)
            if taken:
                return state
        self.take(seat, {"type": "draw"}, tile=CODES[self.live_tile()])
        return ("act", seat)

    def do_act(self, seat: int) -> State:
        """The seat holds 14 (after a draw or replacement): declare, win, kong, or discard."""
        h = self.hand
        taken, state = self.takeover(self.plant_before_declare, seat)
        if taken:
            return state
        if not self.declare_all(seat):
            return None
        taken, state = self.takeover(self.plant_act, seat)
        if taken:
            return state
        if self.active(seat):
            t = self.self_draw_tile(seat)
            if t is not None and self.near(seat) < 0 and self.complete(seat):
                score = self.listed_win(seat, t, WinSource.SELF_DRAW)
                if score is not None and self.bots[seat].accepts_win(score.phan, h.live_count):
                    self.take_win(seat, t, None, score)
                    return None
        if self.chosen_kong(seat, self.legal(seat, KONGS)) is not None:
            return ("act", seat) if self.replacement(seat) else None
        return self.do_discard(seat)

    def self_draw_tile(self, seat: int) -> int | None:
        """The tile a self-drawn win names: the latest draw, or for thiên ù the last dealt."""
        h = self.hand
        if h.drawn is not None and h.concealed[seat][h.drawn]:
            return h.drawn
        if seat == self.dealer and h.initial and h.n_discards == 0 and not h.interrupted:
            last = self.wall[49]
            if h.concealed[seat][last]:
                return last
            return next((t for t in range(N_KINDS) if h.concealed[seat][t]), None)
        return None

    def discard_choice(self, seat: int) -> int | None:
        """The bot's discard among the natural tiles; None if the seat holds only khung."""
        h = self.hand
        if not any(h.concealed[seat][:N_KINDS]):
            return None
        return self.bots[seat].choose_discard(self.view(seat))

    def do_discard(self, seat: int) -> State:
        h = self.hand
        t = self.discard_choice(seat)
        while t is None:  # only khung left: declaring one is legal on one's own turn (§3.1)
            k = next(x for x in range(N_KINDS, len(h.concealed[seat])) if h.concealed[seat][x])
            if not self.declare(seat, k) or not self.declare_all(seat):
                return None
            if h.phase == ACT and not self.inactive(seat) and self.complete(seat):
                return ("act", seat)
            t = self.discard_choice(seat)
        self.discard(seat, t)
        return ("claims", seat)

    def discard(self, seat: int, t: int, planted: bool = False) -> int:
        """The seat's discard of ``t``: a listed one, or (``planted``) the plant's."""
        h = self.hand
        first = h.initial and seat == self.dealer
        ev = {"type": "discard", "tile": CODES[t]}
        i = self.emit({**ev, "seat": seat}) if planted else self.take(seat, ev)
        if t < N_KINDS:
            self.visible[t] += 1
        p = self.plant
        if p is not None:
            if seat in p.pending:
                self.label(i, p.pending.pop(seat), seat)
            if first and self.forgot_at_start is not None:
                self.label(i, "FLOWER_NOT_DECLARED", self.forgot_at_start)
                seat = self.forgot_at_start  # remembers the flower at their own turn
                self.forgot_at_start = None
                p.done = True
        self.keep = {(s, x) for s, x in self.keep if s != seat}
        return i

    def claims(self, discarder: int, t: int) -> State:
        """The claim window (§3.2): wins (head-bump), else a pung or kong, else a chow."""
        h = self.hand
        order = [(discarder + k) % 4 for k in range(1, 4)]
        nxt = order[0]
        if t >= N_KINDS:  # a bonus discard can only be won on, and only by option (§3.6)
            self.unclaimed = None
            return ("draw", nxt)
        won = False
        for s in order:
            if not self.active(s) or self.near(s) > 0 or not self.complete(s, t):
                continue
            score = self.listed_win(s, t, WinSource.DISCARD)
            if score is None or not self.bots[s].accepts_win(score.phan, h.live_count):
                continue
            if won and self.rng.random() >= self.bots[s].vn.double_call:
                continue
            self.take_win(s, t, discarder, score)  # a second caller is overridden (#27, INFO)
            won = True
        if won:
            return None
        if h.live_count < 1:
            return ("draw", nxt)  # with no tile left the last discard may only be won
        claim = self.choose_claim(order, t)
        if claim is not None:
            self.unclaimed = None
            return self.execute(claim)
        self.unclaimed = (discarder, t)
        return ("draw", nxt)

    def choose_claim(self, order: list[int], t: int) -> dict[str, Any] | None:
        """Pung/kong before chow; a natural pair before one using khung (§3.2, item 9).

        The bot is asked first with its natural tiles (cheap); the claim it wants is then
        taken from the engine's :meth:`VNHand.legal_claims`, the one definition of legal.
        """
        h = self.hand
        wanted: list[tuple[int, int, int, str]] = []  # (uses khung, distance, seat, kind)
        for dist, s in enumerate(order):
            if not self.active(s):
                continue
            c = h.concealed[s]
            bot = self.bots[s]
            if sum(c[:N_KINDS]) <= 3:  # a claim must leave a natural tile to discard
                continue
            if c[t] >= 3 and bot.wants_exposed_kong(self.view(s), t):
                wanted.append((0, dist, s, "kong"))
            elif c[t] >= 2:
                if bot.wants_meld(self.view(s), t, "pung", (t, t)):
                    wanted.append((0, dist, s, "pung"))
            elif c[t] + len(self.wild(s, t)) >= 2:
                nats = [t] * c[t]
                if bot.wants_khung_meld(self.view(s), t, "pung", nats, 2 - len(nats)):
                    wanted.append((1, dist, s, "pung"))
        for khung, _, s, kind in sorted(wanted):
            claims = [e for e in h.legal_claims(s) if e["type"] == kind]
            if not khung:
                pick = next((e for e in claims if "with" not in e), None)
            else:  # the fewest khung, the narrowest first (a Tổng is kept for later)
                pick = min(claims, key=lambda e: self.khung_cost(e["with"]), default=None)
            if pick is None:
                raise SimulationError(f"the engine refuses a {kind} of {CODES[t]} by seat {s}")
            return pick
        s = order[0]
        if t >= 27 or not self.active(s) or sum(h.concealed[s][:N_KINDS]) <= 3:
            return None
        bot = self.bots[s]
        v = self.view(s)
        for e in self.natural_chows(s, t):
            used = [INDEX[x] for x in e["tiles"]]
            used.remove(t)
            if bot.wants_meld(v, t, "chow", used):
                return self.listed_claim(s, dict(e, seat=s, **{"from": (s - 1) % 4}))
        if not self.wild(s, t):
            return None
        c = h.concealed[s]
        r = t % 9
        near = [t + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 8 and c[t + d]]
        for x in near:
            if bot.wants_khung_meld(v, t, "chow", [x], 1):
                chows = [
                    e
                    for e in h.legal_claims(s)
                    if e["type"] == "chow"
                    and sorted(INDEX[y] for y in e["tiles"] if INDEX[y] < N_KINDS) == sorted((t, x))
                ]
                if chows:
                    return min(chows, key=lambda e: self.khung_cost(e["tiles"]))
                return None
        return None

    def khung_cost(self, codes: list[str]) -> tuple[int, int]:
        """How much a player gives up by showing these tiles: khung, then their reach."""
        khung = [INDEX[x] for x in codes if is_khung(INDEX[x])]
        return len(khung), sum(len(self._domain(k)) for k in khung)

    def wild(self, seat: int, t: int) -> list[int]:
        """The khung the seat holds that can stand for ``t``."""
        c = self.hand.concealed[seat]
        return [x for x in range(N_KINDS, len(c)) if c[x] and t in self._domain(x)]

    def listed_claim(self, seat: int, ev: dict[str, Any]) -> dict[str, Any]:
        """The engine's own event for a claim the bot chose (raises if it is not legal)."""
        for e in self.hand.legal_claims(seat):
            if e["type"] == ev["type"] and sorted(e.get("tiles", ())) == sorted(
                ev.get("tiles", ())
            ):
                return e
        raise SimulationError(f"the engine refuses the claim {ev}")

    def _domain(self, x: int) -> frozenset[int]:
        return khung_domain(CODES[x], self.opts.ru_domain) if is_khung(x) else frozenset()

    def execute(self, ev: dict[str, Any]) -> State:
        """Emit a claim and show its natural tiles to the table."""
        self.emit(ev)
        t = INDEX[ev["tile"]]
        shown = [INDEX[x] for x in ev.get("with") or ev.get("tiles") or [ev["tile"]] * 3]
        if "tiles" in ev:
            shown.remove(t)
        elif "with" not in ev:
            shown = [t] * (3 if ev["type"] == "kong" else 2)
        for x in shown:
            if x < N_KINDS:
                self.visible[x] += 1
        seat = ev["seat"]
        if ev["type"] == "kong":
            return ("act", seat) if self.replacement(seat) else None
        return ("discard", seat)

    # -- planting ------------------------------------------------------------------------

    def active(self, seat: int) -> bool:
        return seat not in self.hand.mat_u

    def plant_draw(self, seat: int) -> tuple[bool, State]:
        """Before a normal draw: the wrong end, or a khung declared off turn by another."""
        p = self.plant
        assert p is not None
        h = self.hand
        if not self.ready(p) or h.initial:
            return False, None
        kind = p.kind
        if kind in (DRAW_FROM_REPLACEMENT_END, FALSE_WIN_AFTER_MAT_U) and self.active(seat):
            i = self.emit({"type": "replacement", "seat": seat, "tile": CODES[self.back_tile()]})
            self.label(i, "DRAW_WRONG_PLACE", seat)
            p.done = True
            if kind == FALSE_WIN_AFTER_MAT_U:
                p.oblivious = seat
            return True, ("act", seat)
        if kind == KHUNG_DECLARED_OFF_TURN and h.live_count >= 3:
            for k in range(1, 4):
                y = (seat + k) % 4
                held = [
                    t
                    for t in range(N_KINDS, len(h.concealed[y]))
                    if h.concealed[y][t] and is_khung(t) and not is_rh(t)
                ]
                if held and self.active(y):
                    i = self.emit({"type": "flower", "seat": y, "tile": CODES[held[0]]})
                    self.label(i, "KHUNG_DECLARED_OFF_TURN", y)
                    p.done = True
                    if not self.replacement(y) or not self.declare_all(y, off_turn=True):
                        return True, None
                    return False, None  # the turn player now draws as usual
        return False, None

    def plant_before_declare(self, seat: int) -> tuple[bool, State]:
        """A drawn flower left in the hand, or declared without its replacement."""
        p = self.plant
        assert p is not None
        h = self.hand
        if p.done or h.initial or not self.active(seat) or len(self.events) < p.earliest:
            return False, None
        flowers = [t for t in range(N_KINDS, len(h.concealed[seat])) if h.concealed[seat][t]]
        flowers = [t for t in flowers if is_flower(t)]
        last = self.events[-1]
        drew_flower = (
            last["type"] == "draw"
            and last["seat"] == seat
            and len(flowers) == 1
            and INDEX[last["tile"]] == flowers[0]
            and not any(
                is_rh(t) and h.concealed[seat][t] for t in range(N_KINDS, len(h.concealed[seat]))
            )
        )
        if not drew_flower or p.kind not in (FLOWER_NOT_DECLARED, FLOWER_WITHOUT_REPLACEMENT):
            return False, None
        t = self.discard_choice(seat)
        if t is None:
            return False, None
        if p.kind == FLOWER_NOT_DECLARED:
            self.keep.add((seat, flowers[0]))
            p.pending[seat] = "FLOWER_NOT_DECLARED"
            p.done = True
            self.discard(seat, t, planted=True)
            return True, ("claims", seat)
        if p.kind == FLOWER_WITHOUT_REPLACEMENT:
            self.emit({"type": "flower", "seat": seat, "tile": CODES[flowers[0]]})
            p.pending[seat] = "SHORT_HAND"
            p.done = True
            t = self.discard_choice(seat)
            if t is None:
                raise SimulationError("flower without replacement left no natural tile")
            self.discard(seat, t, planted=True)
            return True, ("claims", seat)
        return False, None

    def plant_act(self, seat: int) -> tuple[bool, State]:
        """On the turn player's 14 tiles (bonus tiles declared): false wins, bonus discards,
        a double draw, a kong without replacement."""
        p = self.plant
        assert p is not None
        h = self.hand
        t = self.self_draw_tile(seat)
        if p.oblivious == seat and t is not None and self.complete(seat):
            _, reason = self.candidate(seat, t, WinSource.SELF_DRAW)
            if reason == "WIN_AFTER_MAT_U":
                self.false_win(seat, t, None, None, reason, oblivious=True)
                return True, None
        if p.kind == FALSE_WIN_WITH_FLOWER and p.favoured == seat and not p.done:
            holds_rh = h.concealed[seat][RH] > 0
            if holds_rh and t is not None and self.complete(seat, rh_as_bt=True):
                self.false_win(seat, t, None, None, "WIN_WITH_FLOWER")
                return True, None
            return False, None
        if not self.active(seat) or not self.ready(p):
            return False, None
        kind = p.kind
        if (
            kind == FALSE_WIN_INCOMPLETE
            and t is not None
            and self.near(seat) <= 0
            and not self.complete(seat)
        ):
            self.false_win(seat, t, None, None, "WIN_HAND_INCOMPLETE")
            return True, None
        if kind == FALSE_WIN_BELOW_MIN and t is not None and self.complete(seat):
            _, reason = self.candidate(seat, t, WinSource.SELF_DRAW)
            if reason == "WIN_BELOW_MIN":
                self.false_win(seat, t, None, None, reason)
                return True, None
        if kind in (BONUS_DISCARDED, WIN_ON_BONUS_DISCARD):
            held = [
                x
                for x in range(N_KINDS, len(h.concealed[seat]))
                if h.concealed[seat][x] and is_khung(x)
            ]
            others = [s for s in range(4) if s != seat and self.active(s) and self.near(s) <= 0]
            if held and (kind == BONUS_DISCARDED or others):
                x = held[self.rng.randrange(len(held))]
                i = self.discard(seat, x, planted=True)
                self.label(i, "BONUS_DISCARDED", seat)
                p.done = kind == BONUS_DISCARDED
                self.bonus_win = kind == WIN_ON_BONUS_DISCARD
                return True, ("claims", seat)
        return self.plant_turn_end(seat, kind)

    def second_draw(self, seat: int) -> State:
        p = self.plant
        assert p is not None
        i = self.emit({"type": "draw", "seat": seat, "tile": CODES[self.live_tile()]})
        self.label(i, "OUT_OF_TURN", seat)
        p.pending[seat] = "LONG_HAND"
        if not self.declare_all(seat):
            return None
        return self.do_discard(seat)

    def kong_discard(self, seat: int) -> State:
        p = self.plant
        assert p is not None
        p.pending[seat] = "SHORT_HAND"
        t = self.discard_choice(seat)
        if t is None:
            raise SimulationError("kong without replacement left no natural tile")
        self.discard(seat, t, planted=True)
        return ("claims", seat)

    def plant_claims(self, discarder: int, t: int) -> tuple[bool, State]:
        p = self.plant
        assert p is not None
        h = self.hand
        order = [(discarder + k) % 4 for k in range(1, 4)]
        dw = p.oblivious
        if dw is not None and dw != discarder and t < N_KINDS and self.complete(dw, t):
            _, reason = self.candidate(dw, t, WinSource.DISCARD)
            if reason == "WIN_AFTER_MAT_U":
                self.false_win(dw, t, discarder, None, reason, oblivious=True)
                return True, None
        if self.bonus_win:
            self.bonus_win = False
            for s in order:
                if self.active(s) and self.near(s) <= 0:
                    self.false_win(s, t, discarder, None, "WIN_ON_BONUS_DISCARD")
                    return True, None
            p.done = True  # the khung is thrown, but nobody was ready after all
            return False, None
        fav = p.favoured
        if p.kind == FALSE_WIN_WITH_FLOWER and fav is not None and not p.done:
            holds_rh = h.concealed[fav][RH] > 0
            if holds_rh and fav != discarder and self.complete(fav, t, rh_as_bt=True):
                self.false_win(fav, t, discarder, None, "WIN_WITH_FLOWER")
                return True, None
            return False, None
        if t >= N_KINDS or not self.ready(p):
            return False, None
        kind = p.kind
        if kind == FALSE_WIN_INCOMPLETE:
            for s in order:
                if self.active(s) and self.near(s) <= 0 and not self.complete(s, t):
                    self.false_win(s, t, discarder, None, "WIN_HAND_INCOMPLETE")
                    return True, None
        if kind == FALSE_WIN_BELOW_MIN:
            for s in order:
                if self.active(s) and self.complete(s, t):
                    _, reason = self.candidate(s, t, WinSource.DISCARD)
                    if reason == "WIN_BELOW_MIN":
                        self.false_win(s, t, discarder, None, reason)
                        return True, None
        if h.live_count < 1:
            return False, None
        if kind == CHOW_NOT_FROM_LEFT and t < 27:
            for s in order[1:]:
                if not self.active(s):
                    continue
                options = self.natural_chows(s, t)
                if options:
                    e = dict(
                        options[self.rng.randrange(len(options))], seat=s, **{"from": discarder}
                    )
                    return self.planted_claim(e, "CHOW_NOT_FROM_LEFT")
        if kind == KHUNG_OUTSIDE_DOMAIN:
            for s in order:
                c = h.concealed[s]
                wrong = [
                    x
                    for x in range(N_KINDS, len(c))
                    if c[x] and is_khung(x) and t not in self._domain(x)
                ]
                if self.active(s) and c[t] >= 1 and wrong:
                    e = {
                        "type": "pung",
                        "seat": s,
                        "from": discarder,
                        "tile": CODES[t],
                        "with": [CODES[t], CODES[wrong[0]]],
                    }
                    return self.planted_claim(e, "INVALID_MELD")
        if kind == LATE_CLAIM:
            late = self.late_claim(discarder, t)
            if late is not None:
                w, frm, x = late
                self.visible[x] += 2
                return self.planted_claim(
                    {"type": "pung", "seat": w, "from": frm, "tile": CODES[x]}, "LATE_CLAIM"
                )
        if kind == CLAIM_PRIORITY and t < 27:
            nxt = order[0]
            callers = [
                s
                for s in order[1:]
                if self.active(s)
                and h.concealed[s][t] >= 1
                and h.concealed[s][t] + len(self.wild(s, t)) >= 2
            ]
            options: list[dict[str, Any]] = []
            if callers and self.active(nxt) and sum(h.concealed[nxt][:N_KINDS]) > 3:
                options = [dict(e, seat=nxt, **{"from": discarder})
                           for e in self.natural_chows(nxt, t)]  # fmt: skip
                if not options and self.wild(nxt, t):
                    options = [e for e in h.legal_claims(nxt) if e["type"] == "chow"]
            if options:
                # a pung is called (natural pair or with a khung), the chow is taken anyway
                self.emit(
                    {"type": "announce", "seat": callers[0], "what": "claim", "claim": "pung"}
                )
                return self.planted_claim(options[0], "CLAIM_PRIORITY_VIOLATION")
        if kind == DISCARD_OUT_OF_TURN:
            o = order[1 + self.rng.randrange(2)]
            x = self.discard_choice(o) if self.active(o) else None
            if x is not None:
                i = self.discard(o, x, planted=True)
                self.label(i, "OUT_OF_TURN", o)
                self.label(i, "SHORT_HAND", o)
                p.done = True
                return True, ("draw", order[0])
        if kind == DISCARD_WITHOUT_DRAW:
            o = order[0]
            x = self.discard_choice(o) if self.active(o) else None
            if x is not None:
                i = self.discard(o, x, planted=True)
                self.label(i, "SHORT_HAND", o)
                p.done = True
                self.unclaimed = None
                return True, ("claims", o)
        if kind == KONG_WITHOUT_REPLACEMENT:
            for s in order:
                if self.active(s) and h.concealed[s][t] == 3:
                    self.emit({"type": "kong", "seat": s, "from": discarder, "tile": CODES[t]})
                    self.unclaimed = None
                    return True, self.kong_then_discard(s)
        return False, None

    def planted_claim(self, ev: dict[str, Any], code: str) -> tuple[bool, State]:
        """A planted claim ``ev``, labelled ``code``: the claimer discards next, the plant
        is done and the discard's window is closed."""
        p = self.plant
        assert p is not None
        seat = ev["seat"]
        self.label(self.emit(ev), code, seat)
        p.done = True
        self.unclaimed = None
        return True, ("discard", seat)

    def late_claim(self, discarder: int, t: int) -> tuple[int, int, int] | None:
        """(claimer, discarder, tile): a player calls pung on a discard whose window has
        closed, the one before the live discard if possible, else an older one."""
        h = self.hand
        seats = [(discarder + k) % 4 for k in range(1, 4)]
        older: list[tuple[int, int, int, int]] = []  # (-event, claimer, discarder, tile)
        for frm in range(4):
            for d in h.discards[frm]:
                x = d.tile
                if d.claimed or x >= N_KINDS or (frm == discarder and x == t):
                    continue
                for w in seats:
                    if w != frm and self.active(w) and h.concealed[w][x] >= 2:
                        older.append((-d.index, w, frm, x))
        if self.unclaimed is not None:
            frm, x = self.unclaimed
            for _, w, f, y in sorted(older):
                if (f, y) == (frm, x):
                    return w, f, y
        if older and self.rng.random() < 0.3:
            _, w, f, y = min(older)
            return w, f, y
        return None

    def natural_chows(self, seat: int, t: int) -> list[dict[str, Any]]:
        """Chow events (without seat/from) that ``seat`` could make with natural tiles."""
        return [
            {"type": "chow", "tile": CODES[t], "tiles": [CODES[x] for x in sorted((t, a, b))]}
            for a, b in self.chow_options(seat, t)
        ]

    # -- the record's result -----------------------------------------------------------

    def result(self) -> dict[str, Any]:
        h = self.finished()
        deltas = h.settlement()
        if deltas is None:
            raise SimulationError(f"{self.record['game_id']}: the engine cannot settle the hand")
        out = self.recorded(deltas)
        if h.false_wins:
            out["penalties"] = [
                {**pen, "deltas": [points(d) for d in pen["deltas"]]} for pen in h.penalties()
            ]
        return out


# -- deal and sittings ---------------------------------------------------------------------


def deal_positions(dealer: int) -> list[list[int]]:
    """Wall positions of each seat's start hand (§2.2: 4 tiles × 3 rounds, then the dealer
    two adjacent tiles and the others one each)."""
    order = [(dealer + k) % 4 for k in range(4)]
    pos: list[list[int]] = [[] for _ in range(4)]
    at = 0
    for _ in range(3):
        for seat in order:
            pos[seat].extend(range(at, at + 4))
            at += 4
    pos[dealer].extend((48, 49))
    for k, seat in enumerate(order[1:]):
        pos[seat].append(50 + k)
    return pos


def deal(wall: list[int], dealer: int) -> list[list[int]]:
    return [[wall[q] for q in qs] for qs in deal_positions(dealer)]


def rig(wall: list[int], positions: list[int], wanted: list[int]) -> None:
    """Move the ``wanted`` tiles into a seat's start positions (swaps keep a permutation)."""
    free = [q for q in positions if wall[q] < N_KINDS]
    for t in wanted:
        if not free or any(wall[q] == t for q in positions if q not in free):
            continue
        src = next((q for q in range(len(wall)) if wall[q] == t and q not in positions), None)
        if src is None:
            continue
        dst = free.pop(0)
        wall[src], wall[dst] = wall[dst], wall[src]


def favour(
    plant: Plant, bots: list[VNBot], wall: list[int], dealer: int, rng: random.Random
) -> None:
    """Steer one seat towards the planted situation when play alone seldom reaches it."""
    kind = plant.kind
    positions = deal_positions(dealer)
    if kind == FALSE_WIN_WITH_FLOWER:
        fav = rng.randrange(4)
        rig(wall, positions[fav], [RH])
        plant.favoured = fav
    elif kind == FLOWER_NOT_DECLARED_AT_START:
        fav = (dealer + 1 + rng.randrange(3)) % 4
        held = [wall[q] for q in positions[fav]]
        if not any(is_flower(t) for t in held):
            rig(wall, positions[fav], [N_KINDS + rng.randrange(16)])
        plant.favoured = fav
    elif kind == KONG_WITHOUT_REPLACEMENT:
        fav = rng.randrange(4)
        k = rng.randrange(N_KINDS)
        free = [q for q in positions[fav] if wall[q] != k][: rng.choice((3, 4))]
        for q in free:
            src = next((r for r in range(DEALT, len(wall)) if wall[r] == k), None)
            if src is not None:
                wall[src], wall[q] = wall[q], wall[src]
        bot = bots[fav]
        style = dataclasses.replace(bot.vn, hk=dataclasses.replace(bot.vn.hk, kong=0.0))
        bots[fav] = VNBot(style, rng)


class VNTable(mahjong_play.MahjongTable):
    """Four rounds (E S W N) with the §2.1 rotation: the dealer stays only on a win."""

    minutes, per_event = 2, 0.03
    slips = SLIPS
    check_clean = True

    def setup(self) -> None:
        super().setup()
        house: dict[str, Any] = {"min_phan": 1} if self.rng.random() < MIN_PHAN_SHARE else {}
        self.house = house
        self.opts = options_for(house)
        self.tiles = sorted(full_set(self.opts.khung_sets).elements())

    def deal(self, hand_no: int, at: datetime) -> VNHandSim:
        rng = self.rng
        dealer = self.rounds.dealer
        wall = list(self.tiles)
        rng.shuffle(wall)
        plant = make_plant(rng, self.rate, self.opts)
        bots = [VNBot(m.style, rng) for m in self.sitting.members]
        if plant is not None:
            favour(plant, bots, wall, dealer, rng)
        record: Record = {
            **self.head(hand_no, at),
            "dice": [rng.randint(1, 6) for _ in range(3)],
            "wall": [CODES[t] for t in wall],
            "start_hands": [[CODES[t] for t in h] for h in deal(wall, dealer)],
            "events": [],
        }
        if self.house:
            record["options"] = dict(self.house)
        return VNHandSim(record, wall, self.opts, bots, rng, plant)

    def result(self, hs: VNHandSim) -> tuple[Record, bool]:
        """The engine's result; a planted phán mismatch records the phán too high."""
        result = hs.result()
        plant = hs.plant
        if plant is None or plant.kind not in (RECORDED_RESULT_MISMATCH, RECORDED_PHAN_MISMATCH):
            return result, False
        if plant.kind == RECORDED_PHAN_MISMATCH and result.get("fan") is not None:
            result["fan"] += 1 + self.rng.randrange(3)
            plant.label(len(hs.events) - 1, "RESULT_MISMATCH", AUDIT, None,
                        note="the phán recorded too high")  # fmt: skip
            return result, False
        return result, True

    def stays(self, hs: VNHandSim, result: Record) -> bool:
        h = hs.hand
        if h.ended_by == "win":
            return hs.dealer in result["winners"] or hs.dealer in [c.seat for c in h.settled]
        if h.ended_by in ("exhaustive_draw", "false_win"):
            return self.opts.dealer_on_draw == "stay"
        return True


_CLUBS = (
    core.Venue("CLB Mạt Chược Hồ Gươm", 7, ("Bàn 1", "Bàn 2", "Bàn 3", "Bàn 4")),
    core.Venue("Hội Mạt Chược Chợ Lớn", 7, ("Bàn A", "Bàn B", "Bàn C", "Bàn D", "Bàn E")),
    core.Venue("Little Saigon Mahjong Society", -8, ("T1", "T2", "T3")),
)

core.register(
    core.RulesetSimulator(
        ruleset="vn-160",
        n_players=4,
        venues=_CLUBS,
        make_style=VNStyle.random,
        make_bot=VNBot,
        table=VNTable,
        violation_kinds=MENU,
    )
)
