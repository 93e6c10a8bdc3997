"""Mutated inputs for the hardening tests and ``bench/fuzz.py``: log files built from valid
records (``bench/synthlog.py`` and small hand-written ones) with byte flips, truncations,
duplications and random JSON values substituted, and mutated club score sheets; and the
checks that an ingest or a ``mjaudit check`` of them must pass.

Good records (kept unchanged) have game ids starting with ``good-☃``; every mutated record
has its game id changed to start with ``mut-`` first, so a mutant can never take a good
record's key (a byte flip cannot turn ``mut-`` into ``good-☃``).
"""

from __future__ import annotations

import copy
import gzip
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import zstandard
from hypothesis import strategies as st
from mjaudit.parts.ingest.pipeline import IngestSummary, ingest
from mjaudit.parts.ingest.store import DataDir

from bench.synthlog import records as synth_records
from tests.ingest.ingest_helpers import record as small_record

GOOD = "good-☃"


def _bases() -> list[dict[str, Any]]:
    small = small_record(game_id="x")
    synth = list(synth_records(2, seed=7))
    return [small, *synth]


BASES = _bases()
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path into ``obj`` (dict keys and list indexes)."""
    out: list[tuple[Any, ...]] = []
    items = (
        obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
    )
    for k, v in items:
        out.append((*prefix, k))
        if len(out) < 400:
            out.extend(_paths(v, (*prefix, k)))
    return out


def _set(obj: Any, path: tuple[Any, ...], value: Any, delete: bool) -> None:
    for k in path[:-1]:
        obj = obj[k]
    if delete:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


@st.composite
def mutated_line(draw: st.DrawFn, n: int) -> bytes:
    """One mutated JSON line (no newline) derived from a valid record."""
    rec = copy.deepcopy(draw(st.sampled_from(BASES)))
    rec["game_id"] = f"mut-{n}"
    kind = draw(
        st.sampled_from(["substitute", "delete", "insert", "flip", "truncate", "dup", "nul"])
    )
    if kind in ("substitute", "delete"):
        paths = _paths(rec)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        _set(rec, path, draw(JSON_VALUES), delete=kind == "delete")
    elif kind == "insert":
        rec[draw(st.text(max_size=8))] = draw(JSON_VALUES)
    raw = json.dumps(rec, ensure_ascii=draw(st.booleans())).encode()
    if kind == "flip":
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(raw) - 1))
            raw = raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1 :]
    elif kind == "truncate":
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    elif kind == "dup":
        a = draw(st.integers(0, len(raw)))
        b = draw(st.integers(a, min(len(raw), a + 64)))
        raw = raw[:b] + raw[a:b] + raw[b:]
    elif kind == "nul":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + b"\x00" + raw[at:]
    return raw.replace(b"\n", b" ")


@dataclass
class LogCase:
    lines: list[bytes]
    good: dict[int, str] = field(default_factory=dict)  # line number -> game_id of a good record
    suffix: str = ".jsonl"
    damage: tuple[str, int, int] | None = None  # on the compressed bytes: (kind, at, value)

    def content(self) -> bytes:
        data = b"".join(ln + b"\n" for ln in self.lines)
        if self.suffix == ".jsonl.gz":
            data = gzip.compress(data, 6, mtime=0)
        elif self.suffix == ".jsonl.zst":
            data = zstandard.ZstdCompressor().compress(data)
        if self.damage and data:
            kind, at, value = self.damage
            at %= len(data)
            data = (
                data[:at]
                if kind == "cut"
                else data[:at] + bytes([data[at] ^ value]) + data[at + 1 :]
            )
        return data

    @property
    def intact(self) -> bool:
        return self.damage is None


@st.composite
def log_cases(draw: st.DrawFn, max_lines: int = 8) -> LogCase:
    """A log file: good records, mutated ones, whole-line duplicates and blank lines."""
    case = LogCase([])
    for i in range(draw(st.integers(1, max_lines))):
        choice = draw(st.sampled_from(["good", "mutant", "mutant", "dup", "blank"]))
        if choice == "good" or (choice == "dup" and not case.lines):
            rec = copy.deepcopy(draw(st.sampled_from(BASES)))
            rec["game_id"] = f"{GOOD}-{i}"
            case.lines.append(json.dumps(rec, ensure_ascii=False).encode())
            case.good[len(case.lines)] = rec["game_id"]
        elif choice == "mutant":
            case.lines.append(draw(mutated_line(i)))
        elif choice == "dup":
            case.lines.append(case.lines[draw(st.integers(0, len(case.lines) - 1))])
        else:
            case.lines.append(draw(st.sampled_from([b"", b"   ", b"\r"])))
    case.suffix = draw(st.sampled_from([".jsonl", ".jsonl", ".jsonl.gz", ".jsonl.zst"]))
    if draw(st.integers(0, 3)) == 0:
        case.damage = (
            draw(st.sampled_from(["cut", "flip"])),
            draw(st.integers(0, 10**6)),
            draw(st.integers(1, 255)),
        )
    return case


SHEET = """2026-03-01
B=2 M=6 R=half S=half
An Binh Chi Dung
1 - - -
- 2 d -
- - 6 S
- - - f
- - - -
2026-03-02
An Binh Chi Dung
- 3 - D
"""
SHEET_CSV = (
    "date,player1,player2,player3,player4,result1,result2,result3,result4,base,max_fan,"
    "responsibility,rise\n"
    "2026-03-01,A,B,C,D,1,-,-,-,2,6,half,half\n"
    "2026-03-01,A,B,C,D,-,2,d,-,2,6,half,half\n"
    "2026-03-01,A,B,C,D,-,2,d,d,2,6,half,half\n"
)
SHEET_TOKENS = [
    "-",
    "d",
    "D",
    "S",
    "g",
    "f",
    "1",
    "13",
    "99",
    "x",
    "B=2",
    "M=",
    "R=full",
    "#",
    "*",
    "1.5",
    ",",
    "é",
    "\x00",
    # numbers that once grew memory to 2.3 GB or overflowed the settlement
    "M=16000000000",
    "M=5000",
    "4000",
    "99999999999999999999",
    "B=1e308",
    "B=1e-320",
    "S=spicy",
    "S=HALF",
    "2026-03-01",
]


@st.composite
def sheet_cases(draw: st.DrawFn) -> tuple[str, bytes]:
    """(file name, bytes) of a mutated score sheet, text or CSV."""
    csv = draw(st.booleans())
    lines = (SHEET_CSV if csv else SHEET).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["token", "dup", "drop", "flip", "truncate"]))
        if kind == "token":
            sep = "," if csv else " "
            parts = lines[i].split(sep)
            parts[draw(st.integers(0, len(parts) - 1))] = draw(
                st.sampled_from(SHEET_TOKENS) | st.text(max_size=5)
            )
            lines[i] = sep.join(parts)
        elif kind == "dup":
            lines.insert(i, lines[i])
        elif kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif kind == "flip" and lines[i]:
            at = draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = (
                lines[i][:at]
                + chr(ord(lines[i][at]) ^ draw(st.integers(1, 127)))
                + lines[i][at + 1 :]
            )
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 5)) == 0:
        data = b"\xef\xbb\xbf" + data
    return ("club.csv" if csv else "club-sheet.txt"), data


def check_ingest_log(case: LogCase, folder: Path) -> IngestSummary:
    """Ingest the case's file into a fresh folder and check every promise."""
    path = folder / f"log{case.suffix}"
    path.write_bytes(case.content())
    summary = ingest([str(path)], folder / "data")
    source = str(path.resolve())
    data = DataDir(folder / "data")
    hands = data.read("hands").select(["game_id", "source_line"]).to_pylist()
    quarantine = data.read("quarantine").select(["source_line", "code", "message"]).to_pylist()
    # every record is accounted for: added, skipped as already present, or quarantined
    # (a broken stream is quarantined as one more item, not counted as a record read)
    assert summary.records + len(summary.broken_files) == (
        summary.hands_added + summary.skipped_present + summary.n_quarantined
    )
    assert len(hands) == summary.hands_added and len(quarantine) == summary.n_quarantined
    for q in quarantine:  # a message naming file and line
        assert q["message"].startswith(f"{source}:{q['source_line']}: "), q
    if case.intact:  # every good record is kept, from its own line
        kept = {(h["game_id"], h["source_line"]) for h in hands}
        for line_no, game_id in case.good.items():
            assert (game_id, line_no) in kept, (line_no, game_id, quarantine)
        lines = {q["source_line"] for q in quarantine} | {h["source_line"] for h in hands}
        nonblank = {i for i, ln in enumerate(case.lines, 1) if ln.strip()}
        assert lines <= nonblank
    return summary


def check_cli(runner: Any, app: Any, args: list[str]) -> Any:
    """Run the CLI: it must exit 0/1, never with a traceback."""
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), (result.exit_code, result.output[-2000:], result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    return result


def check_ingest_sheet(name: str, content: bytes, folder: Path) -> IngestSummary:
    path = folder / name
    path.write_bytes(content)
    summary = ingest([str(path)], folder / "data", fmt="hk-sheet")
    source = str(path.resolve())
    quarantine = DataDir(folder / "data").read("quarantine").to_pylist()
    assert summary.records == summary.hands_added + summary.skipped_present + summary.n_quarantined
    n_lines = content.count(b"\n") + 1
    for q in quarantine:
        assert q["message"].startswith(f"{source}:{q['source_line']}: "), q
        assert 1 <= q["source_line"] <= n_lines
    return summary


def compressed_bomb(size: int, suffix: str = ".gz") -> bytes:
    """``size`` zero bytes compressed (gzip: about 1/1000 of the size)."""
    if suffix == ".zst":
        cctx = zstandard.ZstdCompressor()
        return cctx.compress(bytes(size))
    comp = zlib.compressobj(6, zlib.DEFLATED, 31)
    block = bytes(16 << 20)
    out = []
    for _ in range(size // len(block)):
        out.append(comp.compress(block))
    out.append(comp.compress(bytes(size % len(block))))
    out.append(comp.flush())
    return b"".join(out)
