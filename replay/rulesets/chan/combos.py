"""Chắn, cạ and què: arranging a holding into pairs (chan.md §1.4, §4).

A holding is the concealed cards (a ``Counter`` of codes, arranged freely) plus the exposed
pairs (fixed as made; a chíu or thiên khai quad is two chắn). Pairs only ever join cards
of one rank, so every rank is arranged on its own: :func:`_rank_best` tries every way of
pairing the three suit counts of one rank and is memoised, which makes ``max_chan`` and
``win_set`` cheap enough to call for every player at every live card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from mjaudit.parts.replay.rulesets.chan.cards import CARDS, CC, RANKS, SUITS

NEG = -(10**6)  # "−∞": no arrangement into pairs exists


@dataclass(frozen=True, slots=True)
class Exposed:
    """One group on the mat (E(p)): a pair made by eating, or a chíu / thiên khai quad.

    ``cards`` lists the cards on the mat (a quad still being exposed after a short chíu
    has fewer than 4). ``eaten`` is the card taken from a cửa; ``how`` is ``eat``, ``chiu``
    or ``khai``; ``index`` is the event index that made it (None for the deal).
    """

    cards: tuple[str, ...]
    how: str
    eaten: str | None = None
    index: int | None = None

    @property
    def is_quad(self) -> bool:
        return self.how in ("chiu", "khai")

    @property
    def chan(self) -> int:
        if self.is_quad:
            return len(self.cards) // 2
        return 1 if self.cards[0] == self.cards[1] else 0

    @property
    def pairs(self) -> int:
        return len(self.cards) // 2 if self.is_quad else 1


@cache
def _rank_best(a: int, b: int, c: int) -> int:
    """Most chắn when a, b, c cards of the three suits of one rank are all paired."""
    best = NEG
    for ab in range(min(a, b) + 1):
        for ac in range(min(a - ab, c) + 1):
            for bc in range(min(b - ab, c - ac) + 1):
                ra, rb, rc = a - ab - ac, b - ab - bc, c - ac - bc
                if ra % 2 or rb % 2 or rc % 2:
                    continue
                best = max(best, (ra + rb + rc) // 2)
    return best


@cache
def _rank_arrange(
    a: int, b: int, c: int
) -> tuple[int, int, tuple[int, int, int], tuple[int, int, int]]:
    """Best arrangement allowing què: (pairs, chắn, chắn per suit, cạ ab/ac/bc)."""
    best: tuple[int, int, tuple[int, int, int], tuple[int, int, int]] = (0, 0, (0, 0, 0), (0, 0, 0))
    for ab in range(min(a, b) + 1):
        for ac in range(min(a - ab, c) + 1):
            for bc in range(min(b - ab, c - ac) + 1):
                ca, cb, cc = (a - ab - ac) // 2, (b - ab - bc) // 2, (c - ac - bc) // 2
                chan = ca + cb + cc
                cand = (chan + ab + ac + bc, chan, (ca, cb, cc), (ab, ac, bc))
                if cand[:2] > best[:2]:
                    best = cand
    return best


# The three suit cards of each rank, as codes: built once, not per call.
_RANK_CARDS: tuple[tuple[str, str, str], ...] = tuple(
    (f"{r}{SUITS[0]}", f"{r}{SUITS[1]}", f"{r}{SUITS[2]}") for r in RANKS
)


def concealed_max_chan(concealed: Counter[str]) -> int:
    """Most chắn over arrangements of all ``concealed`` cards into pairs (NEG if none).

    Called for every player at every live card: counts are read with ``get`` (a Counter's
    ``[]`` of an absent card is a Python-level ``__missing__`` call)."""
    get = concealed.get
    cc = get(CC, 0)
    if cc % 2:
        return NEG
    total = cc // 2
    for a, b, c in _RANK_CARDS:
        best = _rank_best(get(a, 0), get(b, 0), get(c, 0))
        if best == NEG:
            return NEG
        total += best
    return total


def max_chan(concealed: Counter[str], exposed: Sequence[Exposed] = ()) -> int:
    """maxChan(K) of §4.1 for the holding (exposed pairs fixed, concealed free)."""
    inner = concealed_max_chan(concealed)
    if inner == NEG:
        return NEG
    return inner + sum(e.chan for e in exposed)


def holding_size(concealed: Counter[str], exposed: Sequence[Exposed] = ()) -> int:
    n = sum(concealed.values())
    for e in exposed:
        n += len(e.cards)
    return n


def is_win(concealed: Counter[str], exposed: Sequence[Exposed] = ()) -> bool:
    """isWin(K): 20 cards, 10 pairs, at least 6 chắn."""
    if holding_size(concealed, exposed) != 20:
        return False
    return max_chan(concealed, exposed) >= 6


def copied(concealed: Counter[str]) -> Counter[str]:
    """A copy of ``concealed``, built without the Counter constructor, whose Python-level
    update and ABC checks cost more than a win test (a holding is copied at every discard
    and every win test)."""
    out: Counter[str] = Counter.__new__(Counter)  # empty; a Counter's __init__ only updates
    dict.update(out, concealed)
    return out


def plus(concealed: Counter[str], card: str) -> Counter[str]:
    """``concealed`` with one more ``card`` (a copy)."""
    out = copied(concealed)
    out[card] = out.get(card, 0) + 1
    return out


# A suit card's place in _RANK_CARDS: (rank position, suit position).
_PLACE: dict[str, tuple[int, int]] = {
    card: (i, j) for i, cards in enumerate(_RANK_CARDS) for j, card in enumerate(cards)
}


def _inner_with(cc: int, bests: list[int]) -> int:
    """concealed_max_chan from the CC count and each rank's best (NEG if no arrangement)."""
    if cc % 2 or NEG in bests:
        return NEG
    return cc // 2 + sum(bests)


def _chan_with(concealed: Counter[str], card: str, exposed: Sequence[Exposed]) -> int:
    """``max_chan(plus(concealed, card), exposed)`` without copying the holding: only the
    card's rank (or the CC count) differs from ``concealed``."""
    get = concealed.get
    cc = get(CC, 0)
    place = _PLACE.get(card)
    bests = []
    for i, (a, b, c) in enumerate(_RANK_CARDS):
        counts = [get(a, 0), get(b, 0), get(c, 0)]
        if place is not None and place[0] == i:
            counts[place[1]] += 1
        bests.append(_rank_best(*counts))
    inner = _inner_with(cc + (card == CC), bests)
    return NEG if inner == NEG else inner + sum(e.chan for e in exposed)


def is_win_with(concealed: Counter[str], card: str, exposed: Sequence[Exposed] = ()) -> bool:
    """``is_win(plus(concealed, card), exposed)``: the holding with one more card wins
    (every player's test at every live card, without the copy)."""
    if holding_size(concealed, exposed) != 19:
        return False
    return _chan_with(concealed, card, exposed) >= 6


def win_set(concealed: Counter[str], exposed: Sequence[Exposed] = ()) -> frozenset[str]:
    """WS(Hh): every identity that makes the 19-card holding a win (§4.1). Each rank is
    arranged once; a candidate card re-arranges only its own rank."""
    if holding_size(concealed, exposed) != 19:
        return frozenset()
    get = concealed.get
    cc = get(CC, 0)
    counts = [(get(a, 0), get(b, 0), get(c, 0)) for a, b, c in _RANK_CARDS]
    bests = [_rank_best(*n) for n in counts]
    need = 6 - sum(e.chan for e in exposed)  # max_chan >= 6
    out = []
    for x in CARDS:
        if x == CC:
            inner = _inner_with(cc + 1, bests)
        elif (place := _PLACE.get(x)) is not None:
            i, j = place
            n = list(counts[i])
            n[j] += 1
            inner = _inner_with(cc, [*bests[:i], _rank_best(*n), *bests[i + 1 :]])
        else:  # (every card is CC or a suit card of a rank)
            inner = NEG if not is_win(plus(concealed, x), exposed) else need
        if inner != NEG and inner >= need:
            out.append(x)
    return frozenset(out)


def is_bach_thu(concealed: Counter[str], exposed: Sequence[Exposed], w: str) -> bool:
    """§4.2: w ≠ CC wins and no other suit of its rank does."""
    if w == CC or not is_win_with(concealed, w, exposed):
        return False
    others = (f"{w[0]}{s}" for s in SUITS if s != w[1])
    return not any(is_win_with(concealed, y, exposed) for y in others)


def is_bach_thu_chi(concealed: Counter[str], exposed: Sequence[Exposed], w: str) -> bool:
    return (
        w == CC
        and max_chan(plus(concealed, CC), exposed) == 6
        and is_win(plus(concealed, CC), exposed)
    )


def is_chi_rong(concealed: Counter[str], exposed: Sequence[Exposed]) -> bool:
    """The 19-card holding waits on CC with a wide shape (maxChan ≥ 7): §4.2."""
    k = plus(concealed, CC)
    return is_win(k, exposed) and max_chan(k, exposed) >= 7


@dataclass(frozen=True)
class Arrangement:
    """A best arrangement of concealed cards: most pairs, then most chắn; the rest què."""

    chan: tuple[tuple[str, str], ...]
    ca: tuple[tuple[str, str], ...]
    que: tuple[str, ...]


def arrange(concealed: Counter[str]) -> Arrangement:
    """Decompose a concealed hand for display and for bots (què allowed)."""
    chan: list[tuple[str, str]] = [(CC, CC)] * (concealed[CC] // 2)
    ca: list[tuple[str, str]] = []
    que: list[str] = [CC] * (concealed[CC] % 2)
    for r in RANKS:
        cards = [f"{r}{s}" for s in SUITS]
        counts = [concealed[c] for c in cards]
        _, _, per_suit, (ab, ac, bc) = _rank_arrange(*counts)
        left = list(counts)
        for i, n in enumerate(per_suit):
            chan += [(cards[i], cards[i])] * n
            left[i] -= 2 * n
        for (i, j), n in (((0, 1), ab), ((0, 2), ac), ((1, 2), bc)):
            ca += [(cards[i], cards[j])] * n
            left[i] -= n
            left[j] -= n
        for i, n in enumerate(left):
            que += [cards[i]] * n
    return Arrangement(tuple(chan), tuple(ca), tuple(que))
