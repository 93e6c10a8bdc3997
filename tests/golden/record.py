"""Record the golden outputs of ``mjaudit check --format json`` (``tests/golden/data/``).

Run from anywhere, with the project's virtualenv::

    .venv/bin/python -m tests.golden.record

For every simulated ruleset it plays :data:`GAMES` sittings (about 2,000 hands, with
planted violations) and writes the log as ``sim-RULESET.jsonl.gz``, one canonical record
per line exactly as ``mjaudit simulate`` writes it; then, for that log and for every
``examples/*.jsonl`` (not the ``*.labels.jsonl`` sidecars), it runs the real
``mjaudit check FILE --format json`` (typer's CliRunner over :data:`mjaudit.cli.app`) and
writes its stdout as ``*.check.jsonl.gz``. ``manifest.json`` lists every file with the
arguments, hand count, exit status and the sha256 of the uncompressed bytes.

Re-record only for a deliberate behaviour change, and name the change in the commit
message: the point of these files is that a refactor does not change them.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Paths are given to the CLI relative to ROOT: `check` names the file in its messages
# (the unreadable lines of examples/with-problems.jsonl), so the output depends on them.
DATA = Path("tests/golden/data")
EXAMPLES = Path("examples")
MANIFEST = DATA / "manifest.json"

SEED = 1
PLAYERS = 12
VIOLATIONS = 0.15
# Sittings per ruleset: about 2,000 hands each (a sitting is 16-26 hands).
GAMES = {
    "american": 125,
    "chan": 113,
    "hk-classic": 84,
    "hk-mahjongo": 80,
    "hk-mahjongo-2p": 118,
    "vn-160": 90,
}


@contextmanager
def at_root() -> Iterator[None]:
    """Run with the repository root as the working directory (relative paths as recorded)."""
    before = Path.cwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(before)


def gzip_bytes(data: bytes) -> bytes:
    """Gzip with no name and mtime 0, so the same bytes give the same file."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def gunzip(path: Path) -> bytes:
    return gzip.decompress((ROOT / path).read_bytes())


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def simulated_log(
    ruleset: str, games: int, seed: int, players: int, violations: float
) -> Iterator[bytes]:
    """The lines ``mjaudit simulate`` writes (``write_simulation``), one hand at a time."""
    from mjaudit.parts.replay.sim import simulate_sittings
    from mjaudit.parts.schemas.records import canonical_json

    for record, _labels in simulate_sittings(ruleset, games, seed, players, violations):
        yield canonical_json(record) + b"\n"


def run_check(arg: str) -> tuple[bytes, int]:
    """``mjaudit check ARG --format json``: its stdout (bytes) and exit status.

    ARG is relative to the repository root; call inside :func:`at_root`.
    """
    from typer.testing import CliRunner

    from mjaudit.cli import app

    result = CliRunner().invoke(app, ["check", arg, "--format", "json"], catch_exceptions=False)
    return result.stdout_bytes, result.exit_code


def example_logs() -> list[Path]:
    """The example logs ``check`` is recorded on (relative to the root, sorted)."""
    return sorted(
        p.relative_to(ROOT)
        for p in (ROOT / EXAMPLES).glob("*.jsonl")
        if not p.name.endswith(".labels.jsonl")
    )


def load_manifest() -> dict[str, Any]:
    return json.loads((ROOT / MANIFEST).read_text())


def _record_check(entry: dict[str, Any]) -> None:
    output, status = run_check(entry["input"])
    (ROOT / entry["output"]).write_bytes(gzip_bytes(output))
    entry.update(output_lines=output.count(b"\n"), output_sha256=sha256(output), exit_code=status)


def record() -> dict[str, Any]:
    from mjaudit.parts.replay.sim import rulesets

    (ROOT / DATA).mkdir(parents=True, exist_ok=True)
    missing = set(rulesets()) ^ set(GAMES)
    if missing:
        raise SystemExit(f"GAMES must name exactly the simulated rulesets: {sorted(missing)}")
    entries = []
    with at_root():
        for ruleset in rulesets():
            started = time.perf_counter()
            args = dict(
                ruleset=ruleset,
                games=GAMES[ruleset],
                seed=SEED,
                players=PLAYERS,
                violations=VIOLATIONS,
            )
            log = b"".join(simulated_log(**args))
            entry: dict[str, Any] = {
                "id": f"sim-{ruleset}",
                "kind": "sim",
                "simulate": args,
                "input": str(DATA / f"sim-{ruleset}.jsonl.gz"),
                "output": str(DATA / f"sim-{ruleset}.check.jsonl.gz"),
                "hands": log.count(b"\n"),
                "input_sha256": sha256(log),
            }
            (ROOT / entry["input"]).write_bytes(gzip_bytes(log))
            _record_check(entry)
            entries.append(entry)
            print(
                f"{entry['id']}: {entry['hands']} hands of {args['games']} sittings, "
                f"exit {entry['exit_code']}, {time.perf_counter() - started:.1f} s",
                file=sys.stderr,
            )
        for path in example_logs():
            name = path.name[: -len(".jsonl")]
            data = (ROOT / path).read_bytes()
            entry = {
                "id": f"examples-{name}",
                "kind": "example",
                "input": str(path),
                "output": str(DATA / f"examples-{name}.check.jsonl.gz"),
                "hands": len(data.splitlines()),
                "input_sha256": sha256(data),
            }
            _record_check(entry)
            entries.append(entry)
            print(f"{entry['id']}: exit {entry['exit_code']}", file=sys.stderr)
    manifest = {
        "what": "golden outputs of `mjaudit check FILE --format json`; see README.md",
        "record": ".venv/bin/python -m tests.golden.record",
        "files": entries,
    }
    (ROOT / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


if __name__ == "__main__":
    began = time.perf_counter()
    record()
    print(f"recorded in {time.perf_counter() - began:.0f} s", file=sys.stderr)
