"""Consecutive ranges of game ids: how the replay works through more games than it may hold
in memory at once (a bucket's rows to sort and write), a range at a time.

A range never splits a game, and the ranges of a cut cover every game_id (the last one
also the rows without one), so each row falls in exactly one range. Where the cuts fall
only bounds memory: nothing written depends on it.
"""

from __future__ import annotations

from itertools import pairwise

import polars as pl

GameRange = tuple[str | None, str | None]  # game_id >= first (None: from the start), < end
SAMPLE_ROWS = 1_000_000  # rows whose games are counted exactly to place the cuts
PER_RANGE = 1_024  # sampled rows a range holds on average, at least (its size's precision)
_SAMPLE_SEED = 0x6D6A


def in_range(frame: pl.LazyFrame, span: GameRange) -> pl.LazyFrame:
    """The rows of ``frame`` whose game_id is in ``span``."""
    first, end = span
    game = pl.col("game_id")
    if first is not None:  # the last range also takes any row without a game_id
        frame = frame.filter((game >= first) | game.is_null() if end is None else game >= first)
    if end is not None:
        frame = frame.filter(game < end)
    return frame


def game_ranges(counts: pl.DataFrame, size: int) -> list[GameRange]:
    """Cut games (``counts``: game_id, len, sorted by game_id) into consecutive ranges of
    at most ``size`` rows (a game is never split; a bigger game is a range of its own).
    The ranges cover every game_id, so no row can fall between them."""
    cuts: list[str] = []
    n = 0
    for game_id, k in counts.iter_rows():
        if n and n + k > size:
            cuts.append(game_id)
            n = 0
        n += k
    bounds: list[str | None] = [None, *cuts, None]
    return list(pairwise(bounds))


def ranges_of(
    rows: pl.LazyFrame, size: int, sample: int | None = None, total: int | None = None
) -> list[GameRange]:
    """Ranges of about ``size`` of ``rows`` (a game_id column; ``total`` of them or fewer,
    counted when not given).

    Up to ``sample`` rows (default SAMPLE_ROWS), the games are counted exactly and no
    range holds more than ``size`` rows (unless one game does). Past that, a sample of the
    games (chosen by a hash of the id: every row of a game, or none) places the cuts, each
    sampled game standing for those around it, so the count takes the memory of the
    sample, not of every game (the 2M games of one bucket of a 256M-hand archive took
    370 MB to count). The sample keeps at least PER_RANGE rows per range on average, so
    the ranges hold about ``size`` rows: sampling 1 game in 100 for ranges of 20,000
    hands left some ranges at 3x the size, others nearly empty.
    """
    sample = SAMPLE_ROWS if sample is None else sample
    if total is None:
        total = rows.select(pl.len()).collect(engine="streaming").item()
    if total <= size:
        return [(None, None)]
    step = max(1, min(-(-total // sample), size // PER_RANGE))
    if step > 1:
        rows = rows.filter(pl.col("game_id").hash(_SAMPLE_SEED) % step == 0)
    counts = rows.group_by("game_id").len().sort("game_id").collect(engine="streaming")
    if step > 1:
        counts = counts.with_columns(pl.col("len").cast(pl.UInt64) * step)
    return game_ranges(counts, size)
