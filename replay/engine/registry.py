"""Every ruleset the engine replays: one line per ruleset folder (see :mod:`replay.ruleset`).

The order is the order of the ids in ``schemas.rulesets`` (a test checks both list the
same ids), which is the order users see them in. Each folder's ``checklist.json`` says
where its finding codes are defined in the rules (:func:`rules_ref`).
"""

from __future__ import annotations

from mjaudit.parts.replay.engine.checklist import Checklist, checklists
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR
from mjaudit.parts.replay.engine.ruleset import Ruleset
from mjaudit.parts.replay.rulesets.american import ruleset as american
from mjaudit.parts.replay.rulesets.chan import ruleset as chan
from mjaudit.parts.replay.rulesets.hk import ruleset as hk
from mjaudit.parts.replay.rulesets.riichi import ruleset as riichi
from mjaudit.parts.replay.rulesets.vn160 import ruleset as vn160
from mjaudit.parts.schemas.rulesets import RULESET_IDS

_FOLDERS = (hk, vn160, american, chan, riichi)  # each folder's ruleset module

_DECLARED = {r.id: r for folder in _FOLDERS for r in folder.RULESETS}

RULESETS: dict[str, Ruleset] = {rid: _DECLARED[rid] for rid in RULESET_IDS if rid in _DECLARED}

# ruleset id -> (its checklist section, code -> where the rules define it)
CHECKLISTS: dict[str, Checklist] = {
    rid: table for folder in _FOLDERS for rid, table in checklists(folder).items()
}


def get(ruleset: str) -> Ruleset | None:
    """The ruleset of this id, None for an id no folder declares."""
    return RULESETS.get(ruleset)


def rules_ref(ruleset: str, code: str, reason: str | None = None) -> str | None:
    """Where the rules define a finding: the reason's checklist rows when it has its own
    (FALSE_WIN, WIN_BELOW_MIN_FAN: ``hk-classic §8 #38``), else the code's, else the
    ruleset's checklist section; None for a ruleset with no checklist (hk-sheet) and for
    ENGINE_ERROR, which no rule defines."""
    known = CHECKLISTS.get(ruleset)
    if known is None or code == ENGINE_ERROR:
        return None
    section, refs = known
    return refs.get(reason or "") or refs.get(code) or section
