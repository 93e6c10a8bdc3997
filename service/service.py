"""The service's state: the open hands, their journal, the archive committer, the screens.

Every change follows one order: validate, ask the engine, write the journal entry and wait
until it is on disk, then change the hand and answer. So an answered post is never lost
(start-up rebuilds it from the journal) and a post that was not answered may be retried:
a retry carries the same sequence number (the index of its first event) and gets the
same answer. Posts to one hand are taken one at a time.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.rows import records_from_tables
from mjaudit.parts.service import shapes
from mjaudit.parts.service.archive import Committer, Finished
from mjaudit.parts.service.journal import Journal
from mjaudit.parts.service.session import Ended, OpenHand, Raised, raised
from mjaudit.parts.service.stepper import Stepper
from mjaudit.parts.service.stream import Hub
from mjaudit.parts.service.sync import Sync
from mjaudit.parts.service.view import state_summary, summary, table_model

HAND_TABLES = ("hands", "seats", "events", "recorded_results")


@dataclass(frozen=True)
class Limits:
    """What one hand and one post may hold."""

    max_batch: int = 64  # events in one post
    max_events: int = 2000  # events in one hand
    max_open: int = 10_000  # hands open at once
    kept_ended: int = 10_000  # ended hands still answered by GET and a repeated end


class ApiError(Exception):
    """A refused call: its HTTP status, a stable code and a sentence saying why."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


GC_GEN0 = 50_000  # container objects allocated (net) between two young collections


def settle_gc() -> None:
    """Keep the collector's pauses off the posts. What start-up made (modules, the
    rebuilt hands) lives as long as the server: frozen out of every pass. A post's own
    objects die by reference count within the post; at Python's default threshold (700)
    a young pass ran every few posts, promoting whatever was in flight (the posts waiting
    for the journal) and so bringing on full passes over every open and ended hand, 0.1
    s and more each (bench/serve.py, docs/serve.md). At 50,000 a young pass comes every
    few thousand posts and the full ones all but never."""
    gc.freeze()
    gc.set_threshold(GC_GEN0, *gc.get_threshold()[1:])


def hand_id(game_id: str, hand_no: int) -> str:
    """The id of hand ``hand_no`` of ``game_id``: the same on every server, every run."""
    return hashlib.blake2b(f"{game_id}\0{hand_no}".encode(), digest_size=8).hexdigest()


class Service:
    def __init__(
        self,
        data: Path,
        journal: Path,
        limits: Limits = Limits(),
        commit_process: bool = True,
        sync: Sync = Sync.OS,
    ) -> None:
        self.data = data
        self.limits = limits
        self.journal = Journal(journal, sync)
        self.committer = Committer(data, commit_process)
        self.hub = Hub()
        self.hands: dict[str, OpenHand] = {}
        self.ended: OrderedDict[str, OpenHand] = OrderedDict()
        self.last: dict[str, HandReport] = {}  # game id -> report of its last ended hand
        self.previous: dict[str, HandReport | None] = {}  # hand id -> report of hand_no - 1
        self._locks: dict[str, asyncio.Lock] = {}
        self._steppers: dict[str, Stepper] = {}  # hand id -> its live state (stepper.py)

    # -- start and stop ---------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild the open hands from the journal; commit those ended but not stored."""
        self.committer.start()
        by_hand: dict[str, list[dict[str, Any]]] = {}
        for entry in self.journal.entries():
            by_hand.setdefault(entry["hand"], []).append(entry)
        opened = [e[0] for e in by_hand.values() if e[0]["op"] == "open"]
        opened.sort(key=lambda e: (e["header"]["game_id"], e["header"]["hand_no"]))
        pending = []
        for head in opened:
            hand = OpenHand(head["hand"], head["table"], head["header"])
            self.hands[hand.id] = hand
            self.previous[hand.id] = self._previous_of(hand)
            events: list[dict[str, Any]] = []
            ended = None
            for entry in by_hand[hand.id][1:]:
                if entry["op"] == "events" and entry["seq"] == len(events):
                    events.extend(entry["events"])
                elif entry["op"] == "end":
                    ended = entry
            if events:  # one replay gives what was raised at every event
                hand.accept(events, self._check(hand, events)[0])
            if ended is not None:
                self._finish(hand, ended.get("result"))
                pending.append(hand)
        for hand in pending:
            await self._commit(hand)
        self.journal.compact()
        settle_gc()

    async def stop(self) -> None:
        await self.committer.stop()
        await self.journal.close()

    # -- the calls ----------------------------------------------------------------------

    def lock(self, hand: str) -> asyncio.Lock:
        return self._locks.setdefault(hand, asyncio.Lock())

    def get(self, hand: str) -> OpenHand:
        found = self.hands.get(hand) or self.ended.get(hand)
        if found is None:
            raise ApiError(404, "NO_SUCH_HAND", f"no open or recently ended hand {hand!r}")
        return found

    async def open(self, table: str, header: dict[str, Any]) -> tuple[OpenHand, bool]:
        """The hand of ``header`` (created: True), or the one already open with it."""
        async with self.lock(hand_id(header["game_id"], header["hand_no"])):
            return await self._open(table, header)

    async def _open(self, table: str, header: dict[str, Any]) -> tuple[OpenHand, bool]:
        rs = registry.get(header["ruleset"])
        if rs is None or rs.position is None:
            raise ApiError(
                422,
                "NOT_PLAYABLE",
                f"$.ruleset: the {header['ruleset']} engine does not step through a hand "
                "event by event; its hands are ingested (mjaudit ingest)",
            )
        hid = hand_id(header["game_id"], header["hand_no"])
        known = self.hands.get(hid)
        if known is not None:
            if known.header != header or known.table != table:
                raise ApiError(
                    409,
                    "HAND_CONFLICT",
                    f"game {header['game_id']!r} hand {header['hand_no']} is already open "
                    "with another header; end it, or use a new game_id/hand_no",
                    hand=hid,
                )
            return known, False
        if len(self.hands) >= self.limits.max_open:
            raise ApiError(503, "TOO_MANY_HANDS", f"{self.limits.max_open} hands are open already")
        hand = OpenHand(hid, table, header)
        await self.journal.append({"op": "open", "hand": hid, "table": table, "header": header})
        self.ended.pop(hid, None)
        self.hands[hid] = hand
        self.previous[hid] = self._previous_of(hand)
        return hand, True

    async def post(self, hand: OpenHand, seq: Any, items: list[Any]) -> dict[str, Any]:
        """Events ``seq ..`` of ``hand``: the findings raised at them and the table."""
        n = len(hand.events)
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ApiError(
                422,
                "BAD_SEQ",
                "$.seq: expected the index of the first event posted (an integer >= 0)",
            )
        if not items:
            raise ApiError(422, "NO_EVENTS", "expected 'event' (one object) or 'events' (a list)")
        if len(items) > self.limits.max_batch:
            raise ApiError(
                413,
                "BATCH_TOO_LARGE",
                f"$.events: {len(items)} events; at most {self.limits.max_batch} a post",
            )
        events = shapes.events(hand.header, seq, items)
        if seq + len(events) <= n:  # a retry of what is recorded: the same answer
            if hand.events[seq : seq + len(events)] != events:
                raise ApiError(
                    409,
                    "SEQ_CONFLICT",
                    f"$.seq: events {seq}-{seq + len(events) - 1} are recorded with other content",
                    next_seq=n,
                )
            return self._answer(hand, seq, len(events), replayed=True)
        if seq != n:
            raise ApiError(
                409,
                "SEQ_GAP" if seq > n else "SEQ_CONFLICT",
                f"$.seq: expected {n} (the hand has events 0-{n - 1})"
                if n
                else "$.seq: expected 0 (the hand has no events yet)",
                next_seq=n,
            )
        if hand.ended is not None or hand.closed is not None:
            why = (
                "ended"
                if hand.ended is not None
                else f"closed by {hand.closed.code} at event {n - 1}"
            )
            raise ApiError(409, "HAND_CLOSED", f"the hand is {why}: it takes no more events")
        if n + len(events) > self.limits.max_events:
            raise ApiError(
                413, "HAND_TOO_LONG", f"a hand holds at most {self.limits.max_events} events"
            )
        found, state = self._judge(hand, events)
        try:
            await self.journal.append(
                {"op": "events", "hand": hand.id, "seq": seq, "events": events[: len(found.at)]}
            )
        except BaseException:  # not taken: the live state has stepped what was refused
            self._steppers.pop(hand.id, None)
            raise
        hand.accept(events, found)
        if hand.closed is not None:
            self._steppers.pop(hand.id, None)
        answer = self._answer(hand, seq, len(found.at), replayed=False, state=state)
        if len(found.at) < len(events):
            answer["refused"] = (
                f"events {seq + len(found.at)}-{seq + len(events) - 1} were not taken: the hand closed before them"
            )
        if answer["findings"]:
            self.hub.publish(
                hand.table,
                {
                    "type": "findings",
                    "hand": hand.id,
                    **{k: answer[k] for k in ("findings", "closed", "state")},
                },
            )
        return answer

    async def end(self, hand: OpenHand, result: Any) -> dict[str, Any]:
        """Settle the hand and commit it to the archive (once, however often asked)."""
        record = shapes.result(hand.header, hand.events, result)
        if hand.ended is not None and record.get("result") != hand.ended.record.get("result"):
            raise ApiError(
                409,
                "END_CONFLICT",
                "$.result: the hand is already ended with another recorded result",
            )
        if hand.ended is None:
            await self.journal.append(
                {"op": "end", "hand": hand.id, "result": record.get("result")}
            )
            self._finish(hand, record.get("result"))
            ended = hand.ended
            assert ended is not None
            if ended.raised:
                self.hub.publish(
                    hand.table,
                    {
                        "type": "end",
                        "hand": hand.id,
                        "findings": [hand.to_json(f) for f in ended.raised],
                    },
                )
        await self._commit(hand)
        return self.settlement(hand)

    def settlement(self, hand: OpenHand) -> dict[str, Any]:
        ended = hand.ended
        assert ended is not None
        rep = ended.report
        return {
            "hand": hand.id,
            "ended_by": rep.ended_by,
            "settlement": {k: v for k, v in rep.to_json().items() if k != "findings"},
            "matches_recorded": rep.matches_recorded,
            "end_findings": [hand.to_json(f) for f in ended.raised],
            "findings": [hand.to_json(f) for f in rep.findings],
            "archive": ended.archive,
        }

    def view(self, hand: OpenHand) -> dict[str, Any]:
        record = hand.record()
        return {
            "hand": hand.id,
            "table": hand.table,
            "game_id": hand.key[0],
            "hand_no": hand.key[1],
            "ruleset": hand.ruleset,
            "status": "ended" if hand.ended else "closed" if hand.closed else "open",
            "next_seq": len(hand.events),
            "view": table_model(record),
            "findings": [hand.to_json(f) for f in hand.findings()],
            "settlement": self.settlement(hand) if hand.ended else None,
        }

    # -- inside -------------------------------------------------------------------------

    def _judge(
        self, hand: OpenHand, events: list[dict[str, Any]]
    ) -> tuple[Raised, dict[str, Any] | None]:
        """What :meth:`_check` gives, from the hand's live state when it has one that may
        step these events (stepper.py), else from the whole replay."""
        live = self._steppers.get(hand.id)
        if live is not None and not live.deal_holds(events):
            live = None
        elif live is None:
            live = Stepper.begin(hand.header, hand.events, events, self._prior(hand))
        if live is None:
            self._steppers.pop(hand.id, None)
            return self._check(hand, events)
        self._steppers[hand.id] = live
        last = len(hand.events) + len(events) - 1
        seen: list[dict[str, Any] | None] = []

        def watch(index: int, state: Any) -> None:
            if index == last:
                seen.append(state_summary(hand.ruleset, state, index))

        return live.step(events, watch), seen[0] if seen else None

    def _check(
        self, hand: OpenHand, events: list[dict[str, Any]]
    ) -> tuple[Raised, dict[str, Any] | None]:
        """What the engine raises at ``events`` (posted after the accepted ones) and the
        state summary after the last of them, both from one replay (None: the hand
        stopped before its last event, or its ruleset has no view of its state)."""
        record = hand.record(events)
        last = len(record["events"]) - 1
        seen: list[dict[str, Any] | None] = []

        def watch(index: int, state: Any) -> None:
            if index == last:
                seen.append(state_summary(hand.ruleset, state, index))

        return raised(record, self._prior(hand), len(hand.events), watch), (
            seen[0] if seen else None
        )

    def _answer(
        self,
        hand: OpenHand,
        seq: int,
        count: int,
        *,
        replayed: bool,
        state: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        found = [f for group in hand.at[seq : seq + count] for f in group]
        closed = (
            hand.closed if hand.closed is not None and seq + count == len(hand.events) else None
        )
        return {
            "hand": hand.id,
            "seq": seq,
            "accepted": count,
            "replayed": replayed,
            "next_seq": len(hand.events),
            "findings": [hand.to_json(f) for f in found],
            "closed": hand.to_json(closed) if closed is not None else None,
            "state": state
            if state is not None
            else summary(table_model({**hand.header, "events": hand.events[: seq + count]})),
        }

    def _prior(self, hand: OpenHand) -> HandReport | None:
        """The report of the hand before this one, as ``check`` gives it (same game)."""
        game, no = hand.key
        last = self.last.get(game)
        if last is not None and last.hand_no == no - 1:
            return last
        return self.previous.get(hand.id)

    def _previous_of(self, hand: OpenHand) -> HandReport | None:
        """Hand ``hand_no - 1`` of the game, from this server or else from the archive."""
        game, no = hand.key
        last = self.last.get(game)
        if last is not None and last.hand_no == no - 1:
            return last
        if no == 1 or not DataDir(self.data).exists():
            return None
        store = DataDir(self.data)
        key = (pl.col("game_id") == game) & (pl.col("hand_no") == no - 1)
        tables = {t: store.scan(t).filter(key).collect().to_arrow() for t in HAND_TABLES}
        records = list(records_from_tables(tables))
        return replay_hand(records[0]) if records else None

    def _finish(self, hand: OpenHand, result: Any) -> None:
        record = hand.record()
        if result is not None:
            record["result"] = result
        # The live state settles the hand when it has stepped every accepted event; the
        # whole replay when there is none (tests/service/test_stepper.py: both agree).
        live = self._steppers.pop(hand.id, None)
        report = None
        if (
            live is not None
            and len(live.record["events"]) == len(hand.events)
            and live.previous is self._prior(hand)  # the deal's rotation check read it
        ):
            report = live.finish(result)
        if report is None:
            report = replay_hand(record, previous=self._prior(hand))
        hand.ended = Ended(record, report, tuple(report.findings[len(hand.findings()) :]))
        self.last[hand.key[0]] = report

    async def _commit(self, hand: OpenHand) -> None:
        ended = hand.ended
        assert ended is not None
        if ended.archive is not None:
            return
        try:
            ended.archive = await self.committer.submit(
                Finished.of(hand.id, hand.table, ended.record)
            )
        except Exception as exc:
            raise ApiError(
                503,
                "ARCHIVE_UNAVAILABLE",
                f"the hand is ended but not yet in the archive ({type(exc).__name__}: {exc}); post end again",
            ) from None
        self.hands.pop(hand.id, None)
        self._steppers.pop(hand.id, None)
        self.ended[hand.id] = hand
        while len(self.ended) > self.limits.kept_ended:
            old, _ = self.ended.popitem(last=False)
            self._locks.pop(old, None)
        self.previous.pop(hand.id, None)
        self.journal.committed(hand.id)
        if self.journal.dropped >= max(64, len(self.hands)):
            self.journal.compact()
