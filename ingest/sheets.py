"""Read Hong Kong club score sheets (plain text, or the CSV form) into hand records.

Text form, one statement per line (``#`` starts a comment, blank lines are ignored)::

    2026-03-01          # the date of the games that follow
    B=2  M=6            # base points, maximum fan (also R=half|full, S=half|spicy)
    An Binh Chi Dung    # the four players, in seat order
    1 - - -             # a game: An self-drew a 1-fan win
    - 2 d -             # Binh won 2 fan on Chi's discard

CSV form: a header ``date,player1..player4,result1..result4,base,max_fan,responsibility,
rise`` and one game per row (empty option cells take the defaults).

Each game becomes an ``mjlog/1`` record of ruleset ``hk-sheet``: ``game_id`` is
``<file name>/<date>``, ``hand_no`` counts the games of that date in file order (a date
heading repeated later in the file continues its count, so every game keeps its own
number and a re-read numbers them the same), no events, the ``sheet`` line, and the
recorded result with the deltas the sheet's own settlement gives (:mod:`schemas.sheet`).
A bad line becomes one :class:`SheetProblem` (quarantined by ingest; several problems of
one line in one message); the lines around it are still read. A bad option line keeps the
option's previous value for the games that follow. Numbers are bounded (``B`` above 0 and
at most ``MAX_BASE``, ``M`` 0 to ``MAX_FAN``, a fan at most ``M``) before any arithmetic:
out of range is ``SHEET_NUMBER_OUT_OF_RANGE``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from mjaudit.parts.schemas.sheet import (
    ENTRY,
    MAX_BASE,
    MAX_FAN,
    OUT_OF_RANGE,
    SheetError,
    SheetLine,
    settle,
    shown,
)

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
OPTION = re.compile(r"^([BMRS])=(\S*)$")
WHOLE = re.compile(r"^[0-9]+$")
NAME = re.compile(r"^[^\d\-#*\s][^#*\s]*$")
CSV_HEADER = [
    "date", "player1", "player2", "player3", "player4",
    "result1", "result2", "result3", "result4",
    "base", "max_fan", "responsibility", "rise",
]  # fmt: skip


@dataclass(frozen=True)
class SheetRecord:
    line: int
    raw: bytes
    record: dict[str, Any]


@dataclass(frozen=True)
class SheetProblem:
    line: int
    raw: bytes
    code: str
    message: str


SheetItem = SheetRecord | SheetProblem


@dataclass
class _State:
    day: date | None = None
    players: list[str] | None = None
    players_problem: str | None = None
    base: float = 1.0
    max_fan: int = 13
    responsibility: str = "full"
    rise: str = "half"
    # games so far per date (``undated`` before any date), kept across repeated headings
    counts: dict[str, int] = field(default_factory=dict)


def looks_like_sheet(path: Path) -> bool:
    """Content sniffing for ``.txt``/``.csv``/``.sheet`` files found in folders."""
    try:
        head = path.read_bytes()[:4096].decode("utf-8", errors="replace")
    except OSError:
        return False
    if path.suffix == ".csv":
        first = head.splitlines()[0] if head else ""
        return [c.strip().lower() for c in first.split(",")] == CSV_HEADER
    for raw in head.splitlines():
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        tokens = text.split()
        return bool(
            DATE.match(text)
            or all(OPTION.match(t) for t in tokens)
            or (len(tokens) == 4 and all(NAME.match(t) for t in tokens))
        )
    return False


def read_sheet(path: Path) -> Iterator[SheetItem]:
    """The games of one sheet file, text or CSV, in file order."""
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if path.suffix == ".csv":
        yield from _read_csv(path, data)
    else:
        yield from _read_text(path, data)


def _game(state: _State, path: Path, line: int, raw: bytes, entries: list[str]) -> SheetItem:
    if state.players is None:
        why = state.players_problem or "no line of four player names comes before it"
        return SheetProblem(line, raw, "SHEET_NO_PLAYERS", f"a game line, but {why}")
    for token in entries:
        if not ENTRY.match(token):
            code = (
                "SHEET_BAD_NUMBER"
                if token[:1].isdigit() or token[:1] in ".-+"
                else "SHEET_UNPARSEABLE"
            )
            return SheetProblem(
                line,
                raw,
                code,
                f"{shown(token)} is not an entry: expected a whole fan number, -, d, D, S, g or f",
            )
    sheet = SheetLine(entries, state.base, state.max_fan, state.responsibility, state.rise)  # type: ignore[arg-type]
    try:
        outcome = settle(sheet)
    except SheetError as exc:
        return SheetProblem(line, raw, exc.code, str(exc))
    day = state.day.isoformat() if state.day else "undated"
    hand_no = state.counts[day] = state.counts.get(day, 0) + 1
    result: dict[str, Any] = {"winners": [] if outcome.winner is None else [outcome.winner]}
    if outcome.fan is not None:
        result["fan"] = outcome.fan
    result["deltas"] = list(outcome.deltas)
    if outcome.false_win is not None:
        result["penalties"] = [
            {"seat": outcome.false_win, "code": "FALSE_WIN", "deltas": list(outcome.deltas)}
        ]
    record: dict[str, Any] = {
        "format": "mjlog/1",
        "game_id": f"{path.name}/{day}",
        "hand_no": hand_no,
        "ruleset": "hk-sheet",
        "players": list(state.players),
        "dealer": 0,  # sheets do not record the dealer
        "events": [],
        "sheet": {
            "entries": entries,
            "base": state.base,
            "max_fan": state.max_fan,
            "responsibility": state.responsibility,
            "rise": state.rise,
        },
        "result": result,
    }
    if state.day is not None:
        record["started_at"] = f"{day}T00:00:00+00:00"
    return SheetRecord(line, raw, record)


def _names(state: _State, line: int, raw: bytes, names: list[str]) -> SheetProblem | None:
    bad = [n for n in names if not NAME.match(n)]
    if bad:
        problem = f"{bad[0]!r} is not a player name (names do not start with a digit or '-' and contain no '#' or '*')"
        code = "SHEET_UNPARSEABLE"
    elif len(set(names)) != 4:
        dup = next(n for n in names if names.count(n) > 1)
        problem, code = f"the player {dup!r} is named twice", "SHEET_DUPLICATE_NAMES"
    else:
        state.players, state.players_problem = names, None
        return None
    state.players = None
    state.players_problem = f"the player line {line} before it is invalid"
    return SheetProblem(line, raw, code, problem)


def _option(state: _State, key: str, value: str) -> tuple[str, str] | None:
    """Apply ``key=value``; return (quarantine code, problem sentence) if the value is bad.

    B and M are bounded here, before they reach any arithmetic (see :mod:`schemas.sheet`)."""
    if key == "B":
        try:
            base = float(value)
        except ValueError:
            base = float("nan")
        if base != base:
            return "SHEET_BAD_NUMBER", f"B={shown(value)}: expected a positive number"
        if not 0 < base <= MAX_BASE:
            return OUT_OF_RANGE, (
                f"B={shown(value)} is out of range: expected a number above 0, at most {MAX_BASE:g}"
            )
        state.base = base
    elif key == "M":
        if not WHOLE.match(value):
            return "SHEET_BAD_NUMBER", f"M={shown(value)}: expected a whole number"
        digits = value.lstrip("0") or "0"
        if len(digits) > len(str(MAX_FAN)) or int(digits) > MAX_FAN:
            return OUT_OF_RANGE, (
                f"M={shown(value)} is out of range: expected a whole number from 0 to {MAX_FAN}"
            )
        state.max_fan = int(digits)
    elif key == "R":
        if value not in ("half", "full"):
            return "SHEET_UNPARSEABLE", f"R={shown(value)}: expected R=half or R=full"
        state.responsibility = value
    elif key == "S":
        if value not in ("half", "spicy"):
            return "SHEET_UNPARSEABLE", f"S={shown(value)}: expected S=half or S=spicy"
        state.rise = value
    return None


def _options(
    state: _State, line: int, raw: bytes, pairs: list[tuple[str, str]]
) -> SheetProblem | None:
    """Apply every ``key=value`` of a line; its problems become one item (one quarantine
    row per line: rows are keyed by file, line and content), coded by the first."""
    problems = [p for key, value in pairs if (p := _option(state, key, value))]
    if not problems:
        return None
    return SheetProblem(line, raw, problems[0][0], "; ".join(m for _, m in problems))


def _read_text(path: Path, data: bytes) -> Iterator[SheetItem]:
    state = _State()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        raw = raw.rstrip(b"\r")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield SheetProblem(number, raw, "BAD_ENCODING", "the line is not UTF-8 text")
            continue
        text = text.split("#", 1)[0].strip()
        if not text:
            continue
        tokens = text.split()
        if DATE.match(text):
            try:
                state.day = date.fromisoformat(text)
            except ValueError:
                yield SheetProblem(
                    number, raw, "SHEET_UNPARSEABLE", f"{text!r} is not a calendar date"
                )
            continue
        options = [m for t in tokens if (m := OPTION.match(t))]
        if len(options) == len(tokens):
            option_problem = _options(state, number, raw, [(m[1], m[2]) for m in options])
            if option_problem:
                yield option_problem
            continue
        if len(tokens) != 4:
            yield SheetProblem(
                number,
                raw,
                "SHEET_UNPARSEABLE",
                f"expected a date, options (B= M= R= S=), four player names or four entries; "
                f"got {len(tokens)} items",
            )
            continue
        if all(ENTRY.match(t) for t in tokens) or (
            not all(NAME.match(t) for t in tokens) and any(ENTRY.match(t) for t in tokens)
        ):
            yield _game(state, path, number, raw, tokens)
            continue
        problem = _names(state, number, raw, tokens)
        if problem:
            yield problem


def _read_csv(path: Path, data: bytes) -> Iterator[SheetItem]:
    text = data.decode("utf-8", errors="replace")
    # Lines end at LF, as the text sheets' and the logs' do (and as editors number them); a
    # bare CR in an unquoted field is that line's problem, not a line break.
    lines = [line + "\n" for line in text.split("\n")]
    if lines[-1] == "\n":
        lines.pop()
    reader = csv.reader(lines)

    def rows() -> Iterator[list[str] | csv.Error]:
        while True:
            try:
                yield next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                yield exc

    found = rows()
    header = next(found, None)
    if not isinstance(header, list) or [c.strip().lower() for c in header] != CSV_HEADER:
        yield SheetProblem(
            1,
            lines[0].encode() if lines else b"",
            "SHEET_UNPARSEABLE",
            f"the CSV header must be {','.join(CSV_HEADER)}",
        )
        return
    day_counts: dict[str, int] = {}
    for row in found:
        number = reader.line_num
        raw = lines[number - 1].rstrip("\r\n").encode() if number - 1 < len(lines) else b""
        if isinstance(row, csv.Error):
            message = (
                "a carriage return (CR) inside an unquoted field: a line ends at LF "
                "(quote the field or remove the CR)"
                if "new-line character" in str(row)
                else f"not a CSV row: {row}"
            )
            yield SheetProblem(number, raw, "SHEET_UNPARSEABLE", message)
            continue
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(CSV_HEADER):
            yield SheetProblem(
                number,
                raw,
                "SHEET_UNPARSEABLE",
                f"expected {len(CSV_HEADER)} columns, got {len(row)}",
            )
            continue
        cells = [c.strip() for c in row]
        row_state = _State()
        try:
            row_state.day = date.fromisoformat(cells[0]) if cells[0] else None
        except ValueError:
            yield SheetProblem(
                number, raw, "SHEET_UNPARSEABLE", f"{cells[0]!r} is not a date (YYYY-MM-DD)"
            )
            continue
        pairs = [(k, v) for k, v in zip("BMRS", cells[9:13], strict=True) if v]
        option_problem = _options(row_state, number, raw, pairs)
        if option_problem:
            yield option_problem
            continue
        name_problem = _names(row_state, number, raw, cells[1:5])
        if name_problem:
            yield name_problem
            continue
        row_state.counts = day_counts  # numbered per date across the rows
        yield _game(row_state, path, number, raw, cells[5:9])
