"""The statistics riichi players know, per player of the riichi hands.

Win rate (wins / hands), deal-in rate (hands whose winning tile they discarded / hands),
riichi rate (hands they declared riichi in / hands), call rate (hands they called an
open set in: chow, pung, open or added kong, not a concealed kong / hands), draw rate
(hands ended by an exhaustive draw / hands; abortive draws apart, abortive_rate), the
average value of their wins in points (the win's own value, before honba and riichi
sticks) and in han, and their places at the games' ends (the games whose log records
the end: Tenhou XML ``owari``), with the average place.

:func:`riichi_stats` sums the ``riichi_players`` summary rows (what ``mjaudit stats``
and the dashboard show); :func:`riichi_stats_raw` computes the same figures from the
hand rows (``scores``, ``hands``, ``hand_results``), the definition the summary is
checked against.
"""

from __future__ import annotations

import duckdb
import polars as pl
from mjaudit.parts.dashboards.queries import Filters
from mjaudit.parts.dashboards.stats_report import StatsResult, StatsScope, StatsUsage, empty

# The columns of riichi_stats, in display order.
RIICHI_COLUMNS = (
    "player",
    "hands",
    "win_rate",
    "deal_in_rate",
    "riichi_rate",
    "call_rate",
    "draw_rate",
    "abortive_rate",
    "avg_win_points",
    "avg_win_han",
    "games",
    "first",
    "second",
    "third",
    "fourth",
    "avg_place",
)

# The figures from the counts of a CTE p, computed after summing: one formula for both.
_FIGURES = """
    SELECT p.player, p.hands,
        p.wins / p.hands AS win_rate,
        p.deal_ins / p.hands AS deal_in_rate,
        p.riichi / p.hands AS riichi_rate,
        p.open_hands / p.hands AS call_rate,
        p.exhaustive_draws / p.hands AS draw_rate,
        p.abortive_draws / p.hands AS abortive_rate,
        CASE WHEN p.valued_wins > 0 THEN p.win_points / p.valued_wins END AS avg_win_points,
        CASE WHEN p.valued_wins > 0 THEN p.win_han / p.valued_wins END AS avg_win_han,
        p.games_ended AS games, p.first, p.second, p.third, p.fourth,
        CASE WHEN p.games_ended > 0 THEN p.place_sum / p.games_ended END AS avg_place
    FROM p WHERE p.hands >= ? ORDER BY avg_place NULLS LAST, win_rate DESC, player"""


def _frame(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    frame = pl.from_arrow(con.sql(sql, params=params).to_arrow_table())
    assert isinstance(frame, pl.DataFrame)
    return frame.select(RIICHI_COLUMNS)


def riichi_stats(
    con: duckdb.DuckDBPyConnection, filters: Filters = Filters(), min_hands: int = 0
) -> pl.DataFrame:
    """One row per player of the riichi hands the filters select (module docstring)."""
    where, params = filters.summary_where()
    own, own_params = filters.own("g.player")
    counts = ", ".join(
        f"sum(g.{c})::BIGINT AS {c}"
        for c in (
            "hands",
            "wins",
            "deal_ins",
            "riichi",
            "open_hands",
            "exhaustive_draws",
            "abortive_draws",
            "valued_wins",
            "games_ended",
            "first",
            "second",
            "third",
            "fourth",
            "place_sum",
        )
    )
    sql = f"""
    WITH p AS (
        SELECT g.player, {counts}, sum(g.win_points)::DOUBLE AS win_points,
               sum(g.win_han)::DOUBLE AS win_han
        FROM riichi_players g WHERE {where} AND {own} GROUP BY g.player
    ){_FIGURES}"""
    return _frame(con, sql, [*params, *own_params, min_hands])


def riichi_stats_raw(
    con: duckdb.DuckDBPyConnection, filters: Filters = Filters(), min_hands: int = 0
) -> pl.DataFrame:
    """:func:`riichi_stats` from the hand rows."""
    where, params = filters.where()
    own, own_params = filters.own("s.player")
    win = "(s.is_winner AND r.ended_by = 'win')"
    sql = f"""
    WITH p AS (
        SELECT s.player, count(*) AS hands,
            count(*) FILTER (WHERE {win}) AS wins,
            count(*) FILTER (WHERE s.is_discarder) AS deal_ins,
            count(*) FILTER (WHERE s.riichi) AS riichi,
            count(*) FILTER (WHERE s.open_call) AS open_hands,
            count(*) FILTER (WHERE r.ended_by = 'exhaustive_draw') AS exhaustive_draws,
            count(*) FILTER (WHERE r.ended_by = 'abortive_draw') AS abortive_draws,
            coalesce(sum(s.win_points) FILTER (WHERE {win}), 0)::DOUBLE AS win_points,
            coalesce(sum(s.win_han) FILTER (WHERE {win}), 0)::DOUBLE AS win_han,
            count(s.win_points) FILTER (WHERE {win}) AS valued_wins,
            count(s.place) AS games_ended,
            count(*) FILTER (WHERE s.place = 1) AS first,
            count(*) FILTER (WHERE s.place = 2) AS second,
            count(*) FILTER (WHERE s.place = 3) AS third,
            count(*) FILTER (WHERE s.place = 4) AS fourth,
            coalesce(sum(s.place), 0) AS place_sum
        FROM scores s
        JOIN hands h USING (game_id, hand_no)
        JOIN hand_results r USING (game_id, hand_no)
        WHERE h.ruleset = 'riichi' AND {where} AND {own}
        GROUP BY s.player
    ){_FIGURES}"""
    return _frame(con, sql, [*params, *own_params, min_hands])


def riichi_report(scope: StatsScope) -> StatsResult:
    """``mjaudit stats --riichi``: the riichi players' statistics (riichi_players rows)."""
    from mjaudit.parts.dashboards.queries import SummaryMissing, connect
    from mjaudit.parts.dashboards.terminal import riichi_stats_table

    request = scope.request
    if request.by != "player" or request.fmt == "tsv":
        flag = scope.own.flag if scope.own else ""
        raise StatsUsage(
            f"{flag} gives one row per player: no --by, and --format table, csv or json"
        )
    filters = scope.own_ruleset()
    try:
        con = connect(scope.store, filters.scope(), tables=("hands", "game_days", "riichi_players"))
    except SummaryMissing as exc:
        raise StatsUsage(str(exc)) from None
    frame = riichi_stats(con, filters, min_hands=request.min_hands)
    if request.fmt == "csv":
        return StatsResult(text=frame.write_csv())
    if request.fmt == "json":
        return StatsResult(text=frame.write_json() + "\n")
    if frame.is_empty():
        return empty(scope.ruleset or "")
    return StatsResult(shown=(riichi_stats_table(frame, request.data),))
