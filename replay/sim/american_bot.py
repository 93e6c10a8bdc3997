"""A plausible American (NMJL-style) player: picks a card hand, passes, calls, exchanges jokers.

The bot never decides what is *legal*: the driver (:mod:`replay.sim.american_play`) applies
every event through :class:`replay.american.hand.AmericanHand` and asks the engine's matcher
before any Mahjong. The bot decides what is *sensible*, the way a card player does:

* its **target** is the card hand (one binding of suits and numbers) its tiles are closest
  to: the fewest tiles still missing, counting jokers only where the card allows them
  (groups of 3-6, american.md §1); with exposures, only X hands whose groups hold them;
* in the Charleston it passes the three tiles the target needs least (never a joker);
* it calls a discard for an exposure only when the target is an X hand with a free group
  of that tile, sized as that group, and the call brings it closer;
* it gives a natural for an exposed joker when the target loses nothing by it;
* it discards the tile least useful to the target, then to the other near hands.

Distances are count-vector arithmetic over the compiled card (one numpy expression for
every binding), so a bot decision costs microseconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from mjaudit.parts.replay.rulesets.american.card import Card
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape, compile_card
from mjaudit.parts.replay.rulesets.american.tiles import FLOWER, JOKER_KIND
from mjaudit.parts.replay.sim.core import habits

N_NATURAL = FLOWER + 1
TOP = 12  # bindings kept as "near hands" for tie-breaks


@dataclass(frozen=True, slots=True)
class Style:
    """A player's habits: readiness to call, to play the second Charleston, to pass blind."""

    claim: float = 0.85
    second: float = 0.6  # wish to play the optional second Charleston
    courtesy: float = 0.5  # how many tiles (share of 3) this player asks in the courtesy pass
    blind: float = 0.15  # chance of a blind pass in passes 3 and 6
    exchange: float = 0.9  # readiness to take an exposed joker

    @staticmethod
    def random(rng: random.Random) -> Style:
        ranges = {
            "claim": (0.6, 1.0),
            "second": (0.3, 0.95),
            "courtesy": (0.1, 0.9),
            "blind": (0.0, 0.35),
            "exchange": (0.6, 1.0),
        }
        return Style(**habits(rng, **ranges))


class CardModel:
    """The card as count matrices for distance arithmetic (cached per card object)."""

    _cache: ClassVar[dict[int, tuple[Card, CardModel]]] = {}

    def __init__(self, card: Card) -> None:
        cc = compile_card(card)
        self.card = card
        self.lo = cc.lo.T.astype(np.int16)  # (B, 35)
        self.hi = self.lo + cc.span.T.astype(np.int16)
        self.big = cc.span.T.astype(np.int16).sum(axis=1)  # slots jokers may fill
        self.concealed = np.array([h.concealed for h in cc.owner], dtype=bool)
        self.value = np.array([h.value for h in cc.owner], dtype=np.int16)
        self.owner = cc.owner
        self.slots = cc.slots
        self.rows = cc.rows
        self._allowed: dict[tuple[tuple[int, int], ...], np.ndarray] = {}
        # the row matrices of each allowed set, cut once (keyed by the rows array itself)
        self._sub: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        self._one: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    @classmethod
    def of(cls, card: Card) -> CardModel:
        hit = cls._cache.get(id(card))
        if hit is not None and hit[0] is card:
            return hit[1]
        model = cls(card)
        cls._cache[id(card)] = (card, model)
        return model

    def allowed(self, exposures: Sequence[ExposureShape]) -> np.ndarray:
        """Rows a player with these exposures can still make: X hands with room for them."""
        key = tuple(sorted((e.kind, e.size) for e in exposures))
        hit = self._allowed.get(key)
        if hit is not None:
            return hit
        if not key:
            rows = np.arange(len(self.owner))
        else:
            need: dict[tuple[int, int], int] = {}
            for k in key:
                need[k] = need.get(k, 0) + 1
            rows = np.array(
                [
                    i
                    for i, slots in enumerate(self.slots)
                    if not self.concealed[i] and all(slots.get(k, 0) >= n for k, n in need.items())
                ],
                dtype=np.int64,
            )
        self._allowed[key] = rows
        self._sub[id(rows)] = (rows, self.lo[rows][None], self.hi[rows][None], self.big[rows][None])
        self._one[id(rows)] = (
            rows,
            np.ascontiguousarray(self.lo[rows].T.astype(np.int8)),
            np.ascontiguousarray(self.hi[rows].T.astype(np.int8)),
            self.big[rows],
        )
        return rows

    def _matrices(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hit = self._sub.get(id(rows))
        if hit is not None and hit[0] is rows:
            return hit[1], hit[2], hit[3]
        return self.lo[rows][None], self.hi[rows][None], self.big[rows][None]

    def distance_one(self, totals: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """:meth:`distance` of one count vector against an :meth:`allowed` row set: the
        same arithmetic, kind-major in int8 (the hot path: every hand change)."""
        hit = self._one.get(id(rows))
        if hit is None or hit[0] is not rows:
            return self.distance(totals[None], rows)[0]
        _, lo, hi, big = hit
        placed_nat = np.minimum(totals[:N_NATURAL, None].astype(np.int8), hi)
        in_big = np.maximum(placed_nat - lo, 0).sum(axis=0, dtype=np.int16)
        jokers = totals[JOKER_KIND]
        return 14 - placed_nat.sum(axis=0, dtype=np.int16) - np.minimum(jokers, big - in_big)

    def distance(self, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Tiles missing from each row: ``counts`` is (K, 36) totals, result (K, len(rows)).

        Naturals fill their own slots (singles and pairs first); jokers fill only the
        slots of groups of 3-6 the naturals leave free (american.md §5.3 rule 2).
        """
        nat = counts[:, None, :N_NATURAL]
        lo, hi, big = self._matrices(rows)
        placed_nat = np.minimum(nat, hi)
        in_big = np.maximum(placed_nat - lo, 0).sum(axis=2)
        free = big - in_big
        jokers = counts[:, JOKER_KIND][:, None]
        placed = placed_nat.sum(axis=2) + np.minimum(jokers, free)
        return 14 - placed


@dataclass(frozen=True)
class Assessment:
    """Where a hand stands: its target row, tiles missing, the nearest rows, its totals."""

    target: int  # binding row of the compiled card
    distance: int
    near: np.ndarray  # rows nearest first (the target among them)
    totals: np.ndarray  # (36,) concealed plus exposed counts


class AmericanBot:
    """Heuristic American player (see the module docstring)."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.rng = rng
        self.target: int | None = None

    # -- the target ----------------------------------------------------------------------

    @staticmethod
    def totals(concealed: Sequence[int], exposures: Sequence[ExposureShape]) -> np.ndarray:
        c = np.array(concealed, dtype=np.int16)
        for e in exposures:
            c[e.kind] += e.size - e.jokers
            c[JOKER_KIND] += e.jokers
        return c

    def assess(
        self, model: CardModel, concealed: Sequence[int], exposures: Sequence[ExposureShape]
    ) -> Assessment | None:
        """Pick the target: the nearest row (the current one kept on a tie, else the one
        worth most). None when no card hand can hold the exposures."""
        rows = model.allowed(exposures)
        if len(rows) == 0:
            return None
        totals = self.totals(concealed, exposures)
        d = model.distance_one(totals, rows)
        order = np.argsort(d, kind="stable")
        best = int(d[order[0]])
        near = rows[d == best]
        if self.target is not None and self.target in near:
            row = self.target
        else:
            row = int(near[int(np.argmax(model.value[near]))])
        self.target = row
        top = rows[order[:TOP]]
        if row not in top:
            top = np.append(top, row)
        return Assessment(row, best, top, totals)

    # -- choices -------------------------------------------------------------------------

    def least_useful(
        self, model: CardModel, a: Assessment, concealed: Sequence[int], k: int
    ) -> list[int]:
        """``k`` tile kinds to give away (discard or pass), never a joker while a natural
        is left: least useful to the target, then to the other near rows."""
        c = list(concealed)
        out: list[int] = []
        base = a.totals.copy()
        rows = a.near
        t_pos = int(np.flatnonzero(rows == a.target)[0])
        for _ in range(k):
            kinds = [t for t in range(N_NATURAL) if c[t] > 0]
            if not kinds:
                kinds = [JOKER_KIND] if c[JOKER_KIND] else []
            if not kinds:
                break
            cand = np.repeat(base[None], len(kinds), axis=0)
            cand[np.arange(len(kinds)), kinds] -= 1
            d = model.distance(cand, rows).astype(np.int64)
            # lexicographic (distance to the target, sum over the near rows, lowest kind):
            # kinds are ascending, so argmin's first minimum breaks the last tie
            key = d[:, t_pos] * 4096 + d.sum(axis=1)
            t = kinds[int(np.argmin(key))]
            out.append(t)
            c[t] -= 1
            base[t] -= 1
        return out

    def wants_second_charleston(self, distance: int) -> bool:
        return distance >= 4 and self.rng.random() < self.style.second

    def courtesy_ask(self, distance: int) -> int:
        if distance <= 2:
            return 0
        return min(3, int(self.rng.random() * 4 * self.style.courtesy))

    def blind_count(self) -> int:
        return self.rng.choice((1, 2, 3)) if self.rng.random() < self.style.blind else 0

    def call_size(
        self,
        model: CardModel,
        a: Assessment,
        concealed: Sequence[int],
        exposures: Sequence[ExposureShape],
        tile_kind: int,
    ) -> int | None:
        """The exposure size to call ``tile_kind`` for, or None: only for the target's own
        free group of that tile, when the hand holds enough naturals and jokers."""
        if model.concealed[a.target] or tile_kind == JOKER_KIND:
            return None
        slots = model.slots[a.target]
        sizes = [n for (t, n) in slots if t == tile_kind]
        if not sizes:
            return None
        used: dict[tuple[int, int], int] = {}
        for e in exposures:
            used[(e.kind, e.size)] = used.get((e.kind, e.size), 0) + 1
        sizes = [n for n in sizes if used.get((tile_kind, n), 0) < slots[(tile_kind, n)]]
        if not sizes:
            return None
        size = max(sizes)
        if concealed[tile_kind] + concealed[JOKER_KIND] < size - 1:
            return None
        after = a.totals.copy()
        after[tile_kind] += 1
        d_after = model.distance(after[None], np.array([a.target]))
        if int(d_after[0, 0]) >= a.distance:
            return None
        return size if self.rng.random() < self.style.claim else None

    def wants_exchange(self, model: CardModel, a: Assessment, natural: int) -> bool:
        """Give ``natural`` for an exposed joker when the target loses nothing by it."""
        after = a.totals.copy()
        after[natural] -= 1
        after[JOKER_KIND] += 1
        d = int(model.distance(after[None], np.array([a.target]))[0, 0])
        return d <= a.distance and self.rng.random() < self.style.exchange
