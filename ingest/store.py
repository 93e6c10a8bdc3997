"""The data folder: one Delta Lake table per table, committed together, plus the catalog.

Layout of ``DIR`` (default ``./mjdata``)::

    hands/_delta_log/     each table is a Delta Lake table (delta-rs writes its log)
    hands/ruleset=…/month=…/part-00000012.parquet
    ...
    _mjaudit/versions/00000012.json   commit 12 of the folder: each table's Delta version
    catalog.duckdb        a view per table over its current files
    .mjaudit.lock         held by the one command that writes

Delta Lake commits one table at a time; a commit of ours (an ingest batch, a replay)
touches several. So a commit writes its Parquet files, commits them to each table's
Delta log (``hands`` last, with the folder's version as the Delta ``txn`` of app
``mjaudit``), and then writes ``_mjaudit/versions/N.json`` naming each table's Delta
version, in one ``os.replace``. Our readers read the tables at those versions, so they
see every table as of the last completed commit; a writer that finds a table ahead of
the last version file (a crash between the two steps) restores it with Delta's
``restore``, so any Delta reader sees the same. The version files are all that is our
own: Delta Lake has no transaction over several tables. A folder of the manifest layout
(``_manifest.json``, mjdata/1) is converted by its first writer, its files kept as they are.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import filelock
import msgspec
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, Field, Schema
from deltalake.transaction import (
    AddAction,
    CommitProperties,
    PostCommitHookProperties,
    RemoveAction,
    Transaction,
    create_table_with_add_actions,
)
from mjaudit.parts.ingest import duck
from mjaudit.parts.schemas.tables import ALL_TABLES

MANIFEST = "_manifest.json"  # the mjdata/1 layout's list of files, converted by a writer
OWN = "_mjaudit"
VERSIONS = f"{OWN}/versions"
CATALOG = "catalog.duckdb"
LOCK = ".mjaudit.lock"
WRITER = ".mjaudit.writer"  # who holds the lock: its command line and pid, for a waiting one
WORK = ".work"  # scratch space of the writer holding the lock (e.g. the replay's spill)
LAYOUT = "mjdata/2"
OLD_LAYOUT = "mjdata/1"
APP_ID = "mjaudit"  # the Delta txn app id: its version is the folder's commit number
DELTA_LOG = "_delta_log"
ROW_GROUP_ROWS = 128 * 1024
CATALOG_EVERY = 30.0  # seconds between catalog rebuilds during one writing command
RETAIN_HOURS = 168  # default of `mjaudit compact --retain-hours` (Delta Lake's own default)
# Checkpoints as delta-rs makes them (every 100 commits), but no clean-up of old log
# entries after every commit: it halved a commit's wall time (43 against 84 ms) and saved
# 1.5 ms of CPU of 11; `mjaudit compact` cleans the log up with the vacuum instead.
HOOKS = PostCommitHookProperties(create_checkpoint=True, cleanup_expired_logs=False)
_VERSIONED = re.compile(r"-(\d{8})\.parquet$")


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
    """The data folder is not one of ours, or its version files or table logs are unreadable."""


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


def _file_version(rel: str) -> int:
    """The commit a file was written for, from its name (``…-00000012.parquet``); files
    named otherwise (written by another Delta writer) sort first."""
    m = _VERSIONED.search(rel)
    return int(m.group(1)) if m else 0


def _ordered(rels: Iterable[str]) -> list[str]:
    """A table's files in the order they were committed (and by name within a commit):
    readers concatenate them in this order, so rows come back in the same order as with
    the manifest, whatever order the Delta log lists them in."""
    return sorted(rels, key=lambda rel: (_file_version(rel), rel))


def _check_rel(where: Path, rel: object) -> None:
    if not isinstance(rel, str) or rel.startswith("/") or ".." in rel.split("/") or ":" in rel:
        raise DataDirError(
            f"{where}: names {rel!r}, which is outside the data folder; "
            "the table log has been edited or damaged"
        )


def _stats(path: Path, schema: pa.Schema) -> str:
    """The Delta ``stats`` of a file we wrote: its rows, and min/max/null counts of its
    integer columns (exact in the Parquet footer), so Delta readers can skip files."""
    meta = pq.read_metadata(path)
    stats: dict[str, object] = {"numRecords": meta.num_rows}
    lows: dict[str, int] = {}
    highs: dict[str, int] = {}
    nulls: dict[str, int] = {}
    names = {meta.schema.column(i).path: i for i in range(meta.num_columns)}
    for field in schema:
        i = names.get(field.name)
        if i is None or not pa.types.is_integer(field.type):
            continue
        groups = [meta.row_group(g).column(i).statistics for g in range(meta.num_row_groups)]
        if not groups or any(
            s is None or not s.has_min_max or not s.has_null_count for s in groups
        ):
            continue
        lows[field.name] = min(int(s.min) for s in groups)
        highs[field.name] = max(int(s.max) for s in groups)
        nulls[field.name] = sum(int(s.null_count) for s in groups)
    if lows:
        stats.update(minValues=lows, maxValues=highs, nullCount=nulls)
    return json.dumps(stats, sort_keys=True)


def _delta_files(table: DeltaTable) -> list[str]:
    """The files of a Delta table version, relative to the table's folder."""
    return pa.table(table.get_add_actions(flatten=False)).column("path").to_pylist()


def _now_ms() -> int:
    return int(time.time() * 1000)


def _parse_as_of(text: str) -> int | datetime:
    """``--as-of``: a version number, or an ISO date/time (UTC unless it says otherwise)."""
    if text.isdigit():
        return int(text)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise DataDirError(
            f"--as-of {text!r}: expected a version number (e.g. 12) or an ISO date/time "
            "(e.g. 2026-12-02T14:00:00+00:00)"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


parse_as_of = _parse_as_of


class DataDir:
    """A data folder. Readers need no lock; writers take :meth:`writing`. With ``as_of``
    (a version number or a time), a read-only view of the folder as it was then."""

    def __init__(
        self,
        root: Path | str,
        schemas: dict[str, pa.Schema] | None = None,
        as_of: int | datetime | None = None,
    ) -> None:
        self.root = Path(root)
        self.as_of = as_of
        self._catalog_built: float | None = None  # set while this object holds the lock
        self._catalog_stale = False
        # The tables as last committed, while this object holds the lock: nobody else
        # can change them then, and opening every table's log per call costs time.
        self._held: dict | None = None
        self._cached: dict | None = None  # a reader's last snapshot, by its version file
        self._tables: dict[str, DeltaTable] = {}  # the writer's open tables
        if "?" in str(self.root.resolve()):
            # DuckDB reads "?" in a database path as the start of connection options.
            raise DataDirError(
                f"{root}: a data folder whose path contains '?' cannot hold the DuckDB "
                "catalog; choose another name"
            )
        self.schemas = dict(ALL_TABLES if schemas is None else schemas)
        self.fingerprints = {name: schema_fingerprint(s) for name, s in self.schemas.items()}

    # -- reading -----------------------------------------------------------------------

    def _versions(self) -> list[int]:
        folder = self.root / VERSIONS
        if not folder.is_dir():
            return []
        return sorted(int(p.name[:-5]) for p in folder.glob("*.json") if p.name[:-5].isdigit())

    def _record(self, version: int) -> dict:
        path = self.root / VERSIONS / f"{version:08d}.json"
        try:
            record = msgspec.json.decode(path.read_bytes())
        except (OSError, msgspec.DecodeError) as exc:
            raise DataDirError(f"{path}: unreadable version file ({exc})") from exc
        if not isinstance(record, dict) or record.get("layout") != LAYOUT:
            raise DataDirError(f"{path}: not an mjaudit version file")
        return record

    def _chosen(self) -> int | None:
        """The version file readers read: the latest, or the one ``as_of`` names."""
        versions = self._versions()
        if self.as_of is None:
            return versions[-1] if versions else None
        if not versions:
            raise DataDirError(f"{self.root}: no versions to go back to (nothing committed)")
        if isinstance(self.as_of, int):
            if self.as_of not in versions:
                raise DataDirError(
                    f"{self.root}: no version {self.as_of}; its versions are "
                    f"{versions[0]}-{versions[-1]}"
                )
            return self.as_of
        chosen = None
        for v in versions:  # the last one committed at or before the time
            if datetime.fromisoformat(self._record(v)["at"]) <= self.as_of:
                chosen = v
        if chosen is None:
            first = self._record(versions[0])["at"]
            raise DataDirError(
                f"{self.root}: nothing was committed by {self.as_of} (first: {first})"
            )
        return chosen

    def manifest(self) -> dict:
        """The committed snapshot (do not modify it: a writer shares its copy): ``version``,
        ``tables`` (name -> files relative to the folder, in commit order), ``mixed``
        (tables with files of older columns) and ``delta`` (name -> Delta version)."""
        if self._held is not None:
            return self._held
        chosen = self._chosen()
        if chosen is None:
            if (self.root / MANIFEST).exists():
                return self._legacy()
            return {"layout": LAYOUT, "version": 0, "tables": {}, "mixed": [], "delta": {}}
        if self._cached is not None and self._cached["version"] == chosen:
            return self._cached
        record = self._record(chosen)
        tables: dict[str, list[str]] = {}
        for name, dv in sorted(record["tables"].items()):
            try:
                files = _delta_files(DeltaTable(self.root / name, version=dv))
            except Exception as exc:  # deltalake raises its own errors for a bad log
                raise DataDirError(f"{self.root / name}: unreadable Delta table ({exc})") from exc
            for rel in files:
                _check_rel(self.root / name / DELTA_LOG, rel)
            tables[name] = _ordered(f"{name}/{rel}" for rel in files)
        snapshot = {
            "layout": LAYOUT,
            "version": record["version"],
            "at": record["at"],
            "tables": tables,
            "mixed": list(record.get("mixed", [])),
            "delta": dict(record["tables"]),
        }
        if self.as_of is not None:
            gone = [
                rel for rels in tables.values() for rel in rels if not (self.root / rel).exists()
            ]
            if gone:
                raise DataDirError(
                    f"{self.root}: version {chosen}'s files were removed by `mjaudit compact` "
                    f"(vacuum; e.g. {gone[0]}); versions older than its --retain-hours "
                    "cannot be read"
                )
        self._cached = snapshot
        return snapshot

    def _legacy(self) -> dict:
        """A folder of the manifest layout (mjdata/1), as its manifest says, until a
        writer converts it."""
        path = self.root / MANIFEST
        try:
            manifest = msgspec.json.decode(path.read_bytes())
        except (OSError, msgspec.DecodeError) as exc:
            raise DataDirError(f"{path}: unreadable manifest ({exc})") from exc
        if not isinstance(manifest, dict) or manifest.get("layout") != OLD_LAYOUT:
            layout = manifest.get("layout") if isinstance(manifest, dict) else None
            raise DataDirError(f"{path}: not an mjaudit data folder (layout {layout!r})")
        for rels in manifest.get("tables", {}).values():
            for rel in rels:
                _check_rel(path, rel)
        written = manifest.get("schemas", {})
        mixed = [
            t
            for t, rels in sorted(manifest["tables"].items())
            if any(written.get(rel) != self.fingerprints.get(t) for rel in rels)
        ]
        return {**manifest, "layout": OLD_LAYOUT, "mixed": mixed, "delta": {}}

    def history(self) -> list[dict]:
        """Every version of the folder, oldest first: its number, time (UTC) and the tables
        it changed (a folder of the manifest layout has no history: its one version)."""
        rows: list[dict] = []
        before: dict[str, int] = {}
        for v in self._versions():
            record = self._record(v)
            changed = sorted(t for t, dv in record["tables"].items() if before.get(t) != dv)
            rows.append({"version": v, "at": record["at"], "changed": changed})
            before = record["tables"]
        return rows

    def version(self) -> int:
        """The folder's current version, cheaply (the newest version file's name)."""
        if self._held is not None or self.as_of is not None:
            return int(self.manifest()["version"])
        versions = self._versions()
        return versions[-1] if versions else int(self.manifest()["version"])

    def exists(self) -> bool:
        return bool(self._versions()) or (self.root / MANIFEST).exists()

    def files(self, table: str) -> list[Path]:
        return [self.root / rel for rel in self.manifest()["tables"].get(table, [])]

    def scan(self, table: str) -> pl.LazyFrame:
        """A lazy frame over the committed files of ``table`` (empty if it has none)."""
        files = self.files(table)
        if not files:
            return pl.LazyFrame(schema=pl.from_arrow(self.schemas[table].empty_table()).schema)
        if table in self.manifest().get("mixed", []):  # files of older columns: by name
            schema = pl.from_arrow(self.schemas[table].empty_table()).schema
            return pl.scan_parquet(
                files, glob=False, schema=schema, missing_columns="insert", extra_columns="ignore"
            )
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
        """Hold the write lock; convert a folder of the manifest layout; undo what a
        crashed writer left; yield self. With ``wait``, a busy folder is waited for, and
        ``on_wait`` is told for whom."""
        if self.as_of is not None:
            raise DataDirError(f"{self.root}: a view as of a past version cannot be written")
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
            self._cached = None
            self.upgrade()
            self._recover()
            self._held = self.manifest()
            self._initialise()
            self._remove_orphans()
            # A writer interrupted between its commit and the catalog left the catalog
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
                self._cached = None
                self._tables = {}
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

    def upgrade(self) -> bool:
        """Convert a folder of the manifest layout (mjdata/1) into Delta tables, in place
        (call under :meth:`writing`, which does): each table's committed files become the
        first version of its Delta table, unchanged; the files no manifest named (left by
        a crash) are removed, as that layout's next writer would. Returns whether it did.

        Safe to interrupt: until the version file is written the manifest is the truth
        and a re-run starts over; the manifest is then kept as ``_mjaudit/mjdata-1-manifest.json``."""
        old = self.root / MANIFEST
        if not old.exists():
            return False
        if self._versions():  # converted; the manifest's move did not happen
            os.replace(old, self.root / OWN / "mjdata-1-manifest.json")
            return False
        manifest = self._legacy()
        version = int(manifest["version"])
        named = {rel for rels in manifest["tables"].values() for rel in rels}
        shutil.rmtree(self.root / WORK, ignore_errors=True)
        for folder in sorted(p for p in self.root.iterdir() if p.is_dir()):
            if folder.name.startswith((".", "_")):
                continue
            shutil.rmtree(folder / DELTA_LOG, ignore_errors=True)  # an interrupted conversion
            for path in folder.rglob("*"):
                rel = path.relative_to(self.root).as_posix()
                if path.is_file() and rel not in named and path.suffix in (".parquet", ".tmp"):
                    path.unlink()
        delta: dict[str, int] = {}
        for name, rels in sorted(manifest["tables"].items()):
            schema = self.schemas.get(name) or pq.read_schema(self.root / rels[0])
            if name in manifest["mixed"]:  # the table's columns as its newest files have them
                schema = self._union_schema(name, rels, schema)
            adds = [self._add_action(name, rel, schema) for rel in rels]
            create_table_with_add_actions(
                str(self.root / name),
                Schema.from_arrow(schema),
                adds,
                mode="error",
                commit_properties=self._txn(version),
            )
            delta[name] = 0
        self._write_record(version, delta, manifest["mixed"])
        os.replace(old, self.root / OWN / "mjdata-1-manifest.json")
        self._cached = None
        return True

    def _union_schema(self, table: str, rels: list[str], current: pa.Schema) -> pa.Schema:
        """The current columns, then any an older file has that they have not."""
        extra: list[pa.Field] = []
        for rel in rels:
            for field in pq.read_schema(self.root / rel):
                if current.get_field_index(field.name) < 0 and field.name not in {
                    f.name for f in extra
                }:
                    extra.append(field)
        return pa.schema([*current, *extra])

    def _recover(self) -> None:
        """Restore every table that is ahead of the last version file (a writer died
        between committing its tables and writing the version file) to the version it
        names, with Delta's restore: a new Delta version, so the log keeps what happened."""
        versions = self._versions()
        record = self._record(versions[-1]) if versions else {"tables": {}}
        for folder in sorted(p for p in self.root.iterdir() if (p / DELTA_LOG).is_dir()):
            pinned = record["tables"].get(folder.name, 0)  # a table's version 0 is its creation
            table = DeltaTable(folder)
            if table.version() > pinned:
                table.restore(pinned)

    def _table(self, name: str) -> DeltaTable | None:
        """The writer's open Delta table ``name`` (None if it does not exist yet)."""
        if name not in self._tables:
            if not (self.root / name / DELTA_LOG).is_dir():
                return None
            self._tables[name] = DeltaTable(self.root / name)
        return self._tables[name]

    def _txn(self, version: int) -> CommitProperties:
        return CommitProperties(app_transactions=[Transaction(APP_ID, version)])

    def _add_action(self, table: str, rel: str, schema: pa.Schema) -> AddAction:
        path = self.root / rel
        st = path.stat()
        inner = rel.split("/", 1)[1]
        return AddAction(inner, st.st_size, {}, int(st.st_mtime * 1000), True, _stats(path, schema))

    def _write_record(self, version: int, delta: dict[str, int], mixed: Iterable[str]) -> None:
        record = {
            "layout": LAYOUT,
            "version": version,
            "at": datetime.now(UTC).isoformat(timespec="microseconds"),
            "tables": dict(sorted(delta.items())),
            "mixed": sorted(set(mixed)),
        }
        folder = self.root / VERSIONS
        folder.mkdir(parents=True, exist_ok=True)
        _write_atomic(folder / f"{version:08d}.json", msgspec.json.encode(record, order="sorted"))

    def _initialise(self) -> None:
        manifest = self.manifest()
        missing = [t for t in self.schemas if t not in manifest["tables"]]
        if missing:
            self.commit({t: self.schemas[t].empty_table() for t in missing}, allow_empty=True)

    def work_dir(self, name: str) -> Path:
        """An empty scratch folder for the current writer (call under :meth:`writing`);
        whatever a crashed writer left there is deleted by the next one."""
        folder = self.root / WORK / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    def _remove_orphans(self) -> None:
        """Delete what a crashed writer left: its scratch space, its unfinished files, and
        the files it wrote for a commit that never completed (named for a later version
        than the last one; :meth:`_recover` has taken them out of the tables). Files that
        a commit removed stay until ``mjaudit compact`` vacuums them: older versions
        read them."""
        shutil.rmtree(self.root / WORK, ignore_errors=True)
        manifest = self.manifest()
        version = manifest["version"]
        known = {rel for files in manifest["tables"].values() for rel in files}
        for table in self.schemas:
            folder = self.root / table
            if not folder.is_dir():
                continue
            for path in folder.rglob("*"):
                if not path.is_file() or DELTA_LOG in path.parts:
                    continue
                rel = path.relative_to(self.root).as_posix()
                if path.name.endswith(".tmp") or (
                    path.suffix == ".parquet" and rel not in known and _file_version(rel) > version
                ):
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

    def commit_parts(
        self, parts: Iterable[Part], remove: Iterable[str] = (), settled: Iterable[str] = ()
    ) -> int:
        """Add ``parts`` and drop the files ``remove`` (paths relative to the folder) from
        the tables, in one atomic step. Removed files are deleted by ``mjaudit compact``.
        ``settled``: tables whose files all have the current columns after it."""
        return self.commit_staged(self.stage_parts(parts), remove, settled)

    def stage_parts(self, parts: Iterable[Part]) -> list[tuple[str, str]]:
        """Write ``parts`` as files of the next commit, without committing them: a caller
        that produces its output piece by piece writes each piece as it comes (so it need
        not hold them all in memory) and commits them all at once with
        :meth:`commit_staged`. Until then no table names them; if the writer dies first,
        the next writer deletes them as orphans. Returns (table, path) per file."""
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

    def commit_staged(
        self,
        written: Iterable[tuple[str, str]],
        remove: Iterable[str] = (),
        settled: Iterable[str] = (),
    ) -> int:
        """Add the files of :meth:`stage_parts` and drop ``remove``, in one atomic step:
        one Delta commit per table touched (``hands`` last), then the version file."""
        manifest = self.manifest()
        version = manifest["version"] + 1
        written = sorted(written)  # the tables do not depend on the order they came in
        dropped = set(remove)
        if not written and not dropped:
            return manifest["version"]
        for folder in {(self.root / rel).parent for _, rel in written}:
            _fsync_dir(folder)
        adds: dict[str, list[str]] = {}
        for table, rel in written:
            adds.setdefault(table, []).append(rel)
        removes: dict[str, list[str]] = {}
        for rel in sorted(dropped):
            removes.setdefault(rel.split("/", 1)[0], []).append(rel)
        delta = dict(manifest["delta"])
        mixed = set(manifest.get("mixed", [])) - set(settled)
        touched = sorted(set(adds) | set(removes), key=lambda t: (t == "hands", t))
        for name in touched:
            delta[name] = self._commit_table(
                name, adds.get(name, []), removes.get(name, []), version, mixed
            )
        new_tables = {
            t: [rel for rel in files if rel not in dropped]
            for t, files in manifest["tables"].items()
        }
        for table, rels in adds.items():
            new_tables[table] = _ordered([*new_tables.get(table, []), *rels])
        holding = self._held is not None
        self._held = None  # if the write fails half-way, read what is on disk
        self._write_record(version, delta, mixed)
        snapshot = {
            "layout": LAYOUT,
            "version": version,
            "at": self._record(version)["at"],
            "tables": new_tables,
            "mixed": sorted(mixed),
            "delta": delta,
        }
        self._cached = snapshot
        if holding:
            self._held = snapshot
        # The catalog lists every file, so rebuilding it after each of a long ingest's
        # commits would cost time that grows with the archive. Inside `writing()` it is
        # rebuilt at most every CATALOG_EVERY seconds and when the writer finishes (and by
        # the next writer if this one is killed); readers of the tables see every commit.
        if self._catalog_built is None or time.monotonic() - self._catalog_built >= CATALOG_EVERY:
            self.build_catalog()
            self._catalog_built = time.monotonic() if self._catalog_built is not None else None
            self._catalog_stale = False
        else:
            self._catalog_stale = True
        return version

    def _commit_table(
        self, name: str, adds: list[str], removes: list[str], version: int, mixed: set[str]
    ) -> int:
        """One Delta commit of ``name``: its new files and the ones it drops; the table is
        created by its first commit, and gains the columns the current schema adds
        (Delta's schema evolution). Returns its new Delta version."""
        schema = self.schemas[name]
        actions: list[AddAction | RemoveAction] = [self._add_action(name, r, schema) for r in adds]
        for rel in removes:
            path = self.root / rel
            size = path.stat().st_size if path.exists() else None
            actions.append(RemoveAction(rel.split("/", 1)[1], True, _now_ms(), size, {}))
        table = self._table(name)
        if table is None:
            create_table_with_add_actions(
                str(self.root / name),
                Schema.from_arrow(schema),
                [a for a in actions if isinstance(a, AddAction)],
                mode="error",
                commit_properties=self._txn(version),
                post_commithook_properties=HOOKS,
            )
            return self._table(name).version()  # type: ignore[union-attr]
        have = set(pa.schema(table.schema().to_arrow()).names)
        new = [f for f in schema if f.name not in have]
        if new:
            if self.manifest()["tables"].get(name):
                mixed.add(name)  # files without the new columns: readers match by name
            table.alter.add_columns([Field.from_arrow(f) for f in new])
            table.update_incremental()
        table.create_write_transaction(
            actions,
            mode="append",
            schema=schema,
            commit_properties=self._txn(version),
            post_commithook_properties=HOOKS,
        )
        table.update_incremental()
        return table.version()

    def compact(
        self, tables: Iterable[str] | None = None, retain_hours: int = RETAIN_HOURS
    ) -> dict[str, tuple[int, int]]:
        """Merge the files of each table partition into one, in one atomic commit, then
        vacuum: delete the files no version newer than ``retain_hours`` reads.

        Ingest writes a file per batch and partition, so a folder fed many small ingests
        collects many small files; compaction rewrites each partition that has more than
        one file as a single file sorted by key (the rows are unchanged), and every file
        of a table that has files of older columns in the current ones. Not Delta's
        ``optimize``: the tables have no Delta partition columns (the month is not a
        column), so it would merge across the ruleset/month folders and the replay's
        buckets. Returns, per table, the number of files before and after.
        """
        snapshot = self.manifest()
        manifest = snapshot["tables"]
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
            rewrite = table in snapshot.get("mixed", [])
            groups: dict[tuple[str, str], list[str]] = {}
            for rel in rels_all:
                if rel in empty:
                    continue
                folder = rel.rsplit("/", 1)[0]
                stem = _stem(rel)
                # bucket files are kept per bucket; plain files (an ingest commit's
                # batches: part, part.000001, ...) merge per folder
                plain = stem in ("part", "compact") or stem.startswith("part.")
                group = (folder, "part" if plain else rel)
                groups.setdefault(group, []).append(rel)
            after = 0
            for (folder, kind), rels in sorted(groups.items()):
                if not rewrite and (len(rels) < 2 or kind != "part"):
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
                if keys and kind == "part":
                    merged = merged.sort_by([(k, "ascending") for k in keys])
                partition = folder.split("/", 1)[1] if "/" in folder else ""
                stem = "compact" if kind == "part" else _stem(rels[0])
                parts.append(Part(table, merged, stem, partition))
                remove.extend(rels)
                after += 1
            counts[table] = (len(rels_all), after)
        if parts or remove:
            # every file of a mixed table was rewritten with the current columns
            settled = set(snapshot.get("mixed", [])) & set(counts)
            self.commit_parts(parts, remove, settled)
        self.vacuum(retain_hours)
        return counts

    def vacuum(self, retain_hours: int = RETAIN_HOURS) -> int:
        """Delete the files that no table version of the last ``retain_hours`` reads
        (Delta's vacuum); returns how many. Older versions cannot be read after it."""
        snapshot = self.manifest()
        delta = dict(snapshot["delta"])
        removed = 0
        for name in sorted(snapshot["tables"]):
            table = self._table(name) or DeltaTable(self.root / name)
            removed += len(
                table.vacuum(
                    retention_hours=retain_hours,
                    dry_run=False,
                    enforce_retention_duration=False,
                )
            )
            table.cleanup_metadata()  # log entries past the table's log retention (30 days)
            table.update_incremental()
            delta[name] = table.version()
        if delta != snapshot["delta"]:  # vacuum logs a commit: a version of the folder
            version = snapshot["version"] + 1
            self._write_record(version, delta, snapshot.get("mixed", []))
            snapshot = {**snapshot, "version": version, "delta": delta}
            snapshot["at"] = self._record(version)["at"]
            self._cached = snapshot
            if self._held is not None:
                self._held = snapshot
        return removed

    def build_catalog(self) -> None:
        """Write ``catalog.duckdb``: one view per table over its current files.

        Paths are absolute, so the catalog works from any working directory; it records
        the folder and version it was built for (table ``_mjaudit_catalog``), and every
        mjaudit command that opens the folder rebuilds it when they are not this folder's
        (:meth:`refresh_catalog`: a moved or copied folder), as ``mjaudit catalog`` does.
        """
        tmp = self.root / f".{CATALOG}.{uuid.uuid4().hex}.tmp"
        # Written in the oldest storage format that holds views, so that any DuckDB CLI
        # (the `duckdb` command installed with the project is 1.x) can open it.
        con = duck.connect(str(tmp), config={"storage_compatibility_version": "v1.0.0"})
        try:
            self.create_views(con)
            con.execute(
                "CREATE TABLE _mjaudit_catalog AS SELECT ? AS root, ? AS version",
                [str(self.root.resolve()), int(self.manifest()["version"])],
            )
            con.execute("CHECKPOINT")
        except BaseException:
            con.close()
            tmp.unlink(missing_ok=True)
            raise
        con.close()
        os.replace(tmp, self.root / CATALOG)

    def catalog_current(self) -> bool:
        """Whether ``catalog.duckdb`` was built for this folder, where it is now, at its
        current version."""
        path = self.root / CATALOG
        if not path.exists():
            return False
        try:
            con = duck.connect(str(path), read_only=True)
            try:
                row = con.execute("SELECT root, version FROM _mjaudit_catalog").fetchone()
            finally:
                con.close()
        except duckdb.Error:
            return False
        return row == (str(self.root.resolve()), int(self.manifest()["version"]))

    def refresh_catalog(self) -> bool:
        """Rebuild ``catalog.duckdb`` if it is stale (the folder was moved or copied, or a
        writer was killed before rebuilding it); returns whether it did. A reader may do
        this without the lock: the file is replaced in one step. A read-only folder (or
        one with a damaged file) keeps its catalog as it is."""
        if self.as_of is not None or not self.exists() or self.catalog_current():
            return False
        try:
            self.build_catalog()
        except (OSError, duckdb.Error):  # read-only, or a damaged file: the reader goes on
            return False
        return True

    def create_views(self, con: duckdb.DuckDBPyConnection) -> None:
        """A view per table over its committed files (absolute paths), in ``con``."""
        manifest = self.manifest()
        for name, rels in sorted(manifest["tables"].items()):
            con.execute(
                f'CREATE VIEW "{name}" AS SELECT * FROM {self.parquet_sql(name, rels, manifest)}'
            )

    def parquet_sql(self, table: str, rels: Iterable[str], manifest: dict) -> str:
        """``read_parquet`` over the files ``rels`` of ``table`` (absolute paths).

        ``union_by_name`` (columns matched by name, missing ones null) only when the table
        has files written with other columns than the current ones (by an older version):
        making a view with it reads every file's footer first, and every query pays for it
        again (at 1,145 files, 0.15 s per view and per query). hive_partitioning off: the
        ruleset=/month= folders only group files; the columns are in the files themselves.
        """
        rels = list(rels)
        root = str(self.root.resolve()).replace("'", "''")  # once: resolve() is a syscall each
        listing = ", ".join(f"'{root}/" + rel.replace("'", "''") + "'" for rel in rels)
        union = "true" if table in manifest.get("mixed", []) else "false"
        return f"read_parquet([{listing}], union_by_name={union}, hive_partitioning=false)"
