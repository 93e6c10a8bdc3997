"""Build consistent ``american`` mjlog/1 records from a scenario (tests, examples, demos).

A scenario names only the tiles that matter: :class:`RecordBuilder` fills the rest of
each start hand with filler tiles, keeps every hand in step as events are added (so
``discard(seat)`` without a tile throws a filler tile), and lays out a full 152-tile
wall: the deal at its §2 positions, then the draws in order, then the rest. Tiles a
scenario will draw later must be named in ``reserve`` so no hand gets them as filler.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mjaudit.parts.replay.rulesets.american.hand import CALL_SIZES, FULL_SET, PASS_OFFSET
from mjaudit.parts.schemas.tiles import BONUS_TILES, JOKER

N = 4


def tiles(spec: str | list[str]) -> list[str]:
    return spec.split() if isinstance(spec, str) else list(spec)


class RecordBuilder:
    def __init__(
        self,
        hands: dict[int, str] | None = None,
        *,
        dealer: int = 0,
        reserve: str = "",
        card: str = "sample-original-1",
        game_id: str = "american-test",
        hand_no: int = 1,
        players: tuple[str, ...] = ("Ann", "Bob", "Cat", "Dan"),
        east_tiles: int = 14,
    ) -> None:
        self.dealer = dealer
        self.card = card
        self.game_id = game_id
        self.hand_no = hand_no
        self.players = players
        self.pool: Counter[str] = Counter(FULL_SET)
        named = {s: tiles(v) for s, v in (hands or {}).items()}
        for t in [*(t for h in named.values() for t in h), *tiles(reserve)]:
            self._remove(self.pool, t)
        self.reserved: Counter[str] = Counter(tiles(reserve))
        self.hands: list[Counter[str]] = [Counter() for _ in range(N)]
        self.filler: list[Counter[str]] = [Counter() for _ in range(N)]
        self.start: list[list[str]] = []
        for seat in range(N):
            mine = named.get(seat, [])
            size = east_tiles if seat == dealer else 13
            extra = [self._filler_tile() for _ in range(size - len(mine))]
            self.hands[seat].update(mine + extra)
            self.filler[seat].update(extra)
            self.start.append(mine + extra)
        self.draws: list[str] = []
        self.events: list[dict[str, Any]] = []
        self.turn = dealer
        self.dead: set[int] = set()
        self.exposures: list[list[list[str]]] = [[] for _ in range(N)]

    @staticmethod
    def _remove(c: Counter[str], t: str) -> None:
        if c[t] < 1:
            raise ValueError(f"scenario uses more {t} than the set has")
        c[t] -= 1

    def _filler_tile(self, *, anything: bool = False) -> str:
        """A tile nobody in the scenario needs: suited and honour tiles first."""
        for t in sorted(self.pool, key=_filler_order):
            if self.pool[t] > 0 and (anything or (t != JOKER and t not in BONUS_TILES)):
                self.pool[t] -= 1
                return t
        if not anything:
            return self._filler_tile(anything=True)
        raise ValueError("the wall is empty")

    def _next(self, seat: int) -> int:
        for k in range(1, N + 1):
            if (seat + k) % N not in self.dead:
                return (seat + k) % N
        return (seat + 1) % N

    # -- events --------------------------------------------------------------------------

    def draw(self, seat: int | None = None, tile: str | None = None) -> str:
        seat = self.turn if seat is None else seat
        if tile is None:
            if sum(self.pool.values()) > 0:
                tile = self._filler_tile()
            else:
                tile = next(t for t in sorted(self.reserved) if self.reserved[t] > 0)
                self.reserved[tile] -= 1
            self.filler[seat][tile] += 1
        elif self.reserved[tile] > 0:
            self.reserved[tile] -= 1
        else:
            self._remove(self.pool, tile)
        self.hands[seat][tile] += 1
        self.draws.append(tile)
        self.events.append({"type": "draw", "seat": seat, "tile": tile})
        return tile

    def discard(self, seat: int | None = None, tile: str | None = None) -> str:
        seat = self.turn if seat is None else seat
        if tile is None:
            tile = next(t for t in sorted(self.filler[seat]) if self.filler[seat][t] > 0)
        if self.filler[seat][tile] > 0:
            self.filler[seat][tile] -= 1
        self._remove(self.hands[seat], tile)
        self.events.append({"type": "discard", "seat": seat, "tile": tile})
        self.turn = self._next(seat)
        return tile

    def turn_round(self, seat: int | None = None) -> None:
        """The seat to play draws a filler tile and throws a filler tile."""
        seat = self.turn if seat is None else seat
        self.draw(seat)
        self.discard(seat)

    def call(self, kind: str, seat: int, frm: int, tile: str, with_: str) -> None:
        w = tiles(with_)
        for t in w:
            self._remove(self.hands[seat], t)
            if self.filler[seat][t] > 0:
                self.filler[seat][t] -= 1
        assert kind in CALL_SIZES
        self.exposures[seat].append([tile, *w])
        self.events.append({"type": kind, "seat": seat, "from": frm, "tile": tile, "with": w})
        self.turn = seat

    def exchange(self, seat: int, tile: str, target: int, exposure: int) -> None:
        self._remove(self.hands[seat], tile)
        self.hands[seat][JOKER] += 1
        exp = self.exposures[target][exposure]
        exp[exp.index(JOKER)] = tile
        self.events.append(
            {
                "type": "joker_exchange",
                "seat": seat,
                "tile": tile,
                "target": target,
                "exposure": exposure,
            }
        )

    def win(self, seat: int, tile: str, frm: int | None = None, claim: str | None = None) -> None:
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile}
        if frm is not None:
            ev["from"] = frm
        if claim is not None:
            ev["claim"] = {"hand": claim}
        self.events.append(ev)

    def charleston(self, pass_no: int, parts: dict[int, str]) -> None:
        """One Charleston pass, every seat's own tiles (no blind tiles), applied at once."""
        off = PASS_OFFSET[pass_no]
        moved = {s: tiles(v) for s, v in parts.items()}
        for s, ts in moved.items():
            for t in ts:
                self._remove(self.hands[s], t)
                if self.filler[s][t] > 0:
                    self.filler[s][t] -= 1
            self.events.append({"type": "charleston_pass", "seat": s, "pass": pass_no, "tiles": ts})
        for s, ts in moved.items():
            self.hands[(s + off) % N].update(ts)

    def event(self, ev: dict[str, Any]) -> None:
        self.events.append(ev)

    def left(self) -> int:
        return sum(self.pool.values()) + sum(self.reserved.values())

    def play_out(self) -> None:
        """Live seats draw and throw until the wall is empty, then a wall game."""
        while self.left() > 0:
            seat = self.turn
            tile = self.draw(seat)
            self.discard(seat, tile)
        self.events.append({"type": "exhaustive_draw"})

    # -- the record ----------------------------------------------------------------------

    def wall(self) -> list[str]:
        order = [(self.dealer + k) % N for k in range(N)]
        slots: list[str | None] = [None] * 53
        pos = 0
        taken = [0] * N
        plan: list[tuple[int, int]] = []
        for _ in range(3):
            for seat in order:
                plan.append((seat, 4))
        for k, seat in enumerate(order):
            plan.append((seat, 2 if k == 0 else 1))
        for seat, n in plan:
            for _ in range(n):
                h = self.start[seat]
                slots[pos] = h[taken[seat]] if taken[seat] < len(h) else None
                taken[seat] += 1
                pos += 1
        dealt = [t for t in slots if t is not None]
        rest = Counter(self.pool) + self.reserved
        if len(dealt) == 52:  # East dealt 13: its 14th tile is its first draw
            dealt.append(self.draws[0])
            draws = self.draws[1:]
        else:
            draws = self.draws
        return dealt + draws + sorted(rest.elements(), key=_filler_order)

    def record(
        self,
        result: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        *,
        with_wall: bool = True,
    ) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "format": "mjlog/1",
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": "american",
            "players": list(self.players),
            "dealer": self.dealer,
            "options": {"card": self.card, **(options or {})},
            "start_hands": [list(h) for h in self.start],
            "events": [dict(e) for e in self.events],
        }
        if with_wall:
            rec["wall"] = self.wall()
        if result is not None:
            rec["result"] = result
        return rec


def _filler_order(t: str) -> tuple[int, str]:
    """Filler preference: dragons, then high suit tiles, then the rest."""
    if t in ("C", "F", "P"):
        return (0, t)
    if len(t) == 2 and t[0].isdigit():
        return (1, t[1] + str(9 - int(t[0])))
    if t in ("E", "S", "W", "N"):
        return (2, t)
    return (3, t)
