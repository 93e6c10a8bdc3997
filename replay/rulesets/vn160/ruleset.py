"""``vn-160`` as :mod:`replay.registry` lists it."""

from __future__ import annotations

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.ruleset import Ruleset, patterns_text
from mjaudit.parts.replay.rulesets.vn160.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.vn160.render import summary_of, view_of, vn160_view
from mjaudit.parts.replay.rulesets.vn160.replayer import replay_vn160
from mjaudit.parts.replay.rulesets.vn160.score import score_vn160


def score_line(rep: HandReport) -> str:
    """Phán, and the mủn the win is worth when the log's options count them."""
    mun = rep.extras.get("mun")
    return f"  patterns: {patterns_text(rep)}; {rep.fan} phán" + (
        f" ({mun} mủn)" if mun is not None else ""
    )


RULESETS = (
    Ruleset(
        "vn-160",
        replay_vn160,
        OPTION_NAMES,
        vn160_view,
        score_line,
        scorer=score_vn160,
        unit="phán",
        state_view=view_of,
        state_summary=summary_of,
    ),
)
