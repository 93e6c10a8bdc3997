"""One ``vn-160`` hand as a state machine: the §8.2 checklist, event by event.

:class:`VNHand` holds the table of one hand and applies one ``mjlog/1`` event at a time
(:meth:`VNHand.step`), emitting findings with the §8.2 codes and classes. The replay loop
(:mod:`replay.vn160.replayer`) and a simulator drive it the same way.

Driving it (replay or simulator)::

    hand = VNHand(record, opts)      # record: a canonical mjlog/1 dict, events may grow
    hand.start()                     # §8.2 #1-#5, the deal; raises Stop on CORRUPT_LOG
    hand.step(i, event)              # one event; raises Stop on CORRUPT_LOG
    hand.finish(last_index)          # resolves a pending claim group, checks the hand ended
    hand.settlement()                # per-seat deltas (None if it cannot be settled)

State queries (read-only; tiles are ints of :mod:`replay.vn160.tiles`):

* ``hand.turn`` / ``hand.phase``: whose turn and where in it: ``WAIT`` (``turn`` must draw),
  ``ACT`` (``turn`` holds 14: declare, kong, win or discard), ``MUST_DISCARD`` (after a chow or
  pung), ``ENDED``. ``hand.owes``: replacement draws owed (seat -> [(cause, event), …]; several when a
  player declares bonus tiles in a batch, §2.3).
* ``hand.live``: the latest discard while it can still be claimed (:class:`Discard`), else None.
* :meth:`concealed_tiles` / :meth:`concealed_codes`, ``hand.melds[seat]`` (:class:`VNMeld`),
  ``hand.declared[seat]`` ((tile, at_start) pairs), ``hand.discards[seat]``, :meth:`size`,
  ``hand.mat_u`` (seats that lost the right to win, with the code), :attr:`live_count`.
* :meth:`legal_claims` (the calls a seat may make on the live discard, as events, khung
  variants included), :meth:`self_actions` (declarations, kongs and a self-drawn win open to
  the turn player; any held non-bonus tile may be discarded),
  :meth:`win_candidate` (``(VNScore, None)`` or ``(None, §7.1 reason)`` for a win a seat
  could declare, without changing the state), :meth:`waits` (§4 wait set).

A simulator appends each chosen event to ``record["events"]`` and steps it at once (as
``replay.sim.hk_play`` does with the Hong Kong hand), so the table the bots see is the
engine's own; the hand's ``result`` is then :meth:`settlement` and :meth:`penalties`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import chain, combinations, repeat
from typing import Any

import msgspec
from mjaudit.parts.replay.engine import turns
from mjaudit.parts.replay.engine.findings import FindingClass, Stop
from mjaudit.parts.replay.engine.turns import ACT, ENDED, MUST_DISCARD, WAIT
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS
from mjaudit.parts.replay.rulesets.mahjong.hand import MahjongHand, handlers
from mjaudit.parts.replay.rulesets.mahjong.hand import WinClaim as MahjongWinClaim
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.replay.rulesets.vn160.khung import khung_domain
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions
from mjaudit.parts.replay.rulesets.vn160.patterns import VNMeld, VNWin
from mjaudit.parts.replay.rulesets.vn160.scoring import (
    VNScore,
    evaluate,
    false_win_deltas,
    fixed_score,
    settle,
    wait_set,
)
from mjaudit.parts.replay.rulesets.vn160.tiles import (
    CODES,
    INDEX,
    N_TILES,
    full_set,
    is_blue,
    is_bonus,
    is_flower,
    is_khung,
    is_rh,
    tile_limits,
)
from mjaudit.parts.schemas.event_columns import event_field

CLAIM_RANK = {"win": 3, "kong": 2, "pung": 2, "chow": 1}
WIND_CODES = ("E", "S", "W", "N")

C, V, INFO = FindingClass.CORRUPT_LOG, FindingClass.PLAYER_VIOLATION, FindingClass.INFO
# A plain dict copy of the read-only MappingProxy, for lookups of a whole wall in C.
_INDEX: dict[str, int] = dict(INDEX)


@cache
def known_codes(khung_sets: int) -> frozenset[str]:
    """The codes :meth:`VNHand._known` accepts with ``khung_sets`` in play: #2 checks a
    record's codes against them at set speed."""
    limits = tile_limits(khung_sets)
    return frozenset(c for c, t in INDEX.items() if limits[t] > 0)


@cache
def sorted_set(khung_sets: int) -> list[int]:
    """The whole wall sorted (:func:`full_set` as a list): a wall is the set when it sorts
    to this, a compare in C where two Counters compare in Python."""
    return sorted(full_set(khung_sets).elements())


def stands_for(t: int, kind: int, ru_domain: str) -> bool:
    """A hand tile can be ``kind`` in a set: the natural tile, or a khung whose domain has it."""
    if t < N_KINDS:
        return t == kind
    return is_khung(t) and kind in khung_domain(CODES[t], ru_domain)


def chow_reading(tiles: list[int], claimed: int, ru_domain: str) -> int | None:
    """The lowest kind of a chow the three tiles can read as, holding ``claimed`` naturally."""
    if claimed >= EAST or claimed not in tiles:
        return None
    rest = list(tiles)
    rest.remove(claimed)
    for first in range(claimed - 2, claimed + 1):
        if first < 0 or first // 9 != claimed // 9 or first % 9 > 6:
            continue
        need = [k for k in (first, first + 1, first + 2) if k != claimed]
        a, b = rest
        if (stands_for(a, need[0], ru_domain) and stands_for(b, need[1], ru_domain)) or (
            stands_for(a, need[1], ru_domain) and stands_for(b, need[0], ru_domain)
        ):
            return first
    return None


# The red-flower (RH) khung tiles, which rh_must_be_declared makes bonus tiles too.
_RH_TILES = tuple(t for t in range(50, N_TILES) if is_rh(t))
_FLOWERS_AND_RH = tuple(x for x in range(34, N_TILES) if is_flower(x) or is_rh(x))


class Discard(msgspec.Struct, gc=False):
    """A discard (a C-built struct without cycles, as Hong Kong's)."""

    seat: int
    tile: int
    index: int
    claimable: bool = True  # for sets; a bonus discard can only be won on (§3.6)
    claimed: bool = False


@dataclass
class WinClaim(MahjongWinClaim[VNScore]):
    """A win, and whether it is on a bonus discard; wins on the same discard form a claim
    group (#27)."""

    bonus_win: bool = False


@dataclass
class VNHand(MahjongHand):
    """One hand's table. After an out-of-turn draw or discard the table follows the log
    (§0, :mod:`replay.turns`): ``kept`` holds the entitled turn while it is still open."""

    # The per-turn state an out-of-turn action leaves open for the entitled player.
    TURN_FIELDS = ("turn", "phase", "drawn", "live", "kong_this_turn")
    DISCARD_WITHOUT_DRAW = True  # the turn player who skipped the draw discards in turn
    AFTER_END = "EVENT_AFTER_END"
    UNKNOWN_ACTION = "RECORD_INVALID"
    UNKNOWN_TEXT = "{kind} is not a vn-160 event"
    EARLY_DRAW_TEXT = (
        "an exhaustive draw is recorded with {live} tiles left",
        "an exhaustive draw is recorded while no draw is due",
    )
    TILE_INDEX = INDEX
    CODES = CODES

    opts: VNOptions

    def __post_init__(self) -> None:
        self.init_table(4, N_TILES)  # n_tiles: concealed tiles (§3.1, declared ones are not)
        self.limits = tile_limits(self.opts.khung_sets)
        self.melds: list[list[VNMeld]] = [[] for _ in range(self.n)]
        self.declared: list[list[tuple[int, bool]]] = [[] for _ in range(self.n)]
        self.discards: list[list[Discard]] = [[] for _ in range(self.n)]
        self.khung_thrown: list[list[int]] = [[] for _ in range(self.n)]
        self.phase = ACT
        self.owes: dict[int, list[tuple[str, int]]] = {}
        self.live: Discard | None = None
        self.interrupted = False  # a claim or kong happened (địa ù)
        self.kong_this_turn = False
        self.rob: tuple[int, int, int] | None = None  # konger, tile, event (option rob_kong)
        self.announced: list[tuple[int, str, bool]] = []  # (seat, claim, uses khung)
        self.group: list[WinClaim] = []
        self.settled: list[WinClaim] = []
        self.false_wins: list[WinClaim] = []
        self.wall: list[int] | None = None
        self.dealer_extra: int | None = None  # wall position of the dealer's 14th tile if drawn
        self.undrawn = sum(self.limits)  # 160, 168 or 176 (§1.2)
        self.reserve = self.opts.reserved_tail_tiles
        self._settled: list[float] | bool | None = False

    # -- findings --------------------------------------------------------------------

    @property
    def mat_u(self) -> dict[int, str]:
        """Seats that lost the right to win (mất ù, §7.2), with the code."""
        return self.dead

    def wind(self, seat: int) -> str:
        return WIND_CODES[(seat - self.dealer) % self.n]

    def seat_number(self, seat: int) -> int:
        """1..4 = E S W N (§0)."""
        return (seat - self.dealer) % self.n + 1

    def lose_right(self, index: int, seat: int, code: str) -> None:
        """§7.2 mất ù."""
        if seat not in self.dead:
            self.dead[seat] = code
            self.info(
                index, seat, "MAT_U", f"{self.player(seat)} has lost the right to win ({code})"
            )

    def false_win(self, claim: WinClaim) -> None:
        self.viol(
            claim.index,
            claim.seat,
            "FALSE_WIN",
            f"{self.player(claim.seat)} declares a false win on {CODES[claim.tile]} "
            f"({claim.reason}): pays {self.opts.false_win_penalty} to each other player",
            kills=False,
            reason=claim.reason,
        )

    # -- set-up ------------------------------------------------------------------------

    def start(self) -> None:
        """§8.2 #1-#3 and #5, and the deal. Raises :class:`Stop` on a corrupt record."""
        rec = self.record
        players = rec["players"]
        if rec.get("format", "mjlog/1") != "mjlog/1" or rec.get("ruleset") != "vn-160":
            self.hard(None, None, "RECORD_INVALID", "not an mjlog/1 record of vn-160")
        if len(players) != 4 or len(set(players)) != 4:
            self.hard(None, None, "RECORD_INVALID", f"vn-160 needs 4 distinct players: {players}")
        if not 0 <= self.dealer < 4:
            self.hard(None, None, "RECORD_INVALID", f"dealer seat {self.dealer} does not exist")
        self._check_codes()
        wall = rec.get("wall")
        if wall is not None:
            self.wall = list(map(_INDEX.__getitem__, wall))
            if sorted(self.wall) != sorted_set(self.opts.khung_sets):
                self.hard(
                    None,
                    None,
                    "DEAL_INVALID",
                    f"the wall is not the {len(sorted_set(self.opts.khung_sets))}-tile set of vn-160",
                )
            dead = rec.get("dead_wall")
            if dead is not None and [INDEX[c] for c in dead] != self.wall[::-1][: len(dead)]:
                self.hard(None, None, "DEAL_INVALID", "dead_wall is not the back of the wall")
        hands = rec.get("start_hands")
        if hands is None and self.wall is not None:
            hands = [[CODES[t] for t in h] for h in self._deal(14)]
        if hands is None:
            self.no_hands(
                "the log has neither start_hands nor wall: only public actions are checked "
                "and wins cannot be scored",
                13 * self.n + 1,
            )
            return
        if len(hands) != 4:
            self.hard(None, None, "DEAL_INVALID", f"{len(hands)} start hands for 4 players")
        sizes = [len(h) for h in hands]
        others_ok = all(sizes[s] == 13 for s in range(4) if s != self.dealer)
        if not others_ok or sizes[self.dealer] not in (13, 14):
            self.hard(
                None,
                None,
                "DEAL_INVALID",
                f"dealt hand sizes {sizes}: 13 each and 14 (or 13 + first draw) for the dealer",
            )
        seen, limits, n_tiles = self.seen, self.limits, self.n_tiles
        for seat, hand in enumerate(hands):
            row = self.concealed[seat]
            for t in map(_INDEX.__getitem__, hand):
                row[t] += 1
                n_tiles[seat] += 1
                seen[t] += 1  # _see(None, t), inlined: it raises only past the limit
                if seen[t] > limits[t]:
                    seen[t] -= 1
                    self._see(None, t)
        if self.wall is not None and rec.get("start_hands") is not None:
            expected = self._deal(sizes[self.dealer])
            for seat in range(4):
                if sorted(map(_INDEX.__getitem__, hands[seat])) != sorted(expected[seat]):
                    self.hard(
                        None,
                        seat,
                        "DEAL_INVALID",
                        f"{self.player(seat)}'s start hand is not the §2.2 deal from the wall",
                    )
        self.head = 53 if self.wall is not None else 0
        self.undrawn -= sum(sizes)
        if sizes[self.dealer] == 13:
            self.dealer_owes_draw = True
            self.phase = WAIT

    def _deal(self, dealer_size: int) -> list[list[int]]:
        """§2.2: 4 tiles each three times round, then the dealer 2 adjacent, the others 1."""
        assert self.wall is not None
        order = [(self.dealer + k) % 4 for k in range(4)]
        hands: list[list[int]] = [[] for _ in range(4)]
        pos = 0
        for _ in range(3):
            for seat in order:
                hands[seat].extend(self.wall[pos : pos + 4])
                pos += 4
        hands[self.dealer].append(self.wall[48])
        if dealer_size == 14:
            hands[self.dealer].append(self.wall[49])
        else:
            self.dealer_extra = 49  # the dealer's first draw must be this tile
        for k, seat in enumerate(order[1:]):
            hands[seat].append(self.wall[50 + k])
        return hands

    def _known(self, c: object) -> bool:
        """A vn-160 code of a khung set in play (#2)."""
        t = INDEX.get(c) if isinstance(c, str) else None  # type: ignore[call-overload]
        return t is not None and self.limits[t] > 0

    @staticmethod
    def _event_codes(ev: dict[str, Any]) -> list[object]:
        """The tile fields of an event that #2 checks."""
        codes = (ev.get("tile"), *(ev.get("tiles") or ()), *(ev.get("with") or ()))
        return [c for c in codes if c is not None]

    def deal_admits(self, index: int, ev: dict[str, Any]) -> bool:
        """Would the deal raise what it raised with ``ev`` recorded at ``index`` as well?
        Of the events it reads only the tile codes (#2): an event whose codes are all known
        leaves it as it was, so the live service need not deal again (service/stepper.py)."""
        return all(map(self._known, self._event_codes(ev)))

    def _check_codes(self) -> None:
        """#2 UNKNOWN_TILE: every tile field is a vn-160 code of a khung set in play."""
        rec = self.record
        if self._codes_known(rec):
            return  # the common case, at set speed; otherwise find the first offender
        ok = self._known

        def bad(where: str, index: int | None, seat: int | None, c: object) -> None:
            self.hard(index, seat, "UNKNOWN_TILE", f"{where}: {c!r} is not a tile of this game")

        for key in ("wall", "dead_wall"):
            for c in rec.get(key) or ():
                if not ok(c):
                    bad(key, None, None, c)
        for seat, hand in enumerate(rec.get("start_hands") or ()):
            for c in hand:
                if not ok(c):
                    bad(f"start hand of seat {seat}", None, seat, c)
        for i, ev in enumerate(rec["events"]):
            for c in self._event_codes(ev):
                if not ok(c):
                    bad(f"event {i} ({ev.get('type')})", i, ev.get("seat"), c)

    def _codes_known(self, rec: dict[str, Any]) -> bool:
        """Every code :meth:`_check_codes` reads is known (False: maybe not, look)."""
        known = known_codes(self.opts.khung_sets)
        events = rec["events"]
        tiles = set(event_field(events, "tile"))
        tiles.discard(None)
        try:  # an unhashable value is no code: the caller's loop names it
            return (
                known.issuperset(rec.get("wall") or ())
                and known.issuperset(rec.get("dead_wall") or ())
                and all(map(known.issuperset, rec.get("start_hands") or ()))
                and known.issuperset(tiles)
                # a run or `with` as _event_codes unpacks it (a None in one: look)
                and all(map(known.issuperset, filter(None, event_field(events, "tiles"))))
                and all(map(known.issuperset, filter(None, event_field(events, "with"))))
            )
        except TypeError:
            return False

    # -- queries -------------------------------------------------------------------------

    def concealed_tiles(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t in range(N_TILES) for _ in range(self.concealed[seat][t]))

    def concealed_codes(self, seat: int) -> tuple[str, ...]:
        return tuple(CODES[t] for t in self.concealed_tiles(seat))

    def holds_all(self, seat: int, tiles: list[int]) -> bool:
        return all(self.holds(seat, t, k) for t, k in Counter(tiles).items())

    def own_turn(self, seat: int) -> bool:
        return seat == self.turn and self.phase in (ACT, MUST_DISCARD)

    def waits(self, seat: int) -> tuple[int, ...]:
        """§4 wait set of a seat holding 13 (kinds that would complete the hand)."""
        held = [t for t in self.concealed_tiles(seat)]
        if any(is_bonus(t) and not is_khung(t) for t in held):
            return ()  # an undeclared flower among the tiles: no wait until it is declared
        return wait_set(held, len(self.melds[seat]), self.opts)

    def win_candidate(
        self, seat: int, t: int, source: WinSource = WinSource.DISCARD
    ) -> tuple[VNScore | None, str | None]:
        """(score, None) for a valid win of ``seat`` on ``t``, or (None, §7.1 reason).

        For a self-drawn candidate ``t`` must already be in the hand. Does not change state.
        """
        ctx = self.win_context(seat, t, source)
        return self._judge(seat, t, source, ctx)

    def claim_actions(self, seat: int) -> list[dict[str, Any]]:
        """The calls on the live discard are vn-160's own (khung, the win): legal_claims."""
        return self.legal_claims(seat)

    def legal_claims(self, seat: int) -> list[dict[str, Any]]:
        """The claims ``seat`` may make on the live discard, as events (win first)."""
        live = self.live
        if live is None or live.seat == seat or self.phase == ENDED:
            return []
        out: list[dict[str, Any]] = []
        t, frm = live.tile, live.seat
        score, _ = self.win_candidate(seat, t, WinSource.DISCARD)
        if score is not None:
            out.append({"type": "win", "seat": seat, "tile": CODES[t], "from": frm})
        if not live.claimable or t >= N_KINDS or self.live_count < 1:
            return out
        hand = self.concealed[seat]
        fits = [x for x in range(N_TILES) if hand[x] and stands_for(x, t, self.opts.ru_domain)]
        pool = [x for x in fits for _ in range(hand[x])]
        for kind, k in (("pung", 2), ("kong", 3)):
            for combo in sorted(set(combinations(pool, k))):
                ev: dict[str, Any] = {"type": kind, "seat": seat, "from": frm, "tile": CODES[t]}
                if any(x != t for x in combo):
                    ev["with"] = [CODES[x] for x in combo]
                out.append(ev)
        if seat == (frm + 1) % self.n and t < EAST:
            held = [x for x in range(N_TILES) if hand[x] and (x < EAST or is_khung(x))]
            pool2 = [x for x in held for _ in range(min(hand[x], 2))]
            seen: set[tuple[int, ...]] = set()
            for a, b in combinations(pool2, 2):
                key = tuple(sorted((a, b, t)))
                if key in seen or chow_reading([a, b, t], t, self.opts.ru_domain) is None:
                    continue
                seen.add(key)
                out.append(self.chow_event(seat, frm, t, key))
        return out

    def self_actions(self, seat: int, win: bool = True) -> list[dict[str, Any]]:
        """Declarations, kongs and (``win``: the scoring is the costly part) a self-drawn
        win open to the turn player (not discards)."""
        if not (self.own_turn(seat) or self.initial) or seat in self.owes:
            return []
        hand = self.concealed[seat]
        out: list[dict[str, Any]] = [
            {"type": "flower", "seat": seat, "tile": CODES[t]}
            for t in range(N_KINDS, N_TILES)
            if hand[t]
        ]
        if not (seat == self.turn and self.phase == ACT):
            return out
        if self.live_count >= 1:
            for t in range(N_KINDS):
                if hand[t] == 4:
                    out.append({"type": "concealed_kong", "seat": seat, "tile": CODES[t]})
            for m in self.melds[seat]:
                if m.kind is MeldKind.PUNG and hand[m.tile]:
                    out.append({"type": "added_kong", "seat": seat, "tile": CODES[m.tile]})
        t = self.drawn
        start = self.record.get("start_hands")
        if t is None and seat == self.dealer and self.n_discards == 0 and start:
            t = INDEX[start[seat][-1]]  # thiên ù names the dealer's last dealt tile
        if win and t is not None and hand[t]:
            score, _ = self.win_candidate(seat, t, WinSource.SELF_DRAW)
            if score is not None:
                out.append({"type": "win", "seat": seat, "tile": CODES[t]})
        return out

    # -- size and replacement bookkeeping --------------------------------------------

    def _owe(self, seat: int, cause: str, index: int) -> None:
        self.owes.setdefault(seat, []).append((cause, index))

    def _pay(self, seat: int) -> tuple[str, int] | None:
        """One owed replacement is drawn: the oldest debt, or None if nothing was owed."""
        owed = self.owes.get(seat)
        if not owed:
            return None
        first = owed.pop(0)
        if not owed:
            del self.owes[seat]
        return first

    def _missed_replacement(self, index: int, actor: int, batch: bool = False) -> None:
        """#8: after a flower or kong the actor's next action must be a replacement
        (or, ``batch``, another declaration)."""
        if not self.owes:
            return
        for seat, owed in list(self.owes.items()):
            cause, at = owed[0]
            if seat == actor and batch:
                continue
            if seat == actor or not self.initial:
                del self.owes[seat]
                if seat in self.size_flagged:
                    continue
                self.size_flagged.add(seat)
                self.viol(
                    index,
                    seat,
                    "SHORT_HAND",
                    f"{self.player(seat)} did not take the replacement owed after the {cause} "
                    f"at event {at}",
                )

    def _take(self, seat: int, tiles: list[int]) -> None:
        if self.partial:
            return
        for t in tiles:
            self.concealed[seat][t] -= 1
            self.n_tiles[seat] -= 1

    def _gain(self, index: int, seat: int, t: int) -> None:
        """A tile drawn into ``seat``'s hand (once an event: :meth:`_see` only past the limit)."""
        self.concealed[seat][t] += 1
        self.n_tiles[seat] += 1
        seen = self.seen
        seen[t] += 1
        if seen[t] > self.limits[t]:
            seen[t] -= 1
            self._see(index, t)
        self.undrawn -= 1

    def _check_wall(self, index: int, seat: int, t: int, replacement: bool) -> None:
        """#10 WALL_MISMATCH."""
        if self.wall is None:
            return
        if replacement:
            pos = len(self.wall) - 1 - self.tail
        elif self.dealer_extra is not None and seat == self.dealer:
            pos = self.dealer_extra
        else:
            pos = self.head
        if 0 <= pos < len(self.wall) and self.wall[pos] != t:
            where = "replacement end" if replacement else "live end"
            self.hard(
                index,
                seat,
                "WALL_MISMATCH",
                f"{self.player(seat)} takes {CODES[t]}, but the next tile at the {where} is "
                f"{CODES[self.wall[pos]]}",
            )

    def _advance(self, replacement: bool, seat: int) -> None:
        if replacement:
            self.tail += 1
        elif self.dealer_extra is not None and seat == self.dealer:
            self.dealer_extra = None
        else:
            self.head += 1

    # -- events ------------------------------------------------------------------------

    def on_draw(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], _INDEX[ev["tile"]]
        self.rob = None  # _check_rob(seat), inlined on the per-event paths
        if self.kept is not None:
            self.resume(seat, turns.DRAW)
        if self.undrawn - self.reserve < 1:  # live_count
            self.hard(
                index, seat, "DRAW_FROM_EMPTY_WALL", f"{self.player(seat)} draws from an empty wall"
            )
        self._check_wall(index, seat, t, replacement=False)
        if seat in self.owes:  # #11: a normal draw where a replacement is owed
            cause, at = self._pay(seat)  # type: ignore[misc]
            self.viol(
                index,
                seat,
                "DRAW_WRONG_PLACE",
                f"{self.player(seat)} draws from the live end, but a replacement is owed for "
                f"the {cause} at event {at}",
            )
            self._gain(index, seat, t)
            self._advance(False, seat)
            if self.phase == WAIT and seat == self.turn:
                self._begin_turn(t)
            elif self.own_turn(seat):
                self.drawn = t
            return
        if self.owes:
            self._missed_replacement(index, seat)
        entitled = self.phase == WAIT and seat == self.turn
        # another player's draw; a second draw by the turn player is flagged, not followed
        out_of_turn = not entitled and seat != self.turn
        if out_of_turn:
            self.keep_turn(seat, continues=True)
        if not entitled:
            self.viol(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} draws, but "
                + (
                    "has already drawn this turn"
                    if seat == self.turn
                    else f"it is {self.player(self.turn)}'s turn"
                ),
            )
        self._gain(index, seat, t)
        self._advance(False, seat)
        if seat == self.dealer:
            self.dealer_owes_draw = False
        if entitled:
            self._begin_turn(t)
        elif out_of_turn:
            # §0: the table follows the log: the offender holds the turn (its discard is in
            # turn); the live discard stays open for the entitled player's turn.
            self.turn = seat
            self.phase = ACT
            self.drawn = t
            self.kong_this_turn = False
        elif seat == self.turn:
            self.drawn = t

    def _begin_turn(self, t: int) -> None:
        if self.live is not None:
            self.live.claimable = False
            self.live = None
        self.announced = []
        self.phase = ACT
        self.drawn = t
        self.kong_this_turn = False

    def on_replacement(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if self.live_count < 1:
            self.hard(
                index,
                seat,
                "DRAW_FROM_EMPTY_WALL",
                f"{self.player(seat)} takes a replacement from an empty wall",
            )
        self._check_wall(index, seat, t, replacement=True)
        owed = self._pay(seat)
        if self.rob is not None and self.rob[0] == seat:
            self.rob = None
        if owed is None:
            self._missed_replacement(index, seat)
            if self.phase == WAIT and seat == self.turn:  # #11: replacement end on a normal turn
                self.viol(
                    index,
                    seat,
                    "DRAW_WRONG_PLACE",
                    f"{self.player(seat)} draws from the replacement end on a normal turn",
                )
                self._gain(index, seat, t)
                self._advance(True, seat)
                self._begin_turn(t)
                return
            self.viol(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} takes a replacement nobody owes them",
            )
        self._gain(index, seat, t)
        self._advance(True, seat)
        if seat == self.turn and self.phase in (ACT, MUST_DISCARD):
            self.drawn = t

    def on_flower(self, index: int, ev: dict[str, Any]) -> None:
        """Declare a bonus tile. Declarations may come in a batch before their replacements
        (§2.3 "declares every flower … drawing one replacement per declared tile"): #8 is
        met when every replacement owed is drawn before the player's next other action."""
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self._missed_replacement(index, seat, batch=True)
        if not is_bonus(t) or not self.holds(seat, t):
            self.hard(
                index,
                seat,
                "FLOWER_INVALID",
                f"{self.player(seat)} declares {CODES[t]}, which is not a flower or khung in "
                "their hand",
            )
        if is_khung(t) and not self.initial:
            self.resume(seat, turns.OWN_TURN)
        if is_khung(t) and not (self.initial or self.own_turn(seat)):
            self.viol(
                index,
                seat,
                "KHUNG_DECLARED_OFF_TURN",
                f"{self.player(seat)} declares the khung {CODES[t]} outside the initial phase "
                "and their own turn",
                kills=False,
            )
        self._take(seat, [t])
        self.declared[seat].append((t, self.initial))
        self._owe(seat, "flower", index)

    def _flower_held(self, seat: int) -> bool:
        hand = self.concealed[seat]
        if any(hand[34:50]):
            return True
        return self.opts.rh_must_be_declared and any(hand[t] for t in _RH_TILES)

    def on_discard(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], _INDEX[ev["tile"]]
        self.rob = None  # _check_rob(seat)
        if self.owes:
            self._missed_replacement(index, seat)
        hand = self.concealed[seat]
        if not (self.partial or hand[t] >= 1):  # holds(seat, t)
            self.hard(
                index,
                seat,
                "TILE_NOT_IN_HAND",
                f"{self.player(seat)} discards {CODES[t]}, which they do not hold",
            )
        if self.dealer_owes_draw and seat == self.dealer:
            self.hard(
                index,
                seat,
                "DEAL_INVALID",
                "the dealer was dealt 13 tiles and discards without the first draw",
            )
        if self.kept is not None:
            self.resume(seat, turns.DISCARD)
        # the turn player who skipped the draw still discards in turn (SHORT_HAND follows)
        in_turn = seat == self.turn and self.phase in (ACT, MUST_DISCARD, WAIT)
        if not in_turn:
            self.viol(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} discards, but it is {self.player(self.turn)}'s turn",
            )
            self.keep_turn(seat, continues=False)
        bonus = is_bonus(t)
        if bonus and not self.opts.allow_bonus_discard:
            self.viol(
                index,
                seat,
                "BONUS_DISCARDED",
                f"{self.player(seat)} discards the bonus tile {CODES[t]}",
            )
        if not self.partial:  # _take(seat, [t])
            hand[t] -= 1
            self.n_tiles[seat] -= 1
        ends_initial = in_turn and self.initial and seat == self.dealer
        if not self.partial:
            # #16: the initial phase must be complete: no flower held, no replacement owed
            # (the owed replacement stays owed and may still be taken, §3.3)
            holders = (
                [s for s in range(self.n) if self._flower_held(s) or s in self.owes]
                if ends_initial
                else []
            )
            if self._flower_held(seat) and seat not in holders:
                holders.insert(0, seat)
            for s in holders:
                why = "discards" if s == seat else "ends the initial phase"
                self.viol(
                    index,
                    s,
                    "FLOWER_NOT_DECLARED",
                    f"{self.player(s)} holds an undeclared flower when {self.player(seat)} {why}",
                )
        if self.n_tiles[seat] + 3 * self.n_sets[seat] != 13:  # size(seat)
            self._check_size(index, seat, 13)
        d = Discard(seat, t, index, claimable=not bonus)
        self.discards[seat].append(d)
        if bonus and is_khung(t):
            self.khung_thrown[seat].append(t)
        if in_turn:
            self.n_discards += 1
            if seat == self.dealer:
                self.initial = False
        # In turn or not (§0: the table follows the log), this is the latest discard and
        # the seat after the discarder draws next; ``kept`` holds the entitled turn.
        self.live = d
        self.announced = []
        self.turn = (seat + 1) % self.n
        self.phase = WAIT
        self.drawn = None

    # -- calls ---------------------------------------------------------------------------

    def _check_priority(
        self, index: int, seat: int, kind: str, discarder: int, khung: bool = False
    ) -> None:
        """#22 CLAIM_PRIORITY_VIOLATION, when spoken claims were logged (``announce``).

        §3.2: win > pung/kong > chow; between wins, and between pungs with the same kind of
        pair, the seat nearest after the discarder; a natural pair beats one using khung.
        ``khung``: the executed pung/kong uses a khung.
        """
        rank = CLAIM_RANK[kind]

        def dist(s: int) -> int:
            return (s - discarder) % self.n

        for other, what, other_khung in self.announced:
            if other == seat or what not in CLAIM_RANK:
                continue
            r = CLAIM_RANK[what]
            nearer = dist(other) < dist(seat)
            tie = r == rank and (
                (r == 3 and nearer)
                or (r == 2 and ((khung and not other_khung) or (khung == other_khung and nearer)))
            )
            if r > rank or tie:
                self.viol(
                    index,
                    seat,
                    "CLAIM_PRIORITY_VIOLATION",
                    f"{self.player(seat)}'s {kind} is executed although {self.player(other)} "
                    f"claimed {what}, which has priority",
                    kills=False,
                )
                return

    def claim(self, index: int, ev: dict[str, Any], kind: MeldKind) -> None:
        seat, t, frm = ev["seat"], INDEX[ev["tile"]], ev.get("from")
        self._check_rob(seat)
        self.resume(seat, turns.claim_of(frm, t))
        self._missed_replacement(index, seat)
        if frm == seat:
            self.hard(
                index,
                seat,
                "CLAIM_TILES_NOT_IN_HAND",
                f"{self.player(seat)} claims their own discard",
            )
        live = self.live
        if live is None or not live.claimable or live.tile != t or live.seat != frm:
            self.viol(
                index,
                seat,
                "LATE_CLAIM",
                f"{self.player(seat)} claims {CODES[t]} from seat {frm}, which is not the live "
                "discard",
            )
            live = (
                next(
                    (d for d in reversed(self.discards[frm]) if d.tile == t and not d.claimed),
                    None,
                )
                if isinstance(frm, int) and 0 <= frm < self.n
                else None
            )
        else:
            with_ = ev.get("with") or ev.get("tiles") or ()
            khung = any(is_khung(INDEX[c]) for c in with_)
            self._check_priority(index, seat, kind.value, frm, khung)
        ru = self.opts.ru_domain
        first = t
        if kind is MeldKind.CHOW:
            shown = [INDEX[c] for c in ev["tiles"]]
            hand_tiles = list(shown)
            if t in hand_tiles:
                hand_tiles.remove(t)
            else:
                hand_tiles = hand_tiles[:2]
            reading = chow_reading(shown, t, ru) if len(shown) == 3 else None
            valid = reading is not None
            first = reading if reading is not None else t
        else:
            k = 2 if kind is MeldKind.PUNG else 3
            with_ = ev.get("with")
            hand_tiles = [INDEX[c] for c in with_] if with_ is not None else [t] * k
            valid = t < N_KINDS and len(hand_tiles) == k
            valid = valid and all(stands_for(x, t, ru) for x in hand_tiles)
        if not self.holds_all(seat, hand_tiles):
            self.hard(
                index,
                seat,
                "CLAIM_TILES_NOT_IN_HAND",
                f"{self.player(seat)} shows {' '.join(CODES[x] for x in hand_tiles)} for the "
                f"{kind.value} but does not hold them",
            )
        if not valid:
            self.viol(
                index,
                seat,
                "INVALID_MELD",
                f"{CODES[t]} with {' '.join(CODES[x] for x in hand_tiles)} is not a "
                f"{kind.value} (a khung outside its domain, or not a set)",
            )
        if kind is MeldKind.CHOW and isinstance(frm, int) and seat != (frm + 1) % self.n:
            self.viol(
                index,
                seat,
                "CHOW_NOT_FROM_LEFT",
                f"{self.player(seat)} chows the discard of {self.player(frm)}; only "
                f"{self.player((frm + 1) % self.n)} may",
            )
        self._take(seat, hand_tiles)
        self.n_sets[seat] += 1
        if valid:
            meld = Meld(kind, first, frm)
            self.melds[seat].append(VNMeld(meld, tuple(sorted([t, *hand_tiles]))))
        self.take_live(live, seat)
        self.announced = []
        self.interrupted = True
        self.kong_this_turn = False
        if kind is MeldKind.KONG:
            self._owe(seat, "kong", index)
            self.phase = ACT
        else:
            self.phase = MUST_DISCARD

    def _own_kong(self, index: int, seat: int, what: str) -> None:
        self._check_rob(seat)
        if not self.kong_in_turn(index, seat):
            self.hard(
                index,
                seat,
                "KONG_INVALID",
                f"{self.player(seat)} declares a {what} outside their turn",
            )

    def on_concealed_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self._own_kong(index, seat, "concealed kong")
        with_ = ev.get("with")
        tiles = [t] * 4 if with_ is None else [INDEX[c] for c in with_]
        if len(tiles) == 3:
            tiles = [t, *tiles]
        if not self.holds_all(seat, tiles):
            self.hard(
                index,
                seat,
                "KONG_INVALID",
                f"{self.player(seat)} declares a concealed kong of {' '.join(CODES[x] for x in tiles)} "
                "without holding those tiles",
            )
        ru = self.opts.ru_domain
        valid = t < N_KINDS and len(tiles) == 4 and all(stands_for(x, t, ru) for x in tiles)
        if not valid:
            self.viol(
                index,
                seat,
                "INVALID_MELD",
                f"{' '.join(CODES[x] for x in tiles)} is not a kong of {CODES[t]}",
            )
        self._take(seat, tiles)
        self.n_sets[seat] += 1
        if valid:
            self.melds[seat].append(VNMeld(Meld(MeldKind.CONCEALED_KONG, t), tuple(sorted(tiles))))
        self._after_own_kong(index, seat, t)

    def on_added_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self._own_kong(index, seat, "added kong")
        at = next(
            (i for i, m in enumerate(self.melds[seat]) if m.kind is MeldKind.PUNG and m.tile == t),
            None,
        )
        with_ = ev.get("with")
        fourth = INDEX[with_[0]] if with_ else t
        if at is None or not self.holds(seat, fourth) or (with_ is not None and len(with_) != 1):
            self.hard(
                index,
                seat,
                "KONG_INVALID",
                f"{self.player(seat)} adds {CODES[fourth]} to a kong of {CODES[t]} without an "
                "exposed pung of it and the tile in hand",
            )
        assert at is not None
        valid = stands_for(fourth, t, self.opts.ru_domain)
        if not valid:
            self.viol(index, seat, "INVALID_MELD", f"{CODES[fourth]} cannot be a fourth {CODES[t]}")
        self._take(seat, [fourth])
        old = self.melds[seat][at]
        self.melds[seat][at] = VNMeld(
            Meld(MeldKind.ADDED_KONG, t, old.from_seat), tuple(sorted((*old.tiles, fourth)))
        )
        self._after_own_kong(index, seat, t)

    def _after_own_kong(self, index: int, seat: int, t: int) -> None:
        self._owe(seat, "kong", index)
        self.interrupted = True
        self.kong_this_turn = True
        if self.opts.rob_kong:
            self.rob = (seat, t, index)

    def _check_rob(self, seat: int) -> None:
        """The robbing window (option ``rob_kong``) closes at any other action."""
        self.rob = None

    def on_announce(self, index: int, ev: dict[str, Any]) -> None:
        if ev.get("what") == "claim":
            claim = ev.get("claim")
            kind = claim if isinstance(claim, str) else (claim or {}).get("type")
            with_ = ev.get("with") or (claim.get("with") if isinstance(claim, dict) else None)
            if with_ is not None:
                uses_khung = any(is_khung(INDEX[c]) for c in with_ if c in INDEX)
            else:  # a pung/kong claim needs khung if the natural copies held are too few
                need = {"pung": 2, "kong": 3}.get(kind) if isinstance(kind, str) else None
                live = self.live
                uses_khung = bool(
                    need
                    and live is not None
                    and not self.partial
                    and self.concealed[ev["seat"]][live.tile] < need
                )
            if isinstance(kind, str):
                self.announced.append((ev["seat"], kind, uses_khung))

    # -- wins ----------------------------------------------------------------------------

    def _heavenly(self, seat: int) -> bool:
        return (
            seat == self.dealer
            and self.initial
            and self.n_discards == 0
            and not self.interrupted
            and seat == self.turn
        )

    def _available(self, seat: int, t: int, source: WinSource, frm: int | None) -> bool:
        """#24 WIN_TILE_NOT_AVAILABLE."""
        if source is WinSource.SELF_DRAW:
            if not (seat == self.turn and self.phase == ACT):
                return False
            if self.drawn == t and self.holds(seat, t):
                return True
            if self._heavenly(seat) and self.holds(seat, t):
                return True
            return self._three_khung(seat) is not None and self.holds(seat, t)
        if source is WinSource.DISCARD:
            live = self.live
            if live is not None and live.tile == t and live.seat == frm and frm != seat:
                return True
            return bool(self.group and self.group[0].tile == t and self.group[0].discarder == frm)
        rob = self.rob
        return rob is not None and rob[1] == t and rob[0] == frm and frm != seat

    def _three_khung(self, seat: int) -> str | None:
        """§3.6: three blue (red) khung discarded and none won on: a 1-mủn win."""
        thrown = self.khung_thrown[seat]
        if self.opts.three_blue_khung_win and sum(1 for t in thrown if is_blue(t)) >= 3:
            return "three_blue_khung"
        if self.opts.three_red_khung_win and sum(1 for t in thrown if not is_blue(t)) >= 3:
            held = self.concealed_tiles(seat)
            sets = [x for m in self.melds[seat] for x in m.meld.tiles]
            if not any(EAST <= t < N_KINDS for t in (*held, *sets)):
                return "three_red_khung"
        return None

    def win_context(self, seat: int, t: int, source: WinSource) -> VNWin | None:
        """The :class:`VNWin` of a win by ``seat`` on ``t``; None if the count is wrong."""
        if self.partial:
            return None
        hand = list(self.concealed[seat])
        if source is WinSource.SELF_DRAW:
            if hand[t] < 1:
                return None
            hand[t] -= 1
        held = tuple(chain.from_iterable(map(repeat, range(N_TILES), hand)))  # x, k times, in C
        melds = tuple(self.melds[seat])
        if len(held) + 3 * len(melds) != 13 or self.n_sets[seat] != len(melds):
            return None
        live = self.live
        earthly = (
            source is WinSource.DISCARD
            and seat != self.dealer
            and self.n_discards == 1
            and live is not None
            and live.seat == self.dealer
            and not self.interrupted
        )
        return VNWin(
            concealed=held,
            win_tile=t,
            source=source,
            melds=melds,
            seat_number=self.seat_number(seat),
            declared=tuple(self.declared[seat]),
            heavenly=source is WinSource.SELF_DRAW and self._heavenly(seat),
            earthly=earthly,
        )

    def _judge(
        self, seat: int, t: int, source: WinSource, ctx: VNWin | None
    ) -> tuple[VNScore | None, str | None]:
        """§7.1 (a)-(d) in the order flower, structure, mất ù, minimum."""
        if self.partial:
            return None, None
        hand = list(self.concealed[seat])
        if source is not WinSource.SELF_DRAW and t < N_TILES:
            hand[t] += 1
        fixed = self._three_khung(seat) if source is WinSource.SELF_DRAW else None
        bonus_tile = is_bonus(t) and source is not WinSource.SELF_DRAW
        flower_in = any(map(hand.__getitem__, _FLOWERS_AND_RH))
        if bonus_tile:
            flower_in = any((hand[x] - (x == t)) for x in _FLOWERS_AND_RH)
        score = None if ctx is None or flower_in else evaluate(ctx, self.opts)
        if fixed is not None and (score is None or score.phan < 6):
            score = fixed_score(fixed, self.opts)
        elif flower_in:
            return None, "WIN_WITH_FLOWER"
        if bonus_tile and not self.opts.allow_bonus_discard:
            return None, "WIN_ON_BONUS_DISCARD"
        if score is None:
            return None, "WIN_HAND_INCOMPLETE"
        if seat in self.dead:
            return None, "WIN_AFTER_MAT_U"
        if not score.meets_min:
            return None, "WIN_BELOW_MIN"
        return score, None

    def on_win(self, index: int, ev: dict[str, Any]) -> None:
        seat, t, frm = ev["seat"], INDEX[ev["tile"]], ev.get("from")
        source = self.win_source(ev)
        if source is not WinSource.ROBBED_KONG:
            self._missed_replacement(index, seat)
        self.resume_win(seat, source, frm, t)
        if not self._available(seat, t, source, frm):
            self.hard(
                index,
                seat,
                "WIN_TILE_NOT_AVAILABLE",
                f"{self.player(seat)} declares a win on {CODES[t]}, which is not "
                + {
                    WinSource.SELF_DRAW: "their latest draw",
                    WinSource.DISCARD: "the live discard",
                    WinSource.ROBBED_KONG: "the tile of a kong just declared",
                }[source],
            )
        if source is WinSource.DISCARD and self.live is not None:
            self._check_priority(index, seat, "win", self.live.seat)
        hand_size = self.size(seat) + (0 if source is WinSource.SELF_DRAW else 1)
        if hand_size != 14:
            self._check_size(index, seat, 14 if source is WinSource.SELF_DRAW else 13)
        ctx = self.win_context(seat, t, source)
        score, reason = self._judge(seat, t, source, ctx)
        discarder = None if source is WinSource.SELF_DRAW else frm
        claim = WinClaim(
            index, seat, t, source, discarder, score, reason, is_bonus(t) and discarder is not None
        )
        self.group.append(claim)
        if source is WinSource.SELF_DRAW:
            self._resolve_group()

    # -- settlement ----------------------------------------------------------------------

    def settlement(self) -> list[float] | None:
        """Per-seat deltas: false-win penalties plus each settled win (§6, §7.1)."""
        if self.stopped:
            return None
        deltas = [0.0] * self.n
        for c in self.false_wins:
            for s, d in enumerate(false_win_deltas(c.seat, self.opts, self.n)):
                deltas[s] += d
        if any(c.score is None for c in self.settled):
            return None
        for c in self.settled:
            assert c.score is not None
            fixed = c.score.patterns[0][0] in ("three_blue_khung", "three_red_khung")
            source = WinSource.SELF_DRAW if fixed else c.source
            for s, d in enumerate(
                settle(
                    c.score.phan,
                    c.seat,
                    source,
                    self.opts,
                    discarder=c.discarder,
                    dealer=self.dealer,
                    n=self.n,
                    bonus_deal_in=c.bonus_win,
                )
            ):
                deltas[s] += d
        return deltas

    def penalties(self) -> list[dict[str, Any]]:
        """The §7.1 penalties as the ``result.penalties`` entries of the record."""
        return [
            {
                "seat": c.seat,
                "code": "FALSE_WIN",
                "deltas": false_win_deltas(c.seat, self.opts, self.n),
            }
            for c in self.false_wins
        ]


HANDLERS = VNHand.HANDLERS = handlers(VNHand)

__all__ = [
    "ACT",
    "ENDED",
    "MUST_DISCARD",
    "WAIT",
    "Discard",
    "Stop",
    "VNHand",
    "WinClaim",
    "chow_reading",
    "stands_for",
]
