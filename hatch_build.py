"""Compiles the engine's hot modules (``mjaudit/compiled.py``'s list) with Cython, unchanged.

hatchling runs :class:`CompiledCoreHook` for every wheel it builds. For an editable install
(``make env``) the extension modules are built in place, beside their ``.py`` in the
checkout (gitignored); for a wheel they are put beside the ``.py`` inside it
(``mjaudit/parts/replay/...``), which makes the wheel platform-specific. Both build under
``build/compiled``, which keeps the C files and the objects: only the modules whose source
changed are compiled again.
Either way ``compiled-sources.json`` records each compiled source's SHA-256 so that
``mjaudit/compiled.py`` can tell a stale ``.so`` from a current one.

Nothing here can fail an install: without Cython, setuptools or a C compiler, or for a
module that does not compile, it warns and that module stays pure Python.

``python hatch_build.py`` (``make compiled``) rebuilds in place after an edit.
``MJAUDIT_NO_COMPILE=1`` installs pure Python on purpose.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # `python hatch_build.py` outside a build: hatchling is not needed
    BuildHookInterface = object  # type: ignore[assignment,misc]


#: The modules' annotations stay hints, as in Python (with Cython's default a ``float``
#: would become a C double and a ``list`` an exact-type check): the same semantics.
DIRECTIVES = {"language_level": 3, "annotation_typing": False}
#: -O1 without debug information: a third of -O3 -g's compile time (CI builds on every
#: run) for the same instruction counts (docs/benchmarks.md, "Compiled core").
FLAGS = [] if sys.platform == "win32" else ["-O1", "-g0"]


def _compiled_list(root: Path) -> tuple[str, tuple[str, ...], str]:
    """``mjaudit/compiled.py``'s prefix, list and manifest name (the package is not importable
    during a build: its dependencies are not installed yet)."""
    spec = importlib.util.spec_from_file_location("_mjaudit_compiled", root / "mjaudit/compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PREFIX, module.COMPILED, module.MANIFEST


def source_of(root: Path, short: str) -> Path:
    return root.joinpath(*short.split(".")).with_suffix(".py")


def build(
    root: Path, work: Path, warn: Callable[[str], None] = print
) -> dict[str, tuple[Path, str]]:
    """Compile the listed modules under ``work``: ``{short name: (.so, source SHA-256)}``
    for those that built; every module that did not is warned about and left out."""
    prefix, modules, _ = _compiled_list(root)
    if os.environ.get("MJAUDIT_NO_COMPILE", "") not in ("", "0"):
        warn("MJAUDIT_NO_COMPILE is set: installing the engine as pure Python")
        return {}
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        warn(f"Cython or setuptools is missing ({exc}): installing the engine as pure Python")
        return {}
    digests = {
        short: hashlib.sha256(source_of(root, short).read_bytes()).hexdigest() for short in modules
    }
    # Paths relative to the root, so a copy of the checkout (tests/test_wheel.py) reuses them.
    work = Path(os.path.relpath(work, root))
    with contextlib.chdir(root):
        todo = [
            Extension(prefix + short, [str(source_of(Path(), short))], extra_compile_args=FLAGS)
            for short in modules
        ]
        options = {"build_dir": str(work / "c"), "compiler_directives": DIRECTIVES, "quiet": True}
        try:
            extensions = cythonize(todo, nthreads=os.cpu_count() or 1, **options)
        except Exception:  # one module failed: find it, the others are still compiled
            extensions = []
            for ext in todo:
                try:
                    extensions += cythonize([ext], **options)
                except Exception as exc:
                    warn(f"Cython could not compile {ext.name} ({exc}): it stays pure Python")
        built = _compile_c(extensions, work, warn)
    return {
        short: (root / built[ext.name], digests[short])
        for ext in extensions
        if ext.name in built and (short := ext.name.removeprefix(prefix))
    }


def _compile_c(extensions: list[Any], work: Path, warn: Callable[[str], None]) -> dict[str, Path]:
    """Build the C of ``extensions`` (in parallel, then one by one if that failed)."""
    from setuptools import Distribution

    def run(exts: list[Any], jobs: int) -> None:
        dist = Distribution({"name": "mjaudit-compiled", "ext_modules": exts})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")
        cmd.build_temp = str(work / "tmp")
        cmd.parallel = jobs
        cmd.ensure_finalized()
        cmd.run()

    def path_of(cmd_ext: Any) -> Path:
        dist = Distribution({"name": "mjaudit-compiled", "ext_modules": [cmd_ext]})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")
        cmd.ensure_finalized()
        return Path(cmd.get_ext_fullpath(cmd_ext.name))

    if not extensions:
        return {}
    try:
        run(extensions, os.cpu_count() or 1)
        ok = extensions
    except Exception:
        ok = []
        for ext in extensions:
            try:
                run([ext], 1)
                ok.append(ext)
            except Exception as exc:  # no compiler, or C that does not compile
                warn(f"the C compiler could not build {ext.name} ({exc}): it stays pure Python")
    paths = {ext.name: path_of(ext) for ext in ok}
    return {name: path for name, path in paths.items() if path.is_file()}


def install_in_place(root: Path, warn: Callable[[str], None] = print) -> list[str]:
    """Build into ``root/build/compiled`` and put each ``.so`` beside its ``.py``."""
    _, modules, manifest = _compiled_list(root)
    built = build(root, root / "build" / "compiled", warn)
    for short in modules:  # an old .so of a module that no longer builds must not stay
        if short not in built:
            for old in source_of(root, short).parent.glob(source_of(root, short).stem + ".*.so"):
                old.unlink()
    for short, (so, _) in built.items():
        target = source_of(root, short).with_name(so.name)
        tmp = target.with_name(target.name + ".tmp")
        shutil.copy2(so, tmp)
        os.replace(tmp, target)  # never overwrite a mapped .so in place
    _write_manifest(root / "mjaudit" / manifest, built)
    return sorted(built)


def _write_manifest(path: Path, built: dict[str, tuple[Path, str]]) -> None:
    """``compiled-sources.json``: each compiled module's source SHA-256 (see the module doc)."""
    recorded = {short: digest for short, (_, digest) in built.items()}
    path.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")


class CompiledCoreHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """hatchling's build hook for the wheel target (standard and editable)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        warn = self.app.display_warning
        start = time.monotonic()
        if version == "editable":
            names = install_in_place(root, warn)
        else:
            prefix, _, manifest = _compiled_list(root)
            work = root / "build" / "compiled"  # reused: a wheel after `make env` compiles nothing
            built = build(root, work, warn)
            for short, (so, _) in built.items():
                inside = (prefix + short).replace(".", "/")
                build_data["force_include"][str(so)] = f"{inside.rpartition('/')[0]}/{so.name}"
            record = work / manifest
            _write_manifest(record, built)
            build_data["force_include"][str(record)] = f"mjaudit/{manifest}"
            if built:
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
            names = sorted(built)
        self.app.display_info(
            f"compiled {len(names)} engine modules in {time.monotonic() - start:.0f} s"
        )


if __name__ == "__main__":

    def _warn(message: str) -> None:
        print(f"warning: {message}", file=sys.stderr)

    t0 = time.monotonic()
    done = install_in_place(ROOT, _warn)
    print(f"compiled {len(done)} modules in place in {time.monotonic() - t0:.0f} s")
