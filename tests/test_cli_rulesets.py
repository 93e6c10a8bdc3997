"""The CLI on the chan, vn-160 and american rulesets: check, ingest -> replay -> show, and
``check --card`` with a club's own card file.

The hands are worked examples of the rules files (built by the example tests' helpers),
so the figures asserted here are the rules files' own.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mjaudit.cli import app

sys.path.insert(0, str(Path(__file__).parent / "replay"))
import test_american_examples as american_examples
import test_chan_examples as chan_examples
import test_vn160_examples as vn160_examples

from tests.replay import riichi_builder

runner = CliRunner()
SAMPLE_CARD = (
    Path(__file__).parents[1] / "replay" / "rulesets" / "american" / "cards" / "sample.yaml"
)


RECORDS = {
    "chan": (chan_examples.x1().record, "score 9 điểm"),  # X1: T = 9, Bình +27
    "vn-160": (vn160_examples.v1_record, "0 phán"),  # V1: ù muỗi, 0 phán
    "american": (american_examples.a7_record, "LIKE-1 35"),
    "riichi": (riichi_builder.settled_ron, "seat 1: 5 han 40 fu, 8000 points"),
}


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


@pytest.mark.parametrize("ruleset", list(RECORDS))
def test_check_ingest_replay_show(tmp_path: Path, ruleset: str) -> None:
    make, expected = RECORDS[ruleset]
    rec = make()
    log = _write(tmp_path / f"{ruleset}.jsonl", [rec])
    res = runner.invoke(app, ["check", str(log)])
    assert res.exit_code == 0, res.output
    assert expected in res.output
    assert "RULESET_NOT_SUPPORTED" not in res.output

    data = tmp_path / "data"
    assert runner.invoke(app, ["ingest", str(log), "--data", str(data)]).exit_code == 0
    res = runner.invoke(app, ["replay", "--data", str(data)])
    assert res.exit_code == 0, res.output
    last = len(rec["events"]) - 1
    res = runner.invoke(app, ["show", rec["game_id"], str(rec["hand_no"]), "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert f"after event {last}" in res.output
    for player in rec["players"]:
        assert player in res.output
    res = runner.invoke(
        app, ["show", rec["game_id"], str(rec["hand_no"]), "--data", str(data), "--at", "0"]
    )
    assert res.exit_code == 0, res.output
    assert "after event 0" in res.output and f"after event {last}" not in res.output


def test_check_card_selects_a_clubs_own_card(tmp_path: Path) -> None:
    """A record naming a card that is not built in replays once --card supplies it."""
    club_card = tmp_path / "club-card.yaml"
    club_card.write_text(
        re.sub(r"(?m)^card_id: .*$", "card_id: our-club-2031", SAMPLE_CARD.read_text())
    )
    rec = american_examples.a7_record()
    rec["options"] = {**rec.get("options", {}), "card": "our-club-2031"}
    log = _write(tmp_path / "a7.jsonl", [rec])

    # First without it (loading a card registers it for the rest of the process).
    without = runner.invoke(app, ["check", str(log), "--format", "json"])
    assert without.exit_code == 1
    assert "CARD" in without.output

    res = runner.invoke(app, ["check", str(log), "--card", str(club_card)])
    assert res.exit_code == 0, res.output
    assert "LIKE-1 35" in res.output


def test_check_card_rejects_an_invalid_card_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(SAMPLE_CARD.read_text().replace("format: mj-card/1", "format: mj-card/9"))
    log = _write(tmp_path / "a7.jsonl", [american_examples.a7_record()])
    res = runner.invoke(app, ["check", str(log), "--card", str(bad)])
    assert res.exit_code == 2
    assert "bad.yaml" in res.output and "CARD_INVALID" in res.output


def test_card_add_then_replay_uses_the_clubs_card(tmp_path: Path) -> None:
    """An archive's american hands are replayed against the cards kept in DATA/cards;
    adding the missing card makes the next replay settle them."""
    import duckdb

    club_card = tmp_path / "club.yaml"
    club_card.write_text(
        re.sub(r"(?m)^card_id: .*$", "card_id: archive-club-card", SAMPLE_CARD.read_text())
    )
    rec = american_examples.a7_record()
    rec["options"] = {**rec.get("options", {}), "card": "archive-club-card"}
    data = tmp_path / "data"
    log = _write(tmp_path / "a7.jsonl", [rec])
    assert runner.invoke(app, ["ingest", str(log), "--data", str(data)]).exit_code == 0

    def codes() -> list[str]:
        con = duckdb.connect(str(data / "catalog.duckdb"), read_only=True)
        try:
            return [r[0] for r in con.execute("select code from findings order by all").fetchall()]
        finally:
            con.close()

    assert runner.invoke(app, ["replay", "--data", str(data)]).exit_code == 0
    assert "CARD_INVALID" in codes()

    res = runner.invoke(app, ["card", "add", str(club_card), "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert (data / "cards" / "archive-club-card.yaml").is_file()
    res = runner.invoke(app, ["replay", "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert "CARD_INVALID" not in codes()

    bad = tmp_path / "bad.yaml"
    bad.write_text("format: mj-card/1\n")
    res = runner.invoke(app, ["card", "add", str(bad), "--data", str(data)])
    assert res.exit_code == 1
    assert [p.name for p in (data / "cards").iterdir()] == ["archive-club-card.yaml"]


def test_stats_keeps_chan_and_mahjong_apart(tmp_path: Path) -> None:
    """stats counts Chắn hands only with --game chan (điểm, cước), and says so."""
    data = tmp_path / "data"
    log = _write(
        tmp_path / "mixed.jsonl", [chan_examples.x1().record(), vn160_examples.v1_record()]
    )
    assert runner.invoke(app, ["ingest", str(log), "--data", str(data)]).exit_code == 0
    assert runner.invoke(app, ["replay", "--data", str(data)]).exit_code == 0

    mahjong = runner.invoke(app, ["stats", "--data", str(data), "--format", "json"])
    assert mahjong.exit_code == 0, mahjong.output
    assert "--game chan" in mahjong.output  # the note on stderr (CliRunner mixes them)
    assert "Bình" not in mahjong.output  # the Chắn winner plays no mahjong here

    chan = runner.invoke(app, ["stats", "--data", str(data), "--game", "chan", "--format", "json"])
    assert chan.exit_code == 0, chan.output
    rows = {r["player"]: r for r in json.loads(chan.output)}
    assert rows["Bình"]["wins"] == 1 and rows["Bình"]["diem_won"] == 27
    assert rows["An"]["diem_paid"] == 9
    table = runner.invoke(app, ["stats", "--data", str(data), "--game", "chan"])
    assert "tom" in table.output and "Chắn statistics" in table.output
