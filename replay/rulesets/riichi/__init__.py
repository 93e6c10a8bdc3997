"""Ruleset ``riichi`` (Japanese riichi mahjong, Tenhou's standard rules).

Modules, one concept each: :mod:`~.options` (the table's options), :mod:`~.tiles` (codes,
kinds and the ``mahjong`` package's 136-tile form), :mod:`~.scoring` (a win's value from
the ``mahjong`` package, behind our pattern ids), :mod:`~.waits` (tenpai and waits),
:mod:`~.settle` (payments, honba, sticks, Pao, draws), :mod:`~.hand` (the hand state) and
:mod:`~.replayer` (record -> report, registered in :mod:`replay.engine.registry`).
"""
