"""``chan`` (the card game chắn) as :mod:`replay.registry` lists it."""

from __future__ import annotations

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.ruleset import Ruleset, patterns_text
from mjaudit.parts.replay.rulesets.chan.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.chan.render import chan_view, summary_of, view_of
from mjaudit.parts.replay.rulesets.chan.replayer import replay_chan
from mjaudit.parts.replay.rulesets.chan.score import score_chan


def score_line(rep: HandReport) -> str:
    """The cước and the điểm they score."""
    return f"  cước: {patterns_text(rep)}; score {rep.fan} điểm"


RULESETS = (
    Ruleset(
        "chan",
        replay_chan,
        OPTION_NAMES,
        chan_view,
        score_line,
        scorer=score_chan,
        unit="điểm",
        state_view=view_of,
        state_summary=summary_of,
    ),
)
