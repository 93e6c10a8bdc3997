"""The count-vector matcher (american.md §5.3/§5.5) agrees with a brute-force search.

The brute force enumerates, per card hand, every suit map (all 6 permutations of m p s
for A B C) × every value of every declared variable, resolves the groups, places the
exposures into groups of their identity and size in every way, then tries every
distribution of the concealed jokers over the remaining groups of 3-6 and checks the
naturals fill the rest exactly. Hands are drawn near card hands (a binding's tiles with
some jokers, some exposures, some tiles changed) so both verdicts occur often.
"""

from __future__ import annotations

import itertools
import operator
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.american.card import CardHand, sample_card
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape, best_match, match_all
from mjaudit.parts.replay.rulesets.american.tiles import FLOWER, JOKER_KIND, N_KINDS

CARD = sample_card()
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
       "==": operator.eq, "!=": operator.ne}  # fmt: skip


def brute_groups(hand: CardHand) -> Iterator[list[tuple[int, int]]]:
    names = [v for v, _ in hand.variables]
    domains = [d for _, d in hand.variables]
    for values_t in itertools.product(*domains):
        values = dict(zip(names, values_t, strict=True))
        ok = all(
            OPS[op](values.get(a, a), values.get(b, b))  # type: ignore[call-overload]
            for a, op, b in hand.constraints
        )
        if not ok:
            continue
        for perm in itertools.permutations(range(3)):
            suits = dict(zip("ABC", perm, strict=True))
            groups = [(tok.resolve(suits, values), n) for tok, n in hand.groups]
            if all(k is not None for k, _ in groups):
                yield groups  # type: ignore[misc]


def _joker_splits(caps: list[int], jokers: int) -> Iterator[list[int]]:
    if not caps:
        if jokers == 0:
            yield []
        return
    for j in range(min(caps[0], jokers) + 1):
        for rest in _joker_splits(caps[1:], jokers - j):
            yield [j, *rest]


def brute_is(hand: CardHand, concealed: Counter[int], exposures: list[ExposureShape]) -> bool:
    if hand.concealed and exposures:
        return False
    total = sum(concealed.values()) + sum(e.size for e in exposures)
    if total != 14:
        return False
    for groups in brute_groups(hand):
        idx = range(len(groups))
        for chosen in itertools.permutations(idx, len(exposures)):
            if any(groups[g] != (e.kind, e.size) for g, e in zip(chosen, exposures, strict=True)):
                continue
            rest = [groups[g] for g in idx if g not in chosen]
            caps = [n if n >= 3 else 0 for _, n in rest]
            for split in _joker_splits(caps, concealed[JOKER_KIND]):
                need: Counter[int] = Counter()
                for (k, n), j in zip(rest, split, strict=True):
                    need[k] += n - j
                if +need == +Counter({k: c for k, c in concealed.items() if k != JOKER_KIND}):
                    return True
    return False


@st.composite
def near_hands(draw: st.DrawFn) -> tuple[Counter[int], list[ExposureShape]]:
    hand = draw(st.sampled_from(CARD.hands))
    b = draw(st.sampled_from(hand.bindings))
    concealed: Counter[int] = Counter()
    exposures: list[ExposureShape] = []
    for k, n in b.groups:
        jokers = draw(st.integers(0, n)) if n >= 3 and draw(st.booleans()) else 0
        jokers = min(jokers, n - 1) if jokers and draw(st.booleans()) else jokers
        if n >= 3 and jokers < n and not hand.concealed and draw(st.integers(0, 3)) == 0:
            exposures.append(ExposureShape(k, n, jokers))
            continue
        concealed[k] += n - jokers
        concealed[JOKER_KIND] += jokers
    for _ in range(draw(st.integers(0, 2))):  # perturb: swap one concealed tile
        present = sorted(t for t, c in concealed.items() if c > 0)
        if not present:
            break
        out = draw(st.sampled_from(present))
        concealed[out] -= 1
        concealed[draw(st.integers(0, N_KINDS - 1))] += 1
    return +concealed, exposures


@st.composite
def random_hands(draw: st.DrawFn) -> tuple[Counter[int], list[ExposureShape]]:
    tiles = draw(
        st.lists(
            st.sampled_from([*range(FLOWER + 1), JOKER_KIND, 27, 30]), min_size=14, max_size=14
        )
    )
    return Counter(tiles), []


def _vector(c: Counter[int]) -> list[int]:
    return [c.get(k, 0) for k in range(N_KINDS)]


def _check(case: tuple[Counter[int], list[ExposureShape]]) -> None:
    concealed, exposures = case
    got = {m.hand.id for m in match_all(CARD, _vector(concealed), exposures)}
    want = {h.id for h in CARD.hands if brute_is(h, concealed, exposures)}
    assert got == want, (sorted(concealed.elements()), exposures)
    best = best_match(CARD, _vector(concealed), exposures)
    if want:
        assert best is not None
        jokerless = concealed[JOKER_KIND] == 0 and all(e.jokers == 0 for e in exposures)
        values = [
            (h.value * (2 if jokerless and h.jokerless_eligible else 1), -h.index, h.id)
            for h in CARD.hands
            if h.id in want
        ]
        assert best.hand.id == max(values)[2]
        assert best.final == max(values)[0]
    else:
        assert best is None


@settings(max_examples=150, deadline=None)
@given(near_hands())
def test_matcher_equals_brute_force_near_card_hands(
    case: tuple[Counter[int], list[ExposureShape]],
) -> None:
    _check(case)


@settings(max_examples=40, deadline=None)
@given(random_hands())
def test_matcher_equals_brute_force_random_hands(
    case: tuple[Counter[int], list[ExposureShape]],
) -> None:
    _check(case)
