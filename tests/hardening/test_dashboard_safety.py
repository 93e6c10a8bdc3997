"""The dashboard's queries take user input only as bound parameters, path tricks are
harmless, and the dashboard never writes the data folder.

Every query of ``dashboards/queries.py`` and ``dashboards/data.py`` is run with SQL
injection strings in every filter field (ruleset, venue, table, players, source), as the
player, finding code/class, game id and hand number; the results must be empty, the
unfiltered results unchanged afterwards, and the data folder's files byte-identical with
the same mtimes. Then every page runs under AppTest with the same strings in every URL
parameter, with ``MJAUDIT_DATA`` pointing outside any data folder, and with replayer links
to ``../../etc/passwd``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from mjaudit.parts.dashboards import data as dd
from mjaudit.parts.dashboards import queries as dq
from mjaudit.parts.dashboards.app import SCRIPT
from mjaudit.parts.dashboards.queries import Filters
from streamlit.testing.v1 import AppTest

from tests.dashboards.archive import GAME, build

INJECTIONS = [
    "' OR 1=1 --",
    '"; DROP TABLE hands; --',
    "'; DROP TABLE hands; --",
    "%' --",
    "\\' OR '1'='1",
    "\\",
    "1) OR (1=1",
    "hk-classic' OR ruleset LIKE '%",
    "Lotus Club' --",
    "ann' OR player <> '",
    "🀄 ünïcödé \u202e\u0000",
    "../../etc/passwd",
]
CORE = INJECTIONS[:4] + INJECTIONS[-2:]
FILTER_FIELDS = ["ruleset", "venue", "table", "source_kind", "game"]
PAGES = ["overview", "players", "player", "fans", "violations", "replayer"]


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and mtime (and so also which files there are)."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("safety") / "data")


@pytest.fixture(scope="module")
def opened() -> Iterator[list[str]]:
    """Paths Python opened while the list is armed (``opened.append(None)`` arms it)."""
    seen: list[Any] = []

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and seen and seen[0] is None and isinstance(args[0], str | bytes):
            seen.append(args[0] if isinstance(args[0], str) else args[0].decode(errors="replace"))

    sys.addaudithook(hook)  # cannot be removed; it only records while armed
    yield seen
    seen.clear()


def frames_empty(result: Any) -> bool:
    if isinstance(result, pl.DataFrame):
        return result.is_empty()
    if isinstance(result, tuple):  # (frame, total) or (grain, frame)
        return all(frames_empty(x) for x in result if not isinstance(x, str))
    if isinstance(result, int):
        return result == 0
    if isinstance(result, dict):
        return all(frames_empty(v) for v in result.values())
    raise AssertionError(type(result))


def filtered_queries(con: Any, f: Filters) -> dict[str, Any]:
    """Every query that takes filters, with ``f``."""
    return {
        "activity": dd.activity(con, f),
        "activity_month": dd.activity(con, f, "month"),
        "leaderboard": dd.leaderboard(con, f),
        "player_table": dd.player_table(con, f),
        "fan_histogram": dd.fan_histogram(con, f),
        "pattern_frequency": dd.pattern_frequency(con, f),
        "payment_by_fan": dd.payment_by_fan(con, f),
        "limit_hands": dd.limit_hands(con, f),
        "findings": dd.findings(con, f),
        "finding_counts": dd.finding_counts(con, f),
        "sittings": dd.sittings(con, f),
        "player_stats": dq.player_stats(con, f),
        "player_stats_by_venue": dq.player_stats(con, f, by="venue"),
        "player_stats_by_month": dq.player_stats(con, f, by="month"),
        "chan_player_stats": dd.chan_player_stats(con, f),
        "cuoc_frequency": dd.cuoc_frequency(con, f),
        "score_histogram": dd.score_histogram(con, f),
    }


def everything(con: Any) -> dict[str, Any]:
    """The unfiltered results of every query, to compare before and after."""
    out = {k: v for k, v in filtered_queries(con, Filters()).items()}
    out |= {
        "status": dd.status(con),
        "filter_options": dd.filter_options(con),
        "overview": dd.overview(con, Filters()),
        "q_overview": dq.overview(con, Filters()),
        "summary_tsv": dq.summary_tsv(con, Filters()),
        "finding_options": dd.finding_options(con),
        "hands_of": dd.hands_of(con, GAME),
        "load_record": dd.load_record(con, GAME, 1),
        "hand_findings": dd.hand_findings(con, GAME, 4),
        "computed_result": dd.computed_result(con, GAME, 1),
        "player_sittings": dd.player_sittings(con, Filters(), "ann"),
        "head_to_head": dd.head_to_head(con, Filters(), "ann"),
    }
    return out


def same(a: Any, b: Any) -> bool:
    if isinstance(a, pl.DataFrame):
        return isinstance(b, pl.DataFrame) and a.equals(b, null_equal=True)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def connections(root: Path) -> Iterator[tuple[str, Any]]:
    archive = dd.open_archive(root)
    yield "archive", archive.cursor()
    yield "catalog", dq.connect(root)  # what `mjaudit stats` uses (player_stats etc.)


def test_injection_in_every_filter_field_and_argument(archive: Path) -> None:
    before_files = snapshot(archive)
    arch = dd.open_archive(archive)
    con = arch.cursor()
    baseline = everything(con)
    assert baseline["status"]["hands"] > 0 and not baseline["findings"][0].is_empty()
    for text in INJECTIONS:
        for fld in FILTER_FIELDS:
            if text not in CORE and fld != "venue":
                continue  # every string in one field, the core ones in all
            f = replace(Filters(), **{fld: text})
            for name, result in filtered_queries(con, f).items():
                assert frames_empty(result), (fld, text, name)
            assert dd.overview(con, f)["hands"] == 0
            assert dq.overview(con, f)["hands"] == 0
            assert dq.summary_tsv(con, f).count("\n") == 1  # the header only
        f = Filters(players=(text,))
        for name in ("leaderboard", "player_table", "fan_histogram", "pattern_frequency",
                     "payment_by_fan", "limit_hands", "findings", "finding_counts",
                     "sittings", "player_stats"):  # fmt: skip
            assert frames_empty(filtered_queries(con, f)[name]), (text, name)
        assert dd.overview(con, f)["hands"] == 0
        assert frames_empty(dd.findings(con, Filters(), codes=(text,)))
        assert frames_empty(dd.findings(con, Filters(), classes=(text,)))
        assert frames_empty(dd.finding_counts(con, Filters(), (text,), (text,)))
        assert dd.player_sittings(con, Filters(), text).is_empty()
        assert dd.head_to_head(con, Filters(), text).is_empty()
        assert dd.hands_of(con, text).is_empty()
        for hand_no in (1, 0, -1, 2**31 - 1):
            assert dd.load_record(con, text, hand_no) is None
            assert dd.hand_findings(con, text, hand_no).is_empty()
            assert dd.computed_result(con, text, hand_no) is None
        for bad in (text, "day' || '"):
            with pytest.raises(ValueError):
                dd.activity(con, Filters(), bad)
            with pytest.raises(ValueError):
                dq.player_stats(con, Filters(), by=bad)
    # the stats connection (mjaudit stats) too
    cat = dq.connect(archive)
    base_stats = dq.player_stats(cat, Filters())
    for text in INJECTIONS:
        for fld in FILTER_FIELDS:
            assert dq.player_stats(cat, replace(Filters(), **{fld: text})).is_empty()
        assert dq.player_stats(cat, Filters(players=(text,))).is_empty()
    assert same(dq.player_stats(cat, Filters()), base_stats)
    # nothing changed: in memory, nor on disk
    assert same(everything(con), baseline)
    assert same(everything(dd.open_archive(archive).cursor()), baseline)
    assert snapshot(archive) == before_files


def test_dates_reach_sql_as_parameters(archive: Path) -> None:
    con = dd.open_archive(archive).cursor()
    assert dd.overview(con, Filters(since=date(9999, 12, 31)))["hands"] == 0
    assert dd.overview(con, Filters(until=date(1, 1, 1)))["hands"] == 0
    assert dd.overview(con, Filters(since=date(1, 1, 1), until=date(9999, 12, 30)))["hands"] > 0
    sql, params = Filters(since=date(2026, 1, 1), ruleset="x' --").where()
    assert "x' --" not in sql and "2026" not in sql and params == ["x' --", "2026-01-01"]


def test_data_folder_outside_or_missing_is_a_clear_empty_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[Any]
) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    for root in ("../../etc", "/etc/passwd", "' OR 1=1 --"):
        assert dd.data_version(Path(root)) is None
        with pytest.raises(dd.NoData):
            dd.open_archive(root)
        with pytest.raises(FileNotFoundError, match="no data here yet"):
            dq.connect(root)
        monkeypatch.setenv("MJAUDIT_DATA", root)
        for page in PAGES:
            opened[:] = [None]
            at = app(page, game="../../etc/passwd", hand="1")
            files = opened[1:]
            opened.clear()
            assert not at.exception, [e.value for e in at.exception]
            assert "mjaudit ingest" in at.info[0].value  # how to get data
            assert not any("passwd" in p for p in files), files


def app(page: str = "overview", **query: str) -> AppTest:
    at = AppTest.from_file(SCRIPT, default_timeout=300)  # a hang guard: a busy CI machine is slow
    if page != "overview":
        at.switch_page(f"views/{page}.py")
    at.query_params.update(query)
    return at.run()


def test_pages_with_injection_in_every_url_parameter_and_no_writes(
    archive: Path, monkeypatch: pytest.MonkeyPatch, opened: list[Any]
) -> None:
    before = snapshot(archive)
    monkeypatch.setenv("MJAUDIT_DATA", str(archive))
    names = ["ruleset", "venue", "table", "players", "source", "since", "until", "name",
             "window", "min_hands", "code", "class", "game", "sitting", "hand", "event"]  # fmt: skip
    for text in [*INJECTIONS[:3], "2026-02-01' OR '1'='1"]:
        for page in PAGES:
            opened[:] = [None]
            at = app(page, **dict.fromkeys(names, text))
            files = opened[1:]
            opened.clear()
            assert not at.exception, (page, text, [e.value for e in at.exception])
            assert not any("passwd" in p for p in files), files
            if page == "overview":  # a bad link falls back to everything
                hands = next(m.value for m in at.metric if m.label == "Hands")
                assert hands == str(48 + 6)
    # a replayer link to a file path, or with SQL, opens no file and shows a real sitting
    for game in ("../../etc/passwd", "/etc/passwd", "' OR 1=1 --", "..%2F..%2Fetc%2Fpasswd"):
        opened[:] = [None]
        at = app("replayer", sitting=game, hand="1", event="0")
        files = opened[1:]
        opened.clear()
        assert not at.exception
        assert at.selectbox(key="r_game").value != game
        assert not any("passwd" in p for p in files), files
    # a full run of every page with interactions writes nothing into the data folder
    for page in PAGES:
        at = app(page)
        assert not at.exception
    at = app("replayer", sitting=GAME, hand="1")
    at.button(key="r_next").click().run()
    at.button(key="r_last").click().run()
    at = app()
    at.selectbox(key="f_ruleset").set_value("hk-classic").run()
    at.multiselect(key="f_players").set_value(["ann"]).run()
    at.switch_page("views/violations.py").run()
    assert not at.exception
    assert snapshot(archive) == before


HUGE = ["99999999999999999999999", "-99999999999999999999999", "9223372036854775808", "1e308"]


@pytest.mark.parametrize("value", HUGE)
def test_player_page_with_a_huge_window_says_it_is_ignored(
    archive: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """/player?name=X&window=99999999999999999999999 showed an OverflowError traceback."""
    monkeypatch.setenv("MJAUDIT_DATA", str(archive))
    at = app("player", name="X", window=value)
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert any(f"window='{value}'" in w and "1 to 100,000" in w for w in warnings), warnings
    assert at.number_input(key="p_window").value == 50  # the default, not the link's


@pytest.mark.parametrize("value", [*HUGE, "-1", "nan", "x"])
def test_every_numeric_url_parameter_is_bounded(
    archive: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("MJAUDIT_DATA", str(archive))
    for page, params in [
        ("overview", {"min_hands": value}),
        ("player", {"window": value}),
        ("replayer", {"game": GAME, "hand": value, "event": value}),
    ]:
        at = app(page, **params)
        assert not at.exception, (page, value, [e.value for e in at.exception])
        assert at.warning, (page, value)  # the ignored value is named, not silently dropped
