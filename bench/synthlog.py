"""Synthetic ``mjlog/1`` records for benchmarks and examples.

Each ``hk-mahjongo`` hand deals a shuffled 136-tile wall as the rules deal it (4 tiles
each, three times round, then 1 each; the dealer's 14th tile is the first draw) and lets
the players draw and discard until the wall is empty, then records an exhaustive draw.
Every hand is legal, so the dealer never changes. The records have realistic size and
event counts (about 170 events per hand); the bots do not try to win, so this is not the
club simulator (``mjaudit simulate``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import msgspec
import zstandard
from mjaudit.parts.schemas.tiles import PLAYING_TILES

PLAYERS = [f"player{i:02d}" for i in range(12)]
RESERVED_TAIL = 0  # hk-mahjongo draws the whole wall


def hand(
    rng: random.Random, game_id: str, hand_no: int, players: list[str], start: datetime
) -> dict[str, Any]:
    wall = [t for t in PLAYING_TILES for _ in range(4)]
    rng.shuffle(wall)
    dealer = 0  # every hand is an exhaustive draw, so the dealer stays
    hands: list[list[str]] = [[] for _ in range(4)]
    pos = 0
    for size in (4, 4, 4, 1):
        for seat_offset in range(4):
            hands[(dealer + seat_offset) % 4].extend(wall[pos : pos + size])
            pos += size
    start_hands = [list(h) for h in hands]
    events: list[dict[str, Any]] = []
    seat = dealer
    while len(wall) - pos > RESERVED_TAIL:
        tile = wall[pos]
        pos += 1
        events.append({"type": "draw", "seat": seat, "tile": tile})
        hands[seat].append(tile)
        out = hands[seat].pop(rng.randrange(len(hands[seat])))
        events.append({"type": "discard", "seat": seat, "tile": out})
        seat = (seat + 1) % 4
    events.append({"type": "exhaustive_draw"})
    return {
        "format": "mjlog/1",
        "game_id": game_id,
        "hand_no": hand_no,
        "ruleset": "hk-mahjongo",
        "started_at": (start + timedelta(minutes=12 * hand_no)).isoformat(),
        "venue": "Synthetic Club",
        "table": f"T{rng.randint(1, 6)}",
        "players": players,
        "dealer": dealer,
        "prevailing_wind": "E",
        "wall": wall,
        "start_hands": start_hands,
        "events": events,
        "result": {"winners": [], "fan": 0, "deltas": [0, 0, 0, 0]},
    }


def records(
    n_hands: int, seed: int = 1, hands_per_game: int = 16, games_per_day: int = 3
) -> Iterator[dict[str, Any]]:
    """``games_per_day``: 3 is a club table (the default the tests use); the scale
    benchmark dates its hands at an online table's pace."""
    rng = random.Random(seed)
    base = datetime(2026, 1, 1, 19, 0, tzinfo=timezone(timedelta(hours=7)))
    for i in range(n_hands):
        g, h = divmod(i, hands_per_game)
        if h == 0:
            players = rng.sample(PLAYERS, 4)
            start = base + timedelta(days=g // games_per_day)
        yield hand(rng, f"synth-{seed}-{g:06d}", h + 1, players, start)


def write_jsonl(path: str, n_hands: int, seed: int = 1, games_per_day: int = 3) -> int:
    """Write ``n_hands`` records to ``path`` (zstd-compressed if it ends in ``.zst``);
    return the bytes of JSON Lines written (before compression)."""
    enc = msgspec.json.Encoder()
    size = 0
    with open(path, "wb") as raw:
        f = zstandard.ZstdCompressor(level=3).stream_writer(raw) if path.endswith(".zst") else raw
        with f:
            for rec in records(n_hands, seed, games_per_day=games_per_day):
                line = enc.encode(rec) + b"\n"
                f.write(line)
                size += len(line)
    return size
