"""The chắn family's own ``mjaudit stats``: cước and điểm per player, and how often each
cước is won (the dashboard's queries, :mod:`dashboards.data`)."""

from __future__ import annotations

from mjaudit.parts.dashboards.stats_report import StatsResult, StatsScope, empty
from mjaudit.parts.schemas.rulesets import game_terms


def chan_report(scope: StatsScope) -> StatsResult:
    """The Chắn statistics of ``mjaudit stats --game chan``; the tsv is its csv with tabs
    (chắn has no score-sheet summary)."""
    from mjaudit.parts.dashboards.data import chan_player_stats, cuoc_frequency, open_archive
    from mjaudit.parts.dashboards.terminal import chan_stats_tables, fan_pairs

    request, filters = scope.request, scope.filters
    archive = open_archive(request.data, filters.scope(), scope.when)
    con = archive.cursor()
    frame = chan_player_stats(con, filters)
    if request.fmt == "csv":
        return StatsResult(text=frame.write_csv())
    if request.fmt == "tsv":
        return StatsResult(text=frame.write_csv(separator="\t"))
    if request.fmt == "json":
        return StatsResult(text=fan_pairs(frame).write_json() + "\n")
    if frame.is_empty():
        return empty(game_terms(filters.game).title)
    cuoc = cuoc_frequency(con, filters)
    return StatsResult(shown=tuple(chan_stats_tables(frame, cuoc, request.data)))
