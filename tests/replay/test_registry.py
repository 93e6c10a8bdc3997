"""One registry of rulesets (replay/engine/registry.py): every table that depends on the ruleset
is read from it, and every ruleset id a log may name has its entry."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine import run as engine
from mjaudit.parts.replay.engine.render import report_text
from mjaudit.parts.replay.engine.ruleset import Ruleset
from mjaudit.parts.schemas.rulesets import (
    DEFAULT_GAME,
    GAME_TERMS,
    RULESET_IDS,
    Game,
    game_terms,
)

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "replay"
RULESET_FOLDERS = {"hk", "vn160", "american", "chan", "riichi"}


def test_every_ruleset_id_of_the_log_format_has_an_engine() -> None:
    assert list(registry.RULESETS) == list(RULESET_IDS)
    for rid, ruleset in registry.RULESETS.items():
        assert isinstance(ruleset, Ruleset) and ruleset.id == rid
        assert ruleset.shape.id == rid


def test_the_engine_tables_are_the_registry() -> None:
    assert {rid: r.replay for rid, r in registry.RULESETS.items()} == engine.REGISTRY
    assert {
        rid: r.position for rid, r in registry.RULESETS.items() if r.position is not None
    } == engine.POSITIONS
    assert set(registry.RULESETS) - set(engine.POSITIONS) == {"hk-sheet"}
    assert [rid for rid, r in registry.RULESETS.items() if r.uses_cards] == ["american"]


def test_each_folder_lists_the_ids_its_ruleset_module_declares() -> None:
    assert set(registry.FOLDERS) == RULESET_FOLDERS
    for folder, ids in registry.FOLDERS.items():
        declared = tuple(r.id for r in registry.folder_module(folder).RULESETS)
        assert declared == ids, folder


def test_a_folder_is_imported_when_one_of_its_rulesets_is_first_replayed() -> None:
    """A Hong Kong replay loads the Hong Kong folder only (loading all five was 0.15 s of
    every command's start-up); a new interpreter, since this one has them all loaded."""
    script = """
import json, sys
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record
with open("examples/club-night.jsonl", "rb") as f:
    record = parse_record(f.readline()).record
base = "mjaudit.parts.replay.rulesets."
def loaded():
    return sorted(f for f in registry.FOLDERS if base + f + ".ruleset" in sys.modules)
before = loaded()
rep = replay_hand(record)
after_hk = loaded()
assert "chan" in registry.RULESETS
print(before, after_hk, loaded(), rep.ruleset, "numpy" in sys.modules)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split("\n")[0]
    assert out == "[] ['hk'] ['chan', 'hk'] hk-classic False"


def test_a_folder_that_fails_to_import_fails_its_hands_and_is_tried_again(monkeypatch) -> None:
    """Folders are imported at a hand's replay now, not at start-up: a folder whose import
    fails gives that hand an ENGINE_ERROR (the others go on) and is tried again later."""
    attempts = []
    chan = engine.REGISTRY["chan"]

    def load(folder: str) -> dict:
        attempts.append(folder)
        if len(attempts) == 1:
            raise ImportError("numpy is broken")
        return {"chan": chan}

    flaky = registry._Lazy(load)
    monkeypatch.setattr(engine, "REGISTRY", flaky)
    record = {"game_id": "g", "hand_no": 1, "ruleset": "chan", "players": ["a", "b"], "dealer": 0}
    first = engine.replay_hand(record)
    assert [f.code for f in first.findings] == ["ENGINE_ERROR"]
    assert "numpy is broken" in first.findings[0].message
    assert flaky["chan"] is chan and attempts == ["chan", "chan"]
    assert "chan" in flaky and list(flaky) == ["chan"]


def test_an_unknown_id_is_in_no_table() -> None:
    assert registry.get("hk-riichi") is None
    assert "hk-riichi" not in registry.RULESETS and "hk-riichi" not in engine.REGISTRY
    assert registry.rules_ref("hk-riichi", "FALSE_WIN") is None
    assert registry.rules_ref("hk-sheet", "FALSE_WIN") is None  # a ruleset with no checklist
    assert registry.rules_ref("chan", "FALSE_WIN") is not None


def _literals(node: ast.expr) -> list[object]:
    """The constants a comparison side names: itself, or the members of a literal tuple,
    list or set (``ruleset not in (None, "riichi")``)."""
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def _tested_lines(source: str, names: set[str]) -> list[int]:
    """The lines of ``source`` that test a value against one of ``names`` written out: a
    comparison with it as a side or in a literal tuple, a ``startswith``/``endswith`` of
    a prefix of it (``ruleset.startswith("hk")``), and a ``ruleset=``/``game=`` keyword
    set to it (``replace(filters, ruleset="riichi")``)."""
    prefixes = {n[:i] for n in names for i in range(2, len(n) + 1)}
    lines = []
    for node in ast.walk(ast.parse(source)):
        found: list[object] = []
        if isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            found = [v for side in sides for v in _literals(side) if v in names]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in {"startswith", "endswith"}:
                found = [v for arg in node.args for v in _literals(arg) if v in prefixes]
            found += [
                v
                for k in node.keywords
                if k.arg in {"ruleset", "game"}
                for v in _literals(k.value)
                if v in names
            ]
        if found:
            lines.append(node.lineno)
    return lines


def _compared(paths: list[Path], names: set[str]) -> list[str]:
    """``path:line`` of every test against one of ``names`` (:func:`_tested_lines`)."""
    return [
        f"{path.relative_to(REPLAY.parent)}:{line}"
        for path in paths
        for line in _tested_lines(path.read_text(encoding="utf-8"), names)
    ]


def test_no_module_outside_a_ruleset_folder_compares_ruleset_ids() -> None:
    """``if ruleset == "chan"`` belongs in the chan folder (or in the Ruleset it declares)."""
    paths = [
        path
        for path in sorted(REPLAY.rglob("*.py"))
        if (parts := path.relative_to(REPLAY).parts)[:2]
        not in {("rulesets", f) for f in RULESET_FOLDERS}
        and parts[0] != "sim"
    ]
    assert _compared(paths, set(RULESET_IDS)) == []


def test_no_command_view_or_service_compares_ruleset_ids_or_game_names() -> None:
    """Issue 18: the CLI, the dashboard, the service and the log format read what differs
    between rulesets and game families from the registry (``Ruleset``, ``GAME_TERMS``),
    never from ``f.game == "chan"``."""
    parts = ("mjaudit", "dashboards", "service", "schemas")
    paths = [path for part in parts for path in sorted((REPLAY.parent / part).rglob("*.py"))]
    names = set(RULESET_IDS) | {g.value for g in Game}
    assert _compared(paths, names) == []
    # ingest compares its input formats (hk-sheet is one) and event types (riichi is one):
    # every other id and family name is the registry's there too
    ingest = sorted((REPLAY.parent / "ingest").rglob("*.py"))
    assert _compared(ingest, names - {"hk-sheet", "riichi"}) == []


def test_the_comparison_guard_finds_what_it_forbids() -> None:
    """Each form of test the guards look for is found, and a mere mention is not."""
    names = {"chan", "riichi", "hk-classic"}
    lines = (
        'f.game == "chan"',
        'ruleset not in (None, "riichi")',
        'ruleset.startswith("hk")',
        'replace(filters, ruleset="riichi")',
        '"riichi" + str(Path("chan")) + f(game=g)',
    )
    assert [bool(_tested_lines(line, names)) for line in lines] == [True, True, True, True, False]


def test_every_game_family_has_its_terms() -> None:
    assert set(GAME_TERMS) == set(Game)
    assert game_terms(None) == game_terms("") == GAME_TERMS[DEFAULT_GAME]


def test_a_report_score_line_is_in_its_rulesets_terms() -> None:
    from mjaudit.parts.replay.engine.findings import HandReport

    def report(ruleset: str) -> HandReport:
        return HandReport(
            game_id="g", hand_no=1, ruleset=ruleset, players=("a", "b", "c", "d"),
            findings=(), winners=(0,), fan=3, raw_fan=3, patterns=(("x", 3),),
        )  # fmt: skip

    lines = {rid: report_text(report(rid)).splitlines()[3] for rid in registry.RULESETS}
    assert lines["hk-classic"] == "  patterns: x 3; raw fan 3, fan 3"
    assert lines["vn-160"] == "  patterns: x 3; 3 phán"
    assert lines["american"] == "  card hand: x 3; value 3"
    assert lines["chan"] == "  cước: x 3; score 3 điểm"


def test_the_command_line_runs_no_query_and_builds_no_table() -> None:
    """Issue 18: ``mjaudit/cli.py`` and the commands it mounts parse options, call one
    function and print its result; queries (DuckDB, polars) and Rich tables are built in
    the statistics layer (dashboards/). api.py is the Python API, not a command."""
    heavy = {"duckdb", "polars", "rich.table"}
    offenders = []
    for path in sorted((REPLAY.parent / "mjaudit").glob("*cli.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Name) and node.id == "Table":
                names = ["Table"]
            if any(n in heavy or n.split(".")[0] in heavy or n == "Table" for n in names):
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []
