"""Ruleset ``chan`` (Chắn, the Vietnamese 100-card game): chan.md as a replay engine.

Modules: :mod:`cards` (codes, names, colours), :mod:`options` (§12), :mod:`combos`
(chắn / cạ / què, maxChan, win sets), :mod:`cuoc` (§7), :mod:`declaration` (§8, error 14),
:mod:`history` (§10.4-§10.6 "could have" bookkeeping), :mod:`settlement` (§9),
:mod:`state` (the turn machine and the simulator API) and :mod:`replayer` (the plug-in).
"""

from mjaudit.parts.replay.rulesets.chan.cards import card_name, display, is_red
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions, OptionError, options_for

__all__ = ["ChanOptions", "OptionError", "card_name", "display", "is_red", "options_for"]
