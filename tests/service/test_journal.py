"""The journal read back: what a crash can leave in it, and what a commit clears."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from mjaudit.parts.service import journal as journal_module
from mjaudit.parts.service.journal import Journal, JournalError, read_entries
from mjaudit.parts.service.sync import Sync


def lines(*entries: str) -> bytes:
    return "".join(e + "\n" for e in entries).encode()


def test_a_line_cut_short_by_a_crash_was_never_answered_and_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(lines('{"op":"open","hand":"a"}') + b'{"op":"events","hand":"a","se')
    journal = Journal(path)
    assert [e["op"] for e in journal.entries()] == ["open"]


def test_a_damaged_line_inside_the_journal_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(lines('{"op":"open","hand":"a"}', "{oops", '{"op":"end","hand":"a"}'))
    with pytest.raises(JournalError, match=r"journal.jsonl:2: unreadable journal entry"):
        Journal(path)


def test_a_committed_hand_is_forgotten_and_reopened_from_its_new_entries(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(
        lines(
            '{"op":"open","hand":"a","n":1}',
            '{"op":"end","hand":"a"}',
            '{"op":"committed","hand":"a"}',
            '{"op":"open","hand":"b"}',
            '{"op":"open","hand":"a","n":2}',
        )
    )
    journal = Journal(path)
    assert [(e["hand"], e.get("n")) for e in journal.entries()] == [("b", None), ("a", 2)]


def test_entries_are_on_disk_once_appended_and_compaction_keeps_the_live_ones(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.jsonl"

    async def run() -> None:
        journal = Journal(path)
        await asyncio.gather(*(journal.append({"op": "open", "hand": h}) for h in "abc"))
        assert len(path.read_bytes().splitlines()) == 3
        journal.committed("b")
        await journal.close()

    asyncio.run(run())
    assert [e["hand"] for e in Journal(path).entries()] == ["a", "c"]
    assert len(path.read_bytes().splitlines()) == 2  # trimmed


def test_two_servers_cannot_share_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    first = Journal(path)
    with pytest.raises(JournalError, match="another mjaudit serve uses this journal"):
        Journal(path)
    assert first.path == path


def test_in_os_mode_a_post_waits_for_the_kernel_not_the_disk_and_is_fsyncd_soon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.jsonl"
    fsyncs: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (fsyncs.append(fd), real_fsync(fd))[1])
    monkeypatch.setattr(journal_module, "OS_SYNC_DELAY", 0.01)

    async def run() -> None:
        journal = Journal(path, Sync.OS)
        await asyncio.gather(*(journal.append({"op": "open", "hand": h}) for h in "abc"))
        assert fsyncs == []  # answered before any fsync ...
        # ... and a server started after a kill -9 reads them back from the kernel's cache
        assert [e["hand"] for e in read_entries(path)] == ["a", "b", "c"]
        for _ in range(30_000):  # hang guard only: the delayed fsync comes
            if fsyncs:
                break
            await asyncio.sleep(0.01)
        assert fsyncs, "the entries were never fsync'd"
        await journal.close()

    asyncio.run(run())
    assert [e["hand"] for e in Journal(path).entries()] == ["a", "b", "c"]


def live_lines(path: Path) -> dict[str, int]:
    """Per open hand, how many entries a server started now would read back."""
    live: dict[str, int] = {}
    for entry in read_entries(path):
        if entry["op"] == "committed":
            live.pop(entry["hand"], None)
        else:
            live[entry["hand"]] = live.get(entry["hand"], 0) + 1
    return live


@pytest.mark.parametrize("sync", list(Sync))
def test_a_compaction_runs_beside_the_posts_and_loses_no_answered_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync: Sync
) -> None:
    """The rewrite of the journal does not hold the event loop: posts are taken while it
    runs (in ``os`` mode answered; in ``disk`` mode answered by the fsync after it), and
    the file a restart would read holds each of them at every moment."""
    path = tmp_path / "journal.jsonl"
    entered, gate = threading.Event(), threading.Event()
    real = journal_module._replace_durably

    def held(*args: object) -> None:  # the rename waits until the test lets it go
        entered.set()
        gate.wait()
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(journal_module, "_replace_durably", held)

    async def run() -> None:
        journal = Journal(path, sync)
        for h in "abcd":
            await journal.append({"op": "open", "hand": h})
        journal.committed("a")
        journal.compact()
        for _ in range(100_000):  # hang guard only
            if entered.is_set():
                break
            await asyncio.sleep(0.001)
        posts = [
            asyncio.create_task(journal.append({"op": "events", "hand": "b", "seq": k}))
            for k in range(5)
        ]
        for _ in range(50):
            await asyncio.sleep(0)
        try:
            assert [p.done() for p in posts] == [sync is Sync.OS] * 5
            # a kill now loses no answered post (and a lost note of a's commit only means
            # that a is committed again, which ingest skips)
            now = live_lines(path)
            now.pop("a", None)
            assert now == {"b": 6 if sync is Sync.OS else 1, "c": 1, "d": 1}
        finally:
            gate.set()
        await asyncio.gather(*posts)
        assert live_lines(path) == {"b": 6, "c": 1, "d": 1}
        for _ in range(100_000):  # hang guard only: the new file takes the old one's place
            if b'"hand":"a"' not in path.read_bytes():
                break
            await asyncio.sleep(0.001)
        assert live_lines(path) == {"b": 6, "c": 1, "d": 1}
        await journal.append({"op": "end", "hand": "c"})  # the new file takes the posts
        assert live_lines(path) == {"b": 6, "c": 2, "d": 1}
        await journal.close()

    asyncio.run(run())
    assert live_lines(path) == {"b": 6, "c": 2, "d": 1}
