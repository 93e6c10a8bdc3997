"""A plausible Hong Kong mahjong player: plans, discards, claims, kongs.

The bot never decides what is *legal*: the hand driver (:mod:`replay.sim.hk_play`) offers
it only actions the rules allow and asks the engine whether a win is valid. The bot
decides what is *sensible*, the way a club player does:

* pick a plan from the tiles (a flush when one suit dominates, all pungs when pairs pile
  up, otherwise the fastest hand; under a 3-fan minimum the fast hand must stay concealed
  or collect value honours);
* discard what the plan needs least: off-plan tiles first, then isolated honours and
  terminals, keeping pairs and runs (shanten decides, a tile-shape score breaks ties);
* claim a pung, chow or kong only when it brings the plan closer (shanten improves) and
  fits it (no chows for a pung hand; under a fan minimum, no open junk hands);
* at one tile from complete, keep the wait with the most live tiles.

A :class:`Style` gives each club member habits of their own (seeded), so statistics per
player differ the way they do at a real table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.replay.sim.core import habits
from mjaudit.parts.replay.sim.shanten import (
    EAST,
    honour_table,
    merge,
    orphans_shanten,
    pung_shanten,
    score,
    suit_key,
    suit_table,
    waits,
)

_P10 = tuple(10 ** (8 - r) for r in range(9))
_ZERO = ((0, 0, 0),)
DRAGONS = (31, 32, 33)


@dataclass(frozen=True, slots=True)
class Style:
    """A player's habits: liking for flushes and pungs, readiness to claim and to kong."""

    flush: float = 0.5
    pungs: float = 0.4
    claim: float = 0.8
    kong: float = 0.8
    ambition: int = 0  # the least fan this player will win with while the wall is long
    eager: bool = False  # claims every meld that fits the plan and costs nothing
    fan_blind: bool = False  # plays as if there were no fan minimum (a beginner's mistake)

    @staticmethod
    def random(rng: random.Random) -> Style:
        drawn = habits(rng, flush=(0.0, 1.2), pungs=(0.0, 1.0), claim=(0.55, 1.0), kong=(0.5, 1.0))
        return Style(**drawn, ambition=rng.choices((0, 1, 2, 3), (30, 30, 25, 15))[0])


@dataclass(frozen=True, slots=True)
class Plan:
    """What the hand is aiming at. ``kind``: standard, flush, pungs or orphans."""

    kind: str
    suits: int = 0b111  # bits 0/1/2 = m/p/s kept by the plan
    honours: bool = True

    def allows(self, t: int) -> bool:
        if t >= EAST:
            return self.honours
        return bool(self.suits >> (t // 9) & 1)


STANDARD = Plan("standard")
PUNGS = Plan("pungs")
ORPHAN_PLAN = Plan("orphans")


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a player knows when choosing: own tiles, own melds, the table's open tiles."""

    counts: list[int]  # 34 concealed counts (mutated temporarily by the bot, restored)
    melds: tuple[Meld, ...]
    seat_wind: int  # 0..3 = E S W N
    prevailing: int
    visible: Sequence[int]  # copies of each kind visible on the table
    min_fan: int
    live_count: int
    threat: bool = False  # an opponent shows three or more sets


def suit_keys(c: Sequence[int]) -> tuple[int, int, int]:
    """The three suits' keys of the counts (:func:`~replay.sim.shanten.suit_key`)."""
    return suit_key(c, 0), suit_key(c, 9), suit_key(c, 18)


def value_honour(t: int, v: SeatView) -> bool:
    return t in DRAGONS or t == EAST + v.seat_wind or t == EAST + v.prevailing


class HKBot:
    """Heuristic Hong Kong player (see the module docstring)."""

    #: Below this many live tiles a player takes any valid win, whatever their ambition.
    LATE = 16

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.rng = rng
        self.plan = STANDARD
        self.target = style.ambition

    def accepts_win(self, fan: int, live_count: int) -> bool:
        """A valid win is taken unless it is below the player's ambition early in the hand."""
        return fan >= self.style.ambition or live_count <= self.LATE

    # -- plans -------------------------------------------------------------------------

    def plan_shanten(
        self, c: Sequence[int], declared: int, plan: Plan, keys: Sequence[int] | None = None
    ) -> int:
        """The plan's shanten of the counts ``c`` (``keys``: their three suit keys, when
        already computed for these counts)."""
        if plan.kind == "pungs":
            return pung_shanten(c, declared)
        if plan.kind == "orphans":
            return orphans_shanten(c)
        if keys is None:
            keys = suit_keys(c)
        tm = suit_table(keys[0]) if plan.suits & 1 else _ZERO
        tp = suit_table(keys[1]) if plan.suits & 2 else _ZERO
        ts = suit_table(keys[2]) if plan.suits & 4 else _ZERO
        return score(merge(merge(tm, tp), merge(ts, honour_table(c, plan.honours))), declared)

    def choose_plan(self, v: SeatView) -> Plan:
        """The plan with the best (shanten + penalty); the current plan gets a small bonus."""
        c = v.counts
        melds = v.melds
        k = len(melds)
        per_suit = [sum(c[b : b + 9]) for b in (0, 9, 18)]
        for m in melds:
            if m.tile < EAST:
                per_suit[m.tile // 9] += 3
        best_suit = max(range(3), key=lambda s: (per_suit[s], -s))
        meld_suits = {m.tile // 9 for m in melds if m.tile < EAST}
        has_chow = any(m.kind is MeldKind.CHOW for m in melds)
        exposed = any(m.is_exposed for m in melds)
        self.target = (
            self.style.ambition if self.style.fan_blind else max(v.min_fan, self.style.ambition)
        )
        strict = self.target >= 3
        value = sum(1 for t in range(EAST, 34) if c[t] >= 2 and value_honour(t, v))
        value += sum(1 for m in melds if m.tile >= EAST and value_honour(m.tile, v))
        options: list[tuple[float, Plan]] = []
        if strict:
            base = (2.2 if not exposed else 3.0) - 0.8 * value
            options.append((max(base, 0.0), STANDARD))
        else:
            options.append((0.0, STANDARD))
        if meld_suits <= {best_suit}:
            bit = 1 << best_suit
            half = Plan("flush", bit, True)
            full = Plan("flush", bit, False)
            pen_half = (0.0 if strict else 0.9) - self.style.flush
            options.append((pen_half, half))
            if not any(m.tile >= EAST for m in melds):
                pen_full = (0.6 if strict else 1.4) - 1.3 * self.style.flush
                options.append((pen_full, full))
        if not has_chow:
            options.append(((0.3 if strict else 0.9) - self.style.pungs, PUNGS))
        if k == 0 and orphans_shanten(c) <= 3:
            options.append((0.5, ORPHAN_PLAN))
        best: tuple[float, int, Plan] | None = None
        keys = suit_keys(c)
        for i, (penalty, plan) in enumerate(options):
            cost = (
                self.plan_shanten(c, k, plan, keys) + penalty - (0.6 if plan == self.plan else 0.0)
            )
            if best is None or (cost, i) < best[:2]:
                best = (cost, i, plan)
        assert best is not None
        self.plan = best[2]
        return self.plan

    # -- discards ----------------------------------------------------------------------

    def candidates(self, c: list[int], declared: int, plan: Plan) -> list[tuple[int, int]]:
        """(plan shanten after discarding kind t, t) for every kind held."""
        out: list[tuple[int, int]] = []
        kinds = [t for t in range(34) if c[t]]
        if plan.kind in ("pungs", "orphans"):
            for t in kinds:
                c[t] -= 1
                out.append((self.plan_shanten(c, declared, plan), t))
                c[t] += 1
            return out
        keys = suit_keys(c)
        tabs = [suit_table(keys[s]) if plan.suits >> s & 1 else _ZERO for s in range(3)]
        hon = honour_table(c, plan.honours)
        others = [
            merge(merge(tabs[1], tabs[2]), hon),
            merge(merge(tabs[0], tabs[2]), hon),
            merge(merge(tabs[0], tabs[1]), hon),
        ]
        suits_all = merge(merge(tabs[0], tabs[1]), tabs[2])
        whole = score(merge(suits_all, hon), declared)
        for t in kinds:
            if not plan.allows(t):
                out.append((whole, t))
            elif t < EAST:
                s = t // 9
                sub = suit_table(keys[s] - _P10[t % 9])
                out.append((score(merge(others[s], sub), declared), t))
            else:
                c[t] -= 1
                out.append((score(merge(suits_all, honour_table(c, True)), declared), t))
                c[t] += 1
        return out

    def keep_value(self, t: int, v: SeatView, plan: Plan) -> float:
        """How much a tile is worth keeping, all else equal (low = discard first)."""
        c = v.counts
        if not plan.allows(t):
            return -5.0 + (0.5 if t >= EAST and c[t] >= 2 else 0.0)
        n = c[t]
        if t >= EAST:
            val = 0.0 if n == 1 else 4.0
            if value_honour(t, v):
                val += 0.6
            if n == 1 and v.visible[t] >= 2:
                val -= 0.5  # a dead honour: nobody can pung it, nor can I
            return val
        r = t % 9
        near = (r > 0 and c[t - 1]) or (r < 8 and c[t + 1])
        gap = (r > 1 and c[t - 2]) or (r < 7 and c[t + 2])
        val = 1.0 + (0.0 if r in (0, 8) else 0.3 if r in (1, 7) else 0.5)
        if n >= 2:
            val += 3.0
        if near:
            val += 1.5
        if gap:
            val += 0.8
        return val

    #: Far from complete this late, or facing three open sets, a player folds.
    FOLD_LIVE = 20

    def choose_discard(self, v: SeatView, *, replan: bool = True) -> int:
        c = v.counts
        declared = len(v.melds)
        plan = self.choose_plan(v) if replan else self.plan
        cands = self.candidates(c, declared, plan)
        best = min(s for s, _ in cands)
        late = v.live_count <= self.FOLD_LIVE
        if best >= 2 and late and (v.threat or v.live_count <= self.FOLD_LIVE // 2):
            # Defence: throw what the table has already shown most, honours first.
            safest = min(
                (-v.visible[t], t < EAST, self.keep_value(t, v, plan), t) for _, t in cands
            )
            return safest[3]
        tied = sorted((self.keep_value(t, v, plan), t) for s, t in cands if s == best)
        if best == 0 and len(tied) > 1:
            return self._best_wait(v, [t for _, t in tied[:4]])
        return tied[0][1]

    def _best_wait(self, v: SeatView, tiles: list[int]) -> int:
        """At one tile from complete: the discard leaving the most live winning tiles."""
        c = v.counts
        declared = len(v.melds)
        best: tuple[float, int] | None = None
        for t in tiles:
            c[t] -= 1
            wait = waits(c, declared)
            live = sum(max(0, 4 - c[w] - v.visible[w]) for w in wait)
            c[t] += 1
            key = (-float(live), t)
            if best is None or key < best:
                best = key
        assert best is not None
        return best[1]

    # -- claims and kongs ----------------------------------------------------------------

    def _strict_ok(self, t: int, v: SeatView, kind: str) -> bool:
        """Under a fan minimum an open hand needs a fan source: a flush, pungs or honours."""
        if self.target < 3:
            return True
        plan = self.plan
        if plan.kind == "flush":
            return plan.allows(t)
        if plan.kind == "pungs":
            return kind != "chow"
        return kind != "chow" and value_honour(t, v)

    def off_plan(self, t: int, kind: str) -> bool:
        """A claim of ``t`` for a ``kind`` meld the plan has no use for."""
        plan = self.plan
        return (
            not plan.allows(t)
            or plan.kind == "orphans"
            or (plan.kind == "pungs" and kind == "chow")
        )

    def claim_shanten(self, v: SeatView, used: Sequence[int], ready: int) -> tuple[int, int] | None:
        """The plan's shanten before and after a claim showing ``used`` from the hand;
        None when the hand is within ``ready`` of complete already (no claim then)."""
        plan = self.plan
        c = v.counts
        declared = len(v.melds)
        before = self.plan_shanten(c, declared, plan)
        if before <= ready:
            return None
        for x in used:
            c[x] -= 1
        after = min((s for s, _ in self.candidates(c, declared + 1, plan)), default=8)
        for x in used:
            c[x] += 1
        return before, after

    def wants_meld(self, v: SeatView, t: int, kind: str, used: Sequence[int]) -> bool:
        """Claim ``t`` for a pung or chow (``used``: the two tiles shown from hand)?"""
        if self.off_plan(t, kind) or not self._strict_ok(t, v, kind):
            return False
        shanten = self.claim_shanten(v, used, 0)
        if shanten is None:
            return False
        before, after = shanten
        if self.style.eager and after <= before:
            return True
        bonus = 0.15 if (kind == "pung" and value_honour(t, v)) else 0.0
        return after < before and self.rng.random() < min(1.0, self.style.claim + bonus)

    def wants_exposed_kong(self, v: SeatView, t: int) -> bool:
        plan = self.plan
        if not plan.allows(t) or plan.kind == "orphans" or not self._strict_ok(t, v, "kong"):
            return False
        c = v.counts
        declared = len(v.melds)
        before = self.plan_shanten(c, declared, plan)
        c[t] -= 3
        after = self.plan_shanten(c, declared + 1, plan)
        c[t] += 3
        return after <= before and self.rng.random() < self.style.kong

    def wants_own_kong(self, v: SeatView, t: int, added: bool) -> bool:
        """Declare a concealed kong (four in hand) or add the 4th tile to an exposed pung?"""
        c = v.counts
        declared = len(v.melds)
        plan = self.plan if self.plan.kind != "orphans" else STANDARD
        before = self.plan_shanten(c, declared, plan)
        if added:
            c[t] -= 1
            after = self.plan_shanten(c, declared, plan)
            c[t] += 1
        else:
            c[t] -= 4
            after = self.plan_shanten(c, declared + 1, plan)
            c[t] += 4
        return after <= before and self.rng.random() < self.style.kong
