"""Simulated Hong Kong sittings (hk-classic, hk-mahjongo, hk-mahjongo-2p), event by event.

Every hand is built the way the replayer reads it: each event is appended to the record
and at once stepped through an :class:`replay.hk.hand.HKHand`, so the table state the bots
see is the engine's own, and a win is declared only when the engine's scoring
(:func:`replay.hk.scoring.evaluate` on the engine's own ``WinContext``) says it is valid.
The recorded ``result`` is the engine's settlement of that same hand.

A planted violation (:class:`Plant`) takes over one decision of one hand: a false win,
a discard out of turn, a double draw, a kong without replacement, a chow from the wrong
seat, a wrong recorded payment, or (INFO, not violations) a Pao feed or a nine-tile feed.
It waits for a moment where the break is possible and natural (a false win is declared by
a player one tile from complete); if none comes, the hand's recorded payment is falsified
instead, so about the requested share of hands carries a label.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from mjaudit.parts.replay.engine.findings import FindingClass, points
from mjaudit.parts.replay.rulesets.hk.hand import CODES, WALLS, WIND_CODES, HKHand
from mjaudit.parts.replay.rulesets.hk.options import options_for
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.hk.scoring import HandScore, evaluate, false_win_deltas
from mjaudit.parts.replay.rulesets.mahjong.decompose import is_complete
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind
from mjaudit.parts.replay.sim import core
from mjaudit.parts.replay.sim.core import Record
from mjaudit.parts.replay.sim.hk_bot import DRAGONS, HKBot, SeatView, Style
from mjaudit.parts.replay.sim.mahjong_play import (
    DOUBLE_DRAW,
    EXHAUSTIVE_DRAW,
    KONG_WITHOUT_REPLACEMENT,
    KONGS,
    SETS,
    MahjongHandSim,
    MahjongTable,
    Plan,
    State,
)
from mjaudit.parts.replay.sim.shanten import orphans_shanten, shanten, waits

BONUS = 34


# Planted scenarios (the ``violation`` field of a label).
FALSE_WIN_INCOMPLETE = "false_win_incomplete"
FALSE_WIN_BELOW_MIN_FAN = "false_win_below_min_fan"
WIN_BY_DEAD_HAND = "win_by_dead_hand"
DISCARD_OUT_OF_TURN = "discard_out_of_turn"
CHOW_NOT_FROM_LEFT = "chow_not_from_left"
RECORDED_RESULT_MISMATCH = "recorded_result_mismatch"
PAO_FEED = "pao_feed"
NINE_TILE_FEED = "nine_tile_feed"

MENUS: dict[str, tuple[str, ...]] = {
    "hk-classic": (
        FALSE_WIN_INCOMPLETE, WIN_BY_DEAD_HAND, DISCARD_OUT_OF_TURN, DOUBLE_DRAW,
        KONG_WITHOUT_REPLACEMENT, CHOW_NOT_FROM_LEFT, RECORDED_RESULT_MISMATCH, NINE_TILE_FEED,
    ),
    "hk-mahjongo": (
        FALSE_WIN_INCOMPLETE, FALSE_WIN_BELOW_MIN_FAN, WIN_BY_DEAD_HAND, DISCARD_OUT_OF_TURN,
        DOUBLE_DRAW, KONG_WITHOUT_REPLACEMENT, CHOW_NOT_FROM_LEFT, RECORDED_RESULT_MISMATCH,
        PAO_FEED,
    ),
    # Two players: every chow comes from the left, so no CHOW_NOT_FROM_LEFT; and the
    # plants make a dead hand of the right size (which WIN_BY_DEAD_HAND needs) only that way.
    "hk-mahjongo-2p": (
        FALSE_WIN_INCOMPLETE, FALSE_WIN_BELOW_MIN_FAN, DISCARD_OUT_OF_TURN, DOUBLE_DRAW,
        KONG_WITHOUT_REPLACEMENT, RECORDED_RESULT_MISMATCH,
    ),
}  # fmt: skip

VIOL = FindingClass.PLAYER_VIOLATION.value
INFO = FindingClass.INFO.value


@dataclass
class Plant(core.Plant):
    """A Hong Kong (and vn-160) plant: what its scenarios remember."""

    favoured: int | None = None  # Pao / nine-tile: the seat dealt a hand that leads there
    oblivious: int | None = None  # WIN_BY_DEAD_HAND: the dead seat that will declare a win
    pending: dict[int, str] = field(default_factory=dict)  # seat -> size code at next discard
    forced: tuple[Any, ...] | None = None  # (claimer, kind, tile, used tiles)


# A wrong recorded payment (§8 #44); the drawn hand's unit is the preset's.
SLIPS = core.Slips(
    "RECORDED_RESULT_MISMATCH", RECORDED_RESULT_MISMATCH, 8, "a drawn hand", penalties_follow=True
)


def make_plant(rng: random.Random, rate: float, ruleset: str) -> Plant | None:
    if rate <= 0 or rng.random() >= rate:
        return None
    kind = rng.choice(MENUS[ruleset])
    common = kind in (DISCARD_OUT_OF_TURN, DOUBLE_DRAW, CHOW_NOT_FROM_LEFT, FALSE_WIN_INCOMPLETE)
    earliest = rng.randint(4, 40) if common else rng.randint(0, 12)
    if kind == WIN_BY_DEAD_HAND:
        earliest = rng.randint(4, 24)
    return Plant(kind, earliest, 0.3 if common else 1.0)


class HKHandSim(MahjongHandSim):
    """Plays one hand: the engine's state is the table, the bots choose, the plant meddles."""

    HAND = HKHand
    hand: HKHand

    def setup(self) -> None:
        self.waits: list[tuple[int, ...]] = [() for _ in range(self.n)]
        self.classic = self.opts.is_classic

    # -- plumbing ----------------------------------------------------------------------

    def seat_wind(self, seat: int) -> int:
        if self.n == 2:
            pair = self.opts.two_player_seats
            return WIND_CODES.index(pair[0] if seat == self.dealer else pair[1])
        return (seat - self.dealer) % self.n

    def view(self, seat: int) -> SeatView:
        h = self.hand
        return SeatView(
            counts=h.concealed[seat][:34],
            melds=tuple(h.melds[seat]),
            seat_wind=self.seat_wind(seat),
            prevailing=h.prevailing,
            visible=h.visible,
            min_fan=self.opts.min_fan,
            live_count=h.live_count,
            threat=any(
                len(h.melds[s]) >= 3 and s not in h.dead for s in range(self.n) if s != seat
            ),
        )

    def complete(self, seat: int, extra: int | None = None) -> bool:
        c = self.hand.concealed[seat][:34]
        if extra is not None:
            c[extra] += 1
        return is_complete(c, len(self.hand.melds[seat]))

    def update_waits(self, seat: int) -> None:
        h = self.hand
        if self.inactive(seat):
            self.waits[seat] = ()
            return
        c = h.concealed[seat][:34]
        k = len(h.melds[seat])
        if shanten(c, k) <= 0 or (k == 0 and orphans_shanten(c) <= 0):
            self.waits[seat] = waits(c, k)
        else:
            self.waits[seat] = ()

    def score(self, seat: int, t: int, source: WinSource) -> HandScore | None:
        """The engine's score of a win by ``seat`` on ``t`` now (None: no structure)."""
        ctx = self.hand.win_context(seat, t, source)
        return None if ctx is None else evaluate(ctx, self.opts)

    def win_score(self, seat: int, t: int, source: WinSource) -> HandScore | None:
        return self.hand.valid_win(seat, t, source)

    # -- drawing -----------------------------------------------------------------------

    def draw(self, seat: int) -> bool:
        """A normal draw (and the flowers it brings); False if the hand ended."""
        t = self.wall[self.hand.head]
        self.take(seat, {"type": "draw"}, tile=CODES[t])
        return self.flower(seat, t) if t >= BONUS else True

    def flower(self, seat: int, t: int) -> bool:
        self.take(seat, {"type": "flower", "tile": CODES[t]})
        return self.replacement(seat)

    def replacement(self, seat: int) -> bool:
        h = self.hand
        if h.live_count < 1:
            self.take(seat, EXHAUSTIVE_DRAW)  # a replacement is due and L = 0
            return False
        t = self.wall[len(self.wall) - 1 - h.tail]
        self.take(seat, {"type": "replacement"}, tile=CODES[t])
        return self.flower(seat, t) if t >= BONUS else True

    def initial_flowers(self) -> bool:
        """hk-classic §2.5: every player exposes dealt bonus tiles before the first
        discard, lowest first, as the state lists them."""
        for k in range(self.n):
            seat = (self.dealer + k) % self.n
            while True:
                listed = self.legal(seat, ("flower",))
                if not listed:
                    break
                self.emit(listed[0])
                if not self.replacement(seat):
                    return False
        return True

    # -- the hand ------------------------------------------------------------------------

    def begin(self) -> State:
        self.hand.start()
        if not self.draw(self.dealer):
            return None
        if self.classic and not self.initial_flowers():
            return None
        for s in range(self.n):
            if s != self.dealer:
                self.update_waits(s)
        return ("act", self.dealer)

    def do_draw(self, seat: int) -> State:
        if self.wall_empty(seat):
            return None
        return ("act", seat) if self.draw(seat) else None

    def do_act(self, seat: int) -> State:
        """The seat holds 14 (after a draw or replacement): win, kong, or discard, as its
        legal actions offer them."""
        h = self.hand
        taken, state = self.takeover(self.plant_act, seat)
        if taken:
            return state
        t = h.drawn
        legal = self.legal(seat, (*KONGS, "win"))  # one ask: a win is scored only if complete
        if not self.inactive(seat) and t is not None:
            score = self.listed_win(seat, t, WinSource.SELF_DRAW, legal)
            waiting = self.plant is not None and self.plant.favoured == seat and not self.plant.done
            if (
                score is not None
                and not waiting
                and self.bots[seat].accepts_win(score.fan, h.live_count)
            ):
                self.take_win(seat, t, None, score)
                return None
        choice = self.chosen_kong(seat, legal)
        if choice is not None:
            k, added = choice
            if added and self.rob(seat, k):
                return None
            return ("act", seat) if self.replacement(seat) else None
        return self.do_discard(seat)

    def rob(self, konger: int, t: int) -> bool:
        """Robbing the kong (§3.8): the nearest player the added tile completes wins on it."""
        for k in range(1, self.n):
            s = (konger + k) % self.n
            if t in self.waits[s]:
                score = self.listed_win(s, t, WinSource.ROBBED_KONG)
                if score is not None:
                    self.take_win(s, t, konger, score, robbed=True)
                    return True
        return False

    def choose_discard(self, seat: int) -> int:
        if self.plant is not None and not self.plant.done:
            forced = self.plant_discard_choice(seat)
            if forced is not None:
                return forced
        return self.bots[seat].choose_discard(self.view(seat))

    def discard(self, seat: int, t: int, planted: bool = False) -> int:
        """The seat's discard of ``t``: a listed one, or (``planted``) the plant's."""
        ev = {"type": "discard", "tile": CODES[t]}
        i = self.emit({**ev, "seat": seat}) if planted else self.take(seat, ev)
        if self.plant is not None and seat in self.plant.pending:
            self.plant.label(i, self.plant.pending.pop(seat), VIOL, seat)
        self.update_waits(seat)
        return i

    def do_discard(self, seat: int) -> State:
        self.discard(seat, self.choose_discard(seat))
        return ("claims", seat)

    def claims(self, discarder: int, t: int) -> State:
        """The claim window (§3.7): a win, else a pung or kong, else a chow by the next seat."""
        h = self.hand
        live = h.live  # L when the discard was made
        assert live is not None
        order = [(discarder + k) % self.n for k in range(1, self.n)]
        p = self.plant
        fav = p.favoured if p is not None and not p.done else None
        for s in order:
            if t in self.waits[s]:
                score = self.listed_win(s, t, WinSource.DISCARD)
                if score is None or not self.bots[s].accepts_win(score.fan, h.live_count):
                    continue
                if s == fav and p is not None and p.kind == NINE_TILE_FEED:
                    if not self.nine_tile_win(s, score):
                        continue  # the favoured player waits for the liable feed
                    i = self.take_win(s, t, discarder, score)
                    self.label_nine_tile(i, discarder)
                    return None
                self.take_win(s, t, discarder, score)
                return None
        if live.live_count < 1:
            return ("draw", order[0])  # with L = 0 the last discard may only be won
        calls = {s: self.legal(s, SETS) for s in order if not self.inactive(s)}
        for s, listed in calls.items():
            kinds = {e["type"]: e for e in listed}
            if "kong" in kinds and self.bots[s].wants_exposed_kong(self.view(s), t):
                self.emit(kinds["kong"])
                return ("act", s) if self.replacement(s) else None
            if "pung" in kinds and self.bots[s].wants_meld(self.view(s), t, "pung", (t, t)):
                pao = s == fav and self.pao_trigger(s, t, "pung")
                i = self.emit(kinds["pung"])
                if pao:
                    self.label_pao(i, discarder)
                return ("discard", s)
        s = order[0]
        for ev in calls.get(s, ()):
            if ev["type"] != "chow":
                continue
            used = tuple(x for x in map(h.TILE_INDEX.__getitem__, ev["tiles"]) if x != t)
            if self.bots[s].wants_meld(self.view(s), t, "chow", used):
                pao = s == fav and self.pao_trigger(s, t, "chow")
                i = self.emit(ev)
                if pao:
                    self.label_pao(i, discarder)
                return ("discard", s)
        return ("draw", order[0])

    def chow(self, seat: int, discarder: int, t: int, used: tuple[int, int]) -> int:
        run = sorted((t, *used))
        return self.emit(
            {
                "type": "chow",
                "seat": seat,
                "from": discarder,
                "tile": CODES[t],
                "tiles": [CODES[x] for x in run],
            }
        )

    # -- planting ------------------------------------------------------------------------

    def plant_act(self, seat: int) -> tuple[bool, State]:
        p = self.plant
        assert p is not None
        h = self.hand
        t = h.drawn
        if p.oblivious == seat and t is not None and self.complete(seat):
            return self.dead_hand_win(seat, t, None, WinSource.SELF_DRAW)
        if seat in h.dead or not self.ready(p):
            return False, None
        kind = p.kind
        if kind == FALSE_WIN_INCOMPLETE and t is not None:
            tenpai = bool(self.waits[seat]) or h.live_count <= 6
            if tenpai and not self.complete(seat):
                self.false_win(seat, t, None, None, "WIN_HAND_INCOMPLETE")
                return True, None
        if kind == FALSE_WIN_BELOW_MIN_FAN and t is not None and self.complete(seat):
            score = self.score(seat, t, WinSource.SELF_DRAW)
            if score is not None and not score.meets_min_fan:
                self.false_win(seat, t, None, score, "WIN_BELOW_MIN_FAN")
                return True, None
        return self.plant_turn_end(seat, kind)

    def dead_hand_win(self, seat: int, t: int, frm: int | None, source: WinSource) -> Plan:
        """WIN_BY_DEAD_HAND: the oblivious dead seat declares its win on ``t``."""
        score = self.score(seat, t, source)
        self.false_win(seat, t, frm, score, "WIN_BY_DEAD_HAND", oblivious=True)
        return True, None

    def double_drawn(self, seat: int) -> bool:
        return not self.hand.initial and super().double_drawn(seat)

    def second_draw(self, seat: int) -> State:
        p = self.plant
        assert p is not None
        h = self.hand
        t2 = self.wall[h.head]
        i = self.emit({"type": "draw", "seat": seat, "tile": CODES[t2]})
        p.label(i, "DOUBLE_DRAW", VIOL, seat)
        p.pending[seat] = "LONG_HAND"
        if t2 >= BONUS and not self.flower(seat, t2):
            return None
        return self.do_discard(seat)

    def kong_discard(self, seat: int) -> State:
        p = self.plant
        assert p is not None
        x = self.bots[seat].choose_discard(self.view(seat))
        i = self.discard(seat, x, planted=True)
        p.label(i, "KONG_WITHOUT_REPLACEMENT", VIOL, seat)
        p.label(i, "SHORT_HAND", VIOL, seat)
        return ("claims", seat)

    def plant_claims(self, discarder: int, t: int) -> tuple[bool, State]:
        p = self.plant
        assert p is not None
        h = self.hand
        live = h.live
        assert live is not None
        dw = p.oblivious
        if dw is not None and dw != discarder and t in self.waits[dw]:
            return self.dead_hand_win(dw, t, discarder, WinSource.DISCARD)
        if p.forced is not None:
            return self.forced_claim(discarder, t)
        if not self.ready(p):
            return False, None
        kind = p.kind
        order = [(discarder + k) % self.n for k in range(1, self.n)]
        if kind == FALSE_WIN_INCOMPLETE:
            for s in order:
                if s not in h.dead and self.waits[s] and not self.complete(s, t):
                    self.false_win(s, t, discarder, None, "WIN_HAND_INCOMPLETE")
                    return True, None
        if kind == FALSE_WIN_BELOW_MIN_FAN:
            for s in order:
                if s not in h.dead and t in self.waits[s]:
                    score = self.score(s, t, WinSource.DISCARD)
                    if score is not None and not score.meets_min_fan:
                        self.false_win(s, t, discarder, score, "WIN_BELOW_MIN_FAN")
                        return True, None
        if kind in (CHOW_NOT_FROM_LEFT, WIN_BY_DEAD_HAND) and live.live_count >= 1 and t < 27:
            for s in order[1:]:
                if s in h.dead:
                    continue
                options = self.chow_options(s, t)
                if options:
                    i = self.chow(s, discarder, t, options[self.rng.randrange(len(options))])
                    p.label(i, "CHOW_NOT_FROM_LEFT", VIOL, s)
                    p.done = True
                    if kind == WIN_BY_DEAD_HAND:
                        p.oblivious = s
                    return True, ("discard", s)
        if kind == DISCARD_OUT_OF_TURN:
            nxt = order[0]
            o = nxt if self.n == 2 or self.rng.random() < 0.5 else order[1 + self.rng.randrange(2)]
            if o not in h.dead:
                p.done = True
                x = self.bots[o].choose_discard(self.view(o))
                i = self.discard(o, x, planted=True)
                p.label(i, "DISCARD_OUT_OF_TURN", VIOL, o)
                p.label(i, "SHORT_HAND", VIOL, o)
                return True, ("draw", nxt)
        if kind == KONG_WITHOUT_REPLACEMENT and live.live_count >= 1:
            for s in order:
                if s not in h.dead and h.concealed[s][t] == 3:
                    self.emit({"type": "kong", "seat": s, "from": discarder, "tile": CODES[t]})
                    return True, self.kong_then_discard(s)
        return False, None

    def plant_discard_choice(self, seat: int) -> int | None:
        """Pao and nine-tile feeds: discard the tile that feeds the liable claim or win."""
        p = self.plant
        assert p is not None
        h = self.hand
        if p.kind == PAO_FEED and self.n == 4 and self.opts.pao_enabled and h.live_count >= 1:
            held = [x for x in range(34) if h.concealed[seat][x]]
            for k in range(1, 4):
                y = (seat + k) % 4
                if self.inactive(y) or y in h.dead or y in h.pao:
                    continue
                melds = h.melds[y]
                pungs = {m.tile for m in melds if m.kind is not MeldKind.CHOW}
                for x in held:
                    third_dragon = x in DRAGONS and set(DRAGONS) - {x} <= pungs
                    if len(melds) != 3 and not third_dragon:
                        continue
                    if h.concealed[y][x] >= 2:
                        p.forced = (y, "pung", x, (x, x))
                        return x
                    if k == 1 and x < 27 and len(melds) == 3:
                        options = self.chow_options(y, x)
                        if options:
                            p.forced = (y, "chow", x, options[0])
                            return x
        if p.kind == NINE_TILE_FEED and h.warnings:
            for w, s in h.warnings:
                if w == seat or w in h.dead or not self.waits[w]:
                    continue
                tiles = [x for x in range(34) for _ in range(h.concealed[w][x])]
                tiles += [x for m in h.melds[w] for x in m.tiles]
                if any(x >= 27 or x // 9 != s for x in tiles):
                    continue
                for x in self.waits[w]:
                    if h.concealed[seat][x] and w in h.warned_for(seat, x):
                        p.forced = (w, "win", x, ())
                        return x
        return None

    def forced_claim(self, discarder: int, t: int) -> tuple[bool, State]:
        p = self.plant
        assert p is not None and p.forced is not None
        seat, kind, x, used = p.forced
        p.forced = None
        if x != t:
            return False, None
        if kind == "win":
            score = self.score(seat, t, WinSource.DISCARD)
            if score is None or not score.meets_min_fan or not self.nine_tile_win(seat, score):
                return False, None
            i = self.win(seat, t, discarder, score)
            self.label_nine_tile(i, discarder)
            return True, None
        if not self.pao_trigger(seat, t, kind):
            return False, None
        if kind == "pung":
            i = self.emit({"type": "pung", "seat": seat, "from": discarder, "tile": CODES[t]})
        else:
            i = self.chow(seat, discarder, t, used)
        self.label_pao(i, discarder)
        return True, ("discard", seat)

    def nine_tile_win(self, seat: int, score: HandScore) -> bool:
        """hk-classic §7.2 trigger A: the warner wins a full flush on a warned discard."""
        live = self.hand.live
        flush = any(pid == "full_flush" for pid, _ in score.patterns)
        return flush and live is not None and seat in live.warned

    def pao_trigger(self, seat: int, t: int, kind: str) -> bool:
        """hk-mahjongo §7.2: this claim is the fourth declared set or the third dragon pung."""
        h = self.hand
        if self.n != 4 or not self.opts.pao_enabled or seat in h.pao:
            return False
        melds = h.melds[seat]
        if len(melds) == 3 and self.opts.pao_fourth_set:
            return True
        pungs = {m.tile for m in melds if m.kind is not MeldKind.CHOW}
        return kind != "chow" and t in DRAGONS and set(DRAGONS) - {t} <= pungs

    def label_nine_tile(self, index: int, discarder: int) -> None:
        self.label_liability(index, discarder, "NINE_TILE_LIABILITY", "the nine-tile warner")

    def label_pao(self, index: int, discarder: int) -> None:
        self.label_liability(index, discarder, "PAO_ASSIGNED", "the Pao set")

    def label_liability(self, index: int, discarder: int, code: str, fed: str) -> None:
        """The INFO label of a planted feed (the plant is then done)."""
        p = self.plant
        assert p is not None
        note = f"liability event, not a violation: the discarder fed {fed}"
        p.label(index, code, INFO, discarder, note=note)
        p.done = True

    # -- the record's result -----------------------------------------------------------

    def result(self) -> dict[str, Any]:
        h = self.finished()
        deltas, _liable = h.settlement()
        assert deltas is not None
        out = self.recorded(deltas)
        if h.false_wins:
            out["penalties"] = [
                {
                    "seat": c.seat,
                    "code": "FALSE_WIN",
                    "deltas": [points(d) for d in false_win_deltas(c.seat, self.opts)],
                }
                for c in h.false_wins
            ]
        return out


# -- sittings ------------------------------------------------------------------------------


def _deal(wall: list[int], dealer: int, n: int) -> list[list[int]]:
    """§2.3: 4 tiles each three times round, then 1 each, in seat order from the dealer."""
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for size in (4, 4, 4, 1):
        for k in range(n):
            hands[(dealer + k) % n].extend(wall[pos : pos + size])
            pos += size
    return hands


def rig_deal(wall: list[int], dealer: int, n: int, seat: int, wanted: list[int]) -> None:
    """Deal ``seat`` the tiles ``wanted`` (as far as the undealt wall holds them).

    Used only by the Pao and nine-tile plants, whose situations a shuffled wall rarely
    reaches: tiles are swapped with undealt ones, so the wall stays a permutation and
    the deal still follows §2.3.
    """
    positions: list[int] = []
    pos = 0
    for size in (4, 4, 4, 1):
        for k in range(n):
            if (dealer + k) % n == seat:
                positions.extend(range(pos, pos + size))
            pos += size
    free_from = pos + 1  # after the dealer's first draw
    need = Counter(wanted)
    have = Counter(wall[q] for q in positions)
    surplus = [q for q in positions if have[wall[q]] > need[wall[q]] or wall[q] not in need]
    surplus.sort(key=lambda q: (wall[q] in need, q))
    for t, k in sorted(need.items()):
        missing = k - have[t]
        for q in range(free_from, len(wall)):
            if missing <= 0 or not surplus:
                break
            if wall[q] == t:
                r = surplus.pop(0)
                have[wall[r]] -= 1
                wall[q], wall[r] = wall[r], wall[q]
                have[t] += 1
                missing -= 1


def favoured_hand(kind: str, rng: random.Random, tiles: list[int]) -> list[int]:
    """A start hand that leads to the planted situation: a one-suit pung hand for the
    nine-tile warning, dragon and other pairs for Pao, three or four of a kind for a kong."""
    kinds = sorted(set(tiles))
    if kind == KONG_WITHOUT_REPLACEMENT:
        return [kinds[rng.randrange(len(kinds))]] * rng.choice((3, 4))
    if kind == NINE_TILE_FEED:
        suit = rng.randrange(3)
        ranks = [t for t in kinds if t < 27 and t // 9 == suit]
        pairs = rng.sample(ranks, 3)
        rest = [t for t in ranks if t not in pairs]
        return sorted(pairs * 2 + rng.sample(rest, 4))  # 10 tiles; the rest stay random
    others = [t for t in kinds if t not in DRAGONS]
    pairs = rng.sample(others, 2)
    return sorted([*DRAGONS, *DRAGONS, *pairs, *pairs])


def favour(
    plant: Plant,
    bots: list[HKBot],
    wall: list[int],
    dealer: int,
    n: int,
    tiles: list[int],
    rng: random.Random,
) -> None:
    """Steer one seat towards the planted situation, when play alone seldom reaches it.

    The deal is rigged (still a legal permutation) and the seat's habits changed for this
    hand: eager claims for Pao and the nine-tile warning, no voluntary kong for a kong
    without replacement, a player who forgets the fan minimum for a win below it.
    """
    kind = plant.kind
    if kind not in (NINE_TILE_FEED, PAO_FEED, KONG_WITHOUT_REPLACEMENT, FALSE_WIN_BELOW_MIN_FAN):
        return
    fav = rng.randrange(n)
    if kind != FALSE_WIN_BELOW_MIN_FAN:
        rig_deal(wall, dealer, n, fav, favoured_hand(kind, rng, tiles))
    for s, bot in enumerate(bots):
        style = bot.style
        if kind == KONG_WITHOUT_REPLACEMENT:
            style = dataclasses.replace(style, kong=0.0) if s == fav else style
        elif kind == FALSE_WIN_BELOW_MIN_FAN:
            style = dataclasses.replace(style, fan_blind=True, ambition=0) if s == fav else style
        elif s == fav:
            style = dataclasses.replace(
                style, flush=3.0, pungs=1.5, claim=1.0, ambition=0, eager=True
            )
        else:  # the others play for bigger hands, so the hand lasts
            style = dataclasses.replace(style, ambition=3)
        bots[s] = HKBot(style, rng)
    if kind in (NINE_TILE_FEED, PAO_FEED):
        plant.favoured = fav


class HKTable(MahjongTable):
    """Four rounds (E S W N) with dealer rotation as hk-classic §2.8-2.9 / mahjongo §2.6."""

    def setup(self) -> None:
        super().setup()
        self.opts = options_for(self.sim.ruleset)
        self.tiles = sorted(WALLS[self.sim.ruleset].elements())
        self.slips = dataclasses.replace(SLIPS, unit=8 if self.opts.is_classic else 16)

    def deal(self, hand_no: int, at: datetime) -> HKHandSim:
        rng, n, opts = self.rng, self.n, self.opts
        dealer = self.rounds.dealer
        wall = list(self.tiles)
        rng.shuffle(wall)
        record: Record = {
            **self.head(hand_no, at),
            "wall": [CODES[t] for t in wall],
            "start_hands": [[CODES[t] for t in h] for h in _deal(wall, dealer, n)],
            "events": [],
        }
        if opts.is_classic:
            record["dice"] = [rng.randint(1, 6) for _ in range(3)]
        plant = make_plant(rng, self.rate, self.sim.ruleset)
        bots = [cast(HKBot, self.sim.make_bot(m.style, rng)) for m in self.sitting.members]
        if plant is not None:
            favour(plant, bots, wall, dealer, n, self.tiles, rng)
            record["wall"] = [CODES[t] for t in wall]
            record["start_hands"] = [[CODES[t] for t in h] for h in _deal(wall, dealer, n)]
        return HKHandSim(record, wall, opts, bots, rng, plant)

    def result(self, hs: HKHandSim) -> tuple[Record, bool]:
        plant = hs.plant
        return hs.result(), plant is not None and plant.kind == RECORDED_RESULT_MISMATCH

    def stays(self, hs: HKHandSim, result: Record) -> bool:
        h = hs.hand
        if h.ended_by == "win":  # the dealer won (an unsettled win names no winner)
            return h.settled and hs.dealer in result["winners"]
        return h.ended_by in ("false_win", "abandon") or (
            h.ended_by == "exhaustive_draw" and self.opts.dealer_on_draw == "stay"
        )


_CLUBS = (
    core.Venue("Jade Garden Mahjong Club", 8, ("T1", "T2", "T3", "T4", "T5", "T6")),
    core.Venue("Lotus Club", 7, ("T1", "T2", "T3", "T4")),
    core.Venue("Golden Dragon Club", 7, ("Bàn 1", "Bàn 2", "Bàn 3", "Bàn 4", "Bàn 5")),
)
_ONLINE = (core.Venue("MahJongo", 7, tuple(f"Room {i}" for i in range(1, 25))),)
_ONLINE_2P = (core.Venue("MahJongo", 7, tuple(f"Duo {i}" for i in range(1, 13))),)

for _rs, _n, _venues in (
    ("hk-classic", 4, _CLUBS),
    ("hk-mahjongo", 4, _ONLINE),
    ("hk-mahjongo-2p", 2, _ONLINE_2P),
):
    core.register(core.RulesetSimulator(_rs, _n, _venues, Style.random, HKBot, HKTable, MENUS[_rs]))
