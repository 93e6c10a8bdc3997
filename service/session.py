"""One open hand: its header, the events accepted so far, and what the engine raised at each.

The verdicts are the engine's: after each post the record built so far is replayed by
:func:`replay.engine.replay_hand` (the very function ``mjaudit check`` calls), with an
observer that counts the findings after every event. The findings between two counts were
raised at that event; those after the last count come from the end of the hand (a prefix
is not a finished hand) and wait for ``end``. A CORRUPT_LOG finding (or ENGINE_ERROR)
stops the walk at its event: that event is the hand's last, and the hand takes no more.
:func:`raised` is the reference and the fall-back: a post is normally stepped on the
hand's live state (:mod:`.stepper`), which gives the same at O(1) instead of O(events).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mjaudit.parts.replay.engine.findings import ENGINE_ERROR, Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.registry import rules_ref
from mjaudit.parts.replay.engine.run import replay_hand

CORRUPT = FindingClass.CORRUPT_LOG


@dataclass(frozen=True)
class Raised:
    """The findings raised at events ``first ..``, one tuple per event checked; ``closed``:
    the finding that stopped the hand at the last of them (None: the hand goes on)."""

    first: int
    at: tuple[tuple[Finding, ...], ...]
    closed: Finding | None


def raised(
    record: dict[str, Any],
    previous: HandReport | None,
    first: int,
    watch: Callable[[int, Any], None] | None = None,
) -> Raised:
    """What the engine raises at events ``first ..`` of ``record`` (a hand in progress);
    ``watch`` sees the engine's state after each event, as the replay goes."""
    counts: list[int] = []
    machines: list[Any] = []

    def observe(index: int, hand: Any) -> None:
        counts.append(len(hand.findings))
        if not machines:
            machines.append(hand)
        if watch is not None:
            watch(index, hand)

    report = replay_hand(record, previous=previous, observer=observe)
    n = len(record["events"])
    found = list(report.findings)
    failed = any(f.code == ENGINE_ERROR for f in found)
    stop = len(counts) if (report.corrupt or failed) and len(counts) < n else None
    if failed and machines:  # the report holds the error alone; the state has the rest
        found = [*machines[0].findings[: counts[-1] if counts else 0], *found]
    last = n if stop is None else stop + 1
    at = []
    for i in range(first, last):
        lo = counts[i - 1] if i > 0 else 0  # the deal's findings come with event 0
        hi = counts[i] if i < len(counts) else len(found)
        at.append(tuple(found[lo:hi]))
    closed = None
    if stop is not None:
        serious = (f for f in reversed(found) if f.code == ENGINE_ERROR or f.cls is CORRUPT)
        closed = next(serious)
    return Raised(first, tuple(at), closed)


def finding_json(ruleset: str, players: list[str], f: Finding) -> dict[str, Any]:
    """A finding as the API gives it: the engine's fields, the player and the rules row."""
    return {
        **f.to_json(),
        "player": players[f.seat] if f.seat is not None and 0 <= f.seat < len(players) else None,
        "rules": rules_ref(ruleset, f.code, f.reason),
    }


@dataclass
class Ended:
    """A hand whose ``end`` was accepted: its whole record, the engine's report of it and
    what the archive did with it."""

    record: dict[str, Any]
    report: HandReport
    raised: tuple[Finding, ...]  # the findings only the end of the hand raised
    archive: dict[str, Any] | None = None  # None until the commit is done


@dataclass
class OpenHand:
    """A hand being played: mutable, owned by the service (one writer at a time)."""

    id: str
    table: str
    header: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    at: list[tuple[Finding, ...]] = field(default_factory=list)  # raised at each event
    closed: Finding | None = None
    ended: Ended | None = None

    @property
    def ruleset(self) -> str:
        return self.header["ruleset"]

    @property
    def key(self) -> tuple[str, int]:
        return self.header["game_id"], self.header["hand_no"]

    def record(self, extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The record so far (plus ``extra`` events not accepted yet)."""
        return {**self.header, "events": [*self.events, *(extra or [])]}

    def accept(self, events: list[dict[str, Any]], found: Raised) -> None:
        """Take ``events`` (as many as ``found`` checked) and what was raised at them."""
        assert found.first == len(self.events)
        self.events.extend(events[: len(found.at)])
        self.at.extend(found.at)
        if found.closed is not None:
            self.closed = found.closed

    def findings(self) -> list[Finding]:
        """Every finding so far, in the engine's order (with the end's, once ended)."""
        every = [f for group in self.at for f in group]
        if self.ended is not None:
            every.extend(self.ended.raised)
        return every

    def to_json(self, f: Finding) -> dict[str, Any]:
        return finding_json(self.ruleset, self.header["players"], f)
