"""The journal read back: what a crash can leave in it, and what a commit clears."""

from __future__ import annotations

import asyncio
import os
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
