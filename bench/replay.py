"""Replay benchmark: hands/s of `check`-style replay (legality, fan, payments) and µs per
fan evaluation.

    python bench/replay.py [--hands 20000] [--source sim|synth] [--ruleset hk-mahjongo|all]
                           [--archive] [--check] [--log FILE]

``sim`` plays club sittings with the bots (``replay.sim``: hands that end in wins, claims,
kongs); ``synth`` uses ``bench/synthlog.py`` (every hand a full-wall exhaustive draw, the
longest possible hand). Records are parsed before timing, so the figure is the replay
alone, in one process on one core. ``--ruleset all`` prints that figure for every ruleset
the simulator plays, one line each. ``--archive`` also times ``mjaudit replay`` end to end
on the same hands (ingested into a temporary data folder first): reading the Parquet
tables, rebuilding the records, replaying and writing the replay tables, one worker.
``--check`` times ``mjaudit check --format json`` on them as a user runs it (a new
process reading a JSONL file; its interpreter start-up included). ``--log FILE`` reads
the hands from a JSON Lines log instead (its first ``--hands``): the same hands for two
checkouts of the project compared one after the other, as the README's before/after.

Times are CPU time of this process (``time.process_time``, which includes the threads of
polars and Arrow), not wall time, so the figure holds on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
from mjaudit.parts.replay.engine.run import replay_games  # noqa: E402
from mjaudit.parts.replay.rulesets.hk import evaluate, options_for  # noqa: E402
from mjaudit.parts.schemas.records import RecordError, parse_record  # noqa: E402

from bench.common import add_smoke, print_peak_memory  # noqa: E402
from bench.fan_eval import random_win  # noqa: E402
from bench.synthlog import records as synth_records  # noqa: E402


def load(source: str, hands: int, ruleset: str) -> list[dict]:
    if source == "synth":
        raw = (msgspec.json.encode(r) for r in synth_records(hands, seed=11))
        return [parse_record(r).record for r in raw]
    from mjaudit.parts.replay.sim import simulate

    out: list[dict] = []
    games = max(1, hands // 12)
    while len(out) < hands:
        for record, _labels in simulate(ruleset, games=games, seed=len(out) + 1):
            out.append(record)
            if len(out) >= hands:
                break
    return out


def from_log(path: Path, hands: int) -> list[dict]:
    """The first ``hands`` valid records of a JSON Lines log, parsed (a bad line is
    counted and left out, as ``mjaudit check`` would)."""
    out: list[dict] = []
    bad = 0
    with path.open("rb") as f:
        for line in f:
            if len(out) >= hands:
                break
            if line.strip():
                try:
                    out.append(parse_record(line).record)
                except RecordError:
                    bad += 1
    if bad:
        print(f"{path}: {bad} unreadable records left out")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--source", choices=("sim", "synth"), default="sim")
    ap.add_argument("--ruleset", default="hk-mahjongo", help="a ruleset, or all")
    ap.add_argument("--archive", action="store_true", help="also time the end-to-end replay")
    ap.add_argument("--check", action="store_true", help="also time `mjaudit check`")
    ap.add_argument(
        "--log", type=Path, help="read the hands from this log (--ruleset, --source unused)"
    )
    add_smoke(ap)
    args = ap.parse_args()
    n_ctx = 5000
    if args.smoke:
        args.hands, args.archive, args.check, n_ctx = 40, True, True, 50
    if args.log is not None:
        names = [args.log.name]
    elif args.ruleset == "all":
        from mjaudit.parts.replay.sim import rulesets

        names = list(rulesets()) if args.source == "sim" else ["hk-mahjongo"]
    else:
        names = [args.ruleset]
    for name in names:
        _one(args, name if args.source == "sim" or args.log else "hk-mahjongo")
    rng = random.Random(7)
    ctxs = [random_win(rng) for _ in range(n_ctx)]
    for name in ("hk-classic", "hk-mahjongo"):
        opts = options_for(name)
        best = min(_time(ctxs, opts) for _ in range(3))
        print(f"fan evaluation ({name}): {best * 1e6 / len(ctxs):.1f} µs per hand")
    print_peak_memory()


def _one(args: argparse.Namespace, ruleset: str) -> None:
    """The figures of one ruleset's hands."""
    t0 = time.process_time()
    recs = from_log(args.log, args.hands) if args.log else load(args.source, args.hands, ruleset)
    prep = time.process_time() - t0
    events = sum(len(r["events"]) for r in recs)
    best = float("inf")
    for _ in range(1 if args.smoke else 3):  # best of 3: the machine is shared
        t0 = time.process_time()
        reports = list(replay_games(recs))
        best = min(best, max(time.process_time() - t0, 1e-9))
    wins = sum(1 for r in reports if r.winners)
    print(
        f"source {args.log or args.source} ({ruleset}): {len(recs)} hands, "
        f"{events / len(recs):.0f} events/hand, {wins} wins "
        f"(generated and parsed in {prep:.1f} s)"
    )
    print(
        f"replay ({ruleset}): {best:.2f} s CPU, {len(recs) / best:,.0f} hands/s, "
        f"{events / best:,.0f} events/s (one core, best of 3)"
    )
    if args.check:
        secs = _check(recs)
        print(
            f"end to end ({ruleset}, mjaudit check --format json, new process): {secs:.2f} s "
            f"CPU, {len(recs) / secs:,.0f} hands/s (one core)"
        )
    if args.archive:
        secs, hands = _archive(recs)
        print(
            f"end to end ({ruleset}, mjaudit replay, 1 worker): {secs:.2f} s CPU, "
            f"{hands / secs:,.0f} hands/s (one core)"
        )


def _time(ctxs: list, opts: object) -> float:
    t0 = time.process_time()
    for c in ctxs:
        evaluate(c, opts)  # type: ignore[arg-type]
    return time.process_time() - t0


def _check(recs: list[dict]) -> float:
    """CPU seconds of ``mjaudit check --format json`` over ``recs`` in a JSONL file, as a
    new process (its children's CPU time: user + system)."""
    from mjaudit.parts.schemas.records import canonical_json

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "hands.jsonl"
        log.write_bytes(b"".join(canonical_json(r) + b"\n" for r in recs))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(
            [sys.executable, "-m", "mjaudit", "check", "--format", "json", str(log)],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            check=False,  # exit 1: the hands have findings
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return max(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1e-9)


def _archive(recs: list[dict]) -> tuple[float, int]:
    """CPU seconds of ``replay_archive`` over ``recs`` ingested into a fresh data folder."""
    from mjaudit.parts.ingest.pipeline import ingest
    from mjaudit.parts.replay.archive.update import replay_archive
    from mjaudit.parts.schemas.records import canonical_json

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "hands.jsonl"
        log.write_bytes(b"".join(canonical_json(r) + b"\n" for r in recs))
        ingest([str(log)], Path(tmp) / "data")
        t0 = time.process_time()
        summary = replay_archive(Path(tmp) / "data", workers=1)
        return time.process_time() - t0, summary.replayed


if __name__ == "__main__":
    main()
