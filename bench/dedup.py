"""Ingest's de-duplication: the key index against a query over the stored hands.

    python bench/dedup.py --data bench/out/scale/data-1000000 [--batches 5]

Every ingest batch (16 MB of input: about 2,100 of the benchmark's 7.7 KB hands) must
learn which of its keys are stored and with which content hash. Issue 19 asks whether a
query (an anti-join in DuckDB with a memory limit, or polars) can do this instead of
``ingest/key_index.py``. This measures both against the hands of an existing data folder
(``bench/scale.py --keep`` leaves one): the index's one-time load of the stored keys and
its lookup per batch, and a DuckDB join (1 GB memory limit) and a polars semi-join per
batch, each batch half stored keys and half new ones. It prints the seconds per batch,
the peak RSS so far (cumulative: the methods run in this order in one process), and each method's cost over a 10M-hand ingest (4,800 batches, the archive
growing from 0 to 10M hands, 5M on average: a join's per-batch cost scaled linearly from
the folder's size to 5M, the index's lookup taken as measured).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from mjaudit.parts.ingest.key_index import KeyIndex  # noqa: E402
from mjaudit.parts.ingest.pipeline import _hashed, _stored_hashes  # noqa: E402
from mjaudit.parts.ingest.store import DataDir  # noqa: E402

from bench.common import add_smoke, print_peak_memory, smoke_workdir  # noqa: E402

BATCH_HANDS = 2_100
BATCHES_10M = 4_800


def _rss() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _batches(data: DataDir, n: int, seed: int = 19) -> list[pl.DataFrame]:
    """``n`` batches of keys: half sampled from the stored hands, half never stored."""
    keys = data.scan("hands").select("game_id", "hand_no", "content_hash").collect()
    rng = np.random.default_rng(seed)
    out = []
    for b in range(n):
        stored = keys[rng.choice(keys.height, BATCH_HANDS // 2, replace=False)]
        new = pl.DataFrame(
            {
                "game_id": [f"new-{b}-{i}" for i in range(BATCH_HANDS - stored.height)],
                "hand_no": pl.Series([1] * (BATCH_HANDS - stored.height), dtype=pl.Int16),
                "content_hash": ["x"] * (BATCH_HANDS - stored.height),
            }
        ).cast(keys.schema)
        out.append(pl.concat([stored, new]))
    return out


def bench_index(data: DataDir, batches: list[pl.DataFrame], work: Path) -> dict[str, float]:
    work.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    index = KeyIndex(work)
    index.add_all(_stored_hashes(data))
    load = time.perf_counter() - t
    t = time.perf_counter()
    for batch in batches:
        h = _hashed(batch.lazy()).collect()
        found, _, _ = index.lookup(h["k1"].to_numpy(), h["k2"].to_numpy())
        assert int(found.sum()) == BATCH_HANDS // 2
    return {"load_s": load, "per_batch_s": (time.perf_counter() - t) / len(batches)}


def bench_duckdb(data: DataDir, batches: list[pl.DataFrame], spill: Path) -> dict[str, float]:
    con = duckdb.connect(config={"memory_limit": "1GB", "temp_directory": str(spill)})
    files = [str(f) for f in data.files("hands")]
    t = time.perf_counter()
    for batch in batches:
        con.register("batch", batch.to_arrow())
        n = con.execute(
            "SELECT count(h.content_hash) FROM batch b LEFT JOIN "
            "(SELECT game_id, hand_no, content_hash FROM read_parquet(?)) h "
            "USING (game_id, hand_no)",
            [files],
        ).fetchall()[0][0]
        con.unregister("batch")
        assert n == BATCH_HANDS // 2, n
    return {"per_batch_s": (time.perf_counter() - t) / len(batches)}


def bench_polars(data: DataDir, batches: list[pl.DataFrame]) -> dict[str, float]:
    t = time.perf_counter()
    for batch in batches:
        found = (
            data.scan("hands")
            .select("game_id", "hand_no", "content_hash")
            .join(batch.lazy().select("game_id", "hand_no"), on=["game_id", "hand_no"])
            .collect(engine="streaming")
        )
        assert found.height == BATCH_HANDS // 2, found.height
    return {"per_batch_s": (time.perf_counter() - t) / len(batches)}


def bench_plan(data: DataDir, spill: Path) -> None:
    """The replay's "which games need replaying": ``replay/archive/plan.py`` (polars
    joins of 128-bit hashes, in passes of 1M hands) against one DuckDB anti-join over the
    tables' files with a 1 GB memory limit (the american cards' digest left out: the
    benchmark has no american hands)."""
    from mjaudit.parts.replay.archive.plan import plan

    before = _rss()
    t = time.perf_counter()
    with data.writing():
        stale = plan(data)
    ours = time.perf_counter() - t
    print(
        f"{'replay plan':>12}: {ours:8.1f} s, {stale.stale:,} stale hands, "
        f"peak RSS {max(before, _rss()):,.0f} MB ({stale.hands / ours:,.0f} hands/s)"
    )
    con = duckdb.connect(config={"memory_limit": "1GB", "temp_directory": str(spill)})
    hands = [str(f) for f in data.files("hands")]
    done = [str(f) for f in data.files("hand_results")]
    t = time.perf_counter()
    n = con.execute(
        "SELECT count(*) FROM read_parquet(?) h "
        "LEFT JOIN (SELECT game_id, hand_no, content_hash FROM read_parquet(?)) r "
        "USING (game_id, hand_no) "
        "WHERE r.content_hash IS NULL OR r.content_hash <> h.content_hash",
        [hands, done],
    ).fetchall()[0][0]
    theirs = time.perf_counter() - t
    print(
        f"{'duckdb plan':>12}: {theirs:8.1f} s, {n:,} stale hands "
        f"({stale.hands / theirs:,.0f} hands/s; its own memory is capped at 1 GB)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=ROOT / "bench" / "out" / "scale" / "data-1000000")
    ap.add_argument("--batches", type=int, default=5)
    add_smoke(ap)
    args = ap.parse_args()
    work = smoke_workdir("dedup")
    if args.smoke:
        from mjaudit.parts.ingest.pipeline import ingest

        from bench.synthlog import write_jsonl

        log = work / "smoke.jsonl"
        write_jsonl(str(log), 2 * BATCH_HANDS, seed=3)
        args.data, args.batches = work / "data", 2
        ingest([str(log)], args.data)
    data = DataDir(args.data)
    stored = data.scan("hands").select(pl.len()).collect().item()
    batches = _batches(data, args.batches)
    print(f"{stored:,} stored hands, {args.batches} batches of {BATCH_HANDS:,} keys")
    scale = 10_000_000 / stored / 2  # the mean archive over a 10M ingest, against this one
    rows = []
    for name, run in (
        ("key index", lambda: bench_index(data, batches, work / "index")),
        ("duckdb join", lambda: bench_duckdb(data, batches, work)),
        ("polars join", lambda: bench_polars(data, batches)),
    ):
        before = _rss()
        r = run()
        # a scan reads every stored key: its cost grows with the archive; the index's
        # binary searches barely do (taken as measured)
        grows = name != "key index"
        ten = r["per_batch_s"] * (scale if grows else 1.0) * BATCHES_10M
        rows.append(name)
        print(
            f"{name:>12}: {r['per_batch_s'] * 1000:8.1f} ms a batch "
            f"({BATCH_HANDS / r['per_batch_s']:,.0f} hands/s)"
            + (f", load {r['load_s']:.1f} s" if "load_s" in r else "")
            + f", peak RSS {max(before, _rss()):,.0f} MB; a 10M-hand ingest: ~{ten:,.0f} s"
        )
    bench_plan(data, work)
    print_peak_memory()


if __name__ == "__main__":
    main()
