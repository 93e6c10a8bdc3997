"""The dashboard's read-only queries, built on :mod:`dashboards.queries`.

Nothing here imports Streamlit, so the benchmark (``bench/dashboard.py``) and the tests
call the same functions the pages do. Every value from the user reaches SQL as a bound
parameter; only fixed names are placed in SQL text.

:func:`open_archive` reads a data folder at one version into an in-memory DuckDB,
once per version: the summary tables summed on every page (``game_days``,
``player_games``, ``player_fans``, ``finding_counts``, written by the replay) are copied
into memory; the larger ones only the player and fans pages read (``player_patterns``,
``player_pairs``, ``limit_wins``) stay on disk as views (``ON_DISK_SUMMARIES``). No page
loads the hand rows: the player page sums its sittings (``player_games``), the replayer
lists sittings from ``game_days`` and reads one sitting's rows from the files by
``game_id`` (pushed down to the Parquet row groups), the findings list reads the page's
sittings only. A venue or table filter without dates reads the stored place totals
(:func:`totalled`). The player page and the players selected in the sidebar read those
players' summary rows, copied once per player or selection (:func:`_chosen_schema`); the
figures the summaries cannot give (the hands a selected player sat at, when a substitute
took their seat for part of a sitting) read the hand rows of those players' sittings
only (:func:`with_players`). Each
summary query has its hand-row definition beside it (``*_raw``, marked
:func:`hand_level`: the first one loads every hand row into memory as ``hand_facts``,
``seat_facts``, ``finding_facts``, ``fan_facts``), which tests/stats/test_summary.py
checks it against; an archive with hands not replayed yet (which no summary names) has
the pages read those. ``events`` and the full ``hands`` rows stay on disk as Parquet
views under schema ``raw``. Nothing is written to the data folder (DuckDB spills to a
temporary folder elsewhere).

Mahjong and chắn never share a figure: every fact table carries the hand's ``game``
(``hands.game``; for a folder written before that column, derived from the ruleset) and
the sidebar's Game selector puts it in the filters. The chắn queries (``chan_*``,
``cuoc_frequency``, ``score_histogram``) select the chắn hands whatever the filters say.

How the sidebar's player filter applies (the other filters select hands):

* hand figures (sittings, hands, wins, draws): hands at which a selected player sat;
* player figures (statistics, leaderboard, findings by player) and win figures (fans,
  patterns, payments by fan, limit hands): only the selected players' own rows;
* findings with no seat (a score mismatch) count when a selected player sat at the hand.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
from mjaudit.parts.dashboards.queries import (
    LOCAL_TIME,
    SUMMED_TABLES,
    Filters,
    create_views,
    memory_db,
    player_stats,
    units_cte,
)
from mjaudit.parts.dashboards.riichi_stats import riichi_stats
from mjaudit.parts.ingest.partitions import Scope, game_of, segments
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.summary import missing_summaries
from mjaudit.parts.replay.archive.totals import as_summary, stored_totals, total_sql
from mjaudit.parts.schemas.rows import records_from_tables
from mjaudit.parts.schemas.rulesets import DEFAULT_GAME, RULESETS, Game
from mjaudit.parts.schemas.tables import (
    ALL_TABLES,
    GRAINS,
    INGEST_TABLES,
    ON_DISK_SUMMARIES,
    SUMMARY_TABLES,
)

T = TypeVar("T")

# Columns of `hands` the statistics need; the rest (deal, wall, JSON) stays on disk.
HAND_COLUMNS = (
    "game_id",
    "hand_no",
    "ruleset",
    "game",
    "source_kind",
    "started_at",
    "utc_offset_minutes",
    "venue",
    "table",
    "n_players",
    "dealer",
    "prevailing_wind",
    "n_events",
    "has_result",
)
SERIOUS_CLASSES = ("PLAYER_VIOLATION", "CORRUPT_LOG", "SCORE_MISMATCH")


class NoData(Exception):
    """The folder has no committed tables; the message says how to get some."""


def how_to_get_data(root: Path) -> str:
    return (
        f"No data in `{root}` yet. Ingest logs and replay them:\n\n"
        f"    mjaudit ingest LOGS... --data {root}\n"
        f"    mjaudit replay --data {root}\n\n"
        "or run `mjaudit demo` and open its folder (`mjaudit dashboard --data demo-data`)."
    )


def data_version(root: Path) -> int | None:
    """The folder's version (the cache key of everything read), None if no data folder.
    Read on every rerun of the app: from the version files' names, no table log is opened."""
    data = DataDir(root)
    if not data.exists():
        return None
    return data.version()


@dataclass
class Archive:
    """A data folder opened at one version, over the files of one scope."""

    root: Path
    version: int
    con: duckdb.DuckDBPyConnection
    scope: Scope = field(default_factory=Scope)
    files: dict[str, list[Path]] = field(default_factory=dict)  # the files each table read
    totals: threading.Thread | None = None  # the background part of _totals

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor per query: DuckDB connections are not shared between threads, and
        Streamlit runs each browser session in its own thread."""
        return self.con.cursor()


def open_archive(
    root: Path | str, scope: Scope | None = None, as_of: int | datetime | None = None
) -> Archive:
    """Read ``root`` at its current version into an in-memory DuckDB.

    With a ``scope`` (:meth:`Filters.scope`), only the files whose ``ruleset=``/``month=``
    folders can hold hands in it are read: the figures of filters inside the scope are
    the same as with the whole archive, and the rest of the archive is never opened.
    With ``as_of`` (a version or a time), the archive as it was then.
    """
    root = Path(root).absolute()
    data = DataDir(root, as_of=as_of)
    if not data.exists():
        raise NoData(how_to_get_data(root))
    scope = scope or Scope()
    version = int(data.manifest()["version"])
    con = memory_db()
    con.execute("CREATE SCHEMA raw")
    files = create_views(con, data, scope, schema="raw")
    for name in SUMMARY_TABLES:
        kind = "VIEW" if name in ON_DISK_SUMMARIES else "TABLE"
        con.execute(f'CREATE {kind} "{name}" AS SELECT * FROM raw."{name}"')
    # The archive is read at one version: its status is counted once (see status()).
    con.execute(f"CREATE TABLE main.{_STATUS} AS {_STATUS_SQL}")
    # Stored totals cover every date: a scope of dates totals its own files.
    dated = scope.since is not None or scope.until is not None
    stored = {grain: {} if dated else stored_totals(con, data, grain=grain) for grain in GRAINS}
    totals = _totals(
        con,
        {name: _in_scope(sql, scope) for name, sql in stored["whole"].items()},
        {name: _in_scope(sql, scope) for name, sql in stored["place"].items()},
    )
    return Archive(root, version, con, scope, files, totals)


def _in_scope(sql: str, scope: Scope) -> str:
    """``sql`` (rows with a ruleset and a game) kept to the scope's game and ruleset."""
    conds = [
        f"{column} = '{value}'"  # the values are ruleset and family ids (no quotes)
        for column, value in (("game", scope.game), ("ruleset", scope.ruleset))
        if value is not None and "'" not in value
    ]
    return f"SELECT * FROM ({sql}) WHERE {' AND '.join(conds)}" if conds else sql


# Summary tables totalled in memory over sittings, days, venues and tables: the queries of
# filters that select none of those (:func:`totalled`) read a row per player and ruleset
# instead of one per sitting. The last ones are totalled in the background (at 10M hands
# player_patterns has 11M rows: 2 s); until then their queries read the files.
TOTALLED = ("player_games", "player_fans")
TOTALLED_LATER = ("player_patterns",)
# The summary tables whose place totals (over sittings and days: a row per player,
# ruleset, venue and table) the queries of a venue or table filter without dates read:
# views in schema ``places`` of the replay's stored ones (96k and 761k rows at 10M hands,
# read from their files: copying them at open slowed the first pages); an archive
# without them reads the summary rows (the same figures).
PLACED = ("player_games", "player_fans")


def _totals(
    con: duckdb.DuckDBPyConnection, stored: dict[str, str], places: dict[str, str]
) -> threading.Thread:
    """Schema ``totals``: each TOTALLED (then, in a thread, TOTALLED_LATER) table with the
    same columns, its rows summed over game_id, venue, table and day (those left NULL):
    copied from ``stored`` (the replay's stored totals, :func:`stored_totals`) where it
    has them, else summed here; schema ``places``: views of the PLACED tables ``places``
    (their stored place totals) has. A query's search path
    (:func:`totalled`) finds a table there once it is made, else the one over the files:
    the same figures either way."""
    con.execute("CREATE SCHEMA totals")
    con.execute("CREATE SCHEMA places")
    for name in PLACED:
        if name in places:
            con.execute(f'CREATE VIEW places."{name}" AS {places[name]}')
    for name in (*TOTALLED, *TOTALLED_LATER):
        if name in stored:
            con.execute(f'CREATE TABLE totals."{name}" AS {stored[name]}')
    for name in TOTALLED:
        if name not in stored:
            _total(con, name)
    con.execute(  # each sitting as the replayer and findings lists show it, unfiltered
        f"""CREATE TABLE totals.spans AS SELECT d.game_id, min(d.first_at) AS first_at,
        max(d.last_at) AS last_at, {_SITTING_COLUMNS}
        FROM game_days d GROUP BY d.game_id"""
    )
    later = con.cursor()

    def rest() -> None:
        try:
            for name in TOTALLED_LATER:
                if name not in stored:
                    _total(later, name)
        except duckdb.Error:  # the archive was closed first: its queries read the files
            pass
        finally:
            later.close()

    # Not a daemon: a process that ends while DuckDB runs the query aborts.
    thread = threading.Thread(target=rest, name="summary-totals")
    thread.start()
    return thread


def _total(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Make ``totals.<name>`` (see :func:`_totals`) as the replay sums a stored total."""
    summed = total_sql(name, f'raw."{name}"')
    con.execute(f'CREATE TABLE totals."{name}" AS {as_summary(name, f"({summed})")}')


def totalled(con: duckdb.DuckDBPyConnection, f: Filters) -> duckdb.DuckDBPyConnection:
    """A cursor whose ``player_games``, ``player_fans`` and ``player_patterns`` are the
    totals (:func:`_totals`) when ``f`` selects no venue, table or dates (its game,
    ruleset, source and players select on columns the totals keep), or the place totals
    when it selects a venue or table and no dates; else ``con``."""
    if f.since or f.until:
        return con
    schema = "places" if f.venue or f.table else "totals"
    have = con.execute(
        "SELECT count(*) FROM duckdb_schemas() WHERE schema_name = ?", [schema]
    ).fetchall()[0][0]
    if not have:  # a connection of queries.connect (mjaudit stats)
        return con
    cur = con.cursor()
    cur.execute(f"SET search_path = '{schema},main'")
    return cur


def index(root: Path | str) -> dict[str, Any]:
    """What the sidebar needs before a scope is chosen: :func:`status` and
    :func:`filter_options` of the whole archive, from the summary tables and the hands'
    row count (nothing is loaded into memory)."""
    root = Path(root).absolute()
    data = DataDir(root)
    if not data.exists():
        raise NoData(how_to_get_data(root))
    con = memory_db()
    try:
        con.execute("CREATE SCHEMA raw")
        create_views(con, data, schema="raw", tables=("hands", "seats", *SUMMED_TABLES))
        for name in SUMMED_TABLES:
            con.execute(f'CREATE VIEW "{name}" AS SELECT * FROM raw."{name}"')
        hands = data.manifest()["tables"].get("hands", [])
        named = {seg["ruleset"] for rel in hands if "ruleset" in (seg := segments(rel))}
        found = {"status": status(con), "options": filter_options(con, tuple(sorted(named)))}
        if found["status"]["hands"] > found["status"]["replayed"]:  # their players too
            players = found["options"]["players"]
            seated = [r[0] for r in con.execute("SELECT DISTINCT player FROM raw.seats").fetchall()]
            found["options"]["players"] = sorted(set(players) | set(seated))
        found["unsummarised"] = len(missing_summaries(data.manifest()))
        return found
    finally:
        con.close()


def game_sql(ruleset: str = "ruleset") -> str:
    """The family of a ruleset column in SQL (for folders written before ``hands.game``)."""

    def quoted(text: str) -> str:
        return "'" + text.replace("'", "''") + "'"

    whens = [
        f"WHEN {ruleset} IN ({', '.join(quoted(r.id) for r in ids)}) THEN {quoted(game.value)} "
        for game in Game
        if game is not DEFAULT_GAME and (ids := [r for r in RULESETS.values() if r.game is game])
    ]
    return f"CASE {''.join(whens)}ELSE {quoted(DEFAULT_GAME.value)} END"


def _game_column(con: duckdb.DuckDBPyConnection) -> str:
    """``raw.hands``' family as SQL: its ``game`` column, derived from the ruleset where it
    is empty or (a folder written before it) missing."""
    have = {r[0] for r in con.execute('DESCRIBE raw."hands"').fetchall()}
    return f"coalesce(game, {game_sql()})" if "game" in have else game_sql()


_FACTS_LOCK = threading.RLock()  # re-entered: _chosen_pairs holds it around _chosen_schema


def hand_level(fn: Callable[..., T]) -> Callable[..., T]:
    """A query of the hand rows: the first one loads them into memory (:func:`load_facts`),
    so that the pages that read only the summary tables never wait for them."""

    @functools.wraps(fn)
    def run(con: duckdb.DuckDBPyConnection, *args: Any, **kwargs: Any) -> T:
        load_facts(con)
        return fn(con, *args, **kwargs)

    return run


def load_facts(con: duckdb.DuckDBPyConnection) -> None:
    """The in-memory tables of the hand rows (see the module docstring), made once per
    archive (every cursor of its connection sees them)."""
    with _FACTS_LOCK:
        made = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'fan_facts'"
        ).fetchall()[0][0]
        if not made:
            _load_facts(con)


def _load_facts(
    con: duckdb.DuckDBPyConnection, schema: str = "main", games: list[str] | None = None
) -> None:
    """The in-memory tables (see the module docstring), in ``schema``; with ``games``,
    of those games only (read from the files with the game_id filter pushed down)."""
    game = _game_column(con)
    cols = ", ".join(f"{game} AS game" if c == "game" else f'"{c}"' for c in HAND_COLUMNS)
    hand_cols = (
        "h.ruleset, h.game, h.source_kind, h.started_at, h.utc_offset_minutes, h.venue, "
        'h."table", h.day'
    )
    s = f'"{schema}".'
    only, params = ("", []) if games is None else (f"WHERE game_id IN ({_marks(games)})", games)

    def run(sql: str, read: int = 1) -> None:
        con.execute(sql, params * read)

    run(f"CREATE TABLE {s}hands AS SELECT {cols} FROM raw.hands {only}")
    run(f"CREATE TABLE {s}hand_results AS SELECT * FROM raw.hand_results {only}")
    con.execute(
        f"""CREATE TABLE {s}hand_facts AS
        SELECT h.*, CAST({LOCAL_TIME} AS DATE) AS day, r.game_id IS NOT NULL AS replayed,
               r.ended_by, r.fan, r.raw_fan, r.is_limit, r.self_drawn, r.discarder, r.winners,
               r.n_findings, r.n_serious
        FROM {s}hands h LEFT JOIN {s}hand_results r USING (game_id, hand_no)"""
    )
    run(
        f"""CREATE TABLE {s}seat_facts AS
        SELECT s.game_id, s.hand_no, s.seat, s.player, s.seat_wind, {hand_cols},
               h.replayed, h.ended_by, h.fan, h.raw_fan, h.is_limit, h.self_drawn,
               sc.game_id IS NOT NULL AS scored, sc.delta,
               coalesce(sc.is_winner, FALSE) AS is_winner,
               coalesce(sc.is_discarder, FALSE) AS is_discarder,
               coalesce(sc.is_liable, FALSE) AS is_liable
        FROM (SELECT * FROM raw.seats {only}) s
        JOIN {s}hand_facts h USING (game_id, hand_no)
        LEFT JOIN (SELECT * FROM raw.scores {only}) sc USING (game_id, hand_no, seat)""",
        2,
    )
    con.execute(
        f"CREATE VIEW {s}seats AS SELECT game_id, hand_no, seat, player, seat_wind "
        f"FROM {s}seat_facts"
    )
    con.execute(
        f"""CREATE VIEW {s}scores AS SELECT game_id, hand_no, seat, player, delta, is_winner,
        is_discarder, is_liable FROM {s}seat_facts WHERE scored"""
    )
    for name, facts in (("findings", "finding_facts"), ("fans", "fan_facts")):
        names = ALL_TABLES[name].names  # both have their own ruleset column
        own = ", ".join(f'x."{c}"' for c in names)
        run(
            f"""CREATE TABLE {s}{facts} AS SELECT {own}, {hand_cols.replace("h.ruleset, ", "")}
            FROM (SELECT * FROM raw."{name}" {only}) x
            JOIN {s}hand_facts h USING (game_id, hand_no)"""
        )
        plain = ", ".join(f'"{c}"' for c in names)
        con.execute(f'CREATE VIEW {s}"{name}" AS SELECT {plain} FROM {s}{facts}')


_SCOPED_KEEP = 16  # the hand rows of this many player selections stay in memory


def _per_selection(
    con: duckdb.DuckDBPyConnection,
    prefix: str,
    players: tuple[str, ...],
    make: Callable[[str], None],
) -> str:
    """The schema ``prefix`` + a digest of ``players``, filled by ``make`` (given its
    name) the first time; the _SCOPED_KEEP latest of ``prefix`` are kept."""
    name = prefix + hashlib.sha1("\x00".join(sorted(players)).encode()).hexdigest()[:16]
    with _FACTS_LOCK:
        have = [
            r[0]
            for r in con.execute(
                "SELECT schema_name FROM duckdb_schemas() WHERE schema_name LIKE ? ORDER BY oid",
                [prefix + "%"],
            ).fetchall()
        ]
        if name not in have:
            con.execute(f'CREATE SCHEMA "{name}"')
            make(name)
            for old in have[: max(0, len(have) + 1 - _SCOPED_KEEP)]:
                con.execute(f'DROP SCHEMA "{old}" CASCADE')
    return name


def _players_games(con: duckdb.DuckDBPyConnection, players: tuple[str, ...]) -> str:
    """A schema holding the hand-row tables (as :func:`load_facts` makes them) of only
    the sittings at which one of ``players`` sat (from ``player_games``), made once per
    selection: what the hand figures of selected players need, without every hand."""

    def make(name: str) -> None:
        games = [
            r[0]
            for r in con.execute(
                f"SELECT DISTINCT game_id FROM main.player_games WHERE player IN "
                f"({_marks(players)}) ORDER BY 1",
                list(players),
            ).fetchall()
        ]
        _load_facts(con, name, games or [""])

    return _per_selection(con, "players_", players, make)


def with_players(fn: Callable[..., T]) -> Callable[..., T]:
    """A hand-row query (a :func:`hand_level` one) that, with players selected, reads
    only the hand rows of their sittings (:func:`_players_games`): the whole archive's
    hand rows are loaded only when some hands are not replayed (no summary names them)."""
    raw = getattr(fn, "__wrapped__", fn)

    @functools.wraps(fn)
    def run(con: duckdb.DuckDBPyConnection, f: Filters, *args: Any, **kwargs: Any) -> T:
        if not f.players or _unreplayed(con):
            return fn(con, f, *args, **kwargs)
        cur = con.cursor()  # a search path of its own
        try:
            cur.execute(f"SET search_path = '{_players_games(con, f.players)},main'")
            return raw(cur, f, *args, **kwargs)
        finally:
            cur.close()

    return run


def _local_at(alias: str) -> str:
    """The table's local time as a plain timestamp (shown as the club saw it)."""
    return f"CAST({LOCAL_TIME.replace('h.', f'{alias}.')} AS TIMESTAMP)"


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    frame = pl.from_arrow(con.sql(sql, params=params).to_arrow_table())
    assert isinstance(frame, pl.DataFrame)
    return frame


def _row(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> tuple[Any, ...]:
    rows = con.execute(sql, params).fetchall()  # fetchall: leaves no unfinished result
    return tuple(rows[0]) if rows else ()


def _marks(values: tuple[str, ...] | list[str]) -> str:
    return ", ".join("?" for _ in values)


def hand_where(f: Filters, alias: str = "h") -> tuple[str, list[object]]:
    """Conditions on ``hands`` (alias): the filters, and a selected player sat there."""
    sql, params = f.where(alias)
    if f.players:
        sql += (
            f" AND EXISTS (SELECT 1 FROM seat_facts fs WHERE fs.game_id = {alias}.game_id"
            f" AND fs.hand_no = {alias}.hand_no AND fs.player IN ({_marks(f.players)}))"
        )
        params = [*params, *f.players]
    return sql, params


def _own(f: Filters, column: str) -> tuple[str, list[object]]:
    """``column`` (a player) is one of the selected players, or TRUE when none are."""
    if not f.players:
        return "TRUE", []
    return f"{column} IN ({_marks(f.players)})", list(f.players)


# -- archive-wide ------------------------------------------------------------------------


_STATUS = "archive_status"
_STATUS_SQL = """SELECT (SELECT count(*) FROM raw.hands)::BIGINT AS hands,
    (SELECT coalesce(sum(hands), 0) FROM game_days)::BIGINT AS replayed"""


def status(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Hands ingested (the hands' row count) and replayed (the summary's): the empty
    state and the 'run replay' note, and whether a query may read the summary alone
    (:func:`_unreplayed`, asked by several queries of a page). An archive opened by
    :func:`open_archive` counted them at open; counting the hands' files again took
    10-25 ms a call at 10M hands (101 files)."""
    try:
        hands, replayed = _row(con, f"SELECT hands, replayed FROM main.{_STATUS}", [])
    except duckdb.CatalogException:  # a connection of queries.connect (mjaudit stats)
        hands, replayed = _row(con, _STATUS_SQL, [])
    return {"hands": int(hands), "replayed": int(replayed)}


@hand_level
def status_raw(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Hands ingested and replayed: the empty state and the 'run replay' note."""
    hands, replayed = _row(
        con, "SELECT count(*), count(*) FILTER (WHERE replayed) FROM hand_facts", []
    )
    return {"hands": int(hands), "replayed": int(replayed)}


def filter_options(
    con: duckdb.DuckDBPyConnection, rulesets: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The values the sidebar offers (rulesets, venues, tables, players, first/last day)
    of the replayed hands, from the summary tables; ``rulesets``: those of hands not
    replayed yet too (:func:`index` names them from the hands' folders)."""

    def values(sql: str) -> list[Any]:
        return [r[0] for r in con.execute(sql).fetchall()]

    first, last = _row(con, "SELECT min(day), max(day) FROM game_days", [])
    pairs = set(con.execute("SELECT DISTINCT game, ruleset FROM game_days").fetchall())
    pairs |= {(game_of(r), r) for r in rulesets}
    by_game: dict[str, list[str]] = {}
    for game, ruleset in sorted(pairs):
        by_game.setdefault(game, []).append(ruleset)
    return {
        "games": [g.value for g in Game if g.value in by_game],  # in the registry's order
        "rulesets_by_game": by_game,
        "rulesets": sorted({r for _, r in pairs}),
        "venues": values("SELECT DISTINCT venue FROM game_days WHERE venue IS NOT NULL ORDER BY 1"),
        "tables": values(
            'SELECT DISTINCT "table" FROM game_days WHERE "table" IS NOT NULL ORDER BY 1'
        ),
        "players": [
            r[0]
            for r in totalled(con, Filters())
            .execute("SELECT DISTINCT player FROM player_games ORDER BY 1")
            .fetchall()
        ],
        "sources": values("SELECT DISTINCT source_kind FROM game_days ORDER BY 1"),
        "first_day": first,
        "last_day": last,
    }


@hand_level
def filter_options_raw(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """The values the sidebar offers: rulesets, venues, tables, players, first/last day."""

    def values(sql: str) -> list[Any]:
        return [r[0] for r in con.execute(sql).fetchall()]

    first, last = _row(con, "SELECT min(day), max(day) FROM hand_facts", [])
    by_game: dict[str, list[str]] = {}
    for game, ruleset in con.execute(
        "SELECT DISTINCT game, ruleset FROM hand_facts ORDER BY 1, 2"
    ).fetchall():
        by_game.setdefault(game, []).append(ruleset)
    return {
        "games": [g.value for g in Game if g.value in by_game],  # in the registry's order
        "rulesets_by_game": by_game,
        "rulesets": values("SELECT DISTINCT ruleset FROM hand_facts ORDER BY 1"),
        "venues": values(
            "SELECT DISTINCT venue FROM hand_facts WHERE venue IS NOT NULL ORDER BY 1"
        ),
        "tables": values(
            'SELECT DISTINCT "table" FROM hand_facts WHERE "table" IS NOT NULL ORDER BY 1'
        ),
        "players": values("SELECT DISTINCT player FROM seat_facts ORDER BY 1"),
        "sources": values("SELECT DISTINCT source_kind FROM hand_facts ORDER BY 1"),
        "first_day": first,
        "last_day": last,
    }


# -- club overview -----------------------------------------------------------------------


def overview(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, Any]:
    """Headline figures of the replayed hands, from the summary tables. Rates are over
    replayed hands; ``violations`` counts PLAYER_VIOLATION findings. With players
    selected, the hand figures are of the hands they sat at, which per-player sums cannot
    give: :func:`overview_raw` reads the hand rows then."""
    con = totalled(con, f)
    if f.players:
        if _sat_whole_sittings(con, f):
            return _overview_of_players(con, f)
        return with_players(overview_raw)(con, f)
    where, params = f.summary_where()
    sittings, hands, wins, draws, first, last = _row(
        con,
        f"""SELECT count(DISTINCT g.game_id), coalesce(sum(g.hands), 0)::BIGINT,
               coalesce(sum(g.wins), 0)::BIGINT, coalesce(sum(g.draws), 0)::BIGINT,
               min(g.day), max(g.day)
        FROM game_days g WHERE {where}""",
        params,
    )
    (players,) = _row(
        con, f"SELECT count(DISTINCT g.player) FROM player_games g WHERE {where}", params
    )
    replayed = hands
    if _unreplayed(con):  # count the hands not replayed yet too, as the hands table has them
        sittings, hands, first, last = _ingested(con, f)
    (violations,) = _row(
        con,
        f"""SELECT coalesce(sum(g.n), 0)::BIGINT FROM finding_counts g
        WHERE {where} AND g.class = 'PLAYER_VIOLATION'""",
        params,
    )
    return _headline(sittings, hands, replayed, wins, draws, players, violations, first, last)


# A summary group (a sitting's day at one table) joined on its whole key; venue, table and
# day may be empty, so they compare with IS NOT DISTINCT FROM.
_SAME_GROUP = " AND ".join(
    f"{{a}}.{c} IS NOT DISTINCT FROM {{b}}.{c}"
    for c in ("game_id", "ruleset", "game", "source_kind", "venue", '"table"', "day")
)


_CHOSEN_KEYS = 'game_id, ruleset, game, source_kind, venue, "table", day'


def _chosen_schema(con: duckdb.DuckDBPyConnection, players: tuple[str, ...]) -> str:
    """A schema of what ``players`` (chosen in the sidebar, or the player page's one)
    did, made once per selection: their ``player_games`` rows (``mine``), the summary
    groups they sat at (``sel``: each group's key and the most hands one of them sat
    there, ``sat``) and those sittings' ``game_days`` rows (``days``); their
    ``player_pairs`` rows are added by :func:`_chosen_pairs` when a page needs them. One
    scan of each summary for their rows (0.09 s at 10M hands), then every filter reads a
    few thousand rows instead of scanning 2.5M and 7.5M from the files."""

    def make(name: str) -> None:
        _copy_theirs(con, f'"{name}".mine', "player_games", players)
        con.execute(
            f"""CREATE TABLE "{name}".sel AS
            SELECT {_CHOSEN_KEYS}, max(hands) AS sat FROM "{name}".mine GROUP BY ALL"""
        )
        con.execute(
            f"""CREATE TABLE "{name}".days AS SELECT * FROM main.game_days
            WHERE game_id IN (SELECT game_id FROM "{name}".sel)"""
        )

    return _per_selection(con, "chosen_", players, make)


def _copy_theirs(
    con: duckdb.DuckDBPyConnection, target: str, source: str, players: tuple[str, ...]
) -> None:
    """Table ``target``: the rows of summary ``source`` whose player is one of ``players``."""
    con.execute(
        f"CREATE OR REPLACE TABLE {target} AS SELECT * FROM main.{source} "
        f"WHERE player IN ({_marks(players)})",
        list(players),
    )


def _chosen_pairs(con: duckdb.DuckDBPyConnection, players: tuple[str, ...]) -> str:
    """:func:`_chosen_schema` with their ``player_pairs`` rows (``pairs``) and who sat at
    their groups (``met``: theirs and their opponents' rows), made the first time a page
    asks (the overview's players, the head-to-head); the violations and fans pages never
    do (0.04 s of CPU at 10M hands)."""
    with _FACTS_LOCK:  # held from the schema to its tables: no other selection drops it
        name = _chosen_schema(con, players)
        (have,) = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE schema_name = ? AND table_name = 'met'",
            [name],
        ).fetchall()[0]
        if not have:  # made last: a copy that failed before it is made again
            _copy_theirs(con, f'"{name}".pairs', "player_pairs", players)
            con.execute(
                f"""CREATE TABLE "{name}".met AS
                SELECT DISTINCT {_CHOSEN_KEYS}, opponent AS player FROM "{name}".pairs
                UNION SELECT DISTINCT {_CHOSEN_KEYS}, player FROM "{name}".mine"""
            )
    return name


def _chosen(con: duckdb.DuckDBPyConnection, f: Filters) -> tuple[str, list[object]]:
    """The CTE ``sel``: each summary group (under the filters) at which a chosen player
    sat, with the most hands one of them sat there (``sat``)."""
    where, params = f.summary_where("g")
    return (
        f'sel AS (SELECT g.* FROM "{_chosen_schema(con, f.players)}".sel g WHERE {where})',
        params,
    )


def _sat_whole_sittings(con: duckdb.DuckDBPyConnection, f: Filters) -> bool:
    """Whether, at every sitting a chosen player sat at, one of them sat every hand the
    filters select (what a sitting almost always is): the hand figures of the chosen
    players are then those of whole summary groups. Not so when a substitute took a
    chosen player's seat for some hands: which hands, only the hand rows say."""
    if _unreplayed(con):
        return False
    sel, params = _chosen(con, f)
    where, dparams = f.summary_where("d")
    (partial,) = _row(
        con,
        f"""WITH {sel}
        SELECT count(*) FROM "{_chosen_schema(con, f.players)}".days d LEFT JOIN sel ON {_SAME_GROUP.format(a="d", b="sel")}
        WHERE {where} AND d.game_id IN (SELECT game_id FROM sel)
              AND (sel.sat IS NULL OR sel.sat < d.hands)""",
        [*params, *dparams],
    )
    return partial == 0


def _chosen_rows(f: Filters, alias: str) -> tuple[str, list[object]]:
    """A condition on a summary or findings row (``alias``): of a sitting a chosen player
    sat at, and theirs or seatless. Only where :func:`_sat_whole_sittings` holds (then the
    seatless findings of those sittings are all of hands they sat at); needs ``sel``."""
    return (
        f"{alias}.game_id IN (SELECT game_id FROM sel) AND ({alias}.player IN "
        f"({_marks(f.players)}) OR {alias}.player IS NULL)",
        list(f.players),
    )


def _of_chosen(
    con: duckdb.DuckDBPyConnection, f: Filters, alias: str
) -> tuple[tuple[str, list[object]], str, list[object]]:
    """For a summary query with players chosen (and :func:`_sat_whole_sittings`): the
    condition to add (`` AND ...``, its parameters) and the ``sel`` CTE to put first in
    its WITH list (``"sel AS (...),"``, its parameters); nothing without players."""
    if not f.players:
        return ("", []), "", []
    sel, sel_params = _chosen(con, f)
    mine, mparams = _chosen_rows(f, alias)
    return (f" AND {mine}", mparams), f"{sel},", sel_params


def _overview_of_players(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, Any]:
    """The headline of the hands the chosen players sat at, from the summary rows of
    their sittings (:func:`_sat_whole_sittings` holds): a fraction of a second at 10M
    hands, where reading those sittings' hand rows took 4.5 s. Its players are those the
    chosen ones met: a chosen player sat every hand of each group, so everyone else who
    sat there has a ``player_pairs`` row beside them."""
    sel, sel_params = _chosen(con, f)
    sittings, hands, wins, draws, first, last = _row(
        con,
        f"""WITH {sel}
        SELECT count(DISTINCT d.game_id), coalesce(sum(d.hands), 0)::BIGINT,
               coalesce(sum(d.wins), 0)::BIGINT, coalesce(sum(d.draws), 0)::BIGINT,
               min(d.day), max(d.day)
        FROM "{_chosen_schema(con, f.players)}".days d JOIN sel ON {_SAME_GROUP.format(a="d", b="sel")}""",
        sel_params,
    )
    (players,) = _row(
        con,
        f"""WITH {sel} SELECT count(DISTINCT p.player)
        FROM "{_chosen_pairs(con, f.players)}".met p
        JOIN sel ON {_SAME_GROUP.format(a="p", b="sel")}""",
        sel_params,
    )
    where, params = f.summary_where("c")
    mine, mparams = _chosen_rows(f, "c")
    (violations,) = _row(
        con,
        f"""WITH {sel} SELECT coalesce(sum(c.n), 0)::BIGINT FROM main.finding_counts c
        WHERE {where} AND c.class = 'PLAYER_VIOLATION' AND {mine}""",
        [*sel_params, *params, *mparams],
    )
    return _headline(sittings, hands, hands, wins, draws, players, violations, first, last)


def _headline(
    sittings: int,
    hands: int,
    replayed: int,
    wins: int,
    draws: int,
    players: int,
    violations: int,
    first: date | None,
    last: date | None,
) -> dict[str, Any]:
    """The overview's figures by name (the draw rate is over replayed hands)."""
    return {
        "sittings": sittings,
        "hands": hands,
        "replayed": replayed,
        "wins": wins,
        "draws": draws,
        "players": players,
        "violations": violations,
        "first_day": first,
        "last_day": last,
        "exhaustive_draw_rate": draws / replayed if replayed else None,
    }


def _unreplayed(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the archive has hands the summary does not count (not replayed yet)."""
    state = status(con)
    return state["hands"] > state["replayed"]


def _ingested(con: duckdb.DuckDBPyConnection, f: Filters) -> tuple[Any, ...]:
    """Sittings, hands and first/last local day of the ingested hands the filters select
    (read from the hands table: only when some are not replayed)."""
    where, params = f.where("h")
    return _row(
        con,
        f"""SELECT count(DISTINCT h.game_id), count(*), min(h.day), max(h.day)
        FROM (SELECT game_id, ruleset, {_game_column(con)} AS game, source_kind, started_at,
                     utc_offset_minutes, venue, "table",
                     CAST({LOCAL_TIME.replace("h.", "")} AS DATE) AS day FROM raw.hands) h
        WHERE {where}""",
        params,
    )


@hand_level
def overview_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, Any]:
    """Headline figures. Rates are over replayed hands; ``violations`` counts
    PLAYER_VIOLATION findings (of the selected players, if any)."""
    where, params = hand_where(f)
    sittings, hands, replayed, wins, draws, first, last = _row(
        con,
        f"""
        SELECT count(DISTINCT h.game_id), count(*), count(*) FILTER (WHERE h.replayed),
               count(*) FILTER (WHERE h.ended_by = 'win'),
               count(*) FILTER (WHERE h.ended_by = 'exhaustive_draw'),
               min(h.day), max(h.day)
        FROM hand_facts h WHERE {where}
        """,
        params,
    )
    if f == Filters():
        (players,) = _row(con, "SELECT count(DISTINCT player) FROM seat_facts", [])
    else:
        pwhere, pparams = hand_where(f, "s")
        (players,) = _row(
            con, f"SELECT count(DISTINCT s.player) FROM seat_facts s WHERE {pwhere}", pparams
        )
    fwhere, fparams = _findings_where(f, (), ("PLAYER_VIOLATION",))
    (violations,) = _row(con, f"SELECT count(*) FROM finding_facts fi WHERE {fwhere}", fparams)
    return _headline(sittings, hands, replayed, wins, draws, players, violations, first, last)


def grain_for(first: date | None, last: date | None) -> str:
    """Days for a few months, weeks up to three years, months beyond."""
    if first is None or last is None:
        return "day"
    span = (last - first).days
    return "day" if span <= 120 else "week" if span <= 3 * 366 else "month"


def activity(
    con: duckdb.DuckDBPyConnection, f: Filters, grain: str | None = None
) -> tuple[str, pl.DataFrame]:
    """Replayed hands, wins and exhaustive draws per day, week or month (``grain``, else
    by the span of the filtered hands), and the grain used, from ``game_days``: with
    players selected, the rows of the sittings they sat every hand of, else (a substitute
    took a seat) :func:`activity_raw` over the hand rows of their sittings."""
    if f.players and not _sat_whole_sittings(con, f):
        return with_players(activity_raw)(con, f, grain)
    where, params = f.summary_where()
    days = "game_days g"
    if f.players:  # 5 s at 10M hands from the hand rows of two players' sittings
        chosen = _chosen_schema(con, f.players)
        days = f'"{chosen}".days g'
        same = _SAME_GROUP.format(a="g", b="sel")
        where += f' AND EXISTS (SELECT 1 FROM "{chosen}".sel sel WHERE {same})'
    grain = _grain(con, days, where, params, grain)
    frame = _frame(
        con,
        f"""
        SELECT CAST(date_trunc('{grain}', g.day) AS DATE) AS period,
               sum(g.hands)::BIGINT AS hands, sum(g.wins)::BIGINT AS wins,
               sum(g.draws)::BIGINT AS draws
        FROM {days} WHERE {where}
        GROUP BY ALL ORDER BY period
        """,
        params,
    )
    return grain, frame


def _grain(
    con: duckdb.DuckDBPyConnection,
    source: str,
    where: str,
    params: list[object],
    grain: str | None,
) -> str:
    """``grain`` checked, or (None) the grain for the span of the days ``source`` (a
    table and its alias, which has a ``day``) holds under ``where``."""
    if grain is None:
        alias = source.split()[-1]
        first, last = _row(
            con, f"SELECT min({alias}.day), max({alias}.day) FROM {source} WHERE {where}", params
        )
        grain = grain_for(first, last)
    if grain not in ("day", "week", "month"):
        raise ValueError(f"grain must be day, week or month, not {grain!r}")
    return grain


@hand_level
def activity_raw(
    con: duckdb.DuckDBPyConnection, f: Filters, grain: str | None = None
) -> tuple[str, pl.DataFrame]:
    """Hands, wins and exhaustive draws per day, week or month (``grain``, else by the
    span of the filtered hands), and the grain used."""
    where, params = hand_where(f)
    grain = _grain(con, "hand_facts h", where, params, grain)
    frame = _frame(
        con,
        f"""
        SELECT CAST(date_trunc('{grain}', h.day) AS DATE) AS period,
               count(*) AS hands,
               count(*) FILTER (WHERE h.ended_by = 'win') AS wins,
               count(*) FILTER (WHERE h.ended_by = 'exhaustive_draw') AS draws
        FROM hand_facts h
        WHERE {where}
        GROUP BY ALL ORDER BY period
        """,
        params,
    )
    return grain, frame


def _scored(f: Filters, alias: str = "s") -> tuple[str, list[object]]:
    """Replayed seat rows that pass the filters, of the selected players only."""
    where, params = f.where(alias)
    own, own_params = _own(f, f"{alias}.player")
    return f"{alias}.scored AND {where} AND {own}", [*params, *own_params]


def _players_where(f: Filters) -> tuple[str, list[object]]:
    """A summary table's rows (alias g) that pass the filters, of the selected players."""
    where, params = f.summary_where()
    own, own_params = f.own("g.player")
    return f"{where} AND {own}", [*params, *own_params]


def leaderboard(con: duckdb.DuckDBPyConnection, f: Filters, min_hands: int = 0) -> pl.DataFrame:
    """Players by net points, those with at least ``min_hands`` replayed hands (the
    definitions of :func:`dashboards.queries.player_stats`): one row per player and unit,
    since HK points, vn-160 units and card points are different currencies."""
    con = totalled(con, f)
    where, params = _players_where(f)
    return _frame(
        con,
        f"""
        WITH {units_cte()}
        SELECT g.player, coalesce(u.unit, g.ruleset) AS unit, sum(g.hands)::BIGINT AS hands,
               sum(g.wins)::BIGINT AS wins, sum(g.wins) / sum(g.hands) AS win_rate,
               sum(g.deal_ins) / sum(g.hands) AS deal_in_rate,
               sum(g.net)::DOUBLE AS net_points, sum(g.net) / sum(g.hands) AS net_per_hand
        FROM player_games g LEFT JOIN units u ON u.ruleset = g.ruleset WHERE {where}
        GROUP BY ALL HAVING sum(g.hands) >= ?
        ORDER BY unit, net_points DESC, g.player
        """,
        [*params, min_hands],
    )


@hand_level
def leaderboard_raw(con: duckdb.DuckDBPyConnection, f: Filters, min_hands: int = 0) -> pl.DataFrame:
    """:func:`leaderboard` from the hand rows (the definition it is checked against)."""
    where, params = _scored(f)
    return _frame(
        con,
        f"""
        WITH {units_cte()}
        SELECT s.player, coalesce(u.unit, s.ruleset) AS unit, count(*) AS hands, count(*) FILTER (WHERE s.is_winner) AS wins,
               count(*) FILTER (WHERE s.is_winner) / count(*) AS win_rate,
               count(*) FILTER (WHERE s.is_discarder) / count(*) AS deal_in_rate,
               coalesce(sum(s.delta), 0) AS net_points,
               coalesce(sum(s.delta), 0) / count(*) AS net_per_hand
        FROM seat_facts s LEFT JOIN units u ON u.ruleset = s.ruleset WHERE {where}
        GROUP BY ALL HAVING count(*) >= ?
        ORDER BY unit, net_points DESC, s.player
        """,
        [*params, min_hands],
    )


# -- players -----------------------------------------------------------------------------


def player_table(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Every player's statistics, as ``mjaudit stats`` prints them (the summary tables)."""
    con = totalled(con, f)
    return player_stats(con, f)


def riichi_table(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """The riichi players' statistics of the riichi hands the filters select, as
    ``mjaudit stats --riichi`` prints them (the ``riichi_players`` summary rows)."""
    return riichi_stats(con, f)


# The last step of player_sittings and its definition: each row of `mine` at the first
# hand of its sitting and day (`starts`).
_SITTINGS_SERIES = """
    SELECT t.at, m.day, m.game_id, m.ruleset, m.hands, m.wins, m.win_hands, m.self_draws,
           m.deal_ins, m.net
    FROM mine m JOIN starts t
      ON t.game_id = m.game_id AND t.day IS NOT DISTINCT FROM m.day AND t.ruleset = m.ruleset
    ORDER BY t.at, m.game_id, m.day, m.ruleset"""


def player_sittings(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """One row per sitting, day and ruleset of ``player`` (replayed hands), in the order
    of their first hand under the filters (``at``), from the summary: the series behind
    the cumulative net and the moving win and deal-in rates.
    The sidebar's player filter does not apply: the page is about this player. Read from
    their rows and their sittings' days (:func:`_chosen_schema`), kept per player."""
    where, params = f.summary_where()
    dwhere, dparams = f.summary_where("d")
    chosen = _chosen_schema(con, (player,))
    return _frame(
        con,
        f"""
        WITH mine AS (
            SELECT g.game_id, g.day, g.ruleset, sum(g.hands)::BIGINT AS hands,
                   sum(g.wins)::BIGINT AS wins, sum(g.win_hands)::BIGINT AS win_hands,
                   sum(g.self_draws)::BIGINT AS self_draws,
                   sum(g.deal_ins)::BIGINT AS deal_ins, sum(g.net) AS net
            FROM "{chosen}".mine g WHERE g.player = ? AND {where}
            GROUP BY g.game_id, g.day, g.ruleset
        ),
        starts AS (
            SELECT d.game_id, d.day, d.ruleset, min(d.first_at) AS at
            FROM "{chosen}".days d WHERE {dwhere} AND d.game_id IN (SELECT game_id FROM mine)
            GROUP BY ALL
        )
        {_SITTINGS_SERIES}
        """,
        [player, *params, *dparams],
    )


@hand_level
def player_sittings_raw(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """:func:`player_sittings` from the hand rows (the definition it is checked against)."""
    where, params = f.where("s")
    hwhere, hparams = f.where("h")
    return _frame(
        con,
        f"""
        WITH mine AS (
            SELECT s.game_id, s.day, s.ruleset, count(*) AS hands,
                   count(*) FILTER (WHERE s.is_winner) AS wins,
                   count(*) FILTER (WHERE s.is_winner AND s.ended_by = 'win') AS win_hands,
                   count(*) FILTER (WHERE s.is_winner AND s.self_drawn) AS self_draws,
                   count(*) FILTER (WHERE s.is_discarder) AS deal_ins,
                   coalesce(sum(s.delta), 0) AS net
            FROM seat_facts s WHERE s.player = ? AND s.scored AND {where}
            GROUP BY s.game_id, s.day, s.ruleset
        ),
        starts AS (
            SELECT h.game_id, h.day, h.ruleset, min(h.started_at) AS at
            FROM hand_facts h WHERE h.replayed AND {hwhere} GROUP BY ALL
        )
        {_SITTINGS_SERIES}
        """,
        [player, *params, *hparams],
    )


def moving_rates(sittings: pl.DataFrame, window: int) -> pl.DataFrame:
    """The win and deal-in rates over the last ``window`` hands at the end of each row of
    :func:`player_sittings`, to whole sittings: over the fewest latest sittings that
    hold at least ``window`` hands (all of them, early on). ``hand``: the hands so far."""
    hands = sittings["hands"].cum_sum().to_numpy()
    wins = np.concatenate([[0], sittings["wins"].cum_sum().to_numpy()])
    deal_ins = np.concatenate([[0], sittings["deal_ins"].cum_sum().to_numpy()])
    upto = np.concatenate([[0], hands])
    # the window starts after the last sitting that ends `window` hands or more back
    start = np.searchsorted(upto, hands - window, side="right") - 1
    start = np.clip(start, 0, None)
    end = np.arange(1, len(hands) + 1)
    span = upto[end] - upto[start]
    return pl.DataFrame(
        {
            "hand": hands,
            "win rate": (wins[end] - wins[start]) / span,
            "deal-in rate": (deal_ins[end] - deal_ins[start]) / span,
        }
    )


def player_fans(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """``player``'s wins by ruleset and (capped) fan: how many, how many self-drawn."""
    con = totalled(con, f)
    where, params = f.summary_where()
    return _frame(
        con,
        f"""SELECT g.ruleset, g.fan, sum(g.wins)::BIGINT AS wins,
               sum(g.self_draws)::BIGINT AS self_draws
        FROM player_fans g WHERE g.player = ? AND {where} GROUP BY ALL ORDER BY 1, 2""",
        [player, *params],
    )


@hand_level
def player_fans_raw(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> pl.DataFrame:
    """:func:`player_fans` from the hand rows (the definition it is checked against)."""
    where, params = f.where("s")
    return _frame(
        con,
        f"""SELECT s.ruleset, s.fan, count(*) AS wins,
               count(*) FILTER (WHERE s.self_drawn) AS self_draws
        FROM seat_facts s WHERE s.player = ? AND s.scored AND s.is_winner AND {where}
        GROUP BY ALL ORDER BY 1, 2""",
        [player, *params],
    )


def player_draws(con: duckdb.DuckDBPyConnection, f: Filters, player: str) -> int:
    """Replayed hands of ``player`` that ended in an exhaustive draw (the chắn page's
    hòa), read from the hand rows of their sittings only."""
    where, params = f.where("s")
    cur = con.cursor()
    try:
        cur.execute(f"SET search_path = '{_players_games(con, (player,))},main'")
        (n,) = _row(
            cur,
            f"""SELECT count(*) FROM seat_facts s WHERE s.player = ? AND s.scored
            AND s.ended_by = 'exhaustive_draw' AND {where}""",
            [player, *params],
        )
    finally:
        cur.close()
    return int(n)


_PAIR_SUMS = """sum(hands)::BIGINT AS hands, sum(net) AS net, sum(their_net) AS their_net,
               sum(wins)::BIGINT AS wins, sum(their_wins)::BIGINT AS their_wins,
               sum(dealt_in_to_them)::BIGINT AS dealt_in_to_them,
               sum(they_dealt_in)::BIGINT AS they_dealt_in, sum(paid_to) AS paid_to,
               sum(received_from) AS received_from"""


def _rulesets_in(
    where: str, params: list[object], column: str, rulesets: tuple[str, ...] | None
) -> tuple[str, list[object]]:
    if rulesets is None:
        return where, params
    return f"{where} AND {column} IN ({_marks(rulesets) or 'NULL'})", [*params, *rulesets]


def head_to_head(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    player: str,
    rulesets: tuple[str, ...] | None = None,
) -> pl.DataFrame:
    """Per opponent: hands together, both nets, wins, deal-ins into each other, and the
    points ``player`` paid them (hands they won and ``player`` lost) and received; with
    ``rulesets``, over those rulesets only (one unit: points of two units never add).
    From this player's ``player_pairs`` rows, kept per player (:func:`_chosen_schema`)."""
    where, params = _rulesets_in(*f.summary_where(), "g.ruleset", rulesets)
    return _frame(
        con,
        f"""SELECT g.opponent, {_PAIR_SUMS}
        FROM "{_chosen_pairs(con, (player,))}".pairs g WHERE g.player = ? AND {where}
        GROUP BY g.opponent ORDER BY hands DESC, opponent""",
        [player, *params],
    )


@hand_level
def head_to_head_raw(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    player: str,
    rulesets: tuple[str, ...] | None = None,
) -> pl.DataFrame:
    """:func:`head_to_head` from the hand rows (the definition it is checked against)."""
    where, params = _rulesets_in(*f.where("m"), "m.ruleset", rulesets)
    return _frame(
        con,
        f"""
        SELECT o.player AS opponent,
               count(*) AS hands,
               sum(coalesce(m.delta, 0)) AS net,
               sum(coalesce(o.delta, 0)) AS their_net,
               count(*) FILTER (WHERE m.is_winner) AS wins,
               count(*) FILTER (WHERE o.is_winner) AS their_wins,
               count(*) FILTER (WHERE m.is_discarder AND o.is_winner) AS dealt_in_to_them,
               count(*) FILTER (WHERE o.is_discarder AND m.is_winner) AS they_dealt_in,
               coalesce(sum(-m.delta) FILTER (WHERE o.is_winner AND m.delta < 0), 0) AS paid_to,
               coalesce(sum(-o.delta) FILTER (WHERE m.is_winner AND o.delta < 0), 0)
                 AS received_from
        FROM seat_facts m JOIN seat_facts o USING (game_id, hand_no)
        WHERE m.player = ? AND m.scored AND {where} AND o.player <> ?
        GROUP BY o.player
        ORDER BY hands DESC, opponent
        """,
        [player, *params, player],
    )


# -- fans --------------------------------------------------------------------------------


def _wins(f: Filters) -> tuple[str, list[object]]:
    """Winners' seat rows of the filtered wins (alias s)."""
    where, params = _scored(f)
    return f"s.is_winner AND s.ended_by = 'win' AND {where}", params


def _fans_where(f: Filters) -> tuple[str, list[object]]:
    """``player_fans`` rows (alias g) of the filtered wins, of the selected players."""
    where, params = _players_where(f)
    return f"g.by_win AND {where}", params


def fan_histogram(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Wins by (capped) fan, per ruleset."""
    con = totalled(con, f)
    where, params = _fans_where(f)
    return _frame(
        con,
        f"""SELECT g.ruleset, g.fan, sum(g.wins)::BIGINT AS wins FROM player_fans g
        WHERE {where} GROUP BY ALL ORDER BY 1, 2""",
        params,
    )


@hand_level
def fan_histogram_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`fan_histogram` from the hand rows (the definition it is checked against)."""
    where, params = _wins(f)
    return _frame(
        con,
        f"""SELECT s.ruleset, s.fan, count(*) AS wins FROM seat_facts s WHERE {where}
        GROUP BY ALL ORDER BY 1, 2""",
        params,
    )


def pattern_frequency(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How often each pattern appears in wins (share of the ruleset's wins), and its fan:
    ``player_patterns`` (read from its files) over the wins of ``player_fans``."""
    con = totalled(con, f)
    where, params = _fans_where(f)
    pwhere, pparams = _players_where(f)
    return _frame(
        con,
        f"""
        WITH wins AS (
            SELECT g.ruleset, sum(g.wins) AS wins FROM player_fans g WHERE {where} GROUP BY ALL
        ),
        pats AS (
            SELECT g.ruleset, g.pattern, sum(g."rows") AS n, sum(g.fan_sum) / sum(g."rows") AS fan
            FROM player_patterns g WHERE {pwhere}
            GROUP BY ALL
        )
        SELECT p.ruleset, p.pattern, p.n::BIGINT AS wins_with, p.n / w.wins AS share, p.fan
        FROM pats p JOIN wins w USING (ruleset)
        ORDER BY p.ruleset, share DESC, p.pattern
        """,
        [*params, *pparams],
    )


@hand_level
def pattern_frequency_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`pattern_frequency` from the hand rows (the definition it is checked against)."""
    where, params = _wins(f)
    pwhere, pparams = f.where("fa")
    own, own_params = _own(f, "fa.player")
    return _frame(
        con,
        f"""
        WITH wins AS (
            SELECT s.ruleset, count(*) AS wins FROM seat_facts s WHERE {where} GROUP BY ALL
        ),
        pats AS (
            SELECT fa.ruleset, fa.pattern, count(*) AS n, avg(fa.fan) AS fan
            FROM fan_facts fa WHERE {pwhere} AND {own}
            GROUP BY ALL
        )
        SELECT p.ruleset, p.pattern, p.n AS wins_with, p.n / w.wins AS share, p.fan
        FROM pats p JOIN wins w USING (ruleset)
        ORDER BY p.ruleset, share DESC, p.pattern
        """,
        [*params, *pparams, *own_params],
    )


def payment_by_fan(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """The winner's average gain by fan, self-drawn and on a discard, per ruleset."""
    con = totalled(con, f)
    where, params = _fans_where(f)
    return _frame(
        con,
        f"""
        SELECT g.ruleset, g.fan, sum(g.wins)::BIGINT AS wins,
               sum(g.gain) / nullif(sum(g.gain_n), 0) AS avg_gain,
               sum(g.self_gain) / nullif(sum(g.self_gain_n), 0) AS avg_gain_self_drawn,
               (sum(g.gain) - sum(g.self_gain)) / nullif(sum(g.gain_n) - sum(g.self_gain_n), 0)
                 AS avg_gain_on_discard
        FROM player_fans g WHERE {where}
        GROUP BY ALL ORDER BY 1, 2
        """,
        params,
    )


@hand_level
def payment_by_fan_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`payment_by_fan` from the hand rows (the definition it is checked against)."""
    where, params = _wins(f)
    return _frame(
        con,
        f"""
        SELECT s.ruleset, s.fan, count(*) AS wins, avg(s.delta) AS avg_gain,
               avg(s.delta) FILTER (WHERE s.self_drawn) AS avg_gain_self_drawn,
               avg(s.delta) FILTER (WHERE NOT s.self_drawn) AS avg_gain_on_discard
        FROM seat_facts s WHERE {where}
        GROUP BY ALL ORDER BY 1, 2
        """,
        params,
    )


def limit_hands(
    con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 500
) -> tuple[pl.DataFrame, int]:
    """Wins that reached the fan cap of their hand's options (the engine's ``is_limit``),
    newest first (at most ``limit``), and how many there are: ``limit_wins``, read from
    its files (a row per such win, a small share of the wins)."""
    where, params = _players_where(f)
    (total,) = _row(con, f"SELECT count(*) FROM limit_wins g WHERE {where}", params)
    frame = _frame(
        con,
        f"""
        SELECT "at", game_id, hand_no, ruleset, player, fan, raw_fan, self_drawn, delta,
               patterns
        FROM (SELECT * FROM limit_wins g WHERE {where}
              ORDER BY g.started_at DESC, g.game_id, g.hand_no LIMIT ?)
        ORDER BY "at" DESC, game_id, hand_no
        """,
        [*params, limit],
    )
    return frame, int(total)


@hand_level
def limit_hands_raw(
    con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 500
) -> tuple[pl.DataFrame, int]:
    """:func:`limit_hands` from the hand rows (the definition it is checked against)."""
    where, params = _wins(f)
    base = f"""
        WITH lim AS (
            SELECT s.started_at, {_local_at("s")} AS at, s.game_id, s.hand_no,
                   s.seat, s.ruleset, s.player, s.fan, s.raw_fan, s.self_drawn, s.delta
            FROM seat_facts s
            WHERE {where} AND s.is_limit
        )
    """
    (total,) = _row(con, base + "SELECT count(*) FROM lim", params)
    frame = _frame(
        con,
        base
        + """,
        top AS (SELECT * FROM lim ORDER BY started_at DESC, game_id, hand_no LIMIT ?)
        SELECT t.at, t.game_id, t.hand_no, t.ruleset, t.player, t.fan, t.raw_fan, t.self_drawn,
               t.delta, string_agg(fa.pattern, ', ' ORDER BY fa.fan DESC, fa.pattern) AS patterns
        FROM top t LEFT JOIN fan_facts fa
          ON fa.game_id = t.game_id AND fa.hand_no = t.hand_no AND fa.seat = t.seat
        GROUP BY ALL
        ORDER BY t.at DESC, t.game_id, t.hand_no
        """,
        [*params, limit],
    )
    return frame, int(total)


# -- violations --------------------------------------------------------------------------


def finding_options(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Codes and classes present in the findings (their summary)."""
    rows = con.execute("SELECT DISTINCT class, code FROM finding_counts").fetchall()
    return {
        "classes": sorted({c for c, _ in rows}),
        "codes": sorted({code for _, code in rows}),
    }


@hand_level
def finding_options_raw(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Codes and classes present in the findings table."""
    rows = con.execute("SELECT DISTINCT class, code FROM finding_facts").fetchall()
    return {
        "classes": sorted({c for c, _ in rows}),
        "codes": sorted({code for _, code in rows}),
    }


def _findings_where(
    f: Filters, codes: tuple[str, ...], classes: tuple[str, ...]
) -> tuple[str, list[object]]:
    """Conditions on ``finding_facts fi``: the filters, codes and classes; with selected
    players, their findings and the seatless findings of hands they sat at."""
    where, params = f.where("fi")
    conds = [where]
    if codes:
        conds.append(f"fi.code IN ({_marks(codes)})")
        params = [*params, *codes]
    if classes:
        conds.append(f"fi.class IN ({_marks(classes)})")
        params = [*params, *classes]
    if f.players:
        conds.append(
            f"""(fi.player IN ({_marks(f.players)}) OR (fi.player IS NULL AND EXISTS (
                SELECT 1 FROM seat_facts fs WHERE fs.game_id = fi.game_id
                AND fs.hand_no = fi.hand_no AND fs.player IN ({_marks(f.players)}))))"""
        )
        params = [*params, *f.players, *f.players]
    return " AND ".join(conds), params


def findings(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    codes: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
    limit: int = 500,
    offset: int = 0,
) -> tuple[pl.DataFrame, int]:
    """One page of the findings, newest first (at most ``limit``, after skipping
    ``offset``: the page never holds every finding), and how many match: the page read
    from the findings and hands files, the count from the summary (with players
    selected, :func:`findings_raw`: their seatless findings are those of hands they sat
    at), so the page needs no hand rows in memory."""
    if f.players and not _sat_whole_sittings(con, f):
        return with_players(findings_raw)(con, f, codes, classes, limit, offset)
    where, params = f.summary_where()
    for column, values in (("code", codes), ("class", classes)):
        if values:
            where += f" AND g.{column} IN ({_marks(values)})"
            params = [*params, *values]
    chosen, cte, cte_params = _of_chosen(con, f, "g")
    where, params = where + chosen[0], [*params, *chosen[1]]
    # The sittings whose findings can be on this page: newest last hand first, those
    # holding the first offset + limit findings (at most that many sittings: each has
    # one); every finding outside them started before the earliest hand of those (T), so
    # the sittings with a hand at T or later hold the page. Their findings are read from
    # the files (game_id pushed down).
    spans, sparams = _spans(f)
    counts = f"""
        WITH {cte} c AS MATERIALIZED (SELECT g.game_id, sum(g.n) AS n FROM finding_counts g
                                WHERE {where} GROUP BY g.game_id),
        j AS MATERIALIZED (SELECT s.*, c.n FROM c JOIN ({spans}) s USING (game_id))
    """
    cparams = [*cte_params, *params, *sparams]
    need = offset + limit
    newest = con.execute(
        counts + "SELECT first_at, n, (SELECT sum(n) FROM j) FROM j "
        "ORDER BY last_at DESC, game_id LIMIT ?",
        [*cparams, max(need, 1)],
    ).fetchall()
    total = int(newest[0][2]) if newest else 0
    games: list[str] = []
    if newest and need > 0:
        upto, earliest = 0, newest[0][0]
        for first_at, n, _ in newest:
            if upto >= need:
                break
            upto += n
            earliest = first_at if earliest is None or first_at < earliest else earliest
        games = [
            r[0]
            for r in con.execute(
                counts + "SELECT game_id FROM j WHERE last_at >= ? ORDER BY game_id",
                [*cparams, earliest],
            ).fetchall()
        ]
    if not games or limit <= 0:
        empty = _FINDINGS_PAGE.format(games="NULL", where="FALSE", game="NULL")
        return _frame(con, empty, [0, 0]), int(total)
    where, params = f.where("h")
    for column, values in (("code", codes), ("class", classes)):
        if values:
            where += f" AND fi.{column} IN ({_marks(values)})"
            params = [*params, *values]
    if f.players:  # the page's sittings are theirs: their findings and the seatless ones
        where += f" AND (fi.player IN ({_marks(f.players)}) OR fi.player IS NULL)"
        params = [*params, *f.players]
    frame = _frame(
        con,
        _FINDINGS_PAGE.format(games=_marks(games), where=where, game=_game_column(con)),
        [*games, *games, *params, limit, offset],
    )
    return frame, int(total)


def _spans(f: Filters) -> tuple[str, list[object]]:
    """SQL of each sitting's first and last hand (game_id, first_at, last_at) under the
    filters, of the sittings in ``c`` (the findings' CTE), from ``game_days``; with no
    filter but players (spans do not depend on who sat), the in-memory ``totals.spans``.
    Grouping only c's sittings: with players chosen, a few thousand of 625k at 10M."""
    if replace(f, players=()) == Filters():
        return "SELECT game_id, first_at, last_at FROM totals.spans", []
    where, params = f.summary_where("d")
    return (
        f"""SELECT d.game_id, min(d.first_at) AS first_at, max(d.last_at) AS last_at
        FROM game_days d WHERE {where} AND d.game_id IN (SELECT game_id FROM c)
        GROUP BY d.game_id""",
        params,
    )


_FINDINGS_PAGE = """
    SELECT CAST((h.started_at + to_minutes(coalesce(h.utc_offset_minutes, 0))) AS TIMESTAMP)
             AS at, fi.game_id, fi.hand_no, fi.event_index, fi.player, fi.code, fi.reason,
           fi.class, fi.message, h.venue, h."table", fi.ruleset
    FROM (SELECT * FROM raw.findings WHERE game_id IN ({games})) fi
    JOIN (SELECT game_id, hand_no, ruleset, {game} AS game, source_kind, started_at,
                 utc_offset_minutes, venue, "table" FROM raw.hands WHERE game_id IN ({games})) h
      USING (game_id, hand_no)
    WHERE {where}
    ORDER BY h.started_at DESC, fi.game_id, fi.hand_no, fi.seq
    LIMIT ? OFFSET ?
"""


@hand_level
def findings_raw(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    codes: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
    limit: int = 500,
    offset: int = 0,
) -> tuple[pl.DataFrame, int]:
    """:func:`findings` from the hand rows in memory."""
    where, params = _findings_where(f, codes, classes)
    (total,) = _row(con, f"SELECT count(*) FROM finding_facts fi WHERE {where}", params)
    frame = _frame(
        con,
        f"""
        SELECT {_local_at("fi")} AS at, fi.game_id, fi.hand_no,
               fi.event_index, fi.player, fi.code, fi.reason, fi.class, fi.message, fi.venue,
               fi."table", fi.ruleset
        FROM finding_facts fi WHERE {where}
        ORDER BY fi.started_at DESC, fi.game_id, fi.hand_no, fi.seq
        LIMIT ? OFFSET ?
        """,
        [*params, limit, offset],
    )
    return frame, int(total)


def finding_counts(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    codes: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
) -> dict[str, pl.DataFrame]:
    """Matching findings counted by code (with class) and by player, from the summary
    (with players selected, :func:`finding_counts_raw`: their seatless findings are those
    of the hands they sat at)."""
    if f.players and not _sat_whole_sittings(con, f):
        return with_players(finding_counts_raw)(con, f, codes, classes)
    where, params = f.summary_where()
    for column, values in (("code", codes), ("class", classes)):
        if values:
            where += f" AND g.{column} IN ({_marks(values)})"
            params = [*params, *values]
    chosen, cte, cte_params = _of_chosen(con, f, "g")
    with_ = f"WITH {cte.rstrip(', ')} " if cte else ""
    where, params = where + chosen[0], [*cte_params, *params, *chosen[1]]
    return {
        "by_code": _frame(
            con,
            f"""{with_}SELECT g.code, g.class, sum(g.n)::BIGINT AS n FROM finding_counts g
            WHERE {where} GROUP BY ALL ORDER BY n DESC, code""",
            params,
        ),
        "by_player": _frame(
            con,
            f"""{with_}SELECT g.player, sum(g.n)::BIGINT AS n FROM finding_counts g
            WHERE {where} AND g.player IS NOT NULL GROUP BY ALL ORDER BY n DESC, player""",
            params,
        ),
    }


@hand_level
def finding_counts_raw(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    codes: tuple[str, ...] = (),
    classes: tuple[str, ...] = (),
) -> dict[str, pl.DataFrame]:
    """Matching findings counted by code (with class) and by player."""
    where, params = _findings_where(f, codes, classes)
    return {
        "by_code": _frame(
            con,
            f"""SELECT fi.code, fi.class, count(*) AS n FROM finding_facts fi WHERE {where}
            GROUP BY ALL ORDER BY n DESC, code""",
            params,
        ),
        "by_player": _frame(
            con,
            f"""SELECT fi.player, count(*) AS n FROM finding_facts fi
            WHERE {where} AND fi.player IS NOT NULL
            GROUP BY ALL ORDER BY n DESC, player""",
            params,
        ),
    }


# -- chắn ---------------------------------------------------------------------------------
#
# Chắn hands are scored in điểm from cước (rules/chan.md §7), not in fan: these queries
# always select game = 'chan' whatever the filters say, so no figure mixes the families.
# The replay tables keep their generic names: hand_results.fan is the winner's total T in
# điểm, fans.pattern a cước (or gà) id and fans.fan its value.

CHAN_STAT_COLUMNS = (
    "player",
    "hands",
    "wins",
    "win_rate",
    "diem_won",
    "diem_paid",
    "net_diem",
    "net_per_hand",
    "avg_score",
    "liable",
    "n_violations",
    "violations",
)


def _chan(f: Filters) -> Filters:
    return replace(f, game=Game.CHAN.value)


def chan_player_stats(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per player over the filtered chắn hands: hands, wins (ù), win rate, điểm won (the
    sum of their gains) and paid (the sum of their losses), net điểm and per hand, the
    average total T of their wins, hands they were liable in (đền), violations by code."""
    con = totalled(con, f)
    where, params = _players_where(_chan(f))
    return _frame(
        con,
        f"""
        WITH p AS (
            SELECT g.player, sum(g.hands)::BIGINT AS hands, sum(g.win_hands)::BIGINT AS wins,
                   sum(g.won)::DOUBLE AS diem_won, sum(g.paid)::DOUBLE AS diem_paid,
                   sum(g.net)::DOUBLE AS net_diem, sum(g.liable)::BIGINT AS liable
            FROM player_games g WHERE {where} GROUP BY g.player
        ),
        a AS (
            SELECT g.player, sum(g.fan * g.wins) / sum(g.wins) FILTER (WHERE g.fan IS NOT NULL)
                   AS avg_score
            FROM player_fans g WHERE g.by_win AND {where} GROUP BY g.player
        ),
        v AS (
            SELECT player, sum(n)::BIGINT AS n_violations,
                   string_agg(code || ':' || n, ' ' ORDER BY code) AS violations
            FROM (SELECT g.player, g.code, sum(g.n)::BIGINT AS n FROM finding_counts g
                  WHERE {where} AND g.class = 'PLAYER_VIOLATION' AND g.player IS NOT NULL
                  GROUP BY ALL)
            GROUP BY player
        )
        SELECT p.player, p.hands, p.wins, p.wins / p.hands AS win_rate, p.diem_won,
               p.diem_paid, p.net_diem, p.net_diem / p.hands AS net_per_hand, a.avg_score,
               p.liable, coalesce(v.n_violations, 0)::BIGINT AS n_violations,
               coalesce(v.violations, '') AS violations
        FROM p LEFT JOIN a USING (player) LEFT JOIN v USING (player)
        ORDER BY net_per_hand DESC, player
        """,
        [*params, *params, *params],
    )


@hand_level
def chan_player_stats_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`chan_player_stats` from the hand rows (the definition it is checked against)."""
    f = _chan(f)
    where, params = _scored(f)
    fwhere, fparams = _findings_where(f, (), ("PLAYER_VIOLATION",))
    return _frame(
        con,
        f"""
        WITH p AS (
            SELECT s.player, count(*) AS hands,
                   count(*) FILTER (WHERE s.is_winner AND s.ended_by = 'win') AS wins,
                   coalesce(sum(s.delta) FILTER (WHERE s.delta > 0), 0) AS diem_won,
                   coalesce(sum(-s.delta) FILTER (WHERE s.delta < 0), 0) AS diem_paid,
                   coalesce(sum(s.delta), 0) AS net_diem,
                   avg(s.fan) FILTER (WHERE s.is_winner AND s.ended_by = 'win') AS avg_score,
                   count(*) FILTER (WHERE s.is_liable) AS liable
            FROM seat_facts s WHERE {where} GROUP BY s.player
        ),
        v AS (
            SELECT player, sum(n)::BIGINT AS n_violations,
                   string_agg(code || ':' || n, ' ' ORDER BY code) AS violations
            FROM (SELECT fi.player, fi.code, count(*) AS n FROM finding_facts fi
                  WHERE {fwhere} AND fi.player IS NOT NULL GROUP BY ALL)
            GROUP BY player
        )
        SELECT p.player, p.hands, p.wins, p.wins / p.hands AS win_rate, p.diem_won,
               p.diem_paid, p.net_diem, p.net_diem / p.hands AS net_per_hand, p.avg_score,
               p.liable, coalesce(v.n_violations, 0)::BIGINT AS n_violations,
               coalesce(v.violations, '') AS violations
        FROM p LEFT JOIN v USING (player)
        ORDER BY net_per_hand DESC, player
        """,
        [*params, *fparams],
    )


def chan_summary(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, Any]:
    """Headline chắn figures: hands, wins, draws (hòa), win rate and average score."""
    con = totalled(con, f)
    f = _chan(f)
    head = overview(con, f)
    where, params = _fans_where(f)
    (avg_score,) = _row(
        con,
        f"""SELECT sum(g.fan * g.wins) / sum(g.wins) FILTER (WHERE g.fan IS NOT NULL)
        FROM player_fans g WHERE {where}""",
        params,
    )
    return {
        **head,
        "win_rate": head["wins"] / head["replayed"] if head["replayed"] else None,
        "avg_score": avg_score,
    }


@hand_level
def chan_summary_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, Any]:
    """:func:`chan_summary` from the hand rows (the definition it is checked against)."""
    f = _chan(f)
    head = overview_raw(con, f)
    where, params = _wins(f)
    (avg_score,) = _row(con, f"SELECT avg(s.fan) FROM seat_facts s WHERE {where}", params)
    return {
        **head,
        "win_rate": head["wins"] / head["replayed"] if head["replayed"] else None,
        "avg_score": avg_score,
    }


def cuoc_frequency(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How often each cước (and gà) id appears in the filtered chắn wins: the wins that
    have it, its rows (a cước counted twice, such as two tôm, gives two rows or a value
    that says so, as the engine records it), its share of all wins and its average value;
    from ``player_patterns`` over the wins of ``player_fans``."""
    con = totalled(con, f)
    f = _chan(f)
    where, params = _fans_where(f)
    pwhere, pparams = _players_where(f)
    return _frame(
        con,
        f"""
        WITH wins AS (SELECT coalesce(sum(g.wins), 0) AS wins FROM player_fans g WHERE {where}),
        c AS (
            SELECT g.pattern AS cuoc, sum(g.wins_with)::BIGINT AS wins_with,
                   sum(g."rows")::BIGINT AS "rows", sum(g.fan_sum) / sum(g."rows") AS value
            FROM player_patterns g WHERE {pwhere}
            GROUP BY g.pattern
        )
        SELECT c.cuoc, c.wins_with, c."rows",
               CASE WHEN w.wins > 0 THEN c.wins_with / w.wins END AS share, c.value
        FROM c CROSS JOIN wins w
        ORDER BY share DESC NULLS LAST, c.cuoc
        """,
        [*params, *pparams],
    )


@hand_level
def cuoc_frequency_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`cuoc_frequency` from the hand rows (the definition it is checked against)."""
    f = _chan(f)
    where, params = _wins(f)
    pwhere, pparams = f.where("fa")
    own, own_params = _own(f, "fa.player")
    return _frame(
        con,
        f"""
        WITH wins AS (SELECT count(*) AS wins FROM seat_facts s WHERE {where}),
        c AS (
            SELECT fa.pattern AS cuoc,
                   count(DISTINCT (fa.game_id, fa.hand_no, fa.seat)) AS wins_with,
                   count(*) AS rows, avg(fa.fan) AS value
            FROM fan_facts fa WHERE {pwhere} AND {own}
            GROUP BY fa.pattern
        )
        SELECT c.cuoc, c.wins_with, c.rows,
               CASE WHEN w.wins > 0 THEN c.wins_with / w.wins END AS share, c.value
        FROM c CROSS JOIN wins w
        ORDER BY share DESC NULLS LAST, c.cuoc
        """,
        [*params, *pparams, *own_params],
    )


def score_histogram(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Chắn wins by the winner's total T (điểm)."""
    con = totalled(con, f)
    where, params = _fans_where(_chan(f))
    return _frame(
        con,
        f"""SELECT g.fan AS diem, sum(g.wins)::BIGINT AS wins FROM player_fans g
        WHERE {where} AND g.fan IS NOT NULL GROUP BY ALL ORDER BY 1""",
        params,
    )


@hand_level
def score_histogram_raw(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """:func:`score_histogram` from the hand rows (the definition it is checked against)."""
    where, params = _wins(_chan(f))
    return _frame(
        con,
        f"""SELECT s.fan AS diem, count(*) AS wins FROM seat_facts s WHERE {where}
        AND s.fan IS NOT NULL GROUP BY ALL ORDER BY 1""",
        params,
    )


# -- the replayer ------------------------------------------------------------------------


_SITTING_COLUMNS = """min(d.day) AS day, min(d.venue) AS venue, min(d."table") AS "table",
    min(d.ruleset) AS ruleset, sum(d.hands)::BIGINT AS hands"""


def sittings(
    con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 1000
) -> tuple[pl.DataFrame, int]:
    """Sittings (games) newest first, at most ``limit``, and how many match: the hands
    the filters select, of the sittings at which a selected player sat at one of them.
    From ``game_days`` (and ``player_games``); with hands not replayed yet, which no
    summary names, :func:`sittings_raw`."""
    if _unreplayed(con):
        return sittings_raw(con, f, limit)
    where, params = _sat_at(f, "d", "player_games p", f.summary_where)
    base = f"""
        WITH g AS (
            SELECT d.game_id, min(d.first_at) AS started_at, {_SITTING_COLUMNS}
            FROM game_days d WHERE {where} GROUP BY d.game_id
        )
    """
    if f == Filters():
        base = """WITH g AS (SELECT game_id, first_at AS started_at, day, venue, "table",
                  ruleset, hands FROM totals.spans)"""
    return _sittings_page(con, base, params, limit)


def _sat_at(
    f: Filters, outer: str, seats: str, conds: Callable[[str], tuple[str, list[object]]]
) -> tuple[str, list[object]]:
    """``conds`` on alias ``outer``, and with players selected: of the sittings at which
    one of them has a row of ``seats`` (a table and its alias) under ``conds``."""
    where, params = conds(outer)
    if not f.players:
        return where, params
    alias = seats.split()[-1]
    pwhere, pparams = conds(alias)
    where += (
        f" AND {outer}.game_id IN (SELECT {alias}.game_id FROM {seats} WHERE {pwhere}"
        f" AND {alias}.player IN ({_marks(f.players)}))"
    )
    return where, [*params, *pparams, *f.players]


def _sittings_page(
    con: duckdb.DuckDBPyConnection, base: str, params: list[object], limit: int
) -> tuple[pl.DataFrame, int]:
    frame = _frame(  # the count with the page: the sittings are grouped once
        con,
        base + "SELECT *, count(*) OVER () AS _total FROM g "
        "ORDER BY started_at DESC NULLS LAST, game_id LIMIT ?",
        [*params, max(limit, 1)],
    )
    total = int(frame["_total"][0]) if frame.height else 0
    return frame.drop("started_at", "_total").head(limit), total


@hand_level
def sittings_raw(
    con: duckdb.DuckDBPyConnection, f: Filters, limit: int = 1000
) -> tuple[pl.DataFrame, int]:
    """:func:`sittings` from the hand rows (the definition it is checked against)."""
    where, params = _sat_at(f, "h", "seat_facts fs", f.where)
    base = f"""
        WITH g AS (
            SELECT h.game_id, min(h.started_at) AS started_at, min(h.day) AS day,
                   min(h.venue) AS venue, min(h."table") AS "table",
                   min(h.ruleset) AS ruleset, count(*) AS hands
            FROM hand_facts h WHERE {where} GROUP BY h.game_id
        )
    """
    return _sittings_page(con, base, params, limit)


def hands_of(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """The hands of one sitting with their outcome, for the hand picker: read from the
    files with the game_id filter pushed down (no hand rows in memory)."""
    return _frame(
        con,
        """
        WITH h AS (SELECT hand_no, ruleset, n_events FROM raw.hands WHERE game_id = ?),
        r AS (SELECT hand_no, ended_by, fan, n_findings, n_serious
              FROM raw.hand_results WHERE game_id = ?),
        s AS (SELECT hand_no, seat, player FROM raw.seats WHERE game_id = ?),
        w AS (SELECT hand_no, seat FROM raw.scores WHERE game_id = ? AND is_winner)
        SELECT h.hand_no, h.ruleset, h.n_events, r.ended_by, r.fan, r.n_findings, r.n_serious,
               string_agg(s.player, ', ' ORDER BY s.seat) FILTER (WHERE w.seat IS NOT NULL)
                 AS winners
        FROM h LEFT JOIN r USING (hand_no) JOIN s USING (hand_no)
        LEFT JOIN w USING (hand_no, seat)
        GROUP BY ALL
        ORDER BY h.hand_no
        """,
        [game_id] * 4,
    )


@hand_level
def hands_of_raw(con: duckdb.DuckDBPyConnection, game_id: str) -> pl.DataFrame:
    """:func:`hands_of` from the hand rows (the definition it is checked against)."""
    return _frame(
        con,
        """
        SELECT h.hand_no, h.ruleset, h.n_events, h.ended_by, h.fan, h.n_findings, h.n_serious,
               string_agg(s.player, ', ' ORDER BY s.seat) FILTER (WHERE s.is_winner) AS winners
        FROM hand_facts h JOIN seat_facts s USING (game_id, hand_no)
        WHERE h.game_id = ? AND s.game_id = ?
        GROUP BY ALL
        ORDER BY h.hand_no
        """,
        [game_id, game_id],
    )


def load_record(
    con: duckdb.DuckDBPyConnection, game_id: str, hand_no: int
) -> dict[str, Any] | None:
    """The canonical ``mjlog/1`` record of one hand, rebuilt from the ingest tables (as
    ``mjaudit show`` does), or None if the archive has no such hand."""
    records = _records(con, "game_id = ? AND hand_no = ?", [game_id, hand_no])
    return records[0] if records else None


def load_sitting(con: duckdb.DuckDBPyConnection, game_id: str) -> list[dict[str, Any]]:
    """The records of every hand of one sitting, in hand order (empty: no such sitting)."""
    return sorted(_records(con, "game_id = ?", [game_id]), key=lambda r: r["hand_no"])


def hand_report(
    con: duckdb.DuckDBPyConnection, game_id: str, hand_no: int | None, root: str
) -> str | None:
    """The HTML audit report of one hand (``hand_no`` None: the whole sitting) of the
    archive at ``root``, as ``mjaudit report`` writes it; None for no such hand."""
    from mjaudit.parts.dashboards.report import archive_report

    return archive_report(load_sitting(con, game_id), root, hand_no)


def _records(
    con: duckdb.DuckDBPyConnection, where: str, params: list[object]
) -> list[dict[str, Any]]:
    """The records of the hands ``where`` selects, rebuilt from the ingest tables."""
    tables: dict[str, pa.Table] = {}
    for name, schema in INGEST_TABLES.items():
        if name == "quarantine":
            continue
        # A folder written by an older version may lack newer columns: read those it has.
        have = {r[0] for r in con.execute(f'DESCRIBE raw."{name}"').fetchall()}
        cols = ", ".join(f'"{c}"' for c in schema.names if c in have)
        table = con.sql(
            f'SELECT {cols} FROM raw."{name}" WHERE {where}',
            params=params,
        ).to_arrow_table()
        tables[name] = pa.table(
            {
                f.name: table[f.name] if f.name in have else pa.nulls(table.num_rows, f.type)
                for f in schema
            }
        ).cast(schema)
    return list(records_from_tables(tables))


def hand_findings(con: duckdb.DuckDBPyConnection, game_id: str, hand_no: int) -> pl.DataFrame:
    """The auditor's findings for one hand, in order (read from the files)."""
    return _frame(
        con,
        """SELECT seq, event_index, seat, player, code, reason, class, message
        FROM raw.findings WHERE game_id = ? AND hand_no = ? ORDER BY seq""",
        [game_id, hand_no],
    )


def computed_result(
    con: duckdb.DuckDBPyConnection, game_id: str, hand_no: int
) -> dict[str, Any] | None:
    """What the replay computed for one hand (outcome, fan, patterns, payments), or None
    if the hand was not replayed (read from the files)."""
    rows = con.execute(
        """SELECT ended_by, winners, self_drawn, discarder, fan, raw_fan, liable,
                  matches_recorded
           FROM raw.hand_results WHERE game_id = ? AND hand_no = ?""",
        [game_id, hand_no],
    ).fetchall()
    if not rows:
        return None
    ended_by, winners, self_drawn, discarder, fan, raw_fan, liable, matches = rows[0]
    deltas = [
        r[0]
        for r in con.execute(
            """SELECT sc.delta FROM (SELECT seat FROM raw.seats WHERE game_id = ? AND hand_no = ?) s
            LEFT JOIN (SELECT seat, delta FROM raw.scores WHERE game_id = ? AND hand_no = ?) sc
            USING (seat) ORDER BY s.seat""",
            [game_id, hand_no, game_id, hand_no],
        ).fetchall()
    ]
    patterns = con.execute(  # the first winner's rows (each winner has the same ones)
        """WITH f AS (SELECT seat, pattern, fan FROM raw.fans WHERE game_id = ? AND hand_no = ?)
           SELECT pattern, fan FROM f WHERE seat = (SELECT min(seat) FROM f)
           ORDER BY fan DESC, pattern""",
        [game_id, hand_no],
    ).fetchall()
    return {
        "ended_by": ended_by,
        "winners": list(winners),
        "self_drawn": self_drawn,
        "discarder": discarder,
        "fan": fan,
        "raw_fan": raw_fan,
        "liable": liable,
        "matches_recorded": matches,
        "deltas": None if any(d is None for d in deltas) else deltas,
        "patterns": [(p, int(v)) for p, v in patterns],
    }
