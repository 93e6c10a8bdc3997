"""One American hand as a state machine: the §9.2 checklist of american.md, event by event.

:class:`AmericanHand` holds the table state of one hand and applies one ``mjlog/1`` event
at a time (:meth:`AmericanHand.step`), emitting findings with the checklist codes.
``CORRUPT_LOG`` findings raise :class:`Stop`; ``PLAYER_VIOLATION`` findings apply their
consequence (usually a dead hand, §8.1) and replay goes on.

Simulator API (what a bot driver uses; all read-only unless noted):

* ``AmericanHand(record, options, card)`` then :meth:`start` (deal, record checks). A
  simulator builds ``record`` with ``players``, ``dealer``, ``start_hands`` (and
  optionally ``wall``) and an empty ``events`` list, then feeds events to
  :meth:`apply` (= ``step`` at the next index, appending to ``record["events"]``).
* State: :attr:`phase` (``"charleston"``, ``"play"``, ``"ended"``), :attr:`turn` (the
  seat to act), :attr:`holding` (True when ``turn`` holds 14 and must discard or win,
  False when it must draw), :meth:`concealed_codes` (a seat's concealed tiles),
  :attr:`exposures` (per seat, :class:`Exposure` with ``tiles`` and ``jokers``),
  :attr:`latest` (the latest discard and whether its call window is open),
  :attr:`remaining` (undrawn wall tiles), :attr:`dead` (seat -> code),
  :attr:`charleston_next` (the next Charleston pass number expected, or None),
  :attr:`win` (the settled win, or None), :meth:`settlement` (deltas).
* :meth:`legal_actions` ``(seat)`` lists the events ``seat`` may legally make now
  (draw, each discard, each call of the open discard, each joker exchange, Mahjong when
  the hand matches the card; for the Charleston a template with ``choose`` = 3).
  A ``draw`` action carries no ``tile``: the driver adds the next wall tile
  (``wall[head]``). When no seat has an action and :attr:`remaining` is 0 (or
  :attr:`wall_game_possible`), the driver ends the hand with ``exhaustive_draw``.
* :meth:`winning_match` ``(seat, tile=None)``: the card hand the seat's tiles would
  score as (with ``tile`` added for a discard), or None.

Checklist numbers (#n) in comments are those of american.md §9.2.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from mjaudit.parts.replay.engine.findings import Finding, HandFindings
from mjaudit.parts.replay.engine.turns import DISCARD, DRAW, OWN_TURN, FollowsTheLog, claim_of
from mjaudit.parts.replay.rulesets.american.card import Card
from mjaudit.parts.replay.rulesets.american.matcher import (
    ExposureShape,
    Match,
    best_match,
    compile_card,
    exposures_fit,
    match_all,
)
from mjaudit.parts.replay.rulesets.american.options import AmericanOptions
from mjaudit.parts.replay.rulesets.american.scoring import add, mahjong_in_error_deltas, settle
from mjaudit.parts.replay.rulesets.american.tiles import (
    COPIES,
    FLOWER,
    FLOWER_CODES,
    JOKER_KIND,
    N_KINDS,
    is_known,
    kind,
)
from mjaudit.parts.schemas.tiles import AMERICAN, BONUS_TILES, JOKER, UNKNOWN_FLOWER

N = 4
WIND_NAMES = "ESWN"
CHARLESTON_EVENTS = frozenset({"charleston_pass", "charleston_stop", "courtesy_pass"})
CALL_SIZES = {"pung": 3, "kong": 4, "quint": 5, "sextet": 6}
CALL_KINDS = frozenset(CALL_SIZES)
# Pass number -> seat offset of the receiver (right = next seat, across = +2, left = -1).
PASS_OFFSET = {1: 1, 2: 2, 3: 3, 4: 3, 5: 2, 6: 1}
PASS_NAME = {1: "right", 2: "across", 3: "left", 4: "left", 5: "across", 6: "right"}
FULL_SET: Counter[str] = Counter(
    {**{c: 4 for c in AMERICAN.codes[:34]}, **{c: 1 for c in BONUS_TILES}, JOKER: 8}
)


@dataclass
class Exposure:
    """An exposed group: ``kind`` is its identity (§4.3), ``tiles`` its log codes."""

    kind: int
    tiles: list[str]
    from_seat: int | None
    index: int  # event index of the call

    @property
    def jokers(self) -> int:
        return sum(1 for t in self.tiles if t == JOKER)

    def shape(self) -> ExposureShape:
        return ExposureShape(self.kind, len(self.tiles), self.jokers)


@dataclass
class LatestDiscard:
    seat: int
    tile: str
    index: int
    open: bool = True  # call window (§4.2): closed by the next draw or an executed call


@dataclass(frozen=True)
class WinInfo:
    seat: int
    index: int
    match: Match | None  # None when concealed tiles are unknown (partial log)
    discarder: int | None  # the liable discarder, None for a self-drawn payment
    self_drawn: bool
    initial: bool = False


@dataclass
class _Courtesy:
    seat: int
    partner: int
    asked: int
    tiles: list[str]
    index: int


def _event_codes(ev: dict[str, Any]) -> list[object]:
    """The tile fields of an event that #3 checks (a ``tile`` field even when null)."""
    codes: list[object] = [ev["tile"]] if "tile" in ev else []
    if with_ := ev.get("with"):
        codes += with_
    if tiles := ev.get("tiles"):  # most events have none: no generator per event
        codes += [t["tile"] if isinstance(t, dict) else t for t in tiles]
    return codes


@dataclass
class AmericanHand(FollowsTheLog, HandFindings):
    """One hand's table. After an out-of-turn draw or discard the table follows the log
    (§0, :mod:`replay.turns`): ``kept`` holds the entitled turn while it is still open."""

    # The per-turn state an out-of-turn action leaves open for the entitled player.
    TURN_FIELDS = ("turn", "holding", "turn_by", "drawn", "call_from", "call_tile", "latest")

    record: dict[str, Any]
    opts: AmericanOptions
    card: Card | None
    findings: list[Finding] = field(default_factory=list)

    def __post_init__(self) -> None:
        rec = self.record
        self.dealer: int = rec["dealer"]
        self.card_problem: str | None = None  # why ``card`` is None (CARD_INVALID)
        self.phase = "charleston"
        self.ended_by = "unfinished"
        self.stopped = False
        self.partial = False
        self.hands: list[Counter[str]] = [Counter() for _ in range(N)]
        self.exposures: list[list[Exposure]] = [[] for _ in range(N)]
        self.discards: list[list[str]] = [[] for _ in range(N)]
        self.dead: dict[int, str] = {}
        self.turn = self.dealer
        self.holding = True
        self.turn_by = "deal"  # deal | draw | call
        self.drawn: str | None = None
        self.call_from: int | None = None
        self.call_tile: str | None = None
        self.latest: LatestDiscard | None = None
        self.claims: list[tuple[int, str, int]] = []  # (seat, kind, event index)
        self.wall: list[str] | None = rec.get("wall")
        self.head = 0
        self.remaining = 152
        self.seen: Counter[str] = Counter()
        self.charleston_seen = False
        self.charleston_last = 0  # last completed pass
        self.charleston_stopped = False
        self.pass_no: int | None = None
        self.pass_parts: dict[int, tuple[list[str], list[str], int]] = {}
        self.courtesy: dict[int, _Courtesy] = {}
        self.courtesy_done = False
        self.courtesy_passed: set[int] = set()
        self.east_first_draw = False  # East dealt 13: its 14th tile is the first draw
        self.dealt: list[list[str]] = []
        self.win: WinInfo | None = None
        self.penalties: list[tuple[int, str, list[float]]] = []
        self.index = -1

    # -- findings ------------------------------------------------------------------------

    def player(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return (
            f"{self.record['players'][seat]} ({WIND_NAMES[(seat - self.dealer) % N]}, seat {seat})"
        )

    def viol(  # type: ignore[override]
        self, index: int, seat: int | None, code: str, message: str, *, kills: bool = True
    ) -> None:
        """A PLAYER_VIOLATION; with ``kills`` the player's hand is dead (§8.1)."""
        super().viol(index, seat, code, message)
        if kills and seat is not None:
            self.kill(index, seat, code)

    def kill(self, index: int, seat: int, code: str) -> None:
        if seat in self.dead:
            return
        self.dead[seat] = code
        self.info(index, seat, "DEAD_HAND", f"{self.player(seat)}'s hand is dead ({code})")
        self._pass_turn_if_dead(seat)

    def _pass_turn_if_dead(self, seat: int) -> None:
        """A dead hand stops playing (§8.1): a turn it holds passes to the next live seat."""
        if self.phase == "play" and seat == self.turn and seat in self.dead:
            self.turn = self.next_live(seat)  # whether it held 14 or was next to draw
            self.holding = False
            self.turn_by = "deal"
            self.drawn = None

    def may_act(self, state: dict[str, Any], seat: int, action: tuple[Any, ...]) -> bool:
        """Whether ``seat`` may make ``action`` in the turn ``state`` (:mod:`replay.turns`)."""
        turn, holding = state["turn"], state["holding"]
        if action == DRAW:
            return seat == turn and not holding and seat not in self.dead
        if action in (DISCARD, OWN_TURN):
            return seat == turn and holding
        d = state["latest"]
        src, tile = action[1], action[2]
        return d is not None and d.open and d.seat == src and d.tile == tile and src != seat

    # -- queries -------------------------------------------------------------------------

    def size(self, seat: int) -> int:
        """Concealed plus exposed tiles (a kong counts 4, §4.1)."""
        exposed = self.exposures[seat]
        held = sum(self.hands[seat].values())
        return held + sum([len(e.tiles) for e in exposed]) if exposed else held

    def concealed_codes(self, seat: int) -> list[str]:
        return sorted(self.hands[seat].elements())

    def kinds_vector(self, codes: Counter[str]) -> list[int]:
        out = [0] * N_KINDS
        for c, n in codes.items():
            out[kind(c)] += n
        return out

    def shapes(self, seat: int) -> list[ExposureShape]:
        return [e.shape() for e in self.exposures[seat]]

    @property
    def charleston_next(self) -> int | None:
        if self.phase != "charleston":
            return None
        if self.pass_no is not None:
            return self.pass_no
        if self.courtesy_passed or self.courtesy:
            return None  # the courtesy pass is the last exchange (§3)
        last = self.charleston_last
        if last < 3:
            return last + 1
        if last == 3 and not self.charleston_stopped and self.opts.second_charleston != "never":
            return 4
        if 3 < last < 6:
            return last + 1
        return None

    @property
    def wall_game_possible(self) -> bool:
        """#34: the wall is empty, or three hands are dead (option end_when_three_dead)."""
        return self.remaining <= 0 or (self.opts.end_when_three_dead and len(self.dead) >= 3)

    def next_live(self, seat: int) -> int:
        for k in range(1, N + 1):
            s = (seat + k) % N
            if s not in self.dead:
                return s
        return (seat + 1) % N

    def winning_match(
        self, seat: int, tile: str | None = None, *, exclude_concealed: bool | None = None
    ) -> Match | None:
        """The best card hand of ``seat``'s tiles (plus ``tile``, a called discard), or None."""
        if self.card is None:
            return None
        hand = self.hands[seat].copy()
        if tile is not None:
            hand[tile] += 1
        shapes = self.shapes(seat)
        return best_match(
            self.card,
            self.kinds_vector(hand),
            shapes,
            jokerless_doubles=self.opts.jokerless_doubles,
            exclude_concealed=bool(shapes) if exclude_concealed is None else exclude_concealed,
        )

    # -- set-up (#1-#6) --------------------------------------------------------------------

    def start(self) -> None:
        rec = self.record
        players = rec.get("players", [])
        if rec.get("format", "mjlog/1") != "mjlog/1" or rec.get("ruleset") != "american":
            self.hard(None, None, "RECORD_INVALID", "the record is not an mjlog/1 american hand")
        if len(players) != N or len(set(players)) != N:
            self.hard(
                None, None, "RECORD_INVALID", f"american needs 4 distinct players, got {players}"
            )
        if not 0 <= self.dealer < N:
            self.hard(None, None, "RECORD_INVALID", f"dealer {self.dealer} is not a seat 0-3")
        if self.card is None:
            self.hard(
                None, None, "CARD_INVALID", "no card is loaded for this record (options.card)"
            )
        self._check_codes()
        hands = rec.get("start_hands")
        wall = self.wall
        if wall is not None:
            self._check_wall_set(wall)
        events = rec.get("events", [])
        first = events[0] if events else None
        east_draw = (
            first is not None and first.get("type") == "draw" and first.get("seat") == self.dealer
        )
        if hands is None and wall is not None:
            hands = self._deal_from_wall(14)
            if east_draw and first["tile"] in hands[self.dealer]:  # type: ignore[index]
                # §9.1: East's 14th dealt tile recorded as its first draw (event 0).
                hands[self.dealer].remove(first["tile"])  # type: ignore[index]
        if hands is None:
            self.partial = True
            self.info(
                None,
                None,
                "PARTIAL_INFORMATION",
                "the log has neither start_hands nor wall: only public actions are checked and "
                "the win cannot be scored",
            )
            self.remaining = 152 - 53
            return
        if len(hands) != N:
            self.hard(None, None, "DEAL_INVALID", f"start_hands has {len(hands)} hands, not 4")
        sizes = [len(h) for h in hands]
        east = sizes[self.dealer]
        others_ok = all(sizes[s] == 13 for s in range(N) if s != self.dealer)
        if not others_ok or east not in (13, 14) or (east == 13 and not east_draw):
            self.hard(
                None,
                None,
                "DEAL_INVALID",
                f"dealt hand sizes {sizes}: East (seat {self.dealer}) needs 14, or 13 with the "
                "first event its draw; the others 13",
            )
        self.east_first_draw = east == 13
        self.dealt = hands  # start_hands, or the deal read off the wall
        for seat, h in enumerate(hands):
            for code in h:
                self.hands[seat][code] += 1
                self._see(None, code)
        dealt = sum(sizes)
        if wall is not None:
            expect = Counter(wall[:53])
            got = Counter(c for h in hands for c in h)
            if east == 13:
                got[first["tile"]] += 1  # type: ignore[index]
            if _flower_fold(expect) != _flower_fold(got):
                self.hard(
                    None,
                    None,
                    "DEAL_INVALID",
                    "the first 53 wall tiles are not, as a multiset, the dealt hands",
                )
            if self.opts.verify_deal_positions:
                self._verify_positions(hands, first["tile"] if east == 13 else None)  # type: ignore[index]
        self.head = dealt
        self.remaining = 152 - dealt
        if east == 13:
            self.holding = False

    def _check_codes(self) -> None:
        """#3 UNKNOWN_TILE."""
        rec = self.record

        def check(
            code: object, where: str, index: int | None = None, seat: int | None = None
        ) -> None:
            if not is_known(code):
                self.hard(
                    index, seat, "UNKNOWN_TILE", f"{where}: {code!r} is not an american tile code"
                )

        for code in rec.get("wall") or ():
            check(code, "wall")
        for seat, h in enumerate(rec.get("start_hands") or ()):
            for code in h:
                check(code, f"start hand of seat {seat}", None, seat)
        for i, ev in enumerate(rec.get("events", [])):
            for code in _event_codes(ev):
                if not is_known(code):  # the message only for an unknown code
                    check(code, f"event {i} ({ev.get('type')})", i, ev.get("seat"))

    def deal_admits(self, index: int, ev: dict[str, Any]) -> bool:
        """Would the deal raise what it raised with ``ev`` recorded at ``index`` as well?
        It reads the first event (East's first draw) and every event's tile codes (#3): a
        later event whose codes are all known leaves it as it was, so the live service
        need not deal again to know (service/stepper.py)."""
        return index > 0 and all(map(is_known, _event_codes(ev)))

    def _check_wall_set(self, wall: list[str]) -> None:
        """#6: the wall holds the 152 tiles."""
        got = Counter(wall)
        named = [c for c in BONUS_TILES if got[c] > 1]
        if len(wall) != 152 or named or _flower_fold(got) != _FULL_SET_FOLDED:
            self.hard(
                None, None, "DEAL_INVALID", f"the wall ({len(wall)} tiles) is not the 152-tile set"
            )

    def _deal_from_wall(self, east_size: int) -> list[list[str]]:
        """§2.4: 4 tiles each three rounds (E S W N), then East 2, S W N one each."""
        assert self.wall is not None
        order = [(self.dealer + k) % N for k in range(N)]
        hands: list[list[str]] = [[] for _ in range(N)]
        pos = 0
        for _ in range(3):
            for seat in order:
                hands[seat].extend(self.wall[pos : pos + 4])
                pos += 4
        for k, seat in enumerate(order):
            take = 2 if k == 0 else 1
            hands[seat].extend(self.wall[pos : pos + take])
            pos += take
        return hands

    def _verify_positions(self, hands: list[list[str]], east_draw: str | None) -> None:
        expected = self._deal_from_wall(14)
        for seat in range(N):
            got = list(hands[seat]) + ([east_draw] if seat == self.dealer and east_draw else [])
            if sorted(got) != sorted(expected[seat]):
                self.hard(
                    None,
                    None,
                    "DEAL_INVALID",
                    f"{self.player(seat)}'s start hand is not the tiles at its deal positions",
                )

    def _see(self, index: int | None, code: str) -> None:
        """#4 TILE_OVERCOUNT: 4 per kind, 1 per named flower, 8 flowers, 8 jokers."""
        seen = self.seen
        n = seen[code] = seen.get(code, 0) + 1  # (a Counter's += calls its __missing__)
        if code in FLOWER_CODES:
            total = sum(seen[c] for c in FLOWER_CODES)
            if (code != UNKNOWN_FLOWER and n > 1) or total > 8:
                self.hard(
                    index,
                    None,
                    "TILE_OVERCOUNT",
                    f"flower {code} is seen more often than the set has",
                )
        elif n > FULL_SET[code]:
            self.hard(
                index,
                None,
                "TILE_OVERCOUNT",
                f"{code} is seen {n} times; the set has {FULL_SET[code]}",
            )

    def _holds(self, seat: int, tiles: list[str]) -> bool:
        if self.partial:
            return True
        hand = self.hands[seat]
        if len(tiles) == 1:  # a discard: no Counter per event
            return hand[tiles[0]] >= 1
        return all(hand[c] >= n for c, n in _counts(tiles).items())

    def _take(self, seat: int, tiles: list[str]) -> None:
        """Remove ``tiles`` from the hand; a kind it no longer holds (or never held) has no
        entry, as ``Counter`` arithmetic leaves it (counts are never negative)."""
        if not self.partial:
            hand = self.hands[seat]
            for c in tiles:
                n = hand[c] - 1
                if n > 0:
                    hand[c] = n
                else:
                    # a kind not held has no entry (dict.pop: no Python-level call)
                    hand.pop(c, None)

    # -- events --------------------------------------------------------------------------

    def apply(self, ev: dict[str, Any]) -> None:
        """Simulator entry: append ``ev`` to the record and step it."""
        self.record.setdefault("events", []).append(ev)
        self.step(len(self.record["events"]) - 1, ev)

    def step(self, index: int, ev: dict[str, Any]) -> None:
        self.index = index
        kind_ = ev.get("type")
        if self.phase == "ended":
            self.hard(
                index,
                ev.get("seat"),
                "EVENT_AFTER_END",
                f"a {kind_} event follows the end of the hand ({self.ended_by})",
            )
        handler = _HANDLERS.get(kind_)  # type: ignore[arg-type]
        if handler is None:
            self.hard(
                index, ev.get("seat"), "RECORD_INVALID", f"{kind_!r} is not an american event"
            )
        deal_draw = kind_ == "draw" and self.east_first_draw and ev.get("seat") == self.dealer
        if (
            kind_ not in CHARLESTON_EVENTS
            and self.phase == "charleston"
            and not deal_draw
            and not (kind_ == "win" and self._initial_win_possible(ev))
        ):
            if kind_ == "joker_exchange" and not self._charleston_complete():
                pass  # judged as an exchange during the Charleston (#27)
            else:
                self._begin_play(index)
        handler(self, index, ev)

    # -- Charleston (#7-#12) -------------------------------------------------------------

    def _charleston_complete(self) -> bool:
        if not self.charleston_seen:
            return True
        return self.pass_no is None and self.charleston_next is None

    def on_charleston_pass(self, index: int, ev: dict[str, Any]) -> None:
        seat, k = ev["seat"], ev["pass"]
        if self.phase != "charleston":
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} passes (pass {k}) after play began",
                kills=False,
            )
            return
        self.charleston_seen = True
        if self.courtesy_passed or self.courtesy:
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} passes (pass {k}) after the courtesy pass, which is last",
                kills=False,
            )
        if self.pass_no is not None and k != self.pass_no:
            self._finish_pass(index)
        if self.pass_no is None:
            if k <= self.charleston_last:
                self.viol(
                    index,
                    seat,
                    "CHARLESTON_BAD_PASS",
                    f"pass {k} comes after pass {self.charleston_last}: passes go in order",
                    kills=False,
                )
                return
            if k != self.charleston_last + 1:
                self.viol(
                    index,
                    seat,
                    "CHARLESTON_BAD_PASS",
                    f"pass {k} follows pass {self.charleston_last}: passes go in order",
                    kills=False,
                )
            self.pass_no = k
        if seat in self.pass_parts:
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} passes twice in pass {k}",
                kills=False,
            )
            return
        own: list[str] = []
        blind: list[str] = []
        for t in ev["tiles"]:
            if isinstance(t, dict):
                (blind if t.get("blind") else own).append(t["tile"])
            else:
                own.append(t)
        if k >= 4 and (self.charleston_stopped or self.opts.second_charleston == "never"):
            why = (
                "after a charleston_stop"
                if self.charleston_stopped
                else "with second_charleston = never"
            )
            self.viol(
                index,
                seat,
                "SECOND_CHARLESTON_AFTER_STOP",
                f"{self.player(seat)} passes in pass {k} {why}",
                kills=False,
            )
        if JOKER in own or JOKER in blind:
            self.viol(
                index,
                seat,
                "JOKER_PASSED",
                f"{self.player(seat)} passes a joker in pass {k}",
                kills=False,
            )
        if len(own) + len(blind) != 3:
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} passes {len(own) + len(blind)} tiles in pass {k}, not 3",
                kills=False,
            )
        if blind and k not in self.opts.blind_pass_passes:
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} blind-passes in pass {k} (allowed only in {list(self.opts.blind_pass_passes)})",
                kills=False,
            )
        if not self._holds(seat, own):
            self.hard(
                index,
                seat,
                "TILE_NOT_IN_HAND",
                f"{self.player(seat)} passes {own} in pass {k}, not all in hand",
            )
        self.pass_parts[seat] = (own, blind, index)
        if len(self.pass_parts) == N:
            self._finish_pass(index)

    def _finish_pass(self, index: int) -> None:
        """Apply a pass simultaneously; blind tiles pass through from the giver (#8)."""
        k = self.pass_no
        assert k is not None
        parts = self.pass_parts
        for seat in range(N):
            if seat not in parts:
                self.viol(
                    index,
                    seat,
                    "CHARLESTON_BAD_PASS",
                    f"{self.player(seat)} has no part in pass {k}",
                    kills=False,
                )
        off = PASS_OFFSET[k]
        everyone_blind = all(len(parts.get(s, ([], [], 0))[1]) == 3 for s in range(N))
        if not everyone_blind:
            for seat, (_own, blind, at) in parts.items():
                giver = (seat - off) % N
                g_own, g_blind, _ = parts.get(giver, ([], [], 0))
                if not _within(blind, [*g_own, *g_blind]):
                    self.hard(
                        at,
                        seat,
                        "BLIND_TILE_INVALID",
                        f"{self.player(seat)}'s blind tiles {blind} are not among those passed to them in pass {k}",
                    )
            if not self.partial:
                for seat, (own, _blind, _at) in parts.items():
                    self._take(seat, own)
                for seat in range(N):
                    giver = (seat - off) % N
                    g_own, g_blind, _ = parts.get(giver, ([], [], 0))
                    _, blind, _ = parts.get(seat, ([], [], 0))
                    gain = _counts(g_own, g_blind)
                    for c in blind:
                        gain[c] = gain.get(c, 0) - 1
                    hand = self.hands[seat]
                    for c, n in gain.items():
                        if n > 0:
                            hand[c] += n
        self.charleston_last = max(self.charleston_last, k)
        self.pass_no = None
        self.pass_parts = {}

    def on_charleston_stop(self, index: int, ev: dict[str, Any]) -> None:
        seat = ev["seat"]
        if self.phase != "charleston":
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} stops the Charleston after play began",
                kills=False,
            )
            return
        self.charleston_seen = True
        if self.pass_no is not None:
            self._finish_pass(index)
        if self.opts.second_charleston == "always":
            self.info(
                index,
                seat,
                "CHARLESTON_STOP_IGNORED",
                "second_charleston = always: the second Charleston is played",
            )
            return
        self.charleston_stopped = True

    def on_courtesy_pass(self, index: int, ev: dict[str, Any]) -> None:
        seat, partner, asked = ev["seat"], ev["partner"], ev["asked"]
        tiles = [t["tile"] if isinstance(t, dict) else t for t in ev["tiles"]]
        if self.phase != "charleston":
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)}'s courtesy pass comes after play began",
                kills=False,
            )
            return
        self.charleston_seen = True
        if self.pass_no is not None:
            self._finish_pass(index)
        if (
            self.charleston_last not in (3, 6)
            or seat in self.courtesy_passed
            # after pass 3 the second Charleston is optional (§3): a courtesy pass there means
            # it was not played, unless the option makes it compulsory
            or (self.charleston_last == 3 and self.opts.second_charleston == "always")
        ):
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)}'s courtesy pass is not after the last Charleston pass",
                kills=False,
            )
        if JOKER in tiles:
            self.viol(
                index,
                seat,
                "JOKER_PASSED",
                f"{self.player(seat)} passes a joker in the courtesy pass",
                kills=False,
            )
        if not self._holds(seat, tiles):
            self.hard(
                index,
                seat,
                "TILE_NOT_IN_HAND",
                f"{self.player(seat)}'s courtesy tiles {tiles} are not all in hand",
            )
        if self.opts.courtesy_partner == "across" and partner != (seat + 2) % N:
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)}'s courtesy partner is seat {partner}, not the player across",
                kills=False,
            )
        if not (isinstance(asked, int) and 0 <= asked <= 3):
            self.viol(
                index,
                seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(seat)} asks {asked!r} tiles (0-3)",
                kills=False,
            )
        self.courtesy[seat] = _Courtesy(seat, partner, asked, tiles, index)
        other = self.courtesy.get(partner)
        if other is not None and other.partner == seat:
            self._finish_courtesy(index, self.courtesy.pop(seat), self.courtesy.pop(partner))

    def _finish_courtesy(self, index: int, a: _Courtesy, b: _Courtesy) -> None:
        agreed = min(a.asked, b.asked)
        for part in (a, b):
            if len(part.tiles) != agreed:
                self.viol(
                    part.index,
                    part.seat,
                    "CHARLESTON_BAD_PASS",
                    f"{self.player(part.seat)} passes {len(part.tiles)} courtesy tiles; the agreed count is {agreed}",
                    kills=False,
                )
        self._take(a.seat, a.tiles)
        self._take(b.seat, b.tiles)
        if not self.partial:
            self.hands[a.seat].update(b.tiles)
            self.hands[b.seat].update(a.tiles)
        self.courtesy_passed.update((a.seat, b.seat))  # each across pair passes once (§3)
        if not self.courtesy:
            self.courtesy_done = True

    def _begin_play(self, index: int) -> None:
        if self.pass_no is not None:
            self._finish_pass(index)
        for part in list(self.courtesy.values()):
            self.viol(
                part.index,
                part.seat,
                "CHARLESTON_BAD_PASS",
                f"{self.player(part.seat)}'s courtesy pass has no matching part from seat {part.partner}",
                kills=False,
            )
        self.courtesy = {}
        if not self.charleston_seen:
            self.info(
                index,
                None,
                "CHARLESTON_NOT_RECORDED",
                "the log records no Charleston: the deal is played as dealt",
            )
        elif self.charleston_last < 3:
            self.viol(
                index,
                None,
                "CHARLESTON_BAD_PASS",
                f"the first Charleston stops after pass {self.charleston_last} (it has 3 passes)",
                kills=False,
            )
        elif self.charleston_last in (4, 5):
            self.viol(
                index,
                None,
                "CHARLESTON_BAD_PASS",
                f"the second Charleston stops after pass {self.charleston_last} (it has 3 passes)",
                kills=False,
            )
        elif (
            self.charleston_last == 3
            and not self.charleston_stopped
            and self.opts.second_charleston == "always"
        ):
            self.viol(
                index,
                None,
                "CHARLESTON_BAD_PASS",
                "second_charleston = always, but passes 4-6 are missing",
                kills=False,
            )
        self.phase = "play"

    # -- play ----------------------------------------------------------------------------

    def _close_window(self) -> None:
        if self.latest is not None:
            self.latest.open = False
        self.claims = []

    def on_draw(self, index: int, ev: dict[str, Any]) -> None:
        seat, tile = ev["seat"], ev["tile"]
        if self.remaining <= 0:
            self.hard(
                index, seat, "DRAW_FROM_EMPTY_WALL", f"{self.player(seat)} draws from an empty wall"
            )
        if self.wall is not None:
            expected = self.wall[self.head] if self.head < len(self.wall) else None
            if self.east_first_draw and seat == self.dealer and self.head == 52:
                expected = tile if self._deal_remainder_ok(tile) else "?"
            if expected != tile:
                self.hard(
                    index,
                    seat,
                    "WALL_MISMATCH",
                    f"{self.player(seat)} draws {tile}, but the next wall tile is {expected}",
                )
        self.resume(seat, DRAW)
        entitled = seat == self.turn and not self.holding and seat not in self.dead
        # another live player's draw; a second draw by the turn player is flagged, not followed
        out_of_turn = not entitled and seat != self.turn and seat not in self.dead
        if out_of_turn:
            self.keep_turn(seat, continues=True)
        if seat in self.dead:
            self.viol(
                index,
                seat,
                "ACTION_BY_DEAD_HAND",
                f"{self.player(seat)}'s hand is dead, but they draw",
                kills=False,
            )
        elif not entitled:
            self.viol(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} draws, but it is {self.player(self.turn)}'s turn",
            )
        if not self.partial:
            self.hands[seat][tile] += 1
        self._see(index, tile)
        self.head += 1
        self.remaining -= 1
        deal_draw = seat == self.dealer and self.east_first_draw
        if seat == self.dealer:
            self.east_first_draw = False
        if entitled or out_of_turn:
            if entitled:
                self._close_window()
            else:
                # §0: the table follows the log: the offender (dead now) holds the turn and
                # its discard is in turn; the latest discard stays open for the entitled turn.
                self.turn = seat
            self.holding = True
            self.turn_by = "deal" if deal_draw else "draw"  # East's 14th tile completes the deal
            self.drawn = None if deal_draw else tile
            self.call_from = None

    def _deal_remainder_ok(self, tile: str) -> bool:
        assert self.wall is not None
        rest = Counter(self.wall[:53])
        rest.subtract(c for h in self.dealt for c in h)
        return _flower_fold(+rest) == _flower_fold(Counter([tile]))

    def on_discard(self, index: int, ev: dict[str, Any]) -> None:
        seat, tile = ev["seat"], ev["tile"]
        if not self._holds(seat, [tile]):
            self.hard(
                index,
                seat,
                "TILE_NOT_IN_HAND",
                f"{self.player(seat)} discards {tile}, which they do not hold",
            )
        # the discard that completes the offender's out-of-turn draw is part of that one
        # out-of-turn action (§0): its hand is dead by it, and the discard is not flagged again
        continues = self.continuing(seat)
        self.resume(seat, DISCARD)
        was_dead = seat in self.dead
        entitled = seat == self.turn and self.holding and (continues or not was_dead)
        out_of_turn = False
        if was_dead and continues:
            pass
        elif was_dead:
            self.viol(
                index,
                seat,
                "ACTION_BY_DEAD_HAND",
                f"{self.player(seat)}'s hand is dead, but they discard",
                kills=False,
            )
        elif not entitled:
            # another player's discard; the turn player's discard without a draw is not followed
            out_of_turn = seat != self.turn
            if out_of_turn:
                self.keep_turn(seat, continues=False)
            self.viol(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} discards without drawing first"
                if seat == self.turn
                else f"{self.player(seat)} discards, but it is {self.player(self.turn)}'s turn",
            )
        self._take(seat, [tile])
        self.discards[seat].append(tile)
        if not was_dead and not self.partial and self.size(seat) != 13:
            self.viol(
                index,
                seat,
                "WRONG_TILE_COUNT",
                f"{self.player(seat)} holds {self.size(seat)} tiles after discarding, not 13",
            )
        if entitled or out_of_turn:
            # in turn or not (§0: the table follows the log) this is the latest discard and
            # the next live seat after the discarder draws; ``kept`` holds the entitled turn
            self.latest = LatestDiscard(seat, tile, index)
            self.claims = []
            self.turn = self.next_live(seat)
            self.holding = False
            self.turn_by = "deal"
            self.drawn = None
            self.call_from = None

    def _window_ok(self, seat: int, src: int | None, tile: str) -> bool:
        d = self.latest
        return d is not None and d.open and d.seat == src and d.tile == tile and src != seat

    def _check_priority(self, index: int, seat: int, src: int, kind_: str) -> None:
        """#24 CALL_PRIORITY against the announced claims on this discard."""
        rank = {"win": 2}.get(kind_, 1)
        dist = (seat - src) % N
        for other, other_kind, _ in self.claims:
            if other == seat:
                continue
            o_rank = {"win": 2}.get(other_kind, 1)
            o_dist = (other - src) % N
            if o_rank > rank or (o_rank == rank and o_dist < dist):
                self.viol(
                    index,
                    seat,
                    "CALL_PRIORITY",
                    f"{self.player(seat)} takes the discard by {kind_}, but {self.player(other)}'s "
                    f"{other_kind} claim has priority (§4.2)",
                    kills=False,
                )
                return

    def on_call(self, index: int, ev: dict[str, Any]) -> None:
        size = CALL_SIZES[ev["type"]]
        seat, src, tile = ev["seat"], ev["from"], ev["tile"]
        raw_with = ev.get("with")
        # no ``with`` at all: naturals (§9.1); an empty list is a call for a single (§8.2)
        with_ = list(raw_with) if raw_with is not None else [tile] * (size - 1)
        if not self._holds(seat, with_):
            self.hard(
                index,
                seat,
                "TILE_NOT_IN_HAND",
                f"{self.player(seat)} exposes {with_}, not all in hand",
            )
        self.resume(seat, claim_of(src, tile))
        alive = seat not in self.dead
        takes_turn = alive and self._window_ok(seat, src, tile)
        if not alive:
            self.viol(
                index,
                seat,
                "ACTION_BY_DEAD_HAND",
                f"{self.player(seat)}'s hand is dead, but they call {tile}",
                kills=False,
            )
        else:
            if not self._window_ok(seat, src, tile):
                self.viol(
                    index,
                    seat,
                    "LATE_CALL",
                    f"{self.player(seat)} calls {tile} from seat {src}, which is not the latest discard with its window open",
                )
            elif self.remaining <= 0 and not self.opts.last_discard_exposure_call:
                self.viol(
                    index,
                    seat,
                    "LATE_CALL",
                    f"{self.player(seat)} calls the last discard for an exposure (Mahjong only)",
                )
            if tile == JOKER:
                self.viol(
                    index,
                    seat,
                    "CALL_DISCARDED_JOKER",
                    f"{self.player(seat)} calls a discarded joker",
                )
            tiles = [tile, *with_]
            naturals = {kind(t) for t in tiles if t != JOKER}
            if len(tiles) < 3:
                self.viol(
                    index,
                    seat,
                    "CALL_FOR_SINGLE_OR_PAIR",
                    f"{self.player(seat)} calls {tile} for a group of {len(tiles)} (exposures are 3-6 tiles)",
                )
            elif len(naturals) != 1 or len(tiles) != size:
                self.viol(
                    index,
                    seat,
                    "ILLEGAL_EXPOSURE",
                    f"{self.player(seat)}'s {ev['type']} {tiles} is not {size} identical tiles and jokers with a natural",
                )
            if self.latest is not None and self.latest.tile == tile and self.latest.seat == src:
                self._check_priority(index, seat, src, ev["type"])
        # the table state follows the record
        self._take(seat, with_)
        if self.discards[src] and self.discards[src][-1] == tile:
            self.discards[src].pop()
        tiles = [tile, *with_]
        nat = next((kind(t) for t in tiles if t != JOKER), JOKER_KIND)
        self.exposures[seat].append(Exposure(nat, tiles, src, index))
        if takes_turn:
            self._close_window()
            self.turn = seat
            self.holding = True
            self.turn_by = "call"
            self.drawn = None
            self.call_from = src
            self.call_tile = tile
            self._pass_turn_if_dead(seat)
        if (
            seat not in self.dead
            and self.card is not None
            and not exposures_fit(self.card, self.shapes(seat))
        ):
            self.viol(
                index,
                seat,
                "DEAD_BY_EXPOSURE",
                f"no exposed (X) hand of card {self.card.card_id} holds {self.player(seat)}'s exposures "
                + ", ".join(" ".join(e.tiles) for e in self.exposures[seat]),
            )

    def on_joker_exchange(self, index: int, ev: dict[str, Any]) -> None:
        seat, tile, target, which = ev["seat"], ev["tile"], ev["target"], ev["exposure"]
        exps = self.exposures[target] if 0 <= target < N else []
        if (
            not (isinstance(which, int) and 0 <= which < len(exps))
            or JOKER not in exps[which].tiles
        ):
            self.hard(
                index,
                seat,
                "EXCHANGE_INVALID",
                f"seat {target} has no exposure {which} with a joker",
            )
        if not self._holds(seat, [tile]):
            self.hard(
                index,
                seat,
                "EXCHANGE_INVALID",
                f"{self.player(seat)} gives {tile} for a joker but does not hold it",
            )
        exp = exps[which]
        if self.phase == "play":
            self.resume(seat, OWN_TURN)
        if seat in self.dead:
            self.viol(
                index,
                seat,
                "ACTION_BY_DEAD_HAND",
                f"{self.player(seat)}'s hand is dead, but they exchange a joker",
                kills=False,
            )
        elif self.phase == "charleston":
            self.viol(
                index,
                seat,
                "BAD_JOKER_EXCHANGE",
                f"{self.player(seat)} exchanges a joker during the Charleston",
            )
        elif not (seat == self.turn and self.holding):
            self.viol(
                index,
                seat,
                "BAD_JOKER_EXCHANGE",
                f"{self.player(seat)} exchanges a joker out of turn",
            )
        elif tile == JOKER or kind(tile) != exp.kind:
            self.viol(
                index,
                seat,
                "BAD_JOKER_EXCHANGE",
                f"{self.player(seat)} gives {tile} for a joker of {' '.join(exp.tiles)}: it does not equal the exposure's identity",
            )
        exp.tiles[exp.tiles.index(JOKER)] = tile
        if not self.partial:
            self._take(seat, [tile])
            self.hands[seat][JOKER] += 1

    def _initial_win_possible(self, ev: dict[str, Any]) -> bool:
        return (
            not self.charleston_seen
            and ev.get("from") is None
            and ev.get("seat") == self.dealer
            and self.turn_by == "deal"
            and self.holding
        )

    def on_win(self, index: int, ev: dict[str, Any]) -> None:
        seat, tile, src = ev["seat"], ev["tile"], ev.get("from")
        initial = self.phase == "charleston"
        added: str | None = None  # the called tile, added to T (§5.3)
        discarder: int | None = None
        self_drawn = False
        if initial:
            if not self._holds(seat, [tile]):
                self.hard(
                    index,
                    seat,
                    "WIN_TILE_NOT_AVAILABLE",
                    f"East's initial Mahjong names {tile}, not in East's hand",
                )
        elif src is not None:
            self.resume(seat, claim_of(src, tile))
            if self._window_ok(seat, src, tile):
                added = tile
                discarder = src
                self._check_priority(index, seat, src, "win")
            elif (
                self.turn == seat
                and self.holding
                and self.turn_by == "call"
                and self.call_from == src
                and self.call_tile == tile
            ):
                discarder = src  # called for an exposure, then Mahjong (§7.2 [D])
            elif tile in self.discards[src] or (
                self.latest is not None and self.latest.seat == src and self.latest.tile == tile
            ):
                self.viol(
                    index,
                    seat,
                    "LATE_CALL",
                    f"{self.player(seat)} claims {tile} from seat {src} for Mahjong, but it is not the latest discard with its window open",
                )
                # MAHJONG_IN_ERROR says T matches no card hand: only when that is so (§8.1)
                matches = self.partial or (
                    self.size(seat) == 13 and self.winning_match(seat, tile) is not None
                )
                self._false_win(index, seat, None, mahjong_in_error=not matches)
                return
            else:
                self.hard(
                    index,
                    seat,
                    "WIN_TILE_NOT_AVAILABLE",
                    f"{self.player(seat)} wins on {tile} from seat {src}, which that seat did not discard",
                )
        else:
            self.resume(seat, OWN_TURN)
            if self.turn == seat and self.holding and self.turn_by == "draw" and self.drawn == tile:
                self_drawn = True
            elif (
                self.turn == seat
                and self.holding
                and self.turn_by == "call"
                and self.call_tile == tile
            ):
                discarder = self.call_from
            else:
                self.hard(
                    index,
                    seat,
                    "WIN_TILE_NOT_AVAILABLE",
                    f"{self.player(seat)} declares a self-drawn Mahjong on {tile}, which is not their draw this turn",
                )
        if (
            discarder is not None
            and self.turn_by == "call"
            and added is None
            and self.opts.call_then_mahjong_liability == "self_draw"
        ):
            discarder = None
            self_drawn = True
        if seat in self.dead:
            self.viol(
                index,
                seat,
                "ACTION_BY_DEAD_HAND",
                f"{self.player(seat)}'s hand is dead, but they declare Mahjong",
                kills=False,
            )
            self._false_win(index, seat, added)
            return
        if tile == JOKER and added is not None:
            self.viol(
                index,
                seat,
                "CALL_DISCARDED_JOKER",
                f"{self.player(seat)} calls a discarded joker for Mahjong",
            )
            self._false_win(index, seat, added, mahjong_in_error=False)
            return
        if initial and not self.opts.east_initial_mahjong:
            self.viol(
                index,
                seat,
                "MAHJONG_IN_ERROR",
                "east_initial_mahjong is off: East may not declare Mahjong on the deal",
            )
            self._false_win(index, seat, added, mahjong_in_error=False)
            return
        if self.partial:
            self._end_win(
                WinInfo(seat, index, None, discarder, self_drawn or initial, initial), added
            )
            return
        t_size = self.size(seat) + (1 if added else 0)
        if t_size != 14:
            self.viol(
                index,
                seat,
                "WRONG_TILE_COUNT",
                f"{self.player(seat)} declares Mahjong with {t_size} tiles, not 14",
            )
            self._false_win(index, seat, added, mahjong_in_error=False)
            return
        match = self.winning_match(seat, added)
        hand = self.hands[seat].copy()
        if added:
            hand[added] += 1
        if self.exposures[seat] and self.card is not None:
            concealed_only = [
                m
                for m in match_all(
                    self.card, self.kinds_vector(hand), self.shapes(seat), ignore_rule4=True
                )
                if m.hand.concealed
            ]
            if concealed_only:
                self.viol(
                    index,
                    seat,
                    "CONCEALED_HAND_CALL",
                    f"{self.player(seat)}'s tiles would be the concealed hand {concealed_only[0].hand.id}, but they made an exposure",
                    kills=False,
                )
        if match is None:
            self._false_win(index, seat, added)
            return
        claim = ev.get("claim") or {}
        claimed = claim.get("hand") if isinstance(claim, dict) else None
        if claimed is not None and claimed != match.hand.id:
            self.info(
                index,
                seat,
                "CLAIMED_HAND_DIFFERS",
                f"the log names {claimed}; the scoring hand is {match.hand.id} (V = {match.final})",
            )
        self._end_win(WinInfo(seat, index, match, discarder, self_drawn or initial, initial), added)

    def _end_win(self, win: WinInfo, added: str | None) -> None:
        if added is not None and self.latest is not None:
            src = self.latest.seat
            if self.discards[src] and self.discards[src][-1] == added:
                self.discards[src].pop()
            self.hands[win.seat][added] += 1
        self.win = win
        self.phase = "ended"
        self.ended_by = "win"

    def _false_win(
        self, index: int, seat: int, added: str | None, *, mahjong_in_error: bool = True
    ) -> None:
        """§8.1 MAHJONG_IN_ERROR: dead hand, optional payment, play continues [D]."""
        if mahjong_in_error:
            self.viol(
                index,
                seat,
                "MAHJONG_IN_ERROR",
                f"{self.player(seat)} declares Mahjong, but their tiles match no hand of the card",
            )
        else:
            self.kill(index, seat, "MAHJONG_IN_ERROR")
        each = self.opts.mahjong_in_error_payment
        if each is not None:
            self.penalties.append(
                (
                    seat,
                    "MAHJONG_IN_ERROR",
                    mahjong_in_error_deltas(seat, each, self.opts.point_value),
                )
            )
        if added is None and self.turn == seat and self.holding:
            # a self-drawn declaration: the dead player's turn is over
            self.turn = self.next_live(seat)
            self.holding = False
            self.latest = None

    def on_announce(self, index: int, ev: dict[str, Any]) -> None:
        seat, what = ev["seat"], ev["what"]
        if what == "dead_hand":
            target = ev.get("target")
            if not isinstance(target, int) or not 0 <= target < N:
                self.hard(
                    index, seat, "RECORD_INVALID", f"announce dead_hand names no seat ({target!r})"
                )
            dead = target in self.dead or (
                self.opts.dead_by_visible_tiles and self._dead_by_visible(target)
            )
            if dead:
                self.kill(index, target, self.dead.get(target, "DEAD_BY_VISIBLE_TILES"))
                self.info(
                    index,
                    target,
                    "DEAD_HAND_CALLED",
                    f"{self.player(seat)} correctly calls {self.player(target)}'s hand dead",
                )
            else:
                self.viol(
                    index,
                    seat,
                    "CALL_DEAD_INCORRECT",
                    f"{self.player(seat)} calls {self.player(target)}'s hand dead, but it is not",
                    kills=self.opts.wrong_dead_call == "caller_dead",
                )
        elif what == "claim":
            claim = ev.get("claim")
            if isinstance(claim, dict):
                claim = claim.get("type") or claim.get("call") or claim.get("kind")
            k = {"mahjong": "win"}.get(str(claim), str(claim))
            tile = ev.get("tile")
            if seat in self.dead:  # a dead hand stops calling (§8.1): its claim ranks nothing
                self.viol(
                    index,
                    seat,
                    "ACTION_BY_DEAD_HAND",
                    f"{self.player(seat)}'s hand is dead, but they claim {tile}",
                    kills=False,
                )
            elif (
                self.latest is not None
                and seat != self.latest.seat  # nobody claims their own discard (§4.2)
                and (tile is None or tile == self.latest.tile)
            ):
                self.claims.append((seat, k, index))

    def _dead_by_visible(self, seat: int) -> bool:
        """Option dead_by_visible_tiles: no hand the seat can still make has its singles and
        pairs available (the naturals needed beyond those held, against copies not visible)."""
        if self.card is None:
            return False
        visible = [0] * N_KINDS
        for s in range(N):
            for t in self.discards[s]:
                visible[kind(t)] += 1
            # the seat's own exposed naturals too: they fill groups of 3+, never its singles
            # and pairs, so they are no more available for those than anyone else's (§8.1)
            for e in self.exposures[s]:
                for t in e.tiles:
                    visible[kind(t)] += 1
        held = self.kinds_vector(self.hands[seat])
        shapes = self.shapes(seat)
        need = Counter((e.kind, e.size) for e in shapes)
        cc = compile_card(self.card)
        for i, h in enumerate(cc.owner):
            if h.concealed and shapes:
                continue
            b = cc.rows[i]
            slots = cc.slots[i]
            if any(slots.get(key, 0) < n for key, n in need.items()):
                continue
            if all(
                b.small[t] - held[t] <= COPIES[t] - visible[t] - held[t] for t in range(FLOWER + 1)
            ):
                return False
        return True

    def on_exhaustive_draw(self, index: int, ev: dict[str, Any]) -> None:
        if not self.wall_game_possible:
            self.hard(
                index,
                None,
                "HAND_END_INVALID",
                f"exhaustive_draw with {self.remaining} wall tiles left and fewer than three dead hands",
            )
        self.phase = "ended"
        self.ended_by = "exhaustive_draw"

    def on_abandon(self, index: int, ev: dict[str, Any]) -> None:
        self.phase = "ended"
        self.ended_by = "abandon"

    # -- settlement ------------------------------------------------------------------------

    def settlement(self) -> list[float] | None:
        """Deltas (§7.2, plus penalties) or None when the hand cannot be settled."""
        if self.stopped or self.ended_by in ("abandon", "unfinished", "corrupt"):
            return None
        deltas = [0.0] * N
        if self.ended_by == "win":
            w = self.win
            assert w is not None
            if w.match is None:
                return None
            deltas = settle(
                w.match.final, w.seat, None if w.self_drawn else w.discarder, self.opts.point_value
            )
        for _seat, _code, d in self.penalties:
            deltas = add(deltas, d)
        return deltas

    # -- simulator helpers -------------------------------------------------------------

    def legal_actions(
        self, seat: int, kinds: Collection[str] | None = None
    ) -> list[dict[str, Any]]:
        """The events ``seat`` may legally make now (see the module docstring); only
        those of the types ``kinds`` when given (a driver whose bot has chosen what to do
        asks for just that: the card match a win needs is the costly part). In play the
        turn player may record the ``exhaustive_draw`` once a wall game is possible."""
        out = self._legal_actions(seat, _ACTION_KINDS if kinds is None else kinds)
        return out if kinds is None else [a for a in out if a["type"] in kinds]

    def _legal_actions(self, seat: int, wanted: Collection[str]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if self.phase == "ended" or seat in self.dead:
            return out
        win = "win" in wanted
        if self.phase == "charleston":
            k = self.charleston_next
            if k is not None and seat not in self.pass_parts:
                out.append(
                    {
                        "type": "charleston_pass",
                        "seat": seat,
                        "pass": k,
                        "choose": 3,
                        "blind_allowed": k in self.opts.blind_pass_passes,
                    }
                )
            if k == 4 and self.pass_no is None:
                out.append({"type": "charleston_stop", "seat": seat})
            if (
                win
                and seat == self.dealer
                and not self.charleston_seen
                and self.opts.east_initial_mahjong
                and self.winning_match(seat) is not None
            ):
                out.append({"type": "win", "seat": seat, "tile": self.concealed_codes(seat)[0]})
            if k is None and seat not in self.courtesy and seat not in self.courtesy_passed:
                out.append(
                    {
                        "type": "courtesy_pass",
                        "seat": seat,
                        "partner": (seat + 2) % N,
                        "asked": 3,
                        "choose": "0-3",
                    }
                )
            if seat != self.dealer or k is not None:
                return out
        if seat == self.turn and self.phase == "play" and self.wall_game_possible:
            out.append({"type": "exhaustive_draw"})
        if seat == self.turn and self.holding:
            for t in sorted(self.hands[seat]):
                out.append({"type": "discard", "seat": seat, "tile": t})
            for target in range(N) if "joker_exchange" in wanted else ():
                for i, e in enumerate(self.exposures[target]):
                    if JOKER in e.tiles:
                        for t in self.hands[seat]:
                            if t != JOKER and kind(t) == e.kind:
                                out.append(
                                    {
                                        "type": "joker_exchange",
                                        "seat": seat,
                                        "tile": t,
                                        "target": target,
                                        "exposure": i,
                                    }
                                )
            if win and self.turn_by in ("draw", "call") and self.winning_match(seat) is not None:
                tile = self.drawn if self.turn_by == "draw" else self.call_tile
                ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile}
                out.append(ev)
            return out
        if seat == self.turn and not self.holding and self.remaining > 0:
            out.append({"type": "draw", "seat": seat})
        d = self.latest
        if d is not None and d.open and d.seat != seat and d.tile != JOKER:
            if win and self.winning_match(seat, d.tile) is not None:
                out.append({"type": "win", "seat": seat, "tile": d.tile, "from": d.seat})
            calls = not CALL_KINDS.isdisjoint(wanted)
            if calls and (self.remaining > 0 or self.opts.last_discard_exposure_call):
                k_t = kind(d.tile)
                naturals = [t for t in self.hands[seat].elements() if t != JOKER and kind(t) == k_t]
                jokers = self.hands[seat][JOKER]
                for typ, size in CALL_SIZES.items():
                    if len(naturals) + jokers >= size - 1:
                        use_n = min(len(naturals), size - 1)
                        with_ = naturals[:use_n] + [JOKER] * (size - 1 - use_n)
                        out.append(
                            {
                                "type": typ,
                                "seat": seat,
                                "from": d.seat,
                                "tile": d.tile,
                                "with": with_,
                            }
                        )
        return out


def _flower_fold(c: Counter[str]) -> Counter[str]:
    """Count every flower (named or FL) as one kind, for multiset comparisons."""
    out: Counter[str] = Counter()
    for code, n in c.items():
        out["FL" if code in FLOWER_CODES else code] += n
    return +out


_FULL_SET_FOLDED = _flower_fold(FULL_SET)


def _counts(*parts: list[str]) -> dict[str, int]:
    """How often each tile occurs in ``parts`` (first occurrence first): a Counter's
    counts for the few tiles of a pass or a call, without a Counter's Python-level cost."""
    out: dict[str, int] = {}
    for part in parts:
        for c in part:
            out[c] = out.get(c, 0) + 1
    return out


def _within(part: list[str], pool: list[str]) -> bool:
    """Is ``part`` a sub-multiset of ``pool`` (``not Counter(part) - Counter(pool)``)?"""
    rest = list(pool)
    for c in part:
        if c not in rest:
            return False
        rest.remove(c)
    return True


_HANDLERS = {
    "charleston_pass": AmericanHand.on_charleston_pass,
    "charleston_stop": AmericanHand.on_charleston_stop,
    "courtesy_pass": AmericanHand.on_courtesy_pass,
    "draw": AmericanHand.on_draw,
    "discard": AmericanHand.on_discard,
    "pung": AmericanHand.on_call,
    "kong": AmericanHand.on_call,
    "quint": AmericanHand.on_call,
    "sextet": AmericanHand.on_call,
    "joker_exchange": AmericanHand.on_joker_exchange,
    "win": AmericanHand.on_win,
    "announce": AmericanHand.on_announce,
    "exhaustive_draw": AmericanHand.on_exhaustive_draw,
    "abandon": AmericanHand.on_abandon,
}
# The event types :meth:`AmericanHand.legal_actions` lists (announcements and an abandon
# are the table's, never a move it offers).
_ACTION_KINDS = frozenset(_HANDLERS) - {"announce", "abandon"}
