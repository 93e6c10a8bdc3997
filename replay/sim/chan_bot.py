"""A plausible Chắn player: keeps chắn, eats what helps, chíus, waits bạch thủ or wide.

The bot never decides what is *legal* or *clean*: the driver (:mod:`replay.sim.chan_play`)
asks the engine's state which eats and discards exist and which violation codes each would
trigger, and offers the bot only the clean ones. The bot decides what is *sensible*:

* a holding is valued by its best arrangement (:func:`replay.chan.combos.arrange`): pairs
  first (10 are needed), then chắn up to 6, then how live its lone cards (què) are;
* a ready holding (9 pairs and a què) gets a bonus, and a player's :class:`Style` says
  whether they like a wide wait (more live winning cards) or a single-card bạch thủ wait
  (fewer chances, more points);
* it eats when the best clean discard after the eat leaves a better holding than drawing,
  discards the card whose loss hurts least, and chíus when its style says so.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.chan.cards import CC, RANKS, SUITS, same_rank_others
from mjaudit.parts.replay.rulesets.chan.combos import Exposed, arrange, is_win, plus
from mjaudit.parts.replay.sim.core import habits


@dataclass(frozen=True, slots=True)
class Style:
    """A player's habits: readiness to eat and chíu, liking for bạch thủ waits."""

    eat: float = 0.9  # chance to eat a card that improves the holding
    bach_thu: float = 0.3  # 0 = always the widest wait, 1 = prefers a one-card wait
    chiu: float = 0.95  # chance to chíu when holding three copies
    khai: float = 0.3  # chance to show a thiên khai quad on the first turn

    @staticmethod
    def random(rng: random.Random) -> Style:
        return Style(
            **habits(rng, eat=(0.7, 1.0), bach_thu=(0.0, 1.0), chiu=(0.8, 1.0), khai=(0.0, 0.6))
        )


def waits(concealed: Counter[str], exposed: Sequence[Exposed]) -> frozenset[str]:
    """The win set of a 19-card holding (§4.1), the quick way.

    Pairs never join two ranks, so every rank must have an even count in a win: adding one
    card can only complete a holding with exactly one odd rank (or an odd number of CC), and
    only a card of that rank can do it. Same answer as ``combos.win_set``, 3 tests not 25.
    """
    odd = [r for r in RANKS if sum(concealed[f"{r}{s}"] for s in SUITS) % 2]
    if concealed[CC] % 2:
        odd.append(1)
    if len(odd) != 1:
        return frozenset()
    cands = [CC] if odd[0] == 1 else [f"{odd[0]}{s}" for s in SUITS]
    return frozenset(x for x in cands if is_win(plus(concealed, x), exposed))


@dataclass(frozen=True, slots=True)
class DiscardView:
    """What the seat sees when it must discard: its holding and the clean choices."""

    concealed: Counter[str]
    exposed: tuple[Exposed, ...]
    options: tuple[str, ...]  # clean discards, sorted
    unseen: Counter[str]  # copies of each card not visible to this seat


class ChanBot:
    """One seat's decisions, from its :class:`Style` and the shared seeded generator."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.rng = rng

    # -- valuing a holding ---------------------------------------------------------------

    def value(
        self, concealed: Counter[str], exposed: Sequence[Exposed], unseen: Counter[str]
    ) -> float:
        """How close the holding is to 10 pairs with 6 chắn, and how good its wait is."""
        arr = arrange(concealed)
        pairs = len(arr.chan) + len(arr.ca) + sum(e.pairs for e in exposed)
        chan = len(arr.chan) + sum(e.chan for e in exposed)
        v = 10.0 * pairs + 5.0 * min(chan, 6) + 0.5 * max(chan - 6, 0)
        for q in arr.que:
            v += 0.4 * unseen[q] + 0.15 * sum(unseen[o] for o in same_rank_others(q))
            if concealed[q] == 3 and unseen[q]:
                v += 6.0 * self.style.chiu  # a triple waits for its chíu
        size = sum(concealed.values()) + sum(len(e.cards) for e in exposed)
        if size == 19 and pairs == 9:
            ws = waits(concealed, exposed)
            if ws:
                live = sum(unseen[x] for x in ws)
                single = len(ws) == 1
                v += 25.0 + (1.0 - self.style.bach_thu) * 1.5 * live
                v += self.style.bach_thu * (8.0 if single else 0.0)
        return v

    # -- decisions -----------------------------------------------------------------------

    def choose_discard(self, view: DiscardView) -> int:
        """Index into ``view.options`` of the card whose loss leaves the best holding."""
        return self.best_discard(view)[0]

    def best_discard(self, view: DiscardView) -> tuple[int, float]:
        """(index, value of the holding left) of the best discard in ``view.options``."""
        best, best_i = -1e9, 0
        for i, card in enumerate(view.options):
            rest = Counter(view.concealed)
            rest[card] -= 1
            v = self.value(+rest, view.exposed, view.unseen)
            if v > best + 1e-9:
                best, best_i = v, i
        return best_i, best

    def wants_eat(self, now: float, after: float) -> bool:
        """Eat when it makes the holding better (and the player is in the mood)."""
        return after > now + 0.5 and self.rng.random() < self.style.eat

    def wants_chiu(self) -> bool:
        return self.rng.random() < self.style.chiu

    def wants_khai(self) -> bool:
        return self.rng.random() < self.style.khai
