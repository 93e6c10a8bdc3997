"""The one-command demo and `mjaudit simulate`, end to end through the CLI."""

from __future__ import annotations

from pathlib import Path

from mjaudit.parts.dashboards.queries import connect, overview
from typer.testing import CliRunner

from mjaudit.cli import app

runner = CliRunner()


def test_simulate_is_deterministic_and_writes_labels(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        result = runner.invoke(
            app,
            ["simulate", "--ruleset", "hk-classic", "--games", "1", "--seed", "5",
             "--violations", "0.3", "--out", str(path)],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    assert a.read_bytes() == b.read_bytes()
    labels = tmp_path / "a.labels.jsonl"
    assert labels.read_bytes() == (tmp_path / "b.labels.jsonl").read_bytes()
    assert labels.stat().st_size > 0
    assert b'"violation"' in labels.read_bytes()
    assert b'"violation"' not in a.read_bytes()  # labels go to the sidecar, never the log
    bad_out = tmp_path / "sheet.jsonl"
    bad = runner.invoke(
        app, ["simulate", "--ruleset", "hk-sheet", "--games", "1", "--out", str(bad_out)]
    )
    assert bad.exit_code == 2
    assert "no simulator for ruleset 'hk-sheet'" in bad.output
    assert not bad_out.exists()  # nothing is written for a ruleset without a simulator


def test_demo_runs_end_to_end_and_reuses_its_log(tmp_path: Path) -> None:
    data = tmp_path / "demo"
    args = ["demo", "--data", str(data), "--games", "2", "--no-dashboard"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "club statistics" in first.output
    assert f"mjaudit dashboard --data {data}" in first.output
    figures = overview(connect(data))
    assert figures["sittings"] == 2
    assert figures["hands"] >= 32  # two sittings of at least 16 hands
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "0 hands added" in again.output
    assert "simulating" not in again.output  # the simulated log is reused


def test_a_folder_with_a_simulation_and_its_labels_ingests_only_the_hands(tmp_path: Path) -> None:
    from mjaudit.parts.ingest.pipeline import ingest
    from mjaudit.parts.replay.sim import write_simulation

    logs = tmp_path / "logs"
    logs.mkdir()
    summary = write_simulation(logs / "club.jsonl", "hk-mahjongo", 1, seed=2, violations=0.5)
    assert summary.labels > 0 and summary.labels_path.exists()
    result = ingest([str(logs)], tmp_path / "data")
    assert result.files == 1
    assert result.hands_added == summary.hands
    assert not result.quarantined
