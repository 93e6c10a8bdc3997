"""Where each ruleset's finding codes are defined in its rules: the folders' ``checklist.json``.

A report cites the reference beside each finding (:func:`replay.engine.registry.rules_ref`).
The tables are data, one file per ruleset folder, read here the one way: the rules files
they are generated from (``python -m tests.replay.rules_refs_gen RULES_DIR``) do not ship,
and as data the folders do not each repeat the same module around their table.
"""

from __future__ import annotations

import json
from pathlib import Path

Checklist = tuple[str, dict[str, str]]
"""(the checklist's section, code -> where the rules define it), e.g. ``("vn-160 §8.2",
{"TILE_OVERCOUNT": "vn-160 §8.2 #3", ...})``."""

FILE = "checklist.json"


def checklist_path(folder: Path) -> Path:
    """The checklist file of a ruleset folder."""
    return folder / FILE


def checklists(folder: Path) -> dict[str, Checklist]:
    """Preset id -> its checklist, from the ``checklist.json`` of the ruleset folder at
    ``folder``. Presets that share a rules file share its table (``presets`` names the
    table of each)."""
    path = checklist_path(folder)
    data = json.loads(path.read_text(encoding="utf-8"))
    tables = {
        name: (table["section"], dict(table["refs"])) for name, table in data["tables"].items()
    }
    return {preset: tables[name] for preset, name in data["presets"].items()}
