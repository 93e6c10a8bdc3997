"""Read-only statistics queries over the replayed tables (DuckDB), shared by
``mjaudit stats`` and the dashboards.

Every user-supplied value reaches SQL as a bound parameter; only names from fixed
allow-lists (grouping columns) are placed in the SQL text.

:func:`player_stats` and :func:`overview` sum the summary tables the replay writes
(``schemas/tables.py`` SUMMARY_TABLES: a few rows per sitting instead of every seat of
every hand); :func:`player_stats_raw` and :func:`overview_raw` compute the same figures
from the hand rows, the definitions the summaries are tested against.

``Filters.game`` ("mahjong" or "chan") keeps the two families apart; left empty (as
``mjaudit stats`` does today) the figures cover every hand.

Definitions (per player, over the hands that pass the filters):

* ``hands``: hands the player sat in that were replayed; ``wins``: hands they won;
  ``win_rate`` = wins / hands.
* ``self_draws``: wins on their own draw; ``self_draw_rate`` = self_draws / wins.
* ``deal_ins``: hands where their discard (or their robbed kong) was won on;
  ``deal_in_rate`` = deal_ins / hands.
* ``unit``: what the values of the row are counted in (fan, phán, card points: the
  ruleset's own unit). A player of two rulesets with different units has one row per
  unit, because fan and phán, or HK points and card points, never add up.
* ``avg_fan``: mean capped value of their wins in that unit; ``fan_distribution``:
  value -> wins.
* ``net_points``: sum of their settled deltas (penalties and liability included);
  ``net_per_hand`` = net_points / hands.
* ``pao_paid`` / ``nine_tile_paid`` / ``last_five_paid``: hands in which they were the
  liable player under that rule; ``violations``: PLAYER_VIOLATION findings by code.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
from mjaudit.parts.ingest import duck
from mjaudit.parts.ingest.partitions import Scope, game_of, prune, segments
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.summary import missing_summaries
from mjaudit.parts.replay.archive.totals import stored_totals
from mjaudit.parts.schemas.rulesets import RULESETS
from mjaudit.parts.schemas.tables import ALL_TABLES, SUMMARY_TABLES

# The summary tables `mjaudit stats` and the sidebar read (the others only dashboard pages).
SUMMED_TABLES = ("game_days", "player_games", "player_fans", "finding_counts")
# The tables player_stats, overview and summary_tsv read (and stats' count of hands not
# replayed, from the hands' own table).
STATS_TABLES = ("hands", *SUMMED_TABLES)

# The columns of player_stats, in display order (the dashboard's players table uses it).
STAT_COLUMNS = (
    "player",
    "unit",
    "hands",
    "wins",
    "win_rate",
    "self_draws",
    "self_draw_rate",
    "deal_ins",
    "deal_in_rate",
    "avg_fan",
    "fan_distribution",
    "net_points",
    "net_per_hand",
    "pao_paid",
    "nine_tile_paid",
    "last_five_paid",
    "n_violations",
    "violations",
)

# The local time of the table (the offset the log gave), so a month is the club's month.
LOCAL_TIME = "(h.started_at + to_minutes(coalesce(h.utc_offset_minutes, 0)))"
GROUPS = {
    "player": None,
    "venue": "h.venue",
    "table": 'h."table"',
    "month": f"strftime({LOCAL_TIME}, '%Y-%m')",
}
# The same groups over a summary table (alias g).
SUMMARY_GROUPS = {
    "player": None,
    "venue": "g.venue",
    "table": 'g."table"',
    "month": "strftime(g.day, '%Y-%m')",
}


def connect(
    data_dir: Path | str | DataDir,
    scope: Scope | None = None,
    tables: Iterable[str] | None = None,
    totals: bool | str = False,
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with a view per table over the data folder's committed files;
    with a ``scope``, only over the files that can hold hands in it (the others are not
    read at all); with ``tables``, only views of those tables (a view reads every one of
    its files' footers when it is made: ``mjaudit stats`` needs no events view). Naming a
    summary table in ``tables`` raises SummaryMissing for a folder replayed before them.
    With ``totals`` (True or "whole": for queries with no venue, table or date filter and
    no grouping by them; "place": with no date filter and no grouping by month), each
    summary table with stored totals of that grain of its committed files is a view of
    those (replay/archive/totals.py: a row per player and ruleset, or per player,
    ruleset, venue and table), the others as without."""
    data = _existing(data_dir)
    if tables is not None and set(tables) & set(SUMMARY_TABLES):  # a statistics reader
        require_summaries(data)
    con = memory_db()
    manifest = data.manifest()
    grain = "whole" if totals is True else totals
    stored = stored_totals(con, data, manifest, grain) if grain else {}
    wanted = set(manifest["tables"]) | set(ALL_TABLES) if tables is None else set(tables)
    create_views(con, data, scope, tables=wanted - set(stored))
    for name in sorted(wanted & set(stored)):
        con.execute(f'CREATE VIEW "{name}" AS {stored[name]}')
    return con


class SummaryMissing(RuntimeError):
    """Hands replayed before the summary tables existed: their figures would be missing."""


def require_summaries(data: DataDir) -> None:
    """SummaryMissing, saying what to run, if some replayed hands have no summary rows
    (the statistics would leave them out, not count them as zeros)."""
    missing = missing_summaries(data.manifest())
    if missing:
        raise SummaryMissing(
            f"{data.root}: {len(missing)} replay files were written before the summary "
            f"tables the statistics read (e.g. {missing[0]}); run `mjaudit replay --data "
            f"{data.root}` once to write them"
        )


# DuckDB keeps joins, sorts and in-memory tables under this and spills the rest to a
# folder of its own, so a reader's peak memory does not grow with the archive (stats over
# 1M hands peaked at 880 MB without it).
MEMORY_LIMIT = "1GB"


def memory_db() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB as every reader opens one: UTC, Parquet footers read once, at
    most MEMORY_LIMIT of memory, and a spill folder of its own, removed when the process
    exits (not with the connection: a cursor of it may still be querying in another
    dashboard session)."""
    spill = tempfile.mkdtemp(prefix="mjaudit-duckdb-")
    con = duck.connect(":memory:", config={"temp_directory": spill, "memory_limit": MEMORY_LIMIT})
    atexit.register(shutil.rmtree, spill, True)
    con.execute("SET TimeZone = 'UTC'")  # results never depend on the machine's time zone
    con.execute("SET parquet_metadata_cache = true")  # views and queries read footers once
    return con


def create_views(
    con: duckdb.DuckDBPyConnection,
    data: DataDir,
    scope: Scope | None = None,
    schema: str | None = None,
    tables: Iterable[str] | None = None,
) -> dict[str, list[Path]]:
    """A view per table (in ``schema`` if given; only ``tables`` if given) over the files
    ``scope`` keeps; a table left with no file is an empty table of its columns. Returns
    the files each view reads."""
    manifest = data.manifest()
    prefix = f'{schema}."' if schema else '"'
    used: dict[str, list[Path]] = {}
    names = set(manifest["tables"]) | set(ALL_TABLES)
    for name in sorted(names if tables is None else names & set(tables)):
        rels = prune(manifest["tables"].get(name, []), scope)
        used[name] = [(data.root / rel).resolve() for rel in rels]
        if rels:
            source = data.parquet_sql(name, rels, manifest)
            con.execute(f'CREATE VIEW {prefix}{name}" AS SELECT * FROM {source}')
        elif name in ALL_TABLES:  # pruned away, or a table newer than the folder
            con.register("_empty", ALL_TABLES[name].empty_table())
            con.execute(f'CREATE TABLE {prefix}{name}" AS SELECT * FROM _empty')
            con.unregister("_empty")
    return used


def _existing(data_dir: Path | str | DataDir) -> DataDir:
    """The data folder (a DataDir as given: e.g. one as of a past version), or
    FileNotFoundError saying how to get data into it. Its ``catalog.duckdb`` is rebuilt
    here if it is stale (the folder was moved or copied)."""
    data = data_dir if isinstance(data_dir, DataDir) else DataDir(data_dir)
    if not data.exists():
        raise FileNotFoundError(
            f"{data.root}: no data here yet; run `mjaudit ingest FILES --data {data.root}` "
            "(or `mjaudit demo`)"
        )
    data.refresh_catalog()
    return data


def read_hand(store: DataDir, game_id: str, hand_no: int) -> dict[str, Any] | None:
    """One hand's canonical record, rebuilt from the ingest tables (``mjaudit show``);
    None when the folder has no such hand."""
    from mjaudit.parts.schemas.rows import records_from_tables  # not on the stats path

    key = (pl.col("game_id") == game_id) & (pl.col("hand_no") == hand_no)
    tables = {
        name: store.scan(name).filter(key).collect().to_arrow()
        for name in ("hands", "seats", "events", "recorded_results")
    }
    return next(iter(records_from_tables(tables)), None)


def families(data_dir: Path | str | DataDir) -> set[str]:
    """The game families in the folder's hands, from the ``ruleset=`` folders of the
    hands files (no file is read); files outside such folders are read for their
    ``game`` (or ruleset) column. Raises FileNotFoundError without a data folder."""
    data = _existing(data_dir)
    manifest = data.manifest()
    rels = manifest["tables"].get("hands", [])
    found = {game_of(seg["ruleset"]) for rel in rels if "ruleset" in (seg := segments(rel))}
    loose = [rel for rel in rels if "ruleset" not in segments(rel)]
    if loose:
        con = memory_db()
        try:
            source = data.parquet_sql("hands", loose, manifest)
            have = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
            column = "game" if "game" in have else None
            if column:
                found |= {
                    r[0]
                    for r in con.execute(f"SELECT DISTINCT game FROM {source}").fetchall()
                    if r[0]
                }
            found |= {
                game_of(r[0])
                for r in con.execute(
                    f"SELECT DISTINCT ruleset FROM {source} WHERE "
                    + ("game IS NULL" if column else "TRUE")
                ).fetchall()
                if r[0]
            }
        finally:
            con.close()
    return found


@dataclass(frozen=True)
class Filters:
    """Which hands a statistic covers. ``game`` ("mahjong" or "chan", the ``hands.game``
    column) keeps the two families apart: fan and cước are different units."""

    game: str | None = None
    ruleset: str | None = None
    since: date | None = None
    until: date | None = None
    venue: str | None = None
    table: str | None = None
    players: tuple[str, ...] = ()
    source_kind: str | None = None  # "log" (full logs) or "sheet" (club score sheets); None: both

    def where(self, alias: str = "h") -> tuple[str, list[object]]:
        """SQL conditions on the hands table and their bound parameters."""
        conds: list[str] = ["TRUE"]
        params: list[object] = []
        if self.game:
            conds.append(f"{alias}.game = ?")
            params.append(self.game)
        if self.ruleset:
            conds.append(f"{alias}.ruleset = ?")
            params.append(self.ruleset)
        local = LOCAL_TIME.replace("h.", f"{alias}.")
        if self.since:
            conds.append(f"{local} >= ?::DATE")
            params.append(self.since.isoformat())
        if self.until:
            conds.append(f"{local} < (?::DATE + INTERVAL 1 DAY)")
            params.append(self.until.isoformat())
        if self.venue:
            conds.append(f"{alias}.venue = ?")
            params.append(self.venue)
        if self.table:
            conds.append(f'{alias}."table" = ?')
            params.append(self.table)
        if self.source_kind:
            conds.append(f"{alias}.source_kind = ?")
            params.append(self.source_kind)
        return " AND ".join(conds), params

    def summary_where(self, alias: str = "g") -> tuple[str, list[object]]:
        """The same conditions on a summary table (``day`` is the local date, so
        ``since``/``until`` compare it with the dates themselves)."""
        conds: list[str] = ["TRUE"]
        params: list[object] = []
        for column, value in (
            ("game", self.game),
            ("ruleset", self.ruleset),
            ("venue", self.venue),
            ('"table"', self.table),
            ("source_kind", self.source_kind),
        ):
            if value:
                conds.append(f"{alias}.{column} = ?")
                params.append(value)
        if self.since:
            conds.append(f"{alias}.day >= ?::DATE")
            params.append(self.since.isoformat())
        if self.until:
            conds.append(f"{alias}.day <= ?::DATE")
            params.append(self.until.isoformat())
        return " AND ".join(conds), params

    def own(self, column: str) -> tuple[str, list[object]]:
        """``column`` (a player) is one of the selected players, or TRUE when none are."""
        if not self.players:
            return "TRUE", []
        return f"{column} IN ({', '.join('?' for _ in self.players)})", list(self.players)

    def scope(self) -> Scope:
        """The partitions these filters can select hands from (see :mod:`ingest.partitions`)."""
        return Scope(self.game, self.ruleset, self.since, self.until)


def player_stats(
    con: duckdb.DuckDBPyConnection,
    filters: Filters = Filters(),
    by: str = "player",
    min_hands: int = 0,
) -> pl.DataFrame:
    """One row per player (or per group and player), sorted by net points per hand: the
    sums of the summary tables' rows (:func:`player_stats_raw` computes the same figures
    from the hand rows)."""
    if by not in SUMMARY_GROUPS:
        raise ValueError(f"--by must be one of {', '.join(SUMMARY_GROUPS)}")
    group = SUMMARY_GROUPS[by]
    keys = f'{group} AS "{by}", g.player, coalesce(u.unit, g.ruleset) AS unit'
    if group is None:
        keys = "g.player, coalesce(u.unit, g.ruleset) AS unit"
    using = f'"{by}", player, unit' if group else "player, unit"
    where, params = filters.summary_where()
    own, own_params = filters.own("g.player")
    cond = f"{where} AND {own}"
    cparams = [*params, *own_params]
    sql = f"""
    WITH {units_cte()},
    p AS (
        SELECT {keys}, sum(g.hands)::BIGINT AS hands, sum(g.wins)::BIGINT AS wins,
               sum(g.self_draws)::BIGINT AS self_draws, sum(g.deal_ins)::BIGINT AS deal_ins,
               sum(g.net)::DOUBLE AS net_points, sum(g.pao_paid)::BIGINT AS pao_paid,
               sum(g.nine_tile_paid)::BIGINT AS nine_tile_paid,
               sum(g.last_five_paid)::BIGINT AS last_five_paid
        FROM player_games g LEFT JOIN units u ON u.ruleset = g.ruleset
        WHERE {cond} GROUP BY ALL
    ),
    hist AS (
        SELECT {keys}, g.fan, sum(g.wins)::BIGINT AS n
        FROM player_fans g LEFT JOIN units u ON u.ruleset = g.ruleset
        WHERE {cond} GROUP BY ALL
    ),
    fans AS (
        SELECT {using}, string_agg(fan || ':' || n, ' ' ORDER BY fan) AS fan_distribution,
               sum(fan * n) / sum(n) FILTER (WHERE fan IS NOT NULL) AS avg_fan
        FROM hist GROUP BY ALL
    ),
    by_code AS (
        SELECT {keys}, g.code, sum(g.n)::BIGINT AS n
        FROM finding_counts g LEFT JOIN units u ON u.ruleset = g.ruleset
        WHERE {cond} AND g.class = 'PLAYER_VIOLATION' AND g.player IS NOT NULL GROUP BY ALL
    ),
    violations AS (
        SELECT {using}, string_agg(code || ':' || n, ' ' ORDER BY code) AS violations,
               sum(n) AS n_violations
        FROM by_code GROUP BY ALL
    )
    SELECT p.*, f.avg_fan, {RATES}
    FROM p
    LEFT JOIN fans f ON {_same_keys("p", "f", using)}
    LEFT JOIN violations v ON {_same_keys("p", "v", using)}
    WHERE p.hands >= ?
    ORDER BY {"" if group is None else f'"{by}", '}unit, net_per_hand DESC, player
    """
    frame = pl.from_arrow(
        con.sql(sql, params=[*cparams, *cparams, *cparams, min_hands]).to_arrow_table()
    )
    return frame.select([*([by] if group else []), *STAT_COLUMNS])


def player_stats_raw(
    con: duckdb.DuckDBPyConnection,
    filters: Filters = Filters(),
    by: str = "player",
    min_hands: int = 0,
) -> pl.DataFrame:
    """:func:`player_stats` from the hand rows (``scores``, ``hands``, ``hand_results``,
    ``findings``): the definition the summary tables are checked against."""
    if by not in GROUPS:
        raise ValueError(f"--by must be one of {', '.join(GROUPS)}")
    group = GROUPS[by]
    group_col = f'{group} AS "{by}", ' if group else ""
    group_key = f'"{by}", ' if group else ""
    where, params = filters.where()
    player_filter = ""
    if filters.players:
        player_filter = f"AND s.player IN ({', '.join('?' for _ in filters.players)})"
        params = [*params, *filters.players]
    group_key += "unit, "
    sql = f"""
    WITH {units_cte()},
    base AS (
        SELECT {group_col} s.player, coalesce(u.unit, h.ruleset) AS unit, s.game_id,
               s.hand_no, s.seat, s.delta, s.is_winner, s.is_discarder, s.is_liable,
               r.self_drawn, r.fan
        FROM scores s
        JOIN hands h USING (game_id, hand_no)
        JOIN hand_results r USING (game_id, hand_no)
        LEFT JOIN units u ON u.ruleset = h.ruleset
        WHERE {where} {player_filter}
    ),
    liab AS (
        SELECT f.game_id, f.hand_no, f.seat, f.code FROM findings f
        WHERE f.code IN ('PAO_LIABILITY', 'NINE_TILE_LIABILITY', 'LAST_FIVE_LIABILITY')
    ),
    viol AS (
        SELECT f.game_id, f.hand_no, f.seat, f.code FROM findings f
        WHERE f.class = 'PLAYER_VIOLATION'
    ),
    per_player AS (
        SELECT {group_key} player,
            count(*) AS hands,
            count(*) FILTER (WHERE is_winner) AS wins,
            count(*) FILTER (WHERE is_winner AND self_drawn) AS self_draws,
            count(*) FILTER (WHERE is_discarder) AS deal_ins,
            avg(fan) FILTER (WHERE is_winner) AS avg_fan,
            coalesce(sum(delta), 0) AS net_points,
            count(*) FILTER (WHERE is_liable AND EXISTS (
                SELECT 1 FROM liab l WHERE l.game_id = base.game_id AND l.hand_no = base.hand_no
                AND l.seat = base.seat AND l.code = 'PAO_LIABILITY')) AS pao_paid,
            count(*) FILTER (WHERE is_liable AND EXISTS (
                SELECT 1 FROM liab l WHERE l.game_id = base.game_id AND l.hand_no = base.hand_no
                AND l.seat = base.seat AND l.code = 'NINE_TILE_LIABILITY')) AS nine_tile_paid,
            count(*) FILTER (WHERE is_liable AND EXISTS (
                SELECT 1 FROM liab l WHERE l.game_id = base.game_id AND l.hand_no = base.hand_no
                AND l.seat = base.seat AND l.code = 'LAST_FIVE_LIABILITY')) AS last_five_paid
        FROM base GROUP BY ALL
    ),
    fans AS (
        SELECT {group_key} player, string_agg(fan || ':' || n, ' ' ORDER BY fan) AS fan_distribution
        FROM (SELECT {group_key} player, fan, count(*) AS n FROM base WHERE is_winner GROUP BY ALL)
        GROUP BY ALL
    ),
    violations AS (
        SELECT {group_key} player, string_agg(code || ':' || n, ' ' ORDER BY code) AS violations,
               sum(n) AS n_violations
        FROM (
            SELECT {group_key} b.player, v.code, count(*) AS n
            FROM viol v JOIN base b
              ON v.game_id = b.game_id AND v.hand_no = b.hand_no AND v.seat = b.seat
            GROUP BY ALL
        ) GROUP BY ALL
    )
    SELECT p.*, {RATES}
    FROM per_player p
    LEFT JOIN fans f ON {_same_keys("p", "f", group_key + "player")}
    LEFT JOIN violations v ON {_same_keys("p", "v", group_key + "player")}
    WHERE p.hands >= ?
    ORDER BY {group_key} net_per_hand DESC, player
    """
    frame = pl.from_arrow(con.sql(sql, params=[*params, min_hands]).to_arrow_table())
    return frame.select([*([by] if group else []), *STAT_COLUMNS])


# The rates and text columns of player_stats, from its CTEs p (counts), f (fan
# distribution) and v (violations): computed after summing, one formula for both paths.
RATES = """
        p.wins / p.hands AS win_rate,
        CASE WHEN p.wins > 0 THEN p.self_draws / p.wins END AS self_draw_rate,
        p.deal_ins / p.hands AS deal_in_rate,
        p.net_points / p.hands AS net_per_hand,
        coalesce(f.fan_distribution, '') AS fan_distribution,
        coalesce(v.violations, '') AS violations,
        coalesce(v.n_violations, 0)::BIGINT AS n_violations"""


def _same_keys(left: str, right: str, keys: str) -> str:
    """A join condition on the comma-separated ``keys`` under which NULL equals NULL (a
    group of hands without a venue or table is a group too)."""
    names = [k.strip() for k in keys.split(",") if k.strip()]
    return " AND ".join(f"{left}.{k} IS NOT DISTINCT FROM {right}.{k}" for k in names)


def units_cte() -> str:
    """``units(ruleset, unit) AS (VALUES ('hk-classic', 'fan'), …)``: each ruleset's unit
    (``schemas/rulesets.py``: SQL literals of our own ids and words, no user text)."""
    values = ", ".join(f"('{r.id}', '{r.unit}')" for r in RULESETS.values())
    return f"units(ruleset, unit) AS (VALUES {values})"


def overview(con: duckdb.DuckDBPyConnection, filters: Filters = Filters()) -> dict[str, object]:
    """Headline figures of the replayed hands: sittings, hands, players, violations,
    period, exhaustive-draw rate (from the summary tables; :func:`overview_raw` from the
    hand rows, where ``hands`` also counts hands not replayed yet)."""
    where, params = filters.summary_where()
    sittings, hands, first, last, draws = con.execute(
        f"""SELECT count(DISTINCT g.game_id), coalesce(sum(g.hands), 0)::BIGINT,
               min(g.first_at), max(g.last_at), coalesce(sum(g.draws), 0)::BIGINT
        FROM game_days g WHERE {where}""",
        params,
    ).fetchall()[0]
    (players,) = con.execute(
        f"SELECT count(DISTINCT g.player) FROM player_games g WHERE {where}", params
    ).fetchall()[0]
    (violations,) = con.execute(
        f"""SELECT coalesce(sum(g.n), 0)::BIGINT FROM finding_counts g
        WHERE {where} AND g.class = 'PLAYER_VIOLATION'""",
        params,
    ).fetchall()[0]
    return {
        "sittings": sittings,
        "hands": hands,
        "players": players,
        "violations": violations,
        "first": first,
        "last": last,
        "exhaustive_draw_rate": (draws / hands) if hands else None,
    }


def overview_raw(con: duckdb.DuckDBPyConnection, filters: Filters = Filters()) -> dict[str, object]:
    """Headline figures from the hand rows: sittings, hands, players, violations, period,
    exhaustive-draw rate."""
    where, params = filters.where()
    row = con.execute(
        f"""
        SELECT count(DISTINCT h.game_id) AS sittings, count(*) AS hands,
               min(h.started_at) AS first, max(h.started_at) AS last,
               count(*) FILTER (WHERE r.ended_by = 'exhaustive_draw') AS draws
        FROM hands h LEFT JOIN hand_results r USING (game_id, hand_no)
        WHERE {where}
        """,
        params,
    ).fetchall()[0]
    players = con.execute(
        f"SELECT count(DISTINCT s.player) FROM seats s JOIN hands h USING (game_id, hand_no) WHERE {where}",
        params,
    ).fetchall()[0]
    violations = con.execute(
        f"""SELECT count(*) FROM findings f JOIN hands h USING (game_id, hand_no)
        WHERE {where} AND f.class = 'PLAYER_VIOLATION'""",
        params,
    ).fetchall()[0]
    sittings, hands, first, last, draws = row
    return {
        "sittings": sittings,
        "hands": hands,
        "players": players[0] if players else 0,
        "violations": violations[0] if violations else 0,
        "first": first,
        "last": last,
        "exhaustive_draw_rate": (draws / hands) if hands else None,
    }


def dates_select_every_day(data: DataDir, filters: Filters) -> bool:
    """Whether ``filters``' dates keep every summary row their scope's files hold: each
    has a day (the log gave a time) within them. Then the figures are those without the
    dates, which the stored totals give: `--since 2000-01-01` over an archive that
    starts later summed 2.5M player_games rows at 10M hands to print the totals."""
    if filters.since is None and filters.until is None:
        return True
    con = memory_db()
    try:
        create_views(con, data, filters.scope(), tables=("game_days",))
        first, last, undated = con.execute(
            "SELECT min(day), max(day), count(*) FILTER (WHERE day IS NULL) FROM game_days"
        ).fetchall()[0]
    finally:
        con.close()
    if undated or first is None:
        return first is None and not undated  # no rows: nothing to keep or lose
    return (filters.since is None or filters.since <= first) and (
        filters.until is None or last <= filters.until
    )


def not_replayed(con: duckdb.DuckDBPyConnection, filters: Filters = Filters()) -> int:
    """Hands that pass the filters but are not counted: ingested and not replayed yet
    (or of a ruleset without an engine)."""
    where, params = filters.where()
    swhere, sparams = filters.summary_where()
    (hands,) = con.execute(f"SELECT count(*) FROM hands h WHERE {where}", params).fetchall()[0]
    (done,) = con.execute(
        f"SELECT coalesce(sum(g.hands), 0)::BIGINT FROM game_days g WHERE {swhere}", sparams
    ).fetchall()[0]
    return max(0, int(hands) - int(done))


def _num(x: float) -> str:
    """At most 4 decimal places, trailing zeros and a trailing point removed."""
    text = f"{round(x, 4):.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class MixedUnits(ValueError):
    """A summary asked to add values of two units (fan and phán, HK and card points)."""


def summary_tsv(con: duckdb.DuckDBPyConnection, filters: Filters = Filters()) -> str:
    """The per-player summary clubs know from their score sheets, tab-separated.

    Columns name, game_count, win_count, win_fraction, net_score, net_score_per_game;
    players by net score per game (best first), then name; a final ``*`` row that is the
    sum of the player rows, as the clubs' sheet tool prints it: games and wins summed over
    the players, their ratio, and the net of all deltas (0 when every hand balances).
    """
    rows = player_stats(con, filters)
    units = sorted(set(rows["unit"].to_list()))
    if len(units) > 1:
        raise MixedUnits(
            f"the hands are scored in {' and '.join(units)}, which a score-sheet summary "
            "cannot add up: pick one ruleset with --ruleset"
        )
    lines = ["name\tgame_count\twin_count\twin_fraction\tnet_score\tnet_score_per_game"]
    ordered = sorted(
        rows.iter_rows(named=True), key=lambda r: (-round(r["net_per_hand"], 9), r["player"])
    )
    for r in ordered:
        lines.append(
            "\t".join(
                [
                    r["player"],
                    str(r["hands"]),
                    str(r["wins"]),
                    _num(r["win_rate"]),
                    _num(r["net_points"]),
                    _num(r["net_per_hand"]),
                ]
            )
        )
    games = sum(r["hands"] for r in ordered)
    wins = sum(r["wins"] for r in ordered)
    net = sum(r["net_points"] for r in ordered)
    if games:
        lines.append(
            "\t".join(
                ["*", str(games), str(wins), _num(wins / games), _num(net), _num(net / games)]
            )
        )
    return "\n".join(lines) + "\n"
