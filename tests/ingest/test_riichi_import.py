"""The riichi importers (issue 23): Tenhou mjlog XML, tenhou.net/6 JSON and MJAI JSON
lines into ``riichi`` records through ``ingest``, by content or ``--format``; a malformed
file is quarantined with the file, the element or line, and the field."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.riichi_logs import ImportedRecord, ImportProblem, read, sniff
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.ingest.tenhou_xml import decode_meld
from typer.testing import CliRunner

from mjaudit.cli import app

CORPUS = Path(__file__).resolve().parents[1] / "data" / "riichi"
XML = CORPUS / "mjx" / "pao-tsumo.mjlog"
T6 = CORPUS / "mjai-reviewer" / "double_ron.json"
MJAI = CORPUS / "riichienv" / "126_204_0_mjai.jsonl"
runner = CliRunner()


def test_each_format_is_recognised_by_content() -> None:
    assert (sniff(XML), sniff(T6), sniff(MJAI)) == ("tenhou-xml", "tenhou-json", "mjai")
    assert sniff(Path(__file__)) is None


def test_tenhou_xml_hand_keeps_the_recorded_result() -> None:
    first = next(read(XML, "tenhou-xml"))
    assert isinstance(first, ImportedRecord)
    rec = first.record
    assert rec["ruleset"] == "riichi" and rec["game_id"] == "pao-tsumo"
    assert rec["start_hands"][0].count("0m") == 1  # 136-index 16 is the red 5m
    assert rec["result"]["deltas"] == [12000, -4000, -4000, -4000]
    assert rec["result"]["wins"][0] == {
        "seat": 0, "han": 5, "fu": 30, "points": 12000,
        "yaku": {"tanyao": 1, "dora": 2, "aka_dora": 2},
    }  # fmt: skip


def test_tenhou_xml_meld_bit_fields() -> None:
    """Calls of the Pao log's first hand (pons of 2m and 6p) and a chi."""
    pon = decode_meld(0, 2634)
    assert (pon["kind"], pon["from"]) == ("pung", 2)
    assert {t // 4 for t in pon["tiles"]} == {1} and pon["called"] in pon["tiles"]  # 2m
    pon = decode_meld(0, 22537)  # seat 0's second call of hand 1: 6p from seat 1
    assert (pon["kind"], pon["from"], {t // 4 for t in pon["tiles"]}) == ("pung", 1, {14})
    # a chi of 1m2m3m (run 0, the first tile called, copies 0) by seat 1 from seat 0
    assert decode_meld(1, 0x4 | 3) == {"kind": "chow", "tiles": [0, 4, 8], "called": 0, "from": 0}


def test_riichi_sticks_are_netted_in_the_recorded_deltas() -> None:
    """Seat 3 declares riichi and tsumos: Tenhou's sc gives +9,300 with its own stick
    back; the hand's change for seat 3 is 8,300."""
    second = list(read(XML, "tenhou-xml"))[1]
    assert isinstance(second, ImportedRecord)
    assert second.record["result"]["deltas"] == [-4100, -2100, -2100, 8300]


def test_tenhou_json_double_ron_has_both_wins() -> None:
    (item,) = list(read(T6, "tenhou-json"))
    assert isinstance(item, ImportedRecord)
    wins = [e for e in item.record["events"] if e["type"] == "win"]
    assert [(w["seat"], w["from"]) for w in wins] == [(0, 3), (2, 3)]


def test_mjai_game_has_twelve_hands_with_deltas() -> None:
    items = list(read(MJAI, "mjai"))
    assert len(items) == 12 and all(isinstance(i, ImportedRecord) for i in items)
    assert items[0].record["result"]["winners"] == [3]  # type: ignore[union-attr]


def _problem(path: Path, fmt: str) -> ImportProblem:
    items = list(read(path, fmt))
    probs = [i for i in items if isinstance(i, ImportProblem)]
    assert probs, items
    return probs[0]


def test_malformed_xml_names_file_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjlog"
    bad.write_text('<mjloggm ver="2.3">\n<INIT seed="0,0,0,1,2,3"\n')
    p = _problem(bad, "tenhou-xml")
    assert p.code == "BAD_XML" and p.message.startswith("bad.mjlog:")


def test_xml_element_with_a_bad_attribute_names_element_and_field(tmp_path: Path) -> None:
    text = XML.read_text().replace('hai2="', 'hai2="999,', 1)
    bad = tmp_path / "badtile.mjlog"
    bad.write_text(text)
    p = _problem(bad, "tenhou-xml")
    assert p.code == "BAD_XML"
    assert "<INIT>" in p.message and "hai2" in p.message and "expected 13" in p.message


def test_tenhou_json_bad_tile_names_the_hand_and_entry(tmp_path: Path) -> None:
    game = json.loads(T6.read_text())
    game["log"][0][4][0] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(game))
    p = _problem(bad, "tenhou-json")
    assert p.code == "BAD_TENHOU_JSON" and "log[0], [4]" in p.message and "99" in p.message
    bad.write_text("{not json")
    assert _problem(bad, "tenhou-json").code == "BAD_JSON"


def test_mjai_bad_line_names_line_and_key(tmp_path: Path) -> None:
    lines = MJAI.read_text().splitlines()
    lines[3] = lines[3].replace('"actor"', '"who"')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    p = _problem(bad, "mjai")
    assert p.code == "BAD_MJAI" and "line 4" in p.message and "actor" in p.message
    lines = MJAI.read_text().splitlines()
    lines[5] = "{broken"
    bad.write_text("\n".join(lines) + "\n")
    p = _problem(bad, "mjai")
    assert (p.code, p.line) == ("BAD_JSON", 6)


def test_ingest_by_content_and_quarantine_of_a_bad_file(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for f in (XML, T6, MJAI):
        shutil.copy(f, logs / f.name)
    (logs / "broken.mjlog").write_text("<mjloggm><INIT")
    summary = ingest([str(logs)], tmp_path / "data")
    assert summary.hands_added == 12 + 1 + len(list(read(XML, "tenhou-xml")))
    assert summary.quarantined == Counter({"BAD_XML": 1})
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert row["source_file"].endswith("broken.mjlog") and "broken.mjlog:1:" in row["message"]


@pytest.mark.parametrize(("src", "fmt"), [(XML, "tenhou-xml"), (T6, "tenhou-json"), (MJAI, "mjai")])
def test_cli_ingest_format_end_to_end(tmp_path: Path, src: Path, fmt: str) -> None:
    """A file of any name, read as the format named, replayed with nothing flagged."""
    named = tmp_path / "download.txt"
    shutil.copy(src, named)
    data = tmp_path / "data"
    res = runner.invoke(
        app, ["ingest", str(named), "--format", fmt, "--data", str(data), "--output", "json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output[res.output.index("{") :])
    assert out["quarantined"] == 0 and out["hands_added"] >= 1
    res = runner.invoke(app, ["replay", "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert "CORRUPT_LOG" not in res.output and "SCORE_MISMATCH" not in res.output
