"""A content fingerprint of a data folder's tables: rows per table and a hash of its rows
in sorted order, so a test can check that a conversion kept every row (and no more)."""

from __future__ import annotations

import hashlib
import json

import polars as pl


def table_fingerprint(frame: pl.DataFrame) -> dict[str, object]:
    """Rows and a SHA-256 over the rows as sorted JSON lines (column order by name)."""
    frame = frame.select(sorted(frame.columns))
    lines = sorted(json.dumps(row, sort_keys=True, default=str) for row in frame.to_dicts())
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    return {"rows": frame.height, "sha256": digest}
