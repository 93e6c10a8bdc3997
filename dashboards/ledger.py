"""What the log itself says is on the table after an event, for the rulesets whose engine
offers no step-through (vn-160, american, chan today): a display ledger, not an audit.

It starts from ``start_hands`` and moves tiles or cards as each event says: draws into the
hand (in chắn, face up onto the drawer's cửa), discards onto a pile (chắn: the cửa named by
``to``), claims and chắn eats from the top of a pile into an exposure, Charleston and
courtesy passes from hand to hand (blind tiles forwarded unseen), joker exchanges, khai and
chíu quads. It never judges: a tile the log moves but the hand does not hold is moved
anyway and noted, and an event type it does not know changes nothing. Legality is the
engine's business; its findings come from the replay tables.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from mjaudit.parts.dashboards.chan_terms import cuoc_name
from mjaudit.parts.dashboards.faces import face_name, is_cards
from mjaudit.parts.replay.rulesets.vn160.tiles import full_set

# Charleston pass number -> how many seats on the receiver sits (rules/american.md §3:
# right = next seat, across = two on, left = the previous seat)
CHARLESTON = {1: 1, 2: 2, 3: 3, 4: 3, 5: 2, 6: 1}
CHARLESTON_WORDS = {1: "right", 2: "across", 3: "left", 4: "left", 5: "across", 6: "right"}
CLAIM_SIZES = {"pung": 3, "kong": 4, "quint": 5, "sextet": 6}
TOTAL_TILES = {"vn-160": 160, "american": 152, "chan": 100}  # vn-160: see _total_tiles


def _total_tiles(record: dict[str, Any]) -> int | None:
    """The tiles (cards) of the set: vn-160 adds 8 per extra khung set (option
    ``khung_sets``, :func:`replay.vn160.tiles.full_set`)."""
    ruleset = record["ruleset"]
    if ruleset == "vn-160":
        sets = (record.get("options") or {}).get("khung_sets", 1)
        if sets in (1, 2, 3) and not isinstance(sets, bool):
            return full_set(sets).total()
    return TOTAL_TILES.get(ruleset)


@dataclass(frozen=True)
class Exposure:
    kind: str  # chow, pung, kong, quint, sextet, concealed_kong, eat, chiu, khai, ...
    tiles: tuple[str, ...]
    from_seat: int | None
    new: bool = False  # made or changed at this event


@dataclass(frozen=True)
class LedgerSeat:
    seat: int
    player: str
    dealer: bool
    concealed: tuple[str, ...] | None  # None when the log has no start hands
    drawn: str | None  # the tile or card of this event, shown apart
    exposures: tuple[Exposure, ...]
    flowers: tuple[str, ...]
    pile: tuple[tuple[str, bool], ...]  # discards (chắn: the cửa), (code, taken by a player)
    new_on_pile: bool = False


@dataclass(frozen=True)
class LedgerView:
    ruleset: str
    at: int
    n_events: int
    description: str
    seats: tuple[LedgerSeat, ...]
    drawn_so_far: int  # draws and replacements (chắn: cards turned from the nọc)
    undrawn: int | None  # tiles (cards) not yet dealt or drawn, when the deal is known
    notes: tuple[str, ...]  # where the log moved something the ledger did not see held
    actor: int | None


def _tile(x: Any) -> str | None:
    """A tile field: a code, or a blind-pass ``{"tile": code, "blind": true}``."""
    if isinstance(x, dict):
        x = x.get("tile")
    return x if isinstance(x, str) else None


def _seat(ev: dict[str, Any], key: str, n: int) -> int | None:
    s = ev.get(key)
    return s if isinstance(s, int) and 0 <= s < n else None


def describe(record: dict[str, Any], at: int) -> str:
    """One line for event ``at`` of any ruleset (-1: the deal), in the players' names and
    the faces' names; an unknown event type is shown with its fields."""
    if at < 0:
        return "after the deal"
    ruleset = record["ruleset"]
    ev = record["events"][at]
    names = record["players"]

    def who(key: str = "seat") -> str:
        seat = ev.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def name(code: Any) -> str:
        code = _tile(code)
        return f"{code} ({face_name(ruleset, code)})" if code else "?"

    def names_of(codes: Any) -> str:
        if not isinstance(codes, list):
            return "?"
        return ", ".join(
            name(c) + (" (blind)" if isinstance(c, dict) and c.get("blind") else "") for c in codes
        )

    kind, tile = ev.get("type", "?"), ev.get("tile")
    cards = is_cards(ruleset)
    text: str | None = None
    if kind == "draw":
        text = (
            f"{who()} turns {name(tile)} from the nọc onto their cửa"
            if cards
            else f"{who()} draws {name(tile)}"
        )
    elif kind == "discard":
        to = ev.get("to")
        onto = (
            f" onto {who('to')}'s cửa" if cards and to is not None and to != ev.get("seat") else ""
        )
        text = f"{who()} discards {name(tile)}{onto}"
    elif kind in ("replacement", "flower"):
        text = {
            "replacement": f"{who()} draws a replacement, {name(tile)}",
            "flower": f"{who()} declares {name(tile)}",
        }[kind]
    elif kind == "chow":
        text = f"{who()} chows {name(tile)} from {who('from')}: {names_of(ev.get('tiles'))}"
    elif kind in CLAIM_SIZES:
        with_ = f" with {names_of(ev['with'])}" if ev.get("with") else ""
        text = f"{who()} calls {name(tile)} from {who('from')} for a {kind}{with_}"
    elif kind == "concealed_kong":
        text = f"{who()} declares a concealed kong of {name(tile)}"
    elif kind == "added_kong":
        text = f"{who()} adds {name(tile)} to a pung"
    elif kind == "charleston_pass":
        n = ev.get("pass")
        blind = any(isinstance(t, dict) and t.get("blind") for t in ev.get("tiles") or [])
        text = (
            f"{who()} passes {CHARLESTON_WORDS.get(n, '?')} (Charleston pass {n}"
            f"{', blind' if blind else ''}): {names_of(ev.get('tiles'))}"
        )
    elif kind == "charleston_stop":
        text = f"{who()} stops the Charleston (no second Charleston)"
    elif kind == "courtesy_pass":
        text = (
            f"{who()} passes {len(ev.get('tiles') or [])} to {who('partner')} in the courtesy "
            f"pass (asked {ev.get('asked', '?')}): {names_of(ev.get('tiles'))}"
        )
    elif kind == "joker_exchange":
        text = (
            f"{who()} gives {name(tile)} for a joker in {who('target')}'s exposure "
            f"{ev.get('exposure', '?')}"
        )
    elif kind == "eat":
        src = "the card they drew" if ev.get("from") == ev.get("seat") else f"{who('from')}'s cửa"
        trai = " (eaten card on top)" if ev.get("placement") == "eaten_on_top" else ""
        text = f"{who()} eats {name(tile)} from {src} with {name(ev.get('with'))}{trai}"
    elif kind == "chiu":
        text = f"{who()} chíu {name(tile)} from {who('from')}'s cửa with {names_of(ev.get('with'))}"
    elif kind == "expose":
        text = f"{who()} exposes {names_of(ev.get('tiles'))} (completing a chíu)"
    elif kind == "khai":
        text = f"{who()} khai: exposes four {name(tile)} (thiên khai)"
    elif kind == "pass":
        text = f"{who()} leaves the drawn card on their cửa"
    elif kind == "decline_u":
        text = f"{who()} declines to win (không ù)"
    elif kind == "announce":
        what = ev.get("what", "")
        if what == "bao":
            text = f"{who()} reports {who('accused')} for {ev.get('code', '?')} (bắt báo)"
        elif what == "dead_hand":
            text = f"{who()} declares {who('target')}'s hand dead"
        else:
            text = f"{who()} announces {what}"
    elif kind == "win":
        text = _describe_win(ev, who, name, cards)
    elif kind == "exhaustive_draw":
        text = "draw (hòa): the nọc is exhausted" if cards else "exhaustive draw: the wall is empty"
    elif kind == "abandon":
        text = f"the hand is abandoned ({ev.get('reason') or 'no reason given'})"
    if text is None:  # a type this page does not know: its fields, as recorded
        fields = ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
        text = f"{kind}" + (f" ({fields})" if fields else "")
    return f"event {at}: {text}"


def _describe_win(ev: dict[str, Any], who: Any, name: Any, cards: bool) -> str:
    tile = ev.get("tile")
    via = ev.get("via")
    if via == "deal":
        how = "from the deal (thiên ù)"
    elif via == "chiu":
        how = f"by chíu from {who('from')}'s cửa (chíu ù)"
    elif ev.get("robbed_kong"):
        how = f"robbing {who('from')}'s kong"
    elif ev.get("from") is None:
        how = "on their own draw" if cards else "self-drawn"
    else:
        how = f"on the card {who('from')} drew" if cards else f"on {who('from')}'s discard"
    claim = ev.get("claim") or {}
    said = ""
    if cards and isinstance(claim, dict) and "cuoc" in claim:
        items = []
        for c in claim["cuoc"] or []:
            if isinstance(c, dict):
                n = c.get("n", 1)
                items.append(cuoc_name(str(c.get("id"))) + (f" ×{n}" if n != 1 else ""))
            else:
                items.append(cuoc_name(str(c)))
        said = f"; declares {', '.join(items) or 'xuông'}"
    elif isinstance(claim, dict) and claim.get("hand"):
        said = f"; card hand {claim['hand']}"
    verb = "wins (ù)" if cards else "declares a win"
    return f"{who()} {verb} on {name(tile)}, {how}{said}"


class _Table:
    """The mutable ledger; :func:`ledger_view` freezes it into a :class:`LedgerView`."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.cards = is_cards(record["ruleset"])
        self.n = len(record["players"])
        start = record.get("start_hands")
        self.known = isinstance(start, list) and len(start) == self.n
        self.hands: list[Counter[str]] = [
            Counter(h) if self.known else Counter() for h in (start or [[]] * self.n)
        ][: self.n]
        while len(self.hands) < self.n:
            self.hands.append(Counter())
        self.exposures: list[list[Exposure]] = [[] for _ in range(self.n)]
        self.flowers: list[list[str]] = [[] for _ in range(self.n)]
        self.piles: list[list[list[Any]]] = [[] for _ in range(self.n)]  # [code, taken]
        self.drawn = 0
        self.notes: list[str] = []
        self.transit: dict[int, tuple[int, list[str], list[str]]] = {}  # Charleston
        self.courtesy: list[tuple[int, int, list[str]]] = []

    # -- helpers ------------------------------------------------------------------------

    def take(self, seat: int, code: str | None, at: int, count: int = 1) -> None:
        """Remove ``count`` copies from a hand (noting it when the ledger has fewer)."""
        if code is None:
            return
        have = self.hands[seat][code]
        if self.known and have < count:
            self.notes.append(f"event {at}: {self.record['players'][seat]} did not hold {code}")
        self.hands[seat][code] = max(0, have - count)
        if self.hands[seat][code] == 0:
            del self.hands[seat][code]

    def from_pile(self, owner: int | None, code: str | None) -> None:
        """Mark the newest copy of ``code`` on ``owner``'s pile as taken."""
        if owner is None or code is None:
            return
        for entry in reversed(self.piles[owner]):
            if entry[0] == code and not entry[1]:
                entry[1] = True
                return

    def settle_passes(self, at: int) -> None:
        """Deliver a finished Charleston (or courtesy) pass: every seat gets what was
        passed to it, minus the tiles it passed on blind."""
        if self.transit:
            incoming: dict[int, Counter[str]] = {s: Counter() for s in range(self.n)}
            for to, own, blind in self.transit.values():
                incoming[to].update(own)
                incoming[to].update(blind)
            for seat in range(self.n):
                blind = Counter(self.transit.get(seat, (0, [], []))[2])
                got = incoming[seat] - blind
                if blind - incoming[seat]:
                    self.notes.append(
                        f"event {at}: {self.record['players'][seat]} passed blind tiles "
                        "that were not passed to them"
                    )
                self.hands[seat].update(got)
            self.transit = {}
        for _, partner, tiles in self.courtesy:
            self.hands[partner].update(tiles)
        self.courtesy = []

    # -- events -------------------------------------------------------------------------

    def step(self, at: int, ev: dict[str, Any]) -> None:
        kind = ev.get("type")
        seat = _seat(ev, "seat", self.n)
        frm = _seat(ev, "from", self.n)
        tile = _tile(ev.get("tile"))
        if seat is None and kind not in ("exhaustive_draw", "abandon"):
            return
        assert seat is not None or kind in ("exhaustive_draw", "abandon")
        if kind == "draw":
            self.drawn += 1
            if self.cards:  # bốc nọc: face up on the drawer's own cửa
                self.piles[seat].append([tile, False])  # type: ignore[index]
            elif tile:
                self.hands[seat][tile] += 1  # type: ignore[index]
        elif kind == "replacement" and tile:
            self.drawn += 1
            self.hands[seat][tile] += 1  # type: ignore[index]
        elif kind == "flower":
            self.take(seat, tile, at)  # type: ignore[arg-type]
            self.flowers[seat].append(tile or "?")  # type: ignore[index]
        elif kind == "discard":
            self.take(seat, tile, at)  # type: ignore[arg-type]
            to = _seat(ev, "to", self.n)
            self.piles[seat if to is None else to].append([tile, False])  # type: ignore[index]
        elif kind == "chow":
            run = [t for t in (_tile(x) for x in ev.get("tiles") or []) if t]
            own = list(run)
            if tile in own:
                own.remove(tile)
            for t in own:
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.from_pile(frm, tile)
            self.exposures[seat].append(Exposure("chow", tuple(run), frm))  # type: ignore[index]
        elif kind in CLAIM_SIZES:
            size = CLAIM_SIZES[kind]
            own = [t for t in (_tile(x) for x in ev.get("with") or []) if t] or [tile] * (size - 1)
            for t in own:
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.from_pile(frm, tile)
            tiles = tuple([tile or "?", *own])  # type: ignore[list-item]
            self.exposures[seat].append(Exposure(kind, tiles, frm))  # type: ignore[index]
        elif kind == "concealed_kong":
            own = [t for t in (_tile(x) for x in ev.get("with") or []) if t] or [tile] * 4
            for t in own:
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.exposures[seat].append(Exposure(kind, tuple(own), None))  # type: ignore[index,arg-type]
        elif kind == "added_kong":
            self.take(seat, tile, at)  # type: ignore[arg-type]
            mine = self.exposures[seat]  # type: ignore[index]
            for i, e in enumerate(mine):
                if e.kind == "pung" and tile in e.tiles:
                    mine[i] = Exposure("added_kong", (*e.tiles, tile), e.from_seat)  # type: ignore[arg-type]
                    break
            else:
                mine.append(Exposure("added_kong", (tile or "?",), None))
        elif kind == "charleston_pass":
            n = ev.get("pass")
            to = (seat + CHARLESTON.get(n, 1)) % self.n  # type: ignore[operator]
            own: list[str] = []
            blind: list[str] = []
            for x in ev.get("tiles") or []:
                t = _tile(x)
                if t:
                    (blind if isinstance(x, dict) and x.get("blind", True) else own).append(t)
            for t in own:
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.transit[seat] = (to, own, blind)  # type: ignore[index]
        elif kind == "courtesy_pass":
            partner = _seat(ev, "partner", self.n)
            tiles = [t for t in (_tile(x) for x in ev.get("tiles") or []) if t]
            for t in tiles:
                self.take(seat, t, at)  # type: ignore[arg-type]
            if partner is not None:
                self.courtesy.append((seat, partner, tiles))  # type: ignore[arg-type]
        elif kind == "joker_exchange":
            target = _seat(ev, "target", self.n)
            index = ev.get("exposure")
            self.take(seat, tile, at)  # type: ignore[arg-type]
            if (
                target is not None
                and isinstance(index, int)
                and index < len(self.exposures[target])
            ):
                e = self.exposures[target][index]
                if "J" in e.tiles:
                    tiles = list(e.tiles)
                    tiles[tiles.index("J")] = tile or "?"
                    self.exposures[target][index] = Exposure(e.kind, tuple(tiles), e.from_seat)
                    self.hands[seat]["J"] += 1  # type: ignore[index]
                    return
            self.notes.append(f"event {at}: no joker in that exposure")
        elif kind == "eat":
            with_ = _tile(ev.get("with"))
            self.take(seat, with_, at)  # type: ignore[arg-type]
            self.from_pile(frm, tile)
            pair = (with_ or "?", tile or "?")
            if ev.get("placement") == "eaten_on_top":
                pair = (tile or "?", with_ or "?")
            self.exposures[seat].append(Exposure("eat", pair, frm))  # type: ignore[index]
        elif kind == "chiu":
            own = [t for t in (_tile(x) for x in ev.get("with") or []) if t]
            for t in own:
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.from_pile(frm, tile)
            self.exposures[seat].append(Exposure("chiu", (tile or "?", *own), frm))  # type: ignore[index]
        elif kind == "expose":
            tiles = [t for t in (_tile(x) for x in ev.get("tiles") or []) if t]
            for t in tiles:
                self.take(seat, t, at)  # type: ignore[arg-type]
            mine = self.exposures[seat]  # type: ignore[index]
            for i in range(len(mine) - 1, -1, -1):
                if mine[i].kind == "chiu":
                    mine[i] = Exposure("chiu", (*mine[i].tiles, *tiles), mine[i].from_seat)
                    break
            else:
                mine.append(Exposure("expose", tuple(tiles), None))
        elif kind == "khai":
            self.take(seat, tile, at, 4)  # type: ignore[arg-type]
            self.exposures[seat].append(Exposure("khai", (tile or "?",) * 4, None))  # type: ignore[index]
        elif kind == "win" and ev.get("via") == "chiu":
            for t in (_tile(x) for x in ev.get("with") or []):
                self.take(seat, t, at)  # type: ignore[arg-type]
            self.from_pile(frm, tile)
        elif kind == "win" and ev.get("via") != "deal":
            # chắn: the nọc card lies on its drawer's cửa (the winner's own when no `from`);
            # mahjong: a discard on the discarder's pile (none when self-drawn)
            self.from_pile(seat if self.cards and frm is None else frm, tile)


def ledger_view(record: dict[str, Any], at: int) -> LedgerView:
    """The table after event ``at`` (-1: after the deal) as the log describes it."""
    events = record["events"]
    n_events = len(events)
    if not -1 <= at < n_events:
        raise ValueError(f"event {at}: the hand has events 0-{n_events - 1}")
    table = _Table(record)
    for i, ev in enumerate(events[: at + 1]):
        if ev.get("type") in ("charleston_pass", "courtesy_pass"):
            table.step(i, ev)
            nxt = events[i + 1] if i + 1 < n_events else {}
            same = nxt.get("type") == ev.get("type") and nxt.get("pass") == ev.get("pass")
            if not same:  # the pass is complete: every seat receives its tiles
                table.settle_passes(i)
        else:
            table.step(i, ev)
    ev = events[at] if at >= 0 else {}
    kind = ev.get("type")
    actor = _seat(ev, "seat", table.n)
    before_new = {"eat", "chiu", "khai", "expose", "chow", "concealed_kong", "added_kong"}
    seats = []
    for seat, name in enumerate(record["players"]):
        mine = seat == actor
        hand = Counter(table.hands[seat])
        drawn = None
        tile = _tile(ev.get("tile"))
        if mine and kind in ("draw", "replacement") and not table.cards and hand[tile] > 0:  # type: ignore[index]
            hand[tile] -= 1  # type: ignore[index]
            drawn = tile
        elif mine and kind == "win" and tile:
            drawn = tile
            if not table.cards and ev.get("from") is None and hand[tile] > 0:
                hand[tile] -= 1  # self-drawn: the winning tile is shown apart
        exposures = table.exposures[seat]
        marked = tuple(
            Exposure(e.kind, e.tiles, e.from_seat, new=mine and i == len(exposures) - 1)
            if kind in before_new or kind in CLAIM_SIZES
            else e
            for i, e in enumerate(exposures)
        )
        if kind == "joker_exchange" and _seat(ev, "target", table.n) == seat:
            idx = ev.get("exposure")
            marked = tuple(
                Exposure(e.kind, e.tiles, e.from_seat, new=i == idx) for i, e in enumerate(marked)
            )
        pile = table.piles[seat]
        onto = _seat(ev, "to", table.n) if kind == "discard" else None
        lands = seat == (onto if onto is not None else actor)
        seats.append(
            LedgerSeat(
                seat=seat,
                player=name,
                dealer=seat == record["dealer"],
                concealed=tuple(sorted(hand.elements(), key=_order)) if table.known else None,
                drawn=drawn,
                exposures=marked,
                flowers=tuple(table.flowers[seat]),
                pile=tuple((c, bool(t)) for c, t in pile),
                new_on_pile=lands and (kind == "discard" or (kind == "draw" and table.cards)),
            )
        )
    total = _total_tiles(record)
    undrawn = None
    if table.known and total is not None:
        dealt = sum(len(h) for h in record["start_hands"])
        undrawn = total - dealt - table.drawn
        if record["ruleset"] == "chan" and table.n < 4:  # the missing seats' piles: unseen
            undrawn = None
    return LedgerView(
        ruleset=record["ruleset"],
        at=at,
        n_events=n_events,
        description=describe(record, at),
        seats=tuple(seats),
        drawn_so_far=table.drawn,
        undrawn=undrawn,
        notes=tuple(table.notes),
        actor=actor,
    )


def _order(code: str) -> tuple[int, str]:
    """Sort a hand by suit then rank (chắn: by rank, so cạ sit together)."""
    if len(code) == 2 and code[0].isdigit():
        return (0, code[1] + code[0]) if code[1] in "mps" else (0, code[0] + code[1])
    return (1, code)
