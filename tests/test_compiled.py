"""The compiled core (mjaudit/compiled.py, hatch_build.py): where a C compiler is present the
listed modules run compiled; ``MJAUDIT_PURE_PYTHON`` and a stale ``.so`` run the ``.py``.

The whole suite runs on whichever form was loaded; ``make test`` runs the golden and the
ruleset tests a second time with ``MJAUDIT_PURE_PYTHON=1``, so both forms are tested.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path

import pytest

from mjaudit import compiled

ROOT = Path(__file__).resolve().parents[1]


def has_compiler() -> bool:
    """A C compiler and Cython: then the install compiled the listed modules."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None and importlib.util.find_spec("Cython") is not None


@pytest.mark.skipif(not has_compiler(), reason="no C compiler or Cython: pure Python")
@pytest.mark.skipif(bool(os.environ.get(compiled.ENV)), reason="MJAUDIT_PURE_PYTHON is set")
def test_the_listed_modules_are_loaded_compiled() -> None:
    for short in compiled.COMPILED:
        importlib.import_module(compiled.PREFIX + short)
    python = sorted(short for short, yes in compiled.loaded().items() if not yes)
    assert not python, f"loaded from .py (run `make compiled`): {python}"


def test_pure_python_loads_every_listed_module_from_its_source() -> None:
    script = (
        "import importlib, mjaudit\n"
        "from mjaudit import compiled\n"
        "for s in compiled.COMPILED: importlib.import_module(compiled.PREFIX + s)\n"
        "print(sum(compiled.loaded().values()), len(compiled.loaded()))\n"
    )
    env = {**os.environ, compiled.ENV: "1"}
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["0", str(len(compiled.COMPILED))]


def _package(tmp_path: Path, source: str) -> tuple[Path, str]:
    """A folder holding ``hand.py`` and a stand-in for its extension module."""
    (tmp_path / "hand.py").write_text(source)
    (tmp_path / f"hand{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return tmp_path, hashlib.sha256(source.encode()).hexdigest()


NAME = compiled.PREFIX + "replay.rulesets.mahjong.hand"
SHORT = "replay.rulesets.mahjong.hand"


def test_a_current_extension_module_is_left_to_the_ordinary_finders(tmp_path: Path) -> None:
    folder, digest = _package(tmp_path, "X = 1\n")
    finder = compiled.PurePythonFinder(frozenset(), {SHORT: digest})
    assert finder.find_spec(NAME, [str(folder)]) is None


def test_an_edited_source_is_loaded_instead_of_its_stale_extension(tmp_path: Path) -> None:
    folder, digest = _package(tmp_path, "X = 1\n")
    (folder / "hand.py").write_text("X = 2\n")  # edited after the build
    finder = compiled.PurePythonFinder(frozenset(), {SHORT: digest})
    with pytest.warns(RuntimeWarning, match="make compiled"):
        spec = finder.find_spec(NAME, [str(folder)])
    assert spec is not None and spec.origin == str(folder / "hand.py")
    assert finder.fallbacks == {NAME: "stale"}


def test_pure_python_is_asked_for_by_module(tmp_path: Path) -> None:
    folder, digest = _package(tmp_path, "X = 1\n")
    finder = compiled.PurePythonFinder(compiled.pure_from_env(SHORT), {SHORT: digest})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # asked for: no warning
        spec = finder.find_spec(NAME, [str(folder)])
    assert spec is not None and spec.origin == str(folder / "hand.py")
    assert compiled.pure_from_env("") == frozenset()
    assert compiled.pure_from_env("1") == frozenset(compiled.COMPILED)
    with pytest.raises(ValueError, match=r"not compiled modules: replay\.nope"):
        compiled.pure_from_env("replay.nope")


def test_a_module_never_compiled_or_not_listed_is_not_touched(tmp_path: Path) -> None:
    (tmp_path / "hand.py").write_text("X = 1\n")  # no extension module beside it
    finder = compiled.PurePythonFinder(frozenset(compiled.COMPILED), {})
    assert finder.find_spec(NAME, [str(tmp_path)]) is None
    assert finder.find_spec(compiled.PREFIX + "replay.sim.core", [str(tmp_path)]) is None


@pytest.mark.skipif(not has_compiler(), reason="no C compiler or Cython")
def test_a_module_that_does_not_compile_stays_python_and_the_rest_compile(
    tmp_path: Path,
) -> None:
    """The build never fails: Cython 3.3 crashes on vn160/khung.py's generator (kept here as
    the example), so that module is warned about and left out, and the other one builds."""
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    (tmp_path / "mjaudit").mkdir()
    listing = (ROOT / "mjaudit" / "compiled.py").read_text()
    start = listing.index("COMPILED: tuple[str, ...] = (")
    end = listing.index(")\n", start) + 2
    listing = listing[:start] + 'COMPILED = ("demo.good", "demo.bad")\n' + listing[end:]
    (tmp_path / "mjaudit" / "compiled.py").write_text(listing)
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "good.py").write_text("def twice(x):\n    return 2 * x\n")
    (tmp_path / "demo" / "bad.py").write_text(
        "G = ((0, 9, 1),)\n"
        "def need(kinds):\n"
        "    n = [0]\n"
        "    for t in kinds:\n"
        "        n[next(g for g, (f, s, _) in enumerate(G) if f <= t < f + s)] += 1\n"
        "    return n\n"
    )
    warned: list[str] = []
    built = hatch_build.build(tmp_path, tmp_path / "build", warned.append)
    assert sorted(built) == ["demo.good"]
    assert len(warned) == 1 and "demo.bad" in warned[0] and "pure Python" in warned[0]
    so, digest = built["demo.good"]
    assert (
        so.is_file() and digest == hashlib.sha256(b"def twice(x):\n    return 2 * x\n").hexdigest()
    )
