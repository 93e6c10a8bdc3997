"""The de-duplication index of stored hands: key hash -> content hash, in sorted runs.

Every ingest batch looks its hands' keys up among all stored hands'. A join against every
stored key per batch costs time in the size of the archive (73 ms a batch at 5M stored
hands), so a 10M-hand ingest grew with the square of its size. This index keeps sorted
runs of (k1, k2, c1, c2), two 64-bit hashes of each hand's key and two of its content
(see ``ingest.pipeline``): a batch adds a run, runs of similar size are merged (a
log-structured merge, so each hand is re-sorted about log2(archive / batch) times), and a
lookup is one binary search per run. 32 bytes a hand, as before.

Given a folder, runs of SPILL_ROWS or more are written there (a file per column) and
memory-mapped only during a lookup, so the process holds a few small runs and the pages
one batch's binary searches touch, whatever the size of the archive (in memory, 10M hands
took 320 MB). Runs on disk of similar size are merged there too, MERGE_BLOCK rows at a
time through plain reads and writes (pages of a memory map count as the process's
memory), up to LOAD_ROWS rows, so a lookup searches about archive / LOAD_ROWS of them
plus log2(LOAD_ROWS / SPILL_ROWS) smaller ones.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
import polars as pl

# Two 64-bit hashes of each hand's key and two of its content hash, rather than the
# strings: a false match needs a 128-bit collision. Polars' hash is only stable within one
# process, which is all this needs (the index is rebuilt from the stored keys at every run;
# the replay plan hashes both sides it compares in one process).
_KEY = pl.struct(pl.col("game_id").cast(pl.String), pl.col("hand_no").cast(pl.Int64))
KEY_HASHES = [_KEY.hash(0x6D6A).alias("k1"), _KEY.hash(0x6175).alias("k2")]
CONTENT_HASHES = [
    pl.col("content_hash").hash(0x6D6A).alias("c1"),
    pl.col("content_hash").hash(0x6175).alias("c2"),
]
COLUMNS = ("k1", "k2", "c1", "c2")
MAX_RUN = 4_000_000  # rows of the largest run a merge makes (~130 MB, ~350 MB while merging)
SPILL_ROWS = 100_000  # runs this long are kept on disk, when the index has a folder
MERGE_BLOCK = 100_000  # rows of each run read at once while merging runs on disk
LOAD_ROWS = 2_000_000  # rows sorted at once when loading the stored keys (add_all)
Run = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # k1, k2, c1, c2; by (k1, k2)


def _sorted(k1: np.ndarray, k2: np.ndarray, c1: np.ndarray, c2: np.ndarray) -> Run:
    order = np.lexsort((k2, k1))  # by k1, then k2
    return k1[order], k2[order], c1[order], c2[order]


class _DiskRun(NamedTuple):
    """A sorted run on disk: ``folder/{k1,k2,c1,c2}.npy``."""

    folder: Path
    rows: int


def _write_run(folder: Path, blocks: Iterable[Run], rows: int) -> _DiskRun:
    """Write a run given as consecutive sorted blocks, a column per .npy file."""
    folder.mkdir()
    files = [open(folder / f"{name}.npy", "wb") for name in COLUMNS]  # noqa: SIM115
    try:
        header = {"descr": "<u8", "fortran_order": False, "shape": (rows,)}
        for f in files:
            np.lib.format.write_array_header_1_0(f, header)
        written = 0
        for block in blocks:
            for f, column in zip(files, block, strict=True):
                f.write(np.ascontiguousarray(column, dtype="<u8").tobytes())
            written += len(block[0])
        if written != rows:
            raise AssertionError(f"key index run: wrote {written} rows, expected {rows}")
    finally:
        for f in files:
            f.close()
    return _DiskRun(folder, rows)


def _mapped(run: _DiskRun) -> Run:
    k1, k2, c1, c2 = (np.load(run.folder / f"{name}.npy", mmap_mode="r") for name in COLUMNS)
    return k1, k2, c1, c2


def _blocks(run: _DiskRun, rows: int) -> Iterator[Run]:
    """The run ``rows`` at a time, by plain reads."""
    files = [open(run.folder / f"{name}.npy", "rb") for name in COLUMNS]  # noqa: SIM115
    try:
        for f in files:
            np.lib.format.read_magic(f)
            np.lib.format.read_array_header_1_0(f)
        for start in range(0, run.rows, rows):
            n = min(rows, run.rows - start)
            k1, k2, c1, c2 = (np.fromfile(f, dtype="<u8", count=n) for f in files)
            yield k1, k2, c1, c2
    finally:
        for f in files:
            f.close()


def _merged(a: _DiskRun, b: _DiskRun) -> Iterator[Run]:
    """The rows of two runs in k1 order, MERGE_BLOCK rows of each read at a time.

    Each step emits every buffered row up to a bound, the smaller of the buffers' last k1
    among runs with rows still unread, so no later row has a smaller k1. Rows sharing a
    k1 may be split over two steps, out of k2 order: a lookup scans equal k1s anyway."""
    sources = [_blocks(a, MERGE_BLOCK), _blocks(b, MERGE_BLOCK)]
    buffers: list[Run | None] = [next(src, None) for src in sources]
    left = [
        run.rows - (len(buf[0]) if buf is not None else 0)
        for run, buf in zip((a, b), buffers, strict=True)
    ]
    while any(buf is not None and len(buf[0]) for buf in buffers):
        bounds = [
            buf[0][-1] for buf, rest in zip(buffers, left, strict=True) if buf is not None and rest
        ]
        parts: list[Run] = []
        for k, buf in enumerate(buffers):
            if buf is None:
                continue
            cut = int(np.searchsorted(buf[0], min(bounds), side="right")) if bounds else len(buf[0])
            parts.append((buf[0][:cut], buf[1][:cut], buf[2][:cut], buf[3][:cut]))
            rest: Run = (buf[0][cut:], buf[1][cut:], buf[2][cut:], buf[3][cut:])
            if not len(rest[0]) and left[k]:
                more = next(sources[k])
                left[k] -= len(more[0])
                rest = more
            buffers[k] = rest
        yield _sorted(*(np.concatenate(cols) for cols in zip(*parts, strict=True)))


def _search(
    run: Run, k1: np.ndarray, k2: np.ndarray, found: np.ndarray, c1: np.ndarray, c2: np.ndarray
) -> None:
    """Mark the keys found in ``run`` and set their content hashes. ``k1`` must be sorted:
    numpy's binary search then starts each key where the previous one ended, so the
    searches of one batch touch the pages of a run on disk in order, not at random (at 10M
    stored hands the lookups went from 1.6% to 6.6% of an ingest's time unsorted)."""
    run_k1, run_k2, run_c1, run_c2 = run
    n = len(run_k1)
    if not n:
        return
    lo = np.searchsorted(run_k1, k1, side="left")
    at = np.minimum(lo, n - 1)
    cand = np.flatnonzero((lo < n) & (run_k1[at] == k1))  # k1 is in the run
    after = np.minimum(lo[cand] + 1, n - 1)
    shared = (lo[cand] + 1 < n) & (run_k1[after] == k1[cand])  # a 64-bit collision of k1
    one = cand[~shared]  # the usual case: k1 alone finds the row
    hit = one[run_k2[lo[one]] == k2[one]]
    found[hit], c1[hit], c2[hit] = True, run_c1[lo[hit]], run_c2[lo[hit]]
    for i in cand[shared]:  # rows sharing a k1 need not be in k2 order: scan them all
        j = int(lo[i])
        while j < n and run_k1[j] == k1[i]:
            if run_k2[j] == k2[i]:
                found[i], c1[i], c2[i] = True, run_c1[j], run_c2[j]
            j += 1


class KeyIndex:
    """(k1, k2) -> (c1, c2) of the stored hands; long runs on disk in ``folder`` (if any),
    which must be empty and is the caller's to remove."""

    def __init__(self, folder: Path | None = None) -> None:
        self.runs: list[Run] = []  # in memory, newest last
        self.folder = folder
        self.spilled: list[_DiskRun] = []  # oldest first
        self.made = 0  # run folders made (their names)

    def __len__(self) -> int:
        return sum(len(run[0]) for run in self.runs) + sum(run.rows for run in self.spilled)

    def add(self, hashes: pl.DataFrame) -> None:
        """Add hands not in the index yet (a frame with columns k1, k2, c1, c2)."""
        for start in range(0, hashes.height, MAX_RUN):
            part = hashes.slice(start, MAX_RUN)
            self.runs.append(_sorted(*(part[name].cast(pl.UInt64).to_numpy() for name in COLUMNS)))
            self._merge()
            self._spill()

    def add_all(self, batches: Iterable[pl.DataFrame]) -> None:
        """Add many hands arriving in batches of any size (the stored keys, at the start of
        an ingest), sorted LOAD_ROWS at a time: never all in memory at once."""
        pending: list[pl.DataFrame] = []
        rows = 0
        for batch in batches:
            pending.append(batch)
            rows += batch.height
            if rows >= LOAD_ROWS:
                self.add(pl.concat(pending))
                pending, rows = [], 0
        if rows:
            self.add(pl.concat(pending))

    def _merge(self) -> None:
        """Merge the newest runs while they are of similar size, up to MAX_RUN rows: past
        that a run stays as it is (a merge copies both runs, so its cost in memory stays
        bounded; a lookup searches one more run)."""
        while len(self.runs) > 1:
            older, newer = len(self.runs[-2][0]), len(self.runs[-1][0])
            if older > 2 * newer or older + newer > MAX_RUN:
                return
            b, a = self.runs.pop(), self.runs.pop()
            self.runs.append(_sorted(*(np.concatenate(pair) for pair in zip(a, b, strict=True))))

    def _spill(self) -> None:
        """Move the runs of SPILL_ROWS or more to disk and merge those of similar size."""
        if self.folder is None:
            return
        for run in [run for run in self.runs if len(run[0]) >= SPILL_ROWS]:
            self.spilled.append(_write_run(self._new_folder(), [run], len(run[0])))
        self.runs = [run for run in self.runs if len(run[0]) < SPILL_ROWS]
        while len(self.spilled) > 1:
            older, newer = self.spilled[-2].rows, self.spilled[-1].rows
            if older > 2 * newer or older + newer > LOAD_ROWS:  # loaded runs stay as they are
                return
            b, a = self.spilled.pop(), self.spilled.pop()
            self.spilled.append(_write_run(self._new_folder(), _merged(a, b), a.rows + b.rows))
            shutil.rmtree(a.folder)
            shutil.rmtree(b.folder)

    def _new_folder(self) -> Path:
        assert self.folder is not None
        self.made += 1
        return self.folder / f"run-{self.made:05d}"

    def lookup(self, k1: np.ndarray, k2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each key: whether it is stored, and its content hashes (0 where it is not)."""
        n = len(k1)
        order = np.argsort(k1, kind="stable")  # searched in k1 order (see _search)
        s1, s2 = np.ascontiguousarray(k1[order]), np.ascontiguousarray(k2[order])
        found = np.zeros(n, dtype=bool)
        c1 = np.zeros(n, dtype=np.uint64)
        c2 = np.zeros(n, dtype=np.uint64)
        for disk_run in self.spilled:  # oldest first, as the runs in memory are newer
            # Mapped for this lookup only: unmapped again, the pages it read leave the
            # process (a map kept open would grow to the whole run as lookups touch it).
            _search(_mapped(disk_run), s1, s2, found, c1, c2)
        for run in self.runs:
            _search(run, s1, s2, found, c1, c2)
        out_found = np.empty(n, dtype=bool)
        out_c1 = np.empty(n, dtype=np.uint64)
        out_c2 = np.empty(n, dtype=np.uint64)
        out_found[order], out_c1[order], out_c2[order] = found, c1, c2
        return out_found, out_c1, out_c2
