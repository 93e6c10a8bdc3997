"""The one replay loop: a hand record in, its :class:`HandReport` out, for every ruleset.

Every ruleset's replay takes the same steps around :func:`~replay.engine.stepping.walk`:
the report's identity, the options (a bad one is that hand's CORRUPT_LOG finding, not an
exception), the hand state, the walk with the rotation check against the previous hand
and the observer, the recorded result compared when the walk was not stopped, the report.
What differs is what a ruleset's folder gives as one :class:`HandRules` value; its
``replay_<name>`` and ``replay_to`` are that value's :meth:`~HandRules.replay` and
:meth:`~HandRules.replay_to`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport, Stop
from mjaudit.parts.replay.engine.options import OptionError
from mjaudit.parts.replay.engine.stepping import HandMachine, report_base, step_to, walk


class ReplayedHand(HandMachine, Protocol):
    """What the loop reads of a hand state besides stepping it (``HandFindings`` has it)."""

    record: dict[str, Any]
    findings: list[Finding]
    stopped: bool


H = TypeVar("H", bound=ReplayedHand)
Opts = TypeVar("Opts")

Overrides = Mapping[str, object] | None
Observer = Callable[[int, Any], None]


@dataclass(frozen=True)
class HandRules(Generic[H, Opts]):
    """What one ruleset's folder gives the loop (module-level functions, so it pickles)."""

    # (record, the record's options with the overrides applied) -> the options value;
    # raises OptionError for a bad one
    options_for: Callable[[dict[str, Any], dict[str, object]], Opts]
    # (record, options, the previous hand's report, the overrides) -> a fresh hand state
    hand: Callable[[dict[str, Any], Opts, HandReport | None, Overrides], H]
    # (hand walked, report_base(record), previous) -> the HandReport's other fields
    report: Callable[[H, dict[str, Any], HandReport | None], dict[str, Any]]
    # (hand, the record's result, the report's fields) -> does the result match
    # (the SCORE_MISMATCH findings are recorded on the hand); only for a hand not stopped
    compare: Callable[[H, dict[str, Any], dict[str, Any]], bool]
    # the CORRUPT_LOG code of a bad option (given by keyword: the docs test reads it there)
    option_error: str
    # (hand, previous) -> None: the checks against the previous hand, before the deal
    # (check_rotation with the ruleset's Rotation rules); None: the ruleset has none
    rotation: Callable[[H, HandReport | None], None] | None = None
    # a record the ruleset does not replay at all (chắn bí ngũ): its one finding, checked
    # before the options; the report ends "unfinished"
    admit: Callable[[dict[str, Any]], Finding | None] | None = None
    # a hand state that cannot be walked (american without its card): its CORRUPT_LOG
    # finding; step-through still steps it
    refuse: Callable[[H], Finding | None] | None = None

    @classmethod
    def of(
        cls,
        options_for: Callable[[dict[str, object]], Opts],
        hand: Callable[[dict[str, Any], Opts], H],
        report: Callable[[H, dict[str, Any], HandReport | None], dict[str, Any]],
        compare: Callable[[H, dict[str, Any], dict[str, Any]], bool],
        *,
        option_error: str,
        rotation: Callable[[H, HandReport | None], None] | None = None,
        admit: Callable[[dict[str, Any]], Finding | None] | None = None,
        refuse: Callable[[H], Finding | None] | None = None,
    ) -> HandRules[H, Opts]:
        """The rules of a ruleset whose options are its ``options_for(merged)`` and whose
        hand state is its class called as ``hand(record, opts)``: what most folders have,
        so their replayer declares no adapters of its own."""
        return cls(
            FromMerged(options_for),
            FromClass(hand),
            report,
            compare,
            option_error=option_error,
            rotation=rotation,
            admit=admit,
            refuse=refuse,
        )

    def replay(
        self,
        record: dict[str, Any],
        overrides: Overrides = None,
        previous: HandReport | None = None,
        observer: Observer | None = None,
    ) -> HandReport:
        """Replay ``record``: the ruleset's :data:`~replay.engine.ruleset.ReplayFn`.
        ``previous`` is the report of hand ``hand_no - 1`` of the same game (None: not in
        the archive); ``observer`` sees the state after each event."""
        base = report_base(record)
        if self.admit is not None and (out := self.admit(record)) is not None:
            return HandReport(**base, findings=(out,), ended_by="unfinished")
        try:
            opts = self.options_for(record, merged_options(record, overrides))
        except OptionError as exc:
            bad = Finding(None, None, self.option_error, FindingClass.CORRUPT_LOG, str(exc))
            return HandReport(**base, findings=(bad,), ended_by="corrupt")
        hand = self.hand(record, opts, previous, overrides)
        if self.refuse is not None and (why := self.refuse(hand)) is not None:
            return HandReport(**base, findings=(why,), ended_by="corrupt")
        before = None
        if self.rotation is not None:
            rotation = self.rotation
            before = lambda: rotation(hand, previous)  # noqa: E731
        walk(hand, record.get("events", []), before, observer)
        return self._report(hand, record, base, previous)

    def finish(self, hand: H, previous: HandReport | None = None) -> HandReport:
        """The report of a hand state dealt and stepped through every event of its
        ``record`` (the live audit service's state): the end of the walk and the same
        report :meth:`replay` gives for that record, without stepping the events again."""
        record = hand.record
        with suppress(Stop):  # the walk ends there, as :func:`walk` ends it
            hand.finish(len(record.get("events", [])) - 1)
        return self._report(hand, record, report_base(record), previous)

    def _report(
        self, hand: H, record: dict[str, Any], base: dict[str, Any], previous: HandReport | None
    ) -> HandReport:
        """The walked hand's report: its fields, findings and the recorded result compared
        when the walk was not stopped."""
        fields = self.report(hand, base, previous)
        result = record.get("result")
        matches = None if hand.stopped or result is None else self.compare(hand, result, fields)
        return HandReport(**fields, findings=tuple(hand.findings), matches_recorded=matches)

    def replay_to(self, record: dict[str, Any], at: int | None, overrides: Overrides = None) -> H:
        """The hand state after event ``at`` (None: after the deal), for step-through
        (``mjaudit show``, the dashboard); a bad option raises :class:`OptionError`."""
        opts = self.options_for(record, merged_options(record, overrides))
        return step_to(self.hand(record, opts, None, overrides), record.get("events", []), at)


def merged_options(record: dict[str, Any], overrides: Overrides) -> dict[str, object]:
    """The record's ``options`` with ``--option K=V`` (``overrides``) on top."""
    return {**(record.get("options") or {}), **(overrides or {})}


@dataclass(frozen=True)
class FromMerged(Generic[Opts]):
    """:attr:`HandRules.options_for` of a ruleset whose options depend on the merged
    options alone, not on the rest of the record (a value, so the rules still pickle)."""

    options_for: Callable[[dict[str, object]], Opts]

    def __call__(self, record: dict[str, Any], merged: dict[str, object]) -> Opts:
        return self.options_for(merged)


@dataclass(frozen=True)
class FromClass(Generic[H, Opts]):
    """:attr:`HandRules.hand` of a ruleset whose hand state needs only the record and its
    options: the class itself, called as ``hand(record, opts)``."""

    hand: Callable[[dict[str, Any], Opts], H]

    def __call__(
        self, record: dict[str, Any], opts: Opts, previous: HandReport | None, overrides: Overrides
    ) -> H:
        return self.hand(record, opts)
