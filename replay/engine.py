"""The one replay loop's front door: pick the ruleset module, replay hands and games.

A ruleset module registers a function ``(record, overrides, previous, observer) ->
HandReport``; the Hong Kong presets share one (:mod:`replay.hk.replayer`). Records are
canonical ``mjlog/1`` dicts (``schemas.records.parse_record`` or
``schemas.rows.records_from_tables``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from replay import render
from replay.american.position import position_text as american_position
from replay.american.replayer import replay_american
from replay.chan.render import chan_position
from replay.chan.replayer import replay_chan
from replay.findings import Finding, FindingClass, HandReport
from replay.hk.replayer import replay_hk
from replay.hk.replayer import replay_to as hk_replay_to
from replay.sheet import replay_sheet
from replay.vn160 import render as vn160_render
from replay.vn160.replayer import replay_to as vn160_replay_to
from replay.vn160.replayer import replay_vn160

ReplayFn = Callable[..., HandReport]
# The table after event ``at`` (None: after the deal) as text, for ``mjaudit show``.
PositionFn = Callable[[dict[str, Any], int | None, Mapping[str, object] | None], str]

REGISTRY: dict[str, ReplayFn] = {
    "hk-classic": replay_hk,
    "hk-mahjongo": replay_hk,
    "hk-mahjongo-2p": replay_hk,
    "hk-sheet": replay_sheet,  # results-only hands from club score sheets
    "chan": replay_chan,
    "american": replay_american,
    "vn-160": replay_vn160,
}


def _hk_position(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    return render.position_text(hk_replay_to(record, at, overrides), at)


def _vn160_position(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    return vn160_render.position_text(vn160_replay_to(record, at, overrides), at)


POSITIONS: dict[str, PositionFn] = {
    "hk-classic": _hk_position,
    "hk-mahjongo": _hk_position,
    "hk-mahjongo-2p": _hk_position,
    "american": american_position,
    "chan": chan_position,
    "vn-160": _vn160_position,
}


def supported(ruleset: str) -> bool:
    return ruleset in REGISTRY


def position_text(
    record: dict[str, Any], at: int | None, overrides: Mapping[str, object] | None = None
) -> str:
    """The table after event ``at`` of one hand, in its ruleset's terms (``mjaudit show``).

    Raises KeyError for a ruleset whose engine has no step-through view.
    """
    return POSITIONS[record["ruleset"]](record, at, overrides)


def replay_hand(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: Callable[..., None] | None = None,
) -> HandReport:
    """Replay one hand. A ruleset without an engine yet gives a single INFO finding."""
    fn = REGISTRY.get(record["ruleset"])
    if fn is None:
        finding = Finding(
            None,
            None,
            "RULESET_NOT_SUPPORTED",
            FindingClass.INFO,
            f"the {record['ruleset']} rules engine is not built yet: the hand was not replayed",
        )
        return HandReport(
            game_id=record["game_id"],
            hand_no=record["hand_no"],
            ruleset=record["ruleset"],
            players=tuple(record["players"]),
            findings=(finding,),
            dealer=record["dealer"],
            prevailing_wind=record.get("prevailing_wind"),
        )
    return fn(record, overrides, previous, observer)


def replay_games(
    records: Iterable[dict[str, Any]], overrides: Mapping[str, object] | None = None
) -> Iterator[HandReport]:
    """Replay hands game by game in hand order, so each hand sees the one before it.

    Output order is (game_id, hand_no): independent of the order the records came in.
    """
    games: dict[str, dict[int, dict[str, Any]]] = {}
    for rec in records:
        games.setdefault(rec["game_id"], {})[rec["hand_no"]] = rec
    for game_id in sorted(games):
        hands = games[game_id]
        previous: HandReport | None = None
        for hand_no in sorted(hands):
            rec = hands[hand_no]
            prior = previous if previous is not None and previous.hand_no == hand_no - 1 else None
            report = replay_hand(rec, overrides, prior)
            previous = report
            yield report
