"""The table state every mahjong hand shares (Hong Kong, vn-160; a future MCR or riichi).

:class:`MahjongHand` holds what the rulesets' hands have in common and do the same way: the
table (concealed counts, declared sets, discards, the wall's ends, tiles seen), the claim
group of wins on one tile and its head-bump resolution, a win's source, the hand-size
check, the dead hand (hk) or mất ù (vn-160) a violation leaves, and the end of the hand
(exhaustive draw, abandon, a log that stops while the hand is live). A ruleset subclasses
it with its own tiles, checklist codes and sentences, calls and scoring; the hot paths
(a ruleset's inline draw/discard loop) stay in the ruleset, on the same attributes.

A subclass sets, as class attributes, the codes this module records under the ruleset's
name for them (``AFTER_END``, ``UNKNOWN_ACTION``) and their sentences (``UNKNOWN_TEXT``,
``EARLY_DRAW_TEXT``), its tiles (``TILE_INDEX``, ``CODES``) and its event handlers
(``HANDLERS = handlers(cls)``, from its ``on_<type>`` methods and these), and defines
:meth:`wind`, :meth:`lose_right`, :meth:`false_win` and :meth:`claim`.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from mjaudit.parts.replay.engine.findings import Finding, HandFindings
from mjaudit.parts.replay.engine.turns import (
    ACT,
    ENDED,
    MUST_DISCARD,
    OWN_TURN,
    WAIT,
    MahjongTurns,
    claim_of,
)
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind, WinSource

S = TypeVar("S")  # a ruleset's hand score
# The event types of :meth:`MahjongHand.legal_actions`, by where they come from.
SELF_KINDS = frozenset(("flower", "concealed_kong", "added_kong", "win"))
CLAIM_KINDS = frozenset(("win", "pung", "kong", "chow"))
ALL_KINDS = SELF_KINDS | CLAIM_KINDS | {"draw", "replacement", "discard", "exhaustive_draw"}
END: dict[str, Any] = {"type": "exhaustive_draw"}  # due with no live tile left (read only)


@dataclass
class WinClaim(Generic[S]):
    """One ``win`` event, evaluated; claims on the same discard form a claim group."""

    index: int
    seat: int
    tile: int
    source: WinSource
    discarder: int | None
    score: S | None
    reason: str | None  # None = valid


@dataclass
class MahjongHand(MahjongTurns, HandFindings):
    """One hand's table, shared part (module docstring). Mutable and private to one replay."""

    AFTER_END: ClassVar[str]  # the code of an event after the hand ended
    UNKNOWN_ACTION: ClassVar[str]  # the code of an event type the ruleset does not have
    UNKNOWN_TEXT: ClassVar[str]  # its sentence, with {kind} and {ruleset}
    EARLY_DRAW_TEXT: ClassVar[tuple[str, str]]  # exhaustive draw with {live} tiles / none due
    TILE_INDEX: ClassVar[Mapping[str, int]]
    CODES: ClassVar[tuple[str, ...]]  # tile int -> code
    HANDLERS: ClassVar[dict[str, Callable[[Any, int, dict[str, Any]], None]]]

    record: dict[str, Any]
    opts: Any  # the ruleset's options (a subclass names their type)
    findings: list[Finding] = field(default_factory=list)

    # Set (to the sentence's tail) when every violation is also CORRUPT_LOG (a hk option).
    hard_violation_note: str | None = field(default=None, init=False, repr=False)

    def init_table(self, n: int, n_kinds: int) -> None:
        """The state every hand starts from (a subclass adds its own and sets ``melds`` and
        ``discards`` (one list a seat, of its own types), ``limits``, ``undrawn``,
        ``reserve``, ``phase``, ``owes`` and ``rob``)."""
        self.n: int = n
        self.dealer: int = self.record["dealer"]
        self.stopped = False
        self.ended_by = "unfinished"
        self.concealed = [[0] * n_kinds for _ in range(n)]
        self.n_tiles = [0] * n  # concealed tiles that count for the hand size
        self.n_sets = [0] * n  # declared sets, valid or not (size counts them)
        self.dead: dict[int, str] = {}  # seats that lost the right to win, with the code
        self.size_flagged: set[int] = set()
        self.seen = [0] * n_kinds
        self.turn = self.dealer
        self.initial = True  # before the dealer's first discard
        self.live: Any = None  # the latest discard while it can be claimed
        self.drawn: int | None = None  # the turn player's most recent draw this turn
        self.n_discards = 0
        self.group: list[Any] = []  # wins on one tile, not yet resolved
        self.settled: list[Any] = []
        self.false_wins: list[Any] = []
        self.partial = False
        self.dealer_owes_draw = False  # dealt 13: the dealer's first action must be a draw
        self.head = 0
        self.tail = 0

    # -- findings ------------------------------------------------------------------------

    @property
    def live_count(self) -> int:
        """Tiles that may still be drawn (beyond the reserved tail)."""
        return self.undrawn - self.reserve  # type: ignore[attr-defined, no-any-return]

    def wind(self, seat: int) -> str:
        raise NotImplementedError

    def player(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return f"{self.record['players'][seat]} ({self.wind(seat)}, seat {seat})"

    def viol(  # type: ignore[override]
        self,
        index: int,
        seat: int,
        code: str,
        message: str,
        *,
        kills: bool = True,
        reason: str | None = None,
    ) -> None:
        """A PLAYER_VIOLATION; with ``kills`` the player loses the right to win (a dead
        hand, mất ù). With ``hard_violation_note`` it is also CORRUPT_LOG (hk's option)."""
        if self.hard_violation_note is not None:
            self.hard(index, seat, code, message + self.hard_violation_note)
        super().viol(index, seat, code, message, reason=reason)
        if kills:
            self.lose_right(index, seat, code)

    def lose_right(self, index: int, seat: int, code: str) -> None:
        """``seat`` loses the right to win for ``code`` (once; the ruleset's INFO finding)."""
        raise NotImplementedError

    def false_win(self, claim: Any) -> None:
        """The findings of an invalid claim in a resolved group (FALSE_WIN and its penalty)."""
        raise NotImplementedError

    def claim(self, index: int, ev: dict[str, Any], kind: MeldKind) -> None:
        """A chow, pung or kong of the live discard."""
        raise NotImplementedError

    # -- tiles -------------------------------------------------------------------------------

    def _see(self, index: int | None, t: int) -> None:
        """TILE_OVERCOUNT: more copies of a tile seen than the set has."""
        self.seen[t] += 1
        if self.seen[t] > self.limits[t]:
            self.hard(
                index,
                None,
                "TILE_OVERCOUNT",
                f"{self.CODES[t]} is seen {self.seen[t]} times; the set has {self.limits[t]}",
            )

    def no_hands(self, message: str, dealt: int) -> None:
        """Neither start hands nor a wall: only public actions can be checked."""
        self.partial = True
        self.info(None, None, "PARTIAL_INFORMATION", message)
        self.undrawn -= dealt  # type: ignore[has-type]

    def holds(self, seat: int, t: int, k: int = 1) -> bool:
        return self.partial or self.concealed[seat][t] >= k

    def size(self, seat: int) -> int:
        """Concealed tiles that count + 3 per declared set."""
        return self.n_tiles[seat] + 3 * self.n_sets[seat]

    def _check_size(self, index: int, seat: int, expected: int, why: str = "") -> None:
        """SHORT_HAND / LONG_HAND, once per player per hand."""
        if self.partial or seat in self.size_flagged:
            return
        size = self.size(seat)
        if size == expected:
            return
        self.size_flagged.add(seat)
        code = "SHORT_HAND" if size < expected else "LONG_HAND"
        self.viol(
            index, seat, code, f"{self.player(seat)} holds {size} tiles, expected {expected}{why}"
        )

    # -- the actions a seat may make -------------------------------------------------------

    PLAYING_KINDS: ClassVar[int] = 34  # the kinds that make sets (suits 0-26, honours); bonus above
    SUITED: ClassVar[int] = 27  # the kinds below it make chows

    def legal_actions(self, seat: int, kinds: Container[str] | None = None) -> list[dict[str, Any]]:
        """The events ``seat`` may legally make now (only those of the types ``kinds``
        when given: a driver whose bot has chosen what to do asks for just that): a
        simulator's driver asks, its bot picks one, and the same engine steps it.

        A replacement owed comes first and alone (``replacement`` without ``tile``: the
        driver adds the wall's back tile), or with no live tile left the ``exhaustive_draw``.
        On its turn: a ``draw`` (without ``tile``: the driver adds the wall's next) while a
        live tile is left, else the ``exhaustive_draw``; holding the turn, the ruleset's
        :meth:`self_actions` (flowers, own kongs, a self-drawn win without the value the
        winner claims) and a discard of each kind held, lowest first. On another seat's
        live discard, the ruleset's claims (:meth:`claim_actions`); and the ruleset's other
        wins (:meth:`win_actions`: on the live discard, robbing a kong). Whether a dead hand may
        still call is the ruleset's; the table lists what it holds."""
        if self.phase == ENDED:
            return []
        if seat in self.owes:  # type: ignore[attr-defined]
            due = {"type": "replacement", "seat": seat} if self.live_count >= 1 else dict(END)
            return [due] if kinds is None or due["type"] in kinds else []
        wanted = ALL_KINDS if kinds is None else kinds
        out = []
        if not SELF_KINDS.isdisjoint(wanted):
            out = self.self_actions(seat, "win" in wanted)
        if seat == self.turn and self.phase == WAIT:
            out.append({"type": "draw", "seat": seat} if self.live_count >= 1 else dict(END))
        if seat == self.turn and self.phase in (ACT, MUST_DISCARD):
            if "discard" in wanted:
                c = self.concealed[seat]
                out += [
                    {"type": "discard", "seat": seat, "tile": self.CODES[t]}
                    for t in range(self.PLAYING_KINDS)
                    if c[t]
                ]
        elif (
            self.live is not None and self.live.seat != seat and not CLAIM_KINDS.isdisjoint(wanted)
        ):
            out += self.claim_actions(seat)
        if "win" in wanted:
            out += self.win_actions(seat)
        return out if kinds is None else [a for a in out if a["type"] in kinds]

    def self_actions(self, seat: int, win: bool = True) -> list[dict[str, Any]]:
        """What ``seat`` may declare holding the turn, before its discard: here its own
        kongs (a ruleset adds its flowers and, with ``win``, the self-drawn win)."""
        if seat == self.turn and self.phase == ACT:
            return self.own_kongs(seat)
        return []

    def win_actions(self, seat: int) -> list[dict[str, Any]]:
        """The wins the ruleset lists apart from its claims and self actions (on the live
        discard, robbing a kong); none here."""
        return []

    def own_kongs(self, seat: int) -> list[dict[str, Any]]:
        """The kongs ``seat`` may declare holding the turn: four of a kind held, lowest
        first, then the fourth of each pung, in the order the pungs were made; none when
        no live tile is left for the replacement."""
        if self.live_count < 1:
            return []
        c, code = self.concealed[seat], self.CODES
        out = [
            {"type": "concealed_kong", "seat": seat, "tile": code[t]}
            for t in range(self.PLAYING_KINDS)
            if c[t] == 4
        ]
        out += [
            {"type": "added_kong", "seat": seat, "tile": code[m.tile]}
            for m in self.melds[seat]  # type: ignore[attr-defined]
            if m.kind is MeldKind.PUNG and c[m.tile]
        ]
        return out

    def claim_actions(self, seat: int) -> list[dict[str, Any]]:
        """The sets ``seat`` may make of the live discard (another seat's): an exposed kong
        (three held), a pung (two held) and, for the seat after the discarder, each chow
        of the suited tile (the pairs held, lowest run first); none when no live tile is
        left (the last discard may only be won). A ruleset with other calls overrides it."""
        live = self.live
        t, frm = live.tile, live.seat
        if not live.claimable or t >= self.PLAYING_KINDS or self.live_count < 1:
            return []
        c, code = self.concealed[seat], self.CODES
        out = []
        if c[t] >= 3:
            out.append({"type": "kong", "seat": seat, "from": frm, "tile": code[t]})
        if c[t] >= 2:
            out.append({"type": "pung", "seat": seat, "from": frm, "tile": code[t]})
        if seat == (frm + 1) % self.n and t < self.SUITED:
            r = t % 9
            for low in range(t - r + max(r - 2, 0), t - r + min(r, 6) + 1):
                run = (low, low + 1, low + 2)
                if all(c[x] for x in run if x != t):
                    out.append(self.chow_event(seat, frm, t, run))
        return out

    def chow_event(self, seat: int, frm: int, t: int, run: tuple[int, ...]) -> dict[str, Any]:
        """The event of ``seat``'s chow of ``frm``'s ``t`` as ``run`` (in order)."""
        code = self.CODES
        return {
            "type": "chow",
            "seat": seat,
            "from": frm,
            "tile": code[t],
            "tiles": [code[x] for x in run],
        }

    # -- events ------------------------------------------------------------------------------

    def step(self, index: int, ev: dict[str, Any]) -> None:
        kind = ev["type"]
        if self.group and not (kind == "win" and self._same_group(ev)):
            self._resolve_group()
        if self.phase == ENDED and not (kind == "win" and self.group):
            self.hard(
                index,
                ev.get("seat"),
                self.AFTER_END,
                f"a {kind} event follows the end of the hand ({self.ended_by})",
            )
        handler = self.HANDLERS.get(kind)
        if handler is None:
            text = self.UNKNOWN_TEXT.format(kind=kind, ruleset=self.record["ruleset"])
            self.hard(index, ev.get("seat"), self.UNKNOWN_ACTION, text)
        handler(self, index, ev)

    def take_live(self, live: Any, seat: int) -> None:
        """A claim takes the live discard (if it was one) and the turn."""
        if live is not None:
            live.claimable = False
            live.claimed = True
        self.live = None
        self.turn = seat
        self.drawn = None

    def kong_in_turn(self, index: int, seat: int) -> bool:
        """Before an own kong: an owed replacement is missed, the kept turn (§0) may be
        taken; whether the konger holds the turn with 14 tiles."""
        self._missed_replacement(index, seat)  # type: ignore[attr-defined]
        self.resume(seat, OWN_TURN)
        return seat == self.turn and self.phase == ACT

    def on_chow(self, index: int, ev: dict[str, Any]) -> None:
        self.claim(index, ev, MeldKind.CHOW)

    def on_pung(self, index: int, ev: dict[str, Any]) -> None:
        self.claim(index, ev, MeldKind.PUNG)

    def on_kong(self, index: int, ev: dict[str, Any]) -> None:
        self.claim(index, ev, MeldKind.KONG)

    # -- wins --------------------------------------------------------------------------------

    @staticmethod
    def win_source(ev: dict[str, Any]) -> WinSource:
        if ev.get("robbed_kong"):
            return WinSource.ROBBED_KONG
        if ev.get("from") is None:
            return WinSource.SELF_DRAW
        return WinSource.DISCARD

    def resume_win(self, seat: int, source: WinSource, frm: int | None, t: int) -> None:
        """The kept turn (§0) a win may take: the live discard's claim, or the own turn."""
        if source is WinSource.DISCARD:
            self.resume(seat, claim_of(frm, t))
        elif source is WinSource.SELF_DRAW:
            self.resume(seat, OWN_TURN)

    def _same_group(self, ev: dict[str, Any]) -> bool:
        """A win on the tile of the pending claim group, from the same discarder."""
        first = self.group[0]
        if first.source is WinSource.SELF_DRAW:
            return False
        return self.TILE_INDEX.get(ev["tile"]) == first.tile and ev.get("from") == first.discarder

    def _resolve_group(self) -> None:
        """Settle the head-bump winner of a claim group; the rest are overridden or false."""
        group, self.group = self.group, []
        valid = [c for c in group if c.reason is None]
        invalid = [c for c in group if c.reason is not None]
        for c in invalid:
            self.false_win(c)
            self.false_wins.append(c)
        if valid:
            anchor = group[0].discarder
            if self.opts.multiple_winners or anchor is None:
                winners = valid
            else:
                winners = [min(valid, key=lambda c: (c.seat - anchor) % self.n)]
            for c in valid:
                if c not in winners:
                    self.info(
                        c.index,
                        c.seat,
                        "WIN_CLAIM_OVERRIDDEN",
                        f"{self.player(c.seat)}'s valid win is overridden by head-bump",
                    )
            self.settled.extend(winners)
            self.phase = ENDED
            self.ended_by = "win"
        elif self.opts.false_win_effect == "end_hand":
            self.phase = ENDED
            self.ended_by = "false_win"
        else:
            for c in invalid:
                self.lose_right(c.index, c.seat, "FALSE_WIN")

    # -- end of hand -------------------------------------------------------------------------

    def win_fields(self) -> dict[str, Any]:
        """The report's winners (every settled win, by seat), and whether the head winner
        drew the tile and who discarded it."""
        top = self.settled[0] if self.settled else None
        return {
            "winners": tuple(sorted(c.seat for c in self.settled)),
            "self_drawn": top is not None and top.discarder is None,
            "discarder": top.discarder if top is not None else None,
        }

    def on_exhaustive_draw(self, index: int, ev: dict[str, Any]) -> None:
        """HAND_END_INVALID unless no live tile is left and a draw or replacement is due."""
        due = self.phase == WAIT or bool(self.owes)  # type: ignore[attr-defined]
        if self.live_count > 0 or not due:
            with_tiles, none_due = self.EARLY_DRAW_TEXT
            self.hard(
                index,
                None,
                "HAND_END_INVALID",
                with_tiles.format(live=self.live_count) if self.live_count > 0 else none_due,
            )
        self.phase = ENDED
        self.ended_by = "exhaustive_draw"

    def on_abandon(self, index: int, ev: dict[str, Any]) -> None:
        self.info(
            index,
            None,
            "HAND_ABANDONED",
            f"the hand was stopped ({ev.get('reason') or 'no reason given'}); it is not settled",
        )
        self.phase = ENDED
        self.ended_by = "abandon"

    def finish(self, last_index: int) -> None:
        if self.group:
            self._resolve_group()
        if self.phase != ENDED and not self.stopped:
            self.hard(
                last_index,
                None,
                "HAND_END_INVALID",
                "the log ends while the hand is still live (no win, exhaustive draw or abandon)",
            )


def handlers(cls: type[MahjongHand]) -> dict[str, Callable[[Any, int, dict[str, Any]], None]]:
    """The ``on_<type>`` methods of a hand class and its bases, by event type."""
    out: dict[str, Callable[[Any, int, dict[str, Any]], None]] = {}
    for klass in reversed(cls.__mro__):
        out.update({n[3:]: fn for n, fn in vars(klass).items() if n.startswith("on_")})
    return out
