"""The one walk every ruleset's replay takes over a hand, and the identity of a report.

A hand state (``HKHand``, ``VNHand``, ``AmericanHand``, ``ChanHand``) is driven the same
way by the replay (:func:`walk`), by ``mjaudit show`` and the dashboard's replayer
(:func:`step_to`) and by the simulator: ``start`` (the deal), ``step`` per event,
``finish`` at the end. A CORRUPT_LOG finding raises :class:`~replay.findings.Stop`,
which ends the walk where it was found: the state after it cannot be trusted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from mjaudit.parts.replay.engine.findings import Stop


class HandMachine(Protocol):
    """A ruleset's hand state machine, as the walk drives it."""

    def start(self) -> None: ...

    def step(self, index: int, event: dict[str, Any]) -> None: ...

    def run(self, events: Sequence[dict[str, Any]]) -> None:
        """``step`` every event (a state may do the common cases faster)."""
        ...

    def finish(self, last_index: int) -> None:
        """After the last event (``last_index``: its index, -1 for none)."""
        ...


M = TypeVar("M", bound=HandMachine)


def report_base(record: dict[str, Any]) -> dict[str, Any]:
    """The HandReport fields every report of ``record`` starts from."""
    return {
        "game_id": record["game_id"],
        "hand_no": record["hand_no"],
        "ruleset": record["ruleset"],
        "players": tuple(record["players"]),
        "dealer": record["dealer"],
        "prevailing_wind": record.get("prevailing_wind"),
    }


def walk(
    hand: M,
    events: Sequence[dict[str, Any]],
    before: Callable[[], None] | None = None,
    observer: Callable[[int, M], None] | None = None,
) -> M:
    """Replay ``events`` on ``hand``: ``before`` (checks against the previous hand), the
    deal, every event (``observer`` sees the state after each), the end of the hand. A
    CORRUPT_LOG finding ends the walk there."""
    try:
        if before is not None:
            before()
        hand.start()
        if observer is None:
            hand.run(events)
        else:
            for i, ev in enumerate(events):
                hand.step(i, ev)
                observer(i, hand)
        hand.finish(len(events) - 1)
    except Stop:
        pass
    return hand


def step_to(hand: M, events: Sequence[dict[str, Any]], at: int | None) -> M:
    """``hand`` after the deal and events ``0..at`` (None: the deal only), for
    step-through. A corrupt log stops it where the replay stops."""
    try:
        hand.start()
        for i, ev in enumerate(events):
            if at is None or i > at:
                break
            hand.step(i, ev)
    except Stop:
        pass
    return hand
