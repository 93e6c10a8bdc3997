"""Replaying a whole archive: ``update.py`` brings the replay tables up to date, ``plan.py``
lists the stale games on disk, ``ranges.py`` cuts them into game ranges, ``distributed.py``
runs the tasks on Dask."""
