"""A small fluent builder of Chắn (``chan``) ``mjlog/1`` hand records, written the way
``../shared/rules/chan.md`` §6 and §10 describe hands, plus finding helpers.

    b = Chan(dealer=0)
    b.hand(2, "6v6v 3n3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n", exact=True)
    b.discard(0, "2n")                    # the dealer's opening discard
    b.dp(1).dp(2)                         # draw an automatic card and leave it (pass)
    b.draw(3, "5v").win(2, "5v", frm=3)   # ù on a nọc card drawn by s3, declared xuông
    report = b.replay()

* The deck is the 100 cards of §1.1. ``hand(seat, cards)`` gives the cards of a seat's
  dealt hand that matter. Cards the script takes out of a seat's concealed hand (discards,
  the ``with`` of eats and chíu, ``expose``, ``khai``, a chíu-ù's copies) are added to its
  dealt hand automatically; the hand is then filled to 20 (dealer) / 19 with filler.
  ``exact=True`` turns both off; ``add=False`` turns off only the automatic additions.
* A draw puts the nọc card on the drawer's cửa chì (it does not enter the hand), so the
  script never needs to "draw before discarding".
* Filler comes from what is left of the deck, spread over as many identities as possible
  and away from the identities the script names (so filler never makes chắn, never makes a
  seat ready by accident, and never matches a named card). ``draw(seat)`` without a card
  takes such a card too, preferring ranks the script does not name.
* ``record()`` writes ``wall`` (the 23-card nọc: the draws in order, then the rest) unless
  ``wall=False``; it is validated by ``schemas.records.parse_record`` as ingest does.
* ``b.i`` is the index of the latest event.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

# The finding helpers shared with the Hong Kong builder (re-exported for the chắn tests).
from logbuilder import (  # noqa: F401
    AUDIT,
    HARD,
    INFO,
    VIOL,
    canonical,
    clean,
    serious,
    with_code,
)
from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.run import replay_hand, supported
from mjaudit.parts.schemas.tiles import CHAN_CARDS

DECK: Counter[str] = Counter({c: 4 for c in CHAN_CARDS})
NOC_SIZE = 23
ENGINE_READY = supported("chan")

_CARD = re.compile(r"CC|[2-9][vns]")


def cards(text: str | Iterable[str]) -> list[str]:
    """``"7n7n 3v CC"`` -> ``["7n", "7n", "3v", "CC"]``; a list is returned as a list."""
    if not isinstance(text, str):
        return list(text)
    out = _CARD.findall(text)
    if "".join(out) != re.sub(r"\s+", "", text):
        raise ValueError(f"not a list of chan card codes: {text!r}")
    return out


def rank(card: str) -> str:
    return "chi" if card == "CC" else card[0]


class _Auto:
    """A card the builder picks when the record is made."""

    def __init__(self) -> None:
        self.card: str | None = None


_MISSING = object()


class Chan:
    def __init__(
        self,
        *,
        dealer: int = 0,
        n: int = 4,
        options: Mapping[str, Any] | None = None,
        hand_no: int = 1,
        game_id: str = "chan-1",
        players: list[str] | None = None,
        avoid: str = "",
        allow_overcount: bool = False,
    ) -> None:
        self.n = n
        self.dealer = dealer
        self.options = dict(options or {})
        self.hand_no = hand_no
        self.game_id = game_id
        self.players = players or ["an", "binh", "chau", "dung", "em"][:n]
        self.avoid = set(cards(avoid))
        self.allow_overcount = allow_overcount
        self.given: list[list[str]] = [[] for _ in range(n)]
        self.without: list[set[str]] = [set() for _ in range(n)]
        self.exact: set[int] = set()
        self.no_add: set[int] = set()
        self.sizes: dict[int, int] = {}
        self.events: list[dict[str, Any]] = []
        self.res: dict[str, Any] | None = None
        self.fields: dict[str, Any] = {}

    # -- set-up ------------------------------------------------------------------------

    def hand(
        self, seat: int, text: str, *, exact: bool = False, add: bool = True, without: str = ""
    ) -> Chan:
        """``without``: cards the filler must not deal to this seat."""
        self.given[seat] = cards(text)
        self.without[seat] = set(cards(without))
        if exact:
            self.exact.add(seat)
        if exact or not add:
            self.no_add.add(seat)
        return self

    def size(self, seat: int, k: int) -> Chan:
        """Deal ``k`` cards to ``seat`` instead of 20 / 19 (for DEAL_INVALID logs)."""
        self.sizes[seat] = k
        return self

    def cai(self, giver: int, tile: str) -> Chan:
        """The bốc cái (§3.1): the cái card is put in the dealer's hand."""
        self.fields["cai"] = {"giver": giver, "tile": tile}
        return self

    def previous_hand(
        self, winner: Any = _MISSING, void: Any = _MISSING, giver: Any = _MISSING
    ) -> Chan:
        """§6 ``previous_hand``; a field not passed is left out (unknown)."""
        ph = {"winner": winner, "void": void, "giver": giver}
        self.fields["previous_hand"] = {k: v for k, v in ph.items() if v is not _MISSING}
        return self

    @property
    def i(self) -> int:
        """Index of the latest event."""
        return len(self.events) - 1

    # -- events (§6) ---------------------------------------------------------------------

    def _add(self, ev: dict[str, Any]) -> Chan:
        self.events.append(ev)
        return self

    def discard(self, seat: int, tile: str, to: int | None = None) -> Chan:
        ev: dict[str, Any] = {"type": "discard", "seat": seat, "tile": tile}
        if to is not None:
            ev["to"] = to
        return self._add(ev)

    def draw(self, seat: int, tile: str | None = None) -> Chan:
        return self._add({"type": "draw", "seat": seat, "tile": tile or _Auto()})

    def pass_(self, seat: int) -> Chan:
        return self._add({"type": "pass", "seat": seat})

    def dp(self, seat: int, tile: str | None = None) -> Chan:
        """A turn that declines the cửa trên card, draws and leaves the drawn card."""
        return self.draw(seat, tile).pass_(seat)

    def turns(self, seat: int, count: int) -> Chan:
        """``count`` draw-and-pass turns from ``seat`` on, in turn order."""
        for k in range(count):
            self.dp((seat + k) % self.n)
        return self

    def eat(self, seat: int, tile: str, frm: int, with_: str, placement: str | None = None) -> Chan:
        ev: dict[str, Any] = {"type": "eat", "seat": seat, "tile": tile, "from": frm}
        ev["with"] = with_
        if placement is not None:
            ev["placement"] = placement
        return self._add(ev)

    def chiu(self, seat: int, tile: str, frm: int, with_: str | None = None) -> Chan:
        w = cards(with_) if with_ is not None else [tile] * 3
        return self._add({"type": "chiu", "seat": seat, "tile": tile, "from": frm, "with": w})

    def expose(self, seat: int, tiles: str) -> Chan:
        return self._add({"type": "expose", "seat": seat, "tiles": cards(tiles)})

    def khai(self, seat: int, tile: str) -> Chan:
        return self._add({"type": "khai", "seat": seat, "tile": tile})

    def win(
        self,
        seat: int,
        tile: str,
        *,
        via: str = "stock",
        frm: int | None = None,
        with_: str | None = None,
        cuoc: Iterable[str | tuple[str, int]] = (),
    ) -> Chan:
        """ù; ``cuoc`` items are ids or ``(id, n)``; empty means xuông."""
        claim = [c if isinstance(c, str) else {"id": c[0], "n": c[1]} for c in cuoc]
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile, "via": via}
        if frm is not None:
            ev["from"] = frm
        if with_ is not None:
            ev["with"] = cards(with_)
        ev["claim"] = {"cuoc": claim}
        return self._add(ev)

    def decline_u(self, seat: int) -> Chan:
        return self._add({"type": "decline_u", "seat": seat})

    def bao(self, seat: int, accused: int, code: str) -> Chan:
        """bắt báo: ``seat`` reports ``code`` by ``accused``."""
        ev = {"type": "announce", "seat": seat, "what": "bao", "accused": accused, "code": code}
        return self._add(ev)

    def exhaustive_draw(self) -> Chan:
        return self._add({"type": "exhaustive_draw"})

    def abandon(self, reason: str = "dispute") -> Chan:
        return self._add({"type": "abandon", "reason": reason})

    def result(
        self,
        winners: Iterable[int] = (),
        fan: int | None = None,
        patterns: Iterable[str] | None = None,
        deltas: Iterable[float] | None = None,
        penalties: list[dict[str, Any]] | None = None,
    ) -> Chan:
        self.res = {"winners": list(winners)}
        if fan is not None:
            self.res["fan"] = fan
        if patterns is not None:
            self.res["patterns"] = list(patterns)
        if deltas is not None:
            self.res["deltas"] = list(deltas)
        if penalties is not None:
            self.res["penalties"] = penalties
        return self

    # -- the record ----------------------------------------------------------------------

    def _hand_size(self, seat: int) -> int:
        return self.sizes.get(seat, 20 if seat == self.dealer else 19)

    def _removed(self) -> list[Counter[str]]:
        """Cards each seat takes out of its concealed hand (a dealt hand only loses cards)."""
        out: list[Counter[str]] = [Counter() for _ in range(self.n)]
        for ev in self.events:
            kind, seat = ev["type"], ev.get("seat")
            if kind == "discard":
                out[seat][ev["tile"]] += 1
            elif kind == "eat":
                out[seat][ev["with"]] += 1
            elif kind == "chiu":
                out[seat].update(ev["with"])
            elif kind == "expose":
                out[seat].update(ev["tiles"])
            elif kind == "khai":
                out[seat][ev["tile"]] += 4
            elif kind == "win" and ev.get("via") == "chiu":
                out[seat].update(ev.get("with", ()))
            elif kind == "win" and ev.get("via") == "deal":
                out[seat][ev["tile"]] = max(out[seat][ev["tile"]], 1)
        if "cai" in self.fields:
            c = self.fields["cai"]["tile"]
            out[self.dealer][c] = max(out[self.dealer][c], 1)
        return out

    def _named(self) -> tuple[set[str], list[set[str]]]:
        named = set(self.avoid) | {c for h in self.given for c in h}
        by_seat = [set(h) | w for h, w in zip(self.given, self.without, strict=True)]
        for ev in self.events:
            seat = ev.get("seat")
            for key in ("tile", "with"):
                v = ev.get(key)
                for c in [v] if isinstance(v, str) else v if isinstance(v, list) else ():
                    named.add(c)
                    if seat is not None and ev["type"] != "draw":
                        by_seat[seat].add(c)
            for c in ev.get("tiles", ()):
                named.add(c)
        if "cai" in self.fields:
            named.add(self.fields["cai"]["tile"])
        return named, by_seat

    def record(self, *, wall: bool = True) -> dict[str, Any]:
        removed = self._removed()
        named, by_seat = self._named()
        named_ranks = {rank(c) for c in named}
        starts: list[list[str]] = []
        for s in range(self.n):
            h = list(self.given[s])
            if s not in self.no_add:
                h += list((removed[s] - Counter(h)).elements())
            starts.append(h)
        drawn = Counter(
            ev["tile"] for ev in self.events if ev["type"] == "draw" and isinstance(ev["tile"], str)
        )
        used = Counter(c for h in starts for c in h) + drawn
        over = {c: k for c, k in used.items() if k > DECK[c]}
        if over and not self.allow_overcount:
            raise ValueError(f"the script uses more than 4 copies of {over}")
        left = DECK - used

        def take(seat: int | None, held: Counter[str]) -> str:
            """Never a card the seat's own script uses, then no second copy (no filler
            chắn), then no card the script names, then no rank it names."""

            def key(c: str) -> tuple[bool, int, bool, bool, int, int]:
                own = seat is not None and c in by_seat[seat]
                return (
                    own,
                    held[c],
                    c in named,
                    rank(c) in named_ranks,
                    -left[c],
                    CHAN_CARDS.index(c),
                )

            pool = [c for c in CHAN_CARDS if left[c] > 0]
            if not pool:  # a log drawing past the end of the deck: cards repeat
                return CHAN_CARDS[sum(held.values()) % len(CHAN_CARDS)]
            c = min(pool, key=key)
            left[c] -= 1
            held[c] += 1
            return c

        # The nọc's draws first, so they get the cards the script names least; draws past
        # the 23 nọc cards (impossible logs) come last and repeat cards.
        seen_draws: Counter[str] = Counter()
        autos = [ev["tile"] for ev in self.events if ev["type"] == "draw"]
        for k, auto in enumerate(autos):
            if k < NOC_SIZE and isinstance(auto, _Auto) and auto.card is None:
                auto.card = take(None, seen_draws)
        helds = [Counter(h) for h in starts]
        for s, h in enumerate(starts):
            if s not in self.exact and len(h) > self._hand_size(s):
                raise ValueError(f"seat {s} needs {len(h)} dealt cards: {h}")
        # one card at a time round the table, so no seat is left with the duplicates
        while True:
            short = [
                s
                for s in range(self.n)
                if s not in self.exact and len(starts[s]) < self._hand_size(s)
            ]
            if not short:
                break
            for s in short:
                starts[s].append(take(s, helds[s]))
        events = []
        for ev in self.events:
            out = dict(ev)
            if isinstance(ev.get("tile"), _Auto):
                auto = ev["tile"]
                if auto.card is None:
                    auto.card = take(None, seen_draws)
                out["tile"] = auto.card
            events.append(out)
        rec: dict[str, Any] = {
            "format": "mjlog/1",
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": "chan",
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
            draws = [e["tile"] for e in events if e["type"] == "draw"][:NOC_SIZE]
            rest = sorted(left.elements(), key=CHAN_CARDS.index)
            rec["wall"] = (draws + rest)[:NOC_SIZE]
        rec.update(self.fields)
        return canonical(rec)

    def replay(
        self,
        overrides: Mapping[str, object] | None = None,
        previous: HandReport | None = None,
        *,
        wall: bool = True,
    ) -> HandReport:
        return replay_hand(self.record(wall=wall), overrides, previous)


# -- looking at findings -------------------------------------------------------------------


def only(
    report: HandReport, code: str, cls: FindingClass, *, seat: int | None, index: int | None
) -> Finding:
    """The one finding with ``code``; its class, seat and event index are exact."""
    found = with_code(report, code)
    assert len(found) == 1, f"expected one {code}, got {report.findings}"
    f = found[0]
    assert (f.cls, f.seat, f.event_index) == (cls, seat, index), f
    assert f.message
    return f


def absent(report: HandReport, code: str) -> None:
    assert with_code(report, code) == [], with_code(report, code)


def stopped(report: HandReport) -> None:
    """A CORRUPT_LOG finding stops the replay: the hand is not settled (§0)."""
    assert report.corrupt
    assert report.deltas is None
    assert [f.cls for f in report.findings].count(HARD) == 1, report.findings
