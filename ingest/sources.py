"""Find log files and stream their records, byte-exact, with line numbers.

Supported: ``.jsonl`` (one record per line), ``.jsonl.gz``, ``.jsonl.zst`` and ``.json``
(one record or an array of records). JSON Lines files are streamed in 1 MiB chunks, so
memory does not grow with the file; a ``.json`` file is read whole (it is one JSON value),
so large archives belong in JSON Lines.

A compressed stream that breaks (truncated or corrupt) ends with a :class:`BrokenStream`
item; every complete line before the break has already been yielded.
"""

from __future__ import annotations

import glob
import os
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import msgspec
import zstandard

SUFFIXES = (".jsonl", ".jsonl.gz", ".jsonl.zst", ".json")
SHEET_SUFFIXES = (".txt", ".sheet", ".csv")  # club score sheets (ingest/sheets.py)
# The simulator's sidecar of planted-violation labels: not hand records, skipped in folders.
LABELS_SUFFIX = ".labels.jsonl"
CHUNK = 1 << 20
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class RawRecord:
    line: int
    raw: bytes


@dataclass(frozen=True, slots=True)
class BrokenStream:
    """The file could not be read past ``line``; ``raw`` is the incomplete last line, if any."""

    line: int
    raw: bytes
    message: str


class NoInput(ValueError):
    """A path argument matched no log file."""


def is_log_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


def is_sheet_file(path: Path) -> bool:
    return path.name.endswith(SHEET_SUFFIXES)


def expand_paths(args: list[str], any_named_file: bool = False) -> list[Path]:
    """Files, folders (searched recursively) and glob patterns, sorted and de-duplicated.

    Sorting makes an ingest independent of the order the paths were given in.
    """
    found: set[Path] = set()
    for arg in args:
        path = Path(arg)
        if path.is_dir():
            matches = [
                p
                for p in path.rglob("*")
                if p.is_file()
                and (is_log_file(p) or is_sheet_file(p))
                and not p.name.endswith(LABELS_SUFFIX)
            ]
        elif path.is_file():
            matches = [path]
        else:
            matches = [Path(p) for p in glob.glob(arg, recursive=True) if Path(p).is_file()]
            if not matches:
                raise NoInput(f"{arg}: no such file, folder or matching glob")
        for p in matches:
            if not (is_log_file(p) or is_sheet_file(p) or (any_named_file and path.is_file())):
                if path.is_file():
                    raise NoInput(
                        f"{arg}: not a log or sheet file (expected one of "
                        f"{', '.join(SUFFIXES + SHEET_SUFFIXES)}, or pass --format hk-sheet)"
                    )
                continue
            found.add(Path(os.path.normpath(p)))
    return sorted(found)


class _Decompressor(Protocol):
    eof: bool
    unused_data: bytes

    def decompress(self, data: bytes) -> bytes: ...


def _gzip() -> _Decompressor:
    return zlib.decompressobj(wbits=31)  # type: ignore[return-value]


def _zstd() -> _Decompressor:
    return zstandard.ZstdDecompressor().decompressobj()  # type: ignore[return-value]


class StreamError(Exception):
    pass


def _chunks(path: Path, progress: Callable[[int], None]) -> Iterator[bytes]:
    """Decompressed chunks of ``path``; raises :class:`StreamError` where the stream breaks."""
    name = path.name
    factory = _gzip if name.endswith(".gz") else _zstd if name.endswith(".zst") else None
    with open(path, "rb") as f:
        if factory is None:
            while chunk := f.read(CHUNK):
                progress(len(chunk))
                yield chunk
            return
        kind = "gzip" if factory is _gzip else "zstd"
        dec = factory()
        started = False
        while chunk := f.read(CHUNK):
            progress(len(chunk))
            while chunk:
                saved = dec.copy() if factory is _gzip else None  # type: ignore[attr-defined]
                try:
                    out = dec.decompress(chunk)
                except (zlib.error, zstandard.ZstdError) as exc:
                    if saved is not None:  # keep what decompresses before the bad block
                        yield from _salvage(saved, chunk)
                    raise StreamError(f"corrupt {kind} data ({exc})") from None
                started = True
                if out:
                    yield out
                if dec.eof:  # a new member/frame may follow
                    chunk = dec.unused_data
                    dec = factory()
                    started = False
                else:
                    chunk = b""
        if started and not dec.eof:
            raise StreamError(f"{kind} stream is truncated (the file ends in the middle of it)")


def _salvage(dec: _Decompressor, chunk: bytes, step: int = 64) -> Iterator[bytes]:
    """Re-feed a chunk that failed in small steps, yielding the output before the error."""
    for i in range(0, len(chunk), step):
        try:
            out = dec.decompress(chunk[i : i + step])
        except zlib.error:
            return
        if out:
            yield out


def read_records(
    path: Path, progress: Callable[[int], None] = lambda n: None
) -> Iterator[RawRecord | BrokenStream]:
    """The records of one log file, in order."""
    if path.name.endswith(".json"):
        yield from _json_records(path, progress)
        return
    line_no = 0
    pending = b""
    try:
        for chunk in _chunks(path, progress):
            if line_no == 0 and not pending and chunk.startswith(BOM):
                chunk = chunk[len(BOM) :]
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            for line in lines:
                line_no += 1
                if line.strip():
                    yield RawRecord(line_no, line)
    except StreamError as exc:
        yield BrokenStream(line_no + 1, pending, f"{exc}; the {line_no} lines before it were read")
        return
    if pending.strip():
        yield RawRecord(line_no + 1, pending)


def _json_records(path: Path, progress: Callable[[int], None]) -> Iterator[RawRecord]:
    data = path.read_bytes()
    progress(len(data))
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.lstrip().startswith(b"["):
        yield RawRecord(1 + data[: len(data) - len(data.lstrip())].count(b"\n"), data.strip())
        return
    try:
        items = msgspec.json.decode(data, type=list[msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError):
        yield RawRecord(1, data)  # not valid JSON as a whole: quarantined as one record
        return
    # Each element's bytes are found in order after the previous one, so identical
    # elements get their own positions; the line is where the element starts.
    search_from = last = 0
    line = 1
    for item in items:
        raw = bytes(item)
        at = data.find(raw, search_from)
        line += data.count(b"\n", last, at)
        yield RawRecord(line, raw)
        last, search_from = at, at + len(raw)
