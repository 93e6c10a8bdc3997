"""Does a 14-tile hand "be" a card hand (american.md §5.3), and which one scores (§5.5)?

Each card is compiled once (:func:`compile_card`) into two matrices over all bindings of
all hands: ``lo[b, t]`` = naturals of kind t the singles/pairs of binding b need, and
``hi[b, t]`` = ``lo`` + the slots of kind t in groups of 3-6 (stored as ``span = hi - lo``). Because jokers may fill only
groups of 3-6 (rule 2), a tile multiset T with natural counts ``c`` matches binding b
*ignoring exposures* iff ``lo[b] <= c <= hi[b]`` for every kind: the naturals fill the
singles and pairs first, the rest go into the big groups, and the jokers fill exactly the
slots left (both sides total 14). That is one vectorised comparison for the whole card.

Exposures (rule 3) are then checked on the few surviving bindings: each exposure
(identity t, size k) needs its own group (t, k), and the concealed naturals of t must fit
the groups of t that remain. Rule 4 (a concealed hand has no exposure) is last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from mjaudit.parts.replay.rulesets.american.card import Binding, Card, CardHand
from mjaudit.parts.replay.rulesets.american.tiles import FLOWER, JOKER_KIND

N_NATURAL = FLOWER + 1  # kinds 0..34: every kind but the joker


@dataclass(frozen=True, slots=True)
class ExposureShape:
    """What the matcher needs of an exposure: its identity kind, size and jokers in it."""

    kind: int
    size: int
    jokers: int = 0


@dataclass(frozen=True, slots=True)
class Match:
    """T matches ``hand`` under ``binding``; ``final`` is the §7.1 value V."""

    hand: CardHand
    binding: Binding
    jokerless: bool
    bonus: bool
    final: int


@dataclass(frozen=True)
class CompiledCard:
    card: Card
    lo: np.ndarray  # (35, B) uint8: naturals the singles and pairs need
    span: np.ndarray  # (35, B) uint8: slots in groups of 3-6 (hi - lo)
    owner: tuple[CardHand, ...]  # hand of each binding row
    rows: tuple[Binding, ...]
    slots: tuple[dict[tuple[int, int], int], ...]


_COMPILED: dict[int, tuple[Card, CompiledCard]] = {}


def compile_card(card: Card) -> CompiledCard:
    """The count matrices of ``card`` (cached per card object)."""
    hit = _COMPILED.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    owner: list[CardHand] = []
    rows: list[Binding] = []
    for h in card.hands:
        for b in h.bindings:
            owner.append(h)
            rows.append(b)
    # kind-major (35, B): the reduction over kinds then runs along contiguous rows, ~7x faster
    lo = np.ascontiguousarray(
        np.array([b.small[:N_NATURAL] for b in rows], dtype=np.uint8).reshape(-1, N_NATURAL).T
    )
    span = np.ascontiguousarray(
        np.array([b.big[:N_NATURAL] for b in rows], dtype=np.uint8).reshape(-1, N_NATURAL).T
    )
    compiled = CompiledCard(
        card, lo, span, tuple(owner), tuple(rows), tuple(b.group_slots() for b in rows)
    )
    _COMPILED[id(card)] = (card, compiled)
    return compiled


def _total_counts(concealed: Sequence[int], exposures: Sequence[ExposureShape]) -> list[int]:
    c = list(concealed)
    for e in exposures:
        c[e.kind] += e.size - e.jokers
        c[JOKER_KIND] += e.jokers
    return c


def _fits_exposures(
    b: Binding,
    slots: dict[tuple[int, int], int],
    concealed: Sequence[int],
    exposures: Sequence[ExposureShape],
) -> bool:
    """Rule 3 for one binding: each exposure takes a whole group of its size and identity."""
    need: Counter[tuple[int, int]] = Counter((e.kind, e.size) for e in exposures)
    for key, cnt in need.items():
        if slots.get(key, 0) < cnt:
            return False
    used: Counter[int] = Counter()
    for e in exposures:
        used[e.kind] += e.size
    for t, size in used.items():
        c = concealed[t]
        if c < b.small[t] or c > b.small[t] + b.big[t] - size:
            return False
    return True


def final_value(
    hand: CardHand, jokerless: bool, jokerless_doubles: bool = True
) -> tuple[int, bool]:
    """§7.1: V = value, doubled when T has no joker and the hand is eligible."""
    bonus = jokerless and jokerless_doubles and hand.jokerless_eligible
    return hand.value * (2 if bonus else 1), bonus


def match_all(
    card: Card,
    concealed: Sequence[int],
    exposures: Sequence[ExposureShape] = (),
    *,
    jokerless_doubles: bool = True,
    ignore_rule4: bool = False,
) -> list[Match]:
    """Every card hand T matches (one binding each, the first found), in card order.

    ``concealed`` is the 36-kind count vector of the concealed tiles (the called tile
    included for a discard win); ``exposures`` the player's exposures. With
    ``ignore_rule4`` concealed hands are tried even when the player has exposures (for
    ``CONCEALED_HAND_CALL``).
    """
    cc = compile_card(card)
    total = _total_counts(concealed, exposures)
    if sum(total) != 14:
        return []
    c = np.array(total[:N_NATURAL], dtype=np.uint8).reshape(N_NATURAL, 1)
    # lo <= c <= lo + span as one unsigned comparison: c - lo wraps to >= 242 when c < lo
    ok = np.flatnonzero(((c - cc.lo) <= cc.span).all(axis=0))
    jokerless = total[JOKER_KIND] == 0
    out: list[Match] = []
    done: set[str] = set()
    for i in ok.tolist():
        h = cc.owner[i]
        if h.id in done:
            continue
        if h.concealed and exposures and not ignore_rule4:
            continue
        b = cc.rows[i]
        if exposures and not _fits_exposures(b, cc.slots[i], concealed, exposures):
            continue
        done.add(h.id)
        v, bonus = final_value(h, jokerless, jokerless_doubles)
        out.append(Match(h, b, jokerless, bonus, v))
    return out


def best_match(
    card: Card,
    concealed: Sequence[int],
    exposures: Sequence[ExposureShape] = (),
    *,
    jokerless_doubles: bool = True,
    exclude_concealed: bool = False,
) -> Match | None:
    """§5.5: the matching hand with the largest final value; ties go to the first listed."""
    best: Match | None = None
    for m in match_all(card, concealed, exposures, jokerless_doubles=jokerless_doubles):
        if exclude_concealed and m.hand.concealed:
            continue
        if best is None or m.final > best.final:
            best = m
    return best


# (id(card), the exposures' sorted (kind, size) pairs) -> (card, fits): every call
# re-tests the same few exposure sets against every binding of the card (an eighth of an
# american replay), so each answer is kept, per card object. The card is kept with it,
# so its id is not reused while the entry lives.
_FITS: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[Card, bool]] = {}
_FITS_MAX = 100_000  # distinct (card, exposure set) answers kept before starting over


def exposures_fit(card: Card, exposures: Sequence[ExposureShape]) -> bool:
    """§8.1 DEAD_BY_EXPOSURE test: some X hand has a binding that holds every exposure."""
    key = (id(card), tuple(sorted((e.kind, e.size) for e in exposures)))
    hit = _FITS.get(key)
    if hit is not None:
        return hit[1]
    fits = _exposures_fit(card, key[1])
    if len(_FITS) >= _FITS_MAX:
        _FITS.clear()
    _FITS[key] = (card, fits)
    return fits


def _exposures_fit(card: Card, shapes: Sequence[tuple[int, int]]) -> bool:
    cc = compile_card(card)
    need: Counter[tuple[int, int]] = Counter(shapes)
    for i, h in enumerate(cc.owner):
        if h.concealed:
            continue
        slots = cc.slots[i]
        if all(slots.get(k, 0) >= n for k, n in need.items()):
            return True
    return False
