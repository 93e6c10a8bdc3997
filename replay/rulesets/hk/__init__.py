"""Hong Kong rulesets (hk-classic, hk-mahjongo, hk-mahjongo-2p): options, patterns, scoring.

The replay loop builds a :class:`WinContext` from the hand history and calls
:func:`evaluate` and :func:`settle`; everything here is pure.
"""

from mjaudit.parts.replay.rulesets.hk.options import (
    HK_CLASSIC,
    HK_MAHJONGO,
    HK_MAHJONGO_2P,
    PRESETS,
    HKOptions,
    OptionError,
    options_for,
)
from mjaudit.parts.replay.rulesets.hk.patterns import REGISTRY, WinContext, WinSource, fan_table
from mjaudit.parts.replay.rulesets.hk.scoring import (
    HandScore,
    base_points,
    discard_amount,
    evaluate,
    evaluate_all,
    false_win_deltas,
    golden_amount,
    score_decomposition,
    self_draw_amount,
    settle,
)

__all__ = [
    "HK_CLASSIC",
    "HK_MAHJONGO",
    "HK_MAHJONGO_2P",
    "PRESETS",
    "REGISTRY",
    "HKOptions",
    "HandScore",
    "OptionError",
    "WinContext",
    "WinSource",
    "base_points",
    "discard_amount",
    "evaluate",
    "evaluate_all",
    "false_win_deltas",
    "fan_table",
    "golden_amount",
    "options_for",
    "score_decomposition",
    "self_draw_amount",
    "settle",
]
