"""Crash safety and one-writer concurrency of `mjaudit ingest` and `mjaudit replay`.

The commands run in subprocesses and are killed with SIGKILL at seeded random moments.
The archive (4 files, about 40 MB, 5,200 hands) takes a few seconds to ingest and is
committed in three batches of 16 MB, a commit each (`--commit-mb 16`), so kills land
before, between and after commits. After every kill the folder must be readable and consistent, hold a whole number
of batches, and a re-run must finish the job exactly.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from helpers import (
    HANG_GUARD,
    Killed,
    catalog_counts,
    check_consistent,
    check_delta_readers,
    hand_boundaries,
    replay_bytes,
    run,
    run_and_kill,
    start,
    wait_for_lock,
    wait_for_waiting,
    write_archive,
)
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import CATALOG, DataDir
from mjaudit.parts.replay.archive.update import replay_archive

FILES, HANDS_PER_FILE = 4, 1300
TOTAL = FILES * HANDS_PER_FILE
BUSY = "another mjaudit command is writing"
# A commit per 16 MB batch (the default commits 128 MB at once, the whole archive here),
# so that kills land between commits.
COMMIT_MB = 16


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The archive, its reference ingest (before replay) and reference replay output."""
    base = tmp_path_factory.mktemp("crash")
    archive = base / "archive"
    write_archive(archive, FILES, HANDS_PER_FILE)
    ingested = base / "ingested"
    summary = ingest([str(archive)], ingested, commit_bytes=COMMIT_MB << 20)
    assert summary.hands_added == TOTAL
    boundaries = hand_boundaries(ingested)
    assert len(boundaries) >= 4, boundaries  # at least three commits: kills can land between
    replayed = base / "replayed"
    shutil.copytree(ingested, replayed)
    assert replay_archive(replayed).replayed == TOTAL
    return {
        "base": base,
        "archive": archive,
        "ingested": ingested,
        "boundaries": boundaries,
        "replay_bytes": replay_bytes(replayed),
    }


def _copy(world: dict, tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copytree(world["ingested"], dest)
    return dest


def test_ingest_killed_at_random_points_then_completed(world, tmp_path):
    rng = random.Random(20261130)
    root = tmp_path / "data"
    boundaries = world["boundaries"]
    # One point in each third of a run (it takes about 4 s on the 2-core reference machine).
    points = [rng.uniform(0.2, 1.3), rng.uniform(1.3, 2.6), rng.uniform(2.6, 3.8)]
    outcomes: list[tuple[Killed, int]] = []
    previous = 0
    for after in points:
        killed = run_and_kill(
            "ingest",
            str(world["archive"]),
            "--data",
            str(root),
            "--commit-mb",
            str(COMMIT_MB),
            cwd=tmp_path,
            after=after,
        )
        if not DataDir(root).exists():
            assert killed.killed  # killed before its first commit: nothing to read yet
            outcomes.append((killed, 0))
            continue
        if not (root / CATALOG).exists():
            # killed between the first commit (the empty tables) and the first catalog:
            # the next command that opens the folder builds it, as `mjaudit catalog` does
            # (checked before check_consistent, which reads the catalog)
            committed = DataDir(root).read("hands").num_rows
            assert killed.killed and committed == 0, (killed, committed)
            made = run("catalog", "--data", str(root), cwd=tmp_path)
            assert made.returncode == 0, made.stderr
        hands = check_consistent(root)
        assert hands in boundaries, (hands, boundaries)  # never half a batch
        assert catalog_counts(root)["hands"] in boundaries
        assert hands >= previous  # committed batches are never lost
        previous = hands
        outcomes.append((killed, hands))
    assert any(k.killed for k, _ in outcomes), outcomes  # the archive must outlast a kill
    done = run("ingest", str(world["archive"]), "--data", str(root), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert check_consistent(root) == TOTAL
    assert catalog_counts(root)["hands"] == TOTAL
    check_delta_readers(root)  # a plain Delta reader sees exactly the same rows
    assert outcomes  # (visible with -ra on failure)


def test_replay_killed_at_random_points_then_completed(world, tmp_path):
    rng = random.Random(1130)
    root = _copy(world, tmp_path, "data")
    before = replay_bytes(root)  # the initial empty files only
    points = [rng.uniform(0.3, 1.0), rng.uniform(1.0, 1.8), rng.uniform(1.8, 2.4)]
    killed_any = False
    for i, after in enumerate(points):
        # the second kill also takes down a local process pool mid-run
        workers = ["--workers", "2"] if i == 1 else []
        killed = run_and_kill("replay", "--data", str(root), *workers, cwd=tmp_path, after=after)
        killed_any = killed_any or killed.killed
        assert check_consistent(root) == TOTAL
        now = replay_bytes(root)
        # replay commits once: a kill leaves either nothing or the whole, exact output
        assert now in (before, world["replay_bytes"]), sorted(now)
    assert killed_any
    done = run("replay", "--data", str(root), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert replay_bytes(root) == world["replay_bytes"]
    assert catalog_counts(root)["hand_results"] == TOTAL
    check_delta_readers(root)


def _row(table_text: str, label: str) -> int:
    match = re.search(rf"{re.escape(label)}\s*│\s*(\d+)", table_text)
    assert match, table_text
    return int(match.group(1))


def test_two_concurrent_ingests(world, tmp_path):
    root = tmp_path / "data"
    first = start("ingest", str(world["archive"]), "--data", str(root), cwd=tmp_path)
    queued = None
    try:
        wait_for_lock(root, first)
        second = run("ingest", str(world["archive"]), "--data", str(root), cwd=tmp_path)
        assert first.poll() is None  # the first really was still writing
        assert second.returncode == 2
        assert BUSY in " ".join(second.stderr.split()), second.stderr
        queued = start("ingest", str(world["archive"]), "--data", str(root), "--wait", cwd=tmp_path)
        first_out, err = first.communicate(timeout=HANG_GUARD)
        assert first.returncode == 0, err
        queued_out, err = queued.communicate(timeout=HANG_GUARD)
        assert queued.returncode == 0, err
    finally:
        for proc in (first, queued):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert _row(first_out, "hands added") == TOTAL
    # the queued run came after the first one and found every hand present
    assert _row(queued_out, "hands added") == 0
    assert _row(queued_out, "skipped (already present)") == TOTAL
    assert check_consistent(root) == TOTAL


def test_replay_while_another_writer_holds_the_lock(world, tmp_path):
    """A replay is refused while another command writes, and --wait queues behind it.

    The other writer is this test holding the lock (as an ingest does), so the overlap does
    not depend on how fast a busy machine starts the processes.
    """
    root = _copy(world, tmp_path, "data")
    queued = None
    try:
        with DataDir(root).writing():
            refused = run("replay", "--data", str(root), cwd=tmp_path)
            assert refused.returncode == 2
            assert BUSY in " ".join(refused.stderr.split()), refused.stderr
            queued = start("replay", "--data", str(root), "--wait", cwd=tmp_path)
            wait_for_waiting(queued)
        _, err = queued.communicate(timeout=HANG_GUARD)
        assert queued.returncode == 0, err
    finally:
        if queued is not None and queued.poll() is None:
            queued.kill()
            queued.communicate()
    assert replay_bytes(root) == world["replay_bytes"]
    assert check_consistent(root) == TOTAL
