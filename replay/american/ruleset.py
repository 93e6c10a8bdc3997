"""``american`` as :mod:`replay.registry` lists it: its replay reads the card the record
names from the data folder's cards, so a new or changed card replays its hands."""

from __future__ import annotations

from mjaudit.parts.replay.american.options import OPTION_NAMES
from mjaudit.parts.replay.american.position import position_text
from mjaudit.parts.replay.american.replayer import replay_american
from mjaudit.parts.replay.american.score import score
from mjaudit.parts.replay.findings import HandReport
from mjaudit.parts.replay.ruleset import Ruleset


def score_line(rep: HandReport) -> str:
    pats = ", ".join(f"{p} {f}" for p, f in rep.patterns) or "none"
    return f"  card hand: {pats}; value {rep.fan}"


RULESETS = (
    Ruleset(
        "american",
        replay_american,
        OPTION_NAMES,
        position_text,
        score_line,
        uses_cards=True,
        scorer=score,
        unit="card points",
    ),
)
