"""The installed wheel holds one top-level import, ``mjaudit`` (PyPI already has projects
named ``replay`` and ``schemas``), plus ``py.typed``; the API works from it alone.

The wheel is built from this checkout and unpacked into a folder; a Python started with
``-S`` (no site packages, so not the editable install of the checkout) sees that folder
and the libraries, and runs the facade from a directory outside the repository.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    src = out / "src"  # a copy: building never writes into the checkout
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(".venv", ".git", "tests", "__pycache__", "mjdata*"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
    )
    (found,) = out.glob("mahjong_audit-*.whl")
    return found


def test_the_wheel_has_one_top_level_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"mjaudit"}
    assert "mjaudit/py.typed" in names
    for part in ("replay", "ingest", "schemas", "dashboards", "service"):
        assert f"mjaudit/parts/{part}/__init__.py" in names
    assert (
        "mjaudit/parts/replay/rulesets/american/cards/sample.yaml" in names
    )  # package data comes along
    for folder in ("american", "chan", "hk", "riichi", "vn160"):  # the rules references
        assert f"mjaudit/parts/replay/rulesets/{folder}/checklist.json" in names


def test_the_wheel_holds_the_compiled_core_beside_its_sources(wheel: Path) -> None:
    """Built where a C compiler is present (the build installs Cython itself), each listed
    module's extension sits beside its ``.py``, with the record of the sources compiled."""
    from mjaudit import compiled

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip("no C compiler: the wheel is pure Python")
    names = set(zipfile.ZipFile(wheel).namelist())
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for short in compiled.COMPILED:
        inside = (compiled.PREFIX + short).replace(".", "/")
        assert inside + ".py" in names
        assert inside + suffix in names, short
    recorded = json.loads(zipfile.ZipFile(wheel).read(f"mjaudit/{compiled.MANIFEST}"))
    assert sorted(recorded) == sorted(compiled.COMPILED)
    assert "-py3-none-any" not in wheel.name  # a platform wheel


def test_the_api_works_from_the_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    libs = sysconfig.get_paths()["purelib"]
    log = ROOT / "examples" / "club-night.jsonl"
    script = f"""
import importlib.util, sys
import mjaudit
assert mjaudit.__file__.startswith({str(target)!r}), mjaudit.__file__
for name in ("replay", "ingest", "schemas", "dashboards", "service"):
    assert importlib.util.find_spec(name) is None, name  # no top-level names of ours
hands = mjaudit.read_log({str(log)!r})
report = mjaudit.replay_hand(hands[0])
summary = mjaudit.ingest([{str(log)!r}], "data")
archive = mjaudit.open("data")
rows = archive.sql("select count(*) from hand_results").fetchone()[0]
from mjaudit import compiled
assert compiled.install().fallbacks == {{}}, compiled.install().fallbacks  # none stale
print(len(hands), report.ended_by, summary.hands_added, rows)
"""
    env = {"PYTHONPATH": f"{target}:{libs}", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    run = subprocess.run(
        [sys.executable, "-S", "-c", script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["22", "win", "22", "22"]
    cli = subprocess.run(
        [sys.executable, "-S", "-m", "mjaudit", "--version"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 0, cli.stderr
