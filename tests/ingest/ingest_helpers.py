"""Builders shared by the ingest tests: small valid records, log files, table counts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import duckdb
from mjaudit.parts.ingest.store import DataDir

TABLES = ("hands", "seats", "events", "recorded_results", "quarantine")

BASE_RECORD: dict[str, Any] = {
    "format": "mjlog/1",
    "game_id": "club-2026-03-01-t1",
    "hand_no": 1,
    "ruleset": "hk-classic",
    "players": ["an", "binh", "chi", "dung"],
    "dealer": 0,
    "prevailing_wind": "E",
    "events": [
        {"type": "draw", "seat": 0, "tile": "5m"},
        {"type": "discard", "seat": 0, "tile": "9p"},
        {"type": "exhaustive_draw"},
    ],
}

DROP = object()
"""Pass as an override value to remove the field from the record."""


def record(**overrides: Any) -> dict[str, Any]:
    """A small valid ``hk-classic`` record; ``field=DROP`` removes a field."""
    rec = copy.deepcopy(BASE_RECORD)
    for key, value in overrides.items():
        if value is DROP:
            rec.pop(key, None)
        else:
            rec[key] = value
    return rec


def line(rec: Any) -> bytes:
    """One JSON Lines line (without the newline)."""
    return json.dumps(rec, ensure_ascii=False).encode()


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(ln + b"\n" for ln in lines))
    return path


def counts(data_dir: Path | str) -> dict[str, int]:
    data = DataDir(data_dir)
    return {t: data.read(t).num_rows for t in TABLES}


def catalog_counts(data_dir: Path | str) -> dict[str, int]:
    con = duckdb.connect(str(Path(data_dir) / "catalog.duckdb"), read_only=True)
    try:
        return {t: con.execute(f'select count(*) from "{t}"').fetchall()[0][0] for t in TABLES}
    finally:
        con.close()


def catalog_query(data_dir: Path | str, sql: str) -> list[tuple]:
    con = duckdb.connect(str(Path(data_dir) / "catalog.duckdb"), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def n_seat_rows(recs: list[dict[str, Any]]) -> int:
    return sum(len(r["players"]) for r in recs)


def n_event_rows(recs: list[dict[str, Any]]) -> int:
    return sum(len(r["events"]) for r in recs)


def n_result_rows(recs: list[dict[str, Any]]) -> int:
    return sum(len(r["players"]) for r in recs if "result" in r)


def expected_counts(recs: list[dict[str, Any]], quarantined: int = 0) -> dict[str, int]:
    return {
        "hands": len(recs),
        "seats": n_seat_rows(recs),
        "events": n_event_rows(recs),
        "recorded_results": n_result_rows(recs),
        "quarantine": quarantined,
    }
