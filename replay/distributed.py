"""Distributed ``mjaudit replay`` on Dask (``--scheduler ADDRESS`` or ``--cluster local``).

The work is the local pool's: one task per bucket of :func:`replay.archive.plan`, each
running :func:`replay.archive.replay_bucket` on a worker, which reads the data folder
itself. The client gathers the bucket tables and commits them exactly as the local path
does (:func:`replay.archive._commit`, under the data folder's write lock), so the output is
byte-identical whatever runs the tasks, and a task that is retried (a worker that died)
or a run that is repeated only recomputes the same bucket files.

Workers must see the data folder at the same absolute path as the client (a shared
filesystem) and have ``mahjong-audit`` installed. Dask is imported only here, and only
when a distributed run is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pyarrow as pa

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


def replay_buckets_on_dask(
    root: str,
    jobs: list[tuple[int, list[str]]],
    sink: Callable[[int, dict[str, pa.Table]], None],
    *,
    scheduler: str | None = None,
    local_workers: int = 1,
) -> None:
    """Run ``replay_bucket(root, bucket, games)`` for every job on Dask, handing each
    bucket's tables to ``sink(bucket, tables)`` as it completes (and then letting go of
    them, so the client never holds the whole archive's output).

    ``root`` must be the absolute path of the data folder as the workers see it.
    """
    from replay.archive import replay_bucket

    if not jobs:
        return
    with dask_client(scheduler, local_workers) as client:
        from distributed import as_completed

        futures = {
            client.submit(replay_bucket, root, bucket, games, pure=False): bucket
            for bucket, games in jobs
        }
        for fut in as_completed(futures):
            sink(futures.pop(fut), fut.result())
            fut.release()
