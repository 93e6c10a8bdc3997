"""Distributed ``mjaudit replay`` on Dask (``--scheduler ADDRESS`` or ``--cluster local``).

The work is the local pool's (:func:`replay.archive.replay_archive`): one task per chunk
of stale games (:func:`replay.archive.replay_chunk`, which reads the data folder itself
and returns the rows by bucket, spilled by the client to the folder's work area), then one
task per bucket (:func:`replay.archive.finish_bucket`, which writes the bucket's new files
uncommitted). The client commits them exactly as the local path does, under the data
folder's write lock, so the output is byte-identical whatever runs the tasks, and a task
that is retried (a worker that died) only recomputes the same rows or bucket files.

Workers must see the data folder at the same absolute path as the client (a shared
filesystem) and have ``mahjong-audit`` installed. Dask is imported only here, and only
when a distributed run is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any

INSTALL_HINT = "pip install mahjong-audit[distributed]"


class DistributedUnavailable(RuntimeError):
    """Dask (``dask[distributed]``) is not installed, or the scheduler cannot be reached."""


def require_dask() -> None:
    """Fail early, with the install command, when ``dask.distributed`` is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError as exc:
        raise DistributedUnavailable(
            f"distributed replay needs Dask, which is not installed ({exc}); "
            f"install it with: {INSTALL_HINT}"
        ) from None


@contextmanager
def dask_client(scheduler: str | None, local_workers: int) -> Iterator[Any]:
    """A ``distributed.Client`` on ``scheduler``, or on a ``LocalCluster`` of
    ``local_workers`` single-threaded processes when ``scheduler`` is None."""
    require_dask()
    from distributed import Client, LocalCluster

    if scheduler is None:
        with (
            LocalCluster(
                n_workers=local_workers,
                processes=True,
                threads_per_worker=1,
                dashboard_address=None,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise DistributedUnavailable(
            f"cannot reach the Dask scheduler at {scheduler} ({exc}); start one with "
            "`dask scheduler` and workers with `dask worker ADDRESS`"
        ) from None
    with client:
        yield client


@contextmanager
def dask_runner(
    scheduler: str | None, local_workers: int
) -> Iterator[Callable[[Callable[..., Any], Iterable[tuple[Any, ...]]], Iterator[Any]]]:
    """``run(fn, jobs)`` on Dask: ``fn(*job)`` as one task per job (``pure=False``: the
    tasks write files), results yielded as they complete and then released. Two tasks per
    worker thread are in flight, the next job made when one is taken: the client never
    holds every job's arguments (at 10M hands, the games of 3,125 chunks) nor more than
    the results it has not taken yet."""
    with dask_client(scheduler, local_workers) as client:
        from distributed import as_completed

        def run(fn: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
            queue = iter(jobs)
            window = 2 * max(1, sum(client.nthreads().values()))
            first = [client.submit(fn, *job, pure=False) for job in islice(queue, window)]
            if not first:
                return
            pending = as_completed(first)
            for fut in pending:
                for job in islice(queue, 1):
                    pending.add(client.submit(fn, *job, pure=False))
                yield fut.result()
                fut.release()

        yield run
