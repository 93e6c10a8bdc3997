"""The riichi hand state: one ``mjlog/1`` riichi record, one event at a time.

Built on the shared mahjong table (:class:`~replay.rulesets.mahjong.hand.MahjongHand`: the
concealed counts, tiles seen and TILE_OVERCOUNT, the claim group of wins on one discard
with double ron, the end of the hand). What is riichi's own: the tiles keep their red
fives, riichi (the declaration, tenpai, the stick, no change of wait, no calls after),
furiten (own discards, temporary, riichi), ippatsu and the first go-around, the dora
indicators, kans and their replacement draws, robbing a kan, abortive draws, Pao, and
the situation a win's value depends on (scored by the ``mahjong`` package in
:mod:`.scoring`). A log from a server cannot show an impossible order, so an action out
of turn or of a tile the player does not hold is CORRUPT_LOG here; a rule broken by a
legal-looking action (riichi when not tenpai, a ron in furiten...) is PLAYER_VIOLATION.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from mjaudit.parts.replay.engine.turns import ACT, ENDED, MUST_DISCARD, WAIT
from mjaudit.parts.replay.rulesets.mahjong.hand import MahjongHand, WinClaim, handlers
from mjaudit.parts.replay.rulesets.mahjong.melds import WinSource
from mjaudit.parts.replay.rulesets.riichi.options import RiichiOptions
from mjaudit.parts.replay.rulesets.riichi.scoring import CalledSet, RiichiScore, Situation, value
from mjaudit.parts.replay.rulesets.riichi.tiles import (
    DRAGON_KINDS,
    KINDS,
    N_KINDS,
    RED,
    TERMINALS_HONOURS,
    TILE_INDEX,
    WIND_KINDS,
)
from mjaudit.parts.replay.rulesets.riichi.waits import waits

_CALLS = frozenset({"chow", "pung", "kong"})
LIVE_TILES = 70  # 136 - 52 dealt - 14 in the dead wall
WINDS = "ESWN"


@dataclass
class Live:
    """The latest discard (or the tile of an added kan) while a win may claim it."""

    seat: int
    tile: int
    code: str
    index: int
    riichi: bool = False  # the discard that declares riichi
    kakan: bool = False  # the tile added to a pung (may be robbed)
    claimable: bool = True
    claimed: bool = False


@dataclass
class RiichiHand(MahjongHand):
    """One riichi hand's table (module docstring)."""

    AFTER_END = "EVENT_AFTER_END"
    UNKNOWN_ACTION = "ACTION_UNKNOWN"
    UNKNOWN_TEXT: ClassVar[str] = "a {kind} event is not an action of {ruleset}"
    EARLY_DRAW_TEXT: ClassVar[tuple[str, str]] = (
        "an exhaustive draw with {live} tiles still to draw",
        "an exhaustive draw while no draw is due",
    )
    TILE_INDEX: ClassVar[Any] = TILE_INDEX
    CODES: ClassVar[tuple[str, ...]] = KINDS
    HANDLERS: ClassVar[dict[str, Any]]

    opts: RiichiOptions

    def __post_init__(self) -> None:
        self.init_table(4, N_KINDS)
        rec = self.record
        self.limits = [4] * N_KINDS
        self.undrawn = LIVE_TILES
        self.reserve = 0
        self.phase = WAIT
        self.owes = False  # a replacement draw is owed after a kan
        self.rob = None
        self.hand_codes: list[Counter[str]] = [Counter() for _ in range(4)]
        self.calls: list[list[CalledSet]] = [[] for _ in range(4)]
        self.call_from: list[list[int | None]] = [[] for _ in range(4)]
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.discarded: list[set[int]] = [set() for _ in range(4)]
        self.called_away = [False] * 4  # one of the seat's discards was claimed
        self.riichi_waits: list[frozenset[int] | None] = [None] * 4
        self.double_riichi = [False] * 4
        self.pending_riichi: int | None = None
        self.sticks_put = [0] * 4
        self.ippatsu = [False] * 4
        self.temp_furiten = [False] * 4
        self.riichi_furiten = [False] * 4
        self.any_call = False
        self.n_kans: list[int] = [0] * 4
        self.rinshan = False
        self.pao: dict[int, int] = {}  # seat -> the player liable for its yakuman
        self.red_seen: Counter[str] = Counter()
        self.dora: list[str] = []
        self.ura: dict[int, list[str]] = {}
        self.first_discards: list[int] = []  # kinds, while nobody has called
        self.abortive: str | None = None
        self.scores = list(rec.get("scores") or [25000] * 4)
        self.honba = int(rec.get("honba") or 0)
        self.sticks = int(rec.get("riichi_sticks") or 0)

    # -- the shared table's hooks ------------------------------------------------------------

    def wind(self, seat: int) -> str:
        return WINDS[(seat - self.dealer) % 4]

    def lose_right(self, index: int, seat: int, code: str) -> None:
        """A riichi violation does not kill the hand: the log goes on as the table played."""

    def false_win(self, claim: Any) -> None:
        """FURITEN_RON, or FALSE_WIN with its reason (no yaku, no winning shape)."""
        if claim.reason == "FURITEN_RON":
            self.viol(claim.index, claim.seat, "FURITEN_RON", claim.message, kills=False)
        else:
            self.viol(
                claim.index,
                claim.seat,
                "FALSE_WIN",
                claim.message,
                kills=False,
                reason=claim.reason,
            )

    # -- tiles -------------------------------------------------------------------------------

    def see(self, index: int | None, code: str) -> None:
        self._see(index, TILE_INDEX[code])
        if code in RED:
            self.red_seen[code] += 1
            if self.red_seen[code] > (1 if self.opts.red_fives else 0):
                self.hard(
                    index,
                    None,
                    "TILE_OVERCOUNT",
                    f"red five {code} is seen {self.red_seen[code]} times; the set has "
                    f"{1 if self.opts.red_fives else 0}",
                )

    def give(self, seat: int, code: str) -> None:
        self.hand_codes[seat][code] += 1
        self.concealed[seat][TILE_INDEX[code]] += 1

    def take(self, index: int, seat: int, code: str) -> None:
        if self.hand_codes[seat][code] <= 0:
            self.hard(index, seat, "TILE_NOT_IN_HAND", f"{self.player(seat)} does not hold {code}")
        self.hand_codes[seat][code] -= 1
        self.concealed[seat][TILE_INDEX[code]] -= 1

    def waits_of(self, seat: int) -> frozenset[int]:
        return waits(tuple(self.concealed[seat]))

    def is_closed(self, seat: int) -> bool:
        return all(c.kind == "concealed_kong" for c in self.calls[seat])

    # -- the deal ------------------------------------------------------------------------------

    def deal_admits(self, index: int, ev: dict[str, Any]) -> bool:
        """Would the deal raise what it raised with ``ev`` recorded at ``index`` as well?
        Always: it reads none of the events (the header only: the hands, the dora indicators), so
        the live service need not deal again (service/stepper.py)."""
        return True

    def start(self) -> None:
        rec = self.record
        hands = rec.get("start_hands")
        if not hands or len(hands) != 4 or any(len(h) != 13 for h in hands):
            self.hard(
                None,
                None,
                "DEAL_INVALID",
                "a riichi record needs start_hands: 13 tiles for each of the 4 players",
            )
        for seat, hand in enumerate(hands):
            for code in hand:
                self.see(None, code)
                self.give(seat, code)
        for code in rec.get("dora") or ():
            self.see(None, code)
            self.dora.append(code)
        if not self.dora:
            self.hard(None, None, "DEAL_INVALID", "a riichi record needs its dora indicator")
        self.turn = self.dealer

    # -- events --------------------------------------------------------------------------------

    def step(self, index: int, ev: dict[str, Any]) -> None:
        live = self.live
        if live is not None and live.claimable and not self.group and not _takes(ev, live):
            self.pass_live(live, called=ev["type"] in _CALLS and ev.get("from") == live.seat)
        super().step(index, ev)

    def pass_live(self, live: Live, called: bool) -> None:
        """Nobody won on ``live``: the riichi stick is put down, who could have won on it
        is furiten (until their next discard; for good after riichi). A call of it still
        takes it (``called``)."""
        if not called:
            live.claimable = False
            self.live = None
        if live.riichi:
            live.riichi = False
            self.put_stick(live.seat)
        for seat in range(4):
            if seat != live.seat and live.tile in self.waits_of(seat):
                self.temp_furiten[seat] = True
                if self.riichi_waits[seat] is not None:
                    self.riichi_furiten[seat] = True

    def put_stick(self, seat: int) -> None:
        self.sticks_put[seat] += 1
        self.scores[seat] -= 1000
        self.ippatsu[seat] = True

    def in_turn(self, index: int, seat: int, phases: tuple[str, ...], what: str) -> None:
        if seat != self.turn or self.phase not in phases:
            self.hard(
                index,
                seat,
                "OUT_OF_TURN",
                f"{self.player(seat)} {what} out of turn (it is seat {self.turn}'s turn)",
            )

    def on_draw(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        self.in_turn(index, seat, (WAIT,), "draws")
        if self.owes:
            self.hard(
                index, seat, "REPLACEMENT_MISSING", "a draw where the kan's replacement is due"
            )
        if self.live_count <= 0:
            self.hard(index, seat, "DRAW_FROM_EMPTY_WALL", "a draw from an exhausted wall")
        self.undrawn -= 1
        self._drawn(index, seat, code, rinshan=False)

    def on_replacement(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        self.in_turn(index, seat, (WAIT,), "draws a replacement")
        if not self.owes:
            self.hard(index, seat, "REPLACEMENT_INVALID", "a replacement draw with no kan before")
        self.owes = False
        self.ippatsu = [False] * 4
        self.undrawn -= 1  # the dead wall is made up from the live wall's end
        self._drawn(index, seat, code, rinshan=True)

    def _drawn(self, index: int, seat: int, code: str, *, rinshan: bool) -> None:
        self.see(index, code)
        self.give(seat, code)
        self.drawn = TILE_INDEX[code]
        self.drawn_code = code
        self.rinshan = rinshan
        self.phase = ACT

    def on_riichi(self, index: int, ev: dict[str, Any]) -> None:
        seat = ev["seat"]
        self.in_turn(index, seat, (ACT,), "declares riichi")
        why = None
        if self.riichi_waits[seat] is not None:
            why = "has already declared riichi"
        elif not self.is_closed(seat):
            why = "has called a set (riichi needs a closed hand)"
        elif self.scores[seat] < 1000:
            why = f"has {self.scores[seat]} points (the stick needs 1,000)"
        elif self.live_count < 4:
            why = f"declares with {self.live_count} tiles left to draw (4 are needed)"
        if why is not None:
            self.viol(index, seat, "RIICHI_INVALID", f"{self.player(seat)} {why}", kills=False)
        self.pending_riichi = seat
        self.double_riichi[seat] = not self.any_call and not self.discards[seat]

    def on_discard(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        self.in_turn(index, seat, (ACT, MUST_DISCARD), "discards")
        t = TILE_INDEX[code]
        declaring = self.pending_riichi == seat
        was = self.riichi_waits[seat]
        self.take(index, seat, code)
        if declaring:
            self.pending_riichi = None
            now = self.waits_of(seat)
            if not now:
                self.viol(
                    index,
                    seat,
                    "RIICHI_NOT_TENPAI",
                    f"{self.player(seat)} declares riichi discarding {code} and is not tenpai",
                    kills=False,
                )
            self.riichi_waits[seat] = now
        elif was is not None:
            self.ippatsu[seat] = False
            now = self.waits_of(seat)
            if now != was:
                self.viol(
                    index,
                    seat,
                    "WAIT_CHANGED_AFTER_RIICHI",
                    f"{self.player(seat)} discards {code} after riichi, changing the wait from "
                    f"{_names(was)} to {_names(now)}",
                    kills=False,
                )
                self.riichi_waits[seat] = now
            elif t != self.drawn:
                self.viol(
                    index,
                    seat,
                    "RIICHI_DISCARD_NOT_DRAWN",
                    f"{self.player(seat)} discards {code} after riichi, not the tile drawn",
                    kills=False,
                )
        if not self.any_call and len(self.first_discards) < 4:
            self.first_discards.append(t)
        self.discards[seat].append(t)
        self.discarded[seat].add(t)
        self.temp_furiten[seat] = False
        self.live = Live(seat, t, code, index, riichi=declaring)
        self.turn = (seat + 1) % 4
        self.phase = WAIT
        self.drawn = None
        self.rinshan = False
        self.n_discards += 1

    # -- calls ---------------------------------------------------------------------------------

    def _called(self, index: int, ev: dict[str, Any], kind: str) -> list[str]:
        """The checks every call of the live discard shares; the hand tiles used."""
        seat, frm, code = ev["seat"], ev.get("from"), ev["tile"]
        live = self.live
        if live is None or live.kakan or live.seat != frm or live.code != code:
            self.hard(
                index, seat, "CLAIM_NOT_LIVE", f"{code} from seat {frm} is not the live discard"
            )
        if seat == frm:
            self.hard(index, seat, "INVALID_MELD", f"{self.player(seat)} calls their own discard")
        if self.riichi_waits[seat] is not None or self.pending_riichi == seat:
            self.viol(
                index,
                seat,
                "CALL_AFTER_RIICHI",
                f"{self.player(seat)} calls {kind} on {code} after declaring riichi",
                kills=False,
            )
        if kind == "chow":
            run = list(ev.get("tiles") or ())
            if code not in run or len(run) != 3:
                self.hard(index, seat, "INVALID_MELD", f"the chow {run} does not hold {code}")
            rest = list(run)
            rest.remove(code)
            ks = sorted(TILE_INDEX[c] for c in run)
            if ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
                self.hard(index, seat, "INVALID_MELD", f"{run} is not a run of one suit")
            if frm != (seat + 3) % 4:
                self.hard(index, seat, "INVALID_MELD", "a chow is called only from the left")
        else:
            need = 3 if kind == "kong" else 2
            rest = list(ev.get("with") or self._same_kind(seat, TILE_INDEX[code], need))
            if len(rest) != need or any(TILE_INDEX[c] != TILE_INDEX[code] for c in rest):
                self.hard(index, seat, "INVALID_MELD", f"a {kind} of {code} with {rest}")
        for c in rest:
            self.take(index, seat, c)
        live.claimable = False
        live.claimed = True
        self.called_away[frm] = True
        self.live = None
        self.any_call = True
        self.ippatsu = [False] * 4
        self.calls[seat].append(CalledSet(kind, tuple(sorted([*rest, code]))))
        self.call_from[seat].append(frm)
        self.turn = seat
        self.drawn = None
        return rest

    def _same_kind(self, seat: int, t: int, n: int) -> list[str]:
        """``n`` hand tiles of kind ``t``, plain fives before the red one."""
        have = [c for c in (KINDS[t], *(r for r, k in RED.items() if k == t))]
        out: list[str] = []
        for c in have:
            out += [c] * min(self.hand_codes[seat][c], n - len(out))
        return out

    def on_chow(self, index: int, ev: dict[str, Any]) -> None:
        self._called(index, ev, "chow")
        self.phase = MUST_DISCARD

    def on_pung(self, index: int, ev: dict[str, Any]) -> None:
        self._called(index, ev, "pung")
        self._check_pao(ev["seat"], ev["from"])
        self.phase = MUST_DISCARD

    def on_kong(self, index: int, ev: dict[str, Any]) -> None:
        self._called(index, ev, "kong")
        self._check_pao(ev["seat"], ev["from"])
        self._kan(ev["seat"])

    def _kan(self, seat: int) -> None:
        self.n_kans[seat] += 1
        self.owes = True
        self.phase = WAIT
        self.turn = seat

    def _check_pao(self, seat: int, frm: int) -> None:
        """Pao: the player who feeds the third dragon set or the fourth wind set."""
        sets = {TILE_INDEX[c.tiles[0]] for c in self.calls[seat] if c.kind != "chow"}
        if len(sets & set(DRAGON_KINDS)) == 3 or len(sets & set(WIND_KINDS)) == 4:
            last = TILE_INDEX[self.calls[seat][-1].tiles[0]]
            if last in DRAGON_KINDS or last in WIND_KINDS:
                self.pao[seat] = frm

    def on_concealed_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        self.in_turn(index, seat, (ACT,), "declares a concealed kan")
        t = TILE_INDEX[code]
        tiles = self._same_kind(seat, t, 4)
        if len(tiles) != 4:
            self.hard(
                index, seat, "TILE_NOT_IN_HAND", f"{self.player(seat)} does not hold four {code}"
            )
        was = self.riichi_waits[seat]
        for c in tiles:
            self.take(index, seat, c)
        self.calls[seat].append(CalledSet("concealed_kong", tuple(sorted(tiles))))
        self.call_from[seat].append(None)
        if was is not None:
            now = self.waits_of(seat)
            if now != was or self.drawn != t:
                self.viol(
                    index,
                    seat,
                    "WAIT_CHANGED_AFTER_RIICHI",
                    f"{self.player(seat)} declares a kan of {code} after riichi that changes "
                    "the hand's reading or uses a tile not just drawn",
                    kills=False,
                )
        self.any_call = True
        self.ippatsu = [False] * 4
        self._kan(seat)

    def on_added_kong(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        self.in_turn(index, seat, (ACT,), "adds to a pung")
        t = TILE_INDEX[code]
        at = next(
            (
                i
                for i, c in enumerate(self.calls[seat])
                if c.kind == "pung" and TILE_INDEX[c.tiles[0]] == t
            ),
            None,
        )
        if at is None:
            self.hard(index, seat, "KONG_INVALID", f"{self.player(seat)} has no pung of {code}")
        self.take(index, seat, code)
        old = self.calls[seat][at]
        self.calls[seat][at] = CalledSet("added_kong", tuple(sorted([*old.tiles, code])))
        self.any_call = True
        self._kan(seat)  # ippatsu ends with the replacement: a robbed kan keeps it
        self.live = Live(seat, t, code, index, kakan=True)

    def on_dora(self, index: int, ev: dict[str, Any]) -> None:
        if sum(self.n_kans) < len(self.dora):
            self.hard(index, None, "DORA_INVALID", "a new dora indicator without a kan")
        self.see(index, ev["tile"])
        self.dora.append(ev["tile"])

    # -- wins ----------------------------------------------------------------------------------

    def on_win(self, index: int, ev: dict[str, Any]) -> None:
        seat, code = ev["seat"], ev["tile"]
        t = TILE_INDEX[code]
        source = self.win_source(ev)
        frm = ev.get("from")
        live = self.live
        if source is WinSource.SELF_DRAW:
            self.in_turn(index, seat, (ACT,), "declares tsumo")
            if self.drawn != t:
                self.hard(
                    index, seat, "WIN_TILE_NOT_AVAILABLE", f"{code} is not the tile just drawn"
                )
            self.take(index, seat, code)
        elif (
            live is None
            or live.seat != frm
            or live.tile != t
            or live.kakan != (source is WinSource.ROBBED_KONG)
        ):
            self.hard(
                index,
                seat,
                "WIN_TILE_NOT_AVAILABLE",
                f"{code} from seat {frm} cannot be won on now",
            )
        ura = list(ev.get("ura") or ())
        if ura and not self.ura:  # the indicators are turned once, whoever wins
            for c in ura:
                if c not in TILE_INDEX:
                    self.hard(index, seat, "TILE_NOT_IN_HAND", f"ura indicator {c!r} is not a tile")
                self.see(index, c)
        self.ura.setdefault(seat, ura)
        score = self._value(seat, code, source)
        refused: str | None = None  # FURITEN_RON, or the FALSE_WIN reason
        message = ""
        furiten = self.furiten(seat) if source is not WinSource.SELF_DRAW else ""
        if furiten:  # the right to ron is judged first: a furiten ron is no win at all
            refused = "FURITEN_RON"
            message = f"{self.player(seat)} wins by ron on {code} while furiten ({furiten})"
            score = None
        elif isinstance(score, str):
            reason = "NO_YAKU" if score == "no_yaku" else "NOT_A_WIN"
            refused = reason
            message = f"{self.player(seat)} wins on {code}: {score.replace('_', ' ')}"
            score = None
        claim = RiichiClaim(index, seat, t, source, frm, score, refused)
        claim.message = message
        if source is WinSource.SELF_DRAW:
            self.give(seat, code)  # the tile stays in the hand shown
        self.group.append(claim)
        if source is WinSource.SELF_DRAW:
            self._resolve_group()
        if live is not None:
            live.claimed = True

    def furiten(self, seat: int) -> str:
        """Why ``seat`` may not win by ron now ("" when it may)."""
        w = self.waits_of(seat)
        if w & self.discarded[seat]:
            return "a wait is among their own discards"
        if self.riichi_furiten[seat]:
            return "they passed a winning tile after riichi"
        if self.temp_furiten[seat]:
            return "they passed a winning tile since their last discard"
        return ""

    def _value(self, seat: int, code: str, source: WinSource) -> RiichiScore | str:
        tsumo = source is WinSource.SELF_DRAW
        concealed = list(self.hand_codes[seat].elements())
        first_turn = not self.any_call and not self.discards[seat]
        riichi = self.riichi_waits[seat] is not None
        double = riichi and self.double_riichi[seat]
        facts = {
            "tsumo": tsumo,
            "riichi": riichi and not double,
            "daburu_riichi": double,
            "ippatsu": riichi and self.ippatsu[seat],
            "rinshan": tsumo and self.rinshan,
            "chankan": source is WinSource.ROBBED_KONG,
            "haitei": tsumo and not self.rinshan and self.live_count == 0,
            "houtei": source is WinSource.DISCARD and self.live_count == 0,
            "tenhou": tsumo and first_turn and seat == self.dealer,
            "chiihou": tsumo and first_turn and seat != self.dealer,
        }
        sit = Situation(
            seat_wind=27 + (seat - self.dealer) % 4,
            round_wind=27 + WINDS.index(self.record.get("prevailing_wind") or "E"),
            flags=frozenset(flag for flag, holds in facts.items() if holds),
        )
        return value(
            sorted(concealed),
            code,
            self.calls[seat],
            self.dora,
            self.ura.get(seat, []) if riichi else [],
            sit,
            open_tanyao=self.opts.open_tanyao,
            red_fives=self.opts.red_fives,
        )

    # -- draws ---------------------------------------------------------------------------------

    def tenpai(self) -> list[int]:
        """The seats tenpai at an exhaustive draw."""
        return [s for s in range(4) if self.waits_of(s)]

    def nagashi(self) -> list[int]:
        """The seats whose every discard was a terminal or honour, none called."""
        return [
            s
            for s in range(4)
            if self.discards[s]
            and not self.called_away[s]
            and all(t in TERMINALS_HONOURS for t in self.discards[s])
        ]

    def on_abortive_draw(self, index: int, ev: dict[str, Any]) -> None:
        reason = ev.get("reason")
        why = None
        if not self.opts.abortive_draws:
            why = "the table plays without abortive draws (option abortive_draws)"
        elif reason == "nine_terminals":
            seat = ev.get("seat", self.turn)
            kinds = {t for t in TERMINALS_HONOURS if self.concealed[seat][t]}
            if seat != self.turn or self.phase != ACT or self.any_call or self.discards[seat]:
                why = "nine terminals is declared only on one's first draw, before any call"
            elif len(kinds) < 9:
                why = f"the hand holds {len(kinds)} kinds of terminals and honours, not 9"
        elif reason == "four_winds":
            fd = self.first_discards
            if len(fd) != 4 or len(set(fd)) != 1 or fd[0] not in WIND_KINDS:
                why = "the first four discards are not one wind"
        elif reason == "four_riichi":
            if sum(w is not None for w in self.riichi_waits) != 4:
                why = "not all four players have declared riichi"
        elif reason == "four_kans":
            kans = [n for n in self.n_kans if n]
            if sum(kans) != 4 or len(kans) < 2:
                why = "four kans by two or more players are needed"
        elif reason == "triple_ron":
            if self.live is None and not self.group:
                why = "no discard is open to three rons"
        else:
            why = f"unknown reason {reason!r}"
        if why is not None:
            self.hard(index, ev.get("seat"), "ABORTIVE_DRAW_INVALID", f"abortive draw: {why}")
        self.abortive = reason
        self.phase = ENDED
        self.ended_by = "abortive_draw"


@dataclass
class RiichiClaim(WinClaim[RiichiScore]):
    message: str = ""


def _takes(ev: dict[str, Any], live: Live) -> bool:
    """``ev`` wins on the live tile (or aborts the hand on three rons of it)."""
    kind = ev["type"]
    if kind == "win":
        return bool(ev.get("from") == live.seat)
    return kind == "abortive_draw" and ev.get("reason") == "triple_ron"


def _names(kinds: frozenset[int]) -> str:
    return " ".join(KINDS[k] for k in sorted(kinds)) or "no wait"


RiichiHand.HANDLERS = handlers(RiichiHand)
