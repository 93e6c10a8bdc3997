"""The american engine's multiset shortcuts agree with what they replace (issue 24: the
Counter arithmetic and the §8.1 exposure test were a third of an american replay)."""

from __future__ import annotations

import dataclasses
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.american.card import sample_card
from mjaudit.parts.replay.rulesets.american.hand import _counts, _within
from mjaudit.parts.replay.rulesets.american.matcher import (
    ExposureShape,
    _exposures_fit,
    exposures_fit,
)
from mjaudit.parts.replay.rulesets.american.tiles import N_KINDS

TILES = st.sampled_from(["1B", "1B", "2C", "5D", "N", "J", "F1", "FL"])
PARTS = st.lists(TILES, max_size=6)


@given(PARTS, PARTS)
def test_within_is_the_counter_sub_multiset_test(part: list[str], pool: list[str]) -> None:
    assert _within(part, pool) == (not Counter(part) - Counter(pool))


@given(PARTS, PARTS)
def test_counts_are_the_counter_of_the_parts_in_first_seen_order(
    a: list[str], b: list[str]
) -> None:
    assert list(_counts(a, b).items()) == list((Counter(a) + Counter(b)).items())


SHAPES = st.lists(
    st.builds(ExposureShape, st.integers(0, N_KINDS - 1), st.integers(3, 6), st.integers(0, 2)),
    max_size=4,
)


@given(SHAPES)
def test_exposures_fit_keeps_the_answer_of_the_binding_search(shapes: list[ExposureShape]) -> None:
    card = sample_card()
    want = _exposures_fit(card, [(e.kind, e.size) for e in shapes])
    assert exposures_fit(card, shapes) == want
    assert exposures_fit(card, list(reversed(shapes))) == want  # the same exposure set


def test_exposures_fit_answers_per_card_object() -> None:
    """A kept answer is the card's own: a card without exposed (X) hands fits nothing."""
    card = sample_card()
    shapes = [ExposureShape(0, 3)]
    concealed_only = dataclasses.replace(
        card, hands=tuple(dataclasses.replace(h, concealed=True) for h in card.hands)
    )
    assert exposures_fit(card, shapes) is True
    assert exposures_fit(concealed_only, shapes) is False
    assert exposures_fit(card, shapes) is True
