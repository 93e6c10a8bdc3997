"""Small riichi hands written out tile by tile, for the per-code tests.

The deal (dealer seat 0, East round, dora indicator N): seat 1 holds
1m2m3m 4p5p6p 7s8s9s 2p3p E and a thirteenth tile; after drawing E and discarding that
tile it waits on 1p and 4p. Seat 2 holds the 4p and 1p it may discard, seat 3 a 1p too.
Seat 0's hand is pairs and honours that do not meet anything the tests play.
"""

from __future__ import annotations

from typing import Any

from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_riichi

DEAL = [
    ["1s", "1s", "9m", "9m", "9p", "9p", "C", "C", "F", "F", "P", "W", "S"],
    ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2p", "3p", "E", "N"],
    ["4p", "4p", "1p", "7m", "8m", "6s", "6s", "2s", "3s", "5s", "S", "N", "N"],
    ["2m", "3m", "4m", "5s", "6m", "7m", "8p", "8p", "3s", "4s", "1p", "C", "P"],
]


def record(
    events: list[dict[str, Any]], *, hands: list[list[str]] | None = None, **extra: Any
) -> dict[str, Any]:
    rec: dict[str, Any] = {
        "format": "mjlog/1",
        "game_id": "riichi-test",
        "hand_no": 1,
        "ruleset": "riichi",
        "players": ["An", "Bo", "Cy", "Di"],
        "dealer": 0,
        "prevailing_wind": "E",
        "round": 0,
        "honba": 0,
        "riichi_sticks": 0,
        "scores": [25000] * 4,
        "dora": ["N"],
        "start_hands": hands or [list(h) for h in DEAL],
        "events": events,
    }
    rec.update(extra)
    return rec


def draw(seat: int, tile: str) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "tile": tile}


def discard(seat: int, tile: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "tile": tile}


def riichi(seat: int) -> dict[str, Any]:
    return {"type": "riichi", "seat": seat}


def ron(seat: int, tile: str, frm: int) -> dict[str, Any]:
    return {"type": "win", "seat": seat, "tile": tile, "from": frm}


def opening(declare: bool = True, keep: str = "E", drop: str = "N") -> list[dict[str, Any]]:
    """Seat 0 draws and throws 9s; seat 1 draws E and (with riichi) discards ``drop``."""
    out = [draw(0, "9s"), discard(0, "9s"), draw(1, keep)]
    if declare:
        out.append(riichi(1))
    out.append(discard(1, drop))
    return out


def codes(rep: HandReport) -> set[str]:
    return {f.code for f in rep.findings}


def replay(events: list[dict[str, Any]], **kw: Any) -> HandReport:
    return replay_riichi(record(events, **kw))


def settled_ron() -> dict[str, Any]:
    """Seat 1's double riichi, ippatsu ron on seat 2's 4p, recorded as settled."""
    events = [*opening(), draw(2, "5m"), discard(2, "4p"), ron(1, "4p", 2)]
    result = {
        "winners": [1],
        "fan": 5,
        "patterns": ["daburu_riichi", "dora", "ippatsu"],
        "deltas": [0, 8000, -8000, 0],
    }
    return record(events, result=result)
