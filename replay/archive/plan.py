"""Which games a replay must redo, and in which chunks: the replay's bookkeeping, on disk.

A replay redoes the games whose hands changed since their replay rows were made, that have
no replay rows yet, or whose hands vanished. The plan never holds those games as Python
objects: at 10M hands its sets and lists of game ids were the replay's peak (about 250
bytes a game, some 13 MB per million hands). The stale games go to the work area, one
sorted file per bucket; their versions (which files hold their rows) are located
LOCATE_GAMES games at a time; chunks are read back from disk as the tasks are sent. Each
step's memory is bounded by its batch (PLAN_HANDS_PER_PASS hands, SORT_GAMES and
LOCATE_GAMES games), not by the archive.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
from mjaudit.parts.ingest.key_index import CONTENT_HASHES, KEY_HASHES
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.ranges import in_range, ranges_of
from mjaudit.parts.replay.archive.summary import missing_summaries
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.run import REGISTRY
from mjaudit.parts.replay.rulesets.american.card import cards_digest

N_BUCKETS = 8
PLAN_HANDS_PER_PASS = 1_000_000  # hands whose keys one pass of plan() joins (~150 MB)
LOCATE_GAMES = 1_000_000  # stale games whose versions one scan of the hands finds (~120 MB)
LOCATE_BYTES = 192 * 2**20  # hands files scanned at once to locate games (~1.2M hands)
SORT_GAMES = 1_000_000  # stale games of a bucket sorted in memory at once (~120 MB)
SAMPLE_GAMES = 100_000  # games of a bucket counted to cut it into ranges of SORT_GAMES
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
    game whose replay rows have no hand any more is stale too. Hands are compared by
    128-bit hashes of their key and content, streamed from the files, so a pass holds 32
    bytes per hand, not the strings (at 1M hands 662 MB before).
    """
    hands = data.scan("hands").select("game_id", "hand_no", "ruleset", "content_hash")
    cards = cards_digest(data.root)
    with_cards = [rid for rid, r in registry.RULESETS.items() if r.uses_cards]
    if cards and with_cards:  # only these hands are keyed on the cards (done_hash)
        keyed = pl.col("ruleset").is_in(with_cards)
        rehash = pl.col("content_hash").map_elements(
            lambda h: _with_cards(h, cards), return_dtype=pl.String
        )
        hands = pl.concat([hands.filter(~keyed), hands.filter(keyed).with_columns(rehash)])
    stored = hands.select("game_id", "ruleset", *KEY_HASHES, *CONTENT_HASHES)
    done = _done(data).select("game_id", *KEY_HASHES, *CONTENT_HASHES)
    totals = stored.select(
        pl.len().alias("hands"),
        pl.col("ruleset").is_in(list(REGISTRY)).not_().sum().alias("unsupported"),
    ).collect(engine="streaming")
    n_hands = int(totals["hands"][0])
    work = data.work_dir("plan")
    # The joins hold their keys in memory (~150 bytes a hand): a large archive is planned
    # in passes, each over the games whose hash falls in its share (a game is in one pass
    # only, so its stale hands are found together), reading from a copy written once to
    # the work area (not every file of both tables each pass).
    passes = max(1, -(-n_hands // PLAN_HANDS_PER_PASS))
    if passes > 1:
        # Cast as the key hashes do, so a hand and its replay rows share a pass whatever
        # type a file's game_id was read as.
        share = (pl.col("game_id").cast(pl.String).hash() % passes).alias("share")
        stored.with_columns(share).sink_parquet(work / "hands.parquet")
        done.with_columns(share).sink_parquet(work / "done.parquet")
        stored, done = (
            pl.scan_parquet(work / "hands.parquet"),
            pl.scan_parquet(work / "done.parquet"),
        )
    n_stale = 0
    found_files: list[Path] = []
    per_bucket = np.zeros(N_BUCKETS, dtype=np.int64)
    for p in range(passes):
        mine, theirs = stored, done
        if passes > 1:
            mine, theirs = stored.filter(pl.col("share") == p), done.filter(pl.col("share") == p)
        changed = (
            mine.join(theirs.drop("game_id"), on=["k1", "k2"], how="left", suffix="_done")
            .filter(
                pl.col("c1_done").is_null()
                | (pl.col("c1") != pl.col("c1_done"))
                | (pl.col("c2") != pl.col("c2_done"))
            )
            .select("game_id")
        )
        gone = theirs.join(mine.select("k1", "k2"), on=["k1", "k2"], how="anti")
        found = []
        for stale in (changed, gone.select("game_id")):  # one at a time: memory is the max
            games = stale.collect(engine="streaming")["game_id"]
            n_stale += len(games)
            found.append(games.unique())
        games = pl.concat(found).unique()
        if len(games):
            buckets = pl.Series("bucket", [bucket_of(g) for g in games], dtype=pl.UInt8)
            per_bucket += np.bincount(buckets.to_numpy(), minlength=N_BUCKETS)
            path = work / f"found-{p:06d}.parquet"
            pl.DataFrame([games, buckets]).write_parquet(path)
            found_files.append(path)
    counts = {b: int(n) for b, n in enumerate(per_bucket) if n}
    for b, n in counts.items():
        _write_sorted(
            pl.scan_parquet(found_files).filter(pl.col("bucket") == b).select("game_id"),
            n,
            _stale_path(work, b),
        )
    for path in found_files:
        path.unlink()
    return Plan(work, n_hands, n_stale, int(totals["unsupported"][0]), counts)


def _done(data: DataDir) -> pl.LazyFrame:
    """The hand_results rows that count as replayed: those of buckets replayed before the
    summary tables existed do not, so their games are replayed again and the summaries
    written (the upgrade of such an archive)."""
    missing = set(missing_summaries(data.manifest()))
    if not missing:
        return data.scan("hand_results")
    files = [data.root / rel for rel in data.manifest()["tables"]["hand_results"]]
    kept = [f for f in files if f.relative_to(data.root).as_posix() not in missing]
    if not kept:
        return pl.LazyFrame(schema=data.scan("hand_results").collect_schema())
    return pl.scan_parquet(kept, glob=False)


def _write_sorted(games: pl.LazyFrame, n: int, out: Path) -> None:
    """Write the ``n`` ``games`` (distinct) sorted, SORT_GAMES at a time, in row groups
    small enough that a bucket task reads only those of its range of games."""
    writer: pq.ParquetWriter | None = None
    try:
        for span in ranges_of(games, SORT_GAMES, sample=SAMPLE_GAMES, total=n):
            part = in_range(games, span).collect().sort("game_id").to_arrow()
            if writer is None:
                writer = pq.ParquetWriter(out, part.schema)
            writer.write_table(part, row_group_size=STALE_ROW_GROUP)
    finally:
        if writer is not None:
            writer.close()


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
