"""The journal: every accepted post, written before it is answered.

One append-only JSON Lines file per server. An entry is written before the post it
records is answered: handed to the operating system (``os``, the default) or fsync'd
(``disk``), see below. In ``disk`` mode the posts that arrive while an fsync runs share
the next one (group commit), so 200 tables do not cost 200 fsyncs. That fsync runs in the
event loop's thread (``disk`` mode's posts all wait for it anyway); the compaction's and ``os`` mode's
run in a thread of their own, as no post waits for them. On start-up the entries are read
back and the open hands rebuilt. A hand's entries are dropped once the hand is in the
archive: :meth:`Journal.compact` rewrites the file with the live entries only (a new file,
fsync'd, then renamed over the old one).

How far "on disk" goes is the server's ``--sync`` (:class:`Sync`): ``os`` (the default)
hands the entry to the operating system before answering and fsyncs within a second, as
Redis's ``appendfsync everysec`` does: an answered post survives the server being killed
(kill -9, a crash of the process), not the machine going down in that second, and no post
waits for the disk; ``disk`` fsyncs before answering, so an answered post survives the
machine losing power, and every post waits for the disk.

A last line cut short by a crash was never answered (it was never fully written, so never
fsync'd); it is ignored. Any other unreadable line is an error naming its line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, BinaryIO

import filelock
import msgspec
from mjaudit.parts.ingest.store import _fsync_dir, _write_atomic  # the data folder's own
from mjaudit.parts.service.sync import Sync

_encoder = msgspec.json.Encoder(order="sorted")
COMMITTED = "committed"  # the op of the note that a hand is in the archive
OS_SYNC_DELAY = 1.0  # seconds: how long an entry waits for its fsync in ``os`` mode


def _replace_durably(new: BinaryIO, tmp: Path, path: Path) -> None:
    """fsync ``new`` (the file at ``tmp``), rename it to ``path`` and fsync the folder."""
    os.fsync(new.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


class JournalError(RuntimeError):
    """The journal cannot be read back (a damaged line) or is held by another server."""


def read_entries(path: Path) -> Iterator[dict[str, Any]]:
    """The entries of a journal file, in order (a torn last line is skipped)."""
    if not path.exists():
        return
    lines = path.read_bytes().split(b"\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = msgspec.json.decode(line)
        except msgspec.DecodeError as exc:
            if number == len(lines):  # no newline after it: cut short, never answered
                return
            raise JournalError(f"{path}:{number}: unreadable journal entry ({exc})") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("hand"), str):
            raise JournalError(f"{path}:{number}: expected an object with a 'hand' id")
        yield entry


class Journal:
    """The journal of one server. Entries are dicts naming their ``hand``."""

    def __init__(self, path: Path, sync: Sync = Sync.OS) -> None:
        self.path = path
        self.sync = Sync(sync)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = filelock.FileLock(path.with_name(path.name + ".lock"), timeout=0)
        try:
            self._lock.acquire()
        except filelock.Timeout:
            raise JournalError(
                f"{path}: another mjaudit serve uses this journal; give this one its own "
                "(--journal) or stop the other"
            ) from None
        self.live: dict[str, list[bytes]] = {}  # hand id -> its lines, for compact()
        for entry in read_entries(path):
            if entry.get("op") == COMMITTED:  # what came before is in the archive
                self.live.pop(entry["hand"], None)
            else:
                self.live.setdefault(entry["hand"], []).append(_encoder.encode(entry) + b"\n")
        self._file = open(path, "ab")  # noqa: SIM115  (held open for the server's life)
        self._waiting: list[asyncio.Future[None]] = []  # posts written, not yet fsync'd
        self._flusher: asyncio.Task[None] | None = None
        self._fsync = ThreadPoolExecutor(1, thread_name_prefix="journal-fsync")
        self._compact_wanted = False
        self._next: BinaryIO | None = None  # the file a compaction is writing
        self._unsynced = False  # written since the last fsync began (``os`` mode)
        self.dropped = 0  # hands dropped since the last compaction

    def entries(self) -> Iterator[dict[str, Any]]:
        """The live entries read back at start-up, hand by hand."""
        for lines in self.live.values():
            for line in lines:
                yield msgspec.json.decode(line)

    def write(self, entry: dict[str, Any]) -> None:
        """Write ``entry``, not waiting for the disk (a note whose loss costs nothing)."""
        line = _encoder.encode(entry) + b"\n"
        self._file.write(line)
        if self._next is not None:  # a compaction is under way: the new file has it too
            self._next.write(line)
        self._unsynced = True
        self.live.setdefault(entry["hand"], []).append(line)

    async def append(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` and return once it is on disk.

        One flusher task fsyncs; the posts that write their entries during an fsync are
        covered together by the next one (group commit), so the disk sees one fsync per
        batch, not one per post."""
        self.write(entry)
        if self.sync is Sync.OS:
            # in the kernel's hands: a killed server does not lose it
            self._file.flush()
            if self._next is not None:
                self._next.flush()
            self._wake()
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(done)
        self._wake()
        await done

    def _wake(self) -> None:
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """The one task that touches the disk: group fsyncs of the posts waiting, the
        compaction, and in ``os`` mode the fsync a second after the entries' writes."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                if self._waiting:
                    # the posts whose handlers are ready write their lines first and share
                    # this fsync (group commit)
                    await asyncio.sleep(0)
                    waiting, self._waiting = self._waiting, []
                    try:
                        self._file.flush()
                        # In the loop's own thread, not the fsync thread: the hand-off to a
                        # thread and back cost two wake-ups and the GIL, 10 ms at the median
                        # on the loaded machine for a 1.5 ms fsync (docs/serve.md, Load).
                        # While it runs the loop waits, but so does every post in this
                        # mode; those arriving meanwhile share the next fsync.
                        os.fsync(self._file.fileno())
                    except OSError as exc:
                        for done in waiting:
                            if not done.done():
                                done.set_exception(exc)
                        continue
                    for done in waiting:
                        if not done.done():
                            done.set_result(None)
                elif self._compact_wanted:
                    with contextlib.suppress(OSError):  # the old file stays the journal
                        await self._compact_aside()
                elif self.sync is Sync.OS and self._unsynced:  # one fsync covers a second's
                    self._unsynced = False
                    await asyncio.sleep(OS_SYNC_DELAY)
                    self._file.flush()
                    await loop.run_in_executor(self._fsync, os.fsync, self._file.fileno())
                else:
                    return
        finally:
            self._flusher = None

    def committed(self, hand: str) -> None:
        """The hand is in the archive: note it (not waited for: if the note is lost, the
        hand is committed again at start-up and ingest skips it as present) and forget
        its entries, which compact() removes from the file."""
        self.write({"op": COMMITTED, "hand": hand})
        if self.live.pop(hand, None) is not None:
            self.dropped += 1

    def compact(self) -> None:
        """Have the file rewritten with the live entries only, off the event loop: the
        posts go on meanwhile (:meth:`_compact_aside`)."""
        self._compact_wanted = True
        self.dropped = 0
        self._wake()

    async def _compact_aside(self) -> None:
        """Write the live entries to a new file and put it in the old one's place while
        the posts go on. From the moment the new file holds them, every line written goes
        to both files, so whichever is the journal when the server dies holds every
        answered post: the old file until the rename, the new one (fsync'd, and its
        folder) after it. The posts that wait for the disk meanwhile are answered by the
        fsync of the new file that follows (:meth:`_flush`)."""
        loop = asyncio.get_running_loop()
        self._compact_wanted = False
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        new = open(tmp, "wb")  # noqa: SIM115  (becomes the journal's file)
        new.write(b"".join(b"".join(lines) for lines in self.live.values()))
        self._next = new
        try:
            new.flush()
            await loop.run_in_executor(self._fsync, os.fsync, new.fileno())
            new.flush()  # what the posts wrote meanwhile, with the rename's fsyncs
            await loop.run_in_executor(self._fsync, _replace_durably, new, tmp, self.path)
        except OSError:  # the old file stays the journal: it holds everything
            self._next = None
            new.close()
            raise
        old, self._file, self._next = self._file, new, None
        old.close()

    def _compact(self) -> None:
        """The same, at once (start-up and shut-down: no post is waiting)."""
        self._compact_wanted = False
        self._file.close()
        _write_atomic(self.path, b"".join(b"".join(lines) for lines in self.live.values()))
        self._file = open(self.path, "ab")  # noqa: SIM115
        self.dropped = 0

    async def close(self) -> None:
        """Wait for the fsync under way, rewrite the file with the live entries, let go."""
        while self._flusher is not None:
            await asyncio.shield(self._flusher)
        self._compact()
        self._fsync.shutdown(wait=True)
        self._file.close()
        self._lock.release()
