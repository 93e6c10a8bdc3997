"""Ruleset ``vn-160`` (Vietnamese mahjong with flowers and khung jokers).

Modules, one concept each: :mod:`~replay.vn160.tiles` (tile ints), :mod:`~replay.vn160.khung`
(win test and completions with jokers), :mod:`~replay.vn160.options` (§10),
:mod:`~replay.vn160.patterns` (§5), :mod:`~replay.vn160.scoring` (best reading, §6
payments), :mod:`~replay.vn160.hand` (the §8.2 state machine, also the simulator's table)
and :mod:`~replay.vn160.replayer` (record -> report, registered in :mod:`replay.engine`).
"""

from mjaudit.parts.replay.rulesets.vn160.khung import (
    KHUNG_CODES,
    completions,
    is_winning,
    khung_domain,
)

__all__ = ["KHUNG_CODES", "completions", "is_winning", "khung_domain"]
