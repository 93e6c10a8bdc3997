"""Findings and hand reports: what a replay says about one hand.

A finding names the event (0-based index into ``events``; None for the record as a whole),
the seat, a code from the ruleset's checklist, an optional reason (e.g. ``FALSE_WIN`` with
reason ``WIN_BELOW_MIN_FAN``), its class and a sentence a club referee can read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NoReturn


class FindingClass(StrEnum):
    CORRUPT_LOG = "CORRUPT_LOG"  # the record cannot be true (checklist HARD)
    PLAYER_VIOLATION = "PLAYER_VIOLATION"  # a true record of a player breaking a rule (VIOL)
    SCORE_MISMATCH = "SCORE_MISMATCH"  # the recorded result differs from the rules (AUDIT)
    INFO = "INFO"  # liability events, partial information


# The engine raised inside one hand (a bug, or input no check caught): see
# replay.engine.engine_error. Shared by every ruleset; the code is not in any checklist.
ENGINE_ERROR = "ENGINE_ERROR"

CLASS_LABEL = {  # how a class is tagged in text (check, show)
    FindingClass.CORRUPT_LOG: "CORRUPT",
    FindingClass.PLAYER_VIOLATION: "VIOLATION",
    FindingClass.SCORE_MISMATCH: "MISMATCH",
    FindingClass.INFO: "info",
}

SERIOUS = frozenset(
    {FindingClass.CORRUPT_LOG, FindingClass.PLAYER_VIOLATION, FindingClass.SCORE_MISMATCH}
)


def points(x: float) -> int | float:
    """Points print as integers when they are whole."""
    return int(x) if float(x).is_integer() else x


@dataclass(frozen=True, slots=True)
class Finding:
    event_index: int | None
    seat: int | None
    code: str
    cls: FindingClass
    message: str
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "event_index": self.event_index,
            "seat": self.seat,
            "code": self.code,
            "reason": self.reason,
            "class": self.cls.value,
            "message": self.message,
        }


@dataclass(frozen=True)
class HandReport:
    """The computed outcome of one hand, beside what the source recorded."""

    game_id: str
    hand_no: int
    ruleset: str
    players: tuple[str, ...]
    findings: tuple[Finding, ...]
    winners: tuple[int, ...] = ()
    self_drawn: bool = False
    discarder: int | None = None
    fan: int | None = None
    raw_fan: int | None = None
    patterns: tuple[tuple[str, int], ...] = ()
    liable: int | None = None
    deltas: tuple[float, ...] | None = None  # None when the hand cannot be settled
    ended_by: str = "unfinished"  # win, false_win, exhaustive_draw, abandon, corrupt, unfinished
    dealer: int = 0
    prevailing_wind: str | None = None
    matches_recorded: bool | None = None  # None when nothing was recorded
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def corrupt(self) -> bool:
        return any(f.cls is FindingClass.CORRUPT_LOG for f in self.findings)

    @property
    def serious(self) -> bool:
        return any(f.cls in SERIOUS for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": self.ruleset,
            "winners": list(self.winners),
            "fan": self.fan,
            "raw_fan": self.raw_fan,
            "patterns": [{"id": p, "fan": f} for p, f in self.patterns],
            "liable": self.liable,
            "deltas": None if self.deltas is None else [points(d) for d in self.deltas],
            "findings": [f.to_json() for f in self.findings],
        }


# -- the findings of a hand being replayed -------------------------------------------------
# A hand state (HKHand, VNHand, AmericanHand, ChanHand) records findings through these
# methods only, so a finding means the same in every ruleset: ``hard`` is a CORRUPT_LOG
# finding and ends the replay of the hand there (the state after it cannot be trusted;
# Stop unwinds to the replay loop), ``viol`` a PLAYER_VIOLATION, ``audit`` a
# SCORE_MISMATCH, ``info`` an INFO finding. A ruleset adds the consequences its rules give
# a violation (a dead hand, mất ù) by wrapping ``viol``.


class Stop(Exception):
    """A CORRUPT_LOG finding: the replay of this hand stops (the code is the argument)."""


class HandFindings:
    """The findings of one hand's replay; ``stopped`` once a CORRUPT_LOG was found."""

    record: dict[str, Any]
    findings: list[Finding]
    stopped: bool
    ended_by: str

    def hard(self, index: int | None, seat: int | None, code: str, message: str) -> NoReturn:
        self.findings.append(Finding(index, seat, code, FindingClass.CORRUPT_LOG, message))
        self.stopped = True
        self.ended_by = "corrupt"
        raise Stop(code)

    def viol(
        self,
        index: int | None,
        seat: int | None,
        code: str,
        message: str,
        *,
        reason: str | None = None,
    ) -> None:
        self.findings.append(
            Finding(index, seat, code, FindingClass.PLAYER_VIOLATION, message, reason)
        )

    def audit(self, index: int | None, seat: int | None, code: str, message: str) -> None:
        self.findings.append(Finding(index, seat, code, FindingClass.SCORE_MISMATCH, message))

    def info(self, index: int | None, seat: int | None, code: str, message: str) -> None:
        self.findings.append(Finding(index, seat, code, FindingClass.INFO, message))

    def run(self, events: Sequence[dict[str, Any]]) -> None:
        """``step`` every event (see :mod:`replay.stepping`; a state may override it)."""
        step = self.step  # type: ignore[attr-defined]
        for i, ev in enumerate(events):
            step(i, ev)

    def finish(self, last_index: int) -> None:
        """After the last event; a state whose rules check the end of a hand overrides it."""


def findings_text(findings: Iterable[Finding], at: int | None) -> list[str]:
    """The "findings so far" block of a table view (every ruleset's ``show``)."""
    shown = [f for f in findings if at is None or f.event_index is None or f.event_index <= at]
    if not shown:
        return []
    lines = ["  findings so far:"]
    for f in shown:
        where = f"event {f.event_index}" if f.event_index is not None else "record"
        lines.append(f"    [{CLASS_LABEL[f.cls]}] {where}: {f.code}: {f.message}")
    return lines
