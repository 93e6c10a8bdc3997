"""A ruleset as the rest of the project sees it: one value per ruleset id.

Each ruleset folder declares its :class:`Ruleset` values in its ``ruleset.py``;
:mod:`replay.registry` lists the folders. Every table that depends on the ruleset (the
engine's replay and step-through functions, the text of a report's score line, whether a
replay depends on the data folder's american cards, the option names) is read from
there, so adding a ruleset is one folder and one registry line (docs/adding-a-ruleset.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.scorecard import Scorer
from mjaudit.parts.replay.engine.view import TableSummary, TableView, position_text
from mjaudit.parts.schemas.rulesets import RULESETS as SHAPES
from mjaudit.parts.schemas.rulesets import Game, RulesetShape

ReplayFn = Callable[..., HandReport]
"""``(record, overrides, previous, observer) -> HandReport``: one hand, pure."""
PositionFn = Callable[[dict[str, Any], int | None, Mapping[str, object] | None], str]
"""``(record, at, overrides) -> text``: the table after event ``at`` (None: the deal)."""
ViewFn = Callable[[dict[str, Any], int | None, Mapping[str, object] | None], TableView]
"""``(record, at, overrides) -> TableView``: the same table as a value, from the ruleset's
own hand state stepped to event ``at``."""
StateViewFn = Callable[[Any, int | None], TableView]
"""``(hand state, at) -> TableView``: the view of a hand state already stepped to event
``at``, as a replay's observer sees it (what :data:`ViewFn` gives after stepping)."""
StateSummaryFn = Callable[[Any, int | None], TableSummary]
"""``(hand state, at) -> TableSummary``: the few fields of :data:`StateViewFn`'s view the
live service answers a post with, without building the rest."""


def patterns_text(rep: HandReport) -> str:
    """A report's patterns and what each scores, for a score line ("none" for none)."""
    return ", ".join(f"{p} {f}" for p, f in rep.patterns) or "none"


def fan_line(rep: HandReport) -> str:
    """The score line of a fan-counting ruleset (the Hong Kong presets)."""
    return f"  patterns: {patterns_text(rep)}; raw fan {rep.raw_fan}, fan {rep.fan}"


@dataclass(frozen=True)
class Ruleset:
    """One ruleset id (a preset) and what its engine gives the rest of the project."""

    id: str
    replay: ReplayFn
    option_names: frozenset[str]
    view: ViewFn | None = None  # None: no step-through view (``show``, the replayer)
    score_line: Callable[[HandReport], str] = fan_line  # a win's score, in its own terms
    uses_cards: bool = False  # its replay depends on the data folder's card files
    scorer: Scorer | None = None  # `mjaudit score`: value one win from notation
    # The unit a win's value is counted in; statistics never add two units together, and
    # each unit's payments are its own currency (HK points, vn-160 units, card points).
    unit: str = "fan"
    # The view of the state a replay's observer is handed: the live service answers each
    # post with it, from the replay that judged the post, instead of stepping again.
    state_view: StateViewFn | None = None
    # Its short summary (whose turn, the wall, who is out of play): what a post's answer
    # shows, at a fraction of the view's cost; None: the service reads it off the view.
    state_summary: StateSummaryFn | None = None

    @property
    def position(self) -> PositionFn | None:
        """The table as text for ``mjaudit show``: the one renderer of :attr:`view`."""
        return None if self.view is None else self._position

    def _position(
        self, record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
    ) -> str:
        assert self.view is not None
        return position_text(self.view(record, at, overrides))

    @property
    def shape(self) -> RulesetShape:
        """What the log format knows of it (players, tile codes, round wind)."""
        return SHAPES[self.id]

    @property
    def game(self) -> Game:
        return self.shape.game
