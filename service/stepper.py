"""The engine's hand state kept live between posts, so a post steps its events only.

Replaying the whole hand at every post (:func:`session.raised`) costs O(events so far) per
post: the last events of a hand cost the most, and a table's whole hand O(n²). A
:class:`Stepper` holds the very state ``check``'s replay builds (the ruleset's
:class:`~replay.engine.loop.HandRules`: its options, its hand state, the rotation check
against the previous hand, the deal) and steps each new event on it as the replay's walk
does (``step`` per event, never ``finish``: a hand in progress is not a finished hand).
What it raises at each event is what the replay of the record so far raises there:

* the state's record is the record so far, its ``events`` growing as posts are taken, so
  a state reads the same events at every step as a replay of the prefix would;
* the deal (``start``) may read the events (the Hong Kong, vn-160 and american states
  check every event's tile codes there, and read the first event): a post is stepped
  only if a fresh state started on the record with its events would raise at the deal
  what the live one raised (:meth:`Stepper.deal_holds`: the state's ``deal_admits`` says
  so per event without dealing again; when it says no, or a state has none, the deal is
  made again); otherwise the post is judged by the whole replay and the live state
  dropped;
* anything unusual (a ruleset not on :class:`HandRules`, a record its ruleset does not
  walk, a bad option, a deal that stops the hand or fails) has no stepper: the whole
  replay judges those posts, as before.

When the hand ends, :meth:`Stepper.finish` settles it from the live state, so ``end``
does not replay the hand again.

A stepper is dropped when its hand closes, and when a post it stepped is not taken (the
journal could not be written): the next post builds a new one from the accepted events.
``tests/service/test_stepper.py`` compares it with the whole replay at every post of
simulated sittings of every ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import Finding, HandReport, Stop
from mjaudit.parts.replay.engine.loop import HandRules, merged_options
from mjaudit.parts.replay.engine.options import OptionError
from mjaudit.parts.replay.engine.run import engine_error
from mjaudit.parts.service.session import CORRUPT, Raised


def rules_of(ruleset: str) -> HandRules[Any, Any] | None:
    """The ruleset's :class:`HandRules` when its replay is one (its bound ``replay``)."""
    rs = registry.get(ruleset)
    rules = getattr(rs.replay, "__self__", None) if rs is not None else None
    return rules if isinstance(rules, HandRules) else None


def _dealt(
    rules: HandRules[Any, Any], record: dict[str, Any], previous: HandReport | None
) -> Any | None:
    """A hand state of ``record`` after the rotation checks and the deal, as the replay
    makes it; None when the replay would not get as far as stepping an event."""
    if rules.admit is not None and rules.admit(record) is not None:
        return None
    try:
        opts = rules.options_for(record, merged_options(record, None))
    except OptionError:
        return None
    hand = rules.hand(record, opts, previous, None)
    if rules.refuse is not None and rules.refuse(hand) is not None:
        return None
    try:
        if rules.rotation is not None:
            rules.rotation(hand, previous)
        hand.start()
    except Exception:  # Stop (a corrupt deal) or an engine error: the whole replay says
        return None
    return hand


@dataclass
class Stepper:
    """One hand's live state: ``hand`` has been dealt and stepped through ``record``'s
    events; ``count``: its findings then; ``deal``: what the deal raised."""

    rules: HandRules[Any, Any]
    record: dict[str, Any]  # the state's own record: header and the events stepped
    previous: HandReport | None
    hand: Any
    deal: tuple[Finding, ...]
    count: int

    @classmethod
    def begin(
        cls,
        header: dict[str, Any],
        accepted: list[dict[str, Any]],
        posted: list[dict[str, Any]],
        previous: HandReport | None,
    ) -> Stepper | None:
        """A stepper for a hand whose accepted events are ``accepted``, stepped through
        them and ready for ``posted``: dealt on the record with both, as the replay that
        judges ``posted`` deals it. None: judge the hand by the whole replay."""
        rules = rules_of(header["ruleset"])
        if rules is None:
            return None
        record = {**header, "events": [*accepted, *posted]}
        hand = _dealt(rules, record, previous)
        if hand is None:
            return None
        record["events"] = list(accepted)  # the state's record: the events it stepped
        deal = tuple(hand.findings)
        try:
            for i, ev in enumerate(accepted):
                hand.step(i, ev)
        except Exception:  # the accepted events did not stop the replay; be safe
            return None
        # the deal's findings come with event 0, as the replay gives them
        return cls(rules, record, previous, hand, deal, len(hand.findings) if accepted else 0)

    def deal_holds(self, events: list[dict[str, Any]]) -> bool:
        """Would the deal, made again with ``events`` posted after the accepted ones,
        raise what it raised? (It reads the events: their tile codes, the first one.)"""
        # The state says when the new events cannot change its deal (``deal_admits``: their
        # tile codes are known, none is the first event), which spares dealing again at
        # every post; when it cannot say, or says no, the deal is made again to know.
        admits = getattr(self.hand, "deal_admits", None)
        first = len(self.record["events"])
        if admits is not None and all(admits(i, ev) for i, ev in enumerate(events, first)):
            return True
        record = {**self.record, "events": [*self.record["events"], *events]}
        fresh = _dealt(self.rules, record, self.previous)
        return fresh is not None and tuple(fresh.findings) == self.deal

    def step(
        self, events: list[dict[str, Any]], watch: Callable[[int, Any], None] | None = None
    ) -> Raised:
        """Step ``events`` (posted after the accepted ones): what each raised, as
        :func:`session.raised` gives it; ``watch`` sees the state after each. The state
        holds them afterwards: drop the stepper if the post is not taken."""
        hand, record = self.hand, self.record
        first = len(record["events"])
        record["events"].extend(events)
        at: list[tuple[Finding, ...]] = []
        lo = self.count
        closed = None
        for i, ev in enumerate(events, first):
            try:
                hand.step(i, ev)
            except Stop:  # the replay stops here: the CORRUPT_LOG finding is the last
                at.append(tuple(hand.findings[lo:]))
                closed = next(f for f in reversed(hand.findings) if f.cls is CORRUPT)
                break
            except Exception as exc:  # the replay's ENGINE_ERROR, alone at this event
                closed = engine_error(record, exc)
                at.append((closed,))
                break
            hi = len(hand.findings)
            at.append(tuple(hand.findings[lo:hi]))
            lo = hi
            if watch is not None:
                watch(i, hand)
        self.count = lo
        return Raised(first, tuple(at), closed)

    def finish(self, result: Any) -> HandReport | None:
        """The hand's report once it is ended with the recorded ``result`` (None: none
        recorded), from the live state: what :func:`replay.engine.replay_hand` gives for
        the record, without replaying its events. None when the state was stopped (the
        whole replay says then). The stepper is spent afterwards."""
        if self.hand.stopped:
            return None
        if result is not None:
            self.record["result"] = result
        try:
            return self.rules.finish(self.hand, self.previous)
        except Exception:  # the replay's ENGINE_ERROR: let the whole replay give it
            return None
