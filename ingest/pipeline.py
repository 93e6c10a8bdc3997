"""``mjaudit ingest``: log files in, validated Parquet tables out, nothing lost.

Records are parsed one by one and buffered into a batch; a batch is written (its files
staged) when it holds ``batch_bytes`` of input, so memory stays bounded whatever the size
of the files, and the staged batches are committed together once they hold
``commit_bytes`` of input (or at the end). Each commit is atomic (see
:mod:`ingest.store`): an interrupted ingest keeps every commit made before the
interruption, and re-running it completes the rest, because records already present are
recognised by key and content hash and skipped.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
from mjaudit.parts.ingest.key_index import CONTENT_HASHES, KEY_HASHES, KeyIndex
from mjaudit.parts.ingest.riichi_logs import FORMATS as RIICHI_FORMATS
from mjaudit.parts.ingest.riichi_logs import read as read_riichi
from mjaudit.parts.ingest.riichi_logs import sniff
from mjaudit.parts.ingest.sheets import SheetItem, SheetProblem, looks_like_sheet, read_sheet
from mjaudit.parts.ingest.sources import (
    DEFAULT_LIMITS,
    BrokenStream,
    Limits,
    RawRecord,
    Refused,
    expand_paths,
    is_log_file,
    read_records,
)
from mjaudit.parts.ingest.store import DataDir, Part
from mjaudit.parts.schemas.records import (
    ErrorCode,
    ParsedRecord,
    RecordError,
    parse_object,
    parse_record,
)
from mjaudit.parts.schemas.rows import RowBuffers

BATCH_BYTES = 16 << 20
# Input per commit: a commit costs four or five Delta commits (one per table), and a
# delta-rs commit's CPU grows with the table's log (it lists _delta_log: 2.7 ms at the
# start, 19 ms after 2,000 commits), so one per 16 MB batch made the ingest quadratic.
COMMIT_BYTES = 128 << 20
INDEX_GROUP_BYTES = 64 << 20  # hands files (~160 bytes a hand) hashed at once at start
# What a quarantine row costs in a batch beyond its raw bytes and message, so that a file of
# millions of tiny bad lines is committed in batches of bounded memory too.
QUARANTINE_ROW_BYTES = 256


KEY = ["game_id", "hand_no"]
HAND_TABLES = ("hands", "seats", "events", "recorded_results")


def partition_of(hands: pl.DataFrame) -> pl.Series:
    """``ruleset=<id>/month=<YYYY-MM>`` per hand, the month in the table's local time
    (``month=unknown`` without a timestamp). Queries filtered on ruleset or dates then
    touch few files, and an ingest of new months adds files only in those partitions."""
    local = pl.col("started_at") + pl.duration(minutes=pl.col("utc_offset_minutes").fill_null(0))
    month = local.dt.strftime("%Y-%m").fill_null("unknown")
    return hands.select(
        pl.concat_str([pl.lit("ruleset="), pl.col("ruleset"), pl.lit("/month="), month])
    ).to_series()


PARTITION_COLUMNS = ["ruleset", "started_at", "utc_offset_minutes"]  # what partition_of reads


def rows_per_hand(tables: dict[str, pa.Table]) -> dict[str, np.ndarray]:
    """How many rows of each hand table belong to each hand row.

    The tables are as :meth:`RowBuffers.to_tables` makes them: each hand's seats, events
    and recorded results follow hand order, as many as its ``n_players``, ``n_events`` and
    ``has_result`` say, so a row's hand is known by position (no join on the key).
    """
    h = tables["hands"]
    n_players = h.column("n_players").to_numpy().astype(np.int64)
    counts = {
        "hands": np.ones(h.num_rows, dtype=np.int64),
        "seats": n_players,
        "events": h.column("n_events").to_numpy().astype(np.int64),
        "recorded_results": n_players * h.column("has_result").to_numpy(),
    }
    for name in HAND_TABLES:
        if int(counts[name].sum()) != tables[name].num_rows:
            raise ValueError(f"{name} rows do not follow the hands rows")
    return counts


def keep_hands(tables: dict[str, pa.Table], keep: list[bool]) -> dict[str, pa.Table]:
    """``tables`` with only the hands where ``keep`` is true, and only their rows."""
    counts = rows_per_hand(tables)
    mask = np.asarray(keep, dtype=bool)
    kept = dict(tables)
    for name in HAND_TABLES:
        kept[name] = tables[name].filter(pa.array(np.repeat(mask, counts[name])))
    return kept


def batch_stem(k: int) -> str:
    """The file stem of a commit's ``k``-th batch: ``part``, then ``part.000001`` ...,
    so a one-batch commit's files are named as before, and a partition's files sort in
    batch order."""
    return "part" if k == 0 else f"part.{k:06d}"


def partitioned(tables: dict[str, pa.Table], stem: str = "part") -> list[Part]:
    """The batch's rows as one part per table and partition (quarantine: one part)."""
    parts: list[Part] = []
    hands = pl.from_arrow(tables["hands"].select(PARTITION_COLUMNS))
    if hands.height:
        labels = partition_of(hands)
        names = sorted(labels.unique().to_list())
        index = {label: i for i, label in enumerate(names)}
        code = np.array([index[label] for label in labels.to_list()], dtype=np.int64)
        counts = rows_per_hand(tables)
        for name in HAND_TABLES:
            table, row_code = tables[name], np.repeat(code, counts[name])
            if np.any(row_code[1:] < row_code[:-1]):  # group the rows by partition, in order
                order = np.argsort(row_code, kind="stable")
                table, row_code = table.take(order), row_code[order]
            ends = np.cumsum(np.bincount(row_code, minlength=len(names)))
            for label, end, count in zip(names, ends, np.diff(ends, prepend=0), strict=True):
                if count:
                    parts.append(Part(name, table.slice(end - count, count), stem, label))
    if tables["quarantine"].num_rows:
        parts.append(Part("quarantine", tables["quarantine"], stem))
    return parts


def raw_hash(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


@dataclass
class IngestSummary:
    files: int = 0
    bytes_read: int = 0
    records: int = 0
    hands_added: int = 0
    skipped_present: int = 0
    quarantined: Counter[str] = field(default_factory=Counter)
    quarantine_seen_before: int = 0
    broken_files: list[str] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)  # .txt/.csv that are not sheets
    messages: list[str] = field(default_factory=list)  # first few quarantine messages

    @property
    def n_quarantined(self) -> int:
        return sum(self.quarantined.values())


@dataclass
class _Batch:
    buffers: RowBuffers = field(default_factory=RowBuffers)
    raws: list[tuple[str, int, bytes]] = field(default_factory=list)  # per hand row
    nbytes: int = 0


def _shown(source: str) -> str:
    """A file as the user named it: relative to the working folder when it is inside it.
    The tables keep the absolute path (one name per file, however it was given)."""
    try:
        return str(Path(source).relative_to(Path.cwd()))
    except ValueError:
        return source


def _hashed(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The de-duplication index of a hands table: k1, k2 (key), c1, c2 (content)."""
    return hands.select([*KEY_HASHES, *CONTENT_HASHES])


def _stored_hashes(data: DataDir) -> Iterator[pl.DataFrame]:
    """The de-duplication hashes of the stored hands, a group of files (INDEX_GROUP_BYTES
    of them) at a time. Not collect_batches: it runs ahead of a slow consumer and held
    every batch (the whole archive's hashes) at once."""
    group: list[Path] = []
    size = 0
    for path in data.files("hands"):
        group.append(path)
        size += path.stat().st_size
        if size >= INDEX_GROUP_BYTES:
            yield _hashed(pl.scan_parquet(group, glob=False)).collect()
            group, size = [], 0
    if group:
        yield _hashed(pl.scan_parquet(group, glob=False)).collect()


class Ingestor:
    """Feeds records into batches and commits them; one instance per ingest run."""

    MAX_MESSAGES = 10

    def __init__(
        self,
        data: DataDir,
        summary: IngestSummary,
        batch_bytes: int = BATCH_BYTES,
        commit_bytes: int = COMMIT_BYTES,
    ) -> None:
        self.data = data
        self.summary = summary
        self.batch_bytes = batch_bytes
        self.commit_bytes = commit_bytes
        self.batch = _Batch()
        self.flushes = 0
        # The files of the batches written since the last commit (none committed yet: a
        # crash leaves them to the next writer, which deletes them as orphans).
        self.staged: list[tuple[str, str]] = []
        self.staged_batches = 0
        self.staged_bytes = 0
        self.known = KeyIndex(data.work_dir("keyindex"))
        self.known.add_all(_stored_hashes(data))
        self.known_quarantine = (
            data.scan("quarantine").select("source_file", "source_line", "raw_hash").collect()
        )

    def add_record(self, source: str, item: RawRecord) -> None:
        self.summary.records += 1
        try:
            parsed = parse_record(item.raw)
        except RecordError as err:
            self._quarantine(source, item.line, err, item.raw)
        except RecursionError:  # read_records screens nesting; this is the safety net
            err = RecordError(
                ErrorCode.RECORD_TOO_LARGE, "$", "refused: the record nests too deeply"
            )
            self._quarantine(source, item.line, err, item.raw)
        else:
            self._add_parsed(source, item.line, parsed, item.raw)

    def add_parsed(
        self, source: str, line: int, parsed: ParsedRecord, raw: bytes, kind: str
    ) -> None:
        """Entry point for readers of other formats (score sheets) that parse themselves."""
        self.summary.records += 1
        self._add_parsed(source, line, parsed, raw, kind)

    def _add_parsed(
        self, source: str, line: int, parsed: ParsedRecord, raw: bytes, kind: str = "log"
    ) -> None:
        self.batch.buffers.add(parsed, source, line, kind)
        self.batch.raws.append((source, line, raw))
        self.batch.nbytes += len(raw)
        if self.batch.nbytes >= self.batch_bytes:
            self.flush()

    def add_sheet_item(self, source: str, item: SheetItem, kind: str = "sheet") -> None:
        """One game line of a score sheet (a results-only hand, or a quarantined line), or
        one hand of a riichi log read by its importer (``kind`` "log")."""
        if isinstance(item, SheetProblem):
            self.summary.records += 1
            self._quarantine(source, item.line, RecordError(item.code, "", item.message), item.raw)  # type: ignore[arg-type]
            return
        try:
            parsed = parse_object(item.record)
        except RecordError as err:  # a name or value the log format refuses
            self.summary.records += 1
            self._quarantine(source, item.line, err, item.raw)
            return
        self.add_parsed(source, item.line, parsed, item.raw, kind)

    def add_refused(self, source: str, item: Refused) -> None:
        """A record refused by an input limit; the rest of the file is still read."""
        self.summary.records += 1
        self._quarantine(
            source, item.line, RecordError(ErrorCode(item.code), "", item.message), item.raw
        )

    def add_broken(self, source: str, item: BrokenStream) -> None:
        self.summary.broken_files.append(source)
        err = RecordError(ErrorCode.FILE_TRUNCATED, "", item.message)
        self._quarantine(source, item.line, err, item.raw)

    def _quarantine(
        self,
        source: str,
        line: int,
        err: RecordError,
        raw: bytes,
        key: tuple[str, int] | None = None,
        buffers: RowBuffers | None = None,
    ) -> None:
        message = f"{source}:{line}: {err}"
        (buffers or self.batch.buffers).quarantine(
            source, line, str(err.code), err.path or None, message, raw, raw_hash(raw), key
        )
        if len(self.summary.messages) < self.MAX_MESSAGES:  # the terminal's copy
            self.summary.messages.append(f"{_shown(source)}:{line}: {err}")
        if buffers is None:  # a row costs more than its raw bytes: count that too
            self.batch.nbytes += len(raw) + len(message) + QUARANTINE_ROW_BYTES
            # a file of nothing but bad records is committed in bounded batches as well
            if self.batch.nbytes >= self.batch_bytes:
                self.flush()

    def flush(self) -> None:
        """Drop records already present, quarantine key conflicts, write the rest as files
        of the next commit; commit once the staged batches hold ``commit_bytes``. The key
        index learns the batch's hands at once: the next batch is checked against them
        whether or not they are committed yet."""
        batch, self.batch = self.batch, _Batch()
        keep = self._dedup(batch)
        tables = batch.buffers.to_tables()
        if keep is not None and not all(keep):
            # By position: a skipped or conflicting copy of a hand in this same batch has
            # the kept hand's key, so a filter on the key would keep its rows too.
            tables = keep_hands(tables, keep)
        tables["quarantine"] = self._new_quarantine(tables["quarantine"])
        parts = partitioned(tables, batch_stem(self.staged_batches))
        if parts:
            self.staged.extend(self.data.stage_parts(parts))
            self.staged_batches += 1
        self.staged_bytes += batch.nbytes
        self.summary.hands_added += tables["hands"].num_rows
        self.known.add(_hashed(pl.from_arrow(tables["hands"]).lazy()).collect())
        self.flushes += 1
        q = tables["quarantine"]
        self.known_quarantine = pl.concat(
            [
                self.known_quarantine,
                pl.from_arrow(q.select(["source_file", "source_line", "raw_hash"])),
            ]
        )
        for code in q.column("code").to_pylist():
            self.summary.quarantined[code] += 1
        if self.staged_bytes >= self.commit_bytes:
            self.commit()

    def commit(self) -> None:
        """Commit the staged batches (all tables in one atomic step), if any."""
        if self.staged:
            self.data.commit_staged(self.staged)
        self.staged, self.staged_batches, self.staged_bytes = [], 0, 0

    def finish(self) -> None:
        """Write the last batch and commit everything staged: call it at the end, or the
        batches since the last commit are lost (a bare :meth:`flush` only stages)."""
        self.flush()
        self.commit()

    def _dedup(self, batch: _Batch) -> list[bool] | None:
        """Which hand rows of ``batch`` are new; conflicts go to the batch's quarantine."""
        buffers = batch.buffers
        if not buffers.n_hands:
            return None
        frame = pl.DataFrame(
            {k: buffers.hand_column(k) for k in ("game_id", "hand_no", "content_hash")},
            schema={"game_id": pl.String, "hand_no": pl.Int32, "content_hash": pl.String},
        ).with_row_index("row")
        hashed = frame.with_columns(*KEY_HASHES, *CONTENT_HASHES)
        found, known_c1, known_c2 = self.known.lookup(
            hashed["k1"].to_numpy(), hashed["k2"].to_numpy()
        )
        stored = zip(found.tolist(), known_c1.tolist(), known_c2.tolist(), strict=True)
        keep: list[bool] = []
        seen: dict[tuple[str, int], tuple[int, int]] = {}
        rows = hashed.select("row", "game_id", "hand_no", "c1", "c2").iter_rows()
        for (row, game_id, hand_no, c1, c2), (is_stored, stored_c1, stored_c2) in zip(
            rows, stored, strict=True
        ):
            key = (game_id, hand_no)
            digest = (c1, c2)
            prior = (stored_c1, stored_c2) if is_stored else seen.get(key)
            if prior is None:
                seen[key] = digest
                keep.append(True)
                continue
            keep.append(False)
            if prior == digest:
                self.summary.skipped_present += 1
                continue
            source, line, raw = batch.raws[row]
            err = RecordError(
                ErrorCode.DUPLICATE_KEY_CONFLICT,
                "$.hand_no",
                f"game {game_id!r} hand {hand_no} is already ingested with different content "
                "(expected a record identical to the stored one, or a new game_id/hand_no); "
                "the stored record is kept",
            )
            self._quarantine(source, line, err, raw, key, batch.buffers)
        return keep

    def _new_quarantine(self, quarantine: pa.Table) -> pa.Table:
        """Quarantine rows not already stored (the same bad line ingested twice is kept once).

        Only rows stored by earlier batches count as seen before. Rows of this batch with one
        key (file, line, raw hash) are one line's problems: they become one row holding every
        message, under the first row's code, instead of all but one being dropped as "seen
        before" (which a fresh folder reported, and lost the messages)."""
        if quarantine.num_rows == 0:
            return quarantine
        keys = ["source_file", "source_line", "raw_hash"]
        frame = pl.from_arrow(quarantine)
        assert isinstance(frame, pl.DataFrame)
        fresh = frame.join(self.known_quarantine, on=keys, how="anti", maintain_order="left")
        self.summary.quarantine_seen_before += frame.height - fresh.height
        if fresh.select(pl.struct(keys).is_duplicated().any()).item():
            fresh = (
                fresh.group_by(keys, maintain_order=True)
                .agg(
                    pl.exclude("message").first(),
                    pl.col("message").unique(maintain_order=True).str.join("; "),
                )
                .select(frame.columns)
            )
        return fresh.to_arrow().cast(quarantine.schema)


def sheet_items(path: Path) -> Iterator[SheetItem]:
    """The items of :func:`ingest.sheets.read_sheet`; if the reader fails part way (the
    ``csv`` module refuses some inputs, e.g. a bare carriage return in a field; or any
    other exception, a reader bug included), the rest of the file becomes one quarantined
    item instead of an exception that aborts the command and loses every other file's
    games. The message names the exception's type and text, so a bug stays visible."""
    last = 0
    try:
        for item in read_sheet(path):
            last = max(last, item.line)
            yield item
    except Exception as exc:  # reported in the quarantine with its type: not silenced
        why = str(exc) if isinstance(exc, csv.Error) else f"{type(exc).__name__}: {exc}"
        try:
            rest = b"\n".join(path.read_bytes().split(b"\n")[last:])
        except OSError as again:
            rest, why = b"", f"{why}; the rest cannot be read again: {again}"
        yield SheetProblem(
            last + 1,
            rest,
            "SHEET_UNPARSEABLE",
            f"the sheet cannot be read from here on ({why}); the {last} lines before were read",
        )


def ingest(
    paths: Iterable[str],
    data_dir: Path | str,
    *,
    wait: bool = False,
    on_files: Callable[[list[Path]], None] = lambda files: None,
    on_progress: Callable[[int], None] = lambda n: None,
    batch_bytes: int = BATCH_BYTES,
    commit_bytes: int = COMMIT_BYTES,
    fmt: str = "auto",
    limits: Limits = DEFAULT_LIMITS,
    on_wait: Callable[[str], None] = lambda message: None,
) -> IngestSummary:
    """Ingest every log file or score sheet under ``paths`` into ``data_dir``.

    ``fmt``: ``auto`` (by file name, and for sheets and riichi logs by content), ``mjlog``,
    ``hk-sheet``, ``tenhou-xml``, ``tenhou-json`` or ``mjai`` (every file is read as that
    format). ``limits``: the input limits of
    :mod:`ingest.sources` (record size, nesting, decompressed size and ratio).
    ``commit_bytes``: input per commit (at least one batch): smaller shows readers the
    progress of a long ingest sooner and redoes less after a crash; larger costs less.
    """
    args = list(paths)
    files = expand_paths(args, any_named_file=fmt != "auto")
    named = {Path(a).resolve() for a in args}
    kinds: dict[Path, str] = {}
    for f in files:
        if fmt != "auto":
            kinds[f] = fmt
        elif (riichi := sniff(f)) is not None:
            kinds[f] = riichi
        elif is_log_file(f):
            kinds[f] = "mjlog"
        elif f.resolve() in named or looks_like_sheet(f):
            kinds[f] = "hk-sheet"
    summary_skipped = [str(f) for f in files if f not in kinds]
    files = [f for f in files if f in kinds]
    on_files(files)
    summary = IngestSummary(files=len(files), skipped_files=summary_skipped)
    data = DataDir(data_dir)
    with data.writing(wait=wait, on_wait=on_wait):
        ingestor = Ingestor(data, summary, batch_bytes, commit_bytes)

        def progress(n: int) -> None:
            summary.bytes_read += n
            on_progress(n)

        for path in files:
            source = str(path.resolve())  # one name per file, however it was given
            if kinds[path] in RIICHI_FORMATS:
                progress(path.stat().st_size)
                for riichi_item in read_riichi(path, kinds[path]):
                    ingestor.add_sheet_item(source, riichi_item, "log")
                continue
            if kinds[path] == "hk-sheet":
                progress(path.stat().st_size)
                for sheet_item in sheet_items(path):
                    ingestor.add_sheet_item(source, sheet_item)
                continue
            for item in read_records(path, progress, limits):
                if isinstance(item, Refused):
                    ingestor.add_refused(source, item)
                elif isinstance(item, BrokenStream):
                    ingestor.add_broken(source, item)
                else:
                    ingestor.add_record(source, item)
        ingestor.finish()
    return summary
