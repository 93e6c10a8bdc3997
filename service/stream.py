"""Findings fanned out to the referee screens watching a table.

Each screen (a WebSocket) gets its own bounded queue; a screen too slow to keep up loses
its oldest messages, never the table's posts' time (a post never waits for a screen).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

QUEUE = 1000  # messages a screen may lag behind before the oldest are dropped


class Hub:
    def __init__(self) -> None:
        self._screens: defaultdict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)

    def watch(self, table: str) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE)
        self._screens[table].add(queue)
        return queue

    def leave(self, table: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self._screens[table].discard(queue)
        if not self._screens[table]:
            del self._screens[table]

    def publish(self, table: str, message: dict[str, Any]) -> None:
        for queue in self._screens.get(table, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)
