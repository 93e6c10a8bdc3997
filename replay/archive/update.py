"""``mjaudit replay``: replay every ingested hand into the findings/scores/hand_results/fans tables.

Games are split into a fixed number of buckets by a stable hash of ``game_id``; each bucket
is one output file per table and ruleset, ``TABLE/ruleset=<id>/bucket-NN-<version>.parquet``,
rows sorted by (game_id, hand_no, ...), so a reader of some rulesets skips the other
folders (:mod:`ingest.partitions`). A bucket is the unit of incremental re-runs: only
buckets holding a new or changed hand are rewritten, and in those only the changed games
are replayed (the rows of the others are carried over).

The work is two lists of tasks for worker processes (spawned: polars and fork deadlock) or
Dask: chunks of stale games in ingest-commit order, across buckets, so each ingest file is
read about once (:func:`replay_chunk`), then one task per touched bucket that writes its
files (:func:`finish_bucket`). The output therefore depends only on the ingested hands,
never on worker count, task order, file order or history.
"""

from __future__ import annotations

import gc
import multiprocessing
import shutil
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from mjaudit.parts.ingest import duck
from mjaudit.parts.ingest.store import ROW_GROUP_ROWS, WORK, DataDir, Part, PartWriter
from mjaudit.parts.replay.archive.plan import (
    HAND_TABLES,
    bucket_of,
    chunks,
    done_hash,
    plan,
    stale_games,
)
from mjaudit.parts.replay.archive.ranges import GameRange, in_range, ranges_of
from mjaudit.parts.replay.archive.summary import ACROSS_BUCKET, summary_tables
from mjaudit.parts.replay.archive.summary import SORT as SUMMARY_SORT
from mjaudit.parts.replay.archive.totals import refresh_totals, totals_parts
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR, SERIOUS, HandReport
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.rulesets.american.card import cards_digest, register_folder
from mjaudit.parts.schemas.rows import records_from_tables
from mjaudit.parts.schemas.tables import (
    HAND_REPLAY_TABLES,
    REPLAY_TABLES,
    RIICHI_SEAT_FACTS,
    TOTALS_OF,
)

FRESH_WORKERS_HANDS = 500_000  # archives above this write buckets in fresh workers
RANGE_HANDS = 20_000  # hands of a bucket sorted in memory at once by a bucket task
SPLIT_ROWS = 50_000  # spilled rows a bucket task cuts by game range at once
KEY = ["game_id", "hand_no"]
_SORT = {
    "findings": ["game_id", "hand_no", "seq"],
    "scores": ["game_id", "hand_no", "seat"],
    "hand_results": ["game_id", "hand_no"],
    "fans": ["game_id", "hand_no", "seat", "pattern", "fan"],  # unique: tasks end in any order
    **SUMMARY_SORT,
}


class Fresh(dict[int, dict[str, pa.Table]]):
    """A chunk's replayed rows: bucket -> table -> rows.

    Sent from a worker to the client as Arrow IPC streams: Arrow's own pickling of a
    chunk's hundred small tables cost 24 ms against 2 ms to write them as IPC (and 7 ms
    against 0.9 to read them back), about 5% of a 10M-hand replay's CPU."""

    def __reduce__(self) -> tuple[Any, ...]:
        streams = {b: {name: _ipc(t) for name, t in tables.items()} for b, tables in self.items()}
        return (_fresh_from_ipc, (streams,))


def _ipc(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def _fresh_from_ipc(streams: dict[int, dict[str, bytes]]) -> Fresh:
    return Fresh(
        {
            b: {name: pa.ipc.open_stream(data).read_all() for name, data in tables.items()}
            for b, tables in streams.items()
        }
    )


@dataclass
class ReplaySummary:
    hands: int = 0
    replayed: int = 0
    unchanged: int = 0
    not_supported: int = 0
    buckets: int = 0
    findings_by_class: dict[str, int] = field(default_factory=dict)
    engine_errors: int = 0  # hands the engine failed on (ENGINE_ERROR findings, all stored)


class ReportColumns:
    """The replay tables' rows of many hand reports, kept column by column.

    Appending each value to its column and building each Arrow array from one list costs
    about half of making a dict per row and letting ``pa.Table.from_pylist`` take it apart
    again; the tables are the same.
    """

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in HAND_REPLAY_TABLES.items()
        }

    def add(self, rep: HandReport, content_hash: str) -> None:
        """Append the output rows of one hand report."""
        game_id, hand_no, ruleset, players = rep.game_id, rep.hand_no, rep.ruleset, rep.players
        findings = rep.findings
        k = len(findings)
        if k:
            c = self.columns["findings"]
            c["game_id"] += [game_id] * k
            c["hand_no"] += [hand_no] * k
            c["ruleset"] += [ruleset] * k
            c["seq"] += range(k)
            c["event_index"] += [f.event_index for f in findings]
            c["seat"] += [f.seat for f in findings]
            c["player"] += [players[f.seat] if f.seat is not None else None for f in findings]
            c["code"] += [f.code for f in findings]
            c["reason"] += [f.reason for f in findings]
            c["class"] += [f.cls.value for f in findings]
            c["message"] += [f.message for f in findings]
        n = len(players)
        winners = set(rep.winners)
        deltas, discarder, liable = rep.deltas, rep.discarder, rep.liable
        c = self.columns["scores"]
        c["game_id"] += [game_id] * n
        c["hand_no"] += [hand_no] * n
        c["seat"] += range(n)
        c["player"] += players
        c["delta"] += [deltas[s] for s in range(n)] if deltas is not None else [None] * n
        c["is_winner"] += [s in winners for s in range(n)]
        c["is_discarder"] += [discarder == s for s in range(n)]
        c["is_liable"] += [liable == s for s in range(n)]
        facts = rep.extras.get("seat_facts")  # a ruleset's own columns (riichi's)
        for name in RIICHI_SEAT_FACTS:
            c[name] += facts[name] if facts is not None else [None] * n
        c = self.columns["hand_results"]
        c["game_id"].append(game_id)
        c["hand_no"].append(hand_no)
        c["ruleset"].append(ruleset)
        c["content_hash"].append(content_hash)
        c["ended_by"].append(rep.ended_by)
        c["winners"].append(list(rep.winners))
        c["self_drawn"].append(rep.self_drawn)
        c["discarder"].append(discarder)
        c["fan"].append(rep.fan)
        c["raw_fan"].append(rep.raw_fan)
        c["is_limit"].append(rep.extras.get("is_limit"))
        c["liable"].append(liable)
        c["matches_recorded"].append(rep.matches_recorded)
        c["n_findings"].append(k)
        c["n_serious"].append(sum(1 for f in findings if f.cls in SERIOUS))
        m = len(rep.winners) * len(rep.patterns)
        if m:
            c = self.columns["fans"]
            c["game_id"] += [game_id] * m
            c["hand_no"] += [hand_no] * m
            c["ruleset"] += [ruleset] * m
            for w in rep.winners:
                for p, f in rep.patterns:
                    c["seat"].append(w)
                    c["player"].append(players[w])
                    c["pattern"].append(p)
                    c["fan"].append(f)

    def tables(self) -> dict[str, pa.Table]:
        return {
            name: pa.Table.from_arrays(
                [pa.array(self.columns[name][f.name], type=f.type) for f in schema], schema=schema
            )
            for name, schema in HAND_REPLAY_TABLES.items()
        }


def _read_games(
    data: DataDir, games: list[str], files: dict[str, list[Path]]
) -> dict[str, pl.DataFrame]:
    """The rows of ``games``, as polars frames (records_from_tables reads them directly:
    converting them to Arrow cost a tenth of the replay)."""
    out = {}
    for name in HAND_TABLES:
        if files[name]:
            frame = pl.scan_parquet(files[name], glob=False).filter(pl.col("game_id").is_in(games))
            out[name] = frame.collect()
        else:
            out[name] = pl.DataFrame(data.schemas[name].empty_table())
    return out


_registered: set[tuple[str, str]] = set()


def replay_chunk(root: str, games: list[str], files: dict[str, list[str]], cards: str) -> Fresh:
    """Replay ``games`` (their rows are in ``files``): the output rows, split by bucket.

    A worker's task. A chunk holds the games of a few consecutive ingest commits, of every
    bucket, so each ingest file is decoded about once in a whole replay (a chunk per
    bucket decoded each file once per bucket: four times the reading).
    """
    data = DataDir(root)
    if (root, cards) not in _registered:  # the clubs' american cards (mjaudit card add)
        register_folder(root)
        _registered.add((root, cards))
    tables = _read_games(data, games, {n: [Path(f) for f in fs] for n, fs in files.items()})
    hands = tables["hands"]
    hashes = dict(
        zip(
            zip(hands["game_id"].to_list(), hands["hand_no"].to_list(), strict=True),
            hands["content_hash"].to_list(),
            strict=True,
        )
    )
    buckets = {g: bucket_of(g) for g in games}
    rows: dict[int, ReportColumns] = {}
    with _gc_paused():
        for rep in replay_games(records_from_tables(tables, lazy_events=True)):
            done = done_hash(hashes[(rep.game_id, rep.hand_no)], rep.ruleset, cards)
            b = buckets[rep.game_id]
            if b not in rows:
                rows[b] = ReportColumns()
            rows[b].add(rep, done)
    out = Fresh()
    for b in sorted(rows):
        tables = rows[b].tables()
        out[b] = {**tables, **summary_tables(hands, tables)}
    return out


@dataclass(frozen=True)
class _BucketSources:
    """Where the rows of a bucket's new output come from: its stored files (whose rows of
    ``stale`` games are dropped) and the spilled rows replayed for those games."""

    files: dict[str, list[Path]]  # table -> the bucket's committed files
    fresh: dict[str, list[str]]  # table -> Arrow IPC files (see :class:`_Spill`)
    stale: pl.LazyFrame  # game_id of the games replayed again

    @classmethod
    def of(
        cls, data: DataDir, bucket: int, stale: str | None, fresh: dict[str, list[str]]
    ) -> _BucketSources:
        prefix = f"bucket-{bucket:02d}-"
        manifest = data.manifest()["tables"]  # read once: workers do not hold the lock
        files = {
            name: [
                data.root / rel
                for rel in manifest.get(name, [])
                if Path(rel).name.startswith(prefix)
            ]
            for name in REPLAY_TABLES
        }
        return cls(files, fresh, stale_games(stale))

    def split(self, spans: list[GameRange], folder: Path) -> list[_BucketSources]:
        """One per span, whose spilled rows are that span's only (written to ``folder``):
        the spill is read once, not once per range (one bucket of a 10M-hand archive, 13
        ranges: 4.5 s and 743 MB reading the whole spill per range, 2.7 s and 547 MB so)."""
        if len(spans) == 1 or not any(self.fresh.values()):
            return [_BucketSources(self.files, self.fresh, in_range(self.stale, s)) for s in spans]
        folder.mkdir(parents=True, exist_ok=True)
        cuts = pl.Series([first for first, _ in spans[1:]], dtype=pl.String)
        fresh: list[dict[str, list[str]]] = [{} for _ in spans]
        for name, paths in self.fresh.items():
            writers: dict[int, pa.ipc.RecordBatchFileWriter] = {}
            for path in paths:
                for table in _ipc_tables(path, SPLIT_ROWS):
                    rows = pl.from_arrow(table)
                    assert isinstance(rows, pl.DataFrame)
                    game = rows["game_id"]
                    where = pl.select(  # a row without a game_id goes to the last span
                        pl.when(game.is_null())
                        .then(len(spans) - 1)
                        .otherwise(cuts.search_sorted(game, side="right"))
                    ).to_series()
                    for (i,), part in (
                        rows.with_columns(_span=where).partition_by("_span", as_dict=True).items()
                    ):
                        piece = part.drop("_span").to_arrow()
                        writer = writers.get(i)
                        if writer is None:
                            out = folder / f"{name}-{i:05d}.arrow"
                            writer = writers[i] = pa.ipc.new_file(out, piece.schema)
                            fresh[i][name] = [str(out)]
                        writer.write_table(piece)
            for writer in writers.values():
                writer.close()
        return [
            _BucketSources(self.files, part, in_range(self.stale, span))
            for part, span in zip(fresh, spans, strict=True)
        ]

    def rows_at_most(self, name: str) -> int:
        """The number of rows of :meth:`rows` before the stale games' are dropped, from the
        files' metadata: a bound that costs no read of the rows."""
        frames = [pl.scan_ipc(path) for path in self.fresh.get(name, [])]
        frames += [pl.scan_parquet(self.files[name], glob=False)] if self.files[name] else []
        return sum(frame.select(pl.len()).collect().item() for frame in frames)

    def rows(self, name: str) -> pl.LazyFrame:
        """Every row of the table's new output for this bucket, unsorted."""
        frames = [pl.scan_ipc(path) for path in self.fresh.get(name, [])]
        if self.files[name]:
            # An anti-join, not is_in over a list of every stale game (seconds per scan).
            stored = pl.scan_parquet(self.files[name], glob=False)
            frames.insert(0, stored.join(self.stale, on="game_id", how="anti"))
        if not frames:
            return pl.LazyFrame(REPLAY_TABLES[name].empty_table())
        # diagonal: a file written before a column was added has it as nulls.
        return pl.concat(frames, how="diagonal_relaxed")


def _ipc_tables(path: str, rows: int) -> Iterator[pa.Table]:
    """An Arrow IPC file's batches joined into tables of about ``rows`` rows: the spill's
    batches are one chunk's rows each (a few hundred hands), and the work done per batch
    would cost more than the rows. Read, not memory-mapped: the mapped pages of a whole
    spill file stayed resident until it was closed (a 10M bucket task: 497 -> 243 MB)."""
    with pa.OSFile(path) as source:
        reader = pa.ipc.open_file(source)
        group: list[pa.RecordBatch] = []
        n = 0
        for k in range(reader.num_record_batches):
            group.append(reader.get_batch(k))
            n += group[-1].num_rows
            if n >= rows:
                yield pa.Table.from_batches(group, reader.schema)
                group, n = [], 0
        if group:
            yield pa.Table.from_batches(group, reader.schema)


def bucket_table(
    data: DataDir,
    bucket: int,
    name: str,
    stale: str | None = None,
    fresh: Sequence[str] = (),
    span: GameRange = (None, None),
    sources: _BucketSources | None = None,
) -> pa.Table:
    """The rows of one table of the bucket's new output whose game is in ``span`` (default
    all), in key order: its stored rows without the games in the ``stale`` file
    (:meth:`replay.plan.Plan.stale_file`), plus the rows replayed for them (``fresh``)."""
    if sources is None:
        sources = _BucketSources.of(data, bucket, stale, {name: list(fresh)})
    rows = in_range(sources.rows(name), span).collect()
    return rows.sort(_SORT[name], nulls_last=True).to_arrow().cast(REPLAY_TABLES[name])


def finish_bucket(
    root: str, bucket: int, stale: str | None, fresh: dict[str, list[str]]
) -> list[tuple[str, str]]:
    """Write the bucket's new files (one per table and ruleset), uncommitted: a worker's
    task after every chunk is replayed. Returns the files written (``stage_parts``).

    The rows are sorted and written a range of games at a time (about RANGE_HANDS
    hands, :func:`replay.ranges.ranges_of`), each file row group by row group: a bucket
    of a 10M-hand archive holds 5M score rows, and sorting a whole table of it in memory
    took 1.7 GB. The files' bytes do not depend on the ranges
    (:class:`ingest.store.PartWriter`). The ACROSS_BUCKET summaries (in an order other
    than the game's; a few rows per sitting) are gathered over the ranges and sorted once,
    so their files are in that order across the whole bucket."""
    data = DataDir(root)
    version = data.manifest()["version"] + 1
    sources = _BucketSources.of(data, bucket, stale, fresh)
    # Beside the spill, in the work area; unique, as a retried Dask task may still run.
    spill = next((Path(paths[0]).parent for paths in fresh.values() if paths), data.root / WORK)
    ranges = spill / f"bucket-{bucket:02d}-ranges-{uuid.uuid4().hex}"
    writers: dict[tuple[str, str], PartWriter] = {}
    gathered: dict[tuple[str, str], tuple[Path, pq.ParquetWriter]] = {}

    def writer_of(name: str, folder: str) -> PartWriter:
        writer = writers.get((name, folder))
        if writer is None:
            writer = writers[(name, folder)] = data.part_writer(
                name, f"bucket-{bucket:02d}", folder, version
            )
        return writer

    try:
        hand_rows = sources.rows("hand_results").select("game_id")
        spans = ranges_of(hand_rows, RANGE_HANDS, total=sources.rows_at_most("hand_results"))
        for span, span_sources in zip(spans, sources.split(spans, ranges), strict=True):
            rulesets: pl.DataFrame | None = None
            for name in ("hand_results", *(n for n in REPLAY_TABLES if n != "hand_results")):
                table = bucket_table(data, bucket, name, span=span, sources=span_sources)
                if rulesets is None:  # hand_results: a row per hand of the range, its ruleset
                    frame = pl.from_arrow(table.select([*KEY, "ruleset"]))
                    assert isinstance(frame, pl.DataFrame)
                    rulesets = frame
                for folder, rows in _by_ruleset(table, rulesets):
                    if name in ACROSS_BUCKET:
                        if (name, folder) not in gathered:
                            ranges.mkdir(parents=True, exist_ok=True)
                            path = ranges / f"{name}-{folder}.parquet"
                            gathered[(name, folder)] = (path, pq.ParquetWriter(path, rows.schema))
                        gathered[(name, folder)][1].write_table(rows)
                    else:
                        writer_of(name, folder).write(rows)
                del table
        for (name, folder), (path, spilled) in gathered.items():
            spilled.close()
            for rows in _sorted_spill(path, _SORT[name], ranges / "sort"):
                writer_of(name, folder).write(rows)
        return [writer.close() for writer in writers.values()]
    except BaseException:
        for writer in writers.values():
            writer.abort()
        for _, spilled in gathered.values():
            spilled.close()
        raise
    finally:
        shutil.rmtree(ranges, ignore_errors=True)


SORT_MEMORY = "256MB"  # DuckDB's limit for an ACROSS_BUCKET table's sort (it spills beyond)


def _sorted_spill(path: Path, key: list[str], temp: Path) -> Iterator[pa.Table]:
    """The rows of the Parquet file ``path`` sorted by ``key`` (unique; nulls last, as
    polars sorts the other tables), a row group at a time: DuckDB sorts within
    SORT_MEMORY, spilling to ``temp``. At 10M hands a bucket holds 2.5M rows of the
    three (362 MB): sorted in polars they took a process from 770 to 1,565 MB, sorted so
    from 319 to 597 MB (0.19 + 0.60 + 0.71 s of CPU)."""
    con = duck.connect(
        ":memory:",
        config={"memory_limit": SORT_MEMORY, "temp_directory": str(temp), "threads": 1},
    )
    try:
        order = ", ".join(f'"{c}" NULLS LAST' for c in key)
        reader = con.sql(
            f"SELECT * FROM read_parquet(?) ORDER BY {order}", params=[str(path)]
        ).to_arrow_reader(ROW_GROUP_ROWS)
        for batch in reader:
            yield pa.Table.from_batches([batch])
    finally:
        con.close()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a chunk is replayed.

    A chunk builds hundreds of thousands of small, acyclic containers (event dicts,
    findings, output rows) that live until the chunk ends and are then freed by reference
    counting; the collector would only traverse them again and again (about a tenth of the
    CPU time of a replay). Anything cyclic made meanwhile is collected once it runs again.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def replay_archive(
    root: Path | str,
    workers: int = 1,
    wait: bool = False,
    on_task: Callable[[int], None] = lambda n: None,
    on_total: Callable[[int], None] = lambda n: None,
    scheduler: str | None = None,
    cluster: str | None = None,
    on_wait: Callable[[str], None] = lambda message: None,
    on_plan: Callable[[int, int], None] = lambda hands, buckets: None,
    on_replayed: Callable[[int], None] = lambda hands: None,
    on_written: Callable[[int], None] = lambda buckets: None,
) -> ReplaySummary:
    """Bring the replay tables of the data folder up to date with its hands.

    Two steps, each a set of tasks: replay the stale games chunk by chunk (their rows,
    split by bucket, spilled to the data folder's work area), then write each touched
    bucket's files from its kept rows and the fresh ones; all files are committed at the
    end in one atomic step. The tasks run in this process (``workers`` = 1), a local
    process pool, or on Dask with ``scheduler`` (an address, e.g. ``tcp://host:8786``) or
    ``cluster`` = ``"local"`` (a ``LocalCluster`` of ``workers`` processes); the output
    is the same byte for byte. ``on_total``/``on_task`` count the tasks; for a progress
    display in the user's terms, ``on_plan(hands, buckets)`` gives the stale hands and the
    bucket writes to come, ``on_replayed(n)`` the hands each finished chunk replayed and
    ``on_written(1)`` each bucket written.
    """
    distributed = scheduler is not None or cluster is not None
    if distributed:
        from mjaudit.parts.replay.archive.distributed import require_dask

        if scheduler is not None and cluster is not None:
            raise ValueError("give either a Dask scheduler address or cluster='local', not both")
        if cluster is not None and cluster != "local":
            raise ValueError(f"unknown cluster {cluster!r} (expected 'local')")
        require_dask()
    # Workers elsewhere need the folder by absolute path (a shared filesystem), and so do
    # the file lists and spill paths sent to them.
    data = DataDir(Path(root).resolve() if distributed else root)
    summary = ReplaySummary()
    with data.writing(wait=wait, on_wait=on_wait):
        stale = plan(data)
        summary.hands, summary.not_supported = stale.hands, stale.unsupported
        # Buckets still in the flat layout of older versions are rewritten as they are.
        buckets = sorted(set(stale.games) | flat_buckets(data))
        cards = cards_digest(data.root)
        where = str(data.root)
        n_chunks, todo = chunks(data, stale.stale_files(), stale.folder)
        chunk_jobs = (  # made as the tasks are sent: never all the games at once
            (where, games, {n: [str(f) for f in fs] for n, fs in files.items()}, cards)
            for games, files in todo
        )
        on_total(n_chunks + len(buckets))
        on_plan(stale.stale, len(buckets))
        spill = _Spill(data.work_dir("replay"))
        staged = _Staged(data)

        def write_buckets(run: Runner) -> None:
            jobs = [(where, b, _str(stale.stale_file(b)), spill.files(b)) for b in buckets]
            for written in run(finish_bucket, jobs):
                staged.written.extend(written)
                on_task(1)
                on_written(1)

        # A bucket task's memory comes on top of a worker's heap grown by replaying chunks,
        # so past FRESH_WORKERS_HANDS the bucket tasks get fresh workers: at 1M hands the
        # replay's peak fell from 458 to about 400 MB, the same as at 100k (where the
        # workers are kept). Starting two costs about 1.4 s of CPU: under 2% of a replay
        # of 500k hands, so a smaller archive keeps its workers.
        fresh_workers = summary.hands > FRESH_WORKERS_HANDS
        with _runner(workers, scheduler, cluster) if n_chunks or buckets else _idle() as run:
            for fresh in run(replay_chunk, chunk_jobs):
                spill.add(fresh)
                done = sum(t["hand_results"].num_rows for t in fresh.values())
                summary.replayed += done
                on_task(1)
                on_replayed(done)
            spill.close()
            if not fresh_workers:
                write_buckets(run)
        if fresh_workers:
            with _runner(workers, scheduler, cluster) if buckets else _idle() as run:
                write_buckets(run)
        for b in buckets:
            staged.replace(b)
        staged.commit()
        refresh_totals(data)  # an archive whose summary files have no totals (yet)
        summary.buckets = len(stale.games)
        summary.unchanged = summary.hands - stale.stale
        findings = data.scan("findings")
        counts = findings.group_by("class").len().collect()
        summary.findings_by_class = dict(
            zip(counts["class"].to_list(), counts["len"].to_list(), strict=True)
        )
        summary.engine_errors = (
            findings.filter(pl.col("code") == ENGINE_ERROR).select(pl.len()).collect().item()
        )
    return summary


Runner = Callable[[Callable[..., Any], Iterable[tuple[Any, ...]]], Iterator[Any]]


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


@contextmanager
def _idle() -> Iterator[Runner]:
    """The runner when there is nothing to do: no pool started, no scheduler contacted."""
    yield lambda fn, jobs: iter(())


@contextmanager
def _runner(workers: int, scheduler: str | None, cluster: str | None) -> Iterator[Runner]:
    """``run(fn, jobs)``: ``fn(*job)`` for every job, results as they complete (their order
    never reaches the output: every bucket's rows are sorted on a unique key)."""
    if scheduler is not None or cluster is not None:
        from mjaudit.parts.replay.archive.distributed import dask_runner

        with dask_runner(scheduler, workers) as run:
            yield run
        return
    if workers <= 1:
        yield lambda fn, jobs: (fn(*job) for job in jobs)
        return
    ctx = multiprocessing.get_context("spawn")  # polars and fork deadlock
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:

        def run(fn: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
            # Two tasks per worker in flight, each result let go once taken: the client
            # never holds more than a few chunks' rows (a finished future keeps its result).
            queue = iter(jobs)
            pending = {pool.submit(fn, *job) for job in islice(queue, 2 * workers)}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    for job in islice(queue, 1):
                        pending.add(pool.submit(fn, *job))
                    yield future.result()

        try:
            yield run
        finally:  # after an error, do not wait for tasks nobody will take
            pool.shutdown(wait=True, cancel_futures=True)


class _Spill:
    """The replayed rows of each bucket and table, appended chunk by chunk to an Arrow IPC
    file in the data folder's work area, so that no process holds more than a chunk's
    rows until a bucket is written (memory stays flat in the size of the archive)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.writers: dict[tuple[int, str], pa.ipc.RecordBatchFileWriter] = {}

    def add(self, fresh: Fresh) -> None:
        for b, tables in fresh.items():
            for name, table in tables.items():
                if not table.num_rows:
                    continue
                writer = self.writers.get((b, name))
                if writer is None:
                    path = self.folder / f"bucket-{b:02d}.{name}.arrow"
                    writer = self.writers[(b, name)] = pa.ipc.new_file(path, table.schema)
                writer.write_table(table)

    def close(self) -> None:
        for writer in self.writers.values():
            writer.close()

    def files(self, b: int) -> dict[str, list[str]]:
        return {
            name: [str(self.folder / f"bucket-{b:02d}.{name}.arrow")]
            for (bucket, name) in self.writers
            if bucket == b
        }


def _bucket_no(rel: str) -> int | None:
    """``findings/ruleset=x/bucket-03-00000012.parquet`` -> 3 (None: not a bucket file)."""
    name = Path(rel).name
    if not name.startswith("bucket-"):
        return None
    try:
        return int(name.split("-")[1])
    except (IndexError, ValueError):
        return None


def flat_buckets(data: DataDir) -> set[int]:
    """Buckets with a file directly in a replay table's folder (the layout before the
    replay tables were partitioned by ruleset)."""
    out: set[int] = set()
    for name, rels in data.manifest()["tables"].items():
        if name not in REPLAY_TABLES:
            continue
        for rel in rels:
            b = _bucket_no(rel)
            if b is not None and len(Path(rel).parts) == 2:
                out.add(b)
    return out


def _by_ruleset(table: pa.Table, rulesets: pl.DataFrame) -> list[tuple[str, pa.Table]]:
    """A bucket's rows of one table split by their hand's ruleset, each part in the
    bucket's order: (``ruleset=<id>`` folder, rows), by ruleset. ``scores`` has no ruleset
    column; its hands' rulesets come from ``rulesets`` (the bucket's hand_results, which
    has a row for every hand of the bucket: both are made from the same reports)."""
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    if "ruleset" in frame.columns:
        labels = frame["ruleset"]
    else:
        labels = frame.select(KEY).join(rulesets, on=KEY, how="left", maintain_order="left")[
            "ruleset"
        ]
    if labels.null_count():
        raise ValueError("replay rows without a ruleset: the bucket's tables disagree")
    if labels.n_unique() == 1:  # one ruleset (the usual bucket): no copy of the rows
        return [(f"ruleset={labels[0]}", table)] if len(labels) else []
    return [
        (f"ruleset={ruleset}", table.filter((labels == ruleset).to_arrow()))
        for ruleset in sorted(labels.unique().to_list())
    ]


class _Staged:
    """The replay's output files, written bucket by bucket (:func:`finish_bucket`) and
    committed at the end: every file of a rewritten bucket (in either layout) is replaced
    by the new ones, in one atomic commit."""

    def __init__(self, data: DataDir) -> None:
        self.data = data
        self.manifest = data.manifest()["tables"]
        self.written: list[tuple[str, str]] = []
        self.remove: list[str] = []

    def replace(self, b: int) -> None:
        """Drop the bucket's committed files at the commit (its new ones are written)."""
        for name in REPLAY_TABLES:
            self.remove.extend(rel for rel in self.manifest.get(name, []) if _bucket_no(rel) == b)

    def commit(self) -> None:
        if not self.written and not self.remove:
            return
        dropped = set(self.remove)
        empty: list[Part] = []
        for name, schema in REPLAY_TABLES.items():
            # Every table keeps a file, so that its view has columns.
            kept = [rel for rel in self.manifest.get(name, []) if rel not in dropped]
            if not kept and not any(table == name for table, _ in self.written):
                empty.append(Part(name, schema.empty_table()))
        self.written.extend(self.data.stage_parts(empty))
        # The totals of the summary files this commit leaves, in the same commit: no
        # reader sees totals of other summary rows than those committed beside them.
        after = {
            summary: [rel for rel in self.manifest.get(summary, []) if rel not in dropped]
            + [rel for table, rel in self.written if table == summary]
            for summary in TOTALS_OF.values()
        }
        totals = totals_parts(self.data, after, self.data.work_dir("totals"))
        self.written.extend(self.data.stage_parts(totals))
        self.remove.extend(rel for name in TOTALS_OF for rel in self.manifest.get(name, []))
        self.data.commit_staged(self.written, self.remove)
