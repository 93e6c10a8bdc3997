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
* ``max_ratio`` (200:1 past ``ratio_floor`` = 1 MiB) is judged per record and over the
  rest of the file. A record that decompresses to more than ``ratio_floor`` at more than
  ``max_ratio`` times the compressed bytes it came from is refused (``RECORD_TOO_LARGE``,
  its first ``kept_bytes`` kept) as soon as that is seen; the reader keeps only a count
  of it up to its end and goes on with the next line. The other lines of the file are
  judged together, the refused ones left out: past ``max_ratio`` (a bomb of endless small
  lines, each of which would be a quarantine row) the file is refused from there on, like
  a broken stream ("refused: ... decompresses to more than ...").
* ``max_decompressed_bytes`` (16 GiB) per compressed file, every byte counted (a refused
  record's too): past it the file is refused from there on, like a broken stream. This is
  what ends a bomb of one endless line: its head is kept, the rest only counted.

Compressed input is fed to the decompressor in small slices, so one call never returns
more than a few tens of MiB, and each call's output carries the compressed bytes it came
from, so a record's ratio is known to within a slice.

A ``.json`` array is decoded whole when it is valid; otherwise element by element, so one
bad element (not valid JSON, too large, nested too deep, cut short) is quarantined alone
with its index (counted from 0) and line, and the other elements are read. What cannot be
read (the array's end missing, content after it) is quarantined too.
"""

from __future__ import annotations

import functools
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
RIICHI_SUFFIXES = (".mjlog", ".xml")  # Tenhou mjlog XML (ingest/tenhou_xml.py)
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
    """One record refused by a limit (too large, nested too deep, decompresses too much) or,
    in a ``.json`` array, one element that is not valid JSON; reading goes on after it.

    A :class:`BrokenStream` so that a reader that knows only those still reports it (and
    never parses it); ``code`` is the quarantine code (``RECORD_TOO_LARGE``, ``BAD_JSON``)."""

    code: str = "RECORD_TOO_LARGE"


class NoInput(ValueError):
    """A path argument matched no log file."""


def is_log_file(path: Path) -> bool:
    return path.name.endswith(SUFFIXES)


def is_sheet_file(path: Path) -> bool:
    return path.name.endswith(SHEET_SUFFIXES)


def is_riichi_file(path: Path) -> bool:
    return path.name.endswith(RIICHI_SUFFIXES)


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
                and (is_log_file(p) or is_sheet_file(p) or is_riichi_file(p))
                and not p.name.endswith(LABELS_SUFFIX)
            ]
        elif path.is_file():
            matches = [path]
        else:
            matches = [Path(p) for p in glob.glob(arg, recursive=True) if Path(p).is_file()]
            if not matches:
                raise NoInput(f"{arg}: no such file, folder or matching glob")
        for p in matches:
            if not (
                is_log_file(p)
                or is_sheet_file(p)
                or is_riichi_file(p)
                or (any_named_file and path.is_file())
            ):
                if path.is_file():
                    raise NoInput(
                        f"{arg}: not a log or sheet file (expected one of "
                        f"{', '.join(SUFFIXES + SHEET_SUFFIXES + RIICHI_SUFFIXES)}, or pass --format)"
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


def _kind(path: Path) -> str | None:
    """The compression of ``path`` ("gzip", "zstd"), or None for a plain file."""
    return "gzip" if path.name.endswith(".gz") else "zstd" if path.name.endswith(".zst") else None


class StreamError(Exception):
    pass


def _chunks(
    path: Path, progress: Callable[[int], None], limits: Limits
) -> Iterator[tuple[bytes, float]]:
    """Decompressed chunks of ``path``, each with the compressed bytes it came from (a
    plain file's chunks cost their length); raises :class:`StreamError` where the stream
    breaks or ``max_decompressed_bytes`` is passed.

    A compressed chunk is the output of one decompressor call (not joined with the next),
    so that the ratio of every record is known to within one slice of compressed input."""
    kind = _kind(path)
    with open(path, "rb") as f:
        if kind is None:
            while chunk := f.read(CHUNK):
                progress(len(chunk))
                yield chunk, float(len(chunk))
            return
        factory = _gzip if kind == "gzip" else _zstd
        step = GZIP_SLICE if kind == "gzip" else ZSTD_SLICE
        dec = factory()
        started = False
        total_out = 0
        owed = 0  # compressed bytes read by calls that gave no output yet
        while chunk := f.read(CHUNK):
            progress(len(chunk))
            for at in range(0, len(chunk), step):
                piece = chunk[at : at + step]
                while piece:
                    saved = dec.copy() if kind == "gzip" else None  # type: ignore[attr-defined]
                    try:
                        out = dec.decompress(piece)
                    except (zlib.error, zstandard.ZstdError) as exc:
                        if saved is not None:  # keep what decompresses before the bad block
                            rescued = b"".join(_salvage(saved, piece))
                            if rescued:
                                yield rescued, float(owed + len(piece))
                        raise StreamError(f"corrupt {kind} data ({exc})") from None
                    started = True
                    owed += len(piece) - (len(dec.unused_data) if dec.eof else 0)
                    if out:
                        total_out += len(out)
                        if total_out > limits.max_decompressed_bytes:
                            allowed = len(out) - (total_out - limits.max_decompressed_bytes)
                            if allowed > 0:  # what came out up to the limit is still read
                                yield out[:allowed], owed * allowed / len(out)
                            raise StreamError(
                                f"refused: the {kind} data decompresses to more than "
                                f"{limits.max_decompressed_bytes} bytes (max_decompressed_bytes)"
                            )
                        yield out, float(owed)
                        owed = 0
                    if dec.eof:  # a new member/frame may follow
                        piece = dec.unused_data
                        dec = factory()
                        started = False
                    else:
                        piece = b""
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
    """The line being assembled from chunks, and the ratio accounting of its file.

    A line past ``max_record_bytes``, or (compressed files) past ``ratio_floor`` at more
    than ``max_ratio`` times its compressed cost, is cut: only its first ``kept_bytes``
    are kept, the rest is counted, so a bomb of one endless line holds about 1 MiB.
    ``judged_out``/``judged_in`` sum the finished lines not refused for their own ratio:
    past the ratio together (endless small lines) the file is refused from there on, and
    one refused record does not count against the records after it."""

    __slots__ = (
        "cost",
        "cut",
        "held",
        "judged_in",
        "judged_out",
        "kind",
        "limits",
        "parts",
        "ratio_cut",
        "size",
    )

    def __init__(self, limits: Limits, kind: str | None = None) -> None:
        self.limits = limits
        self.kind = kind  # the compression, None for a plain file (no ratio to judge)
        self.judged_out = 0
        self.judged_in = 0.0
        self._reset()

    def _reset(self) -> None:
        self.parts: list[bytes] = []
        self.held = 0  # bytes in parts
        self.size = 0  # bytes of the line, kept or not
        self.cost = 0.0  # compressed bytes they came from
        self.cut = False  # only the head is kept
        self.ratio_cut: tuple[int, float] | None = None  # (size, cost) when cut for its ratio

    def add(self, piece: bytes, cost: float = 0.0) -> None:
        self.size += len(piece)
        self.cost += cost
        limits = self.limits
        if self.cut:  # keep the head up to kept_bytes, count the rest
            room = limits.kept_bytes - self.held
            if room > 0:
                self.parts.append(piece[:room])
                self.held += min(room, len(piece))
            return
        self.parts.append(piece)
        self.held += len(piece)
        if self.size > limits.max_record_bytes:
            self._keep_head()
        elif (
            self.kind is not None
            and self.size > limits.ratio_floor
            and self.size > limits.max_ratio * self.cost
        ):
            self.ratio_cut = (self.size, self.cost)
            self._keep_head()

    def _keep_head(self) -> None:
        head = b"".join(self._head(self.limits.kept_bytes))
        self.parts, self.held, self.cut = [head], len(head), True

    def _head(self, keep: int) -> Iterator[bytes]:
        left = keep
        for p in self.parts:
            if left <= 0:
                return
            yield p[:left]
            left -= len(p)

    def take(self, line: int) -> RawRecord | Refused | None:
        """The finished line as a record (None if blank); start a new one. Raises
        :class:`StreamError` (the line still held, for the message) if the file's lines
        together pass the ratio limit with it."""
        size, cost, limits = self.size, self.cost, self.limits
        if self.kind is not None:
            own = self.ratio_cut is not None or (
                size > limits.ratio_floor and size > limits.max_ratio * cost
            )
            if not own:
                out, spent = self.judged_out + size + 1, self.judged_in + cost
                if out > limits.ratio_floor and out > limits.max_ratio * spent:
                    raise StreamError(
                        f"refused: the {self.kind} data decompresses to more than {out} bytes "
                        f"from {round(spent)} (more than {limits.max_ratio:g} times its size: "
                        "max_ratio; records refused for their own ratio not counted); "
                        "a compression bomb?"
                    )
                self.judged_out, self.judged_in = out, spent
        parts, ratio_cut, cut = self.parts, self.ratio_cut, self.cut
        self._reset()
        raw = parts[0] if len(parts) == 1 else b"".join(parts)
        if ratio_cut is not None:
            return self._too_compressible(line, raw, size, ratio_cut)
        if cut:
            return _too_large(line, raw, size, limits)
        if not raw.strip():
            return None
        return screen(line, raw, limits)

    def _too_compressible(
        self, line: int, head: bytes, size: int, at: tuple[int, float]
    ) -> Refused:
        return Refused(
            line,
            head,
            f"refused: the record decompresses to more than {at[0]} bytes from about "
            f"{max(1, round(at[1]))} bytes of {self.kind} data (more than "
            f"{self.limits.max_ratio:g} times its size: max_ratio); a compression bomb? It "
            f"is {size} bytes; it was cut: the raw kept in quarantine is its first "
            f"{len(head)} bytes",
        )

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
    current = _Line(limits, _kind(path))
    first = True
    held, held_cost = b"", 0.0  # the file's first bytes while they may be a BOM
    try:
        for chunk, cost in _chunks(path, progress, limits):
            if first:
                chunk, cost = held + chunk, held_cost + cost
                if len(chunk) < len(BOM) and BOM.startswith(chunk):
                    held, held_cost = chunk, cost  # too short to tell yet
                    continue
                first = False
                if chunk.startswith(BOM):
                    chunk = chunk[len(BOM) :]
                    if not chunk:
                        continue
            per_byte = cost / len(chunk)
            lines = chunk.split(b"\n")
            last = lines.pop()
            for piece in lines:
                current.add(piece, (len(piece) + 1) * per_byte)
                item = current.take(line_no + 1)
                line_no += 1
                if item is not None:
                    yield item
            if last:
                current.add(last, len(last) * per_byte)
        if first:
            return  # empty, or only (part of) a byte order mark
        item = current.take(line_no + 1)
    except StreamError as exc:
        yield BrokenStream(
            line_no + 1, current.head, f"{exc}; the {line_no} lines before it were read"
        )
        return
    if item is not None:
        yield item


# -- .json files ------------------------------------------------------------------------

_WS = b" \t\r\n"
_SPACE = re.compile(rb"[ \t\r\n]*")
# Strings (or one unterminated up to the end: no closing group) and structural bytes.
_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:(")|\\?\Z)|[\[\]{},]', re.S)
# An object's opening up to its first key: the records of a file start alike, which is
# how the element after one cut short is found.
_FIRST_KEY = re.compile(rb'\{[ \t\r\n]*("(?:[^"\\]|\\.){0,64}")[ \t\r\n]*:', re.S)
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_QUOTE, _COMMA, _OPEN, _CLOSE, _OPEN_OBJECT, _NEWLINE = b'",[]{\n'


def _json_records(
    path: Path, progress: Callable[[int], None], limits: Limits
) -> Iterator[RawRecord | BrokenStream]:
    data = path.read_bytes()
    progress(len(data))
    if data.startswith(BOM):
        data = data[len(BOM) :]
    start = _skip_ws(data, 0)
    if data[start : start + 1] != b"[":
        yield screen(1 + data.count(b"\n", 0, start), data.strip(), limits)
        return
    try:
        items = msgspec.json.decode(data, type=list[msgspec.Raw])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        # Not valid as a whole: read it element by element, so that one bad element is
        # quarantined alone.
        yield from _array_elements(data, start, limits)
        return
    # Each element's bytes are found in order after the previous one, so identical
    # elements get their own positions; the line is where the element starts.
    lines = _Lines(data)
    search_from = 0
    for index, item in enumerate(items):
        raw = bytes(item)
        at = data.find(raw, search_from)
        yield _element(index, lines.at(at), raw, limits, valid=True)
        search_from = at + len(raw)


def _skip_ws(data: bytes, pos: int) -> int:
    return _SPACE.match(data, pos).end()  # type: ignore[union-attr]


def _back_ws(data: bytes, end: int, floor: int = 0) -> int:
    """``end`` moved back over the whitespace before it (not below ``floor``)."""
    while end > floor and data[end - 1] in _WS:
        end -= 1
    return end


class _Lines:
    """Line numbers of positions in ``data``, asked for in increasing order."""

    __slots__ = ("data", "line", "pos")

    def __init__(self, data: bytes) -> None:
        self.data, self.pos, self.line = data, 0, 1

    def at(self, pos: int) -> int:
        if pos > self.pos:
            self.line += self.data.count(b"\n", self.pos, pos)
            self.pos = pos
        return self.line


def _element(index: int, line: int, raw: bytes, limits: Limits, valid: bool) -> RawRecord | Refused:
    """Element ``index`` of a ``.json`` array as a record, or refused (by a limit, or as
    not valid JSON unless ``valid`` says it was decoded already), its index named."""
    item = screen(line, raw, limits)
    if isinstance(item, Refused):
        return Refused(line, item.raw, f"element {index} of the array: {item.message}", item.code)
    if not valid:
        problem = _json_problem(raw)
        if problem is not None:
            return Refused(
                line,
                raw,
                f"element {index} of the array is not valid JSON ({problem}); expected "
                "one JSON value (the other elements are read)",
                "BAD_JSON",
            )
    return item


def _json_problem(raw: bytes) -> str | None:
    """Why ``raw`` is not one valid JSON value, or None."""
    try:
        msgspec.json.decode(raw, type=msgspec.Raw)
    except msgspec.DecodeError as exc:
        found = _LONE_SURROGATE.search(raw)
        if found is None:
            return str(exc)
        return (
            f"{exc}: {found.group().decode()} at byte {found.start()} is a lone UTF-16 "
            "surrogate escape; expected a high one followed by a low one, e.g. \\ud83c\\udc04"
        )
    except RecursionError:
        return "nested too deeply to decode"
    return None


def _decodes(view: memoryview) -> bool:
    """Whether ``view`` is one valid JSON value (msgspec stops at the first error, so a
    stretch holding several values costs about the first one)."""
    try:
        msgspec.json.decode(view, type=msgspec.Raw)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


class _Scan:
    """The token scan of one array element from its start, which can stop at a position
    and go on from there later: an element is scanned once however often it is extended.

    Brackets are matched by kind. A closer with no opener of its kind open is stray (the
    element is not balanced); a ``]`` with only objects open ends the element if it is
    the array's final ``]`` (``close``: the element was cut short at the end), else it
    closes those objects (a typo inside the element), so the next comma still ends it."""

    __slots__ = (
        "arrays",
        "balanced",
        "close",
        "data",
        "objects",
        "open",
        "open_string",
        "tokens",
        "waiting",
    )

    def __init__(self, data: bytes, pos: int, close: int) -> None:
        self.data = data
        self.close = close
        self.tokens = _TOKEN.finditer(data, pos)
        self.open = bytearray()  # the openers not closed yet, innermost last
        self.arrays = self.objects = 0  # how many of each are in ``open``
        self.balanced = True  # no closer was stray or closed the wrong kind
        self.open_string = False  # a string runs to the end of the file
        self.waiting: re.Match[bytes] | None = None  # the first token at or past a stop

    def end_before(self, stop: int) -> int | None:
        """The index of the ``,`` or ``]`` that ends the element, if before ``stop``;
        else None (and for good if the file ends inside the element)."""
        data, tokens, opened = self.data, self.tokens, self.open
        m, self.waiting = self.waiting, None
        while True:
            if m is None:
                m = next(tokens, None)
                if m is None:
                    return None
            at = m.start()
            if at >= stop:
                self.waiting = m
                return None
            c = data[at]
            if c == _QUOTE:
                if m.group(1) is None:  # not closed before the end of the file
                    self.open_string = True
                    return None
            elif c == _OPEN:
                opened.append(c)
                self.arrays += 1
            elif c == _OPEN_OBJECT:
                opened.append(c)
                self.objects += 1
            elif c == _COMMA:
                if not opened:
                    return at
            elif c == _CLOSE:
                if self.arrays:
                    self._close_to(_OPEN)
                elif not opened or at == self.close:
                    self.balanced = self.balanced and not opened
                    return at
                else:
                    self._close_to(_OPEN_OBJECT, every=True)
            elif self.objects:  # '}'
                self._close_to(_OPEN_OBJECT)
            else:
                self.balanced = False
            m = None

    def _close_to(self, kind: int, every: bool = False) -> None:
        """Close the innermost opener of ``kind`` (or all of them), and what it holds."""
        opened = self.open
        while opened:
            top = opened.pop()
            if top == _OPEN:
                self.arrays -= 1
            else:
                self.objects -= 1
            if top != kind or every:
                self.balanced = False
            if top == kind and not every:
                return
            if every and not self.objects:
                return

    @property
    def whole(self) -> bool:
        """At the end of the file: whether the element scanned is complete (only what
        follows it is missing)."""
        return not self.open and self.balanced and not self.open_string


def _kept(raw: bytes, limits: Limits) -> tuple[bytes, str]:
    """``raw``, or its head if it is over the record limit, and what to say about it."""
    if len(raw) <= limits.max_record_bytes:
        return raw, ""
    head = raw[: limits.kept_bytes]
    return head, f"; it is {len(raw)} bytes: the raw kept in quarantine is its first {len(head)}"


def _array_elements(data: bytes, start: int, limits: Limits) -> Iterator[RawRecord | BrokenStream]:
    """The elements of the array at ``start`` of a file that is not valid as a whole, one
    at a time, so that a bad one is refused alone.

    An element ends at the ``,`` or ``]`` outside strings at the array's own level. Where
    elements are objects, the stretch up to the next occurrence of the element's first key
    (``{"format":``, the next record's start) is first decoded as one value, in C; the
    token scan is for the elements that fail. An element whose brackets or strings never
    close is cut short where the next element starts (see :func:`_starts_element`); if no
    element follows, the file ends inside it and the rest is quarantined as a broken
    stream. Each stretch of the file is scanned a bounded number of times."""
    n = len(data)
    view = memoryview(data)
    last = _back_ws(data, n) - 1
    close = last if last > start and data[last] == _CLOSE else -1  # the array's final ']'
    lines = _Lines(data)
    index = 0
    pos = start + 1
    comma = -1  # where the comma after the last element is, if that was read last
    while True:
        pos = _skip_ws(data, pos)
        if pos >= n:
            yield BrokenStream(
                lines.at(n),
                b"",
                f"the file ends before the array is closed (expected ']'); the {index} "
                "elements before were read",
            )
            return
        c = data[pos]
        if c == _CLOSE:
            if comma >= 0:
                yield Refused(
                    lines.at(pos),
                    data[comma : pos + 1],
                    f"a ',' after element {index - 1}, the last of the array (expected "
                    "another element before ']')",
                    "BAD_JSON",
                )
            end = pos
            break
        if c == _COMMA:  # commas with no value between: one problem for the run
            run = pos
            while pos < n and data[pos] == _COMMA:
                comma = pos
                pos = _skip_ws(data, pos + 1)
            yield Refused(
                lines.at(run),
                data[run : comma + 1],
                f"an extra ',' before element {index} of the array (expected a JSON value "
                "between commas)",
                "BAD_JSON",
            )
            continue
        line = lines.at(pos)
        first_key = _FIRST_KEY.match(data, pos)
        key = _like(first_key.group(1)) if first_key else None
        nxt = _find(key, data, pos + 1) if key else -1
        end = _quick_end(data, view, pos, nxt if nxt != -1 else close, nxt != -1) if key else -1
        valid = end != -1
        if not valid:
            scan = _Scan(data, pos, close)
            found = scan.end_before(nxt if nxt != -1 else n)
            while found is None and nxt != -1:  # not ended where the next record starts
                after = _find(key, data, nxt + 1)  # type: ignore[arg-type]
                if _starts_element(data, nxt, after, close):
                    break
                nxt = after
                found = scan.end_before(nxt if nxt != -1 else n)
            if found is None and nxt != -1:  # cut short: the next element starts at nxt
                raw, note = _kept(data[pos : _back_ws(data, _before_comma(data, nxt), pos)], limits)
                yield Refused(
                    line,
                    raw,
                    f"element {index} of the array is cut short: a bracket or string in it "
                    f"is not closed before the next element starts on line {lines.at(nxt)} "
                    f"(expected one whole JSON value){note}",
                    "BAD_JSON",
                )
                index += 1
                pos, comma = nxt, -1
                continue
            if found is None and scan.whole:  # only the array's ']' is missing
                yield _element(index, line, data[pos : _back_ws(data, n, pos)], limits, False)
                yield BrokenStream(
                    lines.at(n),
                    b"",
                    f"the file ends before the array is closed (expected ']' after element "
                    f"{index}); the {index + 1} elements before were read",
                )
                return
            if found is None:
                raw, note = _kept(data[pos : _back_ws(data, n, pos)], limits)
                yield BrokenStream(
                    line,
                    raw,
                    f"the file ends inside element {index} of the array (a bracket or string "
                    "in it is not closed; expected the rest of it and the array's ']'); the "
                    f"{index} elements before it were read{note}",
                )
                return
            end = found
        yield _element(index, line, data[pos : _back_ws(data, end, pos)], limits, valid)
        index += 1
        if data[end] == _CLOSE:
            break
        pos, comma = end + 1, end
    rest = _skip_ws(data, end + 1)
    if rest < n:
        raw, note = _kept(data[rest : _back_ws(data, n, rest)], limits)
        yield Refused(
            lines.at(rest),
            raw,
            "unexpected content after the array's closing ']' (expected the end of the "
            f"file){note}",
            "BAD_JSON",
        )


@functools.lru_cache(maxsize=64)
def _like(quoted_key: bytes) -> re.Pattern[bytes]:
    """An object opening with this first key, however spaced."""
    return re.compile(rb"\{[ \t\r\n]*" + re.escape(quoted_key) + rb"[ \t\r\n]*:")


def _find(pattern: re.Pattern[bytes], data: bytes, pos: int) -> int:
    found = pattern.search(data, pos)
    return found.start() if found else -1


def _quick_end(data: bytes, view: memoryview, pos: int, stop: int, sibling: bool) -> int:
    """The end (the ``,`` or ``]``) of the element at ``pos`` if everything before ``stop``
    (the next element's start if ``sibling``, else the array's final ``]``) is that
    element, one valid JSON value, and its separator; else -1."""
    if stop < 0:
        return -1
    end = stop
    if sibling:
        end = _back_ws(data, stop, pos)
        if end <= pos or data[end - 1] != _COMMA:
            return -1
        end -= 1
    return end if _decodes(view[pos : _back_ws(data, end, pos)]) else -1


def _before_comma(data: bytes, at: int) -> int:
    """The position before the separating comma (and whitespace) that precedes ``at``."""
    end = _back_ws(data, at)
    return end - 1 if end and data[end - 1] == _COMMA else end


def _starts_element(data: bytes, at: int, after: int, close: int) -> bool:
    """Whether the object at ``at`` (its first key like the element being read) starts the
    next array element: it follows a comma or a line break, and it is whole, ending at a
    comma or at the array's final ``]`` before the next such object ``after``."""
    before = _back_ws(data, at)
    if data[before - 1] != _COMMA and _NEWLINE not in data[before:at]:
        return False
    scan = _Scan(data, at, close)
    end = scan.end_before(after if after != -1 else len(data))
    return end is not None and scan.balanced and (data[end] == _COMMA or end == close)
