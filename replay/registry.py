"""Every ruleset the engine replays: one line per ruleset folder (see :mod:`replay.ruleset`).

The order is the order of the ids in ``schemas.rulesets`` (a test checks both list the
same ids), which is the order users see them in.
"""

from __future__ import annotations

from replay.american import ruleset as american
from replay.chan import ruleset as chan
from replay.hk import ruleset as hk
from replay.ruleset import Ruleset
from replay.vn160 import ruleset as vn160
from schemas.rulesets import RULESET_IDS

_DECLARED = {r.id: r for folder in (hk, vn160, american, chan) for r in folder.RULESETS}

RULESETS: dict[str, Ruleset] = {rid: _DECLARED[rid] for rid in RULESET_IDS if rid in _DECLARED}


def get(ruleset: str) -> Ruleset | None:
    """The ruleset of this id, None for an id no folder declares."""
    return RULESETS.get(ruleset)
