"""The user docs (docs/) say what the engine does: their codes, patterns, options, records
and commands are checked against the code, so a change to either that the other does not
follow fails here.

* every ```json record of docs/log-format.md is valid ``mjlog/1`` and replays without a
  CORRUPT_LOG finding (and, where it records a result, the result matches);
* each docs/rules page lists exactly the finding codes, with their class, that its
  family's engine can record (read from the source by :mod:`engine_codes`);
* the pattern tables equal the engines' registries and the option tables their names and
  defaults (a default is checked by giving it as an override: it must give the default);
* every rules reference on a rules page (the ``ref`` columns) is the one the engine cites
  for that pattern, cước, card hand, code or FALSE_WIN reason;
* every ``mjaudit ...`` command line of docs/club.md parses against the CLI, and the
  output pasted under a command on club.md, report.md and the score pages is what the
  command prints today.
"""

from __future__ import annotations

import difflib
import inspect
import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from engine_codes import family_codes, family_reasons
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR, FindingClass
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.rulesets.american import options as american_options
from mjaudit.parts.replay.rulesets.american.card import sample_card
from mjaudit.parts.replay.rulesets.american.score import CARD_HAND_SECTION
from mjaudit.parts.replay.rulesets.chan import options as chan_options
from mjaudit.parts.replay.rulesets.chan.cuoc import TABLE as CUOC_TABLE
from mjaudit.parts.replay.rulesets.chan.score import section as chan_section
from mjaudit.parts.replay.rulesets.hk import options as hk_options
from mjaudit.parts.replay.rulesets.hk.patterns import FAN_TABLES
from mjaudit.parts.replay.rulesets.hk.score import RULES_FILE as HK_RULES_FILE
from mjaudit.parts.replay.rulesets.hk.score import section as hk_section
from mjaudit.parts.replay.rulesets.riichi import options as riichi_options
from mjaudit.parts.replay.rulesets.vn160 import options as vn_options
from mjaudit.parts.replay.rulesets.vn160.patterns import ORDER as VN_PATTERNS
from mjaudit.parts.replay.rulesets.vn160.patterns import REPLACES as VN_REPLACES
from mjaudit.parts.replay.rulesets.vn160.patterns import (
    Reading,
    VNWin,
    WinSource,
    hand_patterns,
    reading_patterns,
)
from mjaudit.parts.replay.rulesets.vn160.patterns import Structure as VNStructure
from mjaudit.parts.replay.rulesets.vn160.score import section as vn_section
from mjaudit.parts.replay.rulesets.vn160.scoring import evaluate as vn_evaluate
from mjaudit.parts.replay.rulesets.vn160.scoring import fixed_score
from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX as VN_INDEX
from mjaudit.parts.schemas.mjlog import EVENT_TYPES
from mjaudit.parts.schemas.records import ErrorCode, parse_record

import mjaudit.cli

DOCS = Path(__file__).resolve().parents[1] / "docs"
ABSENT = "—"
CHICKEN_HAND = "chicken_hand"


# ------------------------------------------------------------------ reading the pages


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, name: str) -> int:
        return self.header.index(name)


def _cells(line: str) -> tuple[str, ...]:
    return tuple(c.strip() for c in line.strip().strip("|").split("|"))


def tables(text: str) -> list[Table]:
    """The Markdown tables of a page (header, then rows; the |---| line skipped)."""
    out: list[Table] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            block.append(line)
            continue
        if len(block) >= 2:
            out.append(Table(_cells(block[0]), tuple(_cells(b) for b in block[2:])))
        block = []
    return out


def tables_starting(text: str, first: str) -> list[Table]:
    return [t for t in tables(text) if t.header and t.header[0] == first]


def plain(cell: str) -> str:
    """A cell without its code quotes."""
    return cell.replace("`", "").strip()


def code_ids(cell: str) -> set[str]:
    """The `quoted` identifiers of a cell."""
    return set(re.findall(r"`([^`]+)`", cell))


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def fenced(text: str, lang: str) -> Iterator[str]:
    for m in re.finditer(rf"```{lang}\n(.*?)```", text, re.S):
        yield m.group(1)


# ------------------------------------------------------------------ log format records


def _records() -> list[str]:
    return list(fenced(page("log-format.md"), "json"))


def test_log_format_has_a_minimal_record_for_every_ruleset() -> None:
    rulesets = [json.loads(block)["ruleset"] for block in _records()]
    assert sorted(rulesets) == sorted(registry.RULESETS), rulesets


@pytest.mark.parametrize("block", _records(), ids=lambda b: json.loads(b)["ruleset"])
def test_log_format_record_is_valid_and_replays(block: str) -> None:
    parsed = parse_record(block.encode())  # raises RecordError naming the field
    report = replay_hand(parsed.record)
    bad = [f for f in report.findings if f.cls is FindingClass.CORRUPT_LOG]
    assert bad == [] and ENGINE_ERROR not in {f.code for f in report.findings}, bad
    if parsed.record.get("result") is not None:
        assert report.matches_recorded is True, report.findings


def test_log_format_lists_every_event_type() -> None:
    listed = {plain(r[0]) for t in tables_starting(page("log-format.md"), "type") for r in t.rows}
    assert listed == set(EVENT_TYPES)


def test_log_format_lists_every_quarantine_code() -> None:
    listed = {
        plain(r[0])
        for t in tables_starting(page("log-format.md"), "quarantine code")
        for r in t.rows
    }
    sheet = set(re.findall(r'"(SHEET_[A-Z_]+)"', _source("ingest/sheets.py", "schemas/sheet.py")))
    assert listed == {c.value for c in ErrorCode} | sheet


def _source(*paths: str) -> str:
    root = DOCS.parent
    return "".join((root / p).read_text(encoding="utf-8") for p in paths)


# ------------------------------------------------------------------ rules pages: codes

# page -> (engine folder under replay/, the ruleset ids it covers)
RULES_PAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rules/hk.md": ("hk", ("hk-classic", "hk-mahjongo", "hk-mahjongo-2p", "hk-sheet")),
    "rules/vn-160.md": ("vn160", ("vn-160",)),
    "rules/american.md": ("american", ("american",)),
    "rules/chan.md": ("chan", ("chan",)),
    "rules/riichi.md": ("riichi", ("riichi",)),
}


def test_every_ruleset_has_a_rules_page() -> None:
    covered = sorted(r for _, ids in RULES_PAGES.values() for r in ids)
    assert covered == sorted(registry.RULESETS)


@pytest.mark.parametrize("name", sorted(RULES_PAGES))
def test_rules_page_lists_the_engines_codes(name: str) -> None:
    emitted, unresolved = family_codes(RULES_PAGES[name][0])
    assert unresolved == [], "teach tests/engine_codes.py these call sites"
    engine = {(e.code, e.cls) for e in emitted}
    assert all(cls in FindingClass.__members__ for _, cls in engine)
    listed = [
        (plain(row[0]), plain(row[1]))
        for t in tables_starting(page(name), "code")
        for row in t.rows
    ]
    assert len(listed) == len(set(listed)), "a code is listed twice"
    missing = sorted(engine - set(listed))
    extra = sorted(set(listed) - engine)
    assert (missing, extra) == ([], []), f"{name}: not listed {missing}; not emitted {extra}"


# ------------------------------------------------------------------ rules pages: patterns


def test_hk_fan_tables_equal_the_registry() -> None:
    (table,) = tables_starting(page("rules/hk.md"), "pattern")
    columns = {
        "section5": "hk-classic/section5",
        "section6": "hk-classic/section6",
        "mahjongo": "hk-mahjongo",
    }
    for column, fan_table in columns.items():
        i = table.column(column)
        listed = {plain(r[0]): plain(r[i]) for r in table.rows if r[i] != ABSENT}
        engine = {row.id: str(row.value) for row in FAN_TABLES[fan_table].rows}
        if FAN_TABLES[fan_table].chicken_hand:  # the 0-fan label, reported when nothing scores
            engine[CHICKEN_HAND] = "0"
        assert listed == engine, column
    drops = table.column("section6 drops")
    listed_drops = {plain(r[0]): code_ids(r[drops]) for r in table.rows if code_ids(r[drops])}
    engine_drops = {
        r.id: set(r.includes) for r in FAN_TABLES["hk-classic/section6"].rows if r.includes
    }
    assert listed_drops == engine_drops


def _vn_counts(*kinds: int) -> tuple[int, ...]:
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    return tuple(counts)


def _vn_reading(
    structure: VNStructure = VNStructure.STANDARD,
    counts: tuple[int, ...] = _vn_counts(0, 9, 18),  # characters, dots and bamboo
    pair: int = 4,
    chows: tuple[int, ...] = (),
    pungs: tuple[int, ...] = (),
) -> Reading:
    return Reading(structure, counts, pair, chows, pungs)


def _vn_win(source: WinSource = WinSource.DISCARD, **fields: Any) -> VNWin:
    return VNWin(concealed=(), win_tile=0, source=source, **fields)


def _vn_tiles(text: str) -> tuple[int, ...]:
    return tuple(VN_INDEX[t] for t in text.split())


_DISCARD, _SELF = _vn_win(), _vn_win(WinSource.SELF_DRAW)
_O = vn_options.VN160_DEFAULTS
_FLOWERS = tuple((VN_INDEX[f], True) for f in ("f1", "f2", "f3", "f4"))
# One win per pattern, given to the engine's own pattern functions: (no_khung) -> hits.
VN_PROBES: dict[str, Callable[[bool], list[tuple[str, int]]]] = {
    "u_muoi": lambda nk: list(
        vn_evaluate(  # 111m 234p 567s 99s EE(khung): a pung of E read through BT, nothing else
            VNWin(
                _vn_tiles("1m 1m 1m 2p 3p 4p 5s 6s 7s 9s 9s E BT"), VN_INDEX["E"], WinSource.DISCARD
            ),
            _O,
        ).patterns  # type: ignore[union-attr]
    ),
    "u_phinh": lambda nk: reading_patterns(_vn_reading(chows=(0, 9, 18, 3)), _DISCARD, _O, nk),
    "tui_tui": lambda nk: reading_patterns(_vn_reading(pungs=(0, 9, 18, 1)), _DISCARD, _O, nk),
    "khan_khan": lambda nk: reading_patterns(_vn_reading(pungs=(0, 9, 18, 1)), _SELF, _O, nk),
    "toan_hang": lambda nk: reading_patterns(
        _vn_reading(counts=_vn_counts(0, 4), chows=(0, 3, 0, 3)), _DISCARD, _O, nk
    ),
    "toan_chu": lambda nk: reading_patterns(
        _vn_reading(counts=_vn_counts(27, 31), pungs=(27, 28, 31, 32), pair=29), _DISCARD, _O, nk
    ),
    "thap_tam_thai_bao": lambda nk: reading_patterns(
        _vn_reading(VNStructure.THIRTEEN_ORPHANS), _DISCARD, _O, nk
    ),
    "dai_tam_nguyen": lambda nk: reading_patterns(
        _vn_reading(pungs=(31, 32, 33, 0)), _DISCARD, _O, nk
    ),
    "tieu_tam_nguyen": lambda nk: reading_patterns(
        _vn_reading(pungs=(31, 32, 0, 9), pair=33), _DISCARD, _O, nk
    ),
    "dai_tu_hi": lambda nk: reading_patterns(_vn_reading(pungs=(27, 28, 29, 30)), _DISCARD, _O, nk),
    "tieu_tu_hi": lambda nk: reading_patterns(
        _vn_reading(pungs=(27, 28, 29, 0), pair=30), _DISCARD, _O, nk
    ),
    "u_pe_pe": lambda nk: reading_patterns(
        _vn_reading(VNStructure.SEVEN_PAIRS, pair=-1), _DISCARD, _O, nk
    ),
    "bat_cau_nhan": lambda nk: hand_patterns(_SELF, _O, False),
    "u_xuyen": lambda nk: hand_patterns(_SELF, _O, True),
    "thien_u": lambda nk: hand_patterns(_vn_win(WinSource.SELF_DRAW, heavenly=True), _O, False),
    "dia_u": lambda nk: hand_patterns(_vn_win(earthly=True), _O, False),
    "khong_hoa_khong_la": lambda nk: hand_patterns(_DISCARD, _O, False),
    "seat_flower": lambda nk: hand_patterns(_vn_win(declared=_FLOWERS[:1]), _O, False),
    "flower_set": lambda nk: hand_patterns(_vn_win(declared=_FLOWERS), _O, False),
    "khung_declared": lambda nk: hand_patterns(
        _vn_win(declared=((VN_INDEX["BP"], False),)), _O, False
    ),
    "tong_hop_dau": lambda nk: hand_patterns(
        _vn_win(declared=((VN_INDEX["BT"], True), (VN_INDEX["RU"], True))), _O, False
    ),
    "bonus_deal_in": lambda nk: hand_patterns(
        VNWin((), VN_INDEX["f2"], WinSource.DISCARD), _O, False
    ),
    "three_blue_khung": lambda nk: list(fixed_score("three_blue_khung", _O).patterns),
    "three_red_khung": lambda nk: list(fixed_score("three_red_khung", _O).patterns),
}


def _vn_value(pattern: str, no_khung: bool) -> int:
    (value,) = [v for p, v in VN_PROBES[pattern](no_khung) if p == pattern]
    return value


def test_vn160_patterns_equal_the_engine() -> None:
    (table,) = tables_starting(page("rules/vn-160.md"), "pattern")
    assert [plain(r[0]) for r in table.rows] == list(VN_PATTERNS)
    assert set(VN_PROBES) == set(VN_PATTERNS)  # every pattern is valued by the engine below
    i = table.column("replaces")
    listed = {plain(r[0]): code_ids(r[i]) for r in table.rows if code_ids(r[i])}
    assert listed == {k: set(v) for k, v in VN_REPLACES.items()}
    phan, no_khung = table.column("phán"), table.column("no khung")
    for row in table.rows:
        pattern, value = plain(row[0]), plain(row[phan])
        with_khung = _vn_value(pattern, False)
        if value.isdigit():
            assert with_khung == int(value), pattern
        else:  # an option holds the value
            assert value in vn_options.OPTION_NAMES, pattern
            default = getattr(_O, value)
            assert not isinstance(default, int) or with_khung == default, pattern
        expected = int(row[no_khung]) if row[no_khung] else with_khung
        assert _vn_value(pattern, True) == expected, pattern


def test_chan_cuoc_table_equals_the_engine() -> None:
    (table,) = tables_starting(page("rules/chan.md"), "cước")
    listed = {
        plain(r[0]): (r[1], int(r[2]), int(r[3]), None if r[4] == ABSENT else int(r[4]))
        for r in table.rows
    }
    engine = {c.id: (c.name, c.diem, c.dich, c.max_n) for c in CUOC_TABLE.values()}
    assert listed == engine
    (ga,) = tables_starting(page("rules/chan.md"), "gà")
    assert [plain(r[0]) for r in ga.rows] == list(chan_options.GA_IDS)


def test_american_sample_card_table_equals_the_card() -> None:
    (table,) = tables_starting(page("rules/american.md"), "card hand")
    card = sample_card()
    listed = [(plain(r[0]), plain(r[1]), int(r[2]), r[3] == "yes") for r in table.rows]
    assert listed == [(h.id, h.category, h.value, h.concealed) for h in card.hands]


# ------------------------------------------------------------------ rules pages: references

NO_REF = "–"  # what a report prints for a finding that no rules text defines (hk-sheet's)


def _ref_columns(name: str, table: Table) -> list[tuple[int, str]]:
    """(column, ruleset id) of each reference column: ``ref`` on a page of one ruleset,
    ``RULESET ref`` on the Hong Kong page."""
    ids = RULES_PAGES[name][1]
    out = []
    for i, head in enumerate(table.header):
        if head == "ref":
            out.append((i, ids[0]))
        elif head.endswith(" ref"):
            out.append((i, head.removesuffix(" ref")))
    assert all(rid in ids for _, rid in out), table.header
    return out


def _cited(ruleset: str, code: str, reason: str | None = None) -> str:
    """The reference `mjaudit report` prints beside a finding."""
    return registry.rules_ref(ruleset, code, reason) or NO_REF


def _source_of(function: object) -> Path:
    """The ``.py`` a function comes from, also when its module is compiled (a ``.so``, whose
    functions ``inspect.getfile`` does not accept)."""
    file = Path(inspect.getfile(sys.modules[function.__module__]))
    return file.with_name(file.name.split(".")[0] + ".py")


def _owners(name: str) -> dict[str, str]:
    """code -> the ruleset of the page whose own replay module is the only one recording
    it (hk-sheet, for the SHEET_* codes of the sheet settlement): its hands are the ones cited."""
    emitted, _ = family_codes(RULES_PAGES[name][0])
    modules: dict[str, set[str]] = {}
    for e in emitted:
        modules.setdefault(e.code, set()).add(e.where.split(":")[0])
    replays: dict[str, list[str]] = {}  # module -> the rulesets it replays
    for rid in RULES_PAGES[name][1]:
        path = _source_of(registry.RULESETS[rid].replay).relative_to(DOCS.parent)
        replays.setdefault(str(path), []).append(rid)
    own = {module: rids[0] for module, rids in replays.items() if len(rids) == 1}
    return {
        code: own[module]
        for code, where in modules.items()
        for module in where
        if len(where) == 1 and module in own
    }


@pytest.mark.parametrize("name", sorted(RULES_PAGES))
def test_checklist_refs_are_the_engines(name: str) -> None:
    """Every code's reference, per ruleset, is what a report cites for it."""
    (table,) = tables_starting(page(name), "code")
    columns = _ref_columns(name, table)
    assert columns, f"{name}: the checklist has no ref column"
    owners = _owners(name)
    for row in table.rows:
        code = plain(row[0])
        for i, rid in columns:
            assert plain(row[i]) == _cited(owners.get(code, rid), code), (name, code, rid)


@pytest.mark.parametrize("name", sorted(RULES_PAGES))
def test_false_win_reasons_and_refs_are_the_engines(name: str) -> None:
    """The reasons table lists the reasons the engine gives, each with the reference a
    report cites for a FALSE_WIN of that reason; with the codes it covers every row of the
    engine's checklist tables, so a new reference cannot go unlisted."""
    reasons = tables_starting(page(name), "reason")
    listed = [plain(r[0]) for t in reasons for r in t.rows]
    assert sorted(listed) == sorted(family_reasons(RULES_PAGES[name][0]))
    for table in reasons:
        columns = _ref_columns(name, table)
        assert columns, f"{name}: the reasons table has no ref column"
        for row in table.rows:
            for i, rid in columns:
                expected = _cited(rid, "FALSE_WIN", plain(row[0]))
                assert plain(row[i]) == expected, (name, row[0], rid)
    codes = {plain(r[0]) for t in tables_starting(page(name), "code") for r in t.rows}
    for rid in RULES_PAGES[name][1]:
        _, refs = registry.CHECKLISTS.get(rid, ("", {}))
        assert set(refs) <= codes | set(listed), (rid, sorted(set(refs) - codes - set(listed)))


def test_hk_fan_table_refs_are_the_engines() -> None:
    (table,) = tables_starting(page("rules/hk.md"), "pattern")
    columns = _ref_columns("rules/hk.md", table)
    assert [rid for _, rid in columns] == list(HK_RULES_FILE)[:2]  # mahjongo-2p shares its rows
    for i, rid in columns:
        rows = HK_RULES_FILE[rid][1]
        listed = {plain(r[0]): plain(r[i]) for r in table.rows if r[i] != ABSENT}
        assert listed == {p: hk_section(rid, p) for p in rows}, rid


def test_vn160_pattern_refs_are_the_engines() -> None:
    (table,) = tables_starting(page("rules/vn-160.md"), "pattern")
    ((i, _),) = _ref_columns("rules/vn-160.md", table)
    assert {plain(r[0]): plain(r[i]) for r in table.rows} == {p: vn_section(p) for p in VN_PATTERNS}


@pytest.mark.parametrize("first", ["cước", "gà"])
def test_chan_line_refs_are_the_engines(first: str) -> None:
    (table,) = tables_starting(page("rules/chan.md"), first)
    ((i, _),) = _ref_columns("rules/chan.md", table)
    for row in table.rows:
        assert plain(row[i]) == chan_section(plain(row[0]), CUOC_TABLE), row


def test_american_card_hand_refs_are_the_engines() -> None:
    (table,) = tables_starting(page("rules/american.md"), "card hand")
    ((i, _),) = _ref_columns("rules/american.md", table)
    assert {plain(r[i]) for r in table.rows} == {CARD_HAND_SECTION}


# ------------------------------------------------------------------ rules pages: options

Apply = Callable[[Mapping[str, object]], object]
ENGINE_OPTIONS: dict[str, tuple[object, Apply]] = {
    **{
        rid: (hk_options.PRESETS[rid], lambda o, rid=rid: hk_options.options_for(rid, o))
        for rid in hk_options.PRESETS
    },
    "vn-160": (vn_options.VN160_DEFAULTS, vn_options.options_for),
    "american": (american_options.AMERICAN, american_options.options_for),
    "chan": (chan_options.DEFAULT, chan_options.options_for),
    "riichi": (riichi_options.RiichiOptions(), riichi_options.options_for),
}


def _value(cell: str) -> Any:
    text = plain(cell)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _option_columns() -> Iterator[tuple[str, str, Table, int]]:
    """(page, ruleset id, table, column) for every ruleset column of an options table."""
    for name, (_, ids) in RULES_PAGES.items():
        for table in tables_starting(page(name), "option"):
            for i, head in enumerate(table.header):
                rid = ids[0] if head == "default" and len(ids) == 1 else head
                if rid in ENGINE_OPTIONS:
                    yield name, rid, table, i


def test_every_ruleset_with_options_has_an_options_table() -> None:
    documented = sorted({rid for _, rid, _, _ in _option_columns()})
    assert documented == sorted(r.id for r in registry.RULESETS.values() if r.option_names)


@pytest.mark.parametrize(
    ("name", "rid", "table", "column"),
    [pytest.param(*c, id=f"{c[0]}:{c[1]}") for c in _option_columns()],
)
def test_options_table_equals_the_engine(name: str, rid: str, table: Table, column: int) -> None:
    rows = {plain(r[0]): r[column] for r in table.rows if r[column] != ABSENT}
    assert set(rows) == set(registry.RULESETS[rid].option_names), name
    defaults, apply = ENGINE_OPTIONS[rid]
    for option, cell in rows.items():
        value = _value(cell)
        expected = getattr(defaults, option)
        if value is None:
            assert expected is None, (option, expected)
        else:  # writing the documented default in a log must give the default
            assert getattr(apply({option: value}), option) == expected, (option, cell)


# ------------------------------------------------------------------ club page commands


DOC_PAGES = ("club.md", "log-format.md", *RULES_PAGES)


def _commands(name: str) -> list[str]:
    """The ``$ mjaudit ...`` lines of a page's console blocks and its `mjaudit ...` spans."""
    text = page(name)
    out = []
    for block in fenced(text, "console"):
        out += [line[2:] for line in block.splitlines() if line.startswith("$ mjaudit ")]
    out += [" ".join(m.split()) for m in re.findall(r"`(mjaudit [^`]+)`", text)]
    return out


def test_club_page_shows_commands() -> None:
    assert len(_commands("club.md")) >= 8


@pytest.mark.parametrize("line", [c for name in DOC_PAGES for c in _commands(name)])
def test_documented_command_parses(line: str) -> None:
    """The subcommand exists and takes these options and arguments (placeholders such as
    FILE stand for an argument)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|;&")
    lexer.whitespace_split = True
    words = list(itertools.takewhile(lambda w: w not in ("|", "||", "&&", ";"), lexer))[1:]
    command = typer.main.get_command(mjaudit.cli.app)
    path = ["mjaudit"]
    while hasattr(command, "get_command"):  # a group (typer's own click, not `click`)
        ctx = command.make_context(" ".join(path), [], resilient_parsing=True)
        sub = command.get_command(ctx, words[0]) if words else None
        assert sub is not None, f"{line}: no command {words[:1]}"
        path.append(words.pop(0))
        command = sub
    assert not hasattr(command, "get_command")
    command.make_context(" ".join(path), words)  # raises a UsageError on a bad option


def test_club_page_names_the_engine_error() -> None:
    assert f"`{ENGINE_ERROR}`" in page("club.md")


# ------------------------------------------------------------------ pasted output

# page -> where its examples run: a fresh folder holding a copy of examples/ (the page's
# commands run in order, each seeing what the ones before it wrote), or the project's own
# folder (the score pages name the sample card by its path in a source tree).
EXAMPLE_PAGES: dict[str, str] = {
    "club.md": "copy",
    "report.md": "copy",
    "score.md": "project",
    "score-american-chan.md": "project",
}
CLUB_FOLDER = (
    "/tmp/club"  # the folder club.md and report.md were run in (paths outside it print whole)
)
ELIDED = "..."  # an output line standing for lines left out
NOT_RUN = ("mjaudit dashboard",)  # a server: it runs until stopped


@dataclass(frozen=True)
class Example:
    """One ```console block: a command, the output pasted under it, its exit status."""

    command: str
    output: tuple[str, ...]
    status: int | None


def examples(name: str) -> list[Example]:
    """The blocks of a page that show a command's output: one ``$ mjaudit ...`` line, then
    the output; the status is a last ``# exit status N`` line or a ``(exit status N)``
    line after the block. Blocks of commands alone (several ``$`` lines) are left out."""
    out = []
    pattern = r"```console\n(.*?)```\n(?:\(exit status (\d+)\)\n)?"
    for m in re.finditer(pattern, page(name), re.S):
        lines = m.group(1).rstrip("\n").split("\n")
        status = None if m.group(2) is None else int(m.group(2))
        last = re.fullmatch(r"# exit status (\d+)", lines[-1])
        if last:
            status, lines = int(last.group(1)), lines[:-1]
        command, output = lines[0], tuple(line.rstrip() for line in lines[1:])
        if any(line.startswith("$ ") for line in output) or not (output or status is not None):
            continue
        if command.startswith("$ mjaudit ") and not command[2:].startswith(NOT_RUN):
            out.append(Example(command[2:], output, status))
    return out


def _matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """The output equals the pasted one, where each ``...`` line stands for any lines."""
    chunks: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == ELIDED:
            chunks.append([])
        else:
            chunks[-1].append(line)
    if len(chunks) == 1:
        return actual == chunks[0]
    first, *middle, last = chunks
    if actual[: len(first)] != first:
        return False
    pos = len(first)
    for chunk in middle:
        found = next(
            (i for i in range(pos, len(actual) + 1) if actual[i : i + len(chunk)] == chunk), None
        )
        if found is None:
            return False
        pos = found + len(chunk)
    return len(actual) - len(last) >= pos and actual[len(actual) - len(last) :] == last


def _without_pdf(example: Example) -> Example:
    """``--pdf`` left out, and its ``wrote FILE.pdf`` line: the PDF's bytes are Chromium's,
    which differs between machines (tests/test_report_browser.py covers the PDF)."""
    if " --pdf" not in example.command:
        return example
    output = tuple(line for line in example.output if not re.fullmatch(r"wrote \S+\.pdf .*", line))
    return Example(example.command.replace(" --pdf", ""), output, example.status)


def _run(command: str, cwd: Path, shown_as: str) -> tuple[list[str], int]:
    """The command as a user runs it (not on a terminal: tables 140 wide), stdout and
    stderr in the order printed, the folder it ran in written as the page shows it."""
    env = {k: v for k, v in os.environ.items() if k not in ("MJAUDIT_DATA", "COLUMNS")}
    env.update(PYTHONPATH=str(DOCS.parent), PYTHONUNBUFFERED="1")
    done = subprocess.run(
        [sys.executable, "-m", "mjaudit", *shlex.split(command)[1:]],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        encoding="utf-8",
        check=False,
    )
    lines = [line.rstrip() for line in done.stdout.replace(str(cwd), shown_as).splitlines()]
    return lines, done.returncode


@pytest.mark.parametrize("name", sorted(EXAMPLE_PAGES))
def test_pasted_output_is_the_commands(name: str, tmp_path: Path) -> None:
    """Every command of the page whose output is pasted gives that output today (and the
    exit status written under it)."""
    cwd, shown_as = DOCS.parent, str(DOCS.parent)
    if EXAMPLE_PAGES[name] == "copy":
        cwd, shown_as = tmp_path / "club", CLUB_FOLDER
        shutil.copytree(DOCS.parent / "examples", cwd / "examples")
    shown = [_without_pdf(e) for e in examples(name)]
    assert len(shown) >= 3, f"{name}: no pasted output found"
    wrong = []
    for example in shown:
        actual, status = _run(example.command, cwd, shown_as)
        if not _matches(example.output, actual) or example.status not in (None, status):
            diff = difflib.unified_diff(example.output, actual, "pasted", "now", lineterm="")
            wrong.append(f"$ {example.command}  (exit status {status})\n" + "\n".join(diff))
    assert not wrong, f"{name}:\n" + "\n\n".join(wrong)
