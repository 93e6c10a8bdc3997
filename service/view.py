"""The table as the dashboard's replayer draws it, and the short summary a post answers with.

Nothing new is computed here: the view model is the dashboard's (``table_view`` where the
engine steps the table itself, the log's ``ledger_view`` for the others) and the text is
the ruleset's own ``position`` function (what ``mjaudit show`` prints).
"""

from __future__ import annotations

from typing import Any

import msgspec
from mjaudit.parts.dashboards.ledger import ledger_view
from mjaudit.parts.dashboards.table_view import steps_with_engine, table_view, view_of
from mjaudit.parts.replay.engine import POSITIONS, position_text


def _model(view: Any) -> dict[str, Any]:
    model = msgspec.to_builtins(view)
    model.pop("findings", None)  # the hand's findings are given once, beside the view
    return model


def table_model(record: dict[str, Any]) -> dict[str, Any]:
    """The view model after the last event (after the deal when there is none)."""
    at = len(record["events"]) - 1
    build = table_view if steps_with_engine(record["ruleset"]) else ledger_view
    return _model(build(record, at))


class Snapshot:
    """The summary after the last event of ``record``, drawn from the engine's own state
    as the post's replay passes it (a ``watch`` of :func:`session.raised`) where the view
    model is the engine's, so the table is not stepped through a second time."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.last = len(record["events"]) - 1
        self.engine = steps_with_engine(record["ruleset"])
        self.state: dict[str, Any] | None = None

    def __call__(self, index: int, hand: Any) -> None:
        if self.engine and index == self.last:
            self.state = summary(_model(view_of(self.record, index, hand)))

    def of(self, record: dict[str, Any]) -> dict[str, Any]:
        """The summary of ``record`` (the events taken: all of them, or fewer if the hand
        closed on the way)."""
        if self.state is not None and len(record["events"]) == self.last + 1:
            return self.state
        return summary(table_model(record))


def position(record: dict[str, Any]) -> str | None:
    """The ruleset's text view of the table (None for a ruleset without one)."""
    if record["ruleset"] not in POSITIONS:
        return None
    events = record["events"]
    return position_text(record, len(events) - 1 if events else None)


def summary(model: dict[str, Any]) -> dict[str, Any]:
    """Who acted last, the wall, the dead hands: what a table's screen shows beside a post."""
    dead = {str(s["seat"]): s["dead"] for s in model["seats"] if s.get("dead")}
    return {
        "events": model["n_events"],
        "last": model["description"],
        "actor": model["actor"],
        "wall": model["undrawn"],
        "live": model.get("live"),
        "dead": dead,
    }
