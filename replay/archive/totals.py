"""The stored totals (``schemas/tables.py`` TOTALS_TABLES): each summary table summed over
the columns its grain sums away (GRAINS): over game_id, venue, table and day ("whole", a
row per player and ruleset) and over game_id and day ("place", a row per player, ruleset,
venue and table).

Statistics without a venue, table or date filter (``mjaudit stats``, the dashboard's
start-up) read the whole totals, a few thousand rows, instead of a row per sitting; those
with a venue or table and no dates (``--by venue``, the sidebar's venue and table) read
the place totals. A total covers every
game, so the replay's bucket rewrite cannot replace it game by game: :func:`totals_parts`
recomputes all of them from the summary files a commit will hold, and the replay commits
them with those files (``replay/archive/update.py``). :func:`stored_totals` gives a reader
the totals whose ``source`` digest matches the summary files committed now; any other
(an archive written before the totals, or one whose summary files were compacted or
written by another tool) is summed from the summary rows instead, so a reader never mixes
totals of one version with summary rows of another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

import duckdb
import pyarrow as pa
from mjaudit.parts.ingest import duck
from mjaudit.parts.ingest.store import DataDir, Part
from mjaudit.parts.schemas.tables import (
    GRAINS,
    SUMMARY_KEY,
    SUMMARY_TABLES,
    TOTALLED_AWAY,
    TOTALS_GRAIN,
    TOTALS_OF,
    TOTALS_TABLES,
)

KEY_NAMES = {f.name for f in SUMMARY_KEY}
MEMORY_LIMIT = "1GB"  # the group-by spills past this (the readers' limit too)
SQL_TYPES = {
    pa.int64(): "BIGINT",
    pa.float64(): "DOUBLE",
    pa.string(): "VARCHAR",
    pa.date32(): "DATE",
}


# Sums of doubles depend on the order DuckDB's threads add them in; a fixed-point sum
# does not, so the stored totals are the same bytes whatever the threads did. The
# summary's sums (points, fan) are far inside 12 digits before the point, and a value
# finer than 1e-6 (no ruleset pays one) would be rounded to it.
EXACT = "DECIMAL(18, 6)"


def source_digest(rels: Iterable[str]) -> str:
    """A digest of a summary table's committed files (their order does not matter)."""
    text = "\n".join(sorted(rels))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def summed_columns(summary: str) -> list[str]:
    """The columns of ``summary`` a total sums (its counts and sums); the rest but those
    its grain sums away are the total's key."""
    return [
        f.name
        for f in SUMMARY_TABLES[summary]
        if f.type in (pa.int64(), pa.float64()) and f.name not in KEY_NAMES
    ]


def total_sql(
    summary: str, source: str, away: tuple[str, ...] = TOTALLED_AWAY, exact: bool = False
) -> str:
    """SELECT of ``summary``'s rows in ``source`` (SQL of a relation) summed over the
    columns ``away`` (by default per player and ruleset), in the totals' columns but
    ``source``, sorted by their key; ``exact``: its sums of doubles left fixed point (a
    coarser total summed from it is then the one summed from the rows, bit for bit),
    unsorted."""
    summed = summed_columns(summary)
    cols, keys = [], []
    for f in SUMMARY_TABLES[summary]:
        if f.name in away:
            continue
        if f.name in summed:
            value = f'"{f.name}"' if f.type == pa.int64() else f'"{f.name}"::{EXACT}'
            kind = "DECIMAL(38, 6)" if exact and f.type != pa.int64() else SQL_TYPES[f.type]
            cols.append(f'sum({value})::{kind} AS "{f.name}"')
        else:
            cols.append(f'"{f.name}"')
            keys.append(f'"{f.name}"')
    key = ", ".join(keys)
    order = "" if exact else f" ORDER BY {key} NULLS LAST"  # exact: summed again, then sorted
    return f"SELECT {', '.join(cols)} FROM {source} GROUP BY {key}{order}"


def _read(root: Path, rels: list[str]) -> str:
    listing = ", ".join("'" + str(root / rel).replace("'", "''") + "'" for rel in rels)
    return f"read_parquet([{listing}], union_by_name=true, hive_partitioning=false)"


def totals_parts(data: DataDir, files: Mapping[str, list[str]], spill: Path) -> list[Part]:
    """The totals of the summary tables whose files (relative paths) a commit will hold
    are ``files`` (summary table -> its files), one Part per totals table; DuckDB sums
    them within MEMORY_LIMIT, spilling to ``spill``. Each summary's files are read once:
    where it has place totals, those, kept fixed point, are what its whole totals sum
    (exactly the sums of its rows, and a small share of them: 4% of player_games' rows
    at 10M hands)."""
    root = data.root.resolve()
    con = duck.connect(
        ":memory:", config={"temp_directory": str(spill), "memory_limit": MEMORY_LIMIT}
    )
    try:
        con.execute("SET TimeZone = 'UTC'")
        parts = []
        sources: dict[str, str] = {}  # summary -> what its totals are summed from
        placed = {s for n, s in TOTALS_OF.items() if TOTALS_GRAIN[n] == "place"}
        for name, summary in TOTALS_OF.items():
            schema = TOTALS_TABLES[name]
            rels = files.get(summary, [])
            if rels:
                if summary not in sources:
                    sources[summary] = _read(root, rels)
                    if summary in placed:  # the finest grain, from the files
                        place = total_sql(summary, sources[summary], GRAINS["place"], True)
                        con.execute(f'CREATE TEMP TABLE "place_{summary}" AS {place}')
                        sources[summary] = f'"place_{summary}"'
                away = GRAINS[TOTALS_GRAIN[name]]
                rows = con.sql(total_sql(summary, sources[summary], away)).to_arrow_table()
                digest = pa.array([source_digest(rels)] * rows.num_rows, pa.string())
                table = rows.append_column("source", digest).select(schema.names).cast(schema)
            else:
                table = schema.empty_table()
            parts.append(Part(name, table, stem="totals"))
        return parts
    finally:
        con.close()


def stored_totals(
    con: duckdb.DuckDBPyConnection,
    data: DataDir,
    manifest: dict | None = None,
    grain: str = "whole",
) -> dict[str, str]:
    """Summary table -> a SELECT of its stored totals of ``grain`` in the summary's own
    columns (those summed away NULL), for each summary table whose totals were summed
    from the files committed now; the others are absent (the reader sums the summary
    rows)."""
    manifest = manifest or data.manifest()
    tables = manifest["tables"]
    root = data.root.resolve()
    out: dict[str, str] = {}
    for name, summary in TOTALS_OF.items():
        if TOTALS_GRAIN[name] != grain:
            continue
        rels = tables.get(name, [])
        if not rels:
            continue
        source = _read(root, rels)
        found = con.execute(f"SELECT DISTINCT source FROM {source}").fetchall()
        if [r[0] for r in found] != [source_digest(tables.get(summary, []))]:
            continue  # stale, or empty (then its summary is empty or stale too)
        out[summary] = as_summary(summary, source, GRAINS[grain])
    return out


def as_summary(summary: str, source: str, away: tuple[str, ...] = TOTALLED_AWAY) -> str:
    """SELECT of the totals in ``source`` (SQL of a relation) in ``summary``'s columns,
    those a total sums away (``away``) NULL: queries of the summary table read it
    unchanged."""
    cols = [
        f'NULL::{SQL_TYPES[f.type]} AS "{f.name}"' if f.name in away else f'"{f.name}"'
        for f in SUMMARY_TABLES[summary]
    ]
    return f"SELECT {', '.join(cols)} FROM {source}"


def refresh_totals(data: DataDir) -> int | None:
    """Recompute and commit the totals if some are not those of the committed summary
    files (call under ``data.writing()``; the upgrade of an archive written before them):
    the new version, or None when all were."""
    manifest = data.manifest()
    tables = manifest["tables"]
    root = data.root.resolve()
    con = duck.connect()
    try:
        fresh = {
            (grain, summary)
            for grain in GRAINS
            for summary in stored_totals(con, data, manifest, grain)
        }

        def rows(table: str) -> int:
            rels = tables.get(table, [])
            if not rels:
                return 0
            return con.execute(f"SELECT count(*) FROM {_read(root, rels)}").fetchall()[0][0]

        # An empty total is fresh when its summary is empty too (it can carry no digest).
        if all(
            name in tables
            and ((TOTALS_GRAIN[name], summary) in fresh or rows(summary) == rows(name) == 0)
            for name, summary in TOTALS_OF.items()
        ):
            return None
    finally:
        con.close()
    files = {s: list(tables.get(s, [])) for s in TOTALS_OF.values()}
    parts = totals_parts(data, files, data.work_dir("totals"))
    old = [rel for name in TOTALS_OF for rel in tables.get(name, [])]
    return data.commit_parts(parts, remove=old)
