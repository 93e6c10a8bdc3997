"""``chan`` (the card game chắn) as :mod:`replay.registry` lists it."""

from __future__ import annotations

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.ruleset import Ruleset
from mjaudit.parts.replay.rulesets.chan.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.chan.render import chan_view, view_of
from mjaudit.parts.replay.rulesets.chan.replayer import replay_chan
from mjaudit.parts.replay.rulesets.chan.score import score_chan


def score_line(rep: HandReport) -> str:
    """The cước and the điểm they score."""
    pats = ", ".join(f"{p} {f}" for p, f in rep.patterns) or "none"
    return f"  cước: {pats}; score {rep.fan} điểm"


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
    ),
)
