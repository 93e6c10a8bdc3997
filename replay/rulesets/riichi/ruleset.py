"""``riichi`` as :mod:`replay.registry` lists it."""

from __future__ import annotations

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.ruleset import Ruleset, patterns_text
from mjaudit.parts.replay.rulesets.riichi.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.riichi.render import riichi_view, summary_of, view_of
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_riichi


def score_line(rep: HandReport) -> str:
    """Han, fu and the points of each win."""
    wins = rep.extras.get("wins") or []
    values = "; ".join(
        f"seat {w['seat']}: {w['han']} han {w['fu']} fu, {w['points']} points" for w in wins
    )
    return f"  patterns: {patterns_text(rep)}; {values or 'no win'}"


RULESETS = (
    Ruleset(
        "riichi",
        replay_riichi,
        OPTION_NAMES,
        riichi_view,
        score_line,
        unit="han",
        state_view=view_of,
        state_summary=summary_of,
    ),
)
