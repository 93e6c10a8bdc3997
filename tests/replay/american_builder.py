"""A small fluent builder of ``american`` ``mjlog/1`` hand records (rules/american.md §9.1).

Written for the checklist tests: a hand is described the way the rules file describes it,
and the builder fills in everything that does not matter.

    b = AmHand()                                  # dealer seat 0 = East, the sample card
    b.hand(S, "7m7m J")                           # the tiles of S's start hand that matter
    b.first_charleston()                          # passes 1-3, every seat, filler tiles
    b.discard(E, "7m").pung(S, E, "7m", "7m J")   # an exposure with a joker
    b.discard(S).draw(W).discard(W)               # automatic tiles
    report = b.replay()

* ``hand(seat, tiles)`` gives the tiles of a start hand that matter. Tiles a seat later
  passes, discards, exposes or exchanges without holding them are added to its start hand;
  the hand is then filled up to 13 (East to 14, or to 13 when its first event is a
  ``draw``) with filler. ``exact=True`` turns both off (for logs meant to be impossible).
* Filler and automatic tiles are never jokers or flowers while other tiles are left, never
  a tile named in the script while unnamed ones are left, and never more copies than the
  152-tile set holds, so a log only overcounts when the script says so.
* Charleston passes with ``tiles=None`` pass three automatic tiles: tiles the seat holds
  that the script does not need (neither given in ``hand`` nor used later).
  ``blind=k`` makes the first ``k`` of them blind: they are the tiles passed *to* the seat
  in the same pass, forwarded unseen.
* ``first_charleston(arrive=...)`` writes passes 1-3 for every seat so that each seat ends
  with the tiles ``arrive[seat]`` (routed from the seat across, who passes them in pass 1
  and everybody forwards what they received): how a winner's hand is set up behind a
  Charleston.
* ``turns(seat, count, skip=...)`` plays plain draw-and-discard turns, passing over dead
  seats; ``b.draws`` counts the wall draws so far (``LIVE_AFTER_DEAL`` = 99 empty the wall).
* ``b.i`` is the index of the latest event, for asserting finding indices.
* ``record()`` returns the record, validated by ``schemas.records.parse_record`` as ingest
  does; ``record(wall=True)`` also writes a ``wall`` consistent with the deal and the draws.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record
from mjaudit.parts.schemas.tiles import BONUS_TILES, JOKER, PLAYING_TILES, UNKNOWN_FLOWER

CARD = "sample-original-1"  # the §6 sample card
E, S, W, N = 0, 1, 2, 3  # with the default dealer 0
DEAL = 53  # 4 x 13 + East's 14th (§2.4)
LIVE_AFTER_DEAL = 152 - DEAL  # 99 wall draws

FULL_SET: Counter[str] = Counter(
    {**{t: 4 for t in PLAYING_TILES}, **{t: 1 for t in BONUS_TILES}, JOKER: 8}
)
FLOWERS_IN_SET = 8
CALLS = ("pung", "kong", "quint", "sextet")
# §3: the offset from the passer to the receiver, by pass number (7 = the courtesy pass).
PASS_OFFSET = {1: 1, 2: 2, 3: 3, 4: 3, 5: 2, 6: 1, 7: 2}

_TILE = re.compile(r"FL|[fg][1-4]|[1-9][mps]|[ESWNCFPJ]")


def tiles(text: str) -> list[str]:
    """``"1m 2m J f1 FL"`` -> ``["1m", "2m", "J", "f1", "FL"]``."""
    out = _TILE.findall(text)
    if "".join(out) != re.sub(r"\s+", "", text):
        raise ValueError(f"not a list of american tile codes: {text!r}")
    return out


def is_flower(t: str) -> bool:
    return t in BONUS_TILES or t == UNKNOWN_FLOWER


class _Auto:
    """A tile the builder picks when the record is made."""

    def __init__(self) -> None:
        self.tile: str | None = None


_Tile = str | _Auto


class _Blind:
    """A blind entry of a Charleston pass: an explicit tile or an automatic one."""

    def __init__(self, tile: _Tile) -> None:
        self.tile = tile


class AmHand:
    def __init__(
        self,
        *,
        dealer: int = 0,
        card: str | None = CARD,
        options: Mapping[str, Any] | None = None,
        hand_no: int = 1,
        game_id: str = "am1",
        players: list[str] | None = None,
        avoid: str = "",
    ) -> None:
        self.dealer = dealer
        self.options: dict[str, Any] = {} if card is None else {"card": card}
        self.options.update(options or {})
        self.hand_no = hand_no
        self.game_id = game_id
        self.players = players or ["ann", "bob", "cat", "dan"]
        self.avoid = set(tiles(avoid))
        self.given: list[list[str]] = [[] for _ in range(4)]
        self.exact: set[int] = set()
        self.no_add: set[int] = set()
        self.events: list[dict[str, Any]] = []
        self.res: dict[str, Any] | None = None
        self.fields: dict[str, Any] = {}  # extra / overriding top-level fields
        self._last: dict[int, _Tile] = {}

    # -- set-up ------------------------------------------------------------------------

    def hand(self, seat: int, text: str, *, exact: bool = False, add: bool = True) -> AmHand:
        """``add=False``: tiles the script uses are not added (filler still is);
        ``exact=True``: neither, the start hand is exactly ``text``."""
        self.given[seat] = tiles(text)
        if exact:
            self.exact.add(seat)
        if exact or not add:
            self.no_add.add(seat)
        return self

    def seat_of(self, k: int) -> int:
        """The seat of wind k (0 = E ... 3 = N) for this hand's dealer."""
        return (self.dealer + k) % 4

    @property
    def i(self) -> int:
        """Index of the latest event."""
        return len(self.events) - 1

    # -- Charleston --------------------------------------------------------------------

    def _add(self, ev: dict[str, Any]) -> AmHand:
        if ev["type"] != "draw":
            self._last.pop(ev.get("seat", -1), None)
        self.events.append(ev)
        return self

    def charleston_pass(
        self,
        seat: int,
        number: int,
        text: str | None = None,
        *,
        blind: int | str = 0,
    ) -> AmHand:
        """One seat's part of pass ``number``. ``text`` None: automatic tiles (3 in all,
        counting the blind ones). ``blind``: a count of automatic blind tiles, or the
        explicit blind tiles as text."""
        if isinstance(blind, str):
            blind_tiles: list[_Tile] = list(tiles(blind))
        else:
            blind_tiles = [_Auto() for _ in range(blind)]
        if text is None:
            own: list[_Tile] = [_Auto() for _ in range(3 - len(blind_tiles))]
        else:
            own = list(tiles(text))
        entries: list[_Tile | _Blind] = [_Blind(t) for t in blind_tiles] + own
        return self._add(
            {"type": "charleston_pass", "seat": seat, "pass": number, "tiles": entries}
        )

    def pass_round(self, number: int, blind: Mapping[int, int] | None = None) -> AmHand:
        """Every seat (East first) passes three automatic tiles in pass ``number``."""
        for k in range(4):
            s = self.seat_of(k)
            self.charleston_pass(s, number, blind=(blind or {}).get(s, 0))
        return self

    def first_charleston(self, arrive: Mapping[int, str] | None = None) -> AmHand:
        """Passes 1-3. Seat X ends with ``arrive[X]`` (up to 3 tiles) plus filler."""
        arrive = arrive or {}
        got: dict[int, list[_Tile]] = {}
        for k in range(4):  # pass 1, right: the seat across from X starts X's tiles
            s = self.seat_of(k)
            target = (s + 2) % 4
            mine: list[_Tile] = list(tiles(arrive.get(target, "")))
            mine += [_Auto() for _ in range(3 - len(mine))]
            self._add({"type": "charleston_pass", "seat": s, "pass": 1, "tiles": mine})
            got[(s + 1) % 4] = mine
        for number in (2, 3):  # everybody forwards what they just received
            new: dict[int, list[_Tile]] = {}
            for k in range(4):
                s = self.seat_of(k)
                fwd = list(got[s])
                self._add({"type": "charleston_pass", "seat": s, "pass": number, "tiles": fwd})
                new[(s + PASS_OFFSET[number]) % 4] = fwd
            got = new
        return self

    def second_charleston(self) -> AmHand:
        """Passes 4-6, automatic tiles."""
        for number in (4, 5, 6):
            self.pass_round(number)
        return self

    def charleston_stop(self, seat: int) -> AmHand:
        return self._add({"type": "charleston_stop", "seat": seat})

    def courtesy_pass(
        self,
        seat: int,
        partner: int,
        asked: int,
        text: str | None = None,
        *,
        count: int | None = None,
    ) -> AmHand:
        """``text`` None: ``count`` (default ``asked``) automatic tiles."""
        k = asked if count is None else count
        out: list[_Tile] = list(tiles(text)) if text is not None else [_Auto() for _ in range(k)]
        ev = {
            "type": "courtesy_pass",
            "seat": seat,
            "partner": partner,
            "asked": asked,
            "tiles": out,
        }
        return self._add(ev)

    # -- play --------------------------------------------------------------------------

    def draw(self, seat: int, tile: str | None = None) -> AmHand:
        t: _Tile = _Auto() if tile is None else tile
        self._last[seat] = t
        return self._add({"type": "draw", "seat": seat, "tile": t})

    def discard(self, seat: int, tile: str | None = None) -> AmHand:
        """Without a tile: the tile the seat just drew, or else a filler tile it holds."""
        t: _Tile = tile if tile is not None else self._last.get(seat) or _Auto()
        return self._add({"type": "discard", "seat": seat, "tile": t})

    def call(self, kind: str, seat: int, frm: int, tile: str, with_: str) -> AmHand:
        ev = {"type": kind, "seat": seat, "from": frm, "tile": tile, "with": tiles(with_)}
        return self._add(ev)

    def pung(self, seat: int, frm: int, tile: str, with_: str | None = None) -> AmHand:
        return self.call("pung", seat, frm, tile, with_ if with_ is not None else tile * 2)

    def kong(self, seat: int, frm: int, tile: str, with_: str | None = None) -> AmHand:
        return self.call("kong", seat, frm, tile, with_ if with_ is not None else tile * 3)

    def quint(self, seat: int, frm: int, tile: str, with_: str) -> AmHand:
        return self.call("quint", seat, frm, tile, with_)

    def sextet(self, seat: int, frm: int, tile: str, with_: str) -> AmHand:
        return self.call("sextet", seat, frm, tile, with_)

    def joker_exchange(self, seat: int, tile: str, target: int, exposure: int) -> AmHand:
        ev = {"type": "joker_exchange", "seat": seat, "tile": tile, "target": target}
        return self._add({**ev, "exposure": exposure})

    def win(self, seat: int, tile: str, frm: int | None = None, claim: str | None = None) -> AmHand:
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile}
        if frm is not None:
            ev["from"] = frm
        if claim is not None:
            ev["claim"] = {"hand": claim}
        return self._add(ev)

    def announce_dead(self, seat: int, target: int) -> AmHand:
        return self._add({"type": "announce", "seat": seat, "what": "dead_hand", "target": target})

    def announce_claim(self, seat: int, claim: str, tile: str) -> AmHand:
        """A call made but not executed (``claim`` = "win", "pung", "kong", ...)."""
        ev = {"type": "announce", "seat": seat, "what": "claim", "claim": claim, "tile": tile}
        return self._add(ev)

    def exhaustive_draw(self) -> AmHand:
        return self._add({"type": "exhaustive_draw"})

    def abandon(self, reason: str = "dispute") -> AmHand:
        return self._add({"type": "abandon", "reason": reason})

    def turns(self, seat: int, count: int, *, skip: Iterable[int] = ()) -> AmHand:
        """``count`` plain turns from ``seat`` on: draw an automatic tile and discard it.
        Seats in ``skip`` (dead hands) are passed over."""
        skipped = set(skip)
        s = seat
        for _ in range(count):
            while s in skipped:
                s = (s + 1) % 4
            self.draw(s).discard(s)
            s = (s + 1) % 4
        return self

    @property
    def draws(self) -> int:
        """Wall draws so far (East's 14th, when it is the first draw, is part of the deal)."""
        n = sum(ev["type"] == "draw" for ev in self.events)
        first = self.events[0] if self.events else {}
        dealt = first.get("type") == "draw" and first.get("seat") == self.dealer
        return n - dealt

    def result(
        self,
        winners: Iterable[int] = (),
        fan: int | None = None,
        patterns: Iterable[str] | None = None,
        deltas: Iterable[float] | None = None,
        penalties: Iterable[Mapping[str, Any]] | None = None,
    ) -> AmHand:
        self.res = {"winners": list(winners)}
        if fan is not None:
            self.res["fan"] = fan
        if patterns is not None:
            self.res["patterns"] = list(patterns)
        if deltas is not None:
            self.res["deltas"] = list(deltas)
        if penalties is not None:
            self.res["penalties"] = [dict(p) for p in penalties]
        return self

    # -- the record ----------------------------------------------------------------------

    def _sizes(self) -> list[int]:
        first = self.events[0] if self.events else {}
        dealer_draws = first.get("type") == "draw" and first.get("seat") == self.dealer
        return [(13 if dealer_draws else 14) if s == self.dealer else 13 for s in range(4)]

    def _simulate(
        self, starts: list[list[str]] | None, needed: list[Counter[str]] | None = None
    ) -> list[Counter[str]]:
        """Walk the events tracking what each seat holds.

        Without ``starts`` (first walk): return the explicit tiles each seat uses without
        holding them (to add to its start hand). With ``starts`` (second walk): resolve the
        automatic tiles from what the seats really hold."""
        resolving = starts is not None
        named = self._named
        held: list[Counter[str]] = (
            [Counter(h) for h in starts] if resolving else [Counter(h) for h in self.given]
        )
        need: list[Counter[str]] = [Counter() for _ in range(4)]
        # Tiles the script still wants each seat to keep (given or used explicitly later).
        keep = [Counter(h) + n for h, n in zip(self.given, needed or [], strict=False)]

        def use(seat: int, t: str) -> None:
            if held[seat][t] > 0:
                held[seat][t] -= 1
            elif not resolving and seat not in self.no_add:
                need[seat][t] += 1
            if resolving and keep[seat][t] > 0:
                keep[seat][t] -= 1

        def pick(seat: int, auto: _Auto) -> None:
            """Resolve an automatic tile from what ``seat`` holds beyond what it keeps."""
            if auto.tile is None:
                spare = [t for t in held[seat] if held[seat][t] > keep[seat][t]]
                if not spare:
                    raise ValueError(f"seat {seat} has no spare tile to pass: {held[seat]}")
                spare.sort(key=lambda t: (t in self.avoid, t in named, t))
                auto.tile = spare[0]
            held[seat][auto.tile] -= 1

        events = self.events
        k = 0
        while k < len(events):
            ev = events[k]
            kind, seat = ev["type"], ev.get("seat")
            if kind in ("charleston_pass", "courtesy_pass"):
                group = [ev]
                while (
                    k + 1 < len(events)
                    and events[k + 1]["type"] == kind
                    and events[k + 1].get("pass") == ev.get("pass")
                ):
                    k += 1
                    group.append(events[k])
                self._pass_group(group, held, use, pick, resolving)
            elif kind == "draw":
                t = ev["tile"]
                if isinstance(t, str):
                    held[seat][t] += 1
                elif resolving:
                    assert t.tile is not None
                    held[seat][t.tile] += 1
            elif kind == "discard":
                t = ev["tile"]
                if isinstance(t, str):
                    use(seat, t)
                elif resolving:
                    if t.tile is None:  # a filler tile from the hand
                        pick(seat, t)
                    else:
                        held[seat][t.tile] -= 1
            elif kind in CALLS:
                for t in ev["with"]:
                    use(seat, t)
            elif kind == "joker_exchange":
                use(seat, ev["tile"])
                held[seat][JOKER] += 1
            k += 1
        return need

    def _pass_group(self, group, held, use, pick, resolving) -> None:  # type: ignore[no-untyped-def]
        """One pass (all its events): tiles leave, blind tiles are forwarded, tiles arrive."""
        incoming: dict[int, list[_Tile]] = {}
        blinds: dict[int, list[_Blind]] = {}
        for ev in group:
            seat = ev["seat"]
            to = (
                ev["partner"]
                if ev["type"] == "courtesy_pass"
                else (seat + PASS_OFFSET[ev["pass"]]) % 4
            )
            out: list[_Tile] = []
            for entry in ev["tiles"]:
                if isinstance(entry, _Blind):
                    blinds.setdefault(seat, []).append(entry)
                    out.append(entry.tile)
                    continue
                if isinstance(entry, str):
                    use(seat, entry)
                elif resolving:
                    pick(seat, entry)
                out.append(entry)
            incoming.setdefault(to, []).extend(out)
        # Blind tiles: the seat forwards tiles it was passed; automatic ones take them in order.
        for seat, entries in blinds.items():
            arriving = incoming.get(seat, [])
            for entry in entries:
                t = entry.tile
                match = next((a for a in arriving if _same(a, t)), None)
                if match is None and isinstance(t, _Auto):
                    match = next(iter(arriving), None)
                    if match is None:
                        raise ValueError(f"seat {seat} has nothing to blind-pass")
                    if isinstance(match, _Auto):
                        t.tile = match.tile
                        entry.tile = match  # linked: resolved together
                    else:
                        entry.tile = match
                if match is not None:
                    arriving.remove(match)
        for seat, arriving in incoming.items():
            for a in arriving:
                t = a if isinstance(a, str) else a.tile
                if t is not None:
                    held[seat][t] += 1

    @property
    def _named(self) -> set[str]:
        named = set(self.avoid) | {t for h in self.given for t in h}
        for ev in self.events:
            for t in (ev.get("tile"), *ev.get("with", ()), *ev.get("tiles", ())):
                if isinstance(t, str):
                    named.add(t)
        return named

    def _pool(self, used: Counter[str]) -> list[str]:
        """What is left of the 152 tiles, best filler first (jokers and flowers last)."""
        named = self._named
        left = {t: FULL_SET[t] - used[t] for t in FULL_SET}
        flowers_left = FLOWERS_IN_SET - sum(used[t] for t in used if is_flower(t))
        for t in BONUS_TILES:
            if left[t] > 0 and flowers_left <= 0:
                left[t] = 0
            elif left[t] > 0:
                flowers_left -= 1

        def rank(t: str) -> int:
            if t == JOKER or is_flower(t):
                return 3
            return 2 if t in self.avoid else 1 if t in named else 0

        return [
            t
            for r in (0, 1, 2, 3)
            for copy in range(8)
            for t in left
            if rank(t) == r and left[t] > copy
        ]

    def record(self, *, wall: bool = False, validate: bool = True) -> dict[str, Any]:
        for ev in self.events:  # automatic tiles are resolved afresh for each record
            for t in _autos(ev):
                t.tile = None
        need = self._simulate(None)
        sizes = self._sizes()
        starts = [list(h) + list(need[s].elements()) for s, h in enumerate(self.given)]
        used: Counter[str] = Counter(t for h in starts for t in h)
        for ev in self.events:
            if ev["type"] == "draw" and isinstance(ev["tile"], str):
                used[ev["tile"]] += 1
        pool = self._pool(used)
        for s, h in enumerate(starts):
            if s in self.exact:
                continue
            if len(h) > sizes[s]:
                raise ValueError(f"seat {s} needs {len(h)} start tiles: {h}")
            while len(h) < sizes[s]:
                h.append(pool.pop(0))
        # Automatic draws take the rest of the pool in order, before hand filler is picked.
        for ev in self.events:
            if ev["type"] == "draw" and isinstance(ev["tile"], _Auto):
                ev["tile"].tile = pool.pop(0) if pool else "5m"  # past the 152: repeats
        self._simulate(starts, need)
        events = [_plain(ev) for ev in self.events]
        rec: dict[str, Any] = {
            "format": "mjlog/1",
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": "american",
            "players": self.players,
            "dealer": self.dealer,
            "start_hands": starts,
            "events": events,
        }
        if self.options:
            rec["options"] = self.options
        if self.res is not None:
            rec["result"] = self.res
        if wall:
            rec["wall"] = self.wall_for(starts, events)
        rec.update(self.fields)
        return canonical(rec) if validate else rec

    def wall_for(self, starts: list[list[str]], events: list[dict[str, Any]]) -> list[str]:
        """§2.4: 4 tiles each three times round from East, East 2 more, S W N one each;
        then the draws in order (East's 14th, if it is the first draw, is in the deal),
        then the undrawn rest."""
        order = [self.seat_of(k) for k in range(4)]
        draws = [e["tile"] for e in events if e["type"] == "draw"]
        hands = [list(h) for h in starts]
        if events and events[0]["type"] == "draw" and events[0]["seat"] == self.dealer:
            hands[self.dealer].append(draws.pop(0))
        deal: list[str] = []
        for r in range(3):
            for s in order:
                deal += hands[s][4 * r : 4 * r + 4]
        deal += hands[self.dealer][12:14]
        deal += [hands[s][12] for s in order[1:]]
        draws = draws[: 152 - len(deal)]  # draws past the end of the wall are not in it
        rest = FULL_SET - Counter(deal + draws)
        return deal + draws + sorted(rest.elements())

    def replay(
        self,
        overrides: Mapping[str, object] | None = None,
        previous: HandReport | None = None,
        *,
        wall: bool = False,
    ) -> HandReport:
        return replay_hand(self.record(wall=wall), overrides, previous)


def _same(a: _Tile, t: _Tile) -> bool:
    if a is t:
        return True
    return isinstance(t, str) and (a == t or (isinstance(a, _Auto) and a.tile == t))


def _autos(ev: dict[str, Any]) -> list[_Auto]:
    out = [ev["tile"]] if isinstance(ev.get("tile"), _Auto) else []
    for entry in ev.get("tiles", ()):
        if isinstance(entry, _Blind):
            entry = entry.tile
        if isinstance(entry, _Auto):
            out.append(entry)
    return out


def _tile(t: _Tile) -> str:
    if isinstance(t, _Auto):
        assert t.tile is not None, "an automatic tile was not resolved"
        return t.tile
    return t


def _plain(ev: dict[str, Any]) -> dict[str, Any]:
    out = dict(ev)
    if "tile" in ev:
        out["tile"] = _tile(ev["tile"])
    if "tiles" in ev:
        out["tiles"] = [
            {"tile": _tile(e.tile), "blind": True} if isinstance(e, _Blind) else _tile(e)
            for e in ev["tiles"]
        ]
    return out


def canonical(rec: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a record, validated as ingest does."""
    return parse_record(msgspec.json.encode(rec)).record
