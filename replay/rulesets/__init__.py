"""One folder per ruleset family (``hk/``, ``vn160/``, ``american/``, ``chan/``), each
declaring its :class:`~mjaudit.parts.replay.engine.ruleset.Ruleset` values in
``ruleset.py``; ``mahjong/`` holds the tile arithmetic the mahjong families share."""
