"""A real game for the service tests of a ruleset with no simulator: riichi's first
shipped Tenhou log (tests/data/riichi, see its README), read by the importer."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from mjaudit.parts.ingest.riichi_logs import ImportedRecord, read, sniff

GAME = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "riichi"
    / "mjx"
    / ("2010081709gm-00a9-0000-fe3371ad.mjlog")
)


@cache
def _records() -> tuple[dict[str, Any], ...]:
    fmt = sniff(GAME)
    assert fmt is not None, GAME
    items = list(read(GAME, fmt))
    assert all(isinstance(i, ImportedRecord) for i in items), items
    return tuple(i.record for i in items if isinstance(i, ImportedRecord))


def real_game(ruleset: str) -> list[dict[str, Any]]:
    """The game's hand records, in order (each a fresh copy: tests may change them)."""
    assert ruleset == "riichi", f"no real game kept for {ruleset}"
    return [dict(r) for r in _records()]
