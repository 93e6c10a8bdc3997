"""Game ranges: how the replay works through a bucket (or a bucket's stale games) a range
of games at a time. Every row falls in exactly one range, whatever places the cuts."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.archive import ranges


def test_game_ranges_cover_every_game_and_cap_the_hands():
    counts = pl.DataFrame({"game_id": ["a", "b", "c", "d", "e"], "len": [3, 3, 9, 1, 1]})
    assert ranges.game_ranges(counts, 6) == [(None, "c"), ("c", "d"), ("d", None)]
    assert ranges.game_ranges(counts, 100) == [(None, None)]
    assert ranges.game_ranges(counts.clear(), 6) == [(None, None)]


def test_game_ranges_split_rows_without_losing_any():
    """Each row falls in exactly one range (a row without a game_id in the last one)."""
    frame = pl.LazyFrame({"game_id": ["a", "b", None, "c", "d", "e", "c"]})
    counts = pl.DataFrame({"game_id": ["a", "b", "c", "d", "e"], "len": [1, 1, 2, 1, 1]})
    spans = ranges.game_ranges(counts, 2)
    parts = [ranges.in_range(frame, span).collect()["game_id"].to_list() for span in spans]
    assert spans == [(None, "c"), ("c", "d"), ("d", None)]
    assert parts == [["a", "b"], ["c", "c"], [None, "d", "e"]]


def _parts(rows: pl.LazyFrame, spans: list[ranges.GameRange]) -> list[list[str | None]]:
    return [ranges.in_range(rows, span).collect()["game_id"].to_list() for span in spans]


def test_ranges_of_counts_exactly_up_to_the_sample():
    """Up to the sample size the cuts are game_ranges' on exact counts: no range over size."""
    rows = pl.LazyFrame({"game_id": ["a"] * 3 + ["b"] * 3 + ["c"] * 9 + ["d", "e"]})
    assert ranges.ranges_of(rows, 6) == [(None, "c"), ("c", "d"), ("d", None)]
    assert ranges.ranges_of(rows, 6, sample=17) == [(None, "c"), ("c", "d"), ("d", None)]
    assert ranges.ranges_of(rows, 17) == [(None, None)]  # everything fits: no count at all


def test_ranges_of_a_sample_holds_about_size_rows_per_range():
    """Past the sample size a sample of the games places the cuts: 20,000 games of 1 to 30
    hands (310,000 rows), a sample size of 3,000 rows, ranges of 5,000 rows. The sample
    keeps PER_RANGE rows per range (1 game in 4 here, not 1 in 104): every row is in one
    range, and the ranges hold 5,000 rows on average, each within a factor of two."""
    games = pl.DataFrame({"g": range(20_000)}).with_columns(
        game_id=pl.format("game-{}", pl.col("g") * 7919 % 20_000),
        hands=(pl.col("g") * 31 % 30 + 1),
    )
    rows = games.select(pl.col("game_id").repeat_by("hands").explode()).lazy()
    total = int(games["hands"].sum())
    spans = ranges.ranges_of(rows, 5_000, sample=3_000)
    parts = _parts(rows, spans)
    assert sum(map(len, parts)) == total
    sizes = [len(p) for p in parts]
    assert len(spans) > 2 and abs(sum(sizes) / len(sizes) - 5_000) < 1_500
    assert min(sizes[:-1]) > 2_500 and max(sizes) < 10_000
    exact = ranges.ranges_of(rows, 5_000, sample=total)  # no range over the size
    assert max(map(len, _parts(rows, exact))) <= 5_000


@settings(max_examples=60, deadline=None)
@given(
    ids=st.lists(st.one_of(st.none(), st.sampled_from("abcdefghij")), max_size=40),
    size=st.integers(1, 12),
    sample=st.integers(1, 50),
)
def test_ranges_of_puts_every_row_in_exactly_one_range(ids, size, sample):
    rows = pl.LazyFrame({"game_id": ids}, schema={"game_id": pl.String})
    spans = ranges.ranges_of(rows, size, sample=sample)
    parts = _parts(rows, spans)
    assert sorted(g for part in parts for g in part if g is not None) == sorted(
        g for g in ids if g is not None
    )
    assert sum(map(len, parts)) == len(ids)
    cuts = [first for first, _ in spans[1:]]
    assert cuts == sorted(set(cuts)) and all(c in ids for c in cuts)
    for part in parts:  # a game is never split
        for g in set(part) - {None}:
            assert part.count(g) == ids.count(g)
