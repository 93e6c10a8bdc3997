"""Golden outputs: ``mjaudit check --format json`` gives, byte for byte, what the engines
gave when the files were recorded (before the engine-protocol refactor), on every
``examples/*.jsonl`` and on about 2,000 simulated hands of every ruleset; and the simulator
still writes the stored logs. See ``tests/golden/data/README.md``; re-record
(``.venv/bin/python -m tests.golden.record``) only for a deliberate behaviour change."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from mjaudit.parts.replay.sim import rulesets

from .record import (
    ROOT,
    example_logs,
    gunzip,
    load_manifest,
    run_check,
    sha256,
    simulated_log,
)

ENTRIES: list[dict[str, Any]] = load_manifest()["files"]
SIMS = [e for e in ENTRIES if e["kind"] == "sim"]
RERECORD = (
    "if the change is deliberate, re-record with `.venv/bin/python -m tests.golden.record` "
    "and name the behaviour change in the commit message"
)
# The simulator test plays this many hands of each stored log (the first sittings): the
# whole logs take minutes. MJAUDIT_GOLDEN_FULL=1 plays them all (run it once on a PR
# that touches the simulator).
PREFIX_HANDS = 150
SHOW = 3000  # characters of a differing line shown


def _first_path(a: Any, b: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """Where two decoded JSON values first differ: (path, value in a, value in b)."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "<absent>"), b.get(key, "<absent>")
            found = _first_path(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_path(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b else (path, a, b)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text)} characters)"


def first_difference(expected: bytes, actual: bytes, limit: int = SHOW) -> str | None:
    """None when equal; else the first differing line: its hand, where, and both lines."""
    if expected == actual:
        return None
    exp, act = expected.splitlines(), actual.splitlines()
    differ = sum(x != y for x, y in zip(exp, act, strict=False)) + abs(len(exp) - len(act))
    head = f"{differ} of {len(exp)} expected lines differ (got {len(act)} lines)"
    i = next((i for i, (x, y) in enumerate(zip(exp, act, strict=False)) if x != y), None)
    if i is None:  # one is a prefix of the other
        if len(exp) == len(act):
            return f"{head}: the lines are equal, only the line endings differ"
        i = min(len(exp), len(act))
        which, line = ("missing", exp[i]) if len(exp) > len(act) else ("extra", act[i])
        return f"{head}; first {which} line, line {i + 1}: {_short(line.decode(), limit)}"
    where = "same JSON value, different bytes (key order or number format)"
    hand = "?"
    try:
        x, y = json.loads(exp[i]), json.loads(act[i])
    except ValueError:
        where = "a line is not JSON"
    else:
        ref = x if isinstance(x, dict) else {}
        hand = f"game_id={ref.get('game_id')!r} hand_no={ref.get('hand_no')!r}"
        found = _first_path(x, y)
        if found:
            path, a, b = found
            where = (
                f"first difference at {path}: expected "
                f"{_short(json.dumps(a), 300)}, got {_short(json.dumps(b), 300)}"
            )
    return (
        f"{head}; first at line {i + 1} ({hand}): {where}\n"
        f"  expected: {_short(exp[i].decode(), limit)}\n"
        f"  actual:   {_short(act[i].decode(), limit)}"
    )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_check_json_output_is_golden(entry: dict[str, Any], monkeypatch: pytest.MonkeyPatch):
    """`mjaudit check FILE --format json` prints exactly the recorded output."""
    monkeypatch.chdir(ROOT)  # the CLI names the file as given in unreadable-record messages
    stored = (
        gunzip(entry["input"]) if entry["kind"] == "sim" else (ROOT / entry["input"]).read_bytes()
    )
    assert sha256(stored) == entry["input_sha256"], (
        f"{entry['input']} is not the input the golden output was recorded on; {RERECORD}"
    )
    actual, status = run_check(entry["input"])
    message = first_difference(gunzip(entry["output"]), actual)
    if message:
        pytest.fail(
            f"`mjaudit check {entry['input']} --format json` changed: {message}\n{RERECORD}",
            pytrace=False,
        )
    assert status == entry["exit_code"], f"exit status changed; {RERECORD}"


@pytest.mark.parametrize("entry", SIMS, ids=[e["id"] for e in SIMS])
def test_simulator_still_writes_the_stored_log(entry: dict[str, Any]):
    """``simulate_sittings`` with the recorded arguments still gives the stored log, byte
    for byte (the first PREFIX_HANDS hands; all of them with MJAUDIT_GOLDEN_FULL=1).

    This pins the simulator across the engine/simulator refactor. A deliberate simulator
    change re-records the golden files with the script
    (``.venv/bin/python -m tests.golden.record``) and says so in the commit message.
    """
    expected = gunzip(entry["input"]).splitlines(keepends=True)
    full = os.environ.get("MJAUDIT_GOLDEN_FULL") == "1"
    want = len(expected) if full else min(PREFIX_HANDS, len(expected))
    played: list[bytes] = []
    lines = simulated_log(**entry["simulate"])
    for line in lines:
        played.append(line)
        if not full and len(played) >= want:
            break
    lines.close()  # type: ignore[attr-defined]
    message = first_difference(b"".join(expected[:want]), b"".join(played), limit=600)
    if message:
        pytest.fail(f"simulate_sittings({entry['simulate']}) changed: {message}\n{RERECORD}")


def test_every_ruleset_and_example_has_golden_output():
    """A ruleset or example added later gets its golden output recorded too."""
    ids = {e["id"] for e in ENTRIES}
    want = {f"sim-{r}" for r in rulesets()} | {
        f"examples-{p.name[: -len('.jsonl')]}" for p in example_logs()
    }
    assert ids == want, (
        f"no golden output for {sorted(want - ids)}, stale entries {sorted(ids - want)}: "
        "record them with `.venv/bin/python -m tests.golden.record`"
    )
