"""A plausible ``vn-160`` player: the Hong Kong bot's plans, plus khung and flower habits.

The play itself (plans, discards, claims, kongs) is :class:`replay.sim.hk_bot.HKBot`, run
on the 34 natural tiles: a vn-160 hand is a Hong Kong hand with jokers. What differs is
what a Vietnamese club player does with the bonus tiles (rules §1.2, §2.3, §3.3):

* flowers are always declared (a flower may never stay in the hand);
* ``RH`` (the Hoa khung) is declared too: it stands only for a flower, so kept in the hand
  it blocks every win (§7.1 (b));
* the other khung are kept as jokers; a player who likes the "dựng đầu" bonus (§5.3)
  may declare ``BT`` or ``RU`` in the initial phase;
* a khung is spent on a claim (a pung or chow with a joker) only when it gains more than a
  natural claim would, and only by a player with a taste for it.

The bot never decides what is legal: the driver (:mod:`replay.sim.vn160_play`) offers the
engine's own claims (:meth:`replay.vn160.hand.VNHand.legal_claims`) and asks the engine
whether a win is valid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mjaudit.parts.replay.sim.core import habits
from mjaudit.parts.replay.sim.hk_bot import HKBot, SeatView, Style


@dataclass(frozen=True, slots=True)
class VNStyle:
    """A club member's habits: the Hong Kong ones plus khung habits.

    ``dung``: chance to declare ``BT`` / ``RU`` at the start for the bonus; ``khung_claim``:
    readiness to spend a khung on a claim; ``double_call``: chance to also call ù on a
    discard another player already won (the head-bump rule settles it, §3.2).
    """

    hk: Style
    dung: float = 0.3
    khung_claim: float = 0.5
    double_call: float = 0.5

    @staticmethod
    def random(rng: random.Random) -> VNStyle:
        hk = Style.random(rng)
        return VNStyle(
            hk, **habits(rng, dung=(0.0, 0.8), khung_claim=(0.1, 0.9), double_call=(0.2, 0.9))
        )


class VNBot(HKBot):
    """The Hong Kong heuristics on the natural tiles, and the khung habits above."""

    def __init__(self, style: VNStyle, rng: random.Random) -> None:
        super().__init__(style.hk, rng)
        self.vn = style

    def declares_at_start(self, base: str) -> bool:
        """Declare this khung (base code, e.g. ``BT``) in the initial phase?"""
        if base == "RH":
            return True
        return base in ("BT", "RU") and self.rng.random() < self.vn.dung

    def wants_khung_meld(
        self, v: SeatView, t: int, kind: str, naturals: Sequence[int], spent: int
    ) -> bool:
        """Claim ``t`` showing ``naturals`` from the hand and ``spent`` khung?

        A khung is worth a tile of shanten wherever it lands, so the claim must gain more
        than the khung it spends.
        """
        shanten = None if self.off_plan(t, kind) else self.claim_shanten(v, naturals, 1)
        if shanten is None:
            return False
        before, after = shanten
        return after + spent < before and self.rng.random() < self.vn.khung_claim
