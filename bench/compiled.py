"""The compiled core against pure Python, per ruleset, on the same simulated hands.

    python bench/compiled.py [--hands 2000] [--callgrind-hands 100] [--ruleset NAME|all]
                             [--pure MODULES] [--rounds 3]

For each ruleset it simulates the hands once, writes them to a temporary JSONL file, and
measures child processes alternately with and without ``MJAUDIT_PURE_PYTHON=1``:

* instructions per replayed hand: callgrind over the replay alone (20 hands warm the
  tables first; collection is on only inside ``collections.deque(..., maxlen=0)``, which
  the engine never calls), which the machine's load does not move;
* hands per CPU-second of ``replay_games`` (``time.process_time``), the median of
  ``--rounds`` alternated pairs.

``--pure a,b`` measures the compiled build with only those modules sent back to Python
(the gain of one module); the default compares all of them (``MJAUDIT_PURE_PYTHON=1``).
Without the compiled modules built (``make compiled``) both sides are pure Python.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_smoke, print_peak_memory  # noqa: E402

WARM = 20


def _load(path: Path) -> list[dict]:
    from mjaudit.parts.schemas.records import parse_record

    return [parse_record(line).record for line in path.read_bytes().splitlines() if line]


def child(path: Path, mode: str) -> None:
    """One measurement in this process: prints instructions' hand count or CPU seconds."""
    from mjaudit.parts.replay.engine.run import replay_games

    from mjaudit import compiled

    recs = _load(path)
    if mode == "callgrind":
        collections.deque(replay_games(recs[:WARM]), maxlen=None)  # warm, not collected
        collections.deque(replay_games(recs[WARM:]), maxlen=0)  # collected
        print(len(recs) - WARM)
        return
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        collections.deque(replay_games(recs), maxlen=0)
        best = min(best, time.process_time() - t0)
    on = sum(compiled.loaded().values())
    print(best, on)


def _run(path: Path, mode: str, pure: str, callgrind: bool) -> str:
    env = {**os.environ, "PYTHONHASHSEED": "1", "MJAUDIT_PURE_PYTHON": pure}
    cmd = [sys.executable, __file__, "--child", str(path), "--mode", mode]
    if callgrind:
        fd, name = tempfile.mkstemp(suffix=".cg")
        os.close(fd)  # callgrind writes the file itself
        out = Path(name)
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            "--toggle-collect=deque_init",
            *cmd,
        ]
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        text = out.read_text(errors="replace")
        out.unlink()
        total = next(line for line in text.splitlines() if line.startswith("totals:"))
        return f"{int(total.split()[1])} {run.stdout.strip()}"
    return subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout


def _hands(ruleset: str, n: int, path: Path) -> None:
    from mjaudit.parts.replay.sim import simulate
    from mjaudit.parts.schemas.records import canonical_json

    lines: list[bytes] = []
    seed = 1
    while len(lines) < n:
        for record, _labels in simulate(ruleset, games=max(1, n // 12), seed=seed):
            lines.append(canonical_json(record))
            if len(lines) >= n:
                break
        seed += 1
    path.write_bytes(b"\n".join(lines) + b"\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=2000, help="hands for the CPU figure")
    ap.add_argument("--callgrind-hands", type=int, default=100, help="0: no callgrind")
    ap.add_argument("--ruleset", default="all")
    ap.add_argument("--pure", default="1", help="MJAUDIT_PURE_PYTHON of the 'pure' side")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="cpu", help=argparse.SUPPRESS)
    add_smoke(ap)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.mode)
        return
    if args.smoke:
        args.hands, args.callgrind_hands, args.rounds, args.ruleset = 30, 0, 1, "hk-mahjongo"
    if args.callgrind_hands and not shutil.which("valgrind"):
        print("valgrind is missing: CPU times only")
        args.callgrind_hands = 0
    from mjaudit.parts.replay.sim import rulesets

    names = list(rulesets()) if args.ruleset == "all" else args.ruleset.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            big = Path(tmp) / f"{name}.jsonl"
            _hands(name, max(args.hands, args.callgrind_hands + WARM), big)
            small = Path(tmp) / f"{name}-cg.jsonl"
            lines = big.read_bytes().splitlines(keepends=True)
            small.write_bytes(b"".join(lines[: args.callgrind_hands + WARM]))
            big.write_bytes(b"".join(lines[: args.hands]))
            figures = {}
            for side, pure in (("compiled", ""), ("pure", args.pure)):
                if args.callgrind_hands:
                    total, hands = _run(small, "callgrind", pure, True).split()
                    figures[side + " instr"] = int(total) / int(hands)
            times: dict[str, list[float]] = {"compiled": [], "pure": []}
            loaded = "0"
            for _ in range(args.rounds):
                for side, pure in (("compiled", ""), ("pure", args.pure)):
                    secs, on = _run(big, "cpu", pure, False).split()
                    times[side].append(float(secs))
                    if side == "compiled":
                        loaded = on
            line = f"{name}: {args.hands} hands, {loaded} modules compiled; "
            if figures:
                c, p = figures["compiled instr"], figures["pure instr"]
                line += f"instructions/hand pure {p:,.0f} -> compiled {c:,.0f} ({p / c:.2f}x); "
            hp = args.hands / statistics.median(times["pure"])
            hc = args.hands / statistics.median(times["compiled"])
            line += f"CPU time pure {hp:,.0f} -> compiled {hc:,.0f} hands/s ({hc / hp:.2f}x)"
            print(line, flush=True)
    print_peak_memory()


if __name__ == "__main__":
    main()
