"""Issue 26 item 4: good records after a refused stretch are kept.

A compressed record that decompresses past the ratio limit is refused alone (its head
kept) and the records after it are read; a true bomb is still stopped in bounded memory.
One bad element of a ``.json`` array is quarantined alone, with its index and line.
"""

from __future__ import annotations

import gzip
import json
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import mjaudit.parts.ingest.sources as sources
import pytest
import zstandard
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.sources import BrokenStream, Limits, RawRecord, Refused, read_records
from mjaudit.parts.ingest.store import DataDir

from tests.hardening.fuzzing import compressed_bomb
from tests.ingest.ingest_helpers import line, record

MiB = 1 << 20


def good(n: int) -> bytes:
    return line(record(game_id=f"good-{n}"))


def kept(data: Path) -> list[str]:
    return sorted(DataDir(data).read("hands").column("game_id").to_pylist())


def quarantine(data: Path) -> list[dict]:
    rows = DataDir(data).read("quarantine").to_pylist()
    return sorted(rows, key=lambda r: r["source_line"])


def compress(kind: str, data: bytes) -> bytes:
    return gzip.compress(data, 9) if kind == "gz" else zstandard.ZstdCompressor().compress(data)


def kinds(items: list) -> list[str]:
    return [type(i).__name__ for i in items]


# -- the compression guard ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["gz", "zst"])
def test_records_after_an_oversized_compressed_record_are_kept(tmp_path: Path, kind: str) -> None:
    """The issue's file: one valid 3 MB record that compresses ~1,000 times, then 6 good
    records. Before, the ratio guard refused the rest of the stream from the big record on
    (one FILE_TRUNCATED row; the 6 records neither stored nor kept raw)."""
    big = line(record(game_id="big", venue="v" * (3 * MiB)))
    text = good(0) + b"\n" + big + b"\n" + b"".join(good(i) + b"\n" for i in range(1, 7))
    path = tmp_path / f"big.jsonl.{kind}"
    path.write_bytes(compress(kind, text))
    assert len(text) / path.stat().st_size > 200  # past max_ratio as a whole, too

    summary = ingest([str(path)], tmp_path / "data")

    assert kept(tmp_path / "data") == [f"good-{i}" for i in range(7)]
    assert summary.broken_files == []
    (row,) = quarantine(tmp_path / "data")
    assert (row["code"], row["source_line"]) == ("RECORD_TOO_LARGE", 2)
    assert row["raw"] == big[:MiB]  # byte-exact, up to the kept limit
    assert row["message"].startswith(f"{path.resolve()}:2: refused: the record decompresses")
    assert "max_ratio" in row["message"] and f"It is {len(big)} bytes" in row["message"]
    assert "first 1048576 bytes" in row["message"]


def test_a_large_record_of_ordinary_ratio_is_kept(tmp_path: Path) -> None:
    """Only a record past the ratio is refused: 2 MiB of varied text compresses ~2:1."""
    venue = "".join(f"{i * 7919 % 100003:x}" for i in range(400_000))[: 2 * MiB]
    text = good(0) + b"\n" + line(record(game_id="large", venue=venue)) + b"\n" + good(1) + b"\n"
    path = tmp_path / "large.jsonl.gz"
    path.write_bytes(gzip.compress(text))
    ingest([str(path)], tmp_path / "data")
    assert kept(tmp_path / "data") == ["good-0", "good-1", "large"]
    assert quarantine(tmp_path / "data") == []


def _counting_chunks(counter: list[int]) -> Callable[..., Iterator[tuple[bytes, float]]]:
    """sources._chunks, adding up the decompressed bytes it gives in ``counter[0]``."""
    real = sources._chunks

    def chunks(*args: Any, **kwargs: Any) -> Iterator[tuple[bytes, float]]:
        for chunk, cost in real(*args, **kwargs):
            counter[0] += len(chunk)
            yield chunk, cost

    return chunks


def test_records_after_a_one_line_bomb_are_kept_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """256 MiB of one byte with no newline, then a good record: the bomb line is refused
    at the ratio floor (1 MiB kept), the rest of it only counted, and the reader finds its
    end and the record after it."""
    path = tmp_path / "bomb.jsonl.gz"
    path.write_bytes(
        gzip.compress(good(1) + b"\n")
        + compressed_bomb(256 * MiB)
        + gzip.compress(b"\n" + good(2) + b"\n")
    )
    produced = [0]
    monkeypatch.setattr(sources, "_chunks", _counting_chunks(produced))
    tracemalloc.start()
    try:
        items = list(read_records(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kinds(items) == ["RawRecord", "Refused", "RawRecord"]
    assert [i.line for i in items] == [1, 2, 3] and items[2].raw == good(2)
    assert items[1].code == "RECORD_TOO_LARGE" and len(items[1].raw) == MiB
    assert f"It is {256 * MiB} bytes" in items[1].message
    assert produced[0] > 256 * MiB  # read through, not given up on
    assert peak < 32 * MiB, f"peak {peak / MiB:.0f} MiB"  # a slice's output and the head


@pytest.mark.parametrize("kind", ["gz", "zst"])
def test_a_true_bomb_is_still_stopped_at_the_decompressed_limit(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bomb longer than max_decompressed_bytes: no more than the limit comes out, the
    line's head is kept, and the file is refused from there (a broken stream)."""
    path = tmp_path / f"bomb.jsonl.{kind}"
    bomb = compressed_bomb(256 * MiB, "." + kind)
    path.write_bytes(compress(kind, good(1) + b"\n") + bomb + compress(kind, b"\n" + good(2)))
    limits = Limits(max_decompressed_bytes=64 * MiB)
    produced = [0]
    monkeypatch.setattr(sources, "_chunks", _counting_chunks(produced))
    tracemalloc.start()
    try:
        items = list(read_records(path, limits=limits))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kinds(items) == ["RawRecord", "BrokenStream"]
    assert items[1].line == 2 and len(items[1].raw) == MiB
    assert "decompresses to more than 67108864 bytes (max_decompressed_bytes)" in items[1].message
    assert produced[0] <= 64 * MiB
    assert peak < 100 * MiB, f"peak {peak / MiB:.0f} MiB"


def test_endless_small_lines_are_still_stopped_after_a_refused_record(tmp_path: Path) -> None:
    """The other bomb: millions of tiny lines, each a quarantine row. A refused big record
    before them does not count against the lines, and the lines together are still
    stopped once past the ratio (after about ratio_floor bytes of them)."""
    limits = Limits(ratio_floor=128 << 10, max_ratio=20)
    big = line(record(game_id="big", venue="v" * MiB))
    text = good(1) + b"\n" + big + b"\n" + good(2) + b"\n" + b"x\n" * (16 * MiB)
    path = tmp_path / "lines.jsonl.gz"
    path.write_bytes(gzip.compress(text, 9))
    items = list(read_records(path, limits=limits))
    assert kinds(items[:3]) == ["RawRecord", "Refused", "RawRecord"]
    assert items[2].raw == good(2)
    assert isinstance(items[-1], BrokenStream) and not isinstance(items[-1], Refused)
    assert "max_ratio" in items[-1].message
    tiny = [i for i in items if isinstance(i, RawRecord) and i.raw == b"x"]
    assert 0 < len(tiny) <= (128 << 10) // 2
    assert kinds(items).count("BrokenStream") == 1


def test_plain_files_are_never_judged_by_ratio(tmp_path: Path) -> None:
    """Nothing to judge without compression: the ratio limits cannot refuse a plain file."""
    limits = Limits(ratio_floor=1 << 16, max_ratio=2)
    path = tmp_path / "plain.jsonl"
    big = line(record(game_id="big", venue="v" * (3 * MiB)))
    path.write_bytes(good(1) + b"\n" + big + b"\n" + b"x\n" * (1 << 16) + good(2) + b"\n")
    items = list(read_records(path, limits=limits))
    assert items[1] == RawRecord(2, big) and items[-1] == RawRecord(3 + (1 << 16), good(2))
    assert kinds(items).count("RawRecord") == len(items)


# -- .json arrays ---------------------------------------------------------------------


def _bad_elements() -> dict[str, tuple[bytes, str]]:
    rec = line(record(game_id="bad", venue="@"))
    return {
        "lone-surrogate": (rec.replace(b'"@"', b'"\\ud800"'), "BAD_JSON"),
        "lone-low-surrogate": (rec.replace(b'"@"', b'"x\\udc00y"'), "BAD_JSON"),
        "nesting-300": (rec.replace(b'"@"', b"[" * 300 + b"]" * 300), "RECORD_TOO_LARGE"),
        "nesting-100000": (
            rec.replace(b'"@"', b"[" * 100_000 + b"]" * 100_000),
            "RECORD_TOO_LARGE",
        ),
        "nan": (rec.replace(b'"@"', b"NaN"), "BAD_JSON"),
        "infinity": (rec.replace(b'"@"', b"-Infinity"), "BAD_JSON"),
        "truncated-end": (rec[:-1], "BAD_JSON"),  # its last '}' missing
        "truncated-mid": (rec[: rec.index(b'"events"') + 12], "BAD_JSON"),  # ... [{
        "truncated-in-a-string": (rec[: rec.index(b"hk-cl") + 3], "BAD_JSON"),
        "stray-brace": (rec + b"}", "BAD_JSON"),
        "bare-word": (b"garbage", "BAD_JSON"),
    }


BAD_ELEMENTS = _bad_elements()


@pytest.mark.parametrize("layout", ["lines", "compact", "indented"])
@pytest.mark.parametrize("case", list(BAD_ELEMENTS))
def test_one_bad_json_array_element_quarantines_only_it(
    tmp_path: Path, case: str, layout: str
) -> None:
    """190 good records and one bad element at index 95. Before, the whole file was one
    BAD_JSON row (or RECORD_TOO_LARGE for the nesting) and none of the 190 was kept."""
    bad, code = BAD_ELEMENTS[case]
    indent = 2 if layout == "indented" else None
    elements = [json.dumps(record(game_id=f"el-{i}"), indent=indent).encode() for i in range(190)]
    elements.insert(95, bad)
    sep = b"," if layout == "compact" else b",\n"
    data = b"[\n" + sep.join(elements) + b"\n]\n"
    path = tmp_path / "games.json"
    path.write_bytes(data)
    bad_line = data.count(b"\n", 0, data.index(sep + bad) + len(sep)) + 1

    summary = ingest([str(path)], tmp_path / "data")

    assert kept(tmp_path / "data") == sorted(f"el-{i}" for i in range(190))
    assert summary.broken_files == []
    (row,) = quarantine(tmp_path / "data")
    assert (row["code"], row["source_line"]) == (code, bad_line)
    assert row["raw"] == bad  # byte-exact: that element, not the file
    assert row["message"].startswith(f"{path.resolve()}:{bad_line}: element 95 of the array")
    if case.startswith("lone"):
        assert "lone UTF-16 surrogate escape" in row["message"]


def test_bad_elements_on_a_line_of_their_own_and_identical_good_ones(tmp_path: Path) -> None:
    """Identical good elements keep their own lines; the elements around a bad one too."""
    path = tmp_path / "dups.json"
    path.write_bytes(b"[" + good(1) + b",\n" + good(1) + b",\nNaN,\n" + good(2) + b"]")
    items = list(read_records(path))
    assert [(type(i).__name__, i.line) for i in items] == [
        ("RawRecord", 1),
        ("RawRecord", 2),
        ("Refused", 3),
        ("RawRecord", 4),
    ]
    assert items[2].raw == b"NaN" and items[2].message.startswith("element 2 of the array")


def test_json_truncated_mid_array_keeps_the_elements_before(tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    last = good(3)
    path.write_bytes(b"[\n" + b",\n".join([good(0), good(1), good(2), last[:40]]))
    summary = ingest([str(path)], tmp_path / "data")
    assert kept(tmp_path / "data") == ["good-0", "good-1", "good-2"]
    (row,) = quarantine(tmp_path / "data")
    assert (row["code"], row["source_line"], row["raw"]) == ("FILE_TRUNCATED", 5, last[:40])
    assert "the file ends inside element 3 of the array" in row["message"]
    assert "the 3 elements before it were read" in row["message"]
    assert summary.broken_files == [str(path.resolve())]


def test_json_array_never_closed_keeps_every_whole_element(tmp_path: Path) -> None:
    path = tmp_path / "open.json"
    path.write_bytes(b"[" + good(0) + b",\n" + good(1) + b"\n")
    items = list(read_records(path))
    assert items[:2] == [RawRecord(1, good(0)), RawRecord(2, good(1))]
    assert isinstance(items[2], BrokenStream) and items[2].raw == b""
    assert "the file ends before the array is closed" in items[2].message


def test_json_content_after_the_array_and_stray_commas_are_quarantined(tmp_path: Path) -> None:
    path = tmp_path / "odd.json"
    path.write_bytes(b"[" + good(0) + b",,\n" + good(1) + b",]\ntrailing words\n")
    items = list(read_records(path))
    assert [(type(i).__name__, i.line, getattr(i, "code", None)) for i in items] == [
        ("RawRecord", 1, None),
        ("Refused", 1, "BAD_JSON"),  # the extra comma
        ("RawRecord", 2, None),
        ("Refused", 2, "BAD_JSON"),  # the comma before ']'
        ("Refused", 3, "BAD_JSON"),  # what follows the array
    ]
    assert items[-1].raw == b"trailing words"
    assert "after the array's closing ']'" in items[-1].message


def test_json_files_holding_one_object_or_not_an_array(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_bytes(b"\n  " + json.dumps(record(game_id="one")).encode())
    (tmp_path / "word.json").write_bytes(b"hello\n")
    (tmp_path / "empty.json").write_bytes(b"[ ]")
    summary = ingest([str(tmp_path)], tmp_path / "data")
    assert kept(tmp_path / "data") == ["one"]
    (row,) = quarantine(tmp_path / "data")
    assert Path(row["source_file"]).name == "word.json" and row["raw"] == b"hello"
    assert row["code"] == "BAD_JSON" and summary.broken_files == []
    assert DataDir(tmp_path / "data").read("hands").column("source_line").to_pylist() == [2]


def test_json_array_of_valid_elements_reads_as_before(tmp_path: Path) -> None:
    """The valid file takes the whole-array decode; a refused element names its index."""
    limits = Limits(max_record_bytes=len(good(1)))
    path = tmp_path / "ok.json"
    big = line(record(game_id="good-1x"))
    path.write_bytes(b"[\n" + good(1) + b",\n" + big + b"\n]")
    items = list(read_records(path, limits=limits))
    assert items[0] == RawRecord(2, good(1))
    assert isinstance(items[1], Refused) and items[1].line == 3
    assert items[1].message.startswith("element 1 of the array: refused: the record is")


def test_json_last_element_cut_short_before_the_closing_bracket(tmp_path: Path) -> None:
    """``[a, b, {... ]``: the ``]`` closes the array, not the open object, so the element
    is refused alone and the file is not reported as broken."""
    path = tmp_path / "last.json"
    cut = good(2)[:-1]
    path.write_bytes(b"[" + good(0) + b",\n" + good(1) + b",\n" + cut + b"]\n")
    items = list(read_records(path))
    assert items[:2] == [RawRecord(1, good(0)), RawRecord(2, good(1))]
    (bad,) = items[2:]
    assert isinstance(bad, Refused) and (bad.line, bad.raw, bad.code) == (3, cut, "BAD_JSON")
    assert bad.message.startswith("element 2 of the array is not valid JSON")


def test_json_wrong_closing_bracket_inside_an_element_keeps_the_next_ones(tmp_path: Path) -> None:
    """A ``]`` closing an object mid-array is a typo inside that element: the comma after
    it still ends the element, and the elements after it are read."""
    path = tmp_path / "typo.json"
    typo = good(1)[:-1] + b"]"
    path.write_bytes(b"[" + b",\n".join([good(0), typo, good(2), good(3)]) + b"]")
    items = list(read_records(path))
    assert kinds(items) == ["RawRecord", "Refused", "RawRecord", "RawRecord"]
    assert items[1].raw == typo and [i.line for i in items] == [1, 2, 3, 4]
