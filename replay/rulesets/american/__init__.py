"""American mahjong (NMJL style, american.md): a card file drives what a winning hand is.

Modules: :mod:`tiles` (kinds), :mod:`card` (the ``mj-card/1`` loader, validator,
compiler and registry), :mod:`matcher` (count-vector matching, §5.3/§5.5),
:mod:`options` (§10), :mod:`scoring` (§7), :mod:`hand` (the §9.2 state machine, also the
simulator API) and :mod:`replayer` (the ``replay.engine`` plug-in).
"""
