"""Data folders with odd names, and manifests that point outside the folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir, DataDirError
from typer.testing import CliRunner

from bench.synthlog import write_jsonl
from mjaudit.cli import app

runner = CliRunner()


def test_a_data_folder_named_like_a_glob_pattern_works(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    write_jsonl(str(log), 3, seed=2)
    data = tmp_path / "club [2026]"
    assert ingest([str(log)], data).hands_added == 3
    assert ingest([str(log)], data).skipped_present == 3  # scanning the folder still works
    assert DataDir(data).scan("hands").collect().height == 3


def test_a_data_folder_with_a_question_mark_is_refused_clearly(tmp_path: Path) -> None:
    log = tmp_path / "a.jsonl"
    write_jsonl(str(log), 1, seed=2)
    result = runner.invoke(app, ["ingest", str(log), "--data", str(tmp_path / "what?")])
    assert result.exit_code == 2
    assert "contains '?'" in result.output


def _refused_by_every_reader(data: Path) -> None:
    with pytest.raises(DataDirError, match="outside the data folder"):
        DataDir(data).files("hands")
    for args in (["stats", "--data", str(data)], ["show", "g", "1", "--data", str(data)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert "outside the data folder" in result.output


@pytest.mark.parametrize("outside", ["../../../etc/passwd", "file:///etc/passwd"])
def test_a_table_log_naming_files_outside_the_folder_is_refused(
    tmp_path: Path, outside: str
) -> None:
    log = tmp_path / "a.jsonl"
    write_jsonl(str(log), 2, seed=2)
    data = tmp_path / "data"
    ingest([str(log)], data)
    commits = sorted((data / "hands" / "_delta_log").glob("*.json"))
    add = {"path": outside, "partitionValues": {}, "size": 1, "modificationTime": 0}
    with open(commits[-1], "a") as f:  # the hands table's last commit names the file too
        f.write(json.dumps({"add": {**add, "dataChange": True}}) + "\n")
    _refused_by_every_reader(data)


def test_a_manifest_naming_files_outside_the_folder_is_refused(tmp_path: Path) -> None:
    """The same for a folder of the manifest layout (mjdata/1), before it is converted."""
    data = tmp_path / "data"
    shutil.copytree(Path(__file__).parents[1] / "data" / "mjdata-1", data)
    manifest = json.loads((data / "_manifest.json").read_text())
    manifest["tables"]["hands"].append("../../../etc/passwd")
    (data / "_manifest.json").write_text(json.dumps(manifest))
    _refused_by_every_reader(data)
