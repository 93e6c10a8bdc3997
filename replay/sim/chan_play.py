"""Simulated Chắn (``chan``) sittings, event by event, through the engine's own state.

Every hand is built the way the replayer reads it: each event is appended to the record
and at once stepped through a :class:`replay.chan.state.ChanHand`, so the table the bots
see is the engine's, and one definition of legal serves both. Before each event the driver
*predicts* the serious findings it will cause from the engine's own rule functions
(:mod:`replay.chan.history`, :mod:`replay.chan.cuoc`, :mod:`replay.chan.declaration`); after
stepping it checks that the engine reported exactly those. Clean bots only ever choose
actions predicted clean, so a hand without a plant replays with no serious finding; a
mismatch raises :class:`~replay.sim.core.SimulationError`. At the end the finished record
is replayed by the plug-in (:func:`replay.chan.replayer.replay_chan`) and its serious
findings must equal the labels.

A planted violation (:class:`Plant`) takes over one decision of one hand (chan.md §10,
§11): treo tranh and trái vỉ, errors 1-10 (by seeking an eat or discard whose predicted
codes hold the target, after a setup move when the error needs one), the win errors
(ù láo, ù chi rộng, bỏ ù, ù 4-11, xướng sai), the procedural V codes of §11 (out-of-turn
discard, draw and eat, an eat that is no pair, a chíu without trả cửa, a chíu of a dead
card, the dead last nọc card, a false báo), the bốc cái (SAI_CAI, SAI_NGUOI_BAT_CAI) and a
wrong recorded payment. Scenarios that need a chíu or a chi rộng wait get a rigged deal
(still a permutation of the 100 cards). If no chance comes, the recorded payment is
falsified instead. After a planted error another player often calls it out (a true báo,
§10.9: no effect with ``enforcement = auto``).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from mjaudit.parts.replay.engine.findings import SERIOUS, FindingClass, points
from mjaudit.parts.replay.engine.stepping import report_base
from mjaudit.parts.replay.rulesets.chan import history as hist
from mjaudit.parts.replay.rulesets.chan.cards import (
    CARDS,
    CC,
    is_ca,
    is_pair,
    rank,
    same_rank_others,
)
from mjaudit.parts.replay.rulesets.chan.combos import (
    Exposed,
    arrange,
    is_chi_rong,
    is_win,
    plus,
    win_set,
)
from mjaudit.parts.replay.rulesets.chan.cuoc import TABLE, detect, score, valid_declarations
from mjaudit.parts.replay.rulesets.chan.declaration import parse_claim, wrong_reasons
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions, options_for
from mjaudit.parts.replay.rulesets.chan.replayer import (
    _effective_penalties,
    replay_chan,
    report_fields,
)
from mjaudit.parts.replay.rulesets.chan.state import (
    CHIU_DISCARD,
    DRAWN,
    ENDED,
    ERRORS_1_9,
    MUST_DISCARD,
    OPENING,
    REPORTABLE,
    TURN,
    ChanHand,
    Stop,
    WinCheck,
)
from mjaudit.parts.replay.sim import core
from mjaudit.parts.replay.sim.chan_bot import ChanBot, DiscardView, Style, waits
from mjaudit.parts.replay.sim.core import HandSim, Label, Record, SimulationError, State

N_PLAYERS = 4
HANDS_PER_SITTING = (14, 22)
SHARE_4_11 = 0.25  # sittings played in the Ù 4-11 mode

VIOL = FindingClass.PLAYER_VIOLATION.value
# The engine's phases (but ENDED, and CHIU_DISCARD: the chíu's discard) -> the step.
STEPS = {OPENING: "opening", TURN: "turn", DRAWN: "drawn", MUST_DISCARD: "discard"}

# Planted scenarios (the ``violation`` field of a label) -> the code they aim at.
TARGETS: dict[str, str] = {
    "treo_tranh_tra_cua": "TREO_TRANH_TRA_CUA",
    "treo_tranh_chiu_khong_ha_du": "TREO_TRANH_CHIU_KHONG_HA_DU",
    "treo_tranh_khong_chiu": "TREO_TRANH_KHONG_CHIU",
    "treo_tranh_an_ca_thay_chan": "TREO_TRANH_AN_CA_THAY_CHAN",
    "trai_vi": "TRAI_VI",
    "bo_an_chan": "BO_AN_CHAN",
    "an_chon_ca": "AN_CHON_CA",
    "danh_ca_chan": "DANH_CA_CHAN",
    "xe_chan": "XE_CHAN",
    "tach_chan_an_ca": "TACH_CHAN_AN_CA",
    "an_chan_xe_chan": "AN_CHAN_XE_CHAN",
    "an_ca_danh_ca": "AN_CA_DANH_CA",
    "xe_ca_an_ca": "XE_CA_AN_CA",
    "tach_ca_an_ca": "TACH_CA_AN_CA",
    "an_ca_doi_cho": "AN_CA_DOI_CHO",
    "u_lao": "U_LAO",
    "u_chi_rong": "U_CHI_RONG",
    "bo_u": "BO_U",
    "u_4_11": "U_4_11_THIEU_DIEM",
    "xuong_sai": "XUONG_SAI",
    "danh_sai_luot": "DANH_SAI_LUOT",
    "boc_sai_luot": "BOC_SAI_LUOT",
    "an_sai_luot": "AN_SAI_LUOT",
    "an_khong_thanh_cap": "AN_KHONG_THANH_CAP",
    "chiu_thieu_tra_cua": "CHIU_THIEU_TRA_CUA",
    "chiu_quan_chet": "CHIU_QUAN_CHET",
    "boc_quan_noc_chet": "BOC_QUAN_NOC_CHET",
    "bao_sai": "BAO_SAI",
    "sai_cai": "SAI_CAI",
    "sai_nguoi_bat_cai": "SAI_NGUOI_BAT_CAI",
    "recorded_result_mismatch": "RESULT_MISMATCH",
}
MENU: tuple[str, ...] = tuple(k for k in TARGETS if k != "u_4_11")
MENU_4_11: tuple[str, ...] = tuple(TARGETS)
# Reached by seeking an eat or a discard whose predicted codes hold the target.
SEEK = frozenset(
    {
        *ERRORS_1_9,  # §11 #1-9
        "AN_CA_DOI_CHO",
        "TREO_TRANH_KHONG_CHIU",
        "TREO_TRANH_AN_CA_THAY_CHAN",
    }
)
# Need a chíu: the deal gives one seat three copies of a card whose fourth is in the nọc.
NEEDS_CHIU = frozenset(
    {
        "treo_tranh_tra_cua",
        "treo_tranh_chiu_khong_ha_du",
        "treo_tranh_khong_chiu",
        "chiu_thieu_tra_cua",
        "chiu_quan_chet",
    }
)
COMMON = frozenset(
    {"u_lao", "danh_sai_luot", "boc_sai_luot", "an_sai_luot", "an_khong_thanh_cap", "bao_sai"}
)
REGIONAL = ("ngu_ong_bat_ca", "ca_vot_man_thuyen", "cuoc_dat_trong_hoa")

Expect = list[tuple[str, int | None]]


@dataclass
class Plant(core.Plant):
    """A chắn plant: what its two-step scenarios remember."""

    setup: bool = False  # the setup move of a two-step error was made
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def target(self) -> str:
        return TARGETS[self.kind]

    def label(
        self, index: int | None, code: str, cls: str, seat: int | None, note: str | None = None
    ) -> None:
        self.labels.append((index, code, cls, seat, None, note))


# A wrong recorded payment (#42): the scorer's slip, in points of 2.
SLIPS = core.Slips(
    "RESULT_MISMATCH",
    "recorded_result_mismatch",
    2,
    "a hand where nobody pays",
    swap_among_payers=False,
    half_whole_only=True,
)


def make_plant(rng: random.Random, rate: float, mode_4_11: bool, hand_no: int) -> Plant | None:
    if rate <= 0 or rng.random() >= rate:
        return None
    menu = MENU_4_11 if mode_4_11 else MENU
    kind = rng.choice(menu)
    if kind == "sai_nguoi_bat_cai" and hand_no == 1:
        kind = "sai_cai"  # the first hand has no previous hand to follow
    earliest = rng.randint(2, 16) if kind in COMMON else rng.randint(0, 10)
    if kind in NEEDS_CHIU or kind == "u_chi_rong":
        earliest = 0  # the rigged fourth copy may come early
    chance = 0.4 if kind in COMMON else 1.0 if kind == "treo_tranh_khong_chiu" else 0.7
    return Plant(kind, earliest, chance)


def clone_history(h: hist.PlayerHistory) -> hist.PlayerHistory:
    """A copy the rule functions may mutate while the driver looks ahead."""
    out = copy.copy(h)
    for name in _HISTORY_CONTAINERS:
        setattr(out, name, copy.copy(getattr(h, name)))
    return out


_HISTORY_CONTAINERS = tuple(
    f.name
    for f in dataclasses.fields(hist.PlayerHistory)
    if f.default is dataclasses.MISSING  # the containers have default factories
)


def minus(c: Counter[str], card: str) -> Counter[str]:
    out = Counter(c)
    out[card] -= 1
    return +out


def claim_list(cuoc: Counter[str]) -> list[Any]:
    """A declared Counter as ``claim.cuoc`` items, in the table's order."""
    order = {c: i for i, c in enumerate(TABLE)}
    out: list[Any] = []
    for c in sorted(cuoc, key=lambda c: (order.get(c, 99), c)):
        n = cuoc[c]
        out.append(c if n == 1 else {"id": c, "n": n})
    return out


@dataclass(frozen=True)
class EatPlan:
    card: str
    with_: str
    from_: int
    discard: str
    placement: str | None = None


# The win plants whose break is the win's first code (their ``kind`` -> the code).
PLANTED_WIN_CODES = {
    "u_chi_rong": "U_CHI_RONG",
    "xuong_sai": "XUONG_SAI",
    "u_4_11": "U_4_11_THIEU_DIEM",
}


class ChanHandSim(HandSim):
    """Plays one hand: the engine's state is the table, the bots choose, the plant meddles."""

    def __init__(
        self,
        record: Record,
        opts: ChanOptions,
        bots: list[ChanBot],
        rng: random.Random,
        plant: Plant | None,
    ) -> None:
        super().__init__(record, opts, bots, rng, plant)
        self.hand = ChanHand(record, opts, record.get("previous_hand"))
        self.n = len(record["players"])
        self.planned: str | None = None  # the discard chosen with the eat that precedes it
        self.limit = 1 if opts.last_stock_card_dead else 0

    # -- plumbing ----------------------------------------------------------------------

    def legal(self, seat: int, kinds: Collection[str] | None = None) -> list[dict[str, Any]]:
        return self.hand.legal_events(seat, kinds)

    def emit(self, ev: dict[str, Any]) -> int:
        """Step ``ev`` through the engine; its serious findings must be the predicted ones."""
        h = self.hand
        i = len(self.events)
        expect = self.expected(ev, i)
        self.events.append(ev)
        n0 = len(h.findings)
        try:
            h.step(i, ev)
        except Stop:
            raise core.engine_stopped(self.record, i, ev, h.findings[-1]) from None
        got = [(f.code, f.seat) for f in h.findings[n0:] if f.cls in SERIOUS]
        if Counter(got) != Counter(expect):
            raise self.fail(f"event {i} {ev}: predicted {expect}, the engine reports {got}")
        if expect:
            if self.plant is None:
                raise self.fail(f"event {i} {ev}: a clean bot triggers {expect}")
            for code, seat in expect:
                self.plant.label(i, code, VIOL, seat)
            self.bat_bao(expect)
        return i

    def bat_bao(self, found: Expect) -> None:
        """Bắt báo (§10.9): another player often calls out an error 1-10 or a treo tranh.

        With ``enforcement = auto`` the báo changes nothing; it is what a real log shows.
        """
        for code, seat in found:
            if code in REPORTABLE and seat is not None and self.rng.random() < 0.5:
                accuser = (seat + self.rng.randrange(1, self.n)) % self.n
                ev = {"type": "announce", "seat": accuser, "what": "bao"}
                self.emit({**ev, "accused": seat, "code": code})
                return

    def active(self, kind: str | tuple[str, ...]) -> Plant | None:
        """The plant, if it is of ``kind``, not done and past its earliest event."""
        p = self.plant
        kinds = (kind,) if isinstance(kind, str) else kind
        if p is None or p.done or p.kind not in kinds or len(self.events) < p.earliest:
            return None
        return p

    def roll(self, p: Plant) -> bool:
        return self.rng.random() < p.chance

    def unseen(self, seat: int) -> Counter[str]:
        h = self.hand
        seen = Counter(h.hands[seat])
        for q in range(self.n):
            for e in h.exposed[q]:
                seen.update(e.cards)
            seen.update(h.rows[q])
        return Counter({c: 4 - seen[c] for c in CARDS})

    # -- prediction: the serious findings an event will cause ------------------------------

    def eat_codes(
        self, seat: int, x: str, y: str, placement: str | None = None
    ) -> tuple[list[str], hist.PlayerHistory]:
        """Codes of p eating x with y (turn checks aside), and p's history after it."""
        h = self.hand
        before = h.hands[seat]
        codes: list[str] = []
        if not is_pair(x, y):
            codes.append("AN_KHONG_THANH_CAP")
        if before[x] >= 3:
            codes.append("TREO_TRANH_KHONG_CHIU")
        if before[x] >= 1 and y != x:
            codes.append("TREO_TRANH_AN_CA_THAY_CHAN")
        if is_ca(x, y) and placement == "eaten_on_top":
            codes.append("TRAI_VI")
        if seat in h.short_chiu:
            codes.append("TREO_TRANH_CHIU_KHONG_HA_DU")
        h2 = clone_history(h.hist[seat])
        codes += [c for c, _ in hist.on_eat(h2, x, y, before, h.dealt[seat], self.opts)]
        if is_ca(x, y):
            ready = waits(before, h.exposed[seat])
            if ready:
                h2.doi_cho = ready
        return codes, h2

    def discard_codes(
        self,
        seat: int,
        y: str,
        conc: Counter[str],
        exposed: tuple[Exposed, ...] | list[Exposed],
        ph: hist.PlayerHistory,
    ) -> list[str]:
        """Codes of the history rules and error 10 for p discarding y (turn checks aside)."""
        codes = [c for c, _ in hist.on_discard(clone_history(ph), y, conc, self.opts)]
        if ph.doi_cho is not None and self.opts.rule_an_ca_doi_cho:
            after = waits(minus(conc, y), exposed)
            if after and after != ph.doi_cho:
                codes.append("AN_CA_DOI_CHO")
        return codes

    def win_codes(self, ev: dict[str, Any]) -> list[str]:
        h = self.hand
        seat, tile, via = ev["seat"], ev["tile"], ev.get("via", "stock")
        live = h.live
        hand = h.hands[seat]
        exposed = h.exposed[seat]
        lao = False
        w: str | None = None
        if via != "deal":
            w = tile
            if via == "chiu":
                lao = len(ev.get("with") or []) < 3
            elif live is None or live.kind != "draw":
                lao = True
        conc = Counter(hand) if w is None else plus(hand, w)
        winning = is_win(conc, exposed)
        lao = lao or not winning or seat in h.out or seat in h.cannot_win
        decl = parse_claim(ev.get("claim"))
        declared = score(decl.cuoc, self.opts)
        reasons: list[str] = []
        if winning:
            facts = h._facts(seat, w, via, live)
            present = detect(facts, self.opts)
            skip = [e.id for e in self.opts.extra_cuoc]
            if facts.thong is None and decl.cuoc["thong"]:
                skip.append("thong")
            reasons = wrong_reasons(decl, present, self.opts, skip)
        codes: list[str] = []
        if seat in h.barred:
            codes.append("BO_U")
        elif lao:
            codes.append("U_LAO")
        elif w == CC and h.hist[seat].chi_rong_chance is not None and is_chi_rong(hand, exposed):
            codes.append("U_CHI_RONG")
        elif self.opts.mode_4_11 and declared.total < self.opts.min_points_4_11:
            codes.append("U_4_11_THIEU_DIEM")
        elif reasons:
            codes.append("XUONG_SAI")
        codes += [c for c, _ in hist.on_win(h.hist[seat], w, hand)]
        return codes

    def expected(self, ev: dict[str, Any], i: int) -> Expect:
        """The serious findings ``ev`` will cause, mirroring ``ChanHand.step`` (§11)."""
        h = self.hand
        kind, seat = ev["type"], ev.get("seat")
        out: Expect = []
        turn, phase, actor = h.turn, h.phase, h.chiu_actor
        skipped = actor is not None and phase == CHIU_DISCARD
        acting = seat is not None and kind not in ("announce", "decline_u")
        if acting and skipped and (seat != actor or kind not in ("discard", "expose")):
            out.append(("CHIU_THIEU_TRA_CUA", actor))
            req = h.chiu_required if h.chiu_required is not None else actor
            turn, phase, actor = h.nxt(req), TURN, None
        if kind == "draw":
            if self.limit and h.stock_left == 1 and h.forced_draw_at is None:
                out.append(("BOC_QUAN_NOC_CHET", seat))
            if phase != TURN or turn != seat:
                out.append(("BOC_SAI_LUOT", seat))
            if seat in h.short_chiu:
                out.append(("TREO_TRANH_CHIU_KHONG_HA_DU", seat))
        elif kind == "eat":
            want = DRAWN if ev["from"] == seat else TURN
            if turn != seat or phase != want:
                out.append(("AN_SAI_LUOT", seat))
            codes, _ = self.eat_codes(seat, ev["tile"], ev["with"], ev.get("placement"))
            out += [(c, seat) for c in codes]
        elif kind == "discard":
            chiu_discard = phase == CHIU_DISCARD and actor == seat
            in_turn = (
                (phase == MUST_DISCARD and turn == seat)
                or (phase == OPENING and seat == h.dealer)
                or chiu_discard
            )
            if not in_turn:
                out.append(("DANH_SAI_LUOT", seat))
            required = seat
            if chiu_discard and h.chiu_required is not None:
                required = h.chiu_required
            if ev.get("to", required) != required:
                out.append(("TREO_TRANH_TRA_CUA", seat))
            conc = h.hands[seat]
            codes = self.discard_codes(seat, ev["tile"], conc, h.exposed[seat], h.hist[seat])
            out += [(c, seat) for c in codes]
        elif kind == "chiu":
            live = h.live
            if live is None or live.owner != ev["from"] or live.card != ev["tile"]:
                out.append(("CHIU_QUAN_CHET", seat))
        elif kind == "win":
            out += [(c, seat) for c in self.win_codes(ev)]
        elif kind == "announce":
            acc, code = ev.get("accused"), ev.get("code")
            ok = any(
                f.seat == acc and f.code == code and f.event_index is not None for f in h.findings
            )
            if acc == seat or not ok:
                out.append(("BAO_SAI", seat))
        return out

    # -- the hand ------------------------------------------------------------------------

    def begin(self) -> State:
        """The deal (a planted bốc cái is found at it), then the engine's first phase."""
        h = self.hand
        try:
            h.start()
        except Stop:
            raise self.fail(f"the deal is rejected: {h.findings[-1].message}") from None
        got = [(f.code, f.seat) for f in h.findings if f.cls in SERIOUS]
        p = self.plant
        if p is not None and p.kind in ("sai_cai", "sai_nguoi_bat_cai"):
            want = p.memo["expect"]
            if got != [(p.target, want)]:
                raise self.fail(f"bốc cái plant: expected {p.target} on {want}, got {got}")
            p.label(None, p.target, VIOL, want)
            p.done = True
        elif got:
            raise self.fail(f"the deal causes {got}")
        return self.table_state()

    def table_state(self) -> State:
        """The engine's phase as a table state: whose step it is (None: ended)."""
        h = self.hand
        ph = h.phase
        if ph == ENDED:
            return None
        if ph == CHIU_DISCARD:
            assert h.chiu_actor is not None
            return ("discard", h.chiu_actor)
        return (STEPS[ph], h.turn)

    def do_opening(self, seat: int) -> State:
        """The dealer's first move (``seat``: the dealer): an ù on the deal, else a
        discard."""
        h = self.hand
        d = h.dealer
        check = h.win_check(d)
        if check is None or not self.try_win(d, check):
            self.maybe_khai(d)
            self.discard(d)
        return self.table_state()

    def maybe_khai(self, seat: int) -> None:
        h = self.hand
        quads = sorted(c for c, k in h.hands[seat].items() if k == 4)
        for c in quads:
            if self.bots[seat].wants_khai():
                self.take(seat, {"type": "khai", "tile": c})

    def do_turn(self, p: int) -> State:
        self.turn(p)
        return self.table_state()

    def turn(self, p: int) -> None:
        """The seat's turn: an eat from the row above, else a draw (the last card's end
        by option, or the table's exhaustive draw)."""
        h = self.hand
        if self.plant_turn_start(p):
            return
        if h.hands[p] and max(h.hands[p].values()) == 4 and h.draw_count[p] == 0:
            self.maybe_khai(p)
        plan = self.choose_eat(p) if h.cua_tren(p) is not None else None
        if plan is not None:
            self.eat(p, plan)
            return
        if h.stock_left <= self.limit:
            if not self.plant_last_card(p):
                self.take(p, {"type": "exhaustive_draw", "seat": None})
            return
        self.take(p, {"type": "draw", "tile": h.next_card()})
        self.claims()

    def do_drawn(self, p: int) -> State:
        """After the seat's draw: an eat of the drawn card, else a pass."""
        if not self.plant_snatch(p):
            plan = self.choose_eat(p)
            if plan is not None:
                self.eat(p, plan)
            else:
                self.take(p, {"type": "pass"})
                self.plant_after_pass(p)
        return self.table_state()

    def eat(self, p: int, plan: EatPlan) -> None:
        """The eat the bot (or the plant) chose, as listed; a placement is the plant's."""
        ev: dict[str, Any] = {"type": "eat", "tile": plan.card, "from": plan.from_}
        ev["with"] = plan.with_
        if plan.placement is None:
            self.take(p, ev)
        else:
            self.emit({**ev, "seat": p, "placement": plan.placement})
        self.planned = plan.discard

    # -- choices ---------------------------------------------------------------------------

    def clean_discards(
        self,
        seat: int,
        conc: Counter[str],
        exposed: tuple[Exposed, ...] | list[Exposed],
        ph: hist.PlayerHistory,
        que_first: bool = False,
    ) -> list[str]:
        """The cards whose discard is predicted clean, lowest first; ``que_first``: those a
        player considers, its clean lone cards (què) if it has any, else the others."""

        def clean(cards: Iterable[str]) -> list[str]:
            return [y for y in cards if not self.discard_codes(seat, y, conc, exposed, ph)]

        if not que_first:
            return clean(sorted(conc))
        que = sorted(set(arrange(conc).que))
        return clean(que) or clean(sorted(y for y in conc if y not in que))

    def choose_eat(self, p: int) -> EatPlan | None:
        """The bot's eat (clean, with a clean discard after it), or the plant's."""
        h = self.hand
        forced = self.plant_eat(p)
        if forced is not None:
            return forced if isinstance(forced, EatPlan) else None
        options = h.eat_options(p)
        pl = self.plant
        if pl is not None and pl.kind == "u_chi_rong" and pl.memo.get("seat") == p:
            return None  # waits for chi chi and keeps the hand as it is
        if not options:
            return None
        bot = self.bots[p]
        unseen = self.unseen(p)
        conc = h.hands[p]
        exposed = tuple(h.exposed[p])
        now = bot.value(conc, exposed, unseen)
        best: tuple[float, EatPlan] | None = None
        for o in options:
            codes, h2 = self.eat_codes(p, o.card, o.with_)
            if codes:
                continue
            conc2 = minus(conc, o.with_)
            exp2 = (*exposed, Exposed((o.with_, o.card), "eat", o.card))
            clean = self.clean_discards(p, conc2, exp2, h2, que_first=True)
            if pl is not None and pl.memo.get("keeps_cc") == p and len(clean) > 1:
                clean = [y for y in clean if y != CC]  # holds on to chi chi (u_chi_rong)
            if not clean:
                continue
            k, v = bot.best_discard(DiscardView(conc2, exp2, tuple(clean), unseen))
            y = clean[k]
            if best is None or v > best[0] + 1e-9:
                best = (v, EatPlan(o.card, o.with_, o.from_, y))
        if best is None or not bot.wants_eat(now, best[0]):
            return None
        plan = best[1]
        tv = self.active("trai_vi")
        if tv is not None and is_ca(plan.card, plan.with_) and self.roll(tv):
            plan = dataclasses.replace(plan, placement="eaten_on_top")
            tv.done = True
        return plan

    def do_discard(self, p: int) -> State:
        self.discard(p)
        return self.table_state()

    def discard(self, p: int) -> None:
        h = self.hand
        to: int | None = None
        card = self.planned
        self.planned = None
        forced = self.plant_discard(p)
        if forced is not None:
            card, to = forced
        if card is None:
            conc = h.hands[p]
            clean = self.clean_discards(p, conc, h.exposed[p], h.hist[p], que_first=True)
            if not clean:
                if self.plant is None:
                    raise self.fail(f"seat {p} has no clean discard")
                clean = sorted(conc)  # a consequence of the plant: labelled by emit
            pl = self.plant
            if pl is not None and pl.memo.get("keeps_cc") == p and len(clean) > 1:
                clean = [y for y in clean if y != CC]  # holds on to chi chi (u_chi_rong)
            view = DiscardView(Counter(conc), tuple(h.exposed[p]), tuple(clean), self.unseen(p))
            card = clean[self.bots[p].choose_discard(view)]
        if to is None:
            self.take(p, {"type": "discard", "tile": card})
        else:  # the plant's discard onto another row
            self.emit({"type": "discard", "seat": p, "tile": card, "to": to})
        self.claims()

    # -- claims on a new live card (§5.5) ---------------------------------------------------

    def claims(self) -> None:
        h = self.hand
        live = h.live
        if live is None or h.phase == ENDED:
            return
        order = [(live.owner + k) % self.n for k in range(self.n)]
        if self.plant_false_win(order):
            return
        for q in order:
            check = h.win_check(q)
            if check is not None and self.try_win(q, check):
                return
        for q in order:
            if h.chiu_options(q) is not None and h.holding(q) == 19 and self.try_chiu(q):
                return

    def best_declaration(self, present: Counter[str]) -> Counter[str]:
        decls = valid_declarations(present)
        return max(decls, key=lambda d: score(d, self.opts).total)

    def clean_win(self, q: int, check: WinCheck, decl: Counter[str]) -> bool:
        ev = self.win_event(q, check, decl)
        return not self.win_codes(ev)

    def win_event(self, q: int, check: WinCheck, decl: Counter[str]) -> dict[str, Any]:
        ev: dict[str, Any] = {"type": "win", "seat": q, "tile": check.tile, "via": check.via}
        if check.from_ is not None:
            ev["from"] = check.from_
        if check.via == "chiu":
            ev["with"] = [check.tile] * 3
        ev["claim"] = {"cuoc": claim_list(decl)}
        return ev

    def try_win(self, q: int, check: WinCheck) -> bool:
        """Declare the win when it is clean (or when the plant wants this one)."""
        decl = self.best_declaration(check.present)
        p = self.plant
        if p is not None and p.kind == "boc_quan_noc_chet" and not p.done:
            return False  # a cautious table lets wins pass: the nọc runs down to its last card
        if p is not None and not p.done:
            planted = self.plant_win(q, check, decl)
            if planted is not None:
                return planted
        if not self.clean_win(q, check, decl):
            return False  # e.g. a chi rộng that must not win, or a split cạ: let it pass
        ev = self.win_event(q, check, decl)
        claim = ev.pop("claim")
        self.take(q, {**ev, "from": ev.get("from"), "with": ev.get("with")}, claim=claim)
        return True

    def try_chiu(self, q: int) -> bool:
        h = self.hand
        live = h.live
        assert live is not None
        x = live.card
        p = self.plant
        if p is not None and not p.done and self.plant_chiu(q, x):
            return True
        khong_chiu = p is not None and p.kind == "treo_tranh_khong_chiu" and not p.done
        if khong_chiu and live.owner in (q, h.prv(q)):
            return False  # the plant lets q eat it (its draw or its cửa trên) instead
        if p is not None and p.kind == "chiu_quan_chet" and not p.done:
            p.memo["card"] = x  # let it go dead, then chíu it
            return False
        conc2 = Counter(h.hands[q])
        conc2[x] -= 3
        conc2 = +conc2
        exp2 = (*h.exposed[q], Exposed((x,) * 4, "chiu", x))
        if (
            not self.clean_discards(q, conc2, exp2, h.hist[q], que_first=True)
            or not self.bots[q].wants_chiu()
        ):
            return False
        self.take(q, {"type": "chiu", "tile": x, "from": live.owner, "with": [x] * 3})
        return True

    # -- plants ----------------------------------------------------------------------------

    def plant_turn_start(self, p: int) -> bool:
        """Plants that act at the start of a turn: a false báo, a chíu of a dead card."""
        h = self.hand
        pl = self.active("bao_sai")
        if pl is not None and self.roll(pl):
            accuser = (p + self.rng.randrange(1, self.n)) % self.n
            accused = (accuser + self.rng.randrange(1, self.n)) % self.n
            had = {f.code for f in h.findings if f.seat == accused}
            codes = [c for c in ("DANH_CA_CHAN", "BO_AN_CHAN", "AN_CA_DANH_CA") if c not in had]
            self.emit(
                {
                    "type": "announce",
                    "seat": accuser,
                    "what": "bao",
                    "accused": accused,
                    "code": codes[self.rng.randrange(len(codes))],
                }
            )
            pl.done = True
            return False
        pl = self.active("chiu_quan_chet")
        if pl is not None and "card" in pl.memo:
            x = pl.memo["card"]
            for q in range(self.n):
                if h.hands[q][x] < 3 or h.holding(q) != 19:
                    continue
                for o in range(self.n):
                    top = h.rows[o][-1] if h.rows[o] else None
                    live = h.live
                    dead = live is None or live.owner != o or live.card != x
                    if top == x and dead:
                        self.emit(
                            {"type": "chiu", "seat": q, "tile": x, "from": o, "with": [x] * 3}
                        )
                        pl.done = True
                        return True
        return False

    def plant_last_card(self, p: int) -> bool:
        """BOC_QUAN_NOC_CHET: the turn player draws the dead last card, then the hand ends."""
        h = self.hand
        pl = self.plant
        if pl is None or pl.done or pl.kind != "boc_quan_noc_chet" or h.stock_left != 1:
            return False
        if not self.limit:
            return False
        self.emit({"type": "draw", "seat": p, "tile": h.next_card()})
        self.emit({"type": "pass", "seat": p})
        self.emit({"type": "exhaustive_draw"})
        pl.done = True
        return True

    def plant_after_pass(self, p: int) -> None:
        """A discard or a second draw by the player whose turn just ended."""
        h = self.hand
        pl = self.active(("danh_sai_luot", "boc_sai_luot"))
        if pl is None or h.phase != TURN or not self.roll(pl):
            return
        if pl.kind == "danh_sai_luot":
            conc = h.hands[p]
            clean = self.clean_discards(p, conc, h.exposed[p], h.hist[p]) or sorted(conc)
            view = DiscardView(Counter(conc), tuple(h.exposed[p]), tuple(clean), self.unseen(p))
            card = clean[self.bots[p].choose_discard(view)]
            pl.done = True
            self.emit({"type": "discard", "seat": p, "tile": card})
            self.claims()
        elif h.stock_left > self.limit + 2:
            pl.done = True
            self.emit({"type": "draw", "seat": p, "tile": h.next_card()})
            self.claims()

    def plant_snatch(self, p: int) -> bool:
        """AN_SAI_LUOT: the next player eats the card p just drew before p decides."""
        h = self.hand
        pl = self.active("an_sai_luot")
        live = h.live
        if pl is None or live is None or not self.roll(pl):
            return False
        q = h.nxt(p)
        x = live.card
        ys = [y for y in sorted(h.hands[q]) if is_pair(x, y)]
        ys = [y for y in ys if not self.eat_codes(q, x, y)[0]] or ys
        if not ys or h.hands[q][x] >= 3:
            return False
        pl.done = True
        self.emit({"type": "eat", "seat": q, "tile": x, "from": p, "with": ys[0]})
        return True

    def plant_eat(self, p: int) -> EatPlan | bool | None:
        """The plant's eat for p now: an EatPlan, False to decline (a setup), None: no say."""
        h = self.hand
        pl = self.plant
        if pl is None or pl.done or len(self.events) < pl.earliest:
            return None
        live = h.live
        if live is None:
            return None
        x = live.card
        frm = live.owner
        conc = h.hands[p]
        if pl.kind == "an_khong_thanh_cap" and self.roll(pl) and conc[x] < 3:
            ys = [y for y in sorted(conc) if not is_pair(x, y) and y != CC and x != CC]
            near = [y for y in ys if abs(rank(y) - rank(x)) == 1]
            ys = near or ys
            if ys:
                y = ys[self.rng.randrange(len(ys))]
                pl.done = True
                return self.plan_after(p, x, y, frm)
        target = pl.target
        if target not in SEEK:
            return None
        # setup moves: decline a chắn / cạ opportunity
        if not pl.setup and pl.kind in ("bo_an_chan", "an_chon_ca") and conc[x] < 3:
            can_chan = conc[x] >= 1
            can_ca = x != CC and any(conc[o] for o in same_rank_others(x))
            could = (pl.kind == "bo_an_chan" and can_chan) or (pl.kind == "an_chon_ca" and can_ca)
            if could and self.roll(pl):
                pl.setup = True
                return False
        if not self.roll(pl):
            return None
        best: tuple[int, EatPlan] | None = None
        exposed = tuple(h.exposed[p])
        for o in h.eat_options(p):
            codes, h2 = self.eat_codes(p, o.card, o.with_)
            conc2 = minus(conc, o.with_)
            exp2 = (*exposed, Exposed((o.with_, o.card), "eat", o.card))
            for y in sorted(conc2):
                dcodes = self.discard_codes(p, y, conc2, exp2, h2)
                if target in codes or target in dcodes:
                    extra = len(codes) + len(dcodes)
                    if best is None or extra < best[0]:
                        best = (extra, EatPlan(o.card, o.with_, o.from_, y))
        if best is None:
            return None
        pl.done = True
        return best[1]

    def plan_after(self, p: int, x: str, y: str, frm: int) -> EatPlan:
        """An eat chosen by a plant, with the cleanest discard after it."""
        h = self.hand
        _, h2 = self.eat_codes(p, x, y)
        conc2 = minus(h.hands[p], y)
        exp2 = (*h.exposed[p], Exposed((y, x), "eat", x))
        clean = self.clean_discards(p, conc2, exp2, h2) or sorted(conc2)
        return EatPlan(x, y, frm, clean[0])

    def plant_discard(self, p: int) -> tuple[str | None, int | None] | None:
        """The plant's discard for p: (card or None for the bot's, ``to``), or None."""
        h = self.hand
        pl = self.plant
        if pl is None or pl.done or len(self.events) < pl.earliest:
            return None
        if pl.kind == "treo_tranh_tra_cua" and h.phase == CHIU_DISCARD:
            owner = pl.memo.get("owner")
            req = h.chiu_required
            if owner is None or req is None:
                return None
            # into one's own cửa, back into the cửa it came from, or the next player's
            wrong = p if req != p else (owner if owner != p else self.hand.nxt(p))
            pl.done = True
            return None, wrong
        if pl.kind == "u_chi_rong" and not pl.setup:
            return self.chi_rong_setup(p, pl)
        target = pl.target
        if target not in SEEK:
            return None
        conc = h.hands[p]
        exposed = h.exposed[p]
        ph = h.hist[p]
        cands: list[tuple[int, str]] = []
        for y in sorted(conc):
            codes = self.discard_codes(p, y, conc, exposed, ph)
            if target in codes:
                cands.append((len(codes), y))
        if cands and self.roll(pl):
            pl.done = True
            return min(cands)[1], None
        if pl.setup:
            return None
        # setup moves: tear a chắn (xé chắn, đánh cả chắn) or a cạ (xé cạ, ăn cạ đánh cạ)
        if pl.kind in ("xe_chan", "danh_ca_chan", "xe_ca_an_ca", "an_ca_danh_ca"):
            clean = self.clean_discards(p, conc, exposed, ph)
            if pl.kind in ("xe_chan", "danh_ca_chan"):
                tear = [y for y in clean if conc[y] == 2]
            else:
                tear = [y for y in clean if any(conc[o] for o in same_rank_others(y))]
            if tear and self.roll(pl):
                pl.setup = True
                return tear[self.rng.randrange(len(tear))], None
        return None

    def chi_rong_setup(self, p: int, pl: Plant) -> tuple[str | None, int | None] | None:
        """U_CHI_RONG, first step: keep a chi rộng wait when dropping CC would change it."""
        h = self.hand
        conc = h.hands[p]
        exposed = h.exposed[p]
        if not conc[CC] or not win_set(minus(conc, CC), exposed):
            return None
        clean = self.clean_discards(p, conc, exposed, h.hist[p])
        keep = [y for y in clean if y != CC and is_chi_rong(minus(conc, y), exposed)]
        if not keep:
            return None
        pl.setup = True
        pl.memo["seat"] = p
        return keep[0], None

    def plant_false_win(self, order: list[int]) -> bool:
        """U_LAO: a player near ready declares ù on a card that does not complete the hand;
        BO_U: the player who let a win pass declares one after its next draw."""
        h = self.hand
        live = h.live
        assert live is not None
        pl = self.active(("u_lao", "bo_u"))
        if pl is None:
            return False
        if pl.kind == "bo_u":
            q = pl.memo.get("seat")
            if q is None or q not in h.barred or h.holding(q) != 19:
                return False
            x = live.card
            via = "chiu" if h.hands[q][x] >= 3 else "stock"
            if via == "stock" and live.kind != "draw":
                return False
            # the card completes the hand, or the player thinks it does (its rank is waited on)
            ranks = {rank(c) for c in win_set(h.hands[q], h.exposed[q])}
            if not is_win(plus(h.hands[q], x), h.exposed[q]) and rank(x) not in ranks:
                return False
            ev: dict[str, Any] = {"type": "win", "seat": q, "tile": x, "via": via}
            if live.owner != q:
                ev["from"] = live.owner
            if via == "chiu":
                ev["with"] = [x] * 3
            ev["claim"] = {"cuoc": []}
            pl.done = True
            self.emit(ev)
            return True
        if live.kind != "draw" or not self.roll(pl):
            return False
        for q in order:
            if h.holding(q) != 19 or h.win_check(q) is not None or q in h.barred:
                continue
            conc = plus(h.hands[q], live.card)
            if is_win(conc, h.exposed[q]):
                continue
            ev = {"type": "win", "seat": q, "tile": live.card, "via": "stock"}
            if live.owner != q:
                ev["from"] = live.owner
            ev["claim"] = {"cuoc": ["chi"] if live.owner == q else []}
            pl.done = True
            self.emit(ev)
            return True
        return False

    def plant_win(self, q: int, check: WinCheck, decl: Counter[str]) -> bool | None:
        """Win-time plants; None: the plant has no say in this win."""
        pl = self.plant
        assert pl is not None
        if len(self.events) < pl.earliest and pl.kind not in ("xuong_sai", "u_4_11"):
            return None
        if pl.kind == "bo_u" and check.via != "deal":
            if pl.memo.get("seat") == q:
                return False  # still letting it pass
            if "seat" not in pl.memo and self.clean_win(q, check, decl):
                pl.memo["seat"] = q  # lets the win pass; barred from its next draw
                return False
            return None
        if pl.kind in ("tach_chan_an_ca", "tach_ca_an_ca"):
            ev = self.win_event(q, check, decl)
            return self.planted_win(ev, pl.target in self.win_codes(ev))
        first = PLANTED_WIN_CODES.get(pl.kind)
        if first is None:
            return None
        if pl.kind == "xuong_sai":
            decl = self.wrong_declaration(check.present, decl)
        elif pl.kind == "u_4_11":
            low = [Counter(), *(Counter({c: 1}) for c in sorted(decl) if TABLE[c].diem == 3)]
            decl = low[self.rng.randrange(len(low))]
        ev = self.win_event(q, check, decl)
        codes = self.win_codes(ev)
        return self.planted_win(ev, bool(codes) and codes[0] == first)

    def planted_win(self, ev: dict[str, Any], breaks: bool) -> bool | None:
        """Declare the planted win ``ev`` if it makes the planted break (the plant is then
        done); None: not this win."""
        if not breaks:
            return None
        assert self.plant is not None
        self.plant.done = True
        self.emit(ev)
        return True

    def wrong_declaration(self, present: Counter[str], decl: Counter[str]) -> Counter[str]:
        """xướng sai: the right list plus a cước that is not there (or one too many)."""
        rng = self.rng
        out = Counter(decl)
        missing = [
            c
            for c in ("chi", "bach_thu", "bach_dinh", "tam_do", "thap_thanh", "dia_u", "co_chiu")
            if not present[c]
        ]
        if self.record["hand_no"] > 1 and not present["thong"]:
            missing.append("thong")
        if not missing:
            missing.append(REGIONAL[0])
        choice = rng.randrange(4)
        if choice == 0 and (present["tom"] or present["leo"]):
            c = "tom" if present["tom"] else "leo"
            out[c] = present[c] + 1
        elif choice == 1:
            out[REGIONAL[rng.randrange(len(REGIONAL))]] = 1
        elif choice == 2 and present["bach_thu"]:
            out["bach_thu_chi"] = 1
        else:
            out[missing[rng.randrange(len(missing))]] += 1
        return out

    def plant_chiu(self, q: int, x: str) -> bool:
        """Chíu plants: a short chíu, a chíu without trả cửa, a trả cửa into the wrong cửa."""
        h = self.hand
        pl = self.active(
            ("treo_tranh_chiu_khong_ha_du", "chiu_thieu_tra_cua", "treo_tranh_tra_cua")
        )
        live = h.live
        if pl is None or live is None:
            return False
        if pl.kind == "treo_tranh_chiu_khong_ha_du":
            k = self.rng.choice((1, 2))
            self.emit({"type": "chiu", "seat": q, "tile": x, "from": live.owner, "with": [x] * k})
            pl.done = True  # the finding comes at q's next draw or eat (labelled by emit)
            return True
        if pl.kind == "chiu_thieu_tra_cua":
            if h.stock_left <= self.limit + 1:
                return False
            self.emit({"type": "chiu", "seat": q, "tile": x, "from": live.owner, "with": [x] * 3})
            req = h.chiu_required if h.chiu_required is not None else q
            nxt = h.nxt(req)
            pl.done = True
            self.emit({"type": "draw", "seat": nxt, "tile": h.next_card()})
            self.claims()
            return True
        # treo_tranh_tra_cua: the chíu itself is clean; the trả cửa goes astray
        pl.memo["owner"] = live.owner
        self.emit({"type": "chiu", "seat": q, "tile": x, "from": live.owner, "with": [x] * 3})
        return True


# -- the record's result -----------------------------------------------------------------


def hand_result(sim: ChanHandSim) -> dict[str, Any]:
    """The result as a scorer at the table would record it: the engine's settlement."""
    h = sim.hand
    h.finish(len(h.record["events"]) - 1)
    rep = report_fields(h, report_base(sim.record))
    out: dict[str, Any] = {"winners": list(rep["winners"])}
    if rep["fan"] is not None:
        out["fan"] = rep["fan"]
        out["patterns"] = list(rep["extras"]["declared"])
    if rep["deltas"] is not None:
        out["deltas"] = [points(d) for d in rep["deltas"]]
    pens = _effective_penalties(h)
    if pens:
        out["penalties"] = [{"seat": s, "code": c} for s, c in pens]
    return out


# -- deal and sittings ---------------------------------------------------------------------

DECK: tuple[str, ...] = tuple(c for c in CARDS for _ in range(4))


def cai_dealer(giver: int, card: str, n: int, opts: ChanOptions) -> int:
    """§3.1 step 4: count the cái card's rank round the table from the giver."""
    k = opts.cai_cc_counts_as if card == CC else rank(card)
    return (giver + k - 1) % n


def layout(dealer: int, n: int) -> list[range]:
    """Deck positions of each seat's hand: the dealer's pile (with the cái card first)."""
    spans: list[range] = [range(0)] * n
    pos = 0
    for k in range(n):
        seat = (dealer + k) % n
        size = 20 if seat == dealer else 19
        spans[seat] = range(pos, pos + size)
        pos += size
    return spans


def rig(
    deck: list[str],
    spans: list[range],
    seat: int,
    hand_cards: list[str],
    wall_cards: list[str],
    rng: random.Random,
) -> None:
    """Deal ``seat`` the ``hand_cards`` and put ``wall_cards`` among the first nọc cards.

    Cards are swapped with other deck positions, so the deck stays a permutation of the
    100 cards; position 0 (the cái card, already counted out) never moves.
    """
    mine = [q for q in spans[seat] if q != 0]
    wall_start = sum(len(s) for s in spans)
    slots = rng.sample(mine, len(hand_cards)) + rng.sample(
        range(wall_start, wall_start + 6), len(wall_cards)
    )
    fixed: set[int] = set()
    for t, card in zip(slots, [*hand_cards, *wall_cards], strict=True):
        if deck[t] != card:
            src = next((q for q in range(1, len(deck)) if deck[q] == card and q not in fixed), None)
            if src is None:
                continue
            deck[t], deck[src] = deck[src], deck[t]
        fixed.add(t)


def rig_chiu(deck: list[str], spans: list[range], rng: random.Random, n: int) -> None:
    """Three copies of a card for one seat, the fourth early in the nọc (§5.4)."""
    x = rng.choice([c for c in CARDS if c != deck[0]])
    rig(deck, spans, rng.randrange(n), [x, x, x], [x], rng)


def rig_chi_rong(deck: list[str], spans: list[range], rng: random.Random, n: int) -> int:
    """Seven chắn and a chi chi for one seat, two more chi chi early in the nọc (§4.2)."""
    pairs = rng.sample([c for c in CARDS if c not in (CC, deck[0])], 7)
    seat = rng.randrange(n)
    rig(deck, spans, seat, [CC, *pairs, *pairs], [CC, CC], rng)
    return seat


class ChanTable(core.Table):
    """One evening: the cái giver follows §3.1 (the winner, else the next player)."""

    minutes, per_event = 3, 0.06
    slips = SLIPS

    def setup(self) -> None:
        self.mode_4_11 = self.rng.random() < SHARE_4_11
        self.rec_opts = {"mode_4_11": True} if self.mode_4_11 else {}
        self.opts = options_for(self.rec_opts)
        self.giver = self.sitting.first_dealer
        self.previous: dict[str, Any] | None = None
        self.hands = self.rng.randint(*HANDS_PER_SITTING)

    def deal(self, hand_no: int, at: datetime) -> ChanHandSim:
        rng, n = self.rng, self.n
        plant = make_plant(rng, self.rate, self.mode_4_11, hand_no)
        deck = list(DECK)
        rng.shuffle(deck)
        if plant is not None and plant.kind == "sai_nguoi_bat_cai":
            self.giver = (self.giver + rng.randrange(1, n)) % n  # the wrong player bốc cái
            plant.memo["expect"] = self.giver
        dealer = cai_dealer(self.giver, deck[0], n, self.opts)
        if plant is not None and plant.kind == "sai_cai":
            dealer = (dealer + rng.randrange(1, n)) % n  # the wrong seat takes the cái pile
            plant.memo["expect"] = dealer
        spans = layout(dealer, n)
        if plant is not None and plant.kind in NEEDS_CHIU:
            rig_chiu(deck, spans, rng, n)
        elif plant is not None and plant.kind == "u_chi_rong":
            plant.memo["keeps_cc"] = rig_chi_rong(deck, spans, rng, n)
        wall_start = sum(len(s) for s in spans)
        record: Record = {
            **core.record_head(self.sitting, hand_no, at, dealer),
            "cai": {"giver": self.giver, "tile": deck[0]},
            "start_hands": [[deck[q] for q in spans[s]] for s in range(n)],
            "wall": deck[wall_start:],
            "events": [],
        }
        if self.rec_opts:
            record["options"] = dict(self.rec_opts)
        if self.previous is not None:
            record["previous_hand"] = dict(self.previous)
        bots = [cast(ChanBot, self.sim.make_bot(m.style, rng)) for m in self.sitting.members]
        return ChanHandSim(record, self.opts, bots, rng, plant)

    def result(self, hs: ChanHandSim) -> tuple[Record, bool]:
        plant = hs.plant
        return hand_result(hs), plant is not None and plant.kind == SLIPS.scenario

    def check(self, record: Record, labels: list[Label]) -> None:
        check_replay(record, labels)

    def next_hand(self, hs: ChanHandSim, result: Record) -> bool:
        """§3.1: the next giver is this hand's winner (a false ù counts as a draw)."""
        h = hs.hand
        win = h.wins[0] if h.wins else None
        outcome = h.outcome()
        void = outcome.void if outcome is not None and win is not None else None
        drawn_first = h.forced_draw_at is not None and (win is None or win.index > h.forced_draw_at)
        winner = None if win is None or drawn_first else win.seat
        giver = self.giver
        self.previous = {
            "winner": winner, "void": void if winner is not None else None, "giver": giver
        }  # fmt: skip
        self.giver = winner if winner is not None and void != "U_LAO" else (giver + 1) % self.n
        return True


def check_replay(record: Record, labels: list[Label]) -> None:
    """The plug-in's replay of the finished record reports exactly the labels."""
    rep = replay_chan(record)
    got = Counter((f.event_index, f.code, f.seat) for f in rep.findings if f.cls in SERIOUS)
    want = Counter((lab.event_index, lab.code, lab.seat) for lab in labels)
    if got != want:
        raise SimulationError(
            f"{record['game_id']} hand {record['hand_no']}: the replay reports "
            f"{sorted(got.elements(), key=str)}, the labels say {sorted(want.elements(), key=str)}"
        )


_VENUES = (
    core.Venue("Chiếu Chắn Hàng Bạc", 7, ("Chiếu 1", "Chiếu 2", "Chiếu 3", "Chiếu 4")),
    core.Venue("Câu lạc bộ Bí Tứ Kim Mã", 7, ("Bàn 1", "Bàn 2", "Bàn 3")),
    core.Venue("Chắn Vạn Văn", 7, tuple(f"Phòng {i}" for i in range(1, 13))),
)

core.register(
    core.RulesetSimulator("chan", N_PLAYERS, _VENUES, Style.random, ChanBot, ChanTable, MENU_4_11)
)
