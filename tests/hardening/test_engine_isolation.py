"""One record never stops a replay (issue: no input loses data).

A ``draw`` event with an extra ``tiles`` field used to pass ingest and then kill
``mjaudit replay`` and ``mjaudit check`` with ``TypeError: unhashable type: 'dict'``:
nothing was committed. Now ingest refuses such a field with the message it gives for a
defined one, and whatever still trips an engine becomes an ENGINE_ERROR finding on that
hand alone while every other hand is replayed.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR, FindingClass
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.schemas.records import ParsedRecord, RecordError, parse_record
from mjaudit.parts.schemas.rows import RowBuffers
from mjaudit.parts.schemas.rulesets import RULESETS
from typer.testing import CliRunner

from mjaudit.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOOD = [json.loads(ln) for ln in (EXAMPLES / "club-night.jsonl").read_text().splitlines()]
# The values of the hostile-input run, each on the first draw of a hand.
EXTRA_TILES = [[{"a": 1}], 5, [1], "1m", ["X9"]]


def with_draw_tiles(value: Any, game_id: str = "bad-game") -> dict[str, Any]:
    rec = copy.deepcopy(GOOD[0])
    rec["game_id"] = game_id
    first_draw = next(ev for ev in rec["events"] if ev["type"] == "draw")
    first_draw["tiles"] = value
    return rec


def write_log(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


@pytest.mark.parametrize("value", [[{"a": 1}], 5, [1], ["X9"]], ids=repr)
def test_undefined_tiles_field_on_a_draw_is_refused_with_its_path(value: Any) -> None:
    with pytest.raises(RecordError) as err:
        parse_record(json.dumps(with_draw_tiles(value)).encode())
    assert err.value.path.startswith("$.events[0].tiles"), err.value
    assert "expected" in str(err.value).lower()


def test_undefined_tiles_field_of_the_wrong_shape_names_what_was_expected() -> None:
    with pytest.raises(RecordError) as err:
        parse_record(json.dumps(with_draw_tiles("1m")).encode())
    assert err.value.path == "$.events[0].tiles"
    assert "Expected `array`, got `str`" in err.value.message


def test_undefined_fields_that_hold_tiles_are_normalised_and_kept() -> None:
    """A well-formed run on a draw is kept (unknown fields are never dropped), with its
    aliases normalised like a defined field's."""
    parsed = parse_record(json.dumps(with_draw_tiles(["5z", "1m"])).encode())
    first = parsed.record["events"][0]
    assert first["type"] == "draw" and first["tiles"] == ["P", "1m"]


def test_announce_keeps_its_further_fields_as_they_are() -> None:
    rec = copy.deepcopy(GOOD[0])
    rec["events"].insert(1, {"type": "announce", "seat": 0, "what": "claim", "claim": "pung"})
    parsed = parse_record(json.dumps(rec).encode())
    assert parsed.record["events"][1]["claim"] == "pung"


def test_ingest_quarantines_the_hostile_draws_and_replays_every_other_hand(
    tmp_path: Path,
) -> None:
    bad = [with_draw_tiles(v, f"bad-{i}") for i, v in enumerate(EXTRA_TILES)]
    log = write_log(tmp_path / "log.jsonl", [*GOOD, *bad])
    summary = ingest([str(log)], tmp_path / "data")
    assert summary.hands_added == len(GOOD)
    assert summary.n_quarantined == len(bad)
    quarantine = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    for q in quarantine:
        assert f"{log.resolve()}:{q['source_line']}: $.events[0].tiles" in q["message"], q
    replayed = replay_archive(tmp_path / "data")
    assert replayed.replayed == len(GOOD) and replayed.engine_errors == 0


def _archive_with_unchecked_record(root: Path, hostile: dict[str, Any]) -> None:
    """A data folder as an older release could have written it: the hostile record went in
    without today's check of undefined event fields."""
    data = DataDir(root)
    buffers = RowBuffers()
    for i, rec in enumerate(GOOD):
        buffers.add(parse_record(json.dumps(rec).encode()), "old.jsonl", i + 1)
    unchecked = ParsedRecord(hostile, "0" * 32, RULESETS[hostile["ruleset"]], True)
    buffers.add(unchecked, "old.jsonl", len(GOOD) + 1)
    with data.writing():
        data.commit(buffers.to_tables())


def test_replay_gives_the_one_bad_hand_an_engine_error_and_commits_the_rest(
    tmp_path: Path,
) -> None:
    _archive_with_unchecked_record(tmp_path / "data", with_draw_tiles([{"a": 1}]))
    summary = replay_archive(tmp_path / "data")
    assert summary.replayed == len(GOOD) + 1
    assert summary.engine_errors == 1
    data = DataDir(tmp_path / "data")
    findings = data.read("findings").to_pylist()
    errors = [f for f in findings if f["code"] == ENGINE_ERROR]
    assert [(f["game_id"], f["class"]) for f in errors] == [("bad-game", "CORRUPT_LOG")]
    assert "TypeError" in errors[0]["message"]
    results = {(r["game_id"], r["hand_no"]) for r in data.read("hand_results").to_pylist()}
    assert {(r["game_id"], r["hand_no"]) for r in GOOD} <= results


def test_replay_command_exits_1_on_an_engine_error(tmp_path: Path) -> None:
    _archive_with_unchecked_record(tmp_path / "data", with_draw_tiles([{"a": 1}]))
    result = CliRunner().invoke(app, ["replay", "--data", str(tmp_path / "data")])
    assert result.exit_code == 1, result.output
    assert "ENGINE_ERROR" in result.output and "every other hand was replayed" in result.output


def test_check_command_reports_the_bad_record_and_checks_the_others(tmp_path: Path) -> None:
    log = write_log(tmp_path / "log.jsonl", [*GOOD[:3], with_draw_tiles([{"a": 1}]), GOOD[3]])
    result = CliRunner().invoke(app, ["check", str(log), "--format", "json"])
    assert result.exit_code == 1, result.output
    lines = [json.loads(ln) for ln in result.stdout.splitlines()]
    checked = [ln["game_id"] for ln in lines if ln["game_id"] is not None]
    assert len(checked) == 4
    unreadable = [ln for ln in lines if ln["game_id"] is None]
    assert len(unreadable) == 1
    assert f"{log}:4: $.events[0].tiles[0]" in unreadable[0]["findings"][0]["message"]


def test_an_exception_inside_an_engine_becomes_that_hands_finding(monkeypatch) -> None:
    """The safety net itself, whatever the ruleset: an engine raising is a finding of that
    hand (with the exception and the engine's line), and the next hand is replayed."""
    import mjaudit.parts.replay.engine.run as engine

    real = engine.REGISTRY["hk-classic"]

    def broken_on_hand_1(record, overrides, previous, observer):
        if record["hand_no"] == 1:
            raise KeyError("boom")
        return real(record, overrides, previous, observer)

    monkeypatch.setitem(engine.REGISTRY, "hk-classic", broken_on_hand_1)
    first, second = replay_games(GOOD[:2])
    (finding,) = first.findings
    assert finding.code == ENGINE_ERROR and finding.cls is FindingClass.CORRUPT_LOG
    assert "KeyError: 'boom'" in finding.message
    assert "test_engine_isolation.py" in finding.message  # where it was raised
    assert first.corrupt and first.deltas is None and first.ended_by == "corrupt"
    assert second.hand_no == 2 and not second.corrupt and second.deltas is not None


def test_replay_fails_on_the_classes_asked_for(tmp_path: Path) -> None:
    """The README said findings give exit 1 while replay exited 0: now that is --fail-on."""
    log = EXAMPLES / "vn160-evening.jsonl"  # violations and mismatches, nothing corrupt
    data = str(tmp_path / "data")
    assert CliRunner().invoke(app, ["ingest", str(log), "--data", data]).exit_code == 0
    plain = CliRunner().invoke(app, ["replay", "--data", data])
    assert plain.exit_code == 0, plain.output
    classes = {f["class"] for f in DataDir(tmp_path / "data").read("findings").to_pylist()}
    assert "PLAYER_VIOLATION" in classes and "CORRUPT_LOG" not in classes
    failing = CliRunner().invoke(
        app, ["replay", "--data", data, "--fail-on", "CORRUPT_LOG", "--fail-on", "PLAYER_VIOLATION"]
    )
    assert failing.exit_code == 1
    assert "findings of class PLAYER_VIOLATION (--fail-on)" in failing.output
    clean = CliRunner().invoke(app, ["replay", "--data", data, "--fail-on", "CORRUPT_LOG"])
    assert clean.exit_code == 0, clean.output
