"""The rules references a report prints beside each finding (replay/registry.rules_ref)
are the rules files' checklist rows, and every checklist code the engines raise has one."""

from __future__ import annotations

import pytest
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.registry import rules_ref

from tests.replay.rules_refs_gen import RULES, SOURCES, engine_codes, parse, table


def test_every_replayed_ruleset_with_a_checklist_has_its_table() -> None:
    # riichi's rules are its own page (docs/rules/riichi.md, checked by tests/test_docs.py):
    # there is no shared rules file to generate its table from
    assert set(registry.CHECKLISTS) == set(SOURCES) | {"riichi"}
    assert set(registry.RULESETS) - set(registry.CHECKLISTS) == {"hk-sheet"}


@pytest.mark.parametrize("preset", sorted(SOURCES))
def test_the_tables_are_the_rules_files_checklists(preset: str) -> None:
    if not (RULES / SOURCES[preset][0]).exists():
        pytest.skip(f"{RULES} is not beside this clone: the copy cannot be compared")
    assert registry.CHECKLISTS[preset][1] == table(RULES, preset)


@pytest.mark.parametrize("preset", sorted(SOURCES))
def test_every_code_of_a_checklist_row_the_engine_raises_has_its_row(preset: str) -> None:
    if not (RULES / SOURCES[preset][0]).exists():
        pytest.skip(f"{RULES} is not beside this clone")
    name, folder = SOURCES[preset]
    section, rows, _ = parse((RULES / name).read_text())
    raised = engine_codes(folder) & set(rows)
    assert raised, "the parser found no checklist code the engine raises"
    for code in raised:
        assert registry.CHECKLISTS[preset][1][code].startswith(
            f"{name.removesuffix('.md')} §{section} #"
        )


def test_a_reason_is_cited_before_its_code() -> None:
    assert rules_ref("hk-classic", "FALSE_WIN") == "hk-classic §8 #35, #36, #37, #38"
    assert rules_ref("hk-classic", "FALSE_WIN", "WIN_BELOW_MIN_FAN") == "hk-classic §8 #38"
    assert rules_ref("hk-mahjongo-2p", "FALSE_WIN", "WIN_BELOW_MIN_FAN") == "hk-mahjongo §8 #33"
    assert rules_ref("american", "TILE_NOT_IN_HAND") == "american §9.2 #7, #16, #19"
    assert rules_ref("chan", "XE_CHAN") == "chan §10.4"  # named in §10.4's rules, not a row


def test_an_unlisted_code_falls_back_to_the_checklist_and_the_engine_has_none() -> None:
    assert rules_ref("vn-160", "SOMETHING_NEW") == "vn-160 §8.2"
    assert rules_ref("chan", "ENGINE_ERROR") is None
    assert rules_ref("hk-sheet", "RECORDED_RESULT_MISMATCH") is None
