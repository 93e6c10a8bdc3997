"""The Hong Kong presets and the club score sheets, as :mod:`replay.registry` lists them."""

from __future__ import annotations

from mjaudit.parts.replay.engine.ruleset import Ruleset
from mjaudit.parts.replay.rulesets.hk.options import OPTION_NAMES
from mjaudit.parts.replay.rulesets.hk.render import hk_view, summary_of, view_of
from mjaudit.parts.replay.rulesets.hk.replayer import replay_hk
from mjaudit.parts.replay.rulesets.hk.score import score_hk
from mjaudit.parts.replay.rulesets.hk.sheet import replay_sheet

RULESETS = (
    *(
        Ruleset(
            preset,
            replay_hk,
            OPTION_NAMES[preset],
            hk_view,
            scorer=score_hk,
            state_view=view_of,
            state_summary=summary_of,
        )
        for preset in ("hk-classic", "hk-mahjongo", "hk-mahjongo-2p")
    ),
    # results-only hands from club score sheets: settled again, nothing to step through
    Ruleset("hk-sheet", replay_sheet, frozenset()),
)
