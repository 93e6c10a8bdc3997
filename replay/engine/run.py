"""The replay's front door: replay hands and games, and step through one, under the
ruleset each record names (:mod:`replay.registry`).

Records are canonical ``mjlog/1`` dicts (``schemas.records.parse_record`` or
``schemas.rows.records_from_tables``). One hand never stops the others: an exception in
an engine is that hand's ENGINE_ERROR finding (:func:`engine_error`).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any, TypeVar

from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import ENGINE_ERROR, Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.ruleset import PositionFn, ReplayFn, ViewFn
from mjaudit.parts.replay.engine.view import TableView

# Derived from the registry (one entry per ruleset folder); nothing here names a ruleset.
# Lazy like it: a folder is imported when a record of one of its rulesets comes.
REGISTRY: MutableMapping[str, ReplayFn] = registry.derived(lambda r: r.replay)
POSITIONS: MutableMapping[str, PositionFn] = registry.derived(lambda r: r.position)
VIEWS: MutableMapping[str, ViewFn] = registry.derived(lambda r: r.view)


def supported(ruleset: str) -> bool:
    return ruleset in REGISTRY


def position_text(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """The table after event ``at`` of one hand, in its ruleset's terms (``mjaudit show``).

    Raises KeyError for a ruleset whose engine has no step-through view.
    """
    return POSITIONS[record["ruleset"]](record, at, overrides)


def table_view(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> TableView:
    """The table after event ``at`` (None: the deal) of one hand as a value, from its
    ruleset's own hand state (the dashboard's replayer and ``mjaudit report`` draw it).

    Raises KeyError for a ruleset whose engine has no step-through view.
    """
    return VIEWS[record["ruleset"]](record, at, overrides)


def _single_finding_report(record: dict[str, Any], finding: Finding, ended_by: str) -> HandReport:
    return HandReport(
        game_id=record["game_id"],
        hand_no=record["hand_no"],
        ruleset=record["ruleset"],
        players=tuple(record["players"]),
        findings=(finding,),
        ended_by=ended_by,
        dealer=record["dealer"],
        prevailing_wind=record.get("prevailing_wind"),
    )


def engine_error(record: dict[str, Any], exc: BaseException) -> Finding:
    """The ENGINE_ERROR finding for a hand whose replay raised ``exc``.

    Whatever a record holds, one hand must never stop the replay of the others: ingest
    validates what it can, and anything the engine still trips over becomes this finding
    on that hand alone. It is of class CORRUPT_LOG because nothing about the hand can be
    trusted (it was not checked); the message says so, names the exception and where in
    the engine it was raised, so a bug report can start from it.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = f" in {_project_path(last.filename)} line {last.lineno}"
    return Finding(
        None,
        None,
        ENGINE_ERROR,
        FindingClass.CORRUPT_LOG,
        f"the {record.get('ruleset')} engine failed on this hand ({type(exc).__name__}: "
        f"{exc}{where}): the hand was not checked",
    )


def _project_path(filename: str) -> str:
    """``replay/rulesets/hk/hand.py`` rather than an absolute path of this machine."""
    parts = filename.replace("\\", "/").split("/")
    for top in ("replay", "schemas", "ingest", "dashboards", "mjaudit"):
        if top in parts:
            return "/".join(parts[len(parts) - 1 - parts[::-1].index(top) :])
    return parts[-1]


def replay_hand(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: Callable[..., None] | None = None,
) -> HandReport:
    """Replay one hand. A ruleset without an engine yet gives a single INFO finding; an
    exception inside the engine gives a single ENGINE_ERROR finding (:func:`engine_error`)."""
    try:
        fn = REGISTRY.get(record["ruleset"])  # imports the ruleset's folder the first time
    except Exception as exc:  # a folder that does not import fails its hands, not the run
        return _single_finding_report(record, engine_error(record, exc), "corrupt")
    if fn is None:
        finding = Finding(
            None,
            None,
            "RULESET_NOT_SUPPORTED",
            FindingClass.INFO,
            f"the {record['ruleset']} rules engine is not built yet: the hand was not replayed",
        )
        return _single_finding_report(record, finding, "unfinished")
    try:
        return fn(record, overrides, previous, observer)
    except Exception as exc:  # one hand must never stop the others
        return _single_finding_report(record, engine_error(record, exc), "corrupt")


def replay_games(
    records: Iterable[dict[str, Any]], overrides: Mapping[str, object] | None = None
) -> Iterator[HandReport]:
    """Replay hands game by game in hand order, so each hand sees the one before it.

    Output order is (game_id, hand_no): independent of the order the records came in.
    """
    yield from replay_in_order(in_hand_order(records, _key), overrides)


def _key(record: dict[str, Any]) -> tuple[str, int]:
    return record["game_id"], record["hand_no"]


T = TypeVar("T")


def in_hand_order(items: Iterable[T], key: Callable[[T], tuple[str, int]]) -> list[T]:
    """``items`` in (game_id, hand_no) order, ``key`` giving each one's; of two with the
    same key the later one is kept."""
    games: dict[str, dict[int, T]] = {}
    for item in items:
        game_id, hand_no = key(item)
        games.setdefault(game_id, {})[hand_no] = item
    return [item for g in sorted(games) for _, item in sorted(games[g].items())]


def replay_in_order(
    records: Iterable[dict[str, Any]], overrides: Mapping[str, object] | None = None
) -> Iterator[HandReport]:
    """:func:`replay_games` of records already in (game_id, hand_no) order, one key each
    (:func:`in_hand_order`): a record is not needed before its turn, nor kept after it."""
    previous: HandReport | None = None
    for rec in records:
        prior = (
            previous
            if previous is not None
            and previous.hand_no == rec["hand_no"] - 1
            and previous.game_id == rec["game_id"]
            else None
        )
        previous = replay_hand(rec, overrides, prior)
        yield previous
