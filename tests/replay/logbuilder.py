"""A small fluent builder of ``mjlog/1`` hand records, for writing hands the way the rules
files describe them, plus a few helpers to look at the findings of a replay.

    b = Hand("hk-classic", dealer=0)
    b.hand(1, "1m2m 4p5p6p 2p2p 7s8s 9s9s9s N")   # the tiles that matter; the rest is filler
    b.discard(0, "3m").chow(1, 0, "3m", "1m2m3m").discard(1, "N")
    b.draw(2).discard(2)                           # auto tile, discarded at once
    report = b.replay()

* ``hand(seat, tiles)`` gives the tiles of a start hand that matter. Tiles a seat later
  discards, melds or konges without having drawn them are added to its start hand
  automatically, and the hand is then filled up to 13 (the dealer to 14, or to 13 when its
  first event is a ``draw``) with filler tiles. ``exact=True`` turns both off: the hand is
  exactly what is given (for logs that are meant to be impossible).
* ``draw(seat)`` / ``replacement(seat)`` without a tile draw an automatic tile;
  ``discard(seat)`` without a tile discards the seat's latest drawn tile.
* Filler and automatic tiles come from what is left of the tile set, so no tile is seen
  more than 4 times, never a bonus tile, and tiles named in the script (or in ``avoid``)
  are used only when nothing else is left. Only a log that draws past the end of the
  wall runs out of tiles; its extra automatic tiles repeat.
* ``b.i`` is the index of the latest event, for asserting finding indices.
* ``vn-160`` (rules ``vn-160.md`` §1): the 160-tile set (flowers f/g/k/q 1-4, the eight khung
  ``BT BP BS BM RH RU RD RW``, more khung sets with option ``khung_sets``, §1.2). Its bonus
  tiles (flowers and khung) are never filler. ``pung``/``kong``/``concealed_kong``/
  ``added_kong`` take ``with_="4p BP"`` (the hand tiles when a khung is used, §8.1), and the
  wall deals the dealer's two last tiles side by side (§2.2, "nhảy cóc").
* ``record()`` returns the canonical record (validated by ``schemas.records.parse_record``);
  ``record(wall=True)`` also writes a ``wall`` consistent with the deal and the draws
  (replacements taken from its tail).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from mjaudit.parts.replay.engine.findings import SERIOUS, Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.records import parse_record
from mjaudit.parts.schemas.tiles import (
    BONUS_TILES,
    KHUNG,
    KHUNG_EXTRA_SETS,
    PLAYING_TILES,
    VN_KINGS,
    VN_QUEENS,
)

HARD = FindingClass.CORRUPT_LOG
VIOL = FindingClass.PLAYER_VIOLATION
AUDIT = FindingClass.SCORE_MISMATCH
INFO = FindingClass.INFO

_TILE = re.compile(r"(?:BT|BP|BS|BM|RH|RU|RD|RW)[23]?|[fgkq][1-4]|[1-9][mps]|[ESWNCFP]")
_TWO_P = [t for t in PLAYING_TILES if t[-1] not in "ms" or t[0] in "19"]
VN_FLOWERS: tuple[str, ...] = BONUS_TILES + VN_KINGS + VN_QUEENS
FULL_SETS: dict[str, Counter[str]] = {
    "hk-classic": Counter({**{t: 4 for t in PLAYING_TILES}, **{t: 1 for t in BONUS_TILES}}),
    "hk-mahjongo": Counter({t: 4 for t in PLAYING_TILES}),
    "hk-mahjongo-2p": Counter({t: 4 for t in _TWO_P}),
    "vn-160": Counter(
        {**{t: 4 for t in PLAYING_TILES}, **{t: 1 for t in VN_FLOWERS}, **{t: 1 for t in KHUNG}}
    ),
}


def khung_codes(sets: int = 1) -> tuple[str, ...]:
    """The khung of ``khung_sets`` = ``sets`` (vn-160 §1.2): set 1 bare, then suffix 2, 3."""
    return KHUNG + tuple(k for k in KHUNG_EXTRA_SETS if int(k[-1]) <= sets)


def full_set(ruleset: str, options: Mapping[str, Any] | None = None) -> Counter[str]:
    """Every tile of the ruleset's set, with its number of copies."""
    if ruleset != "vn-160":
        return FULL_SETS[ruleset]
    sets = (options or {}).get("khung_sets", 1)
    sets = sets if isinstance(sets, int) and 1 <= sets <= 3 else 1
    return FULL_SETS["vn-160"] + Counter(khung_codes(sets)[len(KHUNG) :])


def bonus_tiles(ruleset: str) -> frozenset[str]:
    """Tiles that are never filler: flowers and seasons (vn-160: all flowers and khung)."""
    if ruleset == "vn-160":
        return frozenset(VN_FLOWERS + KHUNG + KHUNG_EXTRA_SETS)
    return frozenset(BONUS_TILES)


def tiles(text: str) -> list[str]:
    """``"1m2m3m 5p5p E"`` -> ``["1m", "2m", "3m", "5p", "5p", "E"]``."""
    out = _TILE.findall(text)
    if "".join(out) != re.sub(r"\s+", "", text):
        raise ValueError(f"not a list of tile codes: {text!r}")
    return out


class _Auto:
    """A tile the builder picks when the record is made."""

    def __init__(self) -> None:
        self.tile: str | None = None


class Hand:
    def __init__(
        self,
        ruleset: str = "hk-classic",
        *,
        dealer: int = 0,
        wind: str = "E",
        options: Mapping[str, Any] | None = None,
        hand_no: int = 1,
        game_id: str = "g1",
        players: list[str] | None = None,
        dealer_tiles: int | None = None,
        avoid: str = "",
    ) -> None:
        self.ruleset = ruleset
        self.n = 2 if ruleset == "hk-mahjongo-2p" else 4
        self.dealer = dealer
        self.wind = wind
        self.options = dict(options or {})
        self.hand_no = hand_no
        self.game_id = game_id
        self.players = players or ["ann", "bob", "cat", "dan"][: self.n]
        self.dealer_tiles = dealer_tiles
        self.avoid = set(tiles(avoid))
        self.given: list[list[str]] = [[] for _ in range(self.n)]
        self.exact: set[int] = set()
        self.no_add: set[int] = set()
        self.events: list[dict[str, Any]] = []
        self.res: dict[str, Any] | None = None
        self.fields: dict[str, Any] = {}  # extra top-level fields (wall, dice, ...)
        self._last: dict[int, str | _Auto] = {}

    # -- set-up ------------------------------------------------------------------------

    def hand(self, seat: int, text: str, *, exact: bool = False, add: bool = True) -> Hand:
        """``add=False``: tiles the script uses are not added (filler still is);
        ``exact=True``: neither, the start hand is exactly ``text``."""
        self.given[seat] = tiles(text)
        if exact:
            self.exact.add(seat)
        if exact or not add:
            self.no_add.add(seat)
        return self

    @property
    def i(self) -> int:
        """Index of the latest event."""
        return len(self.events) - 1

    # -- events ------------------------------------------------------------------------

    def _add(self, ev: dict[str, Any]) -> Hand:
        if ev["type"] not in ("draw", "replacement"):
            self._last.pop(ev.get("seat", -1), None)
        self.events.append(ev)
        return self

    def _drawn(self, kind: str, seat: int, tile: str | None) -> Hand:
        t: str | _Auto = _Auto() if tile is None else tile
        self._last[seat] = t
        return self._add({"type": kind, "seat": seat, "tile": t})

    def draw(self, seat: int, tile: str | None = None) -> Hand:
        return self._drawn("draw", seat, tile)

    def replacement(self, seat: int, tile: str | None = None) -> Hand:
        return self._drawn("replacement", seat, tile)

    def flower(self, seat: int, tile: str) -> Hand:
        return self._add({"type": "flower", "seat": seat, "tile": tile})

    def discard(self, seat: int, tile: str | None = None) -> Hand:
        """Without a tile: the tile the seat just drew, or else any tile from its hand."""
        t: str | _Auto = tile if tile is not None else self._last.get(seat) or _Auto()
        return self._add({"type": "discard", "seat": seat, "tile": t})

    @staticmethod
    def _with(ev: dict[str, Any], with_: str | None) -> dict[str, Any]:
        """Add the vn-160 ``with`` field: the hand tiles, khung included (§8.1)."""
        if with_ is not None:
            ev["with"] = tiles(with_)
        return ev

    def pung(self, seat: int, frm: int, tile: str, with_: str | None = None) -> Hand:
        ev = {"type": "pung", "seat": seat, "from": frm, "tile": tile}
        return self._add(self._with(ev, with_))

    def kong(self, seat: int, frm: int, tile: str, with_: str | None = None) -> Hand:
        ev = {"type": "kong", "seat": seat, "from": frm, "tile": tile}
        return self._add(self._with(ev, with_))

    def chow(self, seat: int, frm: int, tile: str, run: str) -> Hand:
        ev = {"type": "chow", "seat": seat, "from": frm, "tile": tile, "tiles": tiles(run)}
        return self._add(ev)

    def concealed_kong(self, seat: int, tile: str, with_: str | None = None) -> Hand:
        ev = {"type": "concealed_kong", "seat": seat, "tile": tile}
        return self._add(self._with(ev, with_))

    def added_kong(self, seat: int, tile: str, with_: str | None = None) -> Hand:
        ev = {"type": "added_kong", "seat": seat, "tile": tile}
        return self._add(self._with(ev, with_))

    def win(self, seat: int, tile: str, frm: int | None = None, robbed_kong: bool = False) -> Hand:
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile}
        if frm is not None:
            ev["from"] = frm
        if robbed_kong:
            ev["robbed_kong"] = True
        return self._add(ev)

    def announce(self, seat: int, what: str, **fields: Any) -> Hand:
        return self._add({"type": "announce", "seat": seat, "what": what, **fields})

    def exhaustive_draw(self) -> Hand:
        return self._add({"type": "exhaustive_draw"})

    def abandon(self, reason: str = "dispute") -> Hand:
        return self._add({"type": "abandon", "reason": reason})

    def turns(self, seat: int, count: int) -> Hand:
        """``count`` plain turns from ``seat`` on: draw an automatic tile and discard it."""
        for k in range(count):
            s = (seat + k) % self.n
            self.draw(s).discard(s)
        return self

    def result(
        self,
        winners: Iterable[int] = (),
        fan: int | None = None,
        patterns: Iterable[str] | None = None,
        deltas: Iterable[float] | None = None,
        penalties: Iterable[Mapping[str, Any]] | None = None,
    ) -> Hand:
        """The result as the source recorded it; ``penalties`` are ``{"seat", "code",
        "deltas"?}`` mappings."""
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
        dealer = self.dealer_tiles
        if dealer is None:
            dealer_draws = first.get("type") == "draw" and first.get("seat") == self.dealer
            dealer = 13 if dealer_draws else 14
        return [dealer if s == self.dealer else 13 for s in range(self.n)]

    def _needed(self) -> list[Counter[str]]:
        """Tiles each seat uses without having drawn them: added to its start hand."""
        held = [Counter(h) for h in self.given]
        self._start_autos: list[list[_Auto]] = [[] for _ in range(self.n)]
        need: list[Counter[str]] = [Counter() for _ in range(self.n)]
        autos: list[Counter[_Auto]] = [Counter() for _ in range(self.n)]

        def use(seat: int, t: str | _Auto, k: int = 1) -> None:
            if isinstance(t, _Auto):
                if autos[seat][t] > 0:
                    autos[seat][t] -= k
                else:  # an automatic tile from the start hand
                    self._start_autos[seat].append(t)
                return
            short = k - held[seat][t]
            if short > 0 and seat not in self.no_add:
                need[seat][t] += short
                held[seat][t] += short
            held[seat][t] = max(0, held[seat][t] - k)

        for ev in self.events:
            kind, seat, t = ev["type"], ev.get("seat"), ev.get("tile")
            if "with" in ev:  # vn-160: the hand tiles are listed (khung included)
                for x in ev["with"]:
                    use(seat, x)
                continue
            if kind in ("draw", "replacement"):
                if isinstance(t, _Auto):
                    autos[seat][t] += 1
                else:
                    held[seat][t] += 1
            elif kind in ("discard", "flower", "added_kong"):
                use(seat, t)
            elif kind == "pung":
                use(seat, t, 2)
            elif kind == "kong":
                use(seat, t, 3)
            elif kind == "concealed_kong":
                use(seat, t, 4)
            elif kind == "chow":
                run = list(ev["tiles"])
                if t in run:
                    run.remove(t)
                for x in run[:2]:
                    use(seat, x)
        return need

    def _pool(self, used: Counter[str]) -> list[str]:
        """What is left of the tile set, best filler first (never a bonus tile)."""
        named = set(self.avoid)
        for ev in self.events:
            for t in (ev.get("tile"), *ev.get("tiles", ()), *ev.get("with", ())):
                if isinstance(t, str):
                    named.add(t)
        full = full_set(self.ruleset, self.options)
        bonus = bonus_tiles(self.ruleset)
        left = {t: full[t] - used[t] for t in full if t not in bonus}

        def rank(t: str) -> int:
            return 2 if t in self.avoid else 1 if t in named else 0

        return [
            t
            for r in (0, 1, 2)
            for copy in range(4)
            for t in left
            if rank(t) == r and left[t] > copy
        ]

    def record(self, *, wall: bool = False) -> dict[str, Any]:
        need = self._needed()
        sizes = self._sizes()
        starts = [list(h) + list(need[s].elements()) for s, h in enumerate(self.given)]
        used = Counter(t for h in starts for t in h)
        for ev in self.events:
            if ev["type"] in ("draw", "replacement") and isinstance(ev["tile"], str):
                used[ev["tile"]] += 1
        pool = self._pool(used)
        # Past the end of the tile set (logs that draw beyond the wall) tiles repeat.
        bonus = bonus_tiles(self.ruleset)
        pool += [t for t in full_set(self.ruleset, self.options) if t not in bonus] * 4
        for s, h in enumerate(starts):
            if s in self.exact:
                continue
            for auto in self._start_autos[s]:
                auto.tile = pool.pop(0)
                h.append(auto.tile)
            if len(h) > sizes[s]:
                raise ValueError(f"seat {s} needs {len(h)} start tiles: {h}")
            while len(h) < sizes[s]:
                h.append(pool.pop(0))
        events = []
        for ev in self.events:
            out = dict(ev)
            t = ev.get("tile")
            if isinstance(t, _Auto):
                if t.tile is None:
                    t.tile = pool.pop(0)
                out["tile"] = t.tile
            events.append(out)
        rec: dict[str, Any] = {
            "format": "mjlog/1",
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": self.ruleset,
            "players": self.players,
            "dealer": self.dealer,
            "prevailing_wind": self.wind,
            "start_hands": starts,
            "events": events,
        }
        if self.options:
            rec["options"] = self.options
        if self.res is not None:
            rec["result"] = self.res
        if wall:
            rec["wall"] = self._wall(starts, events)
        rec.update(self.fields)
        return canonical(rec)

    def _wall(self, starts: list[list[str]], events: list[dict[str, Any]]) -> list[str]:
        """The deal (4 tiles each three times round, 1 each, the dealer's 14th), the draws,
        the undrawn rest, and the replacement tiles at the tail (first replacement last).
        vn-160 (§2.2): in the last round the dealer takes its two tiles side by side."""
        order = [(self.dealer + k) % self.n for k in range(self.n)]
        deal: list[str] = []
        for r in range(3):
            for s in order:
                deal += starts[s][4 * r : 4 * r + 4]
        if self.ruleset == "vn-160":
            deal += starts[self.dealer][12:]
            deal += [starts[s][12] for s in order[1:]]
        else:
            deal += [starts[s][12] for s in order]
            deal += starts[self.dealer][13:]
        draws = [e["tile"] for e in events if e["type"] == "draw"]
        reps = [e["tile"] for e in events if e["type"] == "replacement"]
        rest = full_set(self.ruleset, self.options) - Counter(deal + draws + reps)
        return deal + draws + sorted(rest.elements()) + reps[::-1]

    def replay(
        self,
        overrides: Mapping[str, object] | None = None,
        previous: HandReport | None = None,
        *,
        wall: bool = False,
    ) -> HandReport:
        return replay_hand(self.record(wall=wall), overrides, previous)


def canonical(rec: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a record (validates it as ingest does)."""
    return parse_record(msgspec.json.encode(rec)).record


# -- looking at findings -------------------------------------------------------------------


def serious(report: HandReport) -> list[Finding]:
    return [f for f in report.findings if f.cls in SERIOUS]


def with_code(report: HandReport, code: str) -> list[Finding]:
    return [f for f in report.findings if f.code == code]


def only(
    report: HandReport,
    code: str,
    cls: FindingClass,
    *,
    seat: int | None,
    index: int | None,
    reason: str | None = None,
) -> Finding:
    """The one finding with ``code``; its class, seat, event index and reason are exact."""
    found = with_code(report, code)
    assert len(found) == 1, f"expected one {code}, got {report.findings}"
    f = found[0]
    assert (f.cls, f.seat, f.event_index, f.reason) == (cls, seat, index, reason), f
    assert f.message
    return f


def clean(report: HandReport) -> None:
    """No CORRUPT_LOG, PLAYER_VIOLATION or SCORE_MISMATCH finding."""
    assert serious(report) == [], serious(report)


def stopped(report: HandReport) -> None:
    """A HARD finding stops the replay: the hand is corrupt and cannot be settled."""
    assert report.corrupt
    assert report.ended_by == "corrupt"
    assert report.deltas is None
    assert [f.cls for f in report.findings].count(HARD) == 1


def dead(report: HandReport, seat: int, cause: str, index: int) -> None:
    """An INFO DEAD_HAND for ``seat`` naming its cause, at ``index``."""
    found = [f for f in report.findings if f.code == "DEAD_HAND" and f.seat == seat]
    assert len(found) == 1, report.findings
    assert (found[0].cls, found[0].event_index) == (INFO, index)
    assert cause in found[0].message
