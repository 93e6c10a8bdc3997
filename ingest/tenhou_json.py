"""The tenhou.net/6 JSON form of a Tenhou game as ``riichi`` hand records.

``{"name": [4 names], "rule": {...}, "log": [hand, ...]}``; a hand is
``[[round, honba, sticks], scores, dora indicators, ura indicators, hand0, takes0,
discards0, ..., hand3, takes3, discards3, result]``. Tiles are numbers: 11-19 m, 21-29 p,
31-39 s, 41-47 E S W N and white, green, red, 51-53 the red fives. A take is a drawn tile
or a call written as a string (``c`` chi, ``p`` pon, ``m`` open kan; where the letter
stands says whose discard: first the left player's, the middle the opposite's, last the
right's); a discard is a tile, 60 (the tile just drawn), ``r``+tile (riichi), or an
``a`` (concealed) / ``k`` (added) kan string, or 0 after an open kan. The file holds no
turn order, so the reader replays the table to interleave the four players' lists.
The result is ``["和了", deltas, [who, from, pao, text, yaku...], ...]`` or a draw.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjaudit.parts.ingest.riichi_logs import (
    BadLog,
    HandDraft,
    ImportItem,
    ImportProblem,
    as_item,
    game_id_of,
    tile_order,
)

BAD_TENHOU_JSON = "BAD_TENHOU_JSON"
BAD_JSON = "BAD_JSON"
_HONOURS = {41: "E", 42: "S", 43: "W", 44: "N", 45: "P", 46: "F", 47: "C"}
_RED = {51: "0m", 52: "0p", 53: "0s"}
_ABORTIVE = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "四槓散了": "four_kans",
    "三家和了": "triple_ron",
}
_DRAWS = frozenset({"流局", "全員聴牌", "全員不聴", "流し満貫"})
YAKU_NAMES = {
    "門前清自摸和": "tsumo", "立直": "riichi", "一発": "ippatsu", "槍槓": "chankan",
    "嶺上開花": "rinshan", "海底摸月": "haitei", "河底撈魚": "houtei", "平和": "pinfu",
    "断幺九": "tanyao", "一盃口": "iipeiko", "自風 東": "seat_wind_east",
    "自風 南": "seat_wind_south", "自風 西": "seat_wind_west", "自風 北": "seat_wind_north",
    "場風 東": "round_wind_east", "場風 南": "round_wind_south", "場風 西": "round_wind_west",
    "場風 北": "round_wind_north", "役牌 白": "haku", "役牌 發": "hatsu", "役牌 中": "chun",
    "両立直": "daburu_riichi", "七対子": "chiitoitsu", "混全帯幺九": "chantai",
    "一気通貫": "ittsu", "三色同順": "sanshoku", "三色同刻": "sanshoku_douko",
    "三槓子": "sankantsu", "対々和": "toitoi", "三暗刻": "sanankou", "小三元": "shosangen",
    "混老頭": "honroto", "二盃口": "ryanpeiko", "純全帯幺九": "junchan", "混一色": "honitsu",
    "清一色": "chinitsu", "天和": "tenhou", "地和": "chiihou", "大三元": "daisangen",
    "四暗刻": "suuankou", "四暗刻単騎": "suuankou_tanki", "字一色": "tsuisou",
    "緑一色": "ryuisou", "清老頭": "chinroto", "九蓮宝燈": "chuuren_poutou",
    "純正九蓮宝燈": "daburu_chuuren_poutou", "国士無双": "kokushi",
    "国士無双１３面": "daburu_kokushi", "大四喜": "daisuushi", "小四喜": "shosuushi",
    "四槓子": "suukantsu", "ドラ": "dora", "裏ドラ": "ura_dora", "赤ドラ": "aka_dora",
    # the English client's names
    "Riichi": "riichi", "Dora": "dora", "Ura Dora": "ura_dora", "Red Five": "aka_dora",
}  # fmt: skip
_YAKU = re.compile(r"^(?P<name>.+?)\((?:(?P<han>\d+)(?:飜|han)|役満|Yakuman)\)$")
_FU = re.compile(r"(\d+)符")


def tile(n: object, where: str, fld: str) -> str:
    if isinstance(n, int) and not isinstance(n, bool):
        if n in _RED:
            return _RED[n]
        if n in _HONOURS:
            return _HONOURS[n]
        suit, rank = divmod(n, 10)
        if suit in (1, 2, 3) and 1 <= rank <= 9:
            return f"{rank}{'mps'[suit - 1]}"
    raise BadLog(BAD_TENHOU_JSON, where, fld, f"{n!r} is not a tile number (11-47, 51-53)")


def _call(text: str, where: str, fld: str) -> tuple[str, int, list[int]]:
    """A call string: its letter, the letter's position and the tile numbers in order."""
    m = re.fullmatch(r"((?:\d\d)*)([cpmak])((?:\d\d)+)", text)
    if m is None:
        raise BadLog(BAD_TENHOU_JSON, where, fld, f"{text!r} is not a call string")
    head, letter, tail = m.groups()
    nums = [int(head[i : i + 2]) for i in range(0, len(head), 2)]
    rest = [int(tail[i : i + 2]) for i in range(0, len(tail), 2)]
    return letter, len(head), nums + rest


@dataclass
class _Table:
    """Where the interleaving stands: whose turn, what was drawn, each list's position."""

    seat: int
    drawing: bool = True
    last_drawn: str | None = None
    kan_pending: bool = False
    tp: list[int] = field(default_factory=lambda: [0] * 4)
    dp: list[int] = field(default_factory=lambda: [0] * 4)
    events: list[dict[str, Any]] = field(default_factory=list)
    riichi: list[int] = field(default_factory=lambda: [0] * 4)

    def copy(self) -> _Table:
        return _Table(
            self.seat, self.drawing, self.last_drawn, self.kan_pending,
            list(self.tp), list(self.dp), list(self.events), list(self.riichi),
        )  # fmt: skip


class _Hand:
    """Interleave the four players' takes and discards of one hand into events.

    After a discard the player whose next take calls it takes the turn; when the same
    tile is discarded twice before the caller's turn, which one was called is not
    written down, so a choice that leaves a list unread is taken back (as mjai-reviewer's
    convlog does)."""

    def __init__(self, kyoku: list[Any], where: str) -> None:
        self.where = where
        self.takes = [list(kyoku[5 + 3 * s]) for s in range(4)]
        self.discards = [list(kyoku[6 + 3 * s]) for s in range(4)]

    def t(self, n: object, fld: str) -> str:
        return tile(n, self.where, fld)

    def next_take(self, st: _Table, s: int) -> Any:
        return self.takes[s][st.tp[s]] if st.tp[s] < len(self.takes[s]) else None

    def claim_of(self, st: _Table, s: int, discarded: str) -> int | None:
        """The seat whose next take calls ``s``'s discard ``discarded`` (a pon before a chi)."""
        found = []
        for o in ((s + 1) % 4, (s + 2) % 4, (s + 3) % 4):
            take = self.next_take(st, o)
            if not isinstance(take, str):
                continue
            letter, pos, nums = _call(take, self.where, f"takes{o}")
            if _origin(o, letter, pos) == s and self.t(nums[pos // 2], f"takes{o}") == discarded:
                found.append((letter != "c", o))
        return max(found)[1] if found else None

    def done(self, st: _Table) -> bool:
        return all(st.tp[s] == len(self.takes[s]) for s in range(4)) and all(
            st.dp[s] == len(self.discards[s]) for s in range(4)
        )

    def run(self, dealer: int) -> _Table:
        out = self.explore(_Table(dealer))
        if out is None:
            raise BadLog(
                BAD_TENHOU_JSON, self.where, "takes/discards", "no order of play reads every list"
            )
        return out

    def explore(self, st: _Table) -> _Table | None:
        while True:
            s = st.seat
            if st.drawing:
                take = self.next_take(st, s)
                if take is None:
                    return st if self.done(st) else None
                if isinstance(take, str):
                    return None  # a call where a draw is due: an earlier choice was wrong
                st.tp[s] += 1
                code = self.t(take, f"takes{s}")
                kind = "replacement" if st.kan_pending else "draw"
                st.events.append({"type": kind, "seat": s, "tile": code})
                st.last_drawn, st.kan_pending = code, False
            if st.dp[s] >= len(self.discards[s]):
                return st if self.done(st) else None
            d = self.discards[s][st.dp[s]]
            st.dp[s] += 1
            if isinstance(d, str) and ("a" in d or "k" in d):
                letter, pos, nums = _call(d, self.where, f"discards{s}")
                codes = [self.t(n, f"discards{s}") for n in nums]
                if letter == "a":
                    st.events.append(
                        {
                            "type": "concealed_kong",
                            "seat": s,
                            "tile": codes[-1],
                            "with": sorted(codes, key=tile_order),
                        }
                    )
                else:
                    st.events.append({"type": "added_kong", "seat": s, "tile": codes[pos // 2]})
                st.kan_pending, st.drawing = True, True
                continue
            riichi = isinstance(d, str) and d.startswith("r")
            if riichi:
                st.events.append({"type": "riichi", "seat": s})
                st.riichi[s] += 1  # taken back if the discard is won on
                d = int(d[1:])
            if d == 0:  # the open kan's place in the discards: its replacement follows
                st.kan_pending, st.drawing = True, True
                continue
            code = st.last_drawn if d == 60 else self.t(d, f"discards{s}")
            if code is None:
                raise BadLog(BAD_TENHOU_JSON, self.where, f"discards{s}", "60 with no tile drawn")
            st.events.append({"type": "discard", "seat": s, "tile": code})
            st.last_drawn = None
            claimer = self.claim_of(st, s, code)
            if claimer is not None:
                other = st.copy()
                found = self.explore(self.called(st, s, claimer))
                if found is not None:
                    return found
                st = other
            st.seat, st.drawing = (s + 1) % 4, True

    def called(self, st: _Table, s: int, claimer: int) -> _Table:
        take = self.takes[claimer][st.tp[claimer]]
        st.tp[claimer] += 1
        letter, pos, nums = _call(take, self.where, f"takes{claimer}")
        codes = [self.t(n, f"takes{claimer}") for n in nums]
        called = codes[pos // 2]
        rest = codes[: pos // 2] + codes[pos // 2 + 1 :]
        ev: dict[str, Any] = {"seat": claimer, "tile": called, "from": s}
        if letter == "c":
            ev.update(type="chow", tiles=sorted(codes, key=tile_order))
        else:
            ev.update(
                type="pung" if letter == "p" else "kong", **{"with": sorted(rest, key=tile_order)}
            )
        st.events.append(ev)
        st.seat, st.drawing = claimer, False
        if letter == "m":
            st.kan_pending = st.drawing = True
            if (
                st.dp[claimer] < len(self.discards[claimer])
                and self.discards[claimer][st.dp[claimer]] == 0
            ):
                st.dp[claimer] += 1
        return st


def _origin(seat: int, letter: str, pos: int) -> int:
    """Whose discard a call string at letter position ``pos`` takes."""
    if letter == "c":
        return (seat + 3) % 4
    if letter == "m":
        return {0: (seat + 3) % 4, 2: (seat + 2) % 4, 6: (seat + 1) % 4}.get(pos, (seat + 1) % 4)
    return {0: (seat + 3) % 4, 2: (seat + 2) % 4, 4: (seat + 1) % 4}.get(pos, seat)


def _hand(game: dict[str, Any], i: int, kyoku: Any, game_id: str, players: list[str]) -> HandDraft:
    where = f"log[{i}]"
    if not isinstance(kyoku, list) or len(kyoku) != 17:
        raise BadLog(
            BAD_TENHOU_JSON,
            where,
            "",
            "expected 17 entries (round, scores, dora, ura, 4 x hand/takes/discards, result)",
        )
    head, scores, dora, ura = kyoku[0], kyoku[1], kyoku[2], kyoku[3]
    if not (isinstance(head, list) and len(head) == 3 and all(isinstance(x, int) for x in head)):
        raise BadLog(BAD_TENHOU_JSON, where, "[0]", "expected [round, honba, sticks]")
    if not (isinstance(scores, list) and len(scores) == 4):
        raise BadLog(BAD_TENHOU_JSON, where, "[1]", "expected 4 scores")
    for s in range(4):
        for k in (4, 5, 6):
            if not isinstance(kyoku[k + 3 * s], list):
                raise BadLog(BAD_TENHOU_JSON, where, f"[{k + 3 * s}]", "expected a list")
    hands = [[tile(n, where, f"[{4 + 3 * s}]") for n in kyoku[4 + 3 * s]] for s in range(4)]
    draft = HandDraft(
        game_id=game_id,
        hand_no=i + 1,
        players=players,
        dealer=head[0] % 4,
        round_index=head[0],
        honba=head[1],
        sticks=head[2],
        scores=list(scores),
        dora=[tile(n, where, "[2]") for n in dora[:1]],
        start_hands=hands,
        line=i + 1,
    )
    rule = game.get("rule") or {}
    if not (rule.get("aka") or rule.get("aka51") or rule.get("aka52") or rule.get("aka53")):
        draft.options["red_fives"] = False
    table = _Hand(kyoku, where).run(draft.dealer)
    events = table.events
    kans = 0
    extra_dora = [tile(n, where, "[2]") for n in dora[1:]]
    out: list[dict[str, Any]] = []
    for ev in events:  # a new dora indicator after each kan's replacement draw
        out.append(ev)
        if ev["type"] == "replacement" and kans < len(extra_dora):
            out.append({"type": "dora", "tile": extra_dora[kans]})
            kans += 1
    draft.events = out
    draft.n_riichi = table.riichi
    _result(draft, kyoku[16], [tile(n, where, "[3]") for n in ura], where)
    return draft


def _result(draft: HandDraft, res: Any, ura: list[str], where: str) -> None:
    if not isinstance(res, list) or not res or not isinstance(res[0], str):
        raise BadLog(BAD_TENHOU_JSON, where, "[16]", "expected the result list")
    name = res[0]
    events = draft.events
    plays = [e for e in events if "tile" in e and e["type"] != "dora"]
    if name == "和了":
        for k in range(1, len(res), 2):
            deltas, info = res[k], res[k + 1] if k + 1 < len(res) else None
            if not (
                isinstance(deltas, list)
                and len(deltas) == 4
                and isinstance(info, list)
                and len(info) >= 3
            ):
                raise BadLog(
                    BAD_TENHOU_JSON,
                    where,
                    f"[16][{k}]",
                    "expected deltas and [who, from, pao, (text, yaku...)]",
                )
            who, frm, pao = info[0], info[1], info[2]
            ev: dict[str, Any] = {"type": "win", "seat": who, "tile": plays[-1]["tile"]}
            if frm != who:
                ev["from"] = frm
                if plays[-1]["type"] == "added_kong":
                    ev["robbed_kong"] = True
            if ura:
                ev["ura"] = ura
            events.append(ev)
            yaku: dict[str, int] = {}
            for text in info[4:]:
                m = _YAKU.match(str(text))
                if m is None:
                    raise BadLog(
                        BAD_TENHOU_JSON, where, f"[16][{k + 1}]", f"{text!r} is not 'name(n飜)'"
                    )
                han = int(m["han"]) if m["han"] else 13
                if han:
                    pid = YAKU_NAMES.get(m["name"], f"tenhou:{m['name']}")
                    yaku[pid] = yaku.get(pid, 0) + han
            win: dict[str, Any] = {"seat": who}
            if len(info) > 3:
                win["han"] = sum(yaku.values())
            fu = _FU.search(str(info[3])) if len(info) > 3 else None
            if fu:
                win["fu"] = int(fu[1])
            if frm != who:
                win["from"] = frm
            if len(info) > 3:
                win["yaku"] = yaku
            if pao != who:
                win["pao"] = pao
            draft.wins.append(win)
            draft.add_deltas(deltas)
        if draft.wins and draft.wins[0].get("from") is not None:
            _no_stick_on_ron(draft)
    elif name in _ABORTIVE:
        ev = {"type": "abortive_draw", "reason": _ABORTIVE[name]}
        if name == "九種九牌" and plays:
            ev["seat"] = plays[-1]["seat"]
        events.append(ev)
        if len(res) > 1 and isinstance(res[1], list):
            draft.add_deltas(res[1])
    elif name in _DRAWS:
        events.append({"type": "exhaustive_draw"})
        if len(res) > 1 and isinstance(res[1], list):
            draft.add_deltas(res[1])
    else:
        raise BadLog(BAD_TENHOU_JSON, where, "[16][0]", f"unknown result {name!r}")
    draft.net_sticks()


def _no_stick_on_ron(draft: HandDraft) -> None:
    """A ron on the riichi declaration's discard: that riichi puts no stick down."""
    plays = [e for e in draft.events if e["type"] not in ("win", "dora")]
    if len(plays) >= 2 and plays[-1]["type"] == "discard" and plays[-2]["type"] == "riichi":
        seat = plays[-2]["seat"]
        draft.n_riichi[seat] = max(0, draft.n_riichi[seat] - 1)


def _game_end(sc: Any, where: str) -> dict[str, Any]:
    """The game's end: the file's ``sc`` (each seat's final score, then its points after
    uma), kept on the last hand as Tenhou XML's ``owari`` is."""
    if not (isinstance(sc, list) and len(sc) == 8 and all(isinstance(x, int | float) for x in sc)):
        raise BadLog(BAD_TENHOU_JSON, where, "sc", "expected 8 numbers (score, points per seat)")
    return {"scores": [int(x) for x in sc[::2]], "points": [float(x) for x in sc[1::2]]}


def read(path: Path) -> Iterator[ImportItem]:
    """The hands of one tenhou.net/6 JSON file; a bad hand is one problem naming
    ``log[i]`` and the entry, and the other hands are kept."""
    raw = b""
    try:
        raw = path.read_bytes()
        game = json.loads(raw)
    except (OSError, ValueError) as exc:
        yield ImportProblem(1, raw, BAD_JSON, f"{path.name}: {exc}")
        return
    if not isinstance(game, dict) or not isinstance(game.get("log"), list):
        yield ImportProblem(
            1, raw, BAD_TENHOU_JSON, f"{path.name}: expected an object with a 'log' list"
        )
        return
    names = game.get("name")
    players = (
        names
        if isinstance(names, list) and len(names) == 4 and all(names)
        else ["A", "B", "C", "D"]
    )
    game_id = game_id_of(path)
    for i, kyoku in enumerate(game["log"]):
        try:
            draft = _hand(game, i, kyoku, game_id, [str(p) for p in players])
            if i == len(game["log"]) - 1 and game.get("sc") is not None:
                draft.game_end = _game_end(game["sc"], f"log[{i}]")
            yield as_item(draft)
        except BadLog as exc:
            yield ImportProblem(
                i + 1,
                json.dumps(kyoku, ensure_ascii=False).encode(),
                exc.code,
                f"{path.name}: {exc}",
            )
