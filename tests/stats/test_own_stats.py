"""Statistics of a family's or a ruleset's own (issue 18): declared once in
schemas/rulesets.py, offered by ``mjaudit stats`` (its options and --help) and answered by
dashboards/stats_report.py, so the command names no ruleset and no family."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mjaudit.parts.dashboards.stats_report import StatsRequest, own_report, stats_report
from mjaudit.parts.schemas.rulesets import GAME_TERMS, OWN_FLAGS, RULESETS, Game
from typer.testing import CliRunner

from mjaudit.cli import app

DECLARED = [t.own_stats for t in GAME_TERMS.values()] + [s.own_stats for s in RULESETS.values()]
OWN = [own for own in DECLARED if own is not None]


@pytest.mark.parametrize("own", OWN, ids=lambda own: own.report)
def test_each_declared_report_is_a_function_of_the_statistics_layer(own: object) -> None:
    assert own.report.startswith("mjaudit.parts.dashboards.")  # type: ignore[attr-defined]
    assert callable(own_report(own))  # type: ignore[arg-type]


def test_a_family_has_no_flag_and_a_rulesets_own_statistics_have_one() -> None:
    assert all(t.own_stats.flag is None for t in GAME_TERMS.values() if t.own_stats)
    flagged = {s.own_stats.flag: s for s in RULESETS.values() if s.own_stats}
    assert flagged == OWN_FLAGS and all(f and f.startswith("--") for f in flagged)


def _help() -> str:
    result = CliRunner().invoke(app, ["stats", "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return re.sub(r"\s+", " ", result.output.replace("│", " "))


def test_stats_offers_every_declared_flag_and_says_what_each_own_report_gives() -> None:
    text = _help()
    for flag, shape in OWN_FLAGS.items():
        assert shape.own_stats is not None
        assert f"{flag} <bool> {shape.own_stats.help}" in text
    for own in OWN:
        assert re.sub(r"\s+", " ", own.about) in text


def test_the_game_choices_are_auto_and_the_registrys_families() -> None:
    assert f"<{'|'.join(['auto', *(g.value for g in Game)])}>" in _help()


def test_an_unknown_ruleset_is_an_error_before_the_folder_is_read(tmp_path: Path) -> None:
    result = stats_report(StatsRequest(data=tmp_path / "absent", ruleset="nope"))
    assert result.error is not None and result.error.startswith("unknown ruleset 'nope'")
    assert (result.notes, result.text, result.shown) == ((), "", ())


def test_a_rulesets_own_statistics_refuse_another_ruleset(riichi_archive: Path) -> None:
    flag, shape = next(iter(OWN_FLAGS.items()))
    other = next(rid for rid in RULESETS if rid != shape.id)
    result = stats_report(StatsRequest(data=riichi_archive, ruleset=other, own=frozenset({flag})))
    assert result.error == f"{flag} counts {shape.id} hands: not --ruleset {other}"


def test_a_rulesets_own_statistics_are_of_its_hands_only(riichi_archive: Path) -> None:
    flag, shape = next(iter(OWN_FLAGS.items()))
    own = stats_report(StatsRequest(data=riichi_archive, fmt="csv", own=frozenset({flag})))
    narrowed = stats_report(
        StatsRequest(data=riichi_archive, fmt="csv", ruleset=shape.id, own=frozenset({flag}))
    )
    assert own.error is None and own.text.count("\n") > 1
    assert own.text == narrowed.text
    shared = stats_report(StatsRequest(data=riichi_archive, fmt="csv"))
    assert shared.error is None and shared.text.splitlines()[0] != own.text.splitlines()[0]
