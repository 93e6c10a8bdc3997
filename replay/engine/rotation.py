"""The dealer and the prevailing wind of a hand against the hand before it.

Every mahjong ruleset checks the same things in the same order (hand 1 is played in the
East round; a missing previous hand is an INFO, a corrupt one is not checked against;
the deal passes to the next seat unless the ruleset's rules keep it; the round wind moves
on when the deal comes back to the round's first dealer). What differs is whether the
dealer stays (a function of the previous report), the codes and the wording, given as a
:class:`Rotation`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from mjaudit.parts.replay.engine.findings import HandReport

WINDS = "ESWN"


class _Hand(Protocol):
    record: dict[str, Any]

    def hard(self, index: int | None, seat: int | None, code: str, message: str) -> Any: ...

    def info(self, index: int | None, seat: int | None, code: str, message: str) -> None: ...


@dataclass(frozen=True)
class Rotation:
    """One ruleset's rotation rules and wording (``{...}`` fields are filled in)."""

    stays: Callable[[HandReport], bool]  # does the dealer of ``previous`` deal again?
    missing: str  # {n}: the missing hand's number
    dealer: str = (
        "the dealer is seat {dealer}, but after hand {previous} ({ended_by}) "
        "it should be seat {expected}"
    )
    wind_code: str | None = None  # None: the ruleset has no round wind to check
    first_hand: str = "hand 1 is played in round {wind}, expected E"


def round_start(record: dict[str, Any], previous: HandReport | None) -> int:
    """The dealer of the first present hand of this hand's round (for the wind check)."""
    if previous is None or previous.prevailing_wind != record.get("prevailing_wind"):
        return record["dealer"]
    return previous.extras.get("round_start_dealer", previous.dealer)


def check_rotation(hand: _Hand, previous: HandReport | None, rules: Rotation) -> None:
    """DEALER_ROTATION_MISMATCH and the wind check against ``previous`` (the report of
    hand ``hand_no - 1`` of the same game, None if the archive does not have it)."""
    rec = hand.record
    wind = rec.get("prevailing_wind")
    if rec["hand_no"] == 1:
        if rules.wind_code is not None and wind not in (None, "E"):
            hand.hard(None, None, rules.wind_code, rules.first_hand.format(wind=wind))
        return
    if previous is None:
        hand.info(None, None, "PREVIOUS_HAND_MISSING", rules.missing.format(n=rec["hand_no"] - 1))
        return
    if previous.corrupt:
        return
    stays = rules.stays(previous)
    expected = previous.dealer if stays else (previous.dealer + 1) % len(rec["players"])
    if rec["dealer"] != expected:
        message = rules.dealer.format(
            dealer=rec["dealer"],
            previous=previous.hand_no,
            ended_by=previous.ended_by,
            expected=expected,
        )
        hand.hard(None, rec["dealer"], "DEALER_ROTATION_MISMATCH", message)
    if rules.wind_code is None:
        return
    round_first = previous.extras.get("round_start_dealer", previous.dealer)
    expected_wind = previous.prevailing_wind
    if not stays and expected == round_first and expected_wind in ("E", "S", "W"):
        expected_wind = WINDS[WINDS.index(expected_wind) + 1]
    if wind != expected_wind:
        hand.hard(
            None,
            None,
            rules.wind_code,
            f"the prevailing wind is {wind}, expected {expected_wind} after hand {previous.hand_no}",
        )
