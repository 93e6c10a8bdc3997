"""Typed options of the ``american`` ruleset (american.md §10).

One frozen :class:`AmericanOptions`, defaults from the §10 table, overridable by a log's
``options`` object and by ``mjaudit check --option K=V``. Unknown names and bad values
raise :class:`replay.options.OptionError`, so a typo is reported, not ignored.

``card`` is required by the rules (§9.1) but checked by the engine (``CARD_INVALID``),
not here, so a record without it still replays its public actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.options import Bad as _Bad
from mjaudit.parts.replay.engine.options import OptionError, overridden
from mjaudit.parts.replay.engine.options import boolean as _bool
from mjaudit.parts.replay.engine.options import choice as _choice

__all__ = ["AMERICAN", "AmericanOptions", "OptionError", "options_for"]


@dataclass(frozen=True)
class AmericanOptions:
    card: str | None = None
    verify_deal_positions: bool = False
    second_charleston: str = "by_agreement"  # by_agreement | never | always
    courtesy_partner: str = "across"  # across | any_agreed
    blind_pass_passes: tuple[int, ...] = (3, 6)
    east_initial_mahjong: bool = True
    last_discard_exposure_call: bool = False
    end_when_three_dead: bool = True
    jokerless_doubles: bool = True
    call_then_mahjong_liability: str = "discarder"  # discarder | self_draw
    mahjong_in_error_payment: int | float | None = None  # None, or points paid to each other
    dead_by_visible_tiles: bool = False
    wrong_dead_call: str = "no_effect"  # no_effect | caller_dead
    point_value: int | float = 1


AMERICAN = AmericanOptions()


def _card(v: object) -> object:
    if isinstance(v, str) and v:
        return v
    raise _Bad("the card_id of a mj-card/1 file (a non-empty string)")


def _passes(v: object) -> object:
    if isinstance(v, list | tuple) and all(
        isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in v
    ):
        return tuple(sorted(set(v)))
    raise _Bad("a list of pass numbers 1-6")


def _positive(v: object) -> object:
    if isinstance(v, int | float) and not isinstance(v, bool) and v > 0:
        return v
    raise _Bad("a number > 0")


def _mie_payment(v: object) -> object:
    if v is None or v == "none":
        return None
    if isinstance(v, Mapping) and set(v) == {"each"}:
        return _positive(v["each"])
    raise _Bad("'none' or {each: points}")


_VALIDATORS: dict[str, Callable[[object], object]] = {
    "card": _card,
    "verify_deal_positions": _bool,
    "second_charleston": _choice("by_agreement", "never", "always"),
    "courtesy_partner": _choice("across", "any_agreed"),
    "blind_pass_passes": _passes,
    "east_initial_mahjong": _bool,
    "last_discard_exposure_call": _bool,
    "end_when_three_dead": _bool,
    "jokerless_doubles": _bool,
    "call_then_mahjong_liability": _choice("discarder", "self_draw"),
    "mahjong_in_error_payment": _mie_payment,
    "dead_by_visible_tiles": _bool,
    "wrong_dead_call": _choice("no_effect", "caller_dead"),
    "point_value": _positive,
}
OPTION_NAMES = frozenset(_VALIDATORS)

# Engine inputs passed through ``overrides`` that are not rules options.
ENGINE_KEYS = frozenset({"card_file"})


def options_for(overrides: Mapping[str, object] | None = None) -> AmericanOptions:
    """The §10 defaults with ``overrides`` applied (``card_file`` is skipped: not a rule)."""
    return overridden(AMERICAN, _VALIDATORS, overrides, "american", skip=ENGINE_KEYS)
