"""engine.options.option / validators: an option declared once carries its own check."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from mjaudit.parts.replay.engine.options import (
    OptionError,
    boolean,
    checked_changes,
    int_choice,
    option,
    validators,
)
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions


@dataclass(frozen=True)
class _Table:
    fast: bool = option(False, boolean)
    seats: int = option(4, int_choice(2, 4))
    ruleset: str = "demo"  # a ruleset fact: no validator, so no user option


def test_validators_lists_only_option_fields_in_field_order() -> None:
    assert list(validators(_Table)) == ["fast", "seats"]
    assert _Table() == _Table(fast=False, seats=4, ruleset="demo")


def test_a_declared_check_rejects_a_bad_value() -> None:
    table = validators(_Table)
    assert checked_changes(table, {"seats": 2}, "demo") == {"seats": 2}
    with pytest.raises(OptionError, match="'seats': expected one of 2, 4"):
        checked_changes(table, {"seats": 3}, "demo")
    with pytest.raises(OptionError, match="unknown option 'ruleset'"):
        checked_changes(table, {"ruleset": "x"}, "demo")


@pytest.mark.parametrize(
    ("cls", "facts"), [(VNOptions, {"tong_hop_dau_phan"}), (ChanOptions, set())]
)
def test_every_field_but_the_facts_is_a_checked_option(cls: type, facts: set[str]) -> None:
    fields = set(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    assert set(validators(cls)) == fields - facts
