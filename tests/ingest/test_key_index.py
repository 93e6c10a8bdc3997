"""The de-duplication index (ingest/key_index.py) answers as a dict of every added key
would, whatever the order and sizes of the batches, and for keys sharing a k1."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mjaudit.parts.ingest.key_index import KeyIndex

U64 = st.integers(0, 2**64 - 1)
SMALL = st.integers(0, 5)  # few distinct k1: keys that share one (64-bit collisions)


def _frame(rows: list[tuple[int, int, int, int]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={n: pl.UInt64 for n in ("k1", "k2", "c1", "c2")}, orient="row")


@settings(max_examples=150, deadline=None)
@given(
    batches=st.lists(st.lists(st.tuples(SMALL | U64, U64, U64, U64), max_size=40), max_size=12),
    probes=st.lists(st.tuples(SMALL | U64, U64), max_size=30),
)
def test_lookup_is_a_dict_of_every_added_key(batches, probes) -> None:
    index, expected = KeyIndex(), {}
    for batch in batches:
        fresh = {}
        for k1, k2, c1, c2 in batch:
            if (k1, k2) not in expected and (k1, k2) not in fresh:  # ingest adds new keys only
                fresh[(k1, k2)] = (c1, c2)
        index.add(_frame([(*k, *c) for k, c in fresh.items()]))
        expected.update(fresh)
    assert len(index) == len(expected)
    assert all(np.all(run[0][:-1] <= run[0][1:]) for run in index.runs)
    keys = probes + list(expected)[:20]
    found, c1, c2 = index.lookup(
        np.array([k for k, _ in keys], dtype=np.uint64),
        np.array([k for _, k in keys], dtype=np.uint64),
    )
    for key, hit, a, b in zip(keys, found.tolist(), c1.tolist(), c2.tolist(), strict=True):
        assert hit == (key in expected)
        assert (a, b) == (expected[key] if hit else (0, 0))


def test_runs_stay_few_as_batches_pile_up() -> None:
    """Runs of similar size merge, so a lookup searches about log2(stored / batch) runs."""
    index = KeyIndex()
    rng = np.random.default_rng(7)
    for _ in range(256):
        keys = rng.integers(0, 2**63, size=(100, 4), dtype=np.uint64)
        index.add(_frame([tuple(map(int, row)) for row in keys]))
    assert len(index) == 25_600
    assert len(index.runs) <= 9


def test_runs_stop_growing_at_the_merge_cap(monkeypatch) -> None:
    """Past MAX_RUN rows runs are no longer merged (bounded memory while merging), and a
    large frame (the stored keys at start) is added as runs of at most MAX_RUN."""
    monkeypatch.setattr("mjaudit.parts.ingest.key_index.MAX_RUN", 1000)
    index = KeyIndex()
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**63, size=(2500, 4), dtype=np.uint64)
    index.add(_frame([tuple(map(int, row)) for row in keys[:2300]]))
    for row in keys[2300:]:
        index.add(_frame([tuple(map(int, row))]))
    assert len(index) == 2500 and max(len(run[0]) for run in index.runs) <= 1000
    found, c1, _ = index.lookup(keys[:, 0].copy(), keys[:, 1].copy())
    assert found.all() and (c1 == keys[:, 2]).all()


@settings(max_examples=60, deadline=None)
@given(
    batches=st.lists(st.lists(st.tuples(SMALL | U64, U64, U64, U64), max_size=40), max_size=12),
    probes=st.lists(st.tuples(SMALL | U64, U64), max_size=30),
)
def test_runs_kept_on_disk_answer_as_runs_in_memory(batches, probes) -> None:
    """With a folder, long runs go to disk (memory-mapped per lookup) and are merged there
    block by block; the stored keys loaded in batches of any size (add_all) answer the
    same as keys added batch by batch."""
    rows: dict[tuple[int, int], tuple[int, int]] = {}
    for batch in batches:
        for k1, k2, c1, c2 in batch:
            rows.setdefault((k1, k2), (c1, c2))
    frames = [
        _frame([(*k, *c) for k, c in list(rows.items())[i : i + 7]]) for i in range(0, len(rows), 7)
    ]
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as mp:
        mp.setattr("mjaudit.parts.ingest.key_index.SPILL_ROWS", 5)
        mp.setattr(
            "mjaudit.parts.ingest.key_index.MERGE_BLOCK", 3
        )  # merges on disk in several steps
        mp.setattr("mjaudit.parts.ingest.key_index.LOAD_ROWS", 30)  # also the largest merge on disk
        in_memory, on_disk, loaded = (
            KeyIndex(),
            KeyIndex(Path(folder) / "a"),
            KeyIndex(Path(folder) / "b"),
        )
        for index in (on_disk, loaded):
            assert index.folder is not None
            index.folder.mkdir()
        for frame in frames:
            in_memory.add(frame)
            on_disk.add(frame)
        loaded.add_all(frames)
        keys = probes + list(rows)[:20]
        k1 = np.array([k for k, _ in keys], dtype=np.uint64)
        k2 = np.array([k for _, k in keys], dtype=np.uint64)
        want = in_memory.lookup(k1, k2)
        for index in (on_disk, loaded):
            assert len(index) == len(rows)
            assert all(len(run[0]) < 5 for run in index.runs)
            assert len(rows) < 5 or index.spilled
            got = index.lookup(k1, k2)
            assert all(np.array_equal(a, b) for a, b in zip(want, got, strict=True))
            # runs merged on disk stay in k1 order; the merged-away ones are gone
            for run in index.spilled:
                stored = np.load(run.folder / "k1.npy")
                assert len(stored) == run.rows and np.all(stored[:-1] <= stored[1:])
            assert sorted(index.folder.iterdir()) == sorted(run.folder for run in index.spilled)
    assert want[0].tolist() == [key in rows for key in keys]
