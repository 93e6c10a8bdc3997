"""The finding codes a ruleset family's engine can emit, read from its source.

The engines write their codes as string literals at the point of the check
(``self.viol(i, seat, "DOUBLE_DRAW", ...)``); there is no table of them to import. So the
docs tests derive the set from the source with :mod:`ast`: every call that records a
finding (``hard``/``viol``/``audit``/``info``, ``Finding(...)``, and any function that
passes its own ``code`` parameter on to one of those) is followed back to the string
constants its code argument can hold. A code argument this module cannot follow back to
constants is reported as unresolved, and the docs test fails on it: a new way of naming a
code must be taught here rather than silently missed.

The shared modules a family imports functions or classes from (``replay.rotation``,
``replay.recorded``, the mahjong hand state...) count as part of the family: their codes are
emitted in its hands. A shared base class may record a code its subclass names as a class
attribute (``self.AFTER_END``, ``AFTER_END = "EVENT_AFTER_END"``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]

# The HandFindings methods and the class each records (replay/engine/findings.py).
METHOD_CLASS = {
    "hard": "CORRUPT_LOG",
    "viol": "PLAYER_VIOLATION",
    "audit": "SCORE_MISMATCH",
    "info": "INFO",
}
_FAMILY_FOLDERS = ("hk", "vn160", "american", "chan", "sim")
_CODE = re.compile(r"[A-Z][A-Z0-9_]+")


class Emitted(NamedTuple):
    """One code a call site can record, with its class and where."""

    code: str
    cls: str
    where: str


@dataclass(frozen=True)
class _Emitter:
    """A function that records a finding of ``cls`` whose code is its parameter ``index``
    (counted as the caller writes it: ``self`` is not counted for a method)."""

    cls: str
    index: int
    keyword: str


@dataclass
class _Source:
    path: Path
    tree: ast.Module
    only: frozenset[str] | None  # None: the whole module; else these top-level functions

    def tops(self) -> list[ast.stmt]:
        """The top-level statements that count: all, or the functions and classes imported."""
        return [
            top
            for top in self.tree.body
            if self.only is None
            or (isinstance(top, (ast.FunctionDef, ast.ClassDef)) and top.name in self.only)
        ]

    def functions(self) -> Iterator[ast.FunctionDef]:
        """Every function (methods and nested ones included) of the part that counts."""
        for top in self.tops():
            for node in ast.walk(top):
                if isinstance(node, ast.FunctionDef):
                    yield node

    def where(self, node: ast.AST) -> str:
        return f"{self.path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def _family_sources(family: str) -> list[_Source]:
    """The family folder's modules, and the functions it imports from shared modules."""
    folder = ROOT / "replay" / "rulesets" / family
    if not folder.is_dir():
        folder = ROOT / "replay" / family  # sim
    sources = [_Source(p, ast.parse(p.read_text()), None) for p in sorted(folder.glob("*.py"))]
    shared: dict[Path, set[str]] = {}
    for src in sources:
        for node in ast.walk(src.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                parts = node.module.removeprefix("mjaudit.parts.").split(".")
                family_module = parts[:2] == ["replay", "rulesets"] and parts[2:3] != ["mahjong"]
                path = ROOT.joinpath(*parts).with_suffix(".py")
                shared_module = parts[0] == "replay" and not family_module and len(parts) > 1
                if shared_module and parts[1] not in _FAMILY_FOLDERS and path.is_file():
                    shared.setdefault(path, set()).update(a.name for a in node.names)
    for path, names in sorted(shared.items()):
        sources.append(_Source(path, ast.parse(path.read_text()), frozenset(names)))
    return sources


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _module_constants(tree: ast.Module) -> dict[str, str]:
    """``NAME = "CONSTANT"`` at the top of a module."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            value = node.value.value
            if isinstance(value, str):
                out.update({t.id: value for t in node.targets if isinstance(t, ast.Name)})
    return out


def _imported_modules(sources: list[_Source]) -> list[ast.Module]:
    """The project modules (``schemas.*``, ``replay.*``) the sources import from."""
    paths: set[Path] = set()
    for src in sources:
        for node in ast.walk(src.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                module = node.module.removeprefix("mjaudit.parts.")
                path = ROOT / (module.replace(".", "/") + ".py")
                if module.split(".")[0] in ("schemas", "replay") and path.exists():
                    paths.add(path)
    return [ast.parse(p.read_text()) for p in sorted(paths)]


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    if isinstance(call.func, ast.Name):
        return call.func.id
    return None


def _argument(call: ast.Call, emitter: _Emitter) -> ast.expr | None:
    if len(call.args) > emitter.index:
        return call.args[emitter.index]
    return next((k.value for k in call.keywords if k.arg == emitter.keyword), None)


class _Resolver:
    """Follows a code argument back to the string constants it can hold."""

    def __init__(self, sources: list[_Source]) -> None:
        self.sources = sources
        self.functions: dict[str, list[ast.FunctionDef]] = {}
        for src in sources:
            for fn in src.functions():
                self.functions.setdefault(fn.name, []).append(fn)
        self.imported = _imported_modules(sources)

    def constants(self, node: ast.expr, fn: ast.FunctionDef) -> tuple[set[str], list[str]]:
        """(constants, what could not be followed) for expression ``node`` inside ``fn``."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}, []
        if isinstance(node, ast.IfExp):
            a, ua = self.constants(node.body, fn)
            b, ub = self.constants(node.orelse, fn)
            return a | b, ua + ub
        if isinstance(node, ast.Attribute):  # e.g. rules.wind_code: a keyword given somewhere
            return self._keyword_constants(node.attr)
        if isinstance(node, ast.Name):
            return self._name_constants(node.id, fn)
        return set(), [ast.unparse(node)]

    def _keyword_constants(self, name: str) -> tuple[set[str], list[str]]:
        """``x.name``: the constants given as ``name=`` to a constructor in the family
        (``Rotation(wind_code=...)``), or as that parameter of an exception class of an
        imported module (``SheetError(code, ...)``: its raises there)."""
        found: set[str] = set()
        given_none = False
        for src in self.sources:
            for fn in src.functions():
                for call in ast.walk(fn):
                    if isinstance(call, ast.Call):
                        for k in call.keywords:
                            if k.arg == name:
                                c, _ = self.constants(k.value, fn)
                                found |= c
                                given_none |= _is_none(k.value)
        found |= self._module_keyword_constants(name)
        found |= self._constructor_constants(name)
        found |= self._class_constants(name)
        if found or given_none or self._defaults_to_none(name):
            return found, []
        return found, [f"attribute {name} set nowhere"]

    def _module_keyword_constants(self, name: str) -> set[str]:
        """``name="CONSTANT"`` given to a call outside any function: a ruleset's rules value
        built at import (``HandRules(..., option_error="RULESET_UNKNOWN")``)."""
        found: set[str] = set()
        for src in self.sources:
            for top in src.tops():
                if isinstance(top, (ast.FunctionDef, ast.ClassDef)):
                    continue
                for call in (n for n in ast.walk(top) if isinstance(n, ast.Call)):
                    for k in call.keywords:
                        if (
                            k.arg == name
                            and isinstance(k.value, ast.Constant)
                            and isinstance(k.value.value, str)
                        ):
                            found.add(k.value.value)
        return found

    def _class_constants(self, name: str) -> set[str]:
        """``self.name``: a class attribute ``name = "CONSTANT"`` of a class in the family
        (a shared base class reads the code its ruleset's subclass names)."""
        found: set[str] = set()
        for src in self.sources:
            for top in src.tops():
                for cls in (n for n in ast.walk(top) if isinstance(n, ast.ClassDef)):
                    for stmt in cls.body:
                        if (
                            isinstance(stmt, ast.Assign)
                            and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
                            and isinstance(stmt.value, ast.Constant)
                            and isinstance(stmt.value.value, str)
                        ):
                            found.add(stmt.value.value)
        return found

    def _defaults_to_none(self, name: str) -> bool:
        """A dataclass field ``name: ... = None`` that no call sets: it holds no code."""
        for src in self.sources:
            for node in ast.walk(src.tree):
                if (
                    isinstance(node, ast.AnnAssign)
                    and isinstance(node.target, ast.Name)
                    and node.target.id == name
                    and node.value is not None
                    and _is_none(node.value)
                ):
                    return True
        return False

    def _constructor_constants(self, name: str) -> set[str]:
        found: set[str] = set()
        for tree in self.imported:
            for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
                init = next(
                    (
                        f
                        for f in cls.body
                        if isinstance(f, ast.FunctionDef) and f.name == "__init__"
                    ),
                    None,
                )
                params = [] if init is None else [a.arg for a in init.args.args][1:]
                if name not in params:
                    continue
                module_constants = _module_constants(tree)
                for call in ast.walk(tree):
                    if isinstance(call, ast.Call) and _called_name(call) == cls.name:
                        arg = _argument(call, _Emitter("", params.index(name), name))
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            found.add(arg.value)
                        elif isinstance(arg, ast.Name) and arg.id in module_constants:
                            found.add(module_constants[arg.id])
        return found

    def _name_constants(self, name: str, fn: ast.FunctionDef) -> tuple[set[str], list[str]]:
        found: set[str] = set()
        unresolved: list[str] = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets
            ):
                c, u = self.constants(node.value, fn)
                found |= c
                unresolved += u
            elif isinstance(node, ast.For):
                c, u = self._loop_constants(node, name)
                found |= c
                unresolved += u
        if not found and not unresolved:
            unresolved.append(name)
        return found, unresolved

    def _loop_constants(self, loop: ast.For, name: str) -> tuple[set[str], list[str]]:
        """``for code, msg in f(...)``: the first items of the tuples ``f`` collects."""
        target = loop.target
        if not (
            isinstance(target, ast.Tuple)
            and target.elts
            and isinstance(target.elts[0], ast.Name)
            and target.elts[0].id == name
        ):
            return set(), []
        if not isinstance(loop.iter, ast.Call) or _called_name(loop.iter) not in self.functions:
            return set(), [f"loop over {ast.unparse(loop.iter)}"]
        collectors = self.functions[_called_name(loop.iter)]  # type: ignore[index]
        found: set[str] = set()
        for node in (n for collector in collectors for n in ast.walk(collector)):
            value = None
            if isinstance(node, ast.Call) and _called_name(node) == "append" and node.args:
                value = node.args[0]
            elif isinstance(node, ast.Yield):
                value = node.value
            if isinstance(value, ast.Tuple) and value.elts:
                first = value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
        return found, [] if found else [f"nothing collected by {ast.unparse(loop.iter)}"]


def _emitters(sources: list[_Source]) -> dict[str, _Emitter]:
    """The recording methods, and every function that forwards its code parameter to one."""
    emitters = {name: _Emitter(cls, 2, "code") for name, cls in METHOD_CLASS.items()}
    changed = True
    while changed:
        changed = False
        for src in sources:
            for fn in src.functions():
                if fn.name in emitters:
                    continue
                params = [a.arg for a in fn.args.args]
                offset = 1 if params and params[0] == "self" else 0
                for call in ast.walk(fn):
                    if not isinstance(call, ast.Call):
                        continue
                    emitter = emitters.get(_called_name(call) or "")
                    arg = None if emitter is None else _argument(call, emitter)
                    if isinstance(arg, ast.Name) and arg.id in params:
                        assert emitter is not None
                        index = params.index(arg.id) - offset
                        emitters[fn.name] = _Emitter(emitter.cls, index, arg.id)
                        changed = True
                        break
    return emitters


def family_codes(family: str) -> tuple[list[Emitted], list[str]]:
    """Every (code, class) the family's engine can record, and the call sites whose code
    could not be followed back to constants (which should be none)."""
    sources = _family_sources(family)
    resolver = _Resolver(sources)
    emitters = _emitters(sources)
    emitted: list[Emitted] = []
    unresolved: list[str] = []
    for src in sources:
        for fn in src.functions():
            forwarding = fn.name in emitters
            params = {a.arg for a in fn.args.args}
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call):
                    continue
                name = _called_name(call)
                if name == "Finding" and len(call.args) >= 4:
                    code_arg, cls_arg = call.args[2], call.args[3]
                    cls = cls_arg.attr if isinstance(cls_arg, ast.Attribute) else None
                    if cls is None:
                        unresolved.append(f"{src.where(call)}: class {ast.unparse(cls_arg)}")
                        continue
                elif name in emitters:
                    code_arg = _argument(call, emitters[name])
                    cls = emitters[name].cls
                    if code_arg is None:
                        unresolved.append(f"{src.where(call)}: no code argument")
                        continue
                else:
                    continue
                if forwarding and isinstance(code_arg, ast.Name) and code_arg.id in params:
                    continue  # the wrapper's own forwarding call: its callers are read
                codes, missed = resolver.constants(code_arg, fn)
                emitted += [Emitted(c, cls, src.where(call)) for c in sorted(codes)]
                unresolved += [f"{src.where(call)}: {m}" for m in missed]
    return emitted, unresolved


def family_reasons(family: str) -> set[str]:
    """The reasons a family's engine gives a finding (``FALSE_WIN`` with reason
    ``WIN_BELOW_MIN_FAN``): the constants its win checks write as ``reason = "..."`` (hk)
    or return as ``(None, "...")`` (vn-160: no score, and why); only code-like constants
    (``NOT_A_WIN``), not the sentences such variables also hold elsewhere."""
    found: set[str] = set()
    for src in _family_sources(family):
        for fn in src.functions():
            for node in ast.walk(fn):
                value: ast.expr | None = None
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "reason" for t in node.targets
                ):
                    value = node.value
                elif (
                    isinstance(node, ast.Return)
                    and isinstance(node.value, ast.Tuple)
                    and len(node.value.elts) == 2
                    and _is_none(node.value.elts[0])
                ):
                    value = node.value.elts[1]
                while isinstance(value, ast.IfExp):  # reason = None if ... else "CODE"
                    found |= _code_constant(value.body)
                    value = value.orelse
                found |= _code_constant(value)
    return found


def _code_constant(node: ast.expr | None) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} if _CODE.fullmatch(node.value) else set()
    return set()
