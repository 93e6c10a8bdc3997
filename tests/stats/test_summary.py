"""The summary tables give the figures the hand rows give.

One archive with every kind of hand the statistics meet (hk-classic and hk-mahjongo logs
over several days, vn-160, american, chắn, a club score sheet) is ingested and replayed
the ordinary way; then, for every combination of the sidebar's filters (game, ruleset of
that game, venue, table, dates, players, source), each statistic read from the summary
tables (what ``mjaudit stats`` and the dashboard pages show) equals the same statistic
computed from the hand rows (the ``*_raw`` queries, the definitions).
"""

from __future__ import annotations

import io
import itertools
import math
from datetime import date
from pathlib import Path
from typing import Any

import msgspec
import polars as pl
import pytest
from mjaudit.parts.dashboards import data
from mjaudit.parts.dashboards.queries import (
    STATS_TABLES,
    SUMMARY_GROUPS,
    Filters,
    SummaryMissing,
    connect,
    memory_db,
    overview,
    overview_raw,
    player_stats,
    player_stats_raw,
)
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir, Part
from mjaudit.parts.replay.archive.totals import stored_totals, summed_columns
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.schemas.tables import GRAINS, TOTALS_GRAIN, TOTALS_OF, TOTALS_TABLES
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from bench.synthlog import records as synthetic_records
from mjaudit.cli import app
from tests.dashboards import archive as hk_archive
from tests.dashboards import chan_archive

EXAMPLE_SHEET = Path(__file__).resolve().parents[2] / "examples" / "club-sheet.txt"


def _logs(folder: Path) -> list[str]:
    """The logs: the dashboards' archive, the chắn archive's four families, and synthetic
    hk-mahjongo sittings of two more venues on other days."""
    enc = msgspec.json.Encoder()
    mixed = folder / "mixed.jsonl"
    records = [
        *chan_archive.hk_hands(),
        chan_archive.vn160_hand(),
        chan_archive.american_hand(),
        *chan_archive.chan_hands(),
    ]
    mixed.write_bytes(b"".join(enc.encode(r) + b"\n" for r in records))
    more = folder / "more.jsonl"
    extra = list(synthetic_records(12, seed=11, hands_per_game=4))
    for k, rec in enumerate(extra):
        rec["game_id"] = f"extra-{rec['game_id']}"
        rec["venue"] = ("Jade Hall", "Harbour Room")[k % 2]
        rec["table"] = ("T2", "T3")[k % 2]
        rec["started_at"] = f"2026-01-{10 + k % 3:02d}T23:{(7 * k) % 60:02d}:00+07:00"
    more.write_bytes(b"".join(enc.encode(r) + b"\n" for r in extra))
    return [str(hk_archive.write_logs(folder)), str(mixed), str(more), str(EXAMPLE_SHEET)]


@pytest.fixture(scope="session")  # once per worker: the slices below may run on both
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("summary")
    root = folder / "data"
    result = ingest(_logs(folder), root)
    assert not result.quarantined, result.messages
    with chan_archive.chan_engine_stand_in():
        replay_archive(root)
    return root


def _same(a: Any, b: Any, where: str) -> None:
    """Equal, floats to rounding (sums are added in another order)."""
    if isinstance(a, pl.DataFrame):
        assert isinstance(b, pl.DataFrame), where
        assert_frame_equal(a, b, check_dtypes=False, rel_tol=1e-9, abs_tol=1e-9), where
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for k in a:
            _same(a[k], b[k], f"{where}[{k}]")
    elif isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b), where
        for x, y in zip(a, b, strict=True):
            _same(x, y, where)
    elif isinstance(a, float) or isinstance(b, float):
        assert a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9), where
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _filters(options: dict[str, Any]) -> list[Filters]:
    """Every combination of the sidebar's choices (a ruleset within its game; a day
    range that cuts the archive; none, one or two players)."""
    games: list[tuple[str | None, str | None]] = [(None, None)]  # `mjaudit stats` can
    for game, rulesets in options["rulesets_by_game"].items():
        games += [(game, None), *((game, r) for r in rulesets)]
    venues = [None, options["venues"][0]]
    tables = [None, options["tables"][0]]
    players = options["players"]
    who: list[tuple[str, ...]] = [(), (players[0],), (players[1], players[-1])]
    days = [(None, None), (date(2026, 1, 11), date(2026, 2, 1))]
    sources = [None, *options["sources"]]
    return [
        Filters(game=g, ruleset=r, venue=v, table=t, since=s, until=u, players=p, source_kind=k)
        for (g, r), v, t, (s, u), p, k in itertools.product(
            games, venues, tables, days, who, sources
        )
    ]


PAIRS = (
    ("overview", lambda con, f: data.overview(con, f), lambda con, f: data.overview_raw(con, f)),
    ("activity", data.activity, data.activity_raw),
    ("leaderboard", data.leaderboard, data.leaderboard_raw),
    ("fan_histogram", data.fan_histogram, data.fan_histogram_raw),
    ("payment_by_fan", data.payment_by_fan, data.payment_by_fan_raw),
    ("chan_player_stats", data.chan_player_stats, data.chan_player_stats_raw),
    ("chan_summary", data.chan_summary, data.chan_summary_raw),
    ("score_histogram", data.score_histogram, data.score_histogram_raw),
    ("stats overview", overview, overview_raw),
    (
        "player_stats",
        lambda con, f: player_stats(con, f),
        lambda con, f: player_stats_raw(con, f),
    ),
    (
        "finding_counts",
        lambda con, f: data.finding_counts(con, f, classes=("PLAYER_VIOLATION",)),
        lambda con, f: data.finding_counts_raw(con, f, classes=("PLAYER_VIOLATION",)),
    ),
    ("all finding_counts", data.finding_counts, data.finding_counts_raw),
    (
        "findings",
        lambda con, f: data.findings(con, f, classes=("PLAYER_VIOLATION",), limit=3, offset=1),
        lambda con, f: data.findings_raw(con, f, classes=("PLAYER_VIOLATION",), limit=3, offset=1),
    ),
    ("all findings", data.findings, data.findings_raw),
    ("pattern_frequency", data.pattern_frequency, data.pattern_frequency_raw),
    ("cuoc_frequency", data.cuoc_frequency, data.cuoc_frequency_raw),
    ("limit_hands", data.limit_hands, data.limit_hands_raw),
    (
        "a page of limit_hands",
        lambda con, f: data.limit_hands(con, f, limit=2),
        lambda con, f: data.limit_hands_raw(con, f, limit=2),
    ),
    ("sittings", data.sittings, data.sittings_raw),
    (
        "a page of sittings",
        lambda con, f: data.sittings(con, f, limit=2),
        lambda con, f: data.sittings_raw(con, f, limit=2),
    ),
)
# The player page's queries, for each player (the sidebar's player choice does not apply).
PLAYER_PAIRS = (
    ("player_sittings", data.player_sittings, data.player_sittings_raw),
    ("player_fans", data.player_fans, data.player_fans_raw),
    ("head_to_head", data.head_to_head, data.head_to_head_raw),
)


def test_the_archive_has_every_kind_of_hand(archive: Path) -> None:
    con = data.open_archive(archive).cursor()
    options = data.filter_options(con)
    assert {"hk-classic", "hk-mahjongo", "vn-160", "american", "chan"} <= set(options["rulesets"])
    assert set(options["sources"]) == {"log", "sheet"}
    assert len(options["venues"]) >= 3 and len(options["first_day"].isoformat()) == 10
    head = data.overview(con, Filters())
    assert head["hands"] == head["replayed"] > 0 and head["violations"] > 0


# The combinations are compared in slices (every SLICES-th one from a start), each a test
# of its own group, so that `make test`'s workers share the longest test of the suite.
SLICES = 6


@pytest.mark.parametrize(
    "start",
    [pytest.param(k, marks=pytest.mark.xdist_group(f"summary-slice-{k}")) for k in range(SLICES)],
)
def test_summary_figures_equal_the_hand_rows_for_every_filter(archive: Path, start: int) -> None:
    opened = data.open_archive(archive)
    assert opened.totals is not None
    opened.totals.join()  # the totals of filters with no venue, table or dates: all made
    con = opened.cursor()
    data.load_facts(con)  # the hand rows the raw queries read
    assert data.status(con)["hands"] == data.status(con)["replayed"]
    _same(data.filter_options(con), data.filter_options_raw(con), "filter_options")
    _same(data.finding_options(con), data.finding_options_raw(con), "finding_options")
    checked = 0
    everyone = data.filter_options(con)["players"]
    for f in _filters(data.filter_options(con))[start::SLICES]:
        # With players selected, the hand figures (overview, activity, findings) are read
        # from the hand rows of only the sittings they sat at: compared with all of them.
        for name, summary, raw in PAIRS:
            if name.startswith(("chan", "score", "cuoc")) and f.game == "mahjong":
                continue  # the chắn queries select chắn hands: as with game "chan"
            _same(summary(con, f), raw(con, f), f"{name} {f}")
            checked += 1
        if not f.players:
            for player in (everyone[0], everyone[len(everyone) // 2], everyone[-1]):
                for name, summary, raw in PLAYER_PAIRS:
                    _same(summary(con, f, player), raw(con, f, player), f"{name} {player} {f}")
                    checked += 1
        # The groups of `mjaudit stats --by` over the filters it has (no venue, table or
        # player choice: the grouping splits by those).
        if not (f.venue or f.table or f.players):
            for by in SUMMARY_GROUPS:
                _same(player_stats(con, f, by), player_stats_raw(con, f, by), f"by {by} {f}")
                checked += 1
    assert checked > 3_000 // SLICES


def test_one_sitting_reads_its_rows_from_the_files(archive: Path) -> None:
    """The replayer's queries read one sitting by game_id from the files: the same rows
    as the hand rows in memory give."""
    con = data.open_archive(archive).cursor()
    data.load_facts(con)
    games = [r[0] for r in con.execute("SELECT DISTINCT game_id FROM hands ORDER BY 1").fetchall()]
    assert len(games) > 5
    for game in games:
        _same(data.hands_of(con, game), data.hands_of_raw(con, game), game)
    assert data.hands_of(con, "no such sitting").is_empty()


def test_head_to_head_of_one_unit_and_the_moving_rates(archive: Path) -> None:
    con = data.open_archive(archive).cursor()
    player = data.filter_options(con)["players"][0]
    for rulesets in (("hk-classic",), ("hk-classic", "hk-mahjongo"), ()):
        _same(
            data.head_to_head(con, Filters(), player, rulesets),
            data.head_to_head_raw(con, Filters(), player, rulesets),
            f"{player} {rulesets}",
        )
    sits = data.player_sittings(con, Filters(), player)
    rates = data.moving_rates(sits, 10**9)  # a window longer than the history: all so far
    so_far = sits["wins"].cum_sum() / sits["hands"].cum_sum()
    assert rates["win rate"].to_list() == pytest.approx(so_far.to_list())
    last = data.moving_rates(sits, 1)  # the last sitting alone
    assert last["win rate"].to_list() == pytest.approx((sits["wins"] / sits["hands"]).to_list())


def test_stats_reads_the_summary_from_parquet(archive: Path) -> None:
    """``mjaudit stats`` reads the summary files directly (no in-memory copy)."""
    parquet = connect(archive)
    memory = data.open_archive(archive).cursor()
    data.load_facts(memory)  # the hand rows player_stats_raw reads
    for f in (Filters(), Filters(game="mahjong", venue="Lotus Club"), Filters(ruleset="vn-160")):
        for by in SUMMARY_GROUPS:
            _same(player_stats(parquet, f, by), player_stats_raw(memory, f, by), f"{by} {f}")


@pytest.mark.parametrize(
    "dropped",
    [("game_days", "player_games"), ("player_pairs", "player_patterns", "limit_wins")],
    ids=["first summaries", "player page summaries"],
)
def test_an_archive_replayed_before_the_summaries_says_so_then_upgrades(
    archive: Path, tmp_path: Path, dropped: tuple[str, ...]
) -> None:
    """Without its summary files (those of the first summary tables, or of the player
    page's, added later), the stats refuse (no zeros); the next replay writes them for
    every bucket that lacks them, and the figures are back."""
    import shutil

    root = tmp_path / "old"
    shutil.copytree(archive, root)
    store = DataDir(root)
    before = player_stats(connect(root))
    with store.writing():
        manifest = store.manifest()
        gone = [  # the buckets' files (each table keeps its empty one, as an old folder has)
            rel for name in dropped for rel in manifest["tables"][name] if "/bucket-" in rel
        ]
        store.commit_staged([], gone)
    with pytest.raises(SummaryMissing, match="mjaudit replay"):
        connect(root, tables=STATS_TABLES)
    refused = CliRunner().invoke(app, ["stats", "--data", str(root)])
    assert refused.exit_code == 2 and "mjaudit replay" in refused.output
    assert data.index(root)["unsummarised"] > 0  # the dashboard warns (ui.require)
    with chan_archive.chan_engine_stand_in():
        replay_archive(root)
    assert data.index(root)["unsummarised"] == 0
    _same(player_stats(connect(root)), before, "after the upgrade")
    for name in dropped:  # written again, the same rows
        was, now = (DataDir(r).scan(name).collect() for r in (archive, root))
        assert now.height == was.height > 0, name
        assert_frame_equal(now.sort(now.columns), was.sort(was.columns), check_row_order=True)


def test_the_findings_list_comes_a_page_at_a_time(archive: Path) -> None:
    con = data.open_archive(archive).cursor()
    everything, total = data.findings(con, Filters(), limit=total_cap())
    assert total == everything.height > 3
    pages = [data.findings(con, Filters(), limit=3, offset=k) for k in range(0, total, 3)]
    assert all(rows.height <= 3 and n == total for rows, n in pages)
    assert_frame_equal(pl.concat([rows for rows, _ in pages]), everything)


def total_cap() -> int:
    """More findings than the test archive has: one page holds them all."""
    return 100_000


# -- stored totals (replay/archive/totals.py) --------------------------------------------


def _summed(store: DataDir, name: str) -> pl.DataFrame:
    """The definition of a stored total: the summary rows summed over the columns its
    grain sums away."""
    summary = TOTALS_OF[name]
    summed = summed_columns(summary)
    rows = store.scan(summary).drop(GRAINS[TOTALS_GRAIN[name]]).collect()
    keys = [c for c in rows.columns if c not in summed]
    return rows.group_by(keys).agg(pl.col(summed).sum()).sort(keys, nulls_last=True)


def _stored(store: DataDir, name: str) -> pl.DataFrame:
    rows = store.scan(name).drop("source").collect()
    keys = [c for c in rows.columns if c not in summed_columns(TOTALS_OF[name])]
    return rows.sort(keys, nulls_last=True)


def _totals_fresh(store: DataDir) -> set[str]:
    """The totals tables that are of the committed summary files."""
    con = memory_db()
    try:
        fresh = {(g, s) for g in GRAINS for s in stored_totals(con, store, grain=g)}
    finally:
        con.close()
    return {name for name, s in TOTALS_OF.items() if (TOTALS_GRAIN[name], s) in fresh}


def _check_totals(store: DataDir) -> None:
    """Every stored total is of the committed summary files and equals summing them (an
    empty one can carry no source digest: its summary is empty too)."""
    fresh = _totals_fresh(store)
    for name in TOTALS_OF:
        want = _summed(store, name)
        assert (name in fresh) == (want.height > 0), name
        _same(_stored(store, name).select(want.columns), want, name)


def _stats_csv(root: Path) -> str:
    result = CliRunner().invoke(app, ["stats", "--data", str(root), "--format", "csv"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_stored_totals_equal_the_summed_rows_and_the_hand_rows(archive: Path) -> None:
    """The replay stored every total; each equals its summary rows summed, and the
    statistics read from them (``mjaudit stats``, the dashboard's start-up) equal the
    hand rows' figures."""
    store = DataDir(archive)
    _check_totals(store)
    con = connect(archive, tables=STATS_TABLES, totals=True)
    (rows,) = con.execute("SELECT count(*) FROM player_games").fetchall()[0]
    assert rows == store.scan("player_totals").collect().height  # it reads the totals
    opened = data.open_archive(archive)
    assert opened.totals is not None
    opened.totals.join()
    memory = opened.cursor()
    data.load_facts(memory)
    (kept,) = memory.execute("SELECT count(*) FROM totals.player_patterns").fetchall()[0]
    assert kept == store.scan("pattern_totals").collect().height  # copied, not summed
    players = data.filter_options(memory)["players"]
    for f in (
        Filters(),
        Filters(game="mahjong"),
        Filters(ruleset="hk-classic"),
        Filters(ruleset="vn-160"),
        Filters(source_kind="sheet"),
        Filters(game="mahjong", players=(players[0], players[-1])),
    ):
        _same(player_stats(con, f), player_stats_raw(memory, f), f"stats {f}")
        _same(data.player_table(memory, f), player_stats_raw(memory, f), f"players page {f}")
        _same(data.leaderboard(memory, f), data.leaderboard_raw(memory, f), f"leaderboard {f}")
        got = data.pattern_frequency(memory, f)
        _same(got, data.pattern_frequency_raw(memory, f), f"patterns {f}")
    mahjong = Filters(game="mahjong")  # what `mjaudit stats` counts when both are there
    assert _stats_csv(archive) == player_stats(connect(archive), mahjong).write_csv()
    # The place totals: what a venue or table without dates reads (`--by venue`, the
    # sidebar), copied into memory by the archive's background thread.
    places = connect(archive, tables=STATS_TABLES, totals="place")
    (rows,) = places.execute("SELECT count(*) FROM player_games").fetchall()[0]
    assert rows == store.scan("player_place_totals").collect().height
    (kept,) = memory.execute("SELECT count(*) FROM places.player_fans").fetchall()[0]
    assert kept == store.scan("player_fan_place_totals").collect().height
    venue = data.filter_options(memory)["venues"][0]
    for f in (Filters(), mahjong, Filters(game="mahjong", venue=venue), Filters(table="T2")):
        for by in ("player", "venue", "table"):
            want = player_stats_raw(memory, f, by)
            _same(player_stats(places, f, by), want, f"stats by {by} {f}")
    for by in ("venue", "table"):
        result = CliRunner().invoke(
            app, ["stats", "--data", str(archive), "--format", "csv", "--by", by]
        )
        assert result.exit_code == 0, result.output
        assert result.stdout == player_stats(connect(archive), mahjong, by).write_csv()


def test_a_second_replay_updates_the_totals(tmp_path: Path) -> None:
    """New games ingested and replayed: the totals are those of the new summary rows
    (committed with them), and count the new hands."""
    root = tmp_path / "data"
    first, *rest = _logs(tmp_path)
    seats = []
    for logs in ([first], rest):
        assert not ingest(logs, root).quarantined
        with chan_archive.chan_engine_stand_in():
            replay_archive(root)
        store = DataDir(root)
        _check_totals(store)
        hands = store.scan("player_totals").select(pl.col("hands").sum()).collect().item()
        assert hands == store.scan("scores").collect().height  # every replayed seat
        seats.append(hands)
    assert seats[1] > seats[0] > 0
    assert _totals_fresh(DataDir(root)) == set(TOTALS_OF)


def test_an_archive_without_totals_or_with_stale_ones_sums_the_rows(
    archive: Path, tmp_path: Path
) -> None:
    """An archive written before the totals (none stored) and one whose summary files
    changed under them (compacted: another source digest) give the same statistics, by
    summing the summary rows; the next replay stores them again."""
    import shutil

    want = _stats_csv(archive)
    root = tmp_path / "old"
    shutil.copytree(archive, root)
    store = DataDir(root)
    with store.writing():  # as a version before the totals left it: each table empty
        old = [rel for name in TOTALS_OF for rel in store.manifest()["tables"][name]]
        empty = [Part(name, TOTALS_TABLES[name].empty_table()) for name in TOTALS_OF]
        store.commit_parts(empty, remove=old)
    assert _totals_fresh(store) == set()
    assert _stats_csv(root) == want
    replay_archive(root)  # nothing to replay: stores the totals
    _check_totals(store)
    with store.writing():
        store.compact(["player_games"])
    assert _totals_fresh(store) == set(TOTALS_OF) - {"player_totals", "player_place_totals"}
    con = connect(root, tables=STATS_TABLES, totals=True)
    (rows,) = con.execute("SELECT count(*) FROM player_games").fetchall()[0]
    assert rows == store.scan("player_games").collect().height  # the summary rows
    assert _stats_csv(root) == want
    opened = data.open_archive(root)
    assert opened.totals is not None
    opened.totals.join()
    memory = opened.cursor()
    data.load_facts(memory)
    _same(data.player_table(memory, Filters()), player_stats_raw(memory, Filters()), "page")
    replay_archive(root)
    _check_totals(store)
    compacted = CliRunner().invoke(app, ["compact", "--data", str(root)])
    assert compacted.exit_code == 0, compacted.output
    _check_totals(store)  # `mjaudit compact` sums them again
    assert _stats_csv(root) == want


def test_the_overview_of_chosen_players_sums_their_sittings_unless_one_was_left_early(
    tmp_path: Path,
) -> None:
    """With players chosen, the overview sums the summary rows of the sittings they sat
    every hand of, and reads the hand rows only where a chosen player sat part of one (a
    substitute took their seat): both give the hand rows' figures."""
    enc = msgspec.json.Encoder()
    records = list(synthetic_records(8, seed=5, hands_per_game=4))  # two sittings
    left, stayed = records[0]["players"][0], records[0]["players"][1]
    for rec in records:
        if rec["game_id"] == records[0]["game_id"] and rec["hand_no"] >= 3:
            rec["players"] = ["a substitute", *rec["players"][1:]]
    logs = tmp_path / "logs.jsonl"
    logs.write_bytes(b"".join(enc.encode(r) + b"\n" for r in records))
    root = tmp_path / "data"
    assert not ingest([str(logs)], root).quarantined
    replay_archive(root)
    opened = data.open_archive(root)
    if opened.totals is not None:
        opened.totals.join()
    con = opened.cursor()
    data.load_facts(con)
    for who, whole in (((stayed,), True), ((left,), False), ((left, stayed), True)):
        f = Filters(players=who)
        assert data._sat_whole_sittings(con, f) is whole, who
        raw = data.overview_raw(con, f)
        _same(data.overview(con, f), raw, f"overview {who}")
        if whole:
            _same(data._overview_of_players(con, f), raw, f"summed {who}")
        assert raw["hands"] > 0
        _same(data.finding_counts(con, f), data.finding_counts_raw(con, f), f"counts {who}")
        for limit, offset in ((500, 0), (2, 1)):
            got = data.findings(con, f, limit=limit, offset=offset)
            _same(got, data.findings_raw(con, f, limit=limit, offset=offset), f"page {who}")


def test_dates_that_keep_every_day_read_the_totals(archive: Path) -> None:
    """``mjaudit stats --since`` a day before the archive's first (and ``--until`` after
    its last) keeps every summary row, so it prints the totals' figures; a range that
    cuts the archive sums the rows it keeps, as the hand rows give."""
    from datetime import timedelta

    from mjaudit.parts.dashboards.queries import dates_select_every_day

    store = DataDir(archive)
    days = store.scan("game_days").select("day").collect()["day"]
    first, last = days.min(), days.max()
    assert isinstance(first, date) and isinstance(last, date) and first < last
    whole = days.null_count() == 0  # a hand with no time is never inside a date range
    for since, until, keeps in (
        (first, None, whole),
        (first - timedelta(days=9), last, whole),
        (None, last + timedelta(days=1), whole),
        (first + timedelta(days=1), None, False),
        (None, last - timedelta(days=1), False),
    ):
        f = Filters(game="mahjong", since=since, until=until)
        assert dates_select_every_day(store, f) is keeps, (since, until)
        args = ["stats", "--data", str(archive), "--format", "csv"]
        args += ["--since", since.isoformat()] if since else []
        args += ["--until", until.isoformat()] if until else []
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        memory = data.open_archive(archive).cursor()
        data.load_facts(memory)
        want = player_stats_raw(memory, f).write_csv()
        got = pl.read_csv(io.StringIO(result.stdout))  # floats: to rounding, as _same says
        _same(got, pl.read_csv(io.StringIO(want)), f"stats {since} {until}")
