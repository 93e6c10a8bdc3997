"""The engine's compiled core: which modules Cython compiles, and the switch back to Python.

The listed modules are ordinary ``.py`` files, compiled unchanged (one code path) by
``hatch_build.py`` when the package is installed, into ``.so`` files beside them. Python
prefers an extension module to a ``.py`` of the same name, so nothing else changes. This
module, imported first by ``mjaudit``, puts a finder at the head of ``sys.meta_path`` that
loads a listed module from its ``.py`` instead when

* ``MJAUDIT_PURE_PYTHON=1`` is set (or a comma-separated list of the short names below:
  those modules only, for measuring one module's gain), or
* the ``.py`` is not the one that was compiled: its SHA-256 differs from the one
  ``hatch_build.py`` recorded in ``compiled-sources.json``, so an engineer who edits a
  compiled module runs the edit, warned, until ``make compiled`` rebuilds it.

Standard library only: ``hatch_build.py`` reads :data:`COMPILED` from this file before the
package's dependencies are installed.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PREFIX = "mjaudit.parts."

#: The compiled modules, named under ``mjaudit.parts`` (a folder at the repository's top).
#: Each is kept only where callgrind shows it pays (docs/benchmarks.md, "Compiled core"):
#: vn-160's and american's modules saved 1% and 5% of their instructions and are not
#: compiled; vn160/khung.py crashes Cython 3.3's flow analysis.
COMPILED: tuple[str, ...] = (
    "replay.rulesets.mahjong.hand",
    "replay.rulesets.mahjong.packed",
    "replay.rulesets.mahjong.counts",
    "replay.rulesets.mahjong.decompose",
    "replay.rulesets.mahjong.melds",
    "replay.rulesets.hk.hand",
    "replay.rulesets.hk.scoring",
    "replay.rulesets.hk.patterns",
    "replay.rulesets.hk.score",
    "replay.engine.loop",
    "replay.engine.turns",
    "replay.engine.run",
    "schemas.records",
    "replay.rulesets.chan.state",
    "replay.rulesets.chan.combos",
    "replay.rulesets.chan.score",
    "replay.rulesets.chan.cuoc",
)

#: Beside this file: ``{short name: SHA-256 of the .py compiled}``, written by the build.
MANIFEST = "compiled-sources.json"
ENV = "MJAUDIT_PURE_PYTHON"


class PurePythonFinder:
    """Finds a listed module's ``.py`` when the compiled one must not be used; else defers."""

    def __init__(self, pure: frozenset[str], recorded: dict[str, str]) -> None:
        self.pure = pure
        self.recorded = recorded
        self.fallbacks: dict[str, str] = {}  # full name -> why its .py was loaded

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        short = fullname.removeprefix(PREFIX)
        if short not in _LISTED or not path:
            return None
        leaf = short.rpartition(".")[2]
        for entry in path:
            source = Path(entry) / f"{leaf}.py"
            if not source.is_file():
                continue
            if not _has_extension(source.parent, leaf):
                return None  # not compiled here: the ordinary finders load the .py
            why = self._why_python(short, source)
            if why is None:
                return None  # the ordinary finders load the .so
            self.fallbacks[fullname] = why
            return importlib.util.spec_from_file_location(fullname, source)
        return None

    def _why_python(self, short: str, source: Path) -> str | None:
        if short in self.pure:
            return ENV
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if self.recorded.get(short) == digest:
            return None
        warnings.warn(
            f"{source} differs from the source its compiled module was built from, so the "
            "Python source is used; run `make compiled` to rebuild the compiled modules",
            RuntimeWarning,
            stacklevel=2,
        )
        return "stale"


_LISTED = frozenset(COMPILED)


def _has_extension(folder: Path, leaf: str) -> bool:
    return any((folder / f"{leaf}{s}").is_file() for s in importlib.machinery.EXTENSION_SUFFIXES)


def pure_from_env(value: str | None) -> frozenset[str]:
    """The modules ``MJAUDIT_PURE_PYTHON`` sends back to Python: ``1`` all, else a list."""
    value = (value or "").strip()
    if value in ("", "0"):
        return frozenset()
    if value == "1":
        return _LISTED
    names = frozenset(n.strip() for n in value.split(",") if n.strip())
    unknown = names - _LISTED
    if unknown:
        raise ValueError(f"{ENV}: not compiled modules: {', '.join(sorted(unknown))}")
    return names


def install() -> PurePythonFinder:
    """Put the finder first on ``sys.meta_path`` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, PurePythonFinder):
            return finder
    try:
        recorded = json.loads((Path(__file__).parent / MANIFEST).read_text())
    except (OSError, ValueError):
        recorded = {}
    finder = PurePythonFinder(pure_from_env(os.environ.get(ENV)), recorded)
    sys.meta_path.insert(0, finder)
    return finder


def loaded() -> dict[str, bool]:
    """Each listed module imported so far: ``True`` where its compiled form was loaded."""
    out = {}
    for short in COMPILED:
        module = sys.modules.get(PREFIX + short)
        if module is not None:
            origin = getattr(module.__spec__, "origin", "") or ""
            out[short] = not origin.endswith(".py")
    return out
