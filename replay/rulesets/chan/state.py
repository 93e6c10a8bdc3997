"""The chắn table state and its turn machine (chan.md §2-§6, checklist §11).

:class:`ChanHand` holds one hand's state and applies one event at a time
(:meth:`ChanHand.step`), emitting findings with the §11 codes. The state is private to one
replay (mutated in place, like the HK engine); the rules it applies are the pure functions
of :mod:`replay.chan.combos`, :mod:`replay.chan.cuoc`, :mod:`replay.chan.declaration`,
:mod:`replay.chan.history` and :mod:`replay.chan.settlement`.

Simulator API (read-only queries a bot may call between events; seats are indices):

* ``hand.concealed(p)`` -> ``Counter`` of H(p); ``hand.exposed_of(p)`` -> E(p) as
  :class:`~replay.chan.combos.Exposed`; ``hand.rows[p]`` -> D(p), top last;
  ``hand.stock_left``; ``hand.live`` (:class:`Live` or None); ``hand.turn`` and
  ``hand.phase`` (``opening``, ``turn`` = must eat the cửa trên card or draw, ``drawn`` =
  must eat the drawn card or pass, ``must_discard``, ``chiu_discard``, ``ended``).
* ``hand.cua_tren(p)`` -> the live cửa trên card of p, or None.
* ``hand.eat_options(p)`` -> [:class:`EatOption`]: every (card, with) p may eat now, each
  with the codes the eat would trigger (empty = clean; the mandatory chíu and
  chắn-before-cạ choices of §5.3 show up as ``TREO_TRANH_*``).
* ``hand.chiu_options(p)`` -> the live card if p holds its 3 copies (else None).
* ``hand.win_check(p)`` -> :class:`WinCheck` or None: whether p may win on the live card (or
  thiên ù), ``via``, the cước present and the best total ``auto_value``.
* ``hand.wait(p)`` -> WS of p's 19-card holding (§4.1).
* ``hand.legal_events(p)`` -> the mjlog/1 events p may record now (win, chíu, draw, pass,
  eat, discard); ``hand.next_card()`` -> the top nọc card when the record has a ``wall``.
* Display: :func:`replay.chan.cards.card_name` / ``display`` / ``is_red``;
  :func:`replay.chan.combos.arrange` splits a hand into chắn, cạ and què.
* ``hand.out``, ``hand.barred``, ``hand.cannot_win``: seats that may not win.

A driver builds events as mjlog/1 dicts and calls ``hand.step(index, event)``; a
:class:`Stop` means the event was impossible (CORRUPT_LOG).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandFindings, Stop
from mjaudit.parts.replay.rulesets.chan import history as hist
from mjaudit.parts.replay.rulesets.chan.cards import CARDS, CC, is_ca, is_card, is_pair, rank
from mjaudit.parts.replay.rulesets.chan.combos import (
    Exposed,
    copied,
    is_bach_thu,
    is_bach_thu_chi,
    is_chi_rong,
    is_win,
    is_win_with,
    max_chan,
    plus,
    win_set,
)
from mjaudit.parts.replay.rulesets.chan.cuoc import (
    Score,
    WinFacts,
    auto_value,
    detect,
    score,
    table_for,
)
from mjaudit.parts.replay.rulesets.chan.declaration import (
    Declaration,
    parse_claim,
    valid_part,
    wrong_reasons,
)
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions
from mjaudit.parts.replay.rulesets.chan.settlement import Outcome, Settlement, settle

OPENING, TURN, DRAWN, MUST_DISCARD, CHIU_DISCARD, ENDED = (
    "opening",
    "turn",
    "drawn",
    "must_discard",
    "chiu_discard",
    "ended",
)
# The event types :meth:`ChanHand.legal_events` lists.
_EVENT_KINDS = frozenset(
    ("win", "chiu", "khai", "draw", "exhaustive_draw", "pass", "eat", "discard")
)
STOCK_SIZE = 23
ERRORS_1_9 = (
    "BO_AN_CHAN",
    "AN_CHON_CA",
    "DANH_CA_CHAN",
    "XE_CHAN",
    "TACH_CHAN_AN_CA",
    "AN_CHAN_XE_CHAN",
    "AN_CA_DANH_CA",
    "XE_CA_AN_CA",
    "TACH_CA_AN_CA",
)
TREO_TRANH = (
    "TREO_TRANH_TRA_CUA",
    "TREO_TRANH_CHIU_KHONG_HA_DU",
    "TREO_TRANH_KHONG_CHIU",
    "TREO_TRANH_AN_CA_THAY_CHAN",
    "TRAI_VI",
)
REPORTABLE = (*ERRORS_1_9, "AN_CA_DOI_CHO", *TREO_TRANH)
WIN_CODES = ("BO_U", "U_LAO", "U_CHI_RONG", "U_4_11_THIEU_DIEM", "XUONG_SAI")

C, V, INFO = FindingClass.CORRUPT_LOG, FindingClass.PLAYER_VIOLATION, FindingClass.INFO


class Live(msgspec.Struct, frozen=True, gc=False):
    """The live card (§5.5): ``owner`` is the cửa it lies on, ``kind`` draw or discard.
    (A C-built struct: one is made at every draw and discard.)"""

    card: str
    owner: int
    kind: str
    index: int
    by: int


@dataclass(frozen=True)
class EatOption:
    card: str
    with_: str
    from_: int
    codes: tuple[str, ...]


@dataclass(frozen=True)
class WinCheck:
    seat: int
    via: str
    tile: str
    from_: int | None
    present: Counter[str]
    auto_value: int


@dataclass
class WinEval:
    """One ``win`` event, judged (§10.6-§10.8, §9)."""

    index: int
    seat: int
    tile: str
    via: str
    decl: Declaration
    declared: Score
    present: Counter[str] | None
    auto: int
    valid_value: int
    void: str | None
    case_i: str | None = None  # code of a rule 5(c)/9(c) error completed by the win
    reasons: tuple[str, ...] = ()
    source: Live | None = None  # the live card won on (None for thiên ù)


@dataclass
class ChanHand(HandFindings):
    record: dict[str, Any]
    opts: ChanOptions
    previous_hand: Mapping[str, Any] | None = None
    findings: list[Finding] = field(default_factory=list)

    def __post_init__(self) -> None:
        rec = self.record
        self.n = len(rec["players"])
        self.dealer: int = rec["dealer"]
        self.hands: list[Counter[str]] = [Counter() for _ in range(self.n)]
        self.dealt: list[Counter[str]] = [Counter() for _ in range(self.n)]
        self.exposed: list[list[Exposed]] = [[] for _ in range(self.n)]
        self.rows: list[list[str]] = [[] for _ in range(self.n)]
        self.hist = [hist.PlayerHistory() for _ in range(self.n)]
        self.wall: list[str] | None = None
        self.drawn = 0
        self.placed: Counter[str] = Counter()
        self.live: Live | None = None
        self.turn = self.dealer
        self.phase = OPENING
        self.acted = False  # the turn player has drawn or eaten this turn
        self.chiu_actor: int | None = None
        self.chiu_required: int | None = None
        self.chiu_card: str | None = None
        self.short_chiu: dict[int, tuple[str, int]] = {}  # seat -> (card, event)
        self.chiu_count = [0] * self.n
        self.draw_count = [0] * self.n
        self.first_draw: list[int | None] = [None] * self.n
        self.dealer_turns = 0  # dealer's turns after the opening (first-round test)
        self.out: dict[int, tuple[int, str]] = {}  # seat -> (event, code): caught errors 1-10
        self.caught_order: list[tuple[int, int, str]] = []  # (event, seat, code) errors 1-9
        self.doi_cho: list[int] = []
        self.barred: dict[int, int] = {}
        self.win_opp: dict[int, int] = {}
        self.cannot_win: dict[int, str] = {}
        self.zero: dict[int, str] = {}  # seat -> treo tranh / trái vỉ code (effective)
        self.pending: list[tuple[int, int, str]] = []  # reported_only: (event, seat, code)
        self.wins: list[WinEval] = []
        self.void_wins: list[WinEval] = []
        self.ended_by = "unfinished"
        self.stopped = False
        self.forced_draw_at: int | None = None
        self.first_discard_done = False
        self.last_index = -1
        self.partial = False  # no start_hands: hands unknown, public checks only

    # ------------------------------------------------------------------ findings

    def who(self, seat: int) -> str:
        """The player at ``seat``, for messages a referee reads."""
        players = self.record.get("players", [])
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"

    def _cannot_win(self, i: int, seat: int, code: str, msg: str) -> None:
        self.viol(i, seat, code, msg)
        self.cannot_win.setdefault(seat, code)

    def _reportable(self, i: int, seat: int, code: str, msg: str) -> None:
        """Errors 1-10, treo tranh, trái vỉ: applied now (auto) or when reported (§10.9)."""
        already = seat in self.out
        self.viol(i, seat, code, msg + (" (already out: no further effect)" if already else ""))
        if self.opts.reported_only:
            self.pending.append((i, seat, code))
        elif not already:
            self._apply(i, seat, code)

    def _apply(self, i: int, seat: int, code: str) -> None:
        if code in TREO_TRANH:
            self.zero.setdefault(seat, code)
        elif code == "AN_CA_DOI_CHO":
            if seat not in self.out:
                self.out[seat] = (i, code)
                self.doi_cho.append(seat)
        elif code in ERRORS_1_9 and seat not in self.out:
            self.out[seat] = (i, code)
            self.caught_order.append((i, seat, code))

    # ------------------------------------------------------------------ seats

    def _skips(self, q: int) -> bool:
        return self.opts.reported_only and q in self.out

    def nxt(self, p: int) -> int:
        q = (p + 1) % self.n
        while self._skips(q) and q != p:
            q = (q + 1) % self.n
        return q

    def prv(self, p: int) -> int:
        q = (p - 1) % self.n
        while self._skips(q) and q != p:
            q = (q - 1) % self.n
        return q

    # ------------------------------------------------------------------ queries

    def concealed(self, p: int) -> Counter[str]:
        return Counter(self.hands[p])

    def exposed_of(self, p: int) -> tuple[Exposed, ...]:
        return tuple(self.exposed[p])

    def holding(self, p: int) -> int:
        n = sum(self.hands[p].values())
        for e in self.exposed[p]:
            n += len(e.cards)
        return n

    @property
    def stock_left(self) -> int:
        return STOCK_SIZE - self.drawn

    def cua_tren(self, p: int) -> str | None:
        live = self.live
        if live is not None and live.owner == self.prv(p):
            return live.card
        return None

    def wait(self, p: int) -> frozenset[str]:
        return win_set(self.hands[p], self.exposed[p])

    def may_win(self, p: int) -> bool:
        return p not in self.out and p not in self.barred and p not in self.cannot_win

    def eat_options(self, p: int) -> list[EatOption]:
        """What p may eat now (its turn): the cửa trên card before drawing, or its draw."""
        live = self.live
        if live is None or self.turn != p:
            return []
        if self.phase == TURN and live.owner == self.prv(p):
            frm = live.owner
        elif self.phase == DRAWN and live.owner == p and live.kind == "draw":
            frm = p
        else:
            return []
        hand = self.hands[p]
        out = []
        for y in sorted(c for c in hand if hand[c] and is_pair(live.card, c)):
            codes = list(self._eat_rule_codes(p, live.card, y))
            out.append(EatOption(live.card, y, frm, tuple(codes)))
        return out

    def _eat_rule_codes(self, p: int, x: str, y: str) -> list[str]:
        hand = self.hands[p]
        codes = []
        if hand[x] >= 3:
            codes.append("TREO_TRANH_KHONG_CHIU")
        if hand[x] and y != x:
            codes.append("TREO_TRANH_AN_CA_THAY_CHAN")
        # The history rules (1, 2, 4, 5, 7, 8, 9) exactly as the replay will judge the eat:
        # on a copy of p's history, so asking changes nothing.
        trial = copy.deepcopy(self.hist[p])
        codes.extend(
            code for code, _ in hist.on_eat(trial, x, y, Counter(hand), self.dealt[p], self.opts)
        )
        return codes

    def chiu_options(self, p: int) -> str | None:
        live = self.live
        if live is not None and self.hands[p][live.card] >= 3:
            return live.card
        return None

    def win_check(self, p: int) -> WinCheck | None:
        """p's win opportunity now (§10.1), with the cước present and the true value."""
        if not self.may_win(p):
            return None
        if self.phase == OPENING and p == self.dealer and is_win(self.hands[p], self.exposed[p]):
            facts = self._facts(p, None, "deal", None)
            present = detect(facts, self.opts)
            cai = self.record.get("cai")
            nominal = cai.get("tile") if isinstance(cai, Mapping) else None
            if nominal is None or not self.hands[p][nominal]:
                nominal = min(self.hands[p])  # any card of the dealer's hand (§6)
            return WinCheck(p, "deal", nominal, None, present, auto_value(present, self.opts))
        live = self.live
        if live is None or self.holding(p) != 19:
            return None
        via = "chiu" if self.hands[p][live.card] >= 3 else "stock"
        if via == "stock" and live.kind != "draw":
            return None
        if not is_win_with(self.hands[p], live.card, self.exposed[p]):
            return None
        facts = self._facts(p, live.card, via, live)
        present = detect(facts, self.opts)
        frm = None if live.owner == p else live.owner
        return WinCheck(p, via, live.card, frm, present, auto_value(present, self.opts))

    def legal_events(self, p: int, kinds: Collection[str] | None = None) -> list[dict[str, Any]]:
        """Every event p may record now without a CORRUPT_LOG finding (for a simulator);
        only those of the types ``kinds`` when given (a driver whose bot has chosen what
        to do asks for just that: the win and eat tests are the costly part).

        Eats that would be violations are included (a bot may choose to commit one); use
        :meth:`eat_options` to see their codes. Discards list each distinct card once; a
        thiên khai (§3.3) lists each quad held on one's own turn.
        """
        out: list[dict[str, Any]] = []
        if self.phase == ENDED:
            return out
        wanted = _EVENT_KINDS if kinds is None else kinds
        check = self.win_check(p) if "win" in wanted else None
        if check is not None:
            ev: dict[str, Any] = {"type": "win", "seat": p, "tile": check.tile, "via": check.via}
            if check.from_ is not None:
                ev["from"] = check.from_
            if check.via == "chiu":
                ev["with"] = [check.tile] * 3
            out.append(ev)
        live = self.live
        card = self.chiu_options(p) if "chiu" in wanted else None
        if card is not None and live is not None:
            out.append(
                {"type": "chiu", "seat": p, "tile": card, "from": live.owner, "with": [card] * 3}
            )
        mine = self.turn == p
        if mine and "khai" in wanted:
            hand = self.hands[p]
            out += [{"type": "khai", "seat": p, "tile": c} for c in sorted(hand) if hand[c] == 4]
        if mine and self.phase == TURN:
            if self.stock_left > (1 if self.opts.last_stock_card_dead else 0):
                out.append({"type": "draw", "seat": p, "tile": self.next_card() or "?"})
            else:
                out.append({"type": "exhaustive_draw"})  # §5.6: the turn player must draw
        if mine and self.phase == DRAWN:
            out.append({"type": "pass", "seat": p})
        if "eat" in wanted:
            for opt in self.eat_options(p):
                out.append(
                    {
                        "type": "eat",
                        "seat": p,
                        "tile": opt.card,
                        "from": opt.from_,
                        "with": opt.with_,
                    }
                )
        discarding = (mine and self.phase in (MUST_DISCARD, OPENING)) or (
            self.phase == CHIU_DISCARD and self.chiu_actor == p
        )
        if discarding:
            for c in sorted(self.hands[p]):
                out.append({"type": "discard", "seat": p, "tile": c})
        return out if kinds is None else [e for e in out if e["type"] in kinds]

    def next_card(self) -> str | None:
        """The top nọc card when the record has a ``wall`` (None when unknown)."""
        if self.wall is None or self.drawn >= len(self.wall):
            return None
        return self.wall[self.drawn]

    # ------------------------------------------------------------------ start

    def deal_admits(self, index: int, ev: dict[str, Any]) -> bool:
        """Would the deal raise what it raised with ``ev`` recorded at ``index`` as well?
        Always: it reads none of the events (the header only: the hands, the cái card and the previous hand), so
        the live service need not deal again (service/stepper.py)."""
        return True

    def start(self) -> None:
        rec = self.record
        n = self.n
        if rec.get("format", "mjlog/1") != "mjlog/1" or rec.get("ruleset") != "chan":
            self.hard(None, None, "RECORD_INVALID", "the record is not an mjlog/1 chan hand")
        if len(set(rec["players"])) != n:
            self.hard(None, None, "RECORD_INVALID", "players are not distinct")
        if "players" in rec.get("options", {}) and rec["options"]["players"] != n:
            self.hard(None, None, "RECORD_INVALID", "option players differs from the log's players")
        if n not in (2, 3, 4):
            self.hard(None, None, "RECORD_INVALID", f"{n} players: chan is played by 2-4 (§2)")
        if not 0 <= self.dealer < n:
            self.hard(None, None, "RECORD_INVALID", f"dealer {self.dealer} is not a seat")
        hands = rec.get("start_hands")
        wall = rec.get("wall")
        for name, cards in (
            ("start_hands", [c for h in hands or [] for c in h]),
            ("wall", wall or []),
        ):
            for c in cards:
                if not is_card(c):
                    self.hard(None, None, "UNKNOWN_CARD", f"{name} holds {c!r}, not a chắn card")
        if hands is None:
            self._start_partial(wall)
            return
        if len(hands) != n:
            self.hard(None, None, "DEAL_INVALID", f"{len(hands)} start hands for {n} players")
        for p, h in enumerate(hands):
            want = 20 if p == self.dealer else 19
            if len(h) != want:
                self.hard(
                    None, p, "DEAL_INVALID", f"seat {p} is dealt {len(h)} cards, expected {want}"
                )
            self.hands[p] = Counter(h)
            self.dealt[p] = Counter(h)
        total = Counter(c for h in hands for c in h) + Counter(wall or [])
        over = sorted(c for c in total if total[c] > 4)
        if over:
            code = "DEAL_INVALID" if wall is not None else "CARD_COUNT_EXCEEDED"
            self.hard(None, None, code, f"more than 4 copies of {', '.join(over)} in the deal")
        if wall is not None:
            if len(wall) != STOCK_SIZE:
                self.hard(None, None, "DEAL_INVALID", f"the nọc has {len(wall)} cards, expected 23")
            if n == 4 and sum(total.values()) != 100:
                self.hard(None, None, "DEAL_INVALID", "hands and nọc are not the 100 cards")
            self.wall = list(wall)
        self.placed = Counter(c for h in hands for c in h)
        self._check_cai()
        if is_win(self.hands[self.dealer]):
            self.win_opp[self.dealer] = -1  # thiên ù is possible before the first discard

    def _start_partial(self, wall: list[str] | None) -> None:
        """No ``start_hands``: only what the public actions show is checked (§11, end)."""
        self.info(
            None,
            None,
            "PARTIAL_INFORMATION",
            "no start_hands: concealed cards are unknown; only public actions are checked and "
            "the win is settled on its declared cước",
        )
        self.partial = True
        if wall is not None:
            over = sorted(c for c, k in Counter(wall).items() if k > 4)
            if len(wall) != STOCK_SIZE or over:
                self.hard(None, None, "DEAL_INVALID", "the nọc is not 23 cards of the deck")
            self.wall = list(wall)
        self._check_cai()

    def _check_cai(self) -> None:
        """#6 DEAL_INVALID, #7 SAI_CAI, #8 SAI_NGUOI_BAT_CAI."""
        cai = self.record.get("cai")
        if not isinstance(cai, Mapping):
            return
        card, giver = cai.get("tile"), cai.get("giver")
        if card is not None:
            if not is_card(card):
                self.hard(None, None, "UNKNOWN_CARD", f"cai.tile {card!r} is not a chắn card")
            if not self.partial and not self.dealt[self.dealer][card]:
                self.hard(
                    None,
                    self.dealer,
                    "DEAL_INVALID",
                    f"the cái card {card} is not in the dealer's hand",
                )
        if isinstance(giver, int) and card is not None:
            n_ = self.opts.cai_cc_counts_as if card == CC else rank(card)
            expected = (giver + n_ - 1) % self.n
            if expected != self.dealer:
                self.viol(
                    None,
                    self.dealer,
                    "SAI_CAI",
                    f"cái {card} from giver {giver} reaches seat {expected}, but the dealer is {self.dealer}",
                )
        ph = self.previous_hand
        if isinstance(giver, int) and ph is not None and "winner" in ph:
            winner = ph["winner"]
            expected_g: int | None = None
            if winner is not None and "void" in ph and ph["void"] != "U_LAO":
                expected_g = winner
            elif (winner is None or ph.get("void") == "U_LAO") and isinstance(ph.get("giver"), int):
                expected_g = (ph["giver"] + 1) % self.n
            if expected_g is not None and expected_g != giver:
                self.viol(
                    None,
                    giver,
                    "SAI_NGUOI_BAT_CAI",
                    f"the cái giver is seat {giver}, expected seat {expected_g} (§3.1)",
                )

    # ------------------------------------------------------------------ events

    def step(self, i: int, ev: dict[str, Any]) -> None:
        self.last_index = i
        kind = ev.get("type")
        if self.phase == ENDED:
            if kind == "announce":
                self.on_announce(i, ev)
                return
            self.hard(i, ev.get("seat"), "EVENT_AFTER_END", f"{kind} after the end of the hand")
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            self.hard(i, ev.get("seat"), "RECORD_INVALID", f"unknown chan event {kind!r}")
        seat = ev.get("seat")
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            self.hard(i, None, "RECORD_INVALID", f"seat {seat!r} is not a seat")
        for key in ("tile",):
            if key in ev and not is_card(ev[key]):
                self.hard(i, seat, "UNKNOWN_CARD", f"{ev[key]!r} is not a chắn card")
        for key in ("with", "tiles"):
            cards = ev.get(key)
            cards = [cards] if isinstance(cards, str) else (cards or [])
            for c in cards:
                if not is_card(c):
                    self.hard(i, seat, "UNKNOWN_CARD", f"{c!r} is not a chắn card")
        if seat is not None and kind not in ("announce", "decline_u"):
            if self.opts.reported_only and seat in self.out:
                self.viol(
                    i, seat, "HANH_DONG_KHI_DA_BI_BAO", f"{self.who(seat)} acts after being caught"
                )
            actor = self.chiu_actor
            skipped = actor is not None and self.phase == CHIU_DISCARD
            if skipped and (seat != actor or kind not in ("discard", "expose")):
                assert actor is not None
                self._cannot_win(
                    i,
                    actor,
                    "CHIU_THIEU_TRA_CUA",
                    "after a chíu the next action must be the trả cửa discard",
                )
                # play goes on as the log shows it: the turn passes on from the required cửa
                req = self.chiu_required if self.chiu_required is not None else actor
                self.chiu_actor = self.chiu_required = None
                self.turn, self.phase, self.acted = self.nxt(req), TURN, False
        handler(i, ev)

    def _take(self, i: int, seat: int, card: str) -> None:
        if self.partial:  # the card is revealed from an unknown hand
            self.placed[card] += 1
            if self.placed[card] > 4:
                self.hard(i, seat, "CARD_COUNT_EXCEEDED", f"a fifth {card} is shown")
            return
        if self.hands[seat][card] < 1:
            self.hard(i, seat, "CARD_NOT_IN_HAND", f"{self.who(seat)} has no {card} in hand")
        hand = self.hands[seat]
        hand[card] -= 1
        if not hand[card]:
            hand.pop(card)  # (a Counter's del is Python-level)

    def _place(self, i: int, owner: int, card: str, kind: str, by: int) -> None:
        self.rows[owner].append(card)
        self.live = Live(card, owner, kind, i, by)
        self._win_opportunities(i)

    def _take_live(self, i: int, owner: int, card: str) -> None:
        self.rows[owner].pop()
        self.live = None

    def _win_opportunities(self, i: int) -> None:
        """§10.1 win opportunities on the new live card, for BO_U (§10.6)."""
        live = self.live
        assert live is not None
        if self.partial:
            return
        for p in range(self.n):
            if not self.may_win(p) or p in self.win_opp or self.holding(p) != 19:
                continue
            if live.kind != "draw" and self.hands[p][live.card] < 3:
                continue
            if is_win_with(self.hands[p], live.card, self.exposed[p]):
                self.win_opp[p] = i

    def _begin_action(self, i: int, seat: int) -> None:
        """Checks at a seat's first draw or eat of a turn (#31)."""
        short = self.short_chiu.pop(seat, None)
        if short is not None:
            card, at = short
            self._reportable(
                i,
                seat,
                "TREO_TRANH_CHIU_KHONG_HA_DU",
                f"the chíu of {card} at #{at} is still not fully exposed",
            )

    def on_discard(self, i: int, ev: dict[str, Any]) -> None:
        seat, card = ev["seat"], ev["tile"]
        before = copied(self.hands[seat])
        exposed = list(self.exposed[seat])
        self._take(i, seat, card)
        to = ev.get("to")
        required = seat
        trả_cửa = self.phase == CHIU_DISCARD and self.chiu_actor == seat
        in_turn = (
            (self.phase == MUST_DISCARD and self.turn == seat)
            or (self.phase == OPENING and seat == self.dealer)
            or trả_cửa
        )
        if trả_cửa:
            required = self.chiu_required if self.chiu_required is not None else seat
        if not in_turn:
            self._cannot_win(
                i,
                seat,
                "DANH_SAI_LUOT",
                f"{self.who(seat)} discards {card} without having eaten this turn",
            )
        if to is None:
            to = required
        if not (isinstance(to, int) and 0 <= to < self.n):
            self.hard(i, seat, "RECORD_INVALID", f"discard to {to!r} is not a seat")
        if to != required:
            self._reportable(
                i,
                seat,
                "TREO_TRANH_TRA_CUA",
                f"discards into seat {to}'s cửa, the rule requires seat {required}'s",
            )
        for code, msg in hist.on_discard(self.hist[seat], card, before, self.opts):
            self._reportable(i, seat, code, msg)
        self._doi_cho(i, seat)
        self._chi_rong_chance(i, seat, before, exposed, card)
        self.first_discard_done = True
        self.chiu_actor = None
        self.chiu_required = None
        self.turn = self.nxt(to)
        self.phase = TURN
        self.acted = False
        self._place(i, to, card, "discard", seat)

    def _doi_cho(self, i: int, seat: int) -> None:
        """Error 10 (§10.5): the discard after a cạ eat changed a ready wait."""
        h = self.hist[seat]
        before = h.doi_cho
        h.doi_cho = None
        if before is None or not self.opts.rule_an_ca_doi_cho:
            return
        after = win_set(self.hands[seat], self.exposed[seat])
        if after and after != before:
            self._reportable(
                i,
                seat,
                "AN_CA_DOI_CHO",
                f"cạ eat changed the wait from {' '.join(sorted(before))} to {' '.join(sorted(after))}",
            )

    def _chi_rong_chance(
        self, i: int, seat: int, before: Counter[str], exposed: list[Exposed], card: str
    ) -> None:
        """U_CHI_RONG bookkeeping (§10.6 #12): K − CC ready while K − card is chi rộng."""
        if before[CC] < 1 or card == CC:
            return
        k_minus_cc = Counter(before)
        k_minus_cc[CC] -= 1
        if not win_set(k_minus_cc, exposed):
            return
        if is_chi_rong(self.hands[seat], self.exposed[seat]):
            self.hist[seat].chi_rong_chance = i

    def on_draw(self, i: int, ev: dict[str, Any]) -> None:
        seat, card = ev["seat"], ev["tile"]
        if self.stock_left <= 0:
            self.hard(i, seat, "STOCK_EXHAUSTED", "draw from an empty nọc")
        if self.wall is not None and self.wall[self.drawn] != card:
            self.hard(
                i,
                seat,
                "STOCK_MISMATCH",
                f"drew {card}, the top of the nọc is {self.wall[self.drawn]}",
            )
        if self.wall is None and self.placed[card] >= 4:
            self.hard(i, seat, "CARD_COUNT_EXCEEDED", f"a fifth {card}")
        if self.opts.last_stock_card_dead and self.stock_left == 1 and self.forced_draw_at is None:
            self.viol(
                i,
                seat,
                "BOC_QUAN_NOC_CHET",
                "drew the dead last card of the nọc: the hand is a draw",
            )
            self.forced_draw_at = i
        if self.phase != TURN or self.turn != seat:
            self._cannot_win(i, seat, "BOC_SAI_LUOT", f"{self.who(seat)} draws out of turn")
        else:
            live = self.live
            if live is not None and live.owner == self.prv(seat) and seat not in self.out:
                hist.decline(self.hist[seat], live.card, i, self.hands[seat])  # #18
        self._begin_action(i, seat)
        if seat in self.win_opp and self.win_opp[seat] < i and self.may_win(seat):
            self.barred[seat] = i  # BO_U window closes at the player's own next draw
        self.win_opp.pop(seat, None)
        self.drawn += 1
        self.placed[card] += 1
        self.draw_count[seat] += 1
        if self.first_draw[seat] is None:
            self.first_draw[seat] = i
        if seat == self.dealer:
            self.dealer_turns += 1
        self.turn = seat
        self.phase = DRAWN
        self.acted = True
        self._place(i, seat, card, "draw", seat)

    def on_pass(self, i: int, ev: dict[str, Any]) -> None:
        seat = ev["seat"]
        live = self.live
        if self.phase != DRAWN or self.turn != seat or live is None or live.owner != seat:
            self.hard(
                i, seat, "PASS_WITHOUT_DRAW", f"{self.who(seat)} passes without having just drawn"
            )
        if seat not in self.out:
            hist.decline(self.hist[seat], live.card, i, self.hands[seat])
        self.turn = self.nxt(seat)
        self.phase = TURN
        self.acted = False

    def on_eat(self, i: int, ev: dict[str, Any]) -> None:
        seat, card, frm = ev["seat"], ev["tile"], ev.get("from")
        with_ = ev.get("with")
        if isinstance(with_, list):
            if len(with_) != 1:
                self.hard(i, seat, "RECORD_INVALID", "eat takes exactly one hand card in `with`")
            with_ = with_[0]
        if not is_card(with_):
            self.hard(i, seat, "RECORD_INVALID", "eat without a `with` card")
        live = self.live
        ok_source = (
            live is not None
            and live.card == card
            and live.owner == frm
            and (frm == self.prv(seat) or (frm == seat and live.kind == "draw"))
        )
        if not ok_source:
            self.hard(
                i,
                seat,
                "EAT_SOURCE_MISMATCH",
                f"{card} from seat {frm} is not a card seat {seat} can eat now",
            )
        assert live is not None
        want_phase = DRAWN if frm == seat else TURN
        if self.turn != seat or self.phase != want_phase:
            self._cannot_win(i, seat, "AN_SAI_LUOT", f"{self.who(seat)} eats out of turn")
        before = copied(self.hands[seat])
        self._take(i, seat, with_)
        if not is_pair(card, with_):
            self._cannot_win(
                i, seat, "AN_KHONG_THANH_CAP", f"{card} {with_} is neither a chắn nor a cạ"
            )
        if before[card] >= 3:
            self._reportable(
                i, seat, "TREO_TRANH_KHONG_CHIU", f"eats {card} while holding 3 copies (must chíu)"
            )
        if before[card] >= 1 and with_ != card:
            self._reportable(
                i,
                seat,
                "TREO_TRANH_AN_CA_THAY_CHAN",
                f"eats {card} with {with_} while holding {card}",
            )
        if is_ca(card, with_) and ev.get("placement") == "eaten_on_top":
            self._reportable(i, seat, "TRAI_VI", f"the eaten {card} lies on top of {with_}")
        self._begin_action(i, seat)
        ready_before = win_set(before, self.exposed[seat]) if is_ca(card, with_) else frozenset()
        for code, msg in hist.on_eat(
            self.hist[seat], card, with_, before, self.dealt[seat], self.opts
        ):
            self._reportable(i, seat, code, msg)
        if ready_before:
            self.hist[seat].doi_cho = ready_before
        self._take_live(i, frm, card)
        pair = (with_, card) if ev.get("placement") != "eaten_on_top" else (card, with_)
        self.exposed[seat].append(Exposed(pair, "eat", card, i))
        if seat == self.dealer and frm != seat:
            self.dealer_turns += 1
        self.turn = seat
        self.phase = MUST_DISCARD
        self.acted = True

    def on_chiu(self, i: int, ev: dict[str, Any]) -> None:
        seat, card, frm = ev["seat"], ev["tile"], ev.get("from")
        with_ = list(ev.get("with") or [])
        hand = self.hands[seat]
        ok = (
            isinstance(frm, int)
            and 0 <= frm < self.n
            and self.rows[frm]
            and self.rows[frm][-1] == card
            and with_
            and all(c == card for c in with_)
            and (self.partial or hand[card] >= len(with_))
        )
        if not ok:
            self.hard(
                i,
                seat,
                "CHIU_INVALID",
                f"chíu of {card} from seat {frm} with {with_} is impossible",
            )
        live = self.live
        if live is None or live.owner != frm or live.card != card:
            self.viol(
                i, seat, "CHIU_QUAN_CHET", f"the {card} on seat {frm}'s cửa is no longer live"
            )
        for _ in with_:
            self._take(i, seat, card)
        self.rows[frm].pop()
        self.live = None
        self.exposed[seat].append(Exposed((card, *with_), "chiu", card, i))
        if len(with_) < 3:
            self.short_chiu[seat] = (card, i)
        self.chiu_count[seat] += 1
        self.chiu_actor = seat
        self.chiu_card = card
        self.chiu_required = seat if frm in (seat, self.prv(seat)) else frm
        self.phase = CHIU_DISCARD
        self.turn = seat

    def on_expose(self, i: int, ev: dict[str, Any]) -> None:
        seat = ev["seat"]
        tiles = list(ev.get("tiles") or [])
        quads = [e for e in self.exposed[seat] if e.how == "chiu"]
        last = quads[-1] if quads else None
        if (
            last is None
            or not tiles
            or any(c != last.eaten for c in tiles)
            or (not self.partial and self.hands[seat][last.eaten] < len(tiles))
            or len(last.cards) + len(tiles) > 4
        ):
            self.hard(i, seat, "EXPOSE_INVALID", f"{self.who(seat)} cannot expose {tiles}")
        assert last is not None
        for c in tiles:
            self._take(i, seat, c)
        k = self.exposed[seat].index(last)
        self.exposed[seat][k] = Exposed((*last.cards, *tiles), "chiu", last.eaten, last.index)
        if len(last.cards) + len(tiles) == 4:
            self.short_chiu.pop(seat, None)

    def on_khai(self, i: int, ev: dict[str, Any]) -> None:
        seat, card = ev["seat"], ev["tile"]
        if (not self.partial and self.hands[seat][card] < 4) or self.turn != seat:
            self.hard(i, seat, "KHAI_INVALID", f"{self.who(seat)} cannot khai {card} now")
        for _ in range(4):
            self._take(i, seat, card)
        self.exposed[seat].append(Exposed((card,) * 4, "khai", card, i))

    def on_decline_u(self, i: int, ev: dict[str, Any]) -> None:
        """#38: a no-op; silence has the same effect (the window closes at the next draw)."""

    def on_announce(self, i: int, ev: dict[str, Any]) -> None:
        seat = ev.get("seat")
        if ev.get("what") != "bao":
            self.info(
                i, seat, "ANNOUNCE_IGNORED", f"announce {ev.get('what')!r} has no meaning in chan"
            )
            return
        accused, code = ev.get("accused"), ev.get("code")
        matches = [
            f
            for f in self.findings
            if f.seat == accused
            and f.code == code
            and f.event_index is not None
            and f.event_index <= i
        ]
        if accused == seat or not matches:
            self.viol(
                i,
                seat,
                "BAO_SAI",
                f"{self.who(seat)} reports {code} by {self.who(accused)}, which the log does not show",
            )
            return
        if self.opts.reported_only:
            for at, s, c in list(self.pending):
                if s == accused and c == code and at <= i:
                    self.pending.remove((at, s, c))
                    self._apply(i, s, c)
                    break

    def on_exhaustive_draw(self, i: int, ev: dict[str, Any]) -> None:
        limit = 1 if self.opts.last_stock_card_dead else 0
        if self.stock_left > limit and self.forced_draw_at is None:
            self.hard(
                i,
                None,
                "HAND_END_INVALID",
                f"hòa declared with {self.stock_left} cards left in the nọc",
            )
        self.phase = ENDED
        self.ended_by = "exhaustive_draw"

    def on_abandon(self, i: int, ev: dict[str, Any]) -> None:
        self.phase = ENDED
        self.ended_by = "abandon"

    # ------------------------------------------------------------------ wins

    def _thong(self, seat: int) -> bool | None:
        ph = self.previous_hand
        if ph is None or "winner" not in ph:
            return None
        if ph["winner"] != seat:
            return False
        if "void" not in ph:
            return None
        return ph["void"] is None

    def _facts(self, seat: int, w: str | None, via: str, live: Live | None) -> WinFacts:
        hand = self.hands[seat]
        k_conc = Counter(hand) if w is None else plus(hand, w)
        exposed = self.exposed[seat]
        k = Counter(k_conc)
        for e in exposed:
            k.update(e.cards)
        chi = live is not None and live.owner == seat and live.kind == "draw"
        first = self.first_draw[seat]
        on_first = live is not None and live.kind == "draw" and live.by == seat
        on_first = on_first and live is not None and first == live.index
        dia = on_first or (via == "chiu" and first is None)
        if self.opts.dia_u_first_round_only and self.dealer_turns > 0:
            dia = False
        khai_cards = {e.eaten for e in exposed if e.how == "khai"}
        thien_khai = sum(
            1
            for c in CARDS
            if self.dealt[seat][c] == 4
            and k[c] == 4
            and (not self.opts.thien_khai_must_expose or c in khai_cards)
        )
        h = self.hist[seat]
        u_bon = w is not None and w in h.bon_third and hand[w] == 1 and w not in h.an_bon
        eaten_5v = any(e.how == "eat" and e.cards == ("5v", "5v") for e in exposed)
        bt = w is not None and via != "deal" and is_bach_thu(hand, exposed, w)
        btc = w is not None and via != "deal" and is_bach_thu_chi(hand, exposed, w)
        return WinFacts(
            k=k,
            w=w,
            via=via,
            chi=chi,
            dia_u=dia,
            thong=self._thong(seat),
            thien_khai=thien_khai,
            an_bon=len(h.an_bon),
            u_bon=u_bon,
            chiu=self.chiu_count[seat],
            bach_thu=bt,
            bach_thu_chi=btc,
            eaten_chan_5v=eaten_5v,
            max_chan=max_chan(k_conc, exposed),
        )

    def on_win(self, i: int, ev: dict[str, Any]) -> None:
        seat, tile, via = ev["seat"], ev["tile"], ev.get("via", "stock")
        frm = ev.get("from")
        with_ = list(ev.get("with") or [])
        live = self.live
        hand = self.hands[seat]
        decl = parse_claim(ev.get("claim"))
        lao: list[str] = []
        if via == "deal":
            held = self.partial or hand[tile]
            if seat != self.dealer or self.first_discard_done or not held:
                self.hard(
                    i,
                    seat,
                    "U_SOURCE_MISMATCH",
                    "thiên ù is only the dealer's, before the first discard",
                )
            w = None
        elif via in ("stock", "chiu"):
            owner = seat if frm is None else frm
            if live is None or live.card != tile or live.owner != owner:
                self.hard(
                    i, seat, "U_SOURCE_MISMATCH", f"{tile} from seat {owner} is not the live card"
                )
            assert live is not None
            if via == "chiu":
                short = not self.partial and Counter(with_)[tile] > hand[tile]
                if any(c != tile for c in with_) or short:
                    self.hard(
                        i,
                        seat,
                        "U_SOURCE_MISMATCH",
                        f"chíu ù with {with_}: not held copies of {tile}",
                    )
                if len(with_) < 3:
                    lao.append(f"chíu ù with {len(with_)} copies")
            elif live.kind != "draw":
                lao.append(f"{tile} was discarded, not drawn from the nọc")
            w = tile
        else:
            self.hard(i, seat, "U_SOURCE_MISMATCH", f"unknown win via {via!r}")
        conc = Counter(hand) if w is None else plus(hand, w)
        winning = self.partial or is_win(conc, self.exposed[seat])
        if not winning:
            lao.insert(0, "the 20 cards are not 10 pairs with at least 6 chắn")
        if seat in self.out:
            lao.append(f"{self.who(seat)} was out since #{self.out[seat][0]} ({self.out[seat][1]})")
        if seat in self.cannot_win:
            lao.append(f"{self.who(seat)} cannot win after {self.cannot_win[seat]}")
        declared = score(decl.cuoc, self.opts)
        present: Counter[str] | None = None
        auto = valid = 0
        reasons: list[str] = []
        if winning and not self.partial:
            facts = self._facts(seat, w, via, live)
            present = detect(facts, self.opts)
            auto = auto_value(present, self.opts)
            unverifiable = [e.id for e in self.opts.extra_cuoc]
            if facts.thong is None and decl.cuoc["thong"]:
                unverifiable.append("thong")
                self.info(
                    i,
                    seat,
                    "THONG_UNVERIFIED",
                    "thông claimed without previous-hand information: accepted",
                )
            reasons = wrong_reasons(decl, present, self.opts, unverifiable)
            valid = score(valid_part(decl, present), self.opts).total
        void: str | None = None
        if seat in self.barred:
            void = "BO_U"
            self.viol(
                i, seat, "BO_U", f"{self.who(seat)} let a win pass and drew at #{self.barred[seat]}"
            )
        elif lao:
            void = "U_LAO"
            self.viol(i, seat, "U_LAO", "; ".join(lao))
        elif (
            w == CC
            and self.hist[seat].chi_rong_chance is not None
            and is_chi_rong(hand, self.exposed[seat])
        ):
            void = "U_CHI_RONG"
            self.viol(
                i,
                seat,
                "U_CHI_RONG",
                f"chi rộng kept although the discard at #{self.hist[seat].chi_rong_chance} could change the wait",
            )
        elif self.opts.mode_4_11 and declared.total < self.opts.min_points_4_11:
            void = "U_4_11_THIEU_DIEM"
            self.viol(
                i,
                seat,
                "U_4_11_THIEU_DIEM",
                f"declared total {declared.total} < {self.opts.min_points_4_11}",
            )
        elif reasons:
            void = "XUONG_SAI"
            self.viol(i, seat, "XUONG_SAI", "; ".join(reasons))
        case_i: str | None = None
        for code, msg in hist.on_win(self.hist[seat], w, hand):
            self.viol(i, seat, code, msg)
            if self.opts.reported_only:
                self.pending.append((i, seat, code))
            elif case_i is None:
                case_i = code
        ev_ = WinEval(
            i,
            seat,
            tile,
            via,
            decl,
            declared,
            present,
            auto,
            valid,
            void,
            case_i,
            tuple(reasons),
            None if via == "deal" else live,
        )
        if (void is not None or case_i is not None) and self.opts.continue_after_void_u:
            self.void_wins.append(ev_)
            self.barred.setdefault(seat, i)
            return
        self.wins.append(ev_)
        self.phase = ENDED
        self.ended_by = "win"

    # ------------------------------------------------------------------ end

    def finish(self, last_index: int) -> None:
        if self.phase != ENDED and self.forced_draw_at is None:
            self.info(
                self.last_index if self.last_index >= 0 else None,
                None,
                "HAND_UNFINISHED",
                "the log ends while the hand is live",
            )

    def outcome(self) -> Outcome | None:
        """The settlement input; None when the hand cannot be settled."""
        if self.stopped:
            return None
        extra = tuple((w.seat, self._void_case(w), w.declared.total) for w in self.void_wins)
        caught = tuple(s for _, s, _ in sorted(self.caught_order))
        doi = tuple(self.doi_cho)
        cut = self.forced_draw_at
        if cut is not None and self.settled_win() is None:
            # §11 #17: settled as a draw at the dead-card draw; later events are not settled
            extra = tuple(
                (w.seat, self._void_case(w), w.declared.total)
                for w in self.void_wins
                if w.index < cut
            )
            doi = tuple(s for s in self.doi_cho if self.out[s][0] <= cut)
            return Outcome("draw", caught=caught, an_ca_doi_cho=doi, extra_void=extra)
        if self.ended_by == "exhaustive_draw":
            return Outcome("draw", caught=caught, an_ca_doi_cho=doi, extra_void=extra)
        if self.ended_by == "abandon":
            return Outcome("abandon", caught=caught, an_ca_doi_cho=doi, extra_void=extra)
        if not self.wins:
            if self.ended_by == "unfinished":
                return None
            return Outcome("none", caught=caught, an_ca_doi_cho=doi, extra_void=extra)
        w = self.wins[0]
        void, case_i = w.void, False
        if void is None and w.case_i is not None:
            void, case_i = w.case_i, True
        if void is None and self.opts.reported_only:
            own = [c for at, s, c in self.caught_order if s == w.seat and at > w.index]
            if own:
                void, case_i = own[0], True
        caught_before = tuple(s for at, s, _ in sorted(self.caught_order) if s != w.seat)
        return Outcome(
            "win",
            winner=w.seat,
            t_decl=w.declared.total,
            auto_value=w.auto,
            valid_value=w.valid_value,
            void=void,
            void_case_i=case_i,
            zero=w.seat in self.zero,
            caught=caught_before,
            an_ca_doi_cho=doi,
            extra_void=extra,
        )

    def settled_win(self) -> WinEval | None:
        """The win that ended the hand, unless the dead last card was drawn before it
        (§11 #17: the hand is then a draw and the later win is reported, not settled)."""
        if not self.wins:
            return None
        w = self.wins[0]
        if self.forced_draw_at is not None and w.index > self.forced_draw_at:
            return None
        return w

    def _void_case(self, w: WinEval) -> str:
        if w.void is None:
            return "I"
        return {"U_4_11_THIEU_DIEM": "F", "XUONG_SAI": "D"}.get(w.void, "E")

    def settlement(self) -> Settlement | None:
        o = self.outcome()
        return None if o is None else settle(o, self.n, self.opts)


__all__ = ["ChanHand", "EatOption", "Live", "Stop", "WinCheck", "WinEval", "table_for"]
