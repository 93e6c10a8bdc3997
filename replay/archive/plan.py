"""Which games a replay must redo, and in which chunks: the replay's bookkeeping, on disk.

A replay redoes the games whose hands changed since their replay rows were made, that have
no replay rows yet, or whose hands vanished. The plan never holds those games as Python
objects: at 10M hands its sets and lists of game ids were the replay's peak (about 250
bytes a game, some 13 MB per million hands). A DuckDB query finds the stale games and
writes them to the work area, one sorted file per bucket, within PLAN_MEMORY; their
versions (which files hold their rows) are located LOCATE_GAMES games at a time; chunks
are read back from disk as the tasks are sent. Each step's memory is bounded by its
limit or batch, not by the archive.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from mjaudit.parts.ingest import duck
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.summary import missing_summaries
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import REGISTRY
from mjaudit.parts.replay.rulesets.american.card import cards_digest

N_BUCKETS = 8
PLAN_MEMORY = "1GB"  # DuckDB's limit for the plan's join and sorts (it spills past it)
LOCATE_GAMES = 1_000_000  # stale games whose versions one scan of the hands finds (~120 MB)
LOCATE_BYTES = 192 * 2**20  # hands files scanned at once to locate games (~1.2M hands)
STALE_ROW_GROUP = 10_000  # games per row group of a bucket's stale file
CHUNK_GAMES = 200  # games read and replayed by one task (bounds a worker's memory)
NOT_FOUND = np.iinfo(np.uint32).max  # a stale game's first version when it has no hands
HAND_TABLES = ("hands", "seats", "events", "recorded_results")

# A chunk: its games, and for each hand table the files holding their rows.
Chunk = tuple[list[str], dict[str, list[Path]]]


def bucket_of(game_id: str) -> int:
    return hashlib.blake2b(game_id.encode(), digest_size=4).digest()[0] % N_BUCKETS


def done_hash(content_hash: str, ruleset: str, cards: str) -> str:
    """The hash a replayed hand is stored under: its content hash, and for a ruleset whose
    replay reads the data folder's cards (american) also the cards, so adding or changing
    a card replays those hands."""
    spec = registry.get(ruleset)
    if spec is None or not spec.uses_cards or not cards:
        return content_hash
    return _with_cards(content_hash, cards)


def _with_cards(content_hash: str, cards: str) -> str:
    return hashlib.blake2b(f"{content_hash}:{cards}".encode(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Plan:
    """The games to replay, by bucket, in files of the work area (valid while the writer
    holds the data folder's lock: the work area is cleared when it lets go)."""

    folder: Path
    hands: int  # hands in the archive
    stale: int  # stale hands (changed, new or vanished)
    unsupported: int  # hands of a ruleset without an engine
    games: dict[int, int]  # bucket -> its stale games (buckets without any are absent)

    def stale_file(self, bucket: int) -> Path | None:
        """The bucket's stale games (one column, game_id, sorted), or None: it has none."""
        return _stale_path(self.folder, bucket) if bucket in self.games else None

    def stale_files(self) -> list[Path]:
        return [_stale_path(self.folder, b) for b in sorted(self.games)]


def _stale_path(folder: Path, bucket: int) -> Path:
    return folder / f"stale-{bucket:02d}.parquet"


def stale_games(path: str | Path | None) -> pl.LazyFrame:
    """A bucket's stale games (:meth:`Plan.stale_file`), as a frame to join on."""
    if path is None:
        return pl.LazyFrame({"game_id": []}, schema={"game_id": pl.String})
    return pl.scan_parquet(path)


def plan(data: DataDir) -> Plan:
    """Which games of which buckets need replaying (call under :meth:`DataDir.writing`).

    A hand is stale when its replay rows were made from other content (or none), and a
    game whose replay rows have no hand any more is stale too. One DuckDB query finds
    them (a join of the hands and the replay rows on the key, within PLAN_MEMORY, spilling
    to the work area), and one per bucket writes its games sorted: the library joins and
    sorts out of core, so the plan holds no game in Python (at 1M hands 1.4 s against 2.8
    s for polars joins of key hashes in passes of 1M hands and a sort a range at a time).
    """
    work = data.work_dir("plan")
    con = duck.connect(
        config={"memory_limit": PLAN_MEMORY, "temp_directory": str(work / "spill"), "threads": 2}
    )
    try:
        con.create_function(
            "mj_bucket",
            _buckets,
            [duckdb.sqltype("VARCHAR")],
            duckdb.sqltype("UTINYINT"),
            type="arrow",
        )
        hands, done = _sources(data, con)
        per_ruleset = con.execute(f"SELECT ruleset, count(*) FROM {hands} GROUP BY ruleset")
        rulesets = per_ruleset.fetchall()
        n_hands = sum(n for _, n in rulesets)
        unsupported = sum(n for r, n in rulesets if r is not None and r not in REGISTRY)
        con.execute(
            f"""CREATE TEMP TABLE found AS
            WITH h AS (SELECT game_id, hand_no, content_hash FROM {hands}),
                 d AS (SELECT game_id, hand_no, content_hash FROM {done}),
                 stale AS (
                     SELECT h.game_id FROM h LEFT JOIN d
                         ON h.game_id = d.game_id AND h.hand_no = d.hand_no
                     WHERE d.game_id IS NULL OR d.content_hash IS DISTINCT FROM h.content_hash
                     UNION ALL
                     SELECT d.game_id FROM d ANTI JOIN h
                         ON h.game_id = d.game_id AND h.hand_no = d.hand_no)
            SELECT game_id, mj_bucket(game_id) AS bucket, count(*) AS hands
            FROM stale GROUP BY game_id"""
        )
        per_bucket = con.execute(
            "SELECT bucket, count(*), sum(hands) FROM found GROUP BY bucket ORDER BY bucket"
        ).fetchall()
        counts = {int(b): int(games) for b, games, _ in per_bucket}
        for b in counts:
            out = str(_stale_path(work, b)).replace("'", "''")
            con.execute(
                f"COPY (SELECT game_id FROM found WHERE bucket = {b} ORDER BY game_id) "
                f"TO '{out}' (FORMAT parquet, ROW_GROUP_SIZE {STALE_ROW_GROUP})"
            )
    finally:
        con.close()
    n_stale = sum(int(n) for _, _, n in per_bucket)
    return Plan(work, n_hands, n_stale, unsupported, counts)


def _buckets(games: pa.Array) -> pa.Array:
    """:func:`bucket_of` of each game (DuckDB calls it with a vector of game ids)."""
    return pa.array([bucket_of(g) for g in games.to_pylist()], pa.uint8())


def _sources(data: DataDir, con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    """The plan's two inputs as SQL: the stored hands (``game_id``, ``hand_no``,
    ``ruleset``, and the hash their replay rows must carry, see :func:`done_hash`) and
    the replay rows that count as replayed (:func:`_done`)."""
    manifest = data.manifest()
    cards = cards_digest(data.root)
    # (every folder is imported to ask it: only when the data folder has card files)
    with_cards = [rid for rid, r in registry.RULESETS.items() if r.uses_cards] if cards else []
    content = "content_hash"
    if cards and with_cards:  # only these hands are keyed on the cards (done_hash)
        con.create_function(
            "mj_with_cards",
            lambda hashes: pa.array([_with_cards(h, cards) for h in hashes.to_pylist()]),
            [duckdb.sqltype("VARCHAR")],
            duckdb.sqltype("VARCHAR"),
            type="arrow",
        )
        listed = ", ".join("'" + rid.replace("'", "''") + "'" for rid in with_cards)
        content = (
            f"CASE WHEN ruleset IN ({listed}) THEN mj_with_cards(content_hash) "
            "ELSE content_hash END"
        )
    # Cast as the key hashes did: a hand and its replay rows match whatever type a
    # file's game_id was read as.
    hands = _select(
        data,
        "hands",
        manifest["tables"].get("hands", []),
        manifest,
        f"game_id::VARCHAR AS game_id, hand_no, ruleset, {content} AS content_hash",
    )
    done = _select(
        data,
        "hand_results",
        _done(data),
        manifest,
        "game_id::VARCHAR AS game_id, hand_no, content_hash",
    )
    return hands, done


def _select(data: DataDir, table: str, rels: list[str], manifest: dict, columns: str) -> str:
    """``(SELECT columns FROM table's files rels)``; with no file, the same columns empty."""
    if not rels:
        return (
            "(SELECT NULL::VARCHAR AS game_id, NULL::INTEGER AS hand_no, NULL::VARCHAR AS "
            "ruleset, NULL::VARCHAR AS content_hash WHERE false)"
        )
    return f"(SELECT {columns} FROM {data.parquet_sql(table, rels, manifest)})"


def _done(data: DataDir) -> list[str]:
    """The hand_results files whose rows count as replayed: those of buckets replayed
    before the summary tables existed do not, so their games are replayed again and the
    summaries written (the upgrade of such an archive)."""
    manifest = data.manifest()
    missing = set(missing_summaries(manifest))
    return [rel for rel in manifest["tables"].get("hand_results", []) if rel not in missing]


def _version(path: Path) -> str:
    """``.../part-00000012.parquet`` -> ``00000012``: the commit that wrote the file, and
    the batch within it (``part.000003-00000012`` -> ``00000012.000003``): an ingest
    commit holds several batches, and a chunk reads only its batches' files. Sorted, these
    keys are in commit and batch order."""
    stem, _, version = path.stem.rpartition("-")
    return f"{version}.{stem[5:]}" if stem.startswith("part.") else version


def chunks(data: DataDir, stale: list[Path], folder: Path) -> tuple[int, Iterator[Chunk]]:
    """The games of the ``stale`` files (game_id columns) in chunks of consecutive ingest
    commits, each with the files of its rows: (number of chunks, the chunks).

    A commit writes a hand's rows in all four tables under the same version number (an
    ingest commit, or a compaction) and, for an ingest commit's batches, the same stem, so
    the files of a chunk are the files of the versions (and batches) its hands files
    carry. Ordering games by version and reading only those files keeps
    the replay of an archive linear in its size, instead of scanning every file per chunk.
    The games' versions are found LOCATE_GAMES games at a time (each group a scan of the
    hands files' game ids), each group written to ``folder`` in (first version, game_id)
    order; the chunks are read back merging the groups, so only a few are in memory.
    """
    files = {name: data.files(name) for name in HAND_TABLES}
    by_version: dict[str, dict[str, list[Path]]] = {name: {} for name in files}
    for name, fs in files.items():
        for f in fs:
            by_version[name].setdefault(_version(f), []).append(f)
    order = sorted(by_version["hands"])
    located: list[Path] = []
    n_games = 0
    for group in _groups(stale):
        path = folder / f"located-{len(located):05d}.parquet"
        n = _locate(files["hands"], order, group, path)
        if n:
            located.append(path)
            n_games += n

    def read() -> Iterator[Chunk]:
        rows = heapq.merge(*(_rows(path) for path in located))
        while batch := list(islice(rows, CHUNK_GAMES)):
            versions = sorted({v for first, _, others in batch for v in (first, *(others or ()))})
            yield (
                [game for _, game, _ in batch],
                {n: [f for v in versions for f in by_version[n].get(order[v], [])] for n in files},
            )

    return -(-n_games // CHUNK_GAMES), read()


Slice = tuple[Path, int, int]  # rows [offset, offset + length) of a stale file


def _groups(stale: list[Path]) -> Iterator[list[Slice]]:
    """The stale files' games, LOCATE_GAMES at a time (slices of consecutive files)."""
    group: list[Slice] = []
    n = 0
    for path in stale:
        rows = pq.read_metadata(path).num_rows
        offset = 0
        while offset < rows:
            k = min(rows - offset, LOCATE_GAMES - n)
            group.append((path, offset, k))
            offset += k
            n += k
            if n == LOCATE_GAMES:
                yield group
                group, n = [], 0
    if group:
        yield group


def _locate(hands_files: list[Path], order: list[str], stale: list[Slice], out: Path) -> int:
    """Write the ``stale`` games found in ``hands_files`` with their first version and any
    others (as indexes in ``order``), sorted by (first, game_id): the number of games
    written. A game in no hands file (its hands vanished) has nothing to replay.

    Games become their index in game_id order, versions theirs in version order, so that
    the grouping is on integers (at 10M hands a set of versions per game in Python took
    300 MB, a polars group_by on game_id 140 MB). The games are found by a join, not
    is_in over a list inside the scan (4 s at 1M hands, the join 0.02 s); a scan's
    file-path column costs a string per row, and its distinct (game, file) pairs are
    every game of the files, so the files are scanned LOCATE_BYTES at a time (about 500
    ingest files, or a few compacted ones).
    """
    if not hands_files:
        return 0
    index = {v: i for i, v in enumerate(order)}
    version_of = pl.DataFrame(
        {"_path": [str(f) for f in hands_files], "v": [index[_version(f)] for f in hands_files]},
        schema={"_path": pl.String, "v": pl.UInt32},
    )
    wanted = (
        pl.concat([pl.scan_parquet(path).slice(offset, k) for path, offset, k in stale])
        .unique()
        .sort("game_id")
        .with_row_index("g")
        .collect()
    )
    found = pl.concat(
        (
            pl.scan_parquet(batch, glob=False, include_file_paths="_path")
            .select("game_id", "_path")
            .unique()
            .join(wanted.lazy(), on="game_id")
            .select("g", "_path")
            .join(version_of.lazy(), on="_path")
            .select("g", "v")
            .collect()
            for batch in _by_size(hands_files, LOCATE_BYTES)
        ),
        rechunk=False,
    )
    # A game's first version (from a dense array: a polars group_by over the games took
    # 60 MB at 10M hands), and only for the rare game in several commits its others.
    g, v = found["g"].to_numpy(), found["v"].to_numpy()
    first = np.full(len(wanted), NOT_FOUND, dtype=np.uint32)
    np.minimum.at(first, g, v)
    others = (
        found.filter(pl.Series(v != first[g])).group_by("g").agg(pl.col("v").sort().alias("others"))
    )
    del found, g, v
    games = (
        wanted.with_columns(first=pl.Series(first))
        .filter(pl.col("first") != NOT_FOUND)
        .join(others, on="g", how="left")
        .sort("first", "game_id")
        .select("first", "game_id", "others")
    )
    if not len(games):
        return 0
    games.write_parquet(out, row_group_size=CHUNK_GAMES * 64)
    return len(games)


def _by_size(files: list[Path], limit: int) -> Iterator[list[Path]]:
    """Consecutive files of at most ``limit`` bytes together (a bigger file alone)."""
    batch: list[Path] = []
    n = 0
    for path in files:
        size = path.stat().st_size
        if batch and n + size > limit:
            yield batch
            batch, n = [], 0
        batch.append(path)
        n += size
    if batch:
        yield batch


def _rows(path: Path) -> Iterator[tuple[int, str, list[int] | None]]:
    """(first version, game_id, other versions) of a located file, in its order, a batch at
    a time."""
    for batch in pq.ParquetFile(path).iter_batches(batch_size=CHUNK_GAMES * 16):
        yield from zip(
            batch.column("first").to_pylist(),
            batch.column("game_id").to_pylist(),
            batch.column("others").to_pylist(),
            strict=True,
        )
