"""Typed options of ``riichi``, defaulting to Tenhou's standard rules (docs/rules/riichi.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.options import Validator, checked_changes
from mjaudit.parts.replay.engine.options import boolean as _bool

RULESET = "riichi"


@dataclass(frozen=True)
class RiichiOptions:
    """Every option of riichi; field names are the option names."""

    red_fives: bool = True  # one red five per suit, each a dora (aka ari)
    open_tanyao: bool = True  # all simples counts in an open hand (kuitan)
    multiple_winners: bool = True  # double ron is settled; three rons abort the hand
    abortive_draws: bool = True  # nine terminals, four winds, four riichi, four kans
    tobi: bool = True  # the game ends when a score goes below zero

    @property
    def false_win_effect(self) -> str:
        """A false win (chombo) ends the hand (the shared claim group reads this)."""
        return "end_hand"


_VALIDATORS: dict[str, Validator] = {f.name: _bool for f in dataclasses.fields(RiichiOptions)}
OPTION_NAMES = frozenset(_VALIDATORS)


def options_for(overrides: Mapping[str, object] | None = None) -> RiichiOptions:
    """The options with ``overrides`` applied; raises OptionError for a bad name or value."""
    return RiichiOptions(**checked_changes(_VALIDATORS, overrides or {}, RULESET))
