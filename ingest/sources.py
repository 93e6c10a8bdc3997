"""Find log files and stream their records, byte-exact, with line numbers.

Supported: ``.jsonl`` (one record per line), ``.jsonl.gz``, ``.jsonl.zst`` and ``.json``
(one record or an array of records). JSON Lines files are streamed in 1 MiB chunks, so
memory does not grow with the file; a ``.json`` file is read whole (it is one JSON value),
so large archives belong in JSON Lines.

A compressed stream that breaks (truncated or corrupt) ends with a :class:`BrokenStream`
item; every complete line before the break has already been yielded.

Input limits (:class:`Limits`, defaults in :data:`DEFAULT_LIMITS`) keep memory and time
bounded whatever the input:

* ``max_record_bytes`` (64 MiB): a longer line (or ``.json`` element) is not kept in memory;
  it becomes a :class:`Refused` item (``RECORD_TOO_LARGE``) whose ``raw`` is its first
  ``kept_bytes`` (1 MiB), and the message says it was cut.
* ``max_nesting`` (256): a record nested deeper is a :class:`Refused` item
  (``RECORD_TOO_LARGE``) instead of reaching the JSON decoder's recursion limit.
* ``max_decompressed_bytes`` (16 GiB) per compressed file, and ``max_ratio`` (200:1 once
  more than ``ratio_floor`` = 1 MiB came out): past them the file is refused from there
  on, like a broken stream ("refused: decompresses to more than ..."). Compressed input is
  fed to the decompressor in small slices, so one call never returns more than a few
  tens of MiB (a zip bomb cannot fill memory).
"""

from __future__ import annotations

import glob
import itertools
import os
import re
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
# Compressed input is decompressed this many bytes at a time. Deflate expands at most
# ~1032:1 and zstd at most ~32768:1 (an RLE block), so one call yields at most ~4 / 32 MiB.
GZIP_SLICE = 4 << 10
ZSTD_SLICE = 1 << 10


@dataclass(frozen=True, slots=True)
class Limits:
    """Input limits; see the module docstring."""

    max_record_bytes: int = 64 << 20
    kept_bytes: int = 1 << 20
    max_nesting: int = 256
    max_decompressed_bytes: int = 16 << 30
    max_ratio: float = 200.0
    ratio_floor: int = 1 << 20


DEFAULT_LIMITS = Limits()


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


@dataclass(frozen=True, slots=True)
class Refused(BrokenStream):
    """One record refused by a limit (too large, nested too deep); reading goes on after it.

    A :class:`BrokenStream` so that a reader that knows only those still reports it (and
    never parses it); ``code`` is the quarantine code (``RECORD_TOO_LARGE``)."""

    code: str = "RECORD_TOO_LARGE"


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


def _chunks(path: Path, progress: Callable[[int], None], limits: Limits) -> Iterator[bytes]:
    """Decompressed chunks of ``path``; raises :class:`StreamError` where the stream breaks
    or a decompression limit is passed."""
    name = path.name
    factory = _gzip if name.endswith(".gz") else _zstd if name.endswith(".zst") else None
    with open(path, "rb") as f:
        if factory is None:
            while chunk := f.read(CHUNK):
                progress(len(chunk))
                yield chunk
            return
        kind = "gzip" if factory is _gzip else "zstd"
        step = GZIP_SLICE if factory is _gzip else ZSTD_SLICE
        dec = factory()
        started = False
        total_in = total_out = 0
        pending: list[bytes] = []
        pending_size = 0
        while chunk := f.read(CHUNK):
            progress(len(chunk))
            for at in range(0, len(chunk), step):
                piece = chunk[at : at + step]
                total_in += len(piece)
                while piece:
                    saved = dec.copy() if factory is _gzip else None  # type: ignore[attr-defined]
                    try:
                        out = dec.decompress(piece)
                    except (zlib.error, zstandard.ZstdError) as exc:
                        yield from pending
                        if saved is not None:  # keep what decompresses before the bad block
                            yield from _salvage(saved, piece)
                        raise StreamError(f"corrupt {kind} data ({exc})") from None
                    started = True
                    if out:
                        total_out += len(out)
                        problem = _expansion_problem(kind, total_in, total_out, limits)
                        if problem:  # what came out up to the limit is still read
                            yield from pending
                            allowed = _allowed(total_in, limits) - (total_out - len(out))
                            if allowed > 0:
                                yield out[:allowed]
                            raise StreamError(problem)
                        pending.append(out)
                        pending_size += len(out)
                        if pending_size >= CHUNK:
                            yield b"".join(pending) if len(pending) > 1 else pending[0]
                            pending, pending_size = [], 0
                    if dec.eof:  # a new member/frame may follow
                        piece = dec.unused_data
                        dec = factory()
                        started = False
                    else:
                        piece = b""
        if pending:
            yield b"".join(pending)
        if started and not dec.eof:
            raise StreamError(f"{kind} stream is truncated (the file ends in the middle of it)")


def _allowed(total_in: int, limits: Limits) -> int:
    """How many bytes may come out of ``total_in`` compressed bytes."""
    by_ratio = max(limits.ratio_floor, int(limits.max_ratio * total_in))
    return min(limits.max_decompressed_bytes, by_ratio)


def _expansion_problem(kind: str, total_in: int, total_out: int, limits: Limits) -> str | None:
    """Why decompressing must stop here (a decompression limit is passed), or None."""
    if total_out > limits.max_decompressed_bytes:
        return (
            f"refused: the {kind} data decompresses to more than "
            f"{limits.max_decompressed_bytes} bytes (max_decompressed_bytes)"
        )
    if total_out > limits.ratio_floor and total_out > limits.max_ratio * total_in:
        return (
            f"refused: the {kind} data decompresses to more than {total_out} bytes from "
            f"{total_in} (more than {limits.max_ratio:g} times its size: max_ratio); "
            "a compression bomb?"
        )
    return None


def _salvage(dec: _Decompressor, chunk: bytes, step: int = 64) -> Iterator[bytes]:
    """Re-feed a chunk that failed in small steps, yielding the output before the error."""
    for i in range(0, len(chunk), step):
        try:
            out = dec.decompress(chunk[i : i + step])
        except zlib.error:
            return
        if out:
            yield out


# A string, or an unterminated one up to the end: each byte is scanned once (no retries).
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.S)
# After the strings are removed: openers become 1, closers -1 (0xff as a signed byte).
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[{]}")


def nesting_depth(raw: bytes) -> int:
    """How deeply the JSON text ``raw`` nests arrays and objects (brackets in strings
    do not count)."""
    outside = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if not outside:
        return 0
    steps = memoryview(outside.translate(_BRACKETS)).cast("b")
    return max(0, max(itertools.accumulate(steps), default=0))


def screen(line: int, raw: bytes, limits: Limits = DEFAULT_LIMITS) -> RawRecord | Refused:
    """``raw`` as a record, or a :class:`Refused` item if it passes a limit."""
    if len(raw) > limits.max_record_bytes:
        return _too_large(line, raw[: limits.kept_bytes], len(raw), limits)
    # A record cannot nest deeper than it has brackets: the common case costs two counts.
    if raw.count(b"[") + raw.count(b"{") > limits.max_nesting:
        depth = nesting_depth(raw)
        if depth > limits.max_nesting:
            return Refused(
                line,
                raw,
                f"refused: the record nests arrays/objects {depth} levels deep "
                f"(expected at most {limits.max_nesting}: max_nesting)",
            )
    return RawRecord(line, raw)


def _too_large(line: int, head: bytes, size: int, limits: Limits) -> Refused:
    return Refused(
        line,
        head,
        f"refused: the record is {size} bytes, more than the limit of "
        f"{limits.max_record_bytes} bytes (max_record_bytes); it was cut: the raw kept in "
        f"quarantine is its first {len(head)} bytes",
    )


class _Line:
    """The line being assembled from chunks; past the limit only its head is kept."""

    __slots__ = ("limits", "parts", "size")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.parts: list[bytes] = []
        self.size = 0

    def add(self, piece: bytes) -> None:
        limit = self.limits.max_record_bytes
        if self.size > limit:  # already cut: count, keep nothing more
            self.size += len(piece)
            return
        self.size += len(piece)
        self.parts.append(piece)
        if self.size > limit:
            keep = self.limits.kept_bytes
            self.parts = [b"".join(p[:keep] for p in self._head(keep))]

    def _head(self, keep: int) -> Iterator[bytes]:
        left = keep
        for p in self.parts:
            if left <= 0:
                return
            yield p[:left]
            left -= len(p)

    def take(self, line: int) -> RawRecord | Refused | None:
        """The finished line as a record (None if blank); start a new one."""
        parts, size = self.parts, self.size
        self.parts, self.size = [], 0
        if size > self.limits.max_record_bytes:
            return _too_large(line, parts[0], size, self.limits)
        raw = parts[0] if len(parts) == 1 else b"".join(parts)
        if not raw.strip():
            return None
        return screen(line, raw, self.limits)

    @property
    def head(self) -> bytes:
        return b"".join(self.parts)[: self.limits.kept_bytes]


def read_records(
    path: Path,
    progress: Callable[[int], None] = lambda n: None,
    limits: Limits = DEFAULT_LIMITS,
) -> Iterator[RawRecord | BrokenStream]:
    """The records of one log file, in order (see the module docstring for the limits)."""
    if path.name.endswith(".json"):
        yield from _json_records(path, progress, limits)
        return
    line_no = 0
    current = _Line(limits)
    first = True
    try:
        for chunk in _chunks(path, progress, limits):
            if first:
                if len(chunk) < len(BOM) and BOM.startswith(chunk):
                    current.add(chunk)  # too short to tell yet; looked at below
                    continue
                first = False
                if current.size:
                    chunk = b"".join(current.parts) + chunk
                    current = _Line(limits)
                if chunk.startswith(BOM):
                    chunk = chunk[len(BOM) :]
            lines = chunk.split(b"\n")
            last = lines.pop()
            for piece in lines:
                line_no += 1
                current.add(piece)
                item = current.take(line_no)
                if item is not None:
                    yield item
            if last:
                current.add(last)
    except StreamError as exc:
        yield BrokenStream(
            line_no + 1, current.head, f"{exc}; the {line_no} lines before it were read"
        )
        return
    if first and current.size and bytes(current.head) == BOM[: current.size]:
        return  # the file is only (part of) a byte order mark
    item = current.take(line_no + 1)
    if item is not None:
        yield item


def _json_records(
    path: Path, progress: Callable[[int], None], limits: Limits
) -> Iterator[RawRecord | BrokenStream]:
    data = path.read_bytes()
    progress(len(data))
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.lstrip().startswith(b"["):
        yield screen(1 + data[: len(data) - len(data.lstrip())].count(b"\n"), data.strip(), limits)
        return
    if data.count(b"[") + data.count(b"{") > limits.max_nesting and (
        nesting_depth(data) > limits.max_nesting + 1  # the array itself is one level
    ):
        yield screen(1, data, limits)
        return
    try:
        items = msgspec.json.decode(data, type=list[msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        yield screen(1, data, limits)  # not valid JSON as a whole: quarantined as one record
        return
    # Each element's bytes are found in order after the previous one, so identical
    # elements get their own positions; the line is where the element starts.
    search_from = last = 0
    line = 1
    for item in items:
        raw = bytes(item)
        at = data.find(raw, search_from)
        line += data.count(b"\n", last, at)
        yield screen(line, raw, limits)
        last, search_from = at, at + len(raw)
