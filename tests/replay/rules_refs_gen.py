"""Build the checklist references of ``replay/rulesets/<folder>/checklist.json`` from the rules files.

The rules files (numbered sections, one legality checklist table each) are the source of
truth but do not ship, so each ruleset folder keeps a copy of what a report needs: for
every code its engine raises, the checklist rows that define it (``§8 #35``) or, for a
code the checklist only mentions, the section that defines it. ``test_rules_refs.py``
checks the copies against the rules files when they are present;
``python -m tests.replay.rules_refs_gen RULES_DIR`` rewrites them.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

from mjaudit.parts.replay.engine.checklist import checklist_path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT.parent / "shared" / "rules"  # beside the clone, where it is laid out
# preset id -> (rules file, engine folder); presets sharing a file share its table
SOURCES = {
    "hk-classic": ("hk-classic.md", "hk"),
    "hk-mahjongo": ("hk-mahjongo.md", "hk"),
    "hk-mahjongo-2p": ("hk-mahjongo.md", "hk"),
    "vn-160": ("vn-160.md", "vn160"),
    "american": ("american.md", "american"),
    "chan": ("chan.md", "chan"),
}
# finding classes and the engine's own failure: never a rule of the checklist
NOT_CODES = {"CORRUPT_LOG", "PLAYER_VIOLATION", "SCORE_MISMATCH", "INFO", "ENGINE_ERROR"}
_CODE = re.compile(r"`([A-Z][A-Z0-9_]{2,})`")
_HEADING = re.compile(r"^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s")
_MAHJONG_IMPORT = re.compile(r"rulesets\.mahjong\.(\w+) import")
_SHARED = ("findings.py", "recorded.py", "rotation.py", "turns.py", "options.py")  # engine/


def engine_codes(folder: str) -> set[str]:
    """Every UPPER_SNAKE string literal of the folder's engine and the shared pieces: the
    engine's, and the modules of ``replay/rulesets/mahjong`` the folder imports (the shared
    hand state records codes for the rulesets built on it)."""
    own = sorted((ROOT / "replay" / "rulesets" / folder).glob("*.py"))
    mahjong = {
        ROOT / "replay" / "rulesets" / "mahjong" / f"{m}.py"
        for path in own
        for m in _MAHJONG_IMPORT.findall(path.read_text())
    }
    files = [*own, *sorted(mahjong), *(ROOT / "replay" / "engine" / n for n in _SHARED)]
    found: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", value):
                found.add(value)
    return found - NOT_CODES


def parse(text: str) -> tuple[str, dict[str, list[int]], dict[str, str]]:
    """(checklist section, code -> its rows, code -> the first section naming it)."""
    section = checklist = ""
    header: list[str] | None = None
    rows: dict[str, list[int]] = {}
    first: dict[str, str] = {}
    for line in text.splitlines():
        m = _HEADING.match(line)
        if m:
            section, header = m.group(1), None
            if "checklist" in line.lower():
                checklist = section
            continue
        if checklist and section == checklist and line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "#":
                header = cells
                continue
            if header is not None and cells[0].isdigit() and "Code" in header:
                at = header.index("Code")
                named = _CODE.findall(cells[at]) + _CODE.findall(" ".join(cells[:at]))
                for code in dict.fromkeys(named):
                    rows.setdefault(code, []).append(int(cells[0]))
                continue
        if section:
            for code in _CODE.findall(line):
                first.setdefault(code, section)
    return checklist, rows, first


def table(rules: Path, preset: str) -> dict[str, str]:
    """code -> reference, e.g. ``hk-classic §8 #35, #36`` or ``chan §10.4``."""
    name, folder = SOURCES[preset]
    checklist, rows, first = parse((rules / name).read_text())
    doc = name.removesuffix(".md")
    out: dict[str, str] = {}
    for code in sorted(engine_codes(folder)):
        if code in rows:
            out[code] = f"{doc} §{checklist} " + ", ".join(f"#{n}" for n in sorted(set(rows[code])))
        elif code in first:
            out[code] = f"{doc} §{first[code]}"
    return out


def checklist_section(rules: Path, preset: str) -> str:
    name = SOURCES[preset][0]
    return f"{name.removesuffix('.md')} §{parse((rules / name).read_text())[0]}"


def file_text(rules: Path, folder: str) -> str:
    """The text of ``replay/rulesets/<folder>/checklist.json`` (read by
    ``replay/engine/checklist.py``): a table per rules file, the table of each preset."""
    presets = [p for p, (_, f) in SOURCES.items() if f == folder]
    docs = sorted({SOURCES[p][0] for p in presets})
    tables: dict[str, dict[str, object]] = {}
    for doc in docs:
        preset = next(p for p in presets if SOURCES[p][0] == doc)
        tables[doc.removesuffix(".md")] = {
            "section": checklist_section(rules, preset),
            "refs": table(rules, preset),
        }
    files = ", ".join(f"rules/{d}" for d in docs)
    data = {
        "about": f"Where each finding code of this engine is defined in the rules ({files}). "
        "Generated by `python -m tests.replay.rules_refs_gen RULES_DIR`; do not edit by hand.",
        "tables": tables,
        "presets": {p: SOURCES[p][0].removesuffix(".md") for p in presets},
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    rules = Path(sys.argv[1]) if len(sys.argv) > 1 else RULES
    for folder in dict.fromkeys(f for _, f in SOURCES.values()):
        path = checklist_path(ROOT / "replay" / "rulesets" / folder)
        path.write_text(file_text(rules, folder), encoding="utf-8")


if __name__ == "__main__":
    main()
