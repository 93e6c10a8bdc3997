"""The data folder: Parquet datasets committed atomically through a manifest, plus the catalog.

Layout of ``DIR`` (default ``./mjdata``)::

    _manifest.json        the committed files of every table (the only source of truth)
    hands/part-*.parquet  one folder per table
    ...
    catalog.duckdb        a view per table over the committed files
    .mjaudit.lock         held by the one command that writes

A commit writes its new Parquet files first, then replaces ``_manifest.json`` in one
``os.replace``. Files that no manifest names (left by a crash or Ctrl-C) are invisible to
readers and are removed by the next writer. So a reader always sees the tables as of the
last completed commit, never a half-written one.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import duckdb
import filelock
import msgspec
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from mjaudit.parts.schemas.tables import ALL_TABLES

MANIFEST = "_manifest.json"
CATALOG = "catalog.duckdb"
LOCK = ".mjaudit.lock"
WRITER = ".mjaudit.writer"  # who holds the lock: its command line and pid, for a waiting one
WORK = ".work"  # scratch space of the writer holding the lock (e.g. the replay's spill)
LAYOUT = "mjdata/1"
ROW_GROUP_ROWS = 128 * 1024
CATALOG_EVERY = 30.0  # seconds between catalog rebuilds during one writing command


@dataclass(frozen=True)
class Part:
    """Rows to add to ``table`` as one new file ``{table}/{partition}/{stem}-{version}.parquet``.

    ``partition`` is a Hive-style folder such as ``ruleset=hk-mahjongo/month=2026-03``
    (empty: directly in the table's folder).
    """

    table: str
    data: pa.Table
    stem: str = "part"
    partition: str = ""


def schema_fingerprint(schema: pa.Schema) -> str:
    """A short hash of a table schema's column names and types."""
    text = schema.remove_metadata().to_string(show_field_metadata=False)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _stem(rel: str) -> str:
    """``hands/part-00000012.parquet`` -> ``part``."""
    return rel.rsplit("/", 1)[-1].rsplit("-", 1)[0]


class DataDirBusy(RuntimeError):
    """Another command holds the data folder's write lock."""


class DataDirError(RuntimeError):
    """The data folder is not one of ours or its manifest is unreadable."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class PartWriter:
    """One new Parquet file, given its rows in pieces, in order.

    Rows are cut into row groups of ROW_GROUP_ROWS whatever the pieces were, so the file's
    bytes are the same however its rows were split (written in one piece or many)."""

    def __init__(
        self, root: Path, table: str, schema: pa.Schema, stem: str, partition: str, version: int
    ) -> None:
        self.table, self.schema = table, schema
        sub = f"{table}/{partition}" if partition else table
        self.folder = root / sub
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{stem}-{version:08d}.parquet"
        self.rel = f"{sub}/{name}"
        # Unique: a retried Dask task may still be writing the same file elsewhere.
        self.tmp = self.folder / f".{name}.{uuid.uuid4().hex}.tmp"
        self.writer = pq.ParquetWriter(self.tmp, schema, compression="zstd")
        self.pending: list[pa.Table] = []
        self.n_pending = 0
        self.n_written = 0

    def write(self, rows: pa.Table) -> None:
        self.pending.append(rows.cast(self.schema))
        self.n_pending += rows.num_rows
        while self.n_pending >= ROW_GROUP_ROWS:
            self._flush(ROW_GROUP_ROWS)

    def _flush(self, n: int) -> None:
        rows = pa.concat_tables(self.pending)
        # One chunk per column: page boundaries would otherwise follow the pieces.
        self.writer.write_table(rows.slice(0, n).combine_chunks(), row_group_size=ROW_GROUP_ROWS)
        rest = rows.slice(n)
        self.pending, self.n_pending = [rest], rest.num_rows
        self.n_written += n

    def abort(self) -> None:
        """Give up the file (after an error); a crash instead leaves it to the next writer."""
        self.writer.close()
        self.tmp.unlink(missing_ok=True)

    def close(self) -> tuple[str, str]:
        """Finish the file (durably, under its final name); returns (table, path)."""
        if self.n_pending or not self.n_written:  # an empty table still gets its row group
            self.pending = self.pending or [self.schema.empty_table()]
            self._flush(self.n_pending)
        self.writer.close()
        with open(self.tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(self.tmp, self.folder / Path(self.rel).name)
        return self.table, self.rel


class DataDir:
    """A data folder. Readers need no lock; writers take :meth:`writing`."""

    def __init__(self, root: Path | str, schemas: dict[str, pa.Schema] | None = None) -> None:
        self.root = Path(root)
        self._catalog_built: float | None = None  # set while this object holds the lock
        self._catalog_stale = False
        # The manifest as last committed, while this object holds the lock: nobody else
        # can change it then, and reading and checking a 10M-hand archive's (18,600 files,
        # 3 MB) several times per commit cost more than the commit's own work.
        self._held: dict | None = None
        if "?" in str(self.root.resolve()):
            # DuckDB reads "?" in a database path as the start of connection options.
            raise DataDirError(
                f"{root}: a data folder whose path contains '?' cannot hold the DuckDB "
                "catalog; choose another name"
            )
        self.schemas = dict(ALL_TABLES if schemas is None else schemas)
        self.fingerprints = {name: schema_fingerprint(s) for name, s in self.schemas.items()}

    # -- reading -----------------------------------------------------------------------

    def manifest(self) -> dict:
        """The committed manifest (do not modify it: a writer shares its copy)."""
        if self._held is not None:
            return self._held
        path = self.root / MANIFEST
        if not path.exists():
            return {"layout": LAYOUT, "version": 0, "tables": {}}
        try:
            manifest = msgspec.json.decode(path.read_bytes())
        except (OSError, msgspec.DecodeError) as exc:
            raise DataDirError(f"{path}: unreadable manifest ({exc})") from exc
        if not isinstance(manifest, dict) or manifest.get("layout") != LAYOUT:
            layout = manifest.get("layout") if isinstance(manifest, dict) else None
            raise DataDirError(f"{path}: not an mjaudit data folder (layout {layout!r})")
        for rels in manifest.get("tables", {}).values():
            for rel in rels:
                if not isinstance(rel, str) or rel.startswith("/") or ".." in rel.split("/"):
                    raise DataDirError(
                        f"{path}: names {rel!r}, which is outside the data folder; "
                        "the manifest has been edited or damaged"
                    )
        return manifest

    def exists(self) -> bool:
        return (self.root / MANIFEST).exists()

    def files(self, table: str) -> list[Path]:
        return [self.root / rel for rel in self.manifest()["tables"].get(table, [])]

    def scan(self, table: str) -> pl.LazyFrame:
        """A lazy frame over the committed files of ``table`` (empty if it has none)."""
        files = self.files(table)
        if not files:
            return pl.LazyFrame(schema=pl.from_arrow(self.schemas[table].empty_table()).schema)
        return pl.scan_parquet(files, glob=False)  # a folder may be named like a pattern

    def read(self, table: str) -> pa.Table:
        files = self.files(table)
        if not files:
            return self.schemas[table].empty_table()
        return pa.concat_tables(
            [pq.read_table(f, schema=self.schemas[table]) for f in files], promote_options="default"
        )

    # -- writing -----------------------------------------------------------------------

    @contextmanager
    def writing(
        self, wait: bool = False, on_wait: Callable[[str], None] = lambda message: None
    ) -> Iterator[DataDir]:
        """Hold the write lock; clean up what a crashed writer left; yield self. With
        ``wait``, a busy folder is waited for, and ``on_wait`` is told for whom."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(self.root / LOCK, timeout=0)
        try:
            lock.acquire()
        except filelock.Timeout:
            if not wait:
                who = self._writer()
                raise DataDirBusy(
                    f"{self.root}: another mjaudit command is writing to this data folder"
                    f"{f' ({who})' if who else ''}; wait for it to finish (or pass --wait to "
                    "queue behind it)"
                ) from None
            who = self._writer()
            on_wait(
                f"waiting for another mjaudit command{f' ({who})' if who else ''} to finish "
                f"writing to {self.root} ..."
            )
            lock.acquire(timeout=-1)
        self._note_writer()
        try:
            self._held = self.manifest()
            self._initialise()
            self._remove_orphans()
            # A writer interrupted between the manifest and the catalog left the catalog
            # one step behind; rebuilding it here repairs that whatever the next run adds.
            self.build_catalog()
            self._catalog_built = time.monotonic()
            yield self
        finally:
            try:
                shutil.rmtree(self.root / WORK, ignore_errors=True)  # scratch of this writer
                if self._catalog_stale:  # also after an error: the commits before it stand
                    self.build_catalog()
            finally:
                self._catalog_stale = False
                self._catalog_built = None
                self._held = None
                (self.root / WRITER).unlink(missing_ok=True)
                lock.release()

    def _note_writer(self) -> None:
        """Say who holds the lock (read by a command that finds the folder busy)."""
        who = {"command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]), "pid": os.getpid()}
        tmp = self.root / f"{WRITER}.{uuid.uuid4().hex}"
        tmp.write_bytes(msgspec.json.encode(who))
        os.replace(tmp, self.root / WRITER)

    def _writer(self) -> str | None:
        """The command holding the lock, as its writer noted it (None if it has not yet,
        or the note cannot be read)."""
        try:
            who = msgspec.json.decode((self.root / WRITER).read_bytes())
            return f"`{who['command']}`, pid {who['pid']}"
        except (OSError, msgspec.DecodeError, KeyError, TypeError):
            return None

    def _initialise(self) -> None:
        manifest = self.manifest()
        missing = [t for t in self.schemas if t not in manifest["tables"]]
        if missing or not self.exists():
            self.commit({t: self.schemas[t].empty_table() for t in missing}, allow_empty=True)

    def work_dir(self, name: str) -> Path:
        """An empty scratch folder for the current writer (call under :meth:`writing`);
        whatever a crashed writer left there is deleted by the next one."""
        folder = self.root / WORK / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    def _remove_orphans(self) -> None:
        shutil.rmtree(self.root / WORK, ignore_errors=True)
        known = {rel for files in self.manifest()["tables"].values() for rel in files}
        for table in self.schemas:
            folder = self.root / table
            if not folder.is_dir():
                continue
            for path in folder.rglob("*"):
                rel = path.relative_to(self.root).as_posix()
                if not path.is_file() or rel in known:
                    continue
                if path.suffix == ".parquet" or path.name.endswith(".tmp"):
                    path.unlink()

    def commit(self, tables: dict[str, pa.Table], allow_empty: bool = False) -> int:
        """Add ``tables`` (name -> rows) in one atomic step; return the new version.

        Tables with no rows are skipped unless ``allow_empty`` (used once, so that every
        table has a file and its view has columns).
        """
        parts = [
            Part(name, table)
            for name, table in sorted(tables.items())
            if table.num_rows or allow_empty
        ]
        return self.commit_parts(parts)

    def commit_parts(self, parts: Iterable[Part], remove: Iterable[str] = ()) -> int:
        """Add ``parts`` and drop the files ``remove`` (paths relative to the folder) from
        the manifest, in one atomic step. Removed files are deleted by the next writer."""
        return self.commit_staged(self.stage_parts(parts), remove)

    def stage_parts(self, parts: Iterable[Part]) -> list[tuple[str, str]]:
        """Write ``parts`` as files of the next commit, without committing them: a caller
        that produces its output piece by piece writes each piece as it comes (so it need
        not hold them all in memory) and commits them all at once with
        :meth:`commit_staged`. Until then they are not in the manifest; if the writer dies
        first, the next writer deletes them as orphans. Returns (table, path) per file."""
        version = self.manifest()["version"] + 1
        written: list[tuple[str, str]] = []
        for part in parts:
            writer = self.part_writer(part.table, part.stem, part.partition, version)
            try:
                writer.write(part.data)
                written.append(writer.close())
            except BaseException:
                writer.abort()
                raise
        return written

    def part_writer(
        self, table: str, stem: str = "part", partition: str = "", version: int | None = None
    ) -> PartWriter:
        """A file of the next commit (``version``, default the next one) written in pieces,
        for rows too many to hold at once; staged like :meth:`stage_parts`."""
        if version is None:
            version = self.manifest()["version"] + 1
        return PartWriter(self.root, table, self.schemas[table], stem, partition, version)

    def commit_staged(self, written: Iterable[tuple[str, str]], remove: Iterable[str] = ()) -> int:
        """Add the files of :meth:`stage_parts` and drop ``remove``, in one atomic step."""
        manifest = self.manifest()
        version = manifest["version"] + 1
        written = sorted(written)  # the manifest does not depend on the order they came in
        dropped = set(remove)
        if not written and not dropped:
            return manifest["version"]
        for folder in {(self.root / rel).parent for _, rel in written}:
            _fsync_dir(folder)
        new_tables = {
            t: [rel for rel in files if rel not in dropped]
            for t, files in manifest["tables"].items()
        }
        for table, rel in written:
            new_tables.setdefault(table, []).append(rel)
        # The schema each file was written with (files of older versions have none), so a
        # reader knows when a table's files all have the current columns (parquet_sql).
        schemas = {rel: fp for rel, fp in manifest.get("schemas", {}).items() if rel not in dropped}
        schemas.update((rel, self.fingerprints[table]) for table, rel in written)
        new_manifest = {
            "layout": LAYOUT,
            "version": version,
            "tables": new_tables,
            "schemas": schemas,
        }
        holding = self._held is not None
        self._held = None  # if the write fails half-way, read what is on disk
        _write_atomic(self.root / MANIFEST, msgspec.json.encode(new_manifest, order="sorted"))
        if holding:
            self._held = new_manifest
        # The catalog lists every file, so rebuilding it after each of a long ingest's
        # commits would cost time that grows with the archive. Inside `writing()` it is
        # rebuilt at most every CATALOG_EVERY seconds and when the writer finishes (and by
        # the next writer if this one is killed); readers of the manifest see every commit.
        if self._catalog_built is None or time.monotonic() - self._catalog_built >= CATALOG_EVERY:
            self.build_catalog()
            self._catalog_built = time.monotonic() if self._catalog_built is not None else None
            self._catalog_stale = False
        else:
            self._catalog_stale = True
        return version

    def compact(self, tables: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
        """Merge the files of each table partition into one, in one atomic commit.

        Ingest writes a file per batch and partition, so a folder fed many small ingests
        collects many small files; compaction rewrites each partition that has more than
        one file as a single file sorted by key (the rows are unchanged). Returns, per
        table, the number of files before and after.
        """
        manifest = self.manifest()["tables"]
        parts: list[Part] = []
        remove: list[str] = []
        counts: dict[str, tuple[int, int]] = {}
        for table in tables or [t for t in self.schemas if t in manifest]:
            rels_all = manifest.get(table, [])
            # The empty file every table starts with is dropped once others hold the rows.
            empty = [r for r in rels_all if pq.ParquetFile(self.root / r).metadata.num_rows == 0]
            if len(empty) < len(rels_all):
                remove.extend(empty)
            else:
                empty = empty[1:]
                remove.extend(empty)
            groups: dict[str, list[str]] = {}
            for rel in rels_all:
                if rel in empty:
                    continue
                folder = rel.rsplit("/", 1)[0]
                groups.setdefault(folder, []).append(rel)
            after = 0
            for folder, rels in sorted(groups.items()):
                stems = {_stem(rel) for rel in rels}
                if len(rels) < 2 or stems - {"part"}:  # bucket files are kept per bucket
                    after += len(rels)
                    continue
                merged = pa.concat_tables(
                    [pq.read_table(self.root / r, schema=self.schemas[table]) for r in rels]
                )
                keys = [
                    c
                    for c in ("game_id", "hand_no", "seat", "event_index")
                    if c in merged.column_names
                ]
                if keys:
                    merged = merged.sort_by([(k, "ascending") for k in keys])
                partition = folder.split("/", 1)[1] if "/" in folder else ""
                parts.append(Part(table, merged, "compact", partition))
                remove.extend(rels)
                after += 1
            counts[table] = (len(rels_all), after)
        if parts or remove:
            self.commit_parts(parts, remove)
        return counts

    def build_catalog(self) -> None:
        """Write ``catalog.duckdb``: one view per table over its committed files.

        Paths are absolute, so the catalog works from any working directory; every writing
        command rebuilds it when it starts and after each commit, so after moving the folder
        run any writing command (e.g. ``mjaudit replay``) to refresh it.
        """
        tmp = self.root / f".{CATALOG}.tmp"
        tmp.unlink(missing_ok=True)
        # Written in the oldest storage format that holds views, so that any DuckDB CLI
        # (the `duckdb` command installed with the project is 1.x) can open it.
        con = duckdb.connect(str(tmp), config={"storage_compatibility_version": "v1.0.0"})
        try:
            self.create_views(con)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, self.root / CATALOG)

    def create_views(self, con: duckdb.DuckDBPyConnection) -> None:
        """A view per table over its committed files (absolute paths), in ``con``."""
        manifest = self.manifest()
        for name, rels in sorted(manifest["tables"].items()):
            con.execute(
                f'CREATE VIEW "{name}" AS SELECT * FROM {self.parquet_sql(name, rels, manifest)}'
            )

    def parquet_sql(self, table: str, rels: Iterable[str], manifest: dict) -> str:
        """``read_parquet`` over the files ``rels`` of ``table`` (absolute paths).

        ``union_by_name`` (columns matched by name, missing ones null) only when a file was
        written with other columns than the current ones (by an older version): making a
        view with it reads every file's footer first, and every query pays for it again
        (at 1,145 files, 0.15 s per view and per query). hive_partitioning off: the
        ruleset=/month= folders only group files; the columns are in the files themselves.
        """
        rels = list(rels)
        written = manifest.get("schemas", {})
        same = all(written.get(rel) == self.fingerprints[table] for rel in rels)
        root = str(self.root.resolve()).replace("'", "''")  # once: resolve() is a syscall each
        listing = ", ".join(f"'{root}/" + rel.replace("'", "''") + "'" for rel in rels)
        union = "false" if same else "true"
        return f"read_parquet([{listing}], union_by_name={union}, hive_partitioning=false)"
