"""`mjaudit replay` on Dask gives the local run's output, byte for byte."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from helpers import replay_bytes, write_archive
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive.distributed import DistributedUnavailable
from mjaudit.parts.replay.archive.plan import plan
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.sim import write_simulation
from mjaudit.parts.schemas.tables import REPLAY_TABLES
from typer.testing import CliRunner

from mjaudit.cli import app

distributed = pytest.importorskip("distributed")

runner = CliRunner()


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("dist")
    logs = write_archive(base / "logs", files=2, hands_per_file=120, seed=7)
    sim = base / "logs" / "sim.jsonl"
    write_simulation(sim, "hk-mahjongo", games=1, seed=11)
    root = base / "ingested"
    summary = ingest([str(p) for p in [*logs, sim]], root)
    assert summary.hands_added > 240
    return root


def _copy(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest)
    return dest


def test_local_cluster_output_is_byte_identical(ingested, tmp_path):
    local = _copy(ingested, tmp_path / "local")
    dask = _copy(ingested, tmp_path / "dask")
    with DataDir(local).writing():
        todo = plan(DataDir(local))
    hands = todo.hands
    assert len(todo.games) > 2  # several buckets, so the tasks really spread over the workers
    s_local = replay_archive(local, workers=1)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        done: list[int] = []
        total: list[int] = []
        s_dask = replay_archive(
            dask, scheduler=cluster.scheduler_address, on_task=done.append, on_total=total.append
        )
    assert total == [len(done)] and len(done) > len(todo.games)  # chunk tasks, then one per bucket
    assert s_local.replayed == s_dask.replayed == hands
    assert s_local.findings_by_class == s_dask.findings_by_class
    a, b = replay_bytes(local), replay_bytes(dask)
    assert sorted(a) == sorted(b)
    assert {Path(f).parts[0] for f in a} == set(REPLAY_TABLES)
    assert any(Path(f).parent.name.startswith("ruleset=") for f in a)  # partitioned by ruleset
    assert a == b
    # a re-run has nothing to do: it changes nothing and does not even contact the scheduler
    assert replay_archive(dask, scheduler="tcp://127.0.0.1:9").replayed == 0
    assert replay_bytes(dask) == a


def test_cli_cluster_local(ingested, tmp_path):
    local = _copy(ingested, tmp_path / "local")
    dask = _copy(ingested, tmp_path / "dask")
    assert runner.invoke(app, ["replay", "--data", str(local)]).exit_code == 0
    res = runner.invoke(
        app, ["replay", "--data", str(dask), "--cluster", "local", "--workers", "2"]
    )
    assert res.exit_code == 0, res.output
    assert "replayed now" in res.output
    assert replay_bytes(local) == replay_bytes(dask)


def test_cli_usage_errors(ingested, tmp_path):
    res = runner.invoke(
        app, ["replay", "--data", str(ingested), "--cluster", "local", "--scheduler", "tcp://x:1"]
    )
    assert res.exit_code == 2
    res = runner.invoke(
        app, ["replay", "--data", str(ingested), "--scheduler", "tcp://x:1", "--workers", "3"]
    )
    assert res.exit_code == 2


def test_missing_dask_is_a_clear_error(ingested, tmp_path, monkeypatch):
    data = _copy(ingested, tmp_path / "data")
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    with pytest.raises(DistributedUnavailable, match=r"pip install mahjong-audit\[distributed\]"):
        replay_archive(data, cluster="local")
    res = runner.invoke(app, ["replay", "--data", str(data), "--cluster", "local"])
    assert res.exit_code == 2
    assert "pip install mahjong-audit[distributed]" in " ".join(res.output.split())
    assert not list((data / "hand_results").rglob("bucket-*"))  # nothing was written
