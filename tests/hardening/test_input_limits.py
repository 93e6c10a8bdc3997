"""Hostile and odd inputs: a 100 MB line, deep nesting, wrong encodings, NUL bytes, a file
that grows while it is read, compression bombs, odd path names. Ingest must stay bounded
in memory and time, quarantine what it cannot take with a clear message naming file and
line, and keep every good record."""

from __future__ import annotations

import gzip
import json
import os
import threading
import time
import tracemalloc
from pathlib import Path

import pytest
import zstandard
from mjaudit.parts.ingest.pipeline import IngestSummary, ingest
from mjaudit.parts.ingest.sources import (
    DEFAULT_LIMITS,
    Limits,
    Refused,
    nesting_depth,
    read_records,
)
from mjaudit.parts.ingest.store import DataDir
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.hardening.fuzzing import check_cli, compressed_bomb
from tests.ingest.ingest_helpers import line, record

MiB = 1 << 20


def good(n: int) -> bytes:
    return line(record(game_id=f"good-{n}"))


def quarantine(data: Path) -> list[dict]:
    return DataDir(data).read("quarantine").to_pylist()


def kept(data: Path) -> set[str]:
    return set(DataDir(data).read("hands").column("game_id").to_pylist())


def run(paths: list[Path], data: Path, **kw) -> IngestSummary:
    return ingest([str(p) for p in paths], data, **kw)


def test_default_limits() -> None:
    assert DEFAULT_LIMITS.max_record_bytes == 64 * MiB
    assert DEFAULT_LIMITS.kept_bytes == MiB
    assert DEFAULT_LIMITS.max_decompressed_bytes == 16 << 30
    assert DEFAULT_LIMITS.max_nesting == 256


# -- a huge line ------------------------------------------------------------------------


def test_100_mb_lines_are_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as f:
        f.write(good(1) + b"\n")
        # a valid record with a 100 MB venue, written in pieces
        head, tail = line(record(game_id="huge", venue="@")).split(b'"@"')
        f.write(head + b'"')
        for _ in range(100):
            f.write(b"v" * MiB)
        f.write(b'"' + tail + b"\n")
        for _ in range(100):  # 100 MB of garbage on one line
            f.write(b"\x01garbage{[" * (MiB // 10))
        f.write(b"\n" + good(2) + b"\n")
    tracemalloc.start()
    try:
        summary = run([path], tmp_path / "data")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * MiB, f"peak {peak / MiB:.0f} MiB"  # the record limit plus a chunk
    assert kept(tmp_path / "data") == {"good-1", "good-2"}
    assert summary.quarantined == {"RECORD_TOO_LARGE": 2}
    rows = sorted(quarantine(tmp_path / "data"), key=lambda r: r["source_line"])
    assert [r["source_line"] for r in rows] == [2, 3]
    for r in rows:
        assert r["message"].startswith(
            f"{path.resolve()}:{r['source_line']}: refused: the record is "
        )
        assert "more than the limit of 67108864 bytes" in r["message"]
        assert "it was cut" in r["message"] and "first 1048576 bytes" in r["message"]
        assert len(r["raw"]) == MiB
    assert rows[0]["raw"].startswith(head)
    assert rows[1]["raw"].startswith(b"\x01garbage")


def test_record_limit_is_exact_and_applies_to_every_format(tmp_path: Path) -> None:
    limits = Limits(max_record_bytes=len(good(1)), kept_bytes=10)
    ok, big = good(1), line(record(game_id="good-1x"))  # one byte longer
    plain = tmp_path / "a.jsonl"
    plain.write_bytes(ok + b"\n" + big + b"\n" + ok)
    items = list(read_records(plain, limits=limits))
    assert [type(i).__name__ for i in items] == ["RawRecord", "Refused", "RawRecord"]
    assert items[1].raw == big[:10] and f"is {len(big)} bytes" in items[1].message
    for name, data in (
        ("b.jsonl.gz", gzip.compress(ok + b"\n" + big + b"\n")),
        ("c.jsonl.zst", zstandard.ZstdCompressor().compress(ok + b"\n" + big + b"\n")),
        ("d.json", b"[" + ok + b",\n" + big + b"]"),
    ):
        (tmp_path / name).write_bytes(data)
        got = list(read_records(tmp_path / name, limits=limits))
        assert [type(i).__name__ for i in got] == ["RawRecord", "Refused"], name
        assert got[1].line == 2 and got[1].code == "RECORD_TOO_LARGE"


def test_mjaudit_check_reports_a_huge_line_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as f:
        f.write(b'{"a": "' + b"x" * (65 * MiB) + b'"}\n')
    result = check_cli(CliRunner(), app, ["check", str(path)])
    assert result.exit_code == 1 and f"{path}:1: refused: the record is" in result.output


# -- deep nesting -----------------------------------------------------------------------


DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(
    "raw",
    [
        DEEP,
        b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        b"[" * 100_000,  # never closed
        line(record(game_id="deep", extra_field=[0])).replace(b"[0]", DEEP),
    ],
    ids=["arrays", "objects", "unclosed", "inside-a-record"],
)
def test_deep_nesting_is_quarantined_not_a_crash(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "deep.jsonl"
    path.write_bytes(good(1) + b"\n" + raw + b"\n" + good(2) + b"\n")
    summary = run([path], tmp_path / "data")
    assert kept(tmp_path / "data") == {"good-1", "good-2"}
    assert summary.quarantined == {"RECORD_TOO_LARGE": 1}
    (row,) = quarantine(tmp_path / "data")
    assert row["source_line"] == 2 and row["raw"] == raw
    assert row["message"].startswith(f"{path.resolve()}:2: refused: the record nests")
    result = check_cli(CliRunner(), app, ["check", str(path)])
    assert result.exit_code == 1 and f"{path}:2: refused" in result.output


def test_deep_json_file_and_legitimate_nesting(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_bytes(b"[" + DEEP + b"]")
    ok = record(game_id="nested", extra_field=json.loads("[" * 200 + "]" * 200))
    (tmp_path / "ok.jsonl").write_bytes(line(ok) + b"\n")
    summary = run([tmp_path], tmp_path / "data")
    assert kept(tmp_path / "data") == {"nested"}  # 200 levels is fine
    assert summary.quarantined == {"RECORD_TOO_LARGE": 1}
    assert nesting_depth(b'["[[[", {"a": "\\"]]"}]') == 2
    assert nesting_depth(b'"[[[') == 0


# -- encodings and NUL bytes ------------------------------------------------------------


def test_wrong_encodings_are_quarantined(tmp_path: Path) -> None:
    text = (good(1) + b"\n" + good(2) + b"\n").decode()
    (tmp_path / "utf16.jsonl").write_bytes(text.encode("utf-16"))  # with its BOM
    (tmp_path / "utf16be.jsonl").write_bytes(text.encode("utf-16-be"))
    latin = line(record(game_id="latin", venue="Caf\u00e9")).decode().encode("latin-1")
    (tmp_path / "latin1.jsonl").write_bytes(latin + b"\n" + good(3) + b"\n")
    (tmp_path / "bom.jsonl").write_bytes(b"\xef\xbb\xbf" + good(4) + b"\n")
    (tmp_path / "bom.jsonl.gz").write_bytes(gzip.compress(b"\xef\xbb\xbf" + good(5)))
    (tmp_path / "bom-only.jsonl").write_bytes(b"\xef\xbb\xbf")
    (tmp_path / "bom.json").write_bytes(b"\xef\xbb\xbf[" + good(6) + b"]")
    (tmp_path / "bom-inside.jsonl").write_bytes(good(7) + b"\n\xef\xbb\xbf" + good(8) + b"\n")
    summary = run([tmp_path], tmp_path / "data")
    assert kept(tmp_path / "data") == {f"good-{i}" for i in (3, 4, 5, 6, 7)}
    rows = quarantine(tmp_path / "data")
    by_file = {(Path(r["source_file"]).name, r["source_line"]): r["code"] for r in rows}
    assert by_file[("latin1.jsonl", 1)] == "BAD_ENCODING"
    assert by_file[("bom-inside.jsonl", 2)] == "BAD_JSON"
    assert {k[0] for k in by_file} == {
        "utf16.jsonl",
        "utf16be.jsonl",
        "latin1.jsonl",
        "bom-inside.jsonl",
    }
    assert all(code in ("BAD_ENCODING", "BAD_JSON") for code in by_file.values())
    for r in rows:
        assert r["message"].startswith(f"{r['source_file']}:{r['source_line']}: ")
    assert summary.n_quarantined == len(rows)


def test_nul_bytes_inside_lines(tmp_path: Path) -> None:
    rec = good(2)
    lines = [good(1), rec[:20] + b"\x00" + rec[20:], b"\x00" * 50, b'{"a": "\x00"}', good(3)]
    path = tmp_path / "nul.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    run([path], tmp_path / "data")
    assert kept(tmp_path / "data") == {"good-1", "good-3"}
    rows = quarantine(tmp_path / "data")
    assert sorted(r["source_line"] for r in rows) == [2, 3, 4]
    assert {r["code"] for r in rows} == {"BAD_JSON"}
    check_cli(CliRunner(), app, ["check", str(path)])


# -- a file that changes while it is read -----------------------------------------------


def test_file_growing_while_read(tmp_path: Path) -> None:
    path = tmp_path / "growing.jsonl"
    path.write_bytes(b"".join(good(i) + b"\n" for i in range(3000)))  # several chunks
    appended: list[bytes] = []
    stop = threading.Event()

    def writer() -> None:
        i = 10_000
        with open(path, "ab", buffering=0) as f:
            while not stop.is_set() and i < 12_000:
                data = good(i) + b"\n"
                f.write(data[:40])  # a line in two writes: readers may see half of it
                time.sleep(0.0005)
                f.write(data[40:])
                appended.append(data)
                i += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        summary = run([path], tmp_path / "data", on_progress=lambda n: time.sleep(0.002))
    finally:
        stop.set()
        thread.join()
    hands = DataDir(tmp_path / "data").read("hands").select(["game_id", "source_line"]).to_pylist()
    ids = [h["game_id"] for h in hands]
    assert len(ids) == len(set(ids))
    assert {f"good-{i}" for i in range(3000)} <= set(ids)  # what was there at the start
    for h in hands:  # every hand kept is a whole record, from its own line
        assert (
            h["game_id"]
            == f"good-{h['source_line'] - 1 + (10_000 - 3000 if h['source_line'] > 3000 else 0)}"
        )
    rows = quarantine(tmp_path / "data")
    assert all(r["code"] == "BAD_JSON" for r in rows) and len(rows) <= 1  # a half-written last line
    assert summary.records == len(hands) + len(rows)
    # a second run picks up the rest; nothing twice
    run([path], tmp_path / "data")
    ids = DataDir(tmp_path / "data").read("hands").column("game_id").to_pylist()
    assert len(ids) == len(set(ids)) == 3000 + len(appended)


def test_file_truncated_or_replaced_while_read(tmp_path: Path) -> None:
    path = tmp_path / "shrinking.jsonl"
    path.write_bytes(b"".join(good(i) + b"\n" for i in range(5000)))
    calls = []

    def shrink(n: int) -> None:
        calls.append(n)
        if len(calls) == 1:
            with open(path, "r+b") as f:
                f.truncate(f.seek(0, os.SEEK_END) // 2 + 7)  # mid-line
        elif len(calls) == 2:
            os.replace(tmp_path / "other", path) if (tmp_path / "other").exists() else None

    (tmp_path / "other").write_bytes(b"not json\n")
    summary = run([path], tmp_path / "data", on_progress=shrink)
    hands = DataDir(tmp_path / "data").read("hands").select(["game_id", "source_line"]).to_pylist()
    assert hands and all(h["game_id"] == f"good-{h['source_line'] - 1}" for h in hands)
    assert summary.records == len(hands) + summary.n_quarantined


# -- compression bombs ------------------------------------------------------------------


@pytest.fixture(scope="module")
def gzip_bomb() -> bytes:
    data = compressed_bomb(1 << 30)  # 1 GiB of zeros
    assert len(data) < 2 * MiB
    return data


@pytest.mark.parametrize("kind", ["gz", "zst"])
def test_compression_bomb_is_refused_in_bounded_memory(
    tmp_path: Path, kind: str, gzip_bomb: bytes
) -> None:
    path = tmp_path / f"bomb.jsonl.{kind}"
    if kind == "gz":
        path.write_bytes(gzip.compress(good(1) + b"\n") + gzip_bomb)
    else:
        cctx = zstandard.ZstdCompressor()
        path.write_bytes(cctx.compress(good(1) + b"\n") + cctx.compress(bytes(1 << 30)))
    tracemalloc.start()
    try:
        summary = run([path], tmp_path / "data")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * MiB, f"peak {peak / MiB:.0f} MiB"
    assert kept(tmp_path / "data") == {"good-1"}
    # The bomb is one line, refused on its own ratio (its head kept, the rest counted);
    # the stream is read to its end rather than given up on (see test_sources_hardening).
    (row,) = quarantine(tmp_path / "data")
    assert row["code"] == "RECORD_TOO_LARGE" and row["source_line"] == 2
    assert f"{path.resolve()}:2: refused: the " in row["message"]
    assert "decompresses to more than" in row["message"] and "max_ratio" in row["message"]
    assert len(row["raw"]) <= MiB
    assert summary.broken_files == []


def test_bomb_of_tiny_bad_lines_stays_bounded(tmp_path: Path) -> None:
    """Each bad line is a quarantine row: the ratio limit stops a bomb of them early (here
    after 128 KiB; by default after 1 MiB, half a million lines)."""
    assert DEFAULT_LIMITS.ratio_floor == MiB and DEFAULT_LIMITS.max_ratio == 200
    path = tmp_path / "lines.jsonl.gz"
    path.write_bytes(gzip.compress(good(1) + b"\n" + b"x\n" * (64 * MiB), 9))
    limits = Limits(ratio_floor=128 << 10, max_ratio=20)
    summary = run([path], tmp_path / "data", limits=limits, batch_bytes=1 << 20)
    assert kept(tmp_path / "data") == {"good-1"}
    assert summary.quarantined["FILE_TRUNCATED"] == 1  # refused once past the ratio
    assert summary.quarantined["BAD_JSON"] <= 128 << 10
    # committed in several bounded batches, not held until the end
    assert len(DataDir(tmp_path / "data").files("quarantine")) > 3


def test_decompressed_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(good(i) + b"\n" for i in range(20_000))))
    limits = Limits(max_decompressed_bytes=MiB)
    summary = run([path], tmp_path / "data", limits=limits)
    ids = kept(tmp_path / "data")
    assert ids and len(ids) < 20_000 and ids == {f"good-{i}" for i in range(len(ids))}
    rows = [r for r in quarantine(tmp_path / "data") if r["code"] == "FILE_TRUNCATED"]
    assert len(rows) == 1 and "decompresses to more than 1048576 bytes" in rows[0]["message"]
    assert summary.broken_files
    # the defaults read it whole (about 16:1 is an ordinary ratio)
    assert run([path], tmp_path / "data2").hands_added == 20_000


# -- odd path names ---------------------------------------------------------------------


ODD_NAMES = [
    "with space.jsonl",
    'it\'s "quoted".jsonl',
    "ünïcödé 麻雀 🀄.jsonl",
    "-leading-dash.jsonl",
    "glob[abc].jsonl",
    "star*and?.jsonl",
    "back\\slash.jsonl",
    "new\nline.jsonl",
    "semi;colon $(x) `y`.jsonl",
]


def test_odd_path_names(tmp_path: Path) -> None:
    folder = tmp_path / "odd [dir] 'x'"
    folder.mkdir()
    made = []
    for i, name in enumerate(ODD_NAMES):
        try:
            path = folder / name
            path.write_bytes(good(i) + b"\n" + b"bad\n")
        except OSError:  # a filesystem that refuses the name
            continue
        made.append((i, path))
    assert len(made) >= len(ODD_NAMES) - 1
    # every file by name, and the folder
    for i, path in made:
        data = tmp_path / f"data-{i}"
        summary = run([path], data)
        assert kept(data) == {f"good-{i}"}, path
        (row,) = quarantine(data)
        assert row["source_file"] == str(path.resolve())
        assert row["message"].startswith(f"{path.resolve()}:2: ")
        assert summary.files == 1
    summary = run([folder], tmp_path / "data-all")
    assert kept(tmp_path / "data-all") == {f"good-{i}" for i, _ in made}
    # the CLI, with `--` before a name that starts with a dash
    runner = CliRunner()
    for i, path in made:
        result = runner.invoke(
            app, ["ingest", "--data", str(tmp_path / f"cli-{i}"), "--", str(path)]
        )
        assert result.exit_code == 1, (path, result.output)  # the bad line is quarantined
        assert result.exception is None or isinstance(result.exception, SystemExit)
        check_cli(runner, app, ["check", "--", str(path)])
    os.chdir(folder)
    try:
        result = runner.invoke(
            app, ["ingest", "--data", str(tmp_path / "cli-rel"), "--", "-leading-dash.jsonl"]
        )
        assert result.exit_code == 1 and "quarantined" in result.output
    finally:
        os.chdir(tmp_path)


def test_refused_items_are_broken_stream_items() -> None:
    """``mjaudit check`` knows BrokenStream items only: a refused record must be one."""
    from mjaudit.parts.ingest.sources import BrokenStream

    assert issubclass(Refused, BrokenStream)


def test_csv_sheet_the_csv_module_refuses_is_quarantined(tmp_path: Path) -> None:
    """Found by bench/fuzz.py (atheris): a bare carriage return in a CSV sheet made the
    ``csv`` module raise out of ``read_sheet`` and abort the whole ingest. Lines end at
    LF (as in the text sheets and the logs, and as the fuzz test's line numbers count
    them): the row with the CR is quarantined whole, under its own line number; the rest
    is kept."""
    header = (
        "date,player1,player2,player3,player4,result1,result2,result3,result4,"
        "base,max_fan,responsibility,rise\n"
    )
    rows = "2026-03-01,A,B,C,D,1,-,-,-,2,6,half,half\n2026-03-01,A,B\rC,D,-,2,d,-,2,6,half,half\n"
    path = tmp_path / "club.csv"
    path.write_text(header + rows + "2026-03-02,A,B,C,D,1,-,-,-,2,6,half,half\n")
    (tmp_path / "good.jsonl").write_bytes(good(1) + b"\n")
    summary = run([path, tmp_path / "good.jsonl"], tmp_path / "data", fmt="auto")
    assert "good-1" in kept(tmp_path / "data")
    assert summary.hands_added == 3  # the sheet's first and last rows, and the log's record
    (row,) = quarantine(tmp_path / "data")
    assert (row["code"], row["source_line"], row["raw"]) == (
        "SHEET_UNPARSEABLE",
        3,
        b"2026-03-01,A,B\rC,D,-,2,d,-,2,6,half,half",
    )
    assert row["message"].startswith(
        f"{path.resolve()}:3: a carriage return (CR) inside an unquoted field"
    )
    sheet_lines = [
        r["source_line"]
        for r in DataDir(tmp_path / "data").read("hands").to_pylist()
        if r["game_id"].startswith("club.csv")
    ]
    assert sorted(sheet_lines) == [2, 4]  # the row after the CR keeps its line number
