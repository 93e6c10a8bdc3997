"""``american`` as :mod:`replay.registry` lists it: its replay reads the card the record
names from the data folder's cards, so a new or changed card replays its hands."""

from __future__ import annotations

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.ruleset import Ruleset, patterns_text
from mjaudit.parts.replay.rulesets.american.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.american.position import american_view, summary_of, view_of
from mjaudit.parts.replay.rulesets.american.replayer import replay_american
from mjaudit.parts.replay.rulesets.american.score import score


def score_line(rep: HandReport) -> str:
    return f"  card hand: {patterns_text(rep)}; value {rep.fan}"


RULESETS = (
    Ruleset(
        "american",
        replay_american,
        OPTION_NAMES,
        american_view,
        score_line,
        uses_cards=True,
        scorer=score,
        unit="card points",
        state_view=view_of,
        state_summary=summary_of,
    ),
)
