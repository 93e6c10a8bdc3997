"""What ``mjaudit stats`` prints, computed here so the command only parses its options.

The shared statistics of the mahjong family come from :mod:`dashboards.queries`; a family
or a ruleset with statistics of its own declares them in :mod:`schemas.rulesets`
(:class:`~schemas.rulesets.OwnStats`: chắn's, riichi's), and :func:`stats_report` hands
the request to the report it names. No ruleset id or family name is tested here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from mjaudit.parts.dashboards.queries import Filters
from mjaudit.parts.schemas.rulesets import (
    DEFAULT_GAME,
    GAME_TERMS,
    OWN_FLAGS,
    RULESET_IDS,
    OwnStats,
    game_terms,
)

NOT_REPLAYED = "(did you run `mjaudit replay`?)"


@dataclass(frozen=True)
class StatsRequest:
    """The options of ``mjaudit stats``, as values (the command's enums' values)."""

    data: Path
    by: str = "player"  # player, venue, table or month
    ruleset: str | None = None
    since: date | None = None
    until: date | None = None
    min_hands: int = 0
    fmt: str = "table"  # table, csv, json or tsv
    source: str = "all"  # all, log or sheet
    game: str | None = None  # None: the family in the data (auto)
    as_of: str | None = None  # a version of the folder or an ISO time
    own: frozenset[str] = frozenset()  # the flags of OWN_FLAGS given ("--riichi")


@dataclass(frozen=True)
class StatsResult:
    """What the command prints: ``notes`` (stderr) first, then ``text`` written to stdout
    as it is (csv, tsv, json) or ``shown`` printed by the console (tables, sentences); or,
    after the notes, the ``error`` of a request that cannot be answered (exit 2)."""

    notes: tuple[str, ...] = ()
    text: str = ""
    shown: tuple[Any, ...] = ()
    error: str | None = None


class StatsUsage(Exception):
    """A request the statistics cannot answer; its message is the command's error."""


@dataclass(frozen=True)
class StatsScope:
    """A request as a report reads it: the folder (at ``--as-of``), the filters, and the
    own statistics being answered (None: the shared ones)."""

    request: StatsRequest
    store: Any  # ingest.store.DataDir
    when: int | datetime | None
    filters: Filters
    own: OwnStats | None = None
    ruleset: str | None = None  # the ruleset whose own statistics these are

    def own_ruleset(self) -> Filters:
        """The filters narrowed to the ruleset whose own statistics these are; StatsUsage
        when ``--ruleset`` names another."""
        assert self.own is not None and self.ruleset is not None
        if self.filters.ruleset not in (None, self.ruleset):
            raise StatsUsage(
                f"{self.own.flag} counts {self.ruleset} hands: not --ruleset {self.filters.ruleset}"
            )
        return replace(self.filters, ruleset=self.ruleset)


Report = Callable[[StatsScope], StatsResult]


def own_report(own: OwnStats) -> Report:
    """The function an :class:`OwnStats` names (``module:function``)."""
    module, _, name = own.report.partition(":")
    report: Report = getattr(importlib.import_module(module), name)
    return report


def empty(what: str) -> StatsResult:
    """The sentence for filters that match no hands (``what``: the hands' kind, if any)."""
    return StatsResult(shown=(f"no {what + ' ' if what else ''}hands match {NOT_REPLAYED}",))


def stats_report(request: StatsRequest) -> StatsResult:
    """The statistics a ``mjaudit stats`` request asks for (see :class:`StatsResult`)."""
    notes: list[str] = []  # printed before the figures, and before an error
    try:
        result = _report(request, notes)
    except StatsUsage as exc:
        return StatsResult(notes=tuple(notes), error=str(exc))
    return replace(result, notes=(*notes, *result.notes))


def _report(request: StatsRequest, notes: list[str]) -> StatsResult:
    from mjaudit.parts.dashboards.queries import families
    from mjaudit.parts.ingest.store import DataDir, DataDirError, parse_as_of

    ruleset = request.ruleset
    if ruleset is not None and ruleset not in RULESET_IDS:
        raise StatsUsage(f"unknown ruleset {ruleset!r} (expected one of {', '.join(RULESET_IDS)})")
    try:
        when = parse_as_of(request.as_of) if request.as_of is not None else None
        store = DataDir(request.data, as_of=when)
        found = families(store)  # from the partition folders: no hands file is read
    except (FileNotFoundError, DataDirError) as exc:
        raise StatsUsage(f"{exc}") from None
    chosen = request.game
    if chosen is None:
        # the one family in the archive, else the default one (and a note of the others)
        known = sorted(g for g in found if g in GAME_TERMS)
        chosen = known[0] if len(found) == 1 and known else DEFAULT_GAME.value
        others = [g for g in known if g != chosen]
        if len(found) > 1 and others and ruleset is None:
            notes.append(
                f"note: {game_terms(chosen).title} figures only; "
                + "; ".join(
                    f"{game_terms(g).title} hands are counted with --game {g}" for g in others
                )
            )
    filters = Filters(
        ruleset=ruleset,
        since=request.since,
        until=request.until,
        source_kind=None if request.source == "all" else request.source,
        game=chosen,
    )
    scope = StatsScope(request, store, when, filters)
    terms = game_terms(chosen)
    if terms.own_stats is not None:  # the family's statistics are its own (chắn)
        return own_report(terms.own_stats)(replace(scope, own=terms.own_stats))
    for flag, shape in OWN_FLAGS.items():
        if flag in request.own:
            assert shape.own_stats is not None
            return own_report(shape.own_stats)(
                replace(scope, own=shape.own_stats, ruleset=shape.id)
            )
    return shared_report(scope)


def shared_report(scope: StatsScope) -> StatsResult:
    """The mahjong family's statistics: wins, self-draws, deal-ins, fan, points, violations."""
    from mjaudit.parts.dashboards.queries import (
        STATS_TABLES,
        MixedUnits,
        SummaryMissing,
        connect,
        dates_select_every_day,
        not_replayed,
        player_stats,
        summary_tsv,
    )
    from mjaudit.parts.dashboards.terminal import fan_pairs, stats_table

    request, filters = scope.request, scope.filters
    summed = filters  # the filters of the figures (the count of hands not replayed: all)
    # Only the partitions the filters can select are read (ingest.partitions).
    try:
        # Figures over every date read the stored totals: a row per player and ruleset,
        # or (grouped by venue or table) per player, ruleset, venue and table.
        grain = {"player": "whole", "venue": "place", "table": "place"}.get(request.by)
        if grain and dates_select_every_day(scope.store, filters):
            summed = replace(filters, since=None, until=None)
        dated = summed.since is not None or summed.until is not None
        totals = False if dated or grain is None else grain
        con = connect(scope.store, filters.scope(), tables=STATS_TABLES, totals=totals)
    except SummaryMissing as exc:
        raise StatsUsage(str(exc)) from None
    if request.fmt == "tsv":
        try:
            return StatsResult(text=summary_tsv(con, summed))
        except MixedUnits as exc:
            raise StatsUsage(str(exc)) from None
    frame = player_stats(con, summed, by=request.by, min_hands=request.min_hands)
    pending = not_replayed(con, filters)
    notes = (
        (
            f"note: {pending} ingested hands are not replayed yet and not counted: "
            f"run `mjaudit replay --data {request.data}`",
        )
        if pending
        else ()
    )
    if request.fmt == "csv":
        return StatsResult(notes=notes, text=frame.write_csv())
    if request.fmt == "json":
        return StatsResult(notes=notes, text=fan_pairs(frame).write_json() + "\n")
    if frame.is_empty():
        return replace(empty(""), notes=notes)
    return StatsResult(notes=notes, shown=(stats_table(frame, request.by, request.data),))
