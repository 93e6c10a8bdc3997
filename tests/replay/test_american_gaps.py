"""Gaps found when checking issue 10's "Done when" against american.md §5.4.

§5.4 "each `n` is 1–6": test_american_card.py rejects only n = 7. Here the lower bound and
the non-integer sizes a hand-written YAML card can contain, and both bounds accepted.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from mjaudit.parts.replay.rulesets.american.card import CardInvalid, card_from_obj
from test_american_card import GOOD_HAND


def _card(groups: list[tuple[Any, Any]], vars_: dict[str, Any] | None = None) -> dict[str, Any]:
    hand = copy.deepcopy(GOOD_HAND)
    hand["groups"] = [{"t": t, "n": n} for t, n in groups]
    if vars_ is None:
        hand.pop("vars", None)
    else:
        hand["vars"] = vars_
    return {"format": "mj-card/1", "card_id": "gaps-1", "hands": [hand]}


@pytest.mark.parametrize("n", [0, -1, True, "3", 3.5], ids=["0", "-1", "true", "str", "float"])
def test_CARD_INVALID_group_size_below_1_or_not_an_integer(n: Any) -> None:
    """Sizes that are not an integer 1-6 are named at groups[i].n, even when another
    group would make the total 14 (here the first group stands for a pung)."""
    x = {"x": {"min": 1, "max": 9}}
    bad = _card([("{x}.A", n), ("{x}.B", 4), ("{x}.C", 5), ("N", 2)], x)
    with pytest.raises(CardInvalid) as info:
        card_from_obj(bad)
    err = info.value
    assert (err.hand, err.where) == ("H-1", "groups[0].n"), str(err)
    assert str(err).startswith("CARD_INVALID") and "1-6" in str(err)


def test_group_sizes_1_and_6_are_accepted() -> None:
    """Both bounds of §5.4's 1-6: two sextets (2 jokers each) and two singles = 14."""
    card = card_from_obj(_card([("1.A", 6), ("2.A", 6), ("N", 1), ("S", 1)]))
    (hand,) = card.hands
    assert sorted(n for _, n in hand.groups) == [1, 1, 6, 6]
    assert hand.bindings  # completable: at most 8 jokers, naturals fit (§5.4)
