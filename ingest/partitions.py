"""Partition pruning: which committed files of a table a filtered reader needs.

Ingest writes ``TABLE/ruleset=<id>/month=<YYYY-MM|unknown>/part-….parquet`` (the month in
the table's local time, see :func:`ingest.pipeline.partition_of`) and the replay writes
``TABLE/ruleset=<id>/bucket-NN-….parquet``. A reader that only wants some rulesets (or one
game family) and a local-date range can skip the files whose folders cannot hold such
hands. Only the path is looked at, never the file: a file without a ``ruleset=`` or
``month=`` segment (the empty file every table starts with, the quarantine, a folder
written before partitioning) is always kept, and the filters still apply to the rows read,
so pruning never changes a figure, only what is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import PurePosixPath

from mjaudit.parts.schemas.rulesets import DEFAULT_GAME, RULESETS


def game_of(ruleset: str) -> str:
    """The family of a ruleset id, as the dashboards derive it (unknown ids: mahjong)."""
    shape = RULESETS.get(ruleset)
    return shape.game.value if shape is not None else DEFAULT_GAME.value


def segments(rel: str) -> dict[str, str]:
    """The ``key=value`` folders of a path relative to the data folder."""
    out: dict[str, str] = {}
    for part in PurePosixPath(rel).parts[:-1]:
        key, sep, value = part.partition("=")
        if sep:
            out[key] = value
    return out


def _month_bounds(label: str) -> tuple[date, date] | None:
    """``2026-03`` -> (2026-03-01, 2026-03-31); None if it is not a month."""
    try:
        year, month = (int(x) for x in label.split("-"))
        first = date(year, month, 1)
    except ValueError:
        return None
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, date.fromordinal(nxt.toordinal() - 1)


@dataclass(frozen=True)
class Scope:
    """The hands a reader needs: a game family, a ruleset, a local-date range (None: any).

    Built from the same values as :class:`dashboards.queries.Filters`, so every hand those
    filters select lies in a file the scope keeps.
    """

    game: str | None = None
    ruleset: str | None = None
    since: date | None = None
    until: date | None = None

    @property
    def everything(self) -> bool:
        return self == Scope()

    def key(self) -> tuple[str | None, ...]:
        """A plain, hashable form (for caches)."""
        return (
            self.game,
            self.ruleset,
            self.since.isoformat() if self.since else None,
            self.until.isoformat() if self.until else None,
        )

    @classmethod
    def from_key(cls, key: tuple[str | None, ...]) -> Scope:
        game, ruleset, since, until = key
        return cls(
            game,
            ruleset,
            date.fromisoformat(since) if since else None,
            date.fromisoformat(until) if until else None,
        )

    def keeps(self, rel: str) -> bool:
        """Whether the file ``rel`` may hold a hand in scope (judged by its folders)."""
        seg = segments(rel)
        ruleset = seg.get("ruleset")
        if ruleset is not None:
            if self.ruleset is not None and ruleset != self.ruleset:
                return False
            if self.game is not None and game_of(ruleset) != self.game:
                return False
        month = seg.get("month")
        if month is not None and (self.since is not None or self.until is not None):
            if month == "unknown":  # no timestamp: never inside a date range
                return False
            bounds = _month_bounds(month)
            if bounds is not None:
                first, last = bounds
                if self.since is not None and last < self.since:
                    return False
                if self.until is not None and first > self.until:
                    return False
        return True


def prune(rels: Iterable[str], scope: Scope | None) -> list[str]:
    """The files of ``rels`` (paths relative to the data folder) that ``scope`` keeps, in
    their order; all of them without a scope."""
    rels = list(rels)
    if scope is None or scope.everything:
        return rels
    return [rel for rel in rels if scope.keeps(rel)]
