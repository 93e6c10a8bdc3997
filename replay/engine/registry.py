"""Every ruleset the engine replays: one line per ruleset folder (see :mod:`replay.ruleset`).

The order is the order of the ids in ``schemas.rulesets`` (a test checks both list the
same ids), which is the order users see them in. Each folder's ``checklist.json`` says
where its finding codes are defined in the rules (:func:`rules_ref`).

A folder is imported when one of its rulesets is first asked for, not when this module
is: a command that replays Hong Kong hands does not load the american matcher (and numpy)
or vn-160's tables. Importing all five folders was 0.15 s of every command's start-up
(issue 24). Iterating over :data:`RULESETS` imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, MutableMapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from mjaudit.parts.replay.engine.checklist import Checklist, checklists
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR
from mjaudit.parts.replay.engine.ruleset import Ruleset
from mjaudit.parts.schemas.rulesets import RULESET_IDS

# Each folder and the ids its ruleset module declares (a test checks the two agree).
FOLDERS: dict[str, tuple[str, ...]] = {
    "hk": ("hk-classic", "hk-mahjongo", "hk-mahjongo-2p", "hk-sheet"),
    "vn160": ("vn-160",),
    "american": ("american",),
    "chan": ("chan",),
    "riichi": ("riichi",),
}
_FOLDER_OF = {rid: folder for folder, ids in FOLDERS.items() for rid in ids}
_PACKAGE = "mjaudit.parts.replay.rulesets"
_ROOT = Path(__file__).resolve().parent.parent / "rulesets"

V = TypeVar("V")


@cache
def folder_module(folder: str) -> ModuleType:
    """A folder's ``ruleset`` module (imported on first use)."""
    return importlib.import_module(f"{_PACKAGE}.{folder}.ruleset")


class _Lazy(MutableMapping[str, V]):
    """Ruleset id -> a value taken from its folder, the folder imported on first lookup.

    Ids are those of ``schemas.rulesets`` that a folder declares, in that order. Like the
    dicts these tables were, it can be changed (tests put stand-in engines in it); a
    folder is loaded before one of its entries is set or deleted, so that loading it
    later does not undo the change."""

    def __init__(self, load: Callable[[str], dict[str, V]]) -> None:
        self._load = load  # folder -> {id: value} for that folder's ids
        self._got: dict[str, V] = {}
        self._done: set[str] = set()

    def _ensure(self, rid: str) -> None:
        folder = _FOLDER_OF.get(rid)
        if folder is not None and folder not in self._done:
            loaded = self._load(folder)  # an import that fails is tried again next time
            self._done.add(folder)
            self._got.update(loaded)

    def __getitem__(self, rid: str) -> V:
        got = self._got.get(rid)
        if got is None:
            self._ensure(rid)
            got = self._got[rid]
        return got

    def __setitem__(self, rid: str, value: V) -> None:
        self._ensure(rid)
        self._got[rid] = value

    def __delitem__(self, rid: str) -> None:
        self._ensure(rid)
        del self._got[rid]

    def __iter__(self) -> Iterator[str]:
        for rid in RULESET_IDS:
            self._ensure(rid)
        known = [rid for rid in RULESET_IDS if rid in self._got]
        return iter(known + [rid for rid in self._got if rid not in known])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, rid: object) -> bool:
        if isinstance(rid, str):
            self._ensure(rid)
        return rid in self._got

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"


def _declared(folder: str) -> dict[str, Ruleset]:
    """The rulesets a folder declares, of the ids :data:`FOLDERS` lists for it."""
    return {r.id: r for r in folder_module(folder).RULESETS if r.id in FOLDERS[folder]}


RULESETS: MutableMapping[str, Ruleset] = _Lazy(_declared)
"""Ruleset id -> :class:`Ruleset`, in the order of ``schemas.rulesets``."""

# ruleset id -> (its checklist section, code -> where the rules define it); read from the
# folder's checklist.json without importing its engine
CHECKLISTS: MutableMapping[str, Checklist] = _Lazy(lambda folder: checklists(_ROOT / folder))


def derived(value: Callable[[Ruleset], V | None]) -> MutableMapping[str, V]:
    """Ruleset id -> ``value(ruleset)``, lazily like :data:`RULESETS`; the ids whose
    value is None are not in it."""

    def load(folder: str) -> dict[str, V]:
        return {rid: v for rid, r in _declared(folder).items() if (v := value(r)) is not None}

    return _Lazy(load)


def get(ruleset: str) -> Ruleset | None:
    """The ruleset of this id, None for an id no folder declares."""
    return RULESETS.get(ruleset)


def rules_ref(ruleset: str, code: str, reason: str | None = None) -> str | None:
    """Where the rules define a finding: the reason's checklist rows when it has its own
    (FALSE_WIN, WIN_BELOW_MIN_FAN: ``hk-classic §8 #38``), else the code's, else the
    ruleset's checklist section; None for a ruleset with no checklist (hk-sheet) and for
    ENGINE_ERROR, which no rule defines."""
    known = CHECKLISTS.get(ruleset)
    if known is None or code == ENGINE_ERROR:
        return None
    section, refs = known
    return refs.get(reason or "") or refs.get(code) or section
