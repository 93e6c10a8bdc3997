"""Replaying one Hong Kong hand: the §8 legality checklists of hk-classic.md and hk-mahjongo.md.

:class:`HKHand` holds the table state of one hand and applies one event at a time
(:meth:`HKHand.step`), emitting findings with the codes of the checklists. The state is
private to one replay and mutated in place for speed; the public surface is the pure
``replay.engine.replay_hand`` (record in, report out). Scoring and payments are the pure
functions of :mod:`replay.hk.scoring`.

Checklist numbers in comments are hk-classic's (#n); hk-mahjongo's are named where its
code differs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import gt, itemgetter
from typing import Any

import msgspec
from mjaudit.parts.replay.engine import turns
from mjaudit.parts.replay.engine.turns import ACT, ENDED, MUST_DISCARD, WAIT
from mjaudit.parts.replay.rulesets.hk.options import HKOptions
from mjaudit.parts.replay.rulesets.hk.patterns import WinContext, WinSource
from mjaudit.parts.replay.rulesets.hk.scoring import HandScore, evaluate, false_win_deltas, settle
from mjaudit.parts.replay.rulesets.mahjong.decompose import is_complete
from mjaudit.parts.replay.rulesets.mahjong.hand import MahjongHand, handlers
from mjaudit.parts.replay.rulesets.mahjong.hand import WinClaim as MahjongWinClaim
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.schemas.event_columns import event_field
from mjaudit.parts.schemas.tiles import MAHJONG

# A plain dict copy of the read-only MappingProxy: a lookup per event and per wall tile
# costs about half as much.
INDEX: dict[str, int] = dict(MAHJONG.index)
CODES = MAHJONG.codes
N_TILES = len(CODES)  # 42: 34 playing kinds + 8 bonus
FIRST_BONUS = 34
_KINDS = range(34)
WIND_CODES = ("E", "S", "W", "N")
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}

# The tile set of each preset (checklist #4/#6): codes allowed and the full wall.
_ALL_PLAYING = list(range(34))
_TWO_P = [t for t in range(34) if not (t < 9 or 18 <= t < 27) or t % 9 in (0, 8)]
TILE_SETS: dict[str, frozenset[int]] = {
    "hk-classic": frozenset(range(N_TILES)),
    "hk-mahjongo": frozenset(_ALL_PLAYING),
    "hk-mahjongo-2p": frozenset(_TWO_P),
}
ALLOWED_CODES: dict[str, frozenset[str]] = {
    name: frozenset(CODES[t] for t in tiles) for name, tiles in TILE_SETS.items()
}
WALLS: dict[str, Counter[int]] = {
    "hk-classic": Counter({**{t: 4 for t in range(34)}, **{t: 1 for t in range(34, 42)}}),
    "hk-mahjongo": Counter({t: 4 for t in range(34)}),
    "hk-mahjongo-2p": Counter({t: 4 for t in _TWO_P}),
}

SORTED_WALLS: dict[str, list[int]] = {name: sorted(w.elements()) for name, w in WALLS.items()}
# Per-hand constants, computed once per preset instead of once per hand.
LIMITS: dict[str, tuple[int, ...]] = {
    name: tuple(w[t] for t in range(N_TILES)) for name, w in WALLS.items()
}
WALL_SIZES: dict[str, int] = {name: sum(w.values()) for name, w in WALLS.items()}
CLAIM_RANK = {"win": 3, "kong": 2, "pung": 2, "chow": 1}


def tile_ints(codes: Sequence[str]) -> list[int]:
    """Tile codes as ints (KeyError on an unknown code), for a list in one C call."""
    if type(codes) is list and len(codes) > 1:
        return list(itemgetter(*codes)(INDEX))
    return list(map(INDEX.__getitem__, codes))


def is_bonus(t: int) -> bool:
    return t >= FIRST_BONUS


def suit(t: int) -> int | None:
    return t // 9 if t < 27 else None


class Discard(msgspec.Struct, gc=False):
    """A discard, made about once an event: a struct without cycles, built in C (a third
    of a slots dataclass's cost) and untracked by the cycle collector."""

    seat: int
    tile: int
    index: int
    live_count: int  # L when it was made
    warned: tuple[int, ...]  # warners whose active, non-exempt warning covers this tile
    unseen: bool  # for the last-five rule
    claimable: bool = True
    claimed: bool = False


@dataclass
class WinClaim(MahjongWinClaim[HandScore]):
    """A win and the context it was scored in; claims on the same tile form a group (#39)."""

    context: WinContext | None


@dataclass
class HKHand(MahjongHand):
    """One hand's table. After an out-of-turn draw or discard the table follows the log
    (§0, :mod:`replay.turns`): ``kept`` holds the entitled turn while it is still open."""

    # The per-turn state an out-of-turn action leaves open for the entitled player.
    TURN_FIELDS = (
        "turn",
        "phase",
        "drawn",
        "live",
        "drawn_by_replacement",
        "kong_chain",
        "kong_declared_this_turn",
        "kong_feed",
    )
    AFTER_END = "ACTION_AFTER_HAND_END"
    UNKNOWN_ACTION = "ACTION_UNKNOWN"
    UNKNOWN_TEXT = "{kind} is not a {ruleset} action"
    EARLY_DRAW_TEXT = (
        "an exhaustive draw is recorded with {live} live tiles left",
        "an exhaustive draw is recorded before the last tile was discarded",
    )
    TILE_INDEX = INDEX
    CODES = CODES

    opts: HKOptions

    def __post_init__(self) -> None:
        rec = self.record
        self.init_table(len(rec["players"]), N_TILES)  # n_tiles: non-bonus concealed tiles
        self.ruleset: str = rec["ruleset"]
        self.prevailing: int = WIND_CODES.index(rec.get("prevailing_wind") or "E")
        self.classic = self.opts.is_classic
        if self.opts.violations_are_hard_errors:
            self.hard_violation_note = " (violations_are_hard_errors is on)"
        self._settled: tuple[list[float] | None, int | None] | None = None
        # (events, their tile column) once #4 has read it: the walk reads the same column
        self._tile_column: tuple[Any, list[Any]] = (None, [])
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.flowers: list[list[int]] = [[] for _ in range(self.n)]
        self.discards: list[list[Discard]] = [[] for _ in range(self.n)]
        self.visible = [0] * 34  # copies visible to all: discards, exposed melds, ckongs
        self.phase = WAIT
        self.owes: dict[int, tuple[str, int]] = {}  # seat -> (flower|kong, event index)
        self.live: Discard | None = None
        self.drawn_by_replacement = ""  # "" / "kong" / "flower"
        self.kong_chain = 0
        self.kong_declared_this_turn = False
        self.rob: tuple[int, int, MeldKind, int] | None = None  # seat, tile, kind, index
        self.kong_feed: tuple[int, int, int] | None = None  # warner W, feeder D, suit: trigger B
        self.warnings: list[tuple[int, int]] = []  # (seat, suit), in order of activation
        self.pending_warning: dict[int, int] = {}  # seat -> suit awaiting a declaration
        self.pao: dict[int, int] = {}
        self.declared_claims: list[tuple[int, str]] = []
        self.group: list[WinClaim] = []
        self.settled: list[WinClaim] = []
        self.false_wins: list[WinClaim] = []
        wall = rec.get("wall")
        self.wall = tile_ints(wall) if wall is not None else None
        dead_wall = rec.get("dead_wall")
        self.dead_wall = tile_ints(dead_wall) if dead_wall is not None else None
        self.limits = LIMITS[self.ruleset]
        self.undrawn = WALL_SIZES[self.ruleset]  # U
        self.reserve = self.opts.reserved_tail_tiles  # R

    # -- findings --------------------------------------------------------------------

    def wind(self, seat: int) -> str:
        return (
            "ESWN"[(seat - self.dealer) % self.n]
            if self.n == 4
            else ("E", "W")[seat != self.dealer]
        )

    def lose_right(self, index: int, seat: int, code: str) -> None:
        """§8: the hand is dead."""
        if seat not in self.dead:
            self.dead[seat] = code
            self.info(index, seat, "DEAD_HAND", f"{self.player(seat)}'s hand is dead ({code})")

    def false_win(self, claim: WinClaim) -> None:
        self.viol(
            claim.index,
            claim.seat,
            "FALSE_WIN",
            f"{self.player(claim.seat)} declares a false win on {CODES[claim.tile]} ({claim.reason})",
            kills=False,
            reason=claim.reason,
        )
        self.info(
            claim.index,
            claim.seat,
            "FALSE_WIN_PENALTY",
            f"{self.player(claim.seat)} pays the false-win penalty ({self.opts.false_win_penalty})",
        )

    # -- set-up (HAND_START, DEAL) -----------------------------------------------------

    def start(self) -> None:
        """Checks #1-#7 and the deal. Raises :class:`Stop` on a corrupt record."""
        rec = self.record
        players = rec["players"]
        want = self.opts.n_players
        if len(players) != want or len(set(players)) != len(players):
            self.hard(
                None,
                None,
                "SEATING_INVALID",
                f"{self.ruleset} needs {want} distinct players, got {players}",
            )
        allowed = TILE_SETS[self.ruleset]
        # A wall that is the preset's full set holds only valid codes: #4 skips it then.
        full_wall = (
            self.wall is not None
            and sorted(self.wall + (self.dead_wall or [])) == SORTED_WALLS[self.ruleset]
        )
        self._check_codes(allowed, full_wall)
        if self.wall is not None and not full_wall:
            full = Counter(self.wall + (self.dead_wall or []))
            if full != WALLS[self.ruleset]:
                diff = (full - WALLS[self.ruleset]) + (WALLS[self.ruleset] - full)
                sample = ", ".join(CODES[t] for t in sorted(diff)[:5])
                self.hard(
                    None,
                    None,
                    "WALL_INVALID",
                    f"the wall is not a permutation of the {sum(WALLS[self.ruleset].values())} "
                    f"tiles of {self.ruleset} (differs in {sample})",
                )
        recorded = rec.get("start_hands")
        hands: list[list[int]] | None = None
        if recorded is not None:
            hands = list(map(tile_ints, recorded))
        elif self.wall is not None:
            hands = self._deal_from_wall()
        if hands is None:
            self.no_hands(
                "the log has neither start_hands nor wall: concealed tiles are unknown, so "
                "only public actions are checked and wins cannot be scored",
                13 * self.n,
            )
            # #7: the dealer's 14th tile is dealt or is the first draw; with the deal
            # unknown, the dealer's first action says which (a discard: it was dealt).
            events = rec["events"]
            first = events[0] if events else {}
            dealt_14 = first.get("type") == "discard" and first.get("seat") == self.dealer
            if self.opts.dealer_initial_tiles == "14" or (
                dealt_14 and self.opts.dealer_initial_tiles == "either"
            ):
                self.undrawn -= 1
                self.phase = ACT
            return
        dealer_size = len(hands[self.dealer])
        sizes_ok = all(len(h) == 13 for s, h in enumerate(hands) if s != self.dealer)
        allowed_dealer = {"either": (13, 14), "14": (14,), "13+draw": (13,)}[
            self.opts.dealer_initial_tiles
        ]
        if not sizes_ok or dealer_size not in allowed_dealer:
            sizes = [len(h) for h in hands]
            self.hard(
                None,
                None,
                "DEAL_SIZE_INVALID",
                f"dealt hand sizes {sizes}: expected 13 each and {' or '.join(map(str, allowed_dealer))} "
                f"for the dealer (seat {self.dealer})",
            )
        self._take_deal(hands)
        dealt = sum(map(len, hands))
        if self.wall is not None and recorded is not None:
            expected = self._deal_from_wall(dealer_size)
            for seat in range(self.n):
                got, want = hands[seat], expected[seat]
                if got != want and sorted(got) != sorted(want):  # same order: no sort needed
                    self.hard(
                        None,
                        seat,
                        "DEAL_MISMATCH",
                        f"{self.player(seat)}'s start hand does not match the deal from the wall",
                    )
        self.head = dealt
        self.undrawn -= dealt
        self.dealer_owes_draw = dealer_size == 13
        if dealer_size == 14:
            self.phase = ACT
            self.drawn = None

    def _take_deal(self, hands: list[list[int]]) -> None:
        """Put the dealt tiles in the players' hands; #5 TILE_OVERCOUNT on the first tile
        seen more often than the set holds."""
        seen, limits, n_tiles, concealed = self.seen, self.limits, self.n_tiles, self.concealed
        if len(hands) <= self.n:  # (more hands than seats fail tile by tile, as ever)
            # Every tile first, then the overcount check once: it almost never fires, and
            # when it does the deal is undone and taken tile by tile to stop where it fires.
            before = list(n_tiles)
            for seat, hand in enumerate(hands):
                row = concealed[seat]
                for t in hand:
                    row[t] += 1
                    seen[t] += 1
                n_tiles[seat] += len(hand) - sum(row[FIRST_BONUS:])
            if not any(map(gt, seen, limits)):
                return
            for seat, hand in enumerate(hands):
                row = concealed[seat]
                for t in hand:
                    row[t] -= 1
                    seen[t] -= 1
            n_tiles[:] = before
        for seat, hand in enumerate(hands):
            row = concealed[seat]
            for t in hand:
                row[t] += 1
                if t < FIRST_BONUS:
                    n_tiles[seat] += 1
                seen[t] += 1  # _see(None, t), inlined
                if seen[t] > limits[t]:
                    seen[t] -= 1
                    self._see(None, t)

    def _deal_from_wall(self, dealer_size: int = 13) -> list[list[int]]:
        """§2.3: 4 tiles each three times round, then 1 each, then the dealer's extra tile."""
        wall = self.wall
        assert wall is not None
        n = self.n
        hands: list[list[int]] = [[] for _ in range(n)]
        for k in range(n):  # the k-th seat from the dealer takes block k of each round
            a, b, c = 4 * k, 4 * (n + k), 4 * (2 * n + k)
            hand = wall[a : a + 4] + wall[b : b + 4] + wall[c : c + 4]
            hand.append(wall[12 * n + k])
            hands[(self.dealer + k) % n] = hand
        if dealer_size == 14:
            hands[self.dealer].append(wall[13 * n])
        return hands

    def _check_codes(self, allowed: frozenset[int], full_wall: bool = False) -> None:
        """#4 TILE_CODE_INVALID: every tile field holds a code of this preset's tile set
        (``full_wall``: the wall is known to be the preset's full set, so it does)."""
        rec = self.record
        codes = ALLOWED_CODES[self.ruleset]
        events = rec["events"]
        column = event_field(events, "tile")
        self._tile_column = (events, column)  # run() reads it again
        tiles = set(column)
        tiles.discard(None)
        runs = filter(None, event_field(events, "tiles"))  # an empty run is valid
        if (
            (
                full_wall
                or (
                    codes.issuperset(rec.get("wall") or ())
                    and codes.issuperset(rec.get("dead_wall") or ())
                )
            )
            and all(map(codes.issuperset, rec.get("start_hands") or ()))
            and codes.issuperset(tiles)
            and all(map(codes.issuperset, runs))
        ):
            return  # the common case, at set speed; otherwise find the first offender

        def bad(where: str, index: int | None, seat: int | None, code: str) -> None:
            self.hard(
                index,
                seat,
                "TILE_CODE_INVALID",
                f"{where}: {code!r} is not a tile of {self.ruleset}",
            )

        for key in ("wall", "dead_wall"):
            for code in rec.get(key) or ():
                if INDEX[code] not in allowed:
                    bad(key, None, None, code)
        for seat, hand in enumerate(rec.get("start_hands") or ()):
            for code in hand:
                if INDEX[code] not in allowed:
                    bad(f"start hand of seat {seat}", None, seat, code)
        for i, ev in enumerate(rec["events"]):
            for code in (ev.get("tile"), *(ev.get("tiles") or ())):
                if code is not None and INDEX[code] not in allowed:
                    bad(f"event {i} ({ev['type']})", i, ev.get("seat"), code)

    def deal_admits(self, index: int, ev: dict[str, Any]) -> bool:
        """Would the deal raise what it raised with ``ev`` recorded at ``index`` as well?
        It reads the first event (the dealer's 14th tile) and every event's tile codes (#4):
        a later event whose codes are all of this preset's set leaves it as it was, so the
        live service need not deal again to know (service/stepper.py)."""
        if index == 0:
            return False
        codes = ALLOWED_CODES[self.ruleset]
        tile = ev.get("tile")
        return (tile is None or (isinstance(tile, str) and tile in codes)) and all(
            isinstance(c, str) and c in codes for c in ev.get("tiles") or ()
        )

    # -- helpers -----------------------------------------------------------------------

    def take(self, seat: int, t: int, k: int = 1) -> None:
        if not self.partial:
            self.concealed[seat][t] -= k
            if t < FIRST_BONUS:
                self.n_tiles[seat] -= k

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.n

    def _check_rob_window(self, index: int, seat: int, what: str) -> None:
        """#33: after an added kong only a robbing win may come before the replacement."""
        rob = self.rob
        if rob is None:
            return
        if rob[2] is MeldKind.ADDED_KONG and seat != rob[0] and rob[0] in self.owes:
            self.hard(
                index,
                seat,
                "ACTION_OUT_OF_ORDER",
                f"{self.player(seat)}'s {what} comes before {self.player(rob[0])}'s replacement "
                "for the added kong (only a robbing win may)",
            )
        self.rob = None

    def _missed_replacement(self, index: int, actor: int) -> None:
        """#10 / #18: a replacement was owed and something else happened."""
        for seat, (cause, at) in list(self.owes.items()):
            if seat == actor or not self.initial:
                del self.owes[seat]
                if self.rob is not None and self.rob[0] == seat:
                    self.rob = None
                code = "FLOWER_NOT_REPLACED" if cause == "flower" else "KONG_WITHOUT_REPLACEMENT"
                self.viol(
                    index,
                    seat,
                    code,
                    f"{self.player(seat)} did not draw the replacement owed after the "
                    f"{cause} at event {at}",
                )

    def _exposed_of_suit(self, seat: int, s: int) -> int:
        count = 0
        for m in self.melds[seat]:
            if suit(m.tile) == s and (m.is_exposed or self.opts.nine_tile_counts_concealed_kongs):
                count += 1
        return count

    def warned_for(self, discarder: int, t: int) -> tuple[int, ...]:
        """Warners whose active, non-exempt warning covers a discard of ``t`` (§7.2)."""
        s = suit(t)
        if s is None or not self.opts.nine_tile_warning or not self.warnings:
            return ()
        out = []
        _first_seat, first_suit = self.warnings[0]
        rule = self.opts.nine_tile_second_warning_exemption
        for order, (seat, ws) in enumerate(self.warnings):
            if ws != s or seat == discarder:
                continue
            exempt = False
            if order > 0 and ws != first_suit and rule != "none":
                exempt = True
                if rule == "holding_one_suit":
                    hand = self.concealed[discarder]
                    exempt = not any(hand[first_suit * 9 : first_suit * 9 + 9])
            if not exempt:
                out.append(seat)
        return tuple(out)

    def _activate_warning(self, index: int, seat: int, s: int) -> None:
        if (seat, s) in self.warnings:
            return
        self.warnings.append((seat, s))
        self.info(
            index,
            seat,
            "NINE_TILE_WARNING_ACTIVE",
            f"{self.player(seat)} has three exposed melds of {SUIT_NAMES['mps'[s]]}: "
            "the nine-tile warning is active",
        )

    # -- events ------------------------------------------------------------------------

    def run(self, events: Sequence[dict[str, Any]]) -> None:
        """``step`` every event, with the plain draw -> discard cycle done inline.

        Most events of a hand are the turn player's entitled draw from the head of the wall
        and their discard of a held suit/honour tile. While nothing is pending (no claim
        group, kong to rob, replacement owed, nine-tile warning) and the event passes the
        checks that would otherwise raise a finding, the checks of ``on_draw`` /
        ``on_discard`` that cannot fire are skipped and the turn state lives in locals.
        While an out-of-turn action keeps the entitled turn open (``kept``, §0: the table
        follows the log) nothing is quiet: every event is stepped until the table has
        settled on one order again. Any other event goes through :meth:`step`, after the locals are written back, so the
        findings and the final state are exactly those of stepping each event.
        """
        step = self.step
        concealed, n_tiles, n_sets = self.concealed, self.n_tiles, self.n_sets
        seen, limits, visible, discards = self.seen, self.limits, self.visible, self.discards
        owes, warnings, pending = self.owes, self.warnings, self.pending_warning
        wall = self.wall
        n_wall = len(wall) if wall is not None else 0
        reserve, dealer, n, partial = self.reserve, self.dealer, self.n, self.partial
        classic = self.classic  # hk-classic: a held bonus tile is FLOWER_NOT_DECLARED
        # Module constants as locals: the loop reads them once or twice an event.
        index, bonus, discard = INDEX, FIRST_BONUS, Discard
        wait, act, holding = WAIT, ACT, (ACT, MUST_DISCARD)
        # The mirrored turn state; `moved` says the locals are ahead of the attributes.
        phase, turn, live, drawn = self.phase, self.turn, self.live, self.drawn
        undrawn, head, n_discards = self.undrawn, self.head, self.n_discards
        initial, owes_draw = self.initial, self.dealer_owes_draw
        # Draws go inline while nothing is pending; discards also need no nine-tile warning
        # active or awaiting its declaration, and known hands. Only step() changes these.
        quiet = not self.group and self.rob is None and not owes and self.kept is None
        quiet_discard = quiet and not warnings and not pending and not partial
        # The seat whose draw / discard may go inline next (-1: none): the conditions above
        # on the turn state, set as the turn moves (a draw still needs a live tile, a
        # discard quiet_discard), so an event tests an int where it tested the state.
        draw_seat = turn if quiet and phase == wait else -1
        discard_seat = turn if phase in holding and not (owes_draw and turn == dealer) else -1
        moved = drew = False
        # Type, seat and tile of each event (from the columns of an EventColumns): the
        # inline path never needs the event's dict, only step() does.
        kinds, seats = event_field(events, "type"), event_field(events, "seat")
        of, tiles = self._tile_column
        if of is not events:
            tiles = event_field(events, "tile")
        try:
            for i, kind, seat, code in zip(range(len(kinds)), kinds, seats, tiles, strict=True):
                if kind == "draw":
                    if seat == draw_seat and undrawn > reserve:
                        t = index[code]
                        at_head = wall is None or (head < n_wall and wall[head] == t)
                        if at_head and seen[t] < limits[t]:
                            concealed[seat][t] += 1
                            if t < bonus:
                                n_tiles[seat] += 1
                            seen[t] += 1
                            undrawn -= 1
                            head += 1
                            if seat == dealer:
                                owes_draw = False
                            if live is not None:
                                live.claimable = False
                                live = None
                            phase = act
                            drawn = t
                            moved = drew = True
                            # the drawer holds the turn (a dealer's draw is no longer owed)
                            draw_seat, discard_seat = -1, seat
                            continue
                elif kind == "discard" and seat == discard_seat and quiet_discard:
                    t = index[code]
                    hand = concealed[seat]
                    if (
                        t < bonus
                        and hand[t] > 0
                        and n_tiles[seat] + 3 * n_sets[seat] == 14
                        and not (classic and ((initial and seat == dealer) or any(hand[bonus:])))
                    ):
                        hand[t] -= 1
                        n_tiles[seat] -= 1
                        unseen = visible[t] == 0
                        visible[t] += 1
                        live = discard(seat, t, i, undrawn - reserve, (), unseen, True)
                        discards[seat].append(live)
                        n_discards += 1
                        if seat == dealer:
                            initial = False
                        turn = (seat + 1) % n
                        phase = wait
                        drawn = None
                        moved = True
                        draw_seat, discard_seat = turn, -1  # still quiet
                        continue
                if moved:
                    self._write_turn(
                        phase,
                        turn,
                        live,
                        drawn,
                        undrawn,
                        head,
                        n_discards,
                        initial,
                        owes_draw,
                        drew,
                    )
                    moved = drew = False
                step(i, events[i])
                phase, turn, live, drawn = self.phase, self.turn, self.live, self.drawn
                undrawn, head, n_discards = self.undrawn, self.head, self.n_discards
                initial, owes_draw = self.initial, self.dealer_owes_draw
                quiet = not self.group and self.rob is None and not owes and self.kept is None
                quiet_discard = quiet and not warnings and not pending and not partial
                draw_seat = turn if quiet and phase == wait else -1
                discard_seat = (
                    turn if phase in holding and not (owes_draw and turn == dealer) else -1
                )
        finally:
            if moved:
                self._write_turn(
                    phase, turn, live, drawn, undrawn, head, n_discards, initial, owes_draw, drew
                )

    def _write_turn(
        self,
        phase: str,
        turn: int,
        live: Discard | None,
        drawn: int | None,
        undrawn: int,
        head: int,
        n_discards: int,
        initial: bool,
        owes_draw: bool,
        drew: bool,
    ) -> None:
        """Store the turn state :meth:`run` kept in locals, and the fields every inline draw
        and discard resets (a draw also clears ``kong_declared_this_turn``)."""
        self.phase, self.turn, self.live, self.drawn = phase, turn, live, drawn
        self.undrawn, self.head, self.n_discards = undrawn, head, n_discards
        self.initial, self.dealer_owes_draw = initial, owes_draw
        if self.declared_claims:
            self.declared_claims = []
        self.drawn_by_replacement = ""
        self.kong_chain = 0
        self.kong_feed = None
        if drew:
            self.kong_declared_this_turn = False

    def on_draw(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if self.rob is not None:
            self._check_rob_window(index, seat, "draw")
        if self.owes:
            self._missed_replacement(index, seat)
        if self.undrawn - self.reserve < 1:
            code = "DRAW_FROM_RESERVED_TILES" if self.opts.is_classic else "DRAW_FROM_EMPTY_WALL"
            self.hard(
                index, seat, code, f"{self.player(seat)} draws with no live tile left (L = 0)"
            )
        wall = self.wall
        if wall is not None and (self.head >= len(wall) or wall[self.head] != t):
            self._check_wall(index, seat, t, replacement=False)
        self.resume(seat, turns.DRAW)
        entitled = self.phase == WAIT and seat == self.turn
        out_of_turn = False
        if not entitled:
            if seat == self.turn and self.phase in (ACT, MUST_DISCARD):
                self.viol(
                    index, seat, "DOUBLE_DRAW", f"{self.player(seat)} draws twice in one turn"
                )
                self.drawn = t  # still their most recent draw this turn (#34)
            else:
                self.viol(
                    index,
                    seat,
                    "DRAW_OUT_OF_TURN",
                    f"{self.player(seat)} draws, but it is {self.player(self.turn)}'s turn",
                )
                out_of_turn = True
                self.keep_turn(seat, continues=True)
        self.concealed[seat][t] += 1
        if t < FIRST_BONUS:
            self.n_tiles[seat] += 1
        seen = self.seen
        seen[t] += 1
        if seen[t] > self.limits[t]:
            seen[t] -= 1
            self._see(index, t)
        self.undrawn -= 1
        self.head += 1
        if seat == self.dealer:
            self.dealer_owes_draw = False
        if out_of_turn:
            # §0: the table follows the log: the offender holds the turn (its discard is in
            # turn); the live discard stays open for the entitled player's turn.
            self.turn = seat
        if entitled or out_of_turn:
            if entitled and self.live is not None:
                self.live.claimable = False
                self.live = None
            if entitled and self.declared_claims:
                self.declared_claims = []
            self.phase = ACT
            self.drawn = t
            self.drawn_by_replacement = ""
            self.kong_chain = 0
            self.kong_declared_this_turn = False
            self.kong_feed = None

    def _check_wall(self, index: int, seat: int, t: int, replacement: bool) -> None:
        """#16 DRAW_TILE_MISMATCH (or WRONG_DRAW_POSITION)."""
        expected: int | None = None
        if replacement and self.dead_wall is not None:
            if self.tail < len(self.dead_wall):
                expected = self.dead_wall[self.tail]
        elif self.wall is not None:
            pos = len(self.wall) - 1 - self.tail if replacement else self.head
            if 0 <= pos < len(self.wall):
                expected = self.wall[pos]
        if expected is None or expected == t:
            return
        where = "tail" if replacement else "head"
        message = (
            f"{self.player(seat)} draws {CODES[t]}, but the next tile at the {where} of the "
            f"wall is {CODES[expected]}"
        )
        if self.opts.draw_mismatch_policy == "wrong_position":
            self.viol(index, seat, "WRONG_DRAW_POSITION", message)
        else:
            self.hard(index, seat, "DRAW_TILE_MISMATCH", message)

    def on_replacement(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if self.live_count < 1:
            code = "DRAW_FROM_RESERVED_TILES" if self.opts.is_classic else "DRAW_FROM_EMPTY_WALL"
            self.hard(index, seat, code, f"{self.player(seat)} takes a replacement with L = 0")
        owed = self.owes.pop(seat, None)
        if owed is None:
            self.hard(
                index,
                seat,
                "REPLACEMENT_UNEXPECTED",
                f"{self.player(seat)} draws a replacement that nobody owes them",
            )
        if self.rob is not None and self.rob[0] == seat:
            self.rob = None
        self._check_wall(index, seat, t, replacement=True)
        self.concealed[seat][t] += 1
        if t < FIRST_BONUS:
            self.n_tiles[seat] += 1
        self._see(index, t)
        self.undrawn -= 1
        self.tail += 1
        cause = owed[0] if owed else ""
        if cause == "kong":
            self.kong_chain += 1
        if seat == self.turn and self.phase == ACT:
            self.drawn = t
            self.drawn_by_replacement = cause

    def on_flower(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if not self.opts.is_classic:
            self.hard(index, seat, "TILE_CODE_INVALID", f"{self.ruleset} has no bonus tiles")
        self._missed_replacement(index, seat)
        if not is_bonus(t) or not self.holds(seat, t):
            self.hard(
                index,
                seat,
                "FLOWER_INVALID",
                f"{self.player(seat)} exposes {CODES[t]}, which is not a bonus tile in their hand",
            )
        if not self.initial:
            self.resume(seat, turns.OWN_TURN)
        own_turn = seat == self.turn and self.phase == ACT
        if not (self.initial or own_turn):
            self.hard(
                index,
                seat,
                "FLOWER_OUT_OF_TURN",
                f"{self.player(seat)} exposes a bonus tile outside the initial phase and their turn",
            )
        self.take(seat, t)
        self.flowers[seat].append(t)
        self.owes[seat] = ("flower", index)

    def on_discard(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if self.rob is not None:
            self._check_rob_window(index, seat, "discard")
        if self.owes:
            self._missed_replacement(index, seat)
        if self.dealer_owes_draw and seat == self.dealer:
            self.hard(
                index,
                seat,
                "DEAL_SIZE_INVALID",
                "the dealer was dealt 13 tiles and discards without the first draw (#7: 14, or "
                "13 followed by a draw)",
            )
        self.resume(seat, turns.DISCARD)
        in_turn = seat == self.turn and self.phase in (ACT, MUST_DISCARD)
        if not in_turn:
            self.viol(
                index,
                seat,
                "DISCARD_OUT_OF_TURN",
                f"{self.player(seat)} discards before drawing"
                if seat == self.turn
                else f"{self.player(seat)} discards, but it is {self.player(self.turn)}'s turn",
            )
            self.keep_turn(seat, continues=False)
        hand = self.concealed[seat]
        if not self.partial and hand[t] < 1:
            self.hard(
                index,
                seat,
                "DISCARD_NOT_IN_HAND",
                f"{self.player(seat)} discards {CODES[t]}, which they do not hold",
            )
        bonus = t >= FIRST_BONUS
        if bonus:
            self.viol(
                index,
                seat,
                "FLOWER_DISCARDED",
                f"{self.player(seat)} discards the bonus tile {CODES[t]}",
            )
        warned = self.warned_for(seat, t) if self.warnings and not bonus else ()
        if not self.partial:  # take(seat, t), inlined on this hot path
            hand[t] -= 1
            if not bonus:
                self.n_tiles[seat] -= 1
        if not self.classic:
            pass  # no bonus tiles in this tile set (#4 already rejected any)
        elif self.initial and seat == self.dealer and in_turn:
            for s in range(self.n):
                unfinished = self.owes.get(s, ("",))[0] == "flower"
                held = not self.partial and any(self.concealed[s][FIRST_BONUS:])
                if (held or unfinished) and s not in self.dead:
                    self.viol(
                        index,
                        s,
                        "FLOWER_NOT_DECLARED",
                        f"{self.player(s)} still holds a bonus tile when the dealer first discards",
                    )
        elif not self.partial and any(self.concealed[seat][FIRST_BONUS:]):
            self.viol(
                index,
                seat,
                "FLOWER_NOT_DECLARED",
                f"{self.player(seat)} discards while holding a bonus tile",
            )
        if self.n_tiles[seat] + 3 * self.n_sets[seat] != 13:
            self._check_size(index, seat, 13)
        unseen = False
        if not bonus:
            visible = self.visible
            unseen = visible[t] == 0
            visible[t] += 1
        d = Discard(seat, t, index, self.undrawn - self.reserve, warned, unseen, not bonus)
        self.discards[seat].append(d)
        self.n_discards += 1
        # In turn or not (§0: the table follows the log), this is the latest discard and
        # the seat after the discarder draws next; ``kept`` holds the entitled turn.
        self.live = d
        if self.declared_claims:
            self.declared_claims = []
        if in_turn and seat == self.dealer:
            self.initial = False
        self.turn = (seat + 1) % self.n
        self.phase = WAIT
        self.drawn = None
        self.drawn_by_replacement = ""
        self.kong_chain = 0
        self.kong_feed = None
        if seat in self.pending_warning:
            s = self.pending_warning.pop(seat)
            self.viol(
                index,
                seat,
                "NINE_TILE_WARNING_NOT_DECLARED",
                f"{self.player(seat)} did not declare the nine-tile warning for "
                f"{SUIT_NAMES['mps'[s]]} before discarding",
                kills=False,
            )

    def _claim_checks(self, index: int, ev: dict[str, Any], kind: str) -> Discard:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self.resume(seat, turns.claim_of(ev.get("from"), t))
        live = self.live
        if live is None or not live.claimable or live.tile != t or ev.get("from") != live.seat:
            self.hard(
                index,
                seat,
                "CLAIM_NO_LIVE_DISCARD",
                f"{self.player(seat)} claims {CODES[t]} from seat {ev.get('from')}, but that is "
                "not the live discard",
            )
        assert live is not None
        if live.seat == seat:
            self.hard(
                index, seat, "CLAIM_OWN_DISCARD", f"{self.player(seat)} claims their own discard"
            )
        if live.live_count < 1:
            self.hard(
                index,
                seat,
                "ACTION_AFTER_HAND_END",
                f"{self.player(seat)} claims the last discard for a {kind}; with L = 0 only a win may claim it",
            )
        if self.declared_claims:
            self._check_priority(index, seat, kind, live.seat)
        return live

    def _check_priority(self, index: int, seat: int, kind: str, discarder: int) -> None:
        """#28 CLAIM_PRIORITY_VIOLATION, when claim declarations were logged."""
        if not self.declared_claims:
            return
        rank = CLAIM_RANK[kind]

        def distance(s: int) -> int:
            return (s - discarder) % self.n

        for other, what in self.declared_claims:
            if other == seat or what not in CLAIM_RANK:
                continue
            r = CLAIM_RANK[what]
            if r > rank or (r == rank == 3 and distance(other) < distance(seat)):
                self.hard(
                    index,
                    seat,
                    "CLAIM_PRIORITY_VIOLATION",
                    f"{self.player(seat)}'s {kind} is executed although {self.player(other)} "
                    f"declared a {what}, which has priority",
                )

    def claim(self, index: int, ev: dict[str, Any], kind: MeldKind) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        if self.owes:
            self._missed_replacement(index, seat)
        live = self._claim_checks(index, ev, kind.value)
        discarder = live.seat
        valid = True
        if kind is MeldKind.CHOW:
            run = sorted(map(INDEX.__getitem__, ev["tiles"]))
            shown = list(run)
            if t in shown:
                shown.remove(t)
            else:
                valid = False
                shown = shown[:2]
            need: dict[int, int] = {}  # a Counter, without its cost on this path
            for x in shown:
                need[x] = need.get(x, 0) + 1
            hand = self.concealed[seat]
            held = True
            for x, k in need.items():
                if hand[x] < k:
                    held = False
                    break
            if not (self.partial or held):
                self.hard(
                    index,
                    seat,
                    "CLAIM_TILES_NOT_IN_HAND",
                    f"{self.player(seat)} shows {' '.join(CODES[x] for x in shown)} for the chow but "
                    "does not hold them",
                )
            valid = valid and run[0] < 27 and run[1] == run[0] + 1 and run[2] == run[0] + 2
            valid = valid and suit(run[0]) == suit(run[2])
            if not valid:
                self.viol(
                    index,
                    seat,
                    "INVALID_MELD",
                    f"{' '.join(CODES[x] for x in run)} is not a chow",
                )
            for x, k in need.items():
                self.take(seat, x, k)
            if self.n > 2 and seat != self.next_seat(discarder):
                self.viol(
                    index,
                    seat,
                    "CHOW_NOT_FROM_LEFT",
                    f"{self.player(seat)} chows the discard of {self.player(discarder)}; only "
                    f"{self.player(self.next_seat(discarder))} may chow it",
                )
            meld = Meld(MeldKind.CHOW, run[0], discarder) if valid else None
        else:
            k = 2 if kind is MeldKind.PUNG else 3
            if not self.holds(seat, t, k):
                self.hard(
                    index,
                    seat,
                    "CLAIM_TILES_NOT_IN_HAND",
                    f"{self.player(seat)} claims {CODES[t]} for a {kind.value} without holding "
                    f"{k} more",
                )
            if kind is MeldKind.KONG and self.live_count < 1:
                self.hard(
                    index,
                    seat,
                    "KONG_WITHOUT_LIVE_TILE",
                    "a kong with no live tile for the replacement",
                )
            self.take(seat, t, k)
            meld = Meld(kind, t, discarder)
        self.n_sets[seat] += 1
        visible = self.visible
        if meld is not None:
            self.melds[seat].append(meld)
            x = meld.tile  # meld.tiles, spelled out: the Enum-based property is slow
            if kind is MeldKind.CHOW:
                visible[x] += 1
                visible[x + 1] += 1
                visible[x + 2] += 1
            else:
                visible[x] += 4 if kind is MeldKind.KONG else 3
        visible[t] -= 1  # the claimed discard was counted when it was discarded
        self.take_live(live, seat)
        self.declared_claims = []
        self.drawn_by_replacement = ""
        self.kong_chain = 0
        self.kong_declared_this_turn = False
        if kind is MeldKind.KONG:
            self.owes[seat] = ("kong", index)
            self.rob = (seat, t, MeldKind.KONG, index)
            self.phase = ACT
            if seat in live.warned and suit(t) is not None:
                self.kong_feed = (seat, discarder, suit(t))  # type: ignore[assignment]
        else:
            self.phase = MUST_DISCARD
        if meld is not None:
            self._after_claim(index, seat, discarder, meld)

    def _after_claim(self, index: int, seat: int, discarder: int, meld: Meld) -> None:
        """Nine-tile warning activation (§7.2) and Pao triggers (§7.5 / mahjongo §7.2)."""
        opts = self.opts
        melds = self.melds[seat]
        t = meld.tile
        s = t // 9 if t < 27 else None  # suit(t)
        if (
            s is not None
            and opts.nine_tile_warning
            and len(melds) >= 3
            and self._exposed_of_suit(seat, s) == 3
        ):
            if opts.nine_tile_requires_declaration:
                self.pending_warning[seat] = s
            else:
                self._activate_warning(index, seat, s)
        if not opts.pao_enabled or self.n == 2:
            return
        if len(melds) < 4 and t < 27:
            return  # no fourth set yet, and a suit tile completes no dragon or wind pungs
        triggered: list[str] = []
        sets_now = sum(
            1 for m in melds if m.is_exposed or opts.pao_fourth_set_counts_concealed_kongs
        )
        if opts.pao_fourth_set and sets_now == 4:
            triggered.append("fourth set")
        if opts.pao_twelve_tiles and sum(1 for m in melds if m.is_exposed) == 4:
            triggered.append("fourth exposed meld")
        if meld.kind is not MeldKind.CHOW:
            pungs = {m.tile for m in melds if m.kind is not MeldKind.CHOW}
            if self.opts.pao_third_dragon and 31 <= t <= 33 and {31, 32, 33} <= pungs:
                triggered.append("third dragon")
            if self.opts.pao_fourth_wind and 27 <= t <= 30 and {27, 28, 29, 30} <= pungs:
                triggered.append("fourth wind")
        if not triggered:
            return
        before = self.pao.get(seat)
        self.pao[seat] = discarder
        why = " and ".join(triggered)
        if before is None:
            self.info(
                index,
                discarder,
                "PAO_ASSIGNED",
                f"{self.player(discarder)} fed {self.player(seat)}'s {why}: Pao, liable for their win",
            )
        else:
            self.info(
                index,
                discarder,
                "PAO_REPLACED",
                f"{self.player(discarder)} fed {self.player(seat)}'s {why}: Pao passes from "
                f"{self.player(before)} to {self.player(discarder)}",
            )

    def _own_kong_checks(self, index: int, seat: int) -> None:
        """#29 KONG_OUT_OF_SEQUENCE and #32 KONG_WITHOUT_LIVE_TILE."""
        if not self.kong_in_turn(index, seat):
            self.viol(
                index,
                seat,
                "KONG_OUT_OF_SEQUENCE",
                f"{self.player(seat)} declares a kong without having drawn this turn",
            )
        if self.live_count < 1:
            self.hard(
                index,
                seat,
                "KONG_WITHOUT_LIVE_TILE",
                "a kong with no live tile for the replacement",
            )

    def on_concealed_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self._own_kong_checks(index, seat)
        if t >= 34 or not self.holds(seat, t, 4):
            self.hard(
                index,
                seat,
                "KONG_TILES_NOT_IN_HAND",
                f"{self.player(seat)} declares a concealed kong of {CODES[t]} without four in hand",
            )
        self.take(seat, t, 4)
        self.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, t))
        self.n_sets[seat] += 1
        if self.opts.concealed_kong_visible:
            self.visible[t] += 4
        self.owes[seat] = ("kong", index)
        self.rob = (seat, t, MeldKind.CONCEALED_KONG, index)
        self.kong_declared_this_turn = True

    def on_added_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        self._own_kong_checks(index, seat)
        pung = next(
            (i for i, m in enumerate(self.melds[seat]) if m.kind is MeldKind.PUNG and m.tile == t),
            None,
        )
        if pung is None or not self.holds(seat, t):
            self.hard(
                index,
                seat,
                "KONG_ADDED_NO_PUNG",
                f"{self.player(seat)} adds {CODES[t]} to a kong without an exposed pung of it "
                "and the 4th copy in hand",
            )
        assert pung is not None
        self.take(seat, t)
        old = self.melds[seat][pung]
        self.melds[seat][pung] = Meld(MeldKind.ADDED_KONG, t, old.from_seat)
        self.visible[t] += 1
        self.owes[seat] = ("kong", index)
        self.rob = (seat, t, MeldKind.ADDED_KONG, index)
        self.kong_declared_this_turn = True

    def on_announce(self, index: int, ev: dict[str, Any]) -> None:
        seat, what = ev["seat"], ev["what"]
        if what == "claim":
            claim = ev.get("claim")
            kind = claim if isinstance(claim, str) else (claim or {}).get("type")
            if isinstance(kind, str):
                self.declared_claims.append((seat, kind))
            return
        if what == "nine_tile_warning":
            letter = ev.get("suit")
            s = "mps".index(letter) if letter in ("m", "p", "s") else None
            if s is None or self._exposed_of_suit(seat, s) < 3:
                self.viol(
                    index,
                    seat,
                    "NINE_TILE_WARNING_UNFOUNDED",
                    f"{self.player(seat)} declares a nine-tile warning for {letter!r} without "
                    "three exposed melds of that suit",
                    kills=False,
                )
                return
            self.pending_warning.pop(seat, None)
            if self.opts.nine_tile_warning:
                self._activate_warning(index, seat, s)
            return
        self.info(index, seat, "ANNOUNCE", f"{self.player(seat)} announces {what!r}")

    # -- wins ----------------------------------------------------------------------------

    def on_win(self, index: int, ev: dict[str, Any]) -> None:
        seat, t = ev["seat"], INDEX[ev["tile"]]
        frm = ev.get("from")
        source = self.win_source(ev)
        if self.phase == ENDED and not self.group:
            self.hard(index, seat, "ACTION_AFTER_HAND_END", "a win after the end of the hand")
        self.resume_win(seat, source, frm, t)
        if frm is not None and frm == seat:
            self.hard(
                index, seat, "CLAIM_OWN_DISCARD", f"{self.player(seat)} wins on their own discard"
            )
        self._check_available(index, seat, t, source, frm)
        if source is WinSource.DISCARD and self.live is not None:
            self._check_priority(index, seat, "win", self.live.seat)
        if seat in self.owes and source is WinSource.SELF_DRAW:
            self._missed_replacement(index, seat)
        ctx = self.win_context(seat, t, source)
        hand_size = self.size(seat) + (0 if source is WinSource.SELF_DRAW else 1)
        if not self.partial and seat not in self.size_flagged and hand_size != 14:
            self.size_flagged.add(seat)
            code = "SHORT_HAND" if hand_size < 14 else "LONG_HAND"
            self.viol(
                index, seat, code, f"{self.player(seat)} declares a win holding {hand_size} tiles"
            )
        score = None if ctx is None else evaluate(ctx, self.opts)
        reason = None
        if ctx is None:
            reason = None if self.partial else "WIN_HAND_INCOMPLETE"
        elif score is None:
            reason = "WIN_HAND_INCOMPLETE"
        if reason is None and source is WinSource.ROBBED_KONG:
            assert self.rob is not None
            kind = self.rob[2]
            thirteen = score is not None and any(p == "thirteen_orphans" for p, _ in score.patterns)
            allowed = kind is MeldKind.ADDED_KONG or (
                kind is MeldKind.CONCEALED_KONG
                and thirteen
                and self.opts.rob_concealed_kong_for_thirteen_orphans
            )
            if not allowed:
                reason = "ROB_NOT_ALLOWED"
        if reason is None and seat in self.dead:
            reason = "WIN_BY_DEAD_HAND"
        if reason is None and score is not None and not score.meets_min_fan:
            reason = "WIN_BELOW_MIN_FAN"
        discarder = None if source is WinSource.SELF_DRAW else frm
        claim = WinClaim(index, seat, t, source, discarder, score, reason, ctx)
        self.group.append(claim)
        if source is WinSource.SELF_DRAW:
            self._resolve_group()

    def _check_available(
        self, index: int, seat: int, t: int, source: WinSource, frm: int | None
    ) -> None:
        """#34 WIN_TILE_NOT_AVAILABLE."""
        ok = False
        if source is WinSource.SELF_DRAW:
            if seat == self.turn and self.phase == ACT:
                heavenly = self.initial and seat == self.dealer and self.n_discards == 0
                ok = self.drawn == t or (heavenly and self.holds(seat, t))
        elif source is WinSource.DISCARD:
            live = self.live
            ok = live is not None and live.claimable and live.tile == t and live.seat == frm
            ok = ok or bool(
                self.group and self.group[0].tile == t and self.group[0].discarder == frm
            )
        else:
            ok = self.rob is not None and self.rob[1] == t and self.rob[0] == frm
        if not ok:
            what = {
                "self_draw": "their latest draw",
                "discard": "the live discard",
                "robbed_kong": "the tile of the kong just declared",
            }[source.value]
            self.hard(
                index,
                seat,
                "WIN_TILE_NOT_AVAILABLE",
                f"{self.player(seat)} declares a win on {CODES[t]}, which is not {what}",
            )

    def win_context(self, seat: int, t: int, source: WinSource) -> WinContext | None:
        if self.partial:
            return None
        hand = self.concealed[seat][:34]  # a copy
        if source is WinSource.SELF_DRAW:
            hand[t] -= 1
        concealed = tuple(chain.from_iterable(map(repeat, _KINDS, hand)))  # x, k times, in C
        if len(concealed) + 3 * len(self.melds[seat]) != 13 or self.n_sets[seat] != len(
            self.melds[seat]
        ):
            return None
        seat_wind = (seat - self.dealer) % self.n
        if self.n == 2:
            pair = self.opts.two_player_seats
            seat_wind = WIND_CODES.index(pair[0] if seat == self.dealer else pair[1])
        last = False
        if source is WinSource.SELF_DRAW:
            last = self.live_count == 0 and self.drawn is not None
        elif source is WinSource.DISCARD and self.live is not None:
            last = self.live.live_count == 0
        replacement_chain = (
            self.kong_chain
            if source is WinSource.SELF_DRAW and self.drawn_by_replacement == "kong"
            else 0
        )
        heavenly = (
            source is WinSource.SELF_DRAW
            and seat == self.dealer
            and self.initial
            and self.n_discards == 0
            and not self.kong_declared_this_turn
        )
        earthly = (
            source is WinSource.DISCARD
            and seat != self.dealer
            and self.n_discards == 1
            and self.live is not None
            and self.live.seat == self.dealer
        )
        return WinContext(
            concealed=concealed,
            win_tile=t,
            source=source,
            melds=tuple(self.melds[seat]),
            seat_wind=seat_wind,
            prevailing_wind=self.prevailing,
            flowers=tuple(self.flowers[seat]),
            kong_replacement_chain=replacement_chain,
            last_tile=last,
            heavenly=heavenly,
            earthly=earthly,
        )

    # -- the actions a seat may make ---------------------------------------------------

    def valid_win(self, seat: int, t: int, source: WinSource) -> HandScore | None:
        """The score of a win ``seat`` may declare on ``t`` now without a FALSE_WIN (a
        complete hand at the minimum, not a dead hand; a robbing win as §3.8 allows it),
        else None. Does not change state."""
        if seat in self.dead:
            return None
        c = self.concealed[seat][:34]
        if source is not WinSource.SELF_DRAW:
            c[t] += 1
        if not is_complete(c, len(self.melds[seat])):  # the cheap test first
            return None
        ctx = self.win_context(seat, t, source)
        score = None if ctx is None else evaluate(ctx, self.opts)
        if score is None or not score.meets_min_fan:
            return None
        if source is WinSource.ROBBED_KONG:
            assert self.rob is not None
            thirteen = any(p == "thirteen_orphans" for p, _ in score.patterns)
            if not (
                self.rob[2] is MeldKind.ADDED_KONG
                or (
                    self.rob[2] is MeldKind.CONCEALED_KONG
                    and thirteen
                    and self.opts.rob_concealed_kong_for_thirteen_orphans
                )
            ):
                return None
        return score

    def win_event(self, seat: int, t: int, frm: int | None, robbed: bool = False) -> dict[str, Any]:
        ev: dict[str, Any] = {"type": "win", "seat": seat, "tile": CODES[t]}
        if frm is not None:
            ev["from"] = frm
        if robbed:
            ev["robbed_kong"] = True
        return ev

    def self_actions(self, seat: int, win: bool = True) -> list[dict[str, Any]]:
        """hk-classic's bonus tiles (on the turn, or by anyone once the dealer has drawn
        in the initial phase, §2.5), then the own kongs and (``win``) a self-drawn win
        (listed without the ``claim``: the value the winner claims is theirs)."""
        out: list[dict[str, Any]] = []
        c = self.concealed[seat]
        acting = seat == self.turn and self.phase == ACT
        if self.classic and (acting or (self.initial and self.phase == ACT)):
            out += [
                {"type": "flower", "seat": seat, "tile": CODES[t]}
                for t in range(FIRST_BONUS, len(c))
                if c[t]
            ]
        if not acting:
            return out
        out += self.own_kongs(seat)
        t = self.drawn
        if not win or t is None or not c[t]:
            return out
        if self.valid_win(seat, t, WinSource.SELF_DRAW) is not None:
            out.append(self.win_event(seat, t, None))
        return out

    def win_actions(self, seat: int) -> list[dict[str, Any]]:
        """A win on another seat's live discard (even the last one), or on the tile of
        the kong another seat has just declared (§3.8)."""
        live, rob = self.live, self.rob
        if live is not None and live.claimable and live.seat != seat:
            frm, t, source = live.seat, live.tile, WinSource.DISCARD
        elif rob is not None and rob[0] != seat and rob[0] in self.owes:
            frm, t, source = rob[0], rob[1], WinSource.ROBBED_KONG
        else:
            return []
        if self.valid_win(seat, t, source) is None:
            return []
        return [self.win_event(seat, t, frm, robbed=source is WinSource.ROBBED_KONG)]

    # -- settlement ----------------------------------------------------------------------

    def liable_for(self, c: WinClaim) -> int | None:
        """Who pays the whole win: Pao first, then the nine-tile and last-five rules."""
        pao = self.pao.get(c.seat)
        other_discard = c.discarder is not None and c.discarder != pao
        if other_discard and self.opts.pao_on_other_discard == "discarder_pays":
            pao = None  # the discarder pays as usual; the Pao player owes nothing (§7.2)
        if pao is not None and self.opts.pao_enabled and self.n > 2:
            self.info(c.index, pao, "PAO_LIABILITY", f"{self.player(pao)} is liable under Pao")
            return pao
        score = c.score
        if score is None:
            return None
        ids = {p for p, _ in score.patterns}
        flush = "full_flush" in ids or (
            self.opts.nine_tile_pays_on_half_flush and "half_flush" in ids
        )
        if self.opts.nine_tile_warning and flush:
            win_suit = suit(c.tile)
            if (
                c.source is WinSource.DISCARD
                and self.live is not None
                and (
                    c.seat in self.live.warned
                    and win_suit is not None
                    and self._only_suit(c, win_suit)
                )
            ):
                self.info(
                    c.index,
                    self.live.seat,
                    "NINE_TILE_LIABILITY",
                    f"{self.player(self.live.seat)} fed the nine-tile warner: pays the whole win",
                )
                return self.live.seat
            if c.source is WinSource.SELF_DRAW and self.kong_feed is not None:
                warner, feeder, s = self.kong_feed
                if (
                    warner == c.seat
                    and self.drawn_by_replacement == "kong"
                    and self._only_suit(c, s)
                ):
                    self.info(
                        c.index,
                        feeder,
                        "NINE_TILE_LIABILITY",
                        f"{self.player(feeder)} fed the kong of the nine-tile warner: pays the whole win",
                    )
                    return feeder
        if (
            self.opts.last_five_tiles_penalty
            and c.source is WinSource.DISCARD
            and self.live is not None
            and self.live.unseen
            and self.live.live_count <= self.opts.last_five_threshold
        ):
            self.info(
                c.index,
                self.live.seat,
                "LAST_FIVE_LIABILITY",
                f"{self.player(self.live.seat)} discarded an unseen tile among the last tiles: pays the whole win",
            )
            return self.live.seat
        return None

    def _only_suit(self, c: WinClaim, s: int) -> bool:
        """The winning hand's suit tiles are all of suit ``s`` (the flush named by §7.2)."""
        assert c.context is not None
        tiles = list(c.context.concealed) + [c.tile] + [x for m in c.context.melds for x in m.tiles]
        return all(suit(x) in (None, s) for x in tiles) and any(suit(x) == s for x in tiles)

    def settlement(self) -> tuple[list[float] | None, int | None]:
        """Per-seat deltas (None when the hand cannot be settled) and the liable player.

        Computed once: the liability events it reports are added to the findings only the
        first time.
        """
        if self._settled is None:
            self._settled = self._settle()
        deltas, liable = self._settled
        return (None if deltas is None else list(deltas)), liable

    def _settle(self) -> tuple[list[float] | None, int | None]:
        deltas = [0.0] * self.n
        liable = None
        if self.stopped:
            return None, None
        for c in self.false_wins:
            for s, d in enumerate(false_win_deltas(c.seat, self.opts)):
                deltas[s] += d
        if any(c.score is None for c in self.settled):
            return None, None  # partial information: the win cannot be scored
        for c in self.settled:
            assert c.score is not None
            liable = self.liable_for(c)
            for s, d in enumerate(
                settle(
                    c.score.fan,
                    c.seat,
                    c.source,
                    self.opts,
                    discarder=c.discarder,
                    dealer=self.dealer,
                    liable=liable,
                )
            ):
                deltas[s] += d
        return deltas, liable


HANDLERS = HKHand.HANDLERS = handlers(HKHand)
