"""Finished hands into the archive, exactly as ``mjaudit ingest`` puts them there.

Each hand's record goes through ingest's own :class:`~ingest.pipeline.Ingestor` (the same
parsing, validation, quarantine and de-duplication by key and content hash) under the data
folder's write lock, waited for like ``ingest --wait``. A hand committed twice (a retried
``end``, a restart after a crash between the commit and the journal's note of it) is
recognised as present and skipped: nothing lost, nothing twice. Hands that end while a
commit runs are committed together by the next one.

Each hand is named ``serve:<table>:<hand id>`` as its source (line 1), so the quarantine
knows where a refused hand came from and a hand refused twice is kept once.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mjaudit.parts.ingest.pipeline import Ingestor, IngestSummary
from mjaudit.parts.ingest.sources import RawRecord
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.schemas.records import canonical_json


@dataclass(frozen=True)
class Finished:
    """A hand to commit: its id, the table it was played at, its whole record as the
    canonical JSON line ingest reads.

    Bytes, not the record's dicts: the batch is pickled to the commit worker in a thread
    of the server that holds the GIL while it pickles, and a batch of dicts kept the event
    loop (every table's posts) waiting up to 5 ms; a batch of bytes is copied at once."""

    hand: str
    table: str
    line: bytes

    @classmethod
    def of(cls, hand: str, table: str, record: dict[str, Any]) -> Finished:
        return cls(hand, table, canonical_json(record))

    @property
    def source(self) -> str:
        return f"serve:{self.table}:{self.hand}"


def commit(
    root: Path, hands: list[Finished], on_wait: Callable[[str], None] = lambda m: None
) -> dict[str, dict[str, Any]]:
    """Commit ``hands`` in one ingest batch; per hand id: whether the archive holds it now
    (``stored``) or refused it (``quarantined``, with ingest's message), and the batch's
    counts. Blocking: run it in a thread."""
    summary = IngestSummary(files=0)
    data = DataDir(root)
    with data.writing(wait=True, on_wait=on_wait):
        ingestor = Ingestor(data, summary)
        ingestor.MAX_MESSAGES = len(hands) + 10  # every refused hand's message is kept
        for hand in hands:
            ingestor.add_record(hand.source, RawRecord(1, hand.line))
        ingestor.finish()
    counts = {
        "hands_added": summary.hands_added,
        "skipped_present": summary.skipped_present,
        "quarantined": summary.n_quarantined,
    }
    refused = {m.split(":1: ", 1)[0]: m for m in summary.messages}
    out: dict[str, dict[str, Any]] = {}
    for hand in hands:
        message = refused.get(hand.source)
        out[hand.hand] = {
            "status": "quarantined" if message else "stored",
            "message": message,
            "batch": counts,
        }
    return out


PARENT_POLL = 1.0  # seconds between the commit worker's looks at its server
WORKER_NICE = 10  # the commit worker's niceness, added to its server's


def background(server: int) -> None:
    """The commit worker's start: it ends when its server is gone. It holds its own end
    of the pool's call queue, so a server killed with ``kill -9`` would otherwise leave
    it running for good (a commit it is in is cut as a killed ingest's would be: the data
    folder's writes are atomic).

    It runs at a lower priority (:data:`WORKER_NICE`) than its server: a commit is a
    second of CPU in bursts, and on two cores shared with the server and the tables it
    took the core a post needed. The Linux scheduler shares the CPU between sessions
    first (autogroups), so the niceness only orders this worker after its own server:
    other work on the machine is not affected. An end waits longer for its commit; the
    hands that end meanwhile are committed together by the next one."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    # SCHED_IDLE on top: a post woken while the worker runs takes the core at once, where
    # at nice +10 it could wait out the worker's time slice (a few ms at the tail).
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_POLL)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def ready() -> bool:
    """Nothing: submitted once so that the worker process is started and has imported this
    module (and so ingest) before the first hand ends."""
    return True


class Committer:
    """Commits finished hands in the background, batching those that wait."""

    def __init__(self, root: Path, process: bool = True) -> None:
        self.root = root
        # In a process of its own, the commit's Python work (ingest, polars, the catalog)
        # does not hold the GIL the event loop needs: the posts of the other tables are not
        # kept waiting while a hand is committed. ``process=False``: a thread (tests).
        self._pool: Executor = (
            ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=background,
                initargs=(os.getpid(),),
            )
            if process
            else ThreadPoolExecutor(1)
        )
        self._pending: dict[str, tuple[Finished, asyncio.Future[dict[str, Any]]]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        # The worker starts now (a spawned process imports ingest, polars, DuckDB: seconds
        # of CPU), not at the first end while the tables are playing.
        self._pool.submit(ready)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._pool.shutdown(wait=True)  # a commit under way finishes

    def submit(self, hand: Finished) -> asyncio.Future[dict[str, Any]]:
        """Queue ``hand``; the future gives its archive status once committed."""
        if hand.hand in self._pending:
            return self._pending[hand.hand][1]
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[hand.hand] = (hand, future)
        self._wake.set()
        return future

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, {}
            if not batch:
                continue
            hands = [h for h, _ in batch.values()]
            try:
                loop = asyncio.get_running_loop()
                done = await loop.run_in_executor(self._pool, commit, self.root, hands)
            except Exception as exc:  # the disk, the lock: every waiting hand is told
                for _, future in batch.values():
                    if not future.done():
                        future.set_exception(exc)
                continue
            for hand_id, (_, future) in batch.items():
                if not future.done():
                    future.set_result(done[hand_id])
