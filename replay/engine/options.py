"""What every ruleset's options table shares: the error, the validators, applying overrides.

Each ruleset keeps its options as a frozen dataclass of defaults plus a table of
validators, one per option name (``replay/rulesets/<family>/options.py``). A ruleset with
one table declares each option once, default and validator together, as an
:func:`option` field, and reads the table back with :func:`validators`. A record's
``options`` object and ``mjaudit check --option K=V`` are applied through
:func:`checked_changes`, so a typo or a bad value is reported the same way for every
ruleset, never ignored.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

Validator = Callable[[object], object]
T = TypeVar("T")
_CHECK = "mjaudit.option_check"  # the field metadata key of an option's validator


class OptionError(ValueError):
    """An unknown option or a bad value; the message names it and what was expected."""


class Bad(Exception):
    """Raised inside a validator; carries what was expected."""


def boolean(v: object) -> object:
    if isinstance(v, bool):
        return v
    raise Bad("true or false")


def choice(*values: str) -> Validator:
    def check(v: object) -> object:
        if isinstance(v, str) and v in values:
            return v
        raise Bad("one of " + ", ".join(repr(x) for x in values))

    return check


def int_choice(*values: int) -> Validator:
    def check(v: object) -> object:
        if isinstance(v, int) and not isinstance(v, bool) and v in values:
            return v
        raise Bad("one of " + ", ".join(str(x) for x in values) + " (an integer)")

    return check


def int_range(lo: int | None = None, hi: int | None = None) -> Validator:
    """An integer within the bounds given (either may be open)."""

    def check(v: object) -> object:
        is_int = isinstance(v, int) and not isinstance(v, bool)
        if is_int and (lo is None or v >= lo) and (hi is None or v <= hi):  # type: ignore[operator]
            return v
        if lo is not None and hi is not None:
            raise Bad(f"an integer from {lo} to {hi}")
        raise Bad(
            f"an integer{'' if lo is None else f' >= {lo}'}{'' if hi is None else f' <= {hi}'}"
        )

    return check


def positive(v: object) -> object:
    if isinstance(v, int | float) and not isinstance(v, bool) and v > 0:
        return v
    raise Bad("a number > 0")


def option(default: T, check: Validator) -> T:
    """A dataclass field that is a user option: its default and the validator of its
    values, so the name is written once and no option can lack a check."""
    return dataclasses.field(default=default, metadata={_CHECK: check})  # type: ignore[no-any-return]


def validators(options_class: Any) -> dict[str, Validator]:
    """The validator of each :func:`option` field of ``options_class``, by option name, in
    field order (fields declared without one are ruleset facts, not user options)."""
    return {
        f.name: f.metadata[_CHECK]
        for f in dataclasses.fields(options_class)
        if _CHECK in f.metadata
    }


def checked_changes(
    validators: Mapping[str, Validator],
    overrides: Mapping[str, object],
    ruleset: str,
    skip: Collection[str] = (),
) -> dict[str, object]:
    """``overrides`` validated option by option (keys in ``skip`` are left out: engine
    settings such as an american card file, not rules). Raises :class:`OptionError`."""
    changes: dict[str, object] = {}
    # In name order, and values shown with sorted keys: the archive stores options as
    # sorted-key JSON, so a hand replayed from it must get the message `check` gives.
    for name, value in sorted(overrides.items()):
        if name in skip:
            continue
        check = validators.get(name)
        if check is None:
            raise OptionError(
                f"unknown option {name!r} for {ruleset} (known: {', '.join(sorted(validators))})"
            )
        try:
            changes[name] = check(value)
        except Bad as bad:
            raise OptionError(
                f"{ruleset} option {name!r}: expected {bad}; got {_sorted(value)!r}"
            ) from None
    return changes


def overridden(
    defaults: T,
    validators: Mapping[str, Validator],
    overrides: Mapping[str, object] | None,
    ruleset: str,
    skip: Collection[str] = (),
) -> T:
    """``defaults`` (a frozen options dataclass) with the validated ``overrides`` applied;
    the very ``defaults`` when none are given, so an unchanged table stays one value."""
    if not overrides:
        return defaults
    changes = checked_changes(validators, overrides, ruleset, skip)
    return dataclasses.replace(defaults, **changes)  # type: ignore[type-var]


def _sorted(value: object) -> object:
    """``value`` with every dict's keys in sorted order (for a message)."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value
