"""Club score sheets: settlement rules, every error cause, options mid-file, CSV, TSV summary."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from mjaudit.parts.dashboards.queries import Filters, connect, player_stats, summary_tsv
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.sheets import SheetRecord, read_sheet
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.sheet import SheetLine, multiplier, settle
from typer.testing import CliRunner

from mjaudit.cli import app

runner = CliRunner()


def deltas(entries: str, **opts: object) -> list[float]:
    return list(settle(SheetLine(entries.split(), **opts)).deltas)  # type: ignore[arg-type]


def write(tmp_path: Path, text: str, name: str = "club.txt") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# -- settlement ---------------------------------------------------------------------------

ISSUE = {"base": 2, "max_fan": 6, "responsibility": "half", "rise": "half"}


def test_self_drawn_win_winner_gets_three_portions():
    assert deltas("1 - - -", **ISSUE) == [12, -4, -4, -4]


def test_discard_under_half_responsibility():
    assert deltas("- 2 d -", **ISSUE) == [-4, 16, -8, -4]


def test_guaranteed_self_draw_pays_alone():
    assert deltas("- - 6 S", **ISSUE) == [0, 0, 192, -192]
    assert deltas("- - 6 g", **ISSUE) == [0, 0, 192, -192]  # older sheets write g


def test_false_win_pays_each_other_player_three_portions_at_max_fan():
    assert deltas("- - - f", **ISSUE) == [192, 192, 192, -576]


def test_draw_nobody_pays():
    out = settle(SheetLine(["-", "-", "-", "-"], **ISSUE))  # type: ignore[arg-type]
    assert (out.winner, list(out.deltas)) == (None, [0, 0, 0, 0])


def test_discard_under_full_responsibility_pays_two_portions_alone():
    assert deltas("- 2 d -", base=2, responsibility="full") == [0, 16, -16, 0]


def test_guarantee_D_under_half_pays_as_full():
    assert deltas("D 3 - -", base=1, responsibility="half") == [-16, 16, 0, 0]


def test_multiplier_tables():
    half = [multiplier(f, "half") for f in range(14)]
    assert half == [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]
    assert [multiplier(f, "spicy") for f in (5, 8, 13)] == [32, 256, 8192]


def test_spicy_rise_and_fractional_base():
    assert deltas("5 - - -", base=0.5, rise="spicy") == [48, -16, -16, -16]
    assert deltas("- 1 d -", base=0.5, responsibility="half") == [-0.5, 2, -1, -0.5]


# -- reading sheets -----------------------------------------------------------------------

ISSUE_SHEET = """\
# the example of the issue
2026-03-01
B=2 M=6 R=half S=half
A B C D
1 - - -
- 2 d -
- - 6 S
- - - f
- - - -   # a draw still counts as played
"""


def test_a_sheet_becomes_results_only_hand_records(tmp_path):
    items = list(read_sheet(write(tmp_path, ISSUE_SHEET)))
    assert all(isinstance(i, SheetRecord) for i in items)
    recs = [i.record for i in items]  # type: ignore[union-attr]
    assert [r["hand_no"] for r in recs] == [1, 2, 3, 4, 5]
    assert {r["game_id"] for r in recs} == {"club.txt/2026-03-01"}
    assert recs[1]["result"] == {"winners": [1], "fan": 2, "deltas": [-4.0, 16.0, -8.0, -4.0]}
    assert recs[3]["result"]["penalties"][0]["seat"] == 3
    assert [i.line for i in items] == [5, 6, 7, 8, 9]
    assert all(r["events"] == [] and r["ruleset"] == "hk-sheet" for r in recs)


# Each sheet has good games around one bad line (the line number given).
ERRORS = [
    (
        "game line before names",
        "2026-03-01\n1 - - -\nA B C D\n2 - - -\n- 3 d -\n",
        2,
        "SHEET_NO_PLAYERS",
        "no line of four player names",
    ),
    (
        "duplicate names",
        "A B C D\n1 - - -\nA B A D\nA B C D\n- 3 d -\n",
        3,
        "SHEET_DUPLICATE_NAMES",
        "'A' is named twice",
    ),
    ("two winners", "A B C D\n1 - - -\n1 2 - -\n- 3 d -\n", 3, "SHEET_TWO_WINNERS", "two winners"),
    ("two blamed", "A B C D\n1 - - -\n1 d d -\n- 3 d -\n", 3, "SHEET_TWO_BLAMED", "two blamed"),
    (
        "blame without winner",
        "A B C D\n1 - - -\n- d - -\n- 3 d -\n",
        3,
        "SHEET_BLAME_WITHOUT_WINNER",
        "nobody won",
    ),
    (
        "f with a winner",
        "A B C D\n1 - - -\n2 - f -\n- 3 d -\n",
        3,
        "SHEET_FALSE_WIN_WITH_WINNER",
        "with a winner",
    ),
    (
        "fan above M",
        "M=6\nA B C D\n1 - - -\n7 - - -\n- 3 d -\n",
        4,
        "SHEET_FAN_ABOVE_MAX",
        "above the maximum M=6",
    ),
    (
        "D under R=full",
        "R=full\nA B C D\n1 - - -\n2 D - -\n- 3 d -\n",
        4,
        "SHEET_REDUNDANT_GUARANTEE",
        "redundant",
    ),
    (
        "bad fan number",
        "A B C D\n1 - - -\n1.5 - - -\n- 3 d -\n",
        3,
        "SHEET_BAD_NUMBER",
        "'1.5' is not an entry",
    ),
    (
        "bad base",
        "A B C D\n1 - - -\nB=two\n- 3 d -\n",
        3,
        "SHEET_BAD_NUMBER",
        "expected a positive number",
    ),
    (
        "bad max fan",
        "A B C D\n1 - - -\nM=x\n- 3 d -\n",
        3,
        "SHEET_BAD_NUMBER",
        "expected a whole number",
    ),
    ("unparseable", "A B C D\n1 - - -\nA B C\n- 3 d -\n", 3, "SHEET_UNPARSEABLE", "got 3 items"),
    ("bad rise", "A B C D\n1 - - -\nS=hot\n- 3 d -\n", 3, "SHEET_UNPARSEABLE", "S=half or S=spicy"),
]


@pytest.mark.parametrize(
    ("text", "line", "code", "phrase"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_every_error_cause_is_quarantined_with_file_line_and_sentence(
    tmp_path, text, line, code, phrase
):
    path = write(tmp_path, text)
    summary = ingest([str(path)], tmp_path / "data")
    assert summary.quarantined == Counter({code: 1})
    (row,) = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    assert row["source_line"] == line
    assert f"club.txt:{line}: " in row["message"]
    assert phrase in row["message"]
    assert row["raw"] == text.splitlines()[line - 1].encode()
    assert summary.hands_added == 2  # the good games around the bad line are kept


def read_sheet_text(text: str) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.txt"
        path.write_text(text)
        return list(read_sheet(path))


def test_games_after_an_invalid_names_line_are_not_given_to_the_old_players(tmp_path):
    items = read_sheet_text("A B C D\n1 - - -\nA B A D\n2 - - -\n")
    kinds = [(i.line, type(i).__name__, getattr(i, "code", None)) for i in items]
    assert kinds == [
        (2, "SheetRecord", None),
        (3, "SheetProblem", "SHEET_DUPLICATE_NAMES"),
        (4, "SheetProblem", "SHEET_NO_PLAYERS"),
    ]
    assert "the player line 3 before it is invalid" in items[2].message


def test_options_change_mid_file(tmp_path):
    text = "2026-03-03\nA B C D\nB=1\n2 - - -\nB=0.5 S=spicy\n5 - - -\nR=half\n- 1 d -\n"
    recs = [i.record for i in read_sheet_text(text)]
    assert [r["result"]["deltas"] for r in recs] == [
        [12.0, -4.0, -4.0, -4.0],
        [48.0, -16.0, -16.0, -16.0],
        [-0.5, 2.0, -1.0, -0.5],
    ]
    assert [r["sheet"]["base"] for r in recs] == [1.0, 0.5, 0.5]
    assert [r["sheet"]["responsibility"] for r in recs] == ["full", "full", "half"]


def test_csv_form_reads_like_the_text_form(tmp_path):
    csv = (
        "date,player1,player2,player3,player4,result1,result2,result3,result4,base,max_fan,responsibility,rise\n"
        "2026-03-01,A,B,C,D,1,-,-,-,2,6,half,half\n"
        "2026-03-01,A,B,C,D,-,2,d,-,2,6,half,half\n"
        "2026-03-01,A,B,C,D,-,2,d,d,2,6,half,half\n"
        "2026-03-01,A,B,C,D,-,-,6,S,2,6,half,half\n"
    )
    items = list(read_sheet(write(tmp_path, csv, "club.csv")))
    assert [type(i).__name__ for i in items] == [
        "SheetRecord",
        "SheetRecord",
        "SheetProblem",
        "SheetRecord",
    ]
    assert items[2].code == "SHEET_TWO_BLAMED" and items[2].line == 4
    assert [i.record["hand_no"] for i in items if isinstance(i, SheetRecord)] == [1, 2, 3]
    assert items[1].record["result"]["deltas"] == [-4.0, 16.0, -8.0, -4.0]


# -- counting them everywhere -------------------------------------------------------------


@pytest.fixture()
def archive(tmp_path):
    write(tmp_path, ISSUE_SHEET, "march.txt")
    write(tmp_path, "2026-04-01\nB=1\nA B C E\n2 - d -\n- - - -\n", "april.txt")
    data = tmp_path / "data"
    ingest([str(tmp_path / "march.txt"), str(tmp_path / "april.txt")], data)
    replay_archive(data)
    return data


def test_tsv_summary_of_a_multi_sheet_archive(archive):
    assert summary_tsv(connect(archive)) == (
        "name\tgame_count\twin_count\twin_fraction\tnet_score\tnet_score_per_game\n"
        "C\t7\t1\t0.1429\t364\t52\n"
        "A\t7\t2\t0.2857\t208\t29.7143\n"
        "B\t7\t1\t0.1429\t204\t29.1429\n"
        "E\t2\t0\t0\t0\t0\n"
        "D\t5\t0\t0\t-776\t-155.2\n"
        "*\t28\t4\t0.1429\t0\t0\n"  # the sum of the player rows
    )


def test_sheets_count_in_statistics_and_can_be_filtered(tmp_path, archive):
    sheet_only = {
        r["player"]: r
        for r in player_stats(connect(archive), Filters(source_kind="sheet")).iter_rows(named=True)
    }
    assert sheet_only["D"]["violations"] == "FALSE_WIN:1"
    assert sheet_only["C"]["self_draws"] == 1 and sheet_only["C"]["deal_ins"] == 2
    assert player_stats(connect(archive), Filters(source_kind="log")).height == 0


def test_cli_ingest_sheet_then_stats_tsv(tmp_path):
    path = write(tmp_path, ISSUE_SHEET, "club.sheet")
    data = tmp_path / "data"
    first = runner.invoke(app, ["ingest", str(path), "--data", str(data)])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["ingest", str(path), "--data", str(data)])
    assert "skipped (already present) │ 5" in again.output
    # ingest replayed what it added: no `mjaudit replay` before the statistics
    tsv = runner.invoke(app, ["stats", "--data", str(data), "--format", "tsv"])
    assert tsv.output.splitlines()[1:] == [
        "C\t5\t1\t0.2\t372\t74.4",
        "B\t5\t1\t0.2\t204\t40.8",
        "A\t5\t1\t0.2\t200\t40",
        "D\t5\t0\t0\t-776\t-155.2",
        "*\t20\t3\t0.15\t0\t0",
    ]
    odd = write(tmp_path, "A B C D\n1 - - -\n", "notes.log")
    forced = runner.invoke(app, ["ingest", str(odd), "--format", "hk-sheet", "--data", str(data)])
    assert forced.exit_code == 0, forced.output


def test_a_sheet_hand_whose_recorded_deltas_were_edited_is_a_mismatch(tmp_path):
    (item,) = read_sheet_text("A B C D\n1 - - -\n")
    rec = item.record
    rec["result"]["deltas"] = [3.0, -1.0, -1.0, -1.0]
    report = replay_hand(rec)
    assert [f.code for f in report.findings] == ["RECORDED_RESULT_MISMATCH"]
    assert report.deltas == (6.0, -2.0, -2.0, -2.0)
