"""A longer fuzzing run of the ingest and ``mjaudit check`` than the tests make.

    python bench/fuzz.py --seconds 300            # hypothesis, then atheris if installed
    python bench/fuzz.py --seconds 60 --no-atheris

Phase 1 (hypothesis, about half the time, or all of it without atheris): the mutated logs
and score sheets of ``tests/hardening/fuzzing.py`` (byte flips, truncations, duplications,
random JSON values in valid records, damaged gz/zst) through ``ingest()`` with every check
of the tests, and a share of them through ``mjaudit check``; and the records of
``tests/hardening/engine_fuzzing.py`` (the event fields every engine reads, mutated)
through ingest's parser and both replay paths (no exception, no ENGINE_ERROR). Phase 2 (atheris, coverage
guided): raw bytes as a ``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst``, ``.json`` or score-sheet
file through ``read_records``/``parse_record`` (and every 200th input through a full
``ingest()``). Prints the inputs run, the quarantine codes seen and the crashes (failed
checks or exceptions: there should be 0); crashing inputs are saved under ``bench/out/``.
Exit status 1 if anything crashed. (atheris runs in a child process, so that the modules it
fuzzes are imported, and instrumented, there first.)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_smoke, print_peak_memory

OUT = Path(__file__).resolve().parent / "out"


class Stats:
    def __init__(self) -> None:
        self.inputs: Counter[str] = Counter()
        self.codes: Counter[str] = Counter()
        self.crashes = 0
        self.first: list[str] = []

    def crash(self, what: str, data: bytes | None = None) -> None:
        self.crashes += 1
        if len(self.first) < 5:
            self.first.append(what)
        if data is not None:
            OUT.mkdir(exist_ok=True)
            (OUT / f"fuzz-crash-{self.crashes:04d}.bin").write_bytes(data)

    def report(self, seconds: float) -> None:
        total = sum(self.inputs.values())
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.inputs.items()))
        print(f"inputs: {total} ({kinds}); {total / max(seconds, 1e-9):,.1f} inputs/s")
        print("quarantine codes seen:")
        for code, n in sorted(self.codes.items()):
            print(f"  {code:<28} {n}")
        print(f"crashes: {self.crashes}")
        for text in self.first:
            print(text)
        sys.stdout.flush()


class _TimeUp(Exception):
    pass


def run_hypothesis(seconds: float, stats: Stats, check_every: int = 5) -> None:
    from hypothesis import HealthCheck, Phase, given, settings
    from typer.testing import CliRunner

    from mjaudit.cli import app
    from tests.hardening.engine_fuzzing import check_mutant, engine_mutant
    from tests.hardening.fuzzing import (
        check_cli,
        check_ingest_log,
        check_ingest_sheet,
        log_cases,
        sheet_cases,
    )

    end = time.monotonic() + seconds
    turn = [end]  # when the running target must hand over (targets take turns of 10 s)
    runner = CliRunner()
    fast = settings(
        max_examples=10**9,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )

    @fast
    @given(case=log_cases(max_lines=12))
    def logs(case) -> None:  # type: ignore[no-untyped-def]
        if time.monotonic() > turn[0]:
            raise _TimeUp
        stats.inputs["log"] += 1
        with tempfile.TemporaryDirectory() as tmp:
            try:
                summary = check_ingest_log(case, Path(tmp))
                stats.codes.update(summary.quarantined)
                if stats.inputs["log"] % check_every == 0:
                    stats.inputs["check"] += 1
                    check_cli(runner, app, ["check", str(Path(tmp) / f"log{case.suffix}")])
            except Exception:
                stats.crash(traceback.format_exc(), case.content())

    @fast
    @given(case=sheet_cases())
    def sheets(case) -> None:  # type: ignore[no-untyped-def]
        if time.monotonic() > turn[0]:
            raise _TimeUp
        stats.inputs["sheet"] += 1
        with tempfile.TemporaryDirectory() as tmp:
            try:
                summary = check_ingest_sheet(*case, Path(tmp))
                stats.codes.update(summary.quarantined)
            except Exception:
                stats.crash(traceback.format_exc(), case[1])

    @fast
    @given(case=engine_mutant())
    def engines(case) -> None:  # type: ignore[no-untyped-def]
        if time.monotonic() > turn[0]:
            raise _TimeUp
        stats.inputs["engine"] += 1
        record, what = case
        try:
            check_mutant(record, what)
        except Exception:
            stats.crash(traceback.format_exc(), json.dumps(record, ensure_ascii=False).encode())

    while time.monotonic() < end:
        for target, share in ((logs, 20.0), (sheets, 10.0), (engines, 20.0)):
            turn[0] = min(end, time.monotonic() + share)
            with contextlib.suppress(_TimeUp):
                target()


def run_atheris(seconds: float) -> int:
    """Coverage-guided fuzzing of the readers and the record parser, in this (fresh)
    process: the modules must be imported here first to be instrumented. Prints its
    report and exits when the time is up."""
    import atheris

    with atheris.instrument_imports():
        from mjaudit.parts.ingest import pipeline, sheets, sources
        from mjaudit.parts.schemas import records
    from mjaudit.parts.ingest.pipeline import ingest

    stats = Stats()
    folder = Path(tempfile.mkdtemp(prefix="mjaudit-fuzz-"))
    kinds = [".jsonl", ".jsonl.gz", ".jsonl.zst", ".json", ".txt", ".csv"]
    corpus = folder / "corpus"
    corpus.mkdir()
    _seed_corpus(corpus)
    end = time.monotonic() + seconds

    def one(data: bytes) -> None:
        if time.monotonic() > end:
            stats.report()
            sys.stdout.flush()
            os._exit(1 if stats.crashes else 0)
        if not data:
            return
        suffix = kinds[data[0] % len(kinds)]
        body = data[1:]
        stats.inputs[f"atheris{suffix}"] += 1
        path = folder / f"input{suffix}"
        path.write_bytes(body)
        try:
            if suffix in (".txt", ".csv"):
                for item in pipeline.sheet_items(path):
                    if isinstance(item, sheets.SheetProblem):
                        stats.codes[item.code] += 1
            else:
                for item in sources.read_records(path):
                    if isinstance(item, sources.Refused):
                        stats.codes[item.code] += 1
                    elif isinstance(item, sources.BrokenStream):
                        stats.codes["FILE_TRUNCATED"] += 1
                    else:
                        try:
                            records.parse_record(item.raw)
                        except records.RecordError as err:
                            stats.codes[str(err.code)] += 1
            if sum(stats.inputs.values()) % 200 == 0:
                fmt = "hk-sheet" if suffix in (".txt", ".csv") else "auto"
                summary = ingest([str(path)], folder / "data", fmt=fmt)
                assert summary.records + len(summary.broken_files) >= summary.n_quarantined
        except Exception:
            stats.crash(traceback.format_exc(), data)

    atheris.Setup(
        [sys.argv[0], f"-max_total_time={int(seconds) + 60}", "-max_len=16384", str(corpus)],
        one,
    )
    atheris.Fuzz()
    return 0


def _seed_corpus(corpus: Path) -> None:
    import gzip

    import zstandard

    from tests.hardening.fuzzing import BASES, SHEET, SHEET_CSV
    from tests.ingest.ingest_helpers import line

    lines = b"".join(line(r) + b"\n" for r in BASES[:1]) + b"not json\n"
    seeds = [
        b"\x00" + lines,
        b"\x01" + gzip.compress(lines),
        b"\x02" + zstandard.ZstdCompressor().compress(lines),
        b"\x03[" + line(BASES[0]) + b"]",
        b"\x04" + SHEET.encode(),
        b"\x05" + SHEET_CSV.encode(),
    ]
    for i, seed in enumerate(seeds):
        (corpus / f"seed-{i}").write_bytes(seed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--no-atheris", action="store_true", help="hypothesis only")
    parser.add_argument("--atheris-only", action="store_true", help=argparse.SUPPRESS)
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.no_atheris = 3, True
    if args.atheris_only:
        return run_atheris(args.seconds)
    os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", tempfile.mkdtemp())
    try:
        import atheris  # noqa: F401

        have_atheris = not args.no_atheris
    except ImportError:
        have_atheris = False
    stats = Stats()
    started = time.monotonic()
    hyp_seconds = args.seconds / 2 if have_atheris else args.seconds
    print(
        f"hypothesis for {hyp_seconds:.0f} s"
        + (
            f", then atheris for {args.seconds - hyp_seconds:.0f} s"
            if have_atheris
            else " (atheris not installed or off)"
        )
    )
    sys.stdout.flush()
    run_hypothesis(hyp_seconds, stats)
    spent = time.monotonic() - started
    print(f"hypothesis done in {spent:.0f} s")
    stats.report(spent)
    print_peak_memory()
    failed = stats.crashes > 0
    if have_atheris:
        print(f"atheris for {args.seconds - hyp_seconds:.0f} s")
        sys.stdout.flush()
        child = [
            sys.executable,
            __file__,
            "--atheris-only",
            "--seconds",
            str(args.seconds - hyp_seconds),
        ]
        failed = subprocess.run(child, check=False).returncode != 0 or failed
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
