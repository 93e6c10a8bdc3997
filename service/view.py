"""The table as the engine's view model gives it, and the short summary a post answers with.

Nothing new is computed here: the view model is the engine's own (``TableView``, the one
`mjaudit show` and the dashboard's replayer draw) and the text is the ruleset's own
``position`` function (what ``mjaudit show`` prints).
"""

from __future__ import annotations

from typing import Any

import msgspec
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import POSITIONS, VIEWS, position_text, table_view
from mjaudit.parts.replay.engine.view import TableSummary


def _model(view: Any) -> dict[str, Any]:
    model = msgspec.to_builtins(view)
    model.pop("findings", None)  # the hand's findings are given once, beside the view
    return model


def table_model(record: dict[str, Any]) -> dict[str, Any] | None:
    """The view model after the last event (after the deal when there is none); None for a
    ruleset whose engine has no view."""
    if record["ruleset"] not in VIEWS:
        return None
    events = record["events"]
    return _model(table_view(record, len(events) - 1 if events else None))


def state_summary(ruleset: str, state: Any, at: int) -> dict[str, Any] | None:
    """The summary of a hand state a replay's observer was handed after event ``at``:
    the post's answer comes from the replay that judged it, not from stepping again.
    Read off the state by the ruleset's ``state_summary`` when it has one (the seats'
    tiles, groups and discards of its whole view are not built); else off its view.
    None when the ruleset gives no view of its state."""
    rs = registry.get(ruleset)
    if rs is None or rs.state_view is None:
        return None
    if rs.state_summary is not None:
        return summary_json(rs.state_summary(state, at))
    return summary(_model(rs.state_view(state, at)))


def position(record: dict[str, Any]) -> str | None:
    """The ruleset's text view of the table (None for a ruleset without one)."""
    if record["ruleset"] not in POSITIONS:
        return None
    events = record["events"]
    return position_text(record, len(events) - 1 if events else None)


def summary(model: dict[str, Any] | None) -> dict[str, Any]:
    """Whose turn, who acted last, the wall, the dead hands: what a table's screen shows
    beside a post (of a view model, :func:`table_model`)."""
    if model is None:
        return {}
    return summary_json(
        TableSummary(
            n_events=model["n_events"],
            event=model["event"],
            actor=model["actor"],
            turn=model["turn"],
            stock=model["stock"],
            live=model.get("live"),
            status=tuple(tuple(s.get("status") or ()) for s in model["seats"]),
        )
    )


def summary_json(s: TableSummary) -> dict[str, Any]:
    """A :class:`TableSummary` as a post answers it: the dead hands by seat, with why."""
    return {
        "events": s.n_events,
        "event": s.event,
        "actor": s.actor,
        "turn": s.turn,
        "wall": s.stock,
        "live": s.live,
        "dead": {str(seat): list(status) for seat, status in enumerate(s.status) if status},
    }
