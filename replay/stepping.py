"""What every ruleset's replayer shares: the identity of a report, and stepping a hand's
state machine up to one event (``mjaudit show`` and the dashboard's replayer)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar


class HandMachine(Protocol):
    """A ruleset's hand state machine, as the replay loop drives it."""

    def start(self) -> None: ...

    def step(self, index: int, event: dict[str, Any]) -> None: ...


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


def step_to(hand: M, events: list[dict[str, Any]], at: int | None, stop: type[Exception]) -> M:
    """``hand`` after the deal and events ``0..at`` (None: the deal only). A corrupt log
    stops it where the replay stops (``stop`` is the ruleset's Stop exception)."""
    try:
        hand.start()
        for i, ev in enumerate(events):
            if at is None or i > at:
                break
            hand.step(i, ev)
    except stop:
        pass
    return hand
