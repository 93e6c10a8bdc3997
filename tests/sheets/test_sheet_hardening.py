"""Issue 26, items 2 and 3: score-sheet numbers are bounded before any arithmetic, a bad
sheet line never loses other lines or files, game numbers survive a repeated date heading,
and every rejected line is in the quarantine table (once, on a fresh folder)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import mjaudit.parts.ingest.pipeline as pipeline
import msgspec
import pytest
from mjaudit.parts.ingest.pipeline import IngestSummary, ingest
from mjaudit.parts.ingest.sheets import SheetItem, SheetProblem, read_sheet
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.sheet import MAX_BASE, MAX_FAN, SheetError, SheetLine, settle
from typer.testing import CliRunner

from mjaudit.cli import app

OUT_OF_RANGE = "SHEET_NUMBER_OUT_OF_RANGE"
CSV_HEADER = (
    "date,player1,player2,player3,player4,result1,result2,result3,result4,"
    "base,max_fan,responsibility,rise\n"
)
GOOD = "2026-03-02\nE F G H\n1 - - -\n- 2 d -\n"  # another file of the same command

runner = CliRunner()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def run(tmp_path: Path, *files: Path) -> IngestSummary:
    return ingest([str(f) for f in files], tmp_path / "data")


def quarantine(tmp_path: Path) -> list[dict]:
    rows = DataDir(tmp_path / "data").read("quarantine").to_pylist()
    return sorted(rows, key=lambda r: (r["source_file"], r["source_line"]))


def hands(tmp_path: Path) -> list[dict]:
    table = DataDir(tmp_path / "data").read("hands").select(["game_id", "hand_no", "source_line"])
    return sorted(table.to_pylist(), key=lambda r: (r["game_id"], r["hand_no"]))


def deltas(tmp_path: Path, game_id: str, hand_no: int) -> list[float]:
    rows = DataDir(tmp_path / "data").read("recorded_results").to_pylist()
    mine = [r for r in rows if (r["game_id"], r["hand_no"]) == (game_id, hand_no)]
    return [r["delta"] for r in sorted(mine, key=lambda r: r["seat"])]


# -- item 2: numbers out of range -------------------------------------------------------------


def test_huge_maximum_is_quarantined_not_a_crash(tmp_path):
    """The issue's 58-byte sheet: M=16000000000 then a false win grew to 2.3 GB (2^M as an
    integer), then OverflowError, and nothing of the command was committed."""
    sheet = write(tmp_path, "huge.txt", "2026-03-01\nM=16000000000\nS=spicy\nA B C D\n- - - f\n")
    good = write(tmp_path, "good.txt", GOOD)
    summary = run(tmp_path, sheet, good)
    (row,) = quarantine(tmp_path)
    assert (row["code"], row["source_line"], row["raw"]) == (OUT_OF_RANGE, 2, b"M=16000000000")
    assert "'16000000000'" in row["message"] and f"0 to {MAX_FAN}" in row["message"]
    # the bad option keeps the previous M (13): the false win is settled and kept
    assert deltas(tmp_path, "huge.txt/2026-03-01", 1) == [24576.0, 24576.0, 24576.0, -73728.0]
    assert summary.hands_added == 3  # and the other file's two games
    assert {h["game_id"] for h in hands(tmp_path)} == {"huge.txt/2026-03-01", "good.txt/2026-03-02"}


def test_maximum_5000_with_a_4000_fan_is_quarantined_not_a_crash(tmp_path):
    """M=5000 and a 4000-fan win raised OverflowError (2^4000 is no float)."""
    sheet = write(tmp_path, "m5000.txt", "2026-03-01\nM=5000\nA B C D\n4000 - - -\n1 - - -\n")
    summary = run(tmp_path, sheet, write(tmp_path, "good.txt", GOOD))
    rows = quarantine(tmp_path)
    assert [(r["source_line"], r["code"]) for r in rows] == [
        (2, OUT_OF_RANGE),
        (4, "SHEET_FAN_ABOVE_MAX"),
    ]
    assert "M='5000' is out of range" in rows[0]["message"]
    assert "above the maximum M=13" in rows[1]["message"]
    assert summary.hands_added == 3


def test_out_of_range_base_is_quarantined_not_an_infinite_delta(tmp_path):
    """B=1e300 at M=64 settled a false win to infinity; B is bounded like M."""
    text = (
        "2026-03-01\nM=64 S=spicy\nA B C D\n"
        "B=1e300\n- - - f\n"  # line 4: out of range, B stays 1
        "B=inf\nB=0\nB=-2\n"  # lines 6-8: out of range too
        "B=nan\nB=two\n"  # lines 9-10: not numbers
        f"B={MAX_BASE:g}\n- - - -\n"  # the bound itself is allowed
    )
    run(tmp_path, write(tmp_path, "base.txt", text))
    rows = quarantine(tmp_path)
    assert [(r["source_line"], r["code"]) for r in rows] == [
        (4, OUT_OF_RANGE),
        (6, OUT_OF_RANGE),
        (7, OUT_OF_RANGE),
        (8, OUT_OF_RANGE),
        (9, "SHEET_BAD_NUMBER"),
        (10, "SHEET_BAD_NUMBER"),
    ]
    assert f"above 0, at most {MAX_BASE:g}" in rows[0]["message"]
    false_win = deltas(tmp_path, "base.txt/2026-03-01", 1)
    assert all(math.isfinite(d) for d in false_win)
    assert false_win[3] == -9 * 2.0**64  # B=1, M=64, spicy


def test_fan_entry_of_thousands_of_digits_is_quarantined_not_a_crash(tmp_path):
    """int() of a 5000-digit entry raised ValueError (the int string limit) out of ingest."""
    text = f"2026-03-01\nA B C D\n{'9' * 5000} - - -\n1 - - -\n007 - - -\n"
    summary = run(tmp_path, write(tmp_path, "long.txt", text))
    (row,) = quarantine(tmp_path)
    assert (row["code"], row["source_line"]) == ("SHEET_FAN_ABOVE_MAX", 3)
    assert "(5000 chars)" in row["message"] and len(row["message"]) < 300
    assert summary.hands_added == 2  # a fan written 007 is 7


def test_csv_numbers_out_of_range_are_quarantined_not_a_crash(tmp_path):
    rows = [
        "2026-03-01,A,B,C,D,-,-,-,f,1,5000,full,spicy",
        "2026-03-01,A,B,C,D,4000,-,-,-,1,5000,full,half",
        "2026-03-01,A,B,C,D,-,-,-,f,1e300,64,full,spicy",
        "2026-03-01,A,B,C,D,65,-,-,-,1,13,full,half",
        f"2026-03-01,A,B,C,D,{'9' * 5000},-,-,-,1,13,full,half",
        "2026-03-01,A,B,C,D,1,-,-,-,2,6,half,half",
    ]
    sheet = write(tmp_path, "club.csv", CSV_HEADER + "\n".join(rows) + "\n")
    summary = run(tmp_path, sheet, write(tmp_path, "good.txt", GOOD))
    got = [(r["source_line"], r["code"]) for r in quarantine(tmp_path)]
    assert got == [
        (2, OUT_OF_RANGE),
        (3, OUT_OF_RANGE),
        (4, OUT_OF_RANGE),
        (5, "SHEET_FAN_ABOVE_MAX"),
        (6, "SHEET_FAN_ABOVE_MAX"),
    ]
    assert summary.hands_added == 3
    assert hands(tmp_path)[0] == {"game_id": "club.csv/2026-03-01", "hand_no": 1, "source_line": 7}


def test_settle_checks_bounds_before_any_arithmetic():
    """The replay settles stored lines too: out-of-range numbers are a SheetError there."""
    for line in (
        SheetLine(["-", "-", "-", "f"], max_fan=5000, rise="spicy"),
        SheetLine(["-", "-", "-", "f"], max_fan=-1),
        SheetLine(["-", "-", "-", "f"], base=float("inf")),
        SheetLine(["-", "-", "-", "f"], base=float("nan")),
        SheetLine(["5", "-", "-", "-"], base=MAX_BASE * 2),
    ):
        with pytest.raises(SheetError) as caught:
            settle(line)
        assert caught.value.code == OUT_OF_RANGE
    with pytest.raises(SheetError) as caught:
        settle(SheetLine(["9" * 5000, "-", "-", "-"]))
    assert caught.value.code == "SHEET_FAN_ABOVE_MAX"
    # and a log record's sheet line is held to the same bounds by the schema
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"entries": ["1", "-", "-", "-"], "base": MAX_BASE * 2}, SheetLine)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"entries": ["1", "-", "-", "-"], "max_fan": MAX_FAN + 1}, SheetLine)


def test_replay_of_a_stored_line_out_of_bounds_is_a_finding_not_a_crash(tmp_path):
    """A hand stored before B was bounded (or a log's sheet line) is reported corrupt."""
    (item,) = read_sheet(write(tmp_path, "club.txt", "A B C D\n- - - f\n"))
    record = item.record  # type: ignore[union-attr]
    record["sheet"]["base"] = MAX_BASE * 2
    report = replay_hand(record)
    assert [f.code for f in report.findings] == ["SHEET_INVALID"]
    assert report.ended_by == "corrupt"


def test_a_sheet_reader_failure_keeps_the_other_lines_and_files(tmp_path, monkeypatch):
    """Defence in depth: any exception out of the reader (not only csv.Error) quarantines
    the rest of that file, named with the exception's type, and the command goes on."""
    real = read_sheet

    def failing(path: Path) -> Iterator[SheetItem]:
        items = real(path)
        if path.name == "bad.txt":
            yield next(items)
            raise RuntimeError("boom")
        yield from items

    monkeypatch.setattr(pipeline, "read_sheet", failing)
    bad = write(tmp_path, "bad.txt", "2026-03-01\nA B C D\n1 - - -\n- 2 d -\n- - - -\n")
    summary = run(tmp_path, bad, write(tmp_path, "good.txt", GOOD))
    (row,) = quarantine(tmp_path)
    assert (row["code"], row["source_line"]) == ("SHEET_UNPARSEABLE", 4)
    assert "RuntimeError: boom" in row["message"]
    assert row["raw"] == b"- 2 d -\n- - - -\n"
    assert summary.hands_added == 3  # bad.txt's first game and good.txt's two


# -- item 3: vanished games and quarantine rows -------------------------------------------------


def test_repeated_date_heading_keeps_counting_games(tmp_path):
    """The same date twice restarted hand_no: the second block's first game was taken for
    the first block's (same content) and counted "already present"."""
    text = (
        "2026-03-01\nA B C D\n1 - - -\n- 2 d -\n"
        "2026-03-02\n1 - - -\n"
        "2026-03-01\n1 - - -\n"  # the 3rd game of March 1st, identical to its 1st
    )
    sheet = write(tmp_path, "club.txt", text)
    first = run(tmp_path, sheet)
    assert (first.hands_added, first.skipped_present, first.n_quarantined) == (4, 0, 0)
    assert [(h["game_id"], h["hand_no"], h["source_line"]) for h in hands(tmp_path)] == [
        ("club.txt/2026-03-01", 1, 3),
        ("club.txt/2026-03-01", 2, 4),
        ("club.txt/2026-03-01", 3, 8),
        ("club.txt/2026-03-02", 1, 6),
    ]
    again = run(tmp_path, sheet)  # re-ingest: the same numbers, nothing added
    assert (again.hands_added, again.skipped_present, again.n_quarantined) == (0, 4, 0)


def test_bad_option_line_is_in_the_quarantine_table_once(tmp_path):
    """R=HALF S=HALF made two rows with one key (file, line, raw hash): the second was
    dropped as "quarantined before" on a fresh folder and its message lost."""
    sheet = write(tmp_path, "club.txt", "2026-03-01\nR=HALF S=HALF\nS=HALF\nA B C D\n1 - - -\n")
    result = runner.invoke(app, ["ingest", str(sheet), "--data", str(tmp_path / "data")])
    assert result.exit_code == 1, result.output
    assert "quarantined before" not in result.output
    rows = quarantine(tmp_path)
    assert [(r["source_line"], r["code"]) for r in rows] == [
        (2, "SHEET_UNPARSEABLE"),
        (3, "SHEET_UNPARSEABLE"),
    ]
    assert "R='HALF': expected R=half or R=full" in rows[0]["message"]
    assert "S='HALF': expected S=half or S=spicy" in rows[0]["message"]
    again = run(tmp_path, sheet)  # a second run reports them as seen before, adds nothing
    assert (again.quarantine_seen_before, again.n_quarantined) == (2, 0)
    assert len(quarantine(tmp_path)) == 2


def test_every_rejected_line_is_in_the_quarantine_table(tmp_path):
    text = (
        "2026-03-01\n"
        "B=two M=99 S=HALF\n"  # 2: three problems, one row, the first one's code
        "A B C D\n"
        "1 - - -\n"
        "1 2 - -\n"  # 5
        "M=6\n"
        "7 - - -\n"  # 7
        "A B C\n"  # 8
        "2026-02-30\n"  # 9
    )
    csv_rows = (
        "2026-03-01,A,B,C,D,1,-,-,-,two,99,full,HALF\n2026-03-01,A,B,C,D,1,-,-,-,1,6,full,half\n"
    )
    sheet = write(tmp_path, "club.txt", text)
    sheet_csv = write(tmp_path, "club.csv", CSV_HEADER + csv_rows)
    summary = run(tmp_path, sheet, sheet_csv)
    rows = quarantine(tmp_path)
    assert summary.quarantine_seen_before == 0
    assert len(rows) == summary.n_quarantined == 6
    assert summary.records == summary.hands_added + summary.n_quarantined
    assert [(Path(r["source_file"]).name, r["source_line"], r["code"]) for r in rows] == [
        ("club.csv", 2, "SHEET_BAD_NUMBER"),
        ("club.txt", 2, "SHEET_BAD_NUMBER"),
        ("club.txt", 5, "SHEET_TWO_WINNERS"),
        ("club.txt", 7, "SHEET_FAN_ABOVE_MAX"),
        ("club.txt", 8, "SHEET_UNPARSEABLE"),
        ("club.txt", 9, "SHEET_UNPARSEABLE"),
    ]
    for row in rows[:2]:  # every problem of the line is in its one message
        assert "B='two'" in row["message"] and "M='99' is out of range" in row["message"]
        assert "S='HALF'" in row["message"]


def test_quarantine_rows_of_one_line_in_one_batch_become_one_row(tmp_path, monkeypatch):
    """The de-duplication counts only rows stored before as seen before; two problems a
    reader reports for one line are one row with both messages."""

    def twice(path: Path) -> Iterator[SheetItem]:
        yield SheetProblem(1, b"x y", "SHEET_UNPARSEABLE", "first problem")
        yield SheetProblem(1, b"x y", "SHEET_BAD_NUMBER", "second problem")

    monkeypatch.setattr(pipeline, "read_sheet", twice)
    sheet = write(tmp_path, "club.txt", "x y\n")
    summary = run(tmp_path, sheet)
    (row,) = quarantine(tmp_path)
    assert summary.quarantine_seen_before == 0
    assert summary.quarantined == Counter({"SHEET_UNPARSEABLE": 1})
    src = sheet.resolve()
    assert row["message"] == f"{src}:1: first problem; {src}:1: second problem"
