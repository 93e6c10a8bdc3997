"""The view model of a mahjong table (Hong Kong, vn-160): the fields both hand states
keep under the same names (the wall counts, dealer, turn, findings), so each family's
``render.py`` only reads its seats."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from mjaudit.parts.replay.engine.findings import Finding
from mjaudit.parts.replay.engine.view import (
    SeatState,
    TableSummary,
    TableView,
    build_summary,
    build_view,
)


class MahjongTable(Protocol):
    record: dict[str, Any]
    n: int
    findings: Sequence[Finding]
    undrawn: int
    dealer: int
    turn: int

    @property
    def live_count(self) -> int: ...


H = TypeVar("H", bound=MahjongTable)


def mahjong_view(
    hand: H, at: int | None, seat: Callable[[H, int], SeatState], prevailing: str
) -> TableView:
    """The :class:`TableView` of a stepped mahjong hand, ``seat`` reading one seat."""
    return build_view(
        hand.record,
        at,
        [seat(hand, s) for s in range(hand.n)],
        hand.findings,
        stock=hand.undrawn,
        live=hand.live_count,
        prevailing=prevailing,
        dealer=hand.dealer,
        turn=hand.turn,
    )


def mahjong_summary(
    hand: H, at: int | None, status: Callable[[H, int], tuple[str, ...]]
) -> TableSummary:
    """The :class:`TableSummary` of a stepped mahjong hand, ``status`` reading a seat's
    (the one its ``seat`` gives its view)."""
    return build_summary(
        hand.record,
        at,
        [status(hand, s) for s in range(hand.n)],
        stock=hand.undrawn,
        live=hand.live_count,
        turn=hand.turn,
    )
