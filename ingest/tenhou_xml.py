"""Tenhou's mjlog XML (``<mjloggm ver="2.3">``) as ``riichi`` hand records.

The elements read: GO (the game type: red fives, open tanyao), UN (the names), INIT (a
hand's deal, scores, counters and first dora indicator), T/U/V/W and D/E/F/G followed by
a 136-index (a draw and a discard of seat 0-3), N (a call, its ``m`` bit field), REACH
(step 1 the declaration, step 2 the stick), DORA (a new indicator), AGARI (a win, with
the recorded han, fu, yaku and score changes) and RYUUKYOKU (a drawn hand). A draw after
a kan is the replacement. ``owari`` on the last hand is the game's end (final scores).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from mjaudit.parts.ingest.riichi_logs import (
    TENHOU_YAKU,
    BadLog,
    HandDraft,
    ImportItem,
    ImportProblem,
    as_item,
    game_id_of,
    tile_136,
    whole_file_problem,
)

BAD_XML = "BAD_XML"
_MOVE = re.compile(r"^([TUVWDEFG])(\d+)$")
_DRAW, _DISCARD = "TUVW", "DEFG"
# RYUUKYOKU type -> our abortive_draw reason (no type: the wall ran out)
ABORTIVE = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
}


def decode_meld(who: int, m: int) -> dict[str, Any]:
    """The N element's ``m``: kind, the 136-indexes used, the called one and its giver."""
    rel = m & 3
    if m & 0x4:  # chi: always from the left
        t = m >> 10
        r, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return {"kind": "chow", "tiles": tiles, "called": tiles[r], "from": (who + rel) % 4}
    if m & 0x18:  # pon (0x8) or added kan (0x10)
        t4 = (m >> 5) & 3
        t = m >> 9
        r, t = t % 3, t // 3
        tiles = [t * 4 + i for i in range(4) if i != t4]
        if m & 0x8:
            return {"kind": "pung", "tiles": tiles, "called": tiles[r], "from": (who + rel) % 4}
        return {"kind": "added_kong", "tiles": [*tiles, t * 4 + t4], "called": t * 4 + t4}
    if m & 0x20:
        raise ValueError("a nukidora (three-player) call; only four-player games are read")
    hai0 = m >> 8
    base = hai0 // 4 * 4
    tiles = [base + i for i in range(4)]
    if rel == 0:
        return {"kind": "concealed_kong", "tiles": tiles, "called": hai0}
    return {"kind": "kong", "tiles": tiles, "called": hai0, "from": (who + rel) % 4}


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.game_id = game_id_of(path)
        self.players = ["A", "B", "C", "D"]
        self.red = True
        self.options: dict[str, Any] = {}
        self.hand: HandDraft | None = None
        self.hand_no = 0
        self.kong_by: int | None = None  # the next draw of this seat is a replacement
        self.element = 0

    def where(self, el: ET.Element) -> str:
        return f"element {self.element} <{el.tag}>"

    def attr(self, el: ET.Element, name: str) -> str:
        value = el.get(name)
        if value is None:
            raise BadLog(BAD_XML, self.where(el), name, "missing")
        return value

    def ints(self, el: ET.Element, name: str, n: int | None = None) -> list[int]:
        text = self.attr(el, name)
        try:
            out = [int(x) for x in text.split(",")] if text else []
        except ValueError:
            raise BadLog(
                BAD_XML, self.where(el), name, f"{text!r} is not comma-separated integers"
            ) from None
        if n is not None and len(out) != n:
            raise BadLog(BAD_XML, self.where(el), name, f"expected {n} numbers, got {len(out)}")
        return out

    def tile(self, el: ET.Element, name: str, t: int) -> str:
        if not 0 <= t < 136:
            raise BadLog(BAD_XML, self.where(el), name, f"tile {t} is not 0-135")
        return tile_136(t, self.red)

    def live(self, el: ET.Element) -> HandDraft:
        if self.hand is None:
            raise BadLog(BAD_XML, self.where(el), "", "comes before any INIT")
        return self.hand

    def on_go(self, el: ET.Element) -> None:
        kind = int(self.attr(el, "type"))
        if kind & 0x10:
            raise BadLog(BAD_XML, self.where(el), "type", "a three-player game; only four")
        self.red = not kind & 0x2
        if not self.red:
            self.options["red_fives"] = False
        if kind & 0x4:
            self.options["open_tanyao"] = False

    def on_un(self, el: ET.Element) -> None:
        names = [unquote(el.get(f"n{i}", "")) for i in range(4)]
        if all(names):
            self.players = names

    def on_init(self, el: ET.Element) -> HandDraft | None:
        done, self.hand = self.hand, None
        seed = self.ints(el, "seed", 6)
        ten = self.ints(el, "ten", 4)
        oya = self.ints(el, "oya", 1)[0]
        hands = []
        for i in range(4):
            hai = self.ints(el, f"hai{i}", 13)
            hands.append([self.tile(el, f"hai{i}", t) for t in hai])
        self.hand_no += 1
        self.hand = HandDraft(
            game_id=self.game_id,
            hand_no=self.hand_no,
            players=self.players,
            dealer=oya,
            round_index=seed[0],
            honba=seed[1],
            sticks=seed[2],
            scores=[t * 100 for t in ten],
            dora=[self.tile(el, "seed", seed[5])],
            start_hands=hands,
            options=dict(self.options),
            line=self.element,
        )
        self.kong_by = None
        return done

    def on_move(self, el: ET.Element, letter: str, t: int) -> None:
        hand = self.live(el)
        tile = self.tile(el, "tag", t)
        if letter in _DRAW:
            seat = _DRAW.index(letter)
            kind = "replacement" if self.kong_by == seat else "draw"
            self.kong_by = None
            hand.events.append({"type": kind, "seat": seat, "tile": tile})
        else:
            hand.events.append({"type": "discard", "seat": _DISCARD.index(letter), "tile": tile})

    def on_n(self, el: ET.Element) -> None:
        hand = self.live(el)
        who = self.ints(el, "who", 1)[0]
        m = self.ints(el, "m", 1)[0]
        try:
            meld = decode_meld(who, m)
        except (ValueError, IndexError) as exc:
            raise BadLog(BAD_XML, self.where(el), "m", str(exc)) from None
        for t in meld["tiles"]:
            self.tile(el, "m", t)
        called = self.tile(el, "m", meld["called"])
        ev: dict[str, Any] = {"type": meld["kind"], "seat": who, "tile": called}
        if "from" in meld:
            ev["from"] = meld["from"]
        if meld["kind"] == "chow":
            ev["tiles"] = [tile_136(t, self.red) for t in sorted(meld["tiles"])]
        else:
            rest = list(meld["tiles"])
            rest.remove(meld["called"])
            ev["with"] = [tile_136(t, self.red) for t in sorted(rest)]
        if meld["kind"] in ("kong", "concealed_kong", "added_kong"):
            self.kong_by = who
        hand.events.append(ev)

    def on_reach(self, el: ET.Element) -> None:
        hand = self.live(el)
        who = self.ints(el, "who", 1)[0]
        step = self.ints(el, "step", 1)[0]
        if step == 1:
            hand.events.append({"type": "riichi", "seat": who})
        elif step == 2:
            hand.n_riichi[who] += 1

    def on_dora(self, el: ET.Element) -> None:
        hand = self.live(el)
        hai = self.ints(el, "hai", 1)[0]
        hand.events.append({"type": "dora", "tile": self.tile(el, "hai", hai)})

    def scores(self, el: ET.Element, hand: HandDraft) -> None:
        sc = self.ints(el, "sc", 8)
        hand.add_deltas([sc[2 * i + 1] * 100 for i in range(4)])
        if el.get("owari") is not None:
            try:
                owari = [float(x) for x in self.attr(el, "owari").split(",")]
            except ValueError:
                owari = []
            if len(owari) != 8:
                raise BadLog(BAD_XML, self.where(el), "owari", "expected 8 numbers")
            hand.game_end = {
                "scores": [round(owari[2 * i] * 100) for i in range(4)],
                "points": owari[1::2],
            }

    def on_agari(self, el: ET.Element) -> None:
        hand = self.live(el)
        who = self.ints(el, "who", 1)[0]
        frm = self.ints(el, "fromWho", 1)[0]
        machi = self.ints(el, "machi", 1)[0]
        ten = self.ints(el, "ten", 3)
        yaku: dict[str, int] = {}
        if el.get("yaku"):
            pairs = self.ints(el, "yaku")
            for y, han in zip(pairs[::2], pairs[1::2], strict=True):
                if han:
                    yaku[TENHOU_YAKU.get(y, f"tenhou_{y}")] = han
        if el.get("yakuman"):
            for y in self.ints(el, "yakuman"):
                yaku[TENHOU_YAKU.get(y, f"tenhou_{y}")] = 13
        han = sum(yaku.values())
        ev: dict[str, Any] = {"type": "win", "seat": who, "tile": self.tile(el, "machi", machi)}
        if frm != who:
            ev["from"] = frm
            before = [e for e in hand.events if e["type"] != "win"]
            if before and before[-1]["type"] == "added_kong":
                ev["robbed_kong"] = True
        if el.get("doraHaiUra"):
            ev["ura"] = [self.tile(el, "doraHaiUra", t) for t in self.ints(el, "doraHaiUra")]
        hand.events.append(ev)
        win: dict[str, Any] = {"seat": who, "han": han, "fu": ten[0], "points": ten[1]}
        if frm != who:
            win["from"] = frm
        win["yaku"] = yaku
        if el.get("paoWho") is not None:
            win["pao"] = self.ints(el, "paoWho", 1)[0]
        hand.wins.append(win)
        self.scores(el, hand)

    def on_ryuukyoku(self, el: ET.Element) -> None:
        hand = self.live(el)
        kind = el.get("type")
        if kind in ABORTIVE:
            ev: dict[str, Any] = {"type": "abortive_draw", "reason": ABORTIVE[kind]}
            if kind == "yao9" and hand.events:
                ev["seat"] = hand.events[-1]["seat"]
            hand.events.append(ev)
        elif kind in (None, "nm"):
            hand.events.append({"type": "exhaustive_draw"})
            tenpai = [i for i in range(4) if el.get(f"hai{i}") is not None]
            hand.draw = {"tenpai": tenpai}
            if kind == "nm":
                hand.draw["nagashi_mangan"] = True
        else:
            raise BadLog(BAD_XML, self.where(el), "type", f"unknown draw type {kind!r}")
        self.scores(el, hand)


_HANDLERS = {
    "GO": "on_go",
    "UN": "on_un",
    "N": "on_n",
    "REACH": "on_reach",
    "DORA": "on_dora",
    "AGARI": "on_agari",
    "RYUUKYOKU": "on_ryuukyoku",
}
_IGNORED = frozenset({"SHUFFLE", "TAIKYOKU", "BYE", "mjloggm"})


def read(path: Path) -> Iterator[ImportItem]:
    """The hands of one mjlog file; a file that is not well-formed XML, or an element
    with a missing or bad attribute, is one BAD_XML problem naming the element."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        line, col = exc.position
        yield ImportProblem(line, _raw(path), BAD_XML, f"{path.name}:{line}:{col}: {exc}")
        return
    except OSError as exc:
        yield whole_file_problem(path, exc, BAD_XML)
        return
    if root.tag != "mjloggm":
        yield ImportProblem(
            1, _raw(path), BAD_XML, f"{path.name}: root <{root.tag}>, expected <mjloggm>"
        )
        return
    reader = _Reader(path)
    try:
        for i, el in enumerate(root):
            reader.element = i + 1
            move = _MOVE.match(el.tag)
            if move:
                reader.on_move(el, move[1], int(move[2]))
            elif el.tag == "INIT":
                done = reader.on_init(el)
                if done is not None:
                    yield as_item(done.net_sticks())
            elif el.tag in _HANDLERS:
                getattr(reader, _HANDLERS[el.tag])(el)
            elif el.tag not in _IGNORED:
                raise BadLog(BAD_XML, reader.where(el), "tag", "not an mjlog element")
    except BadLog as exc:
        yield ImportProblem(reader.element, _raw(path), exc.code, f"{path.name}: {exc}")
        return
    if reader.hand is not None:
        yield as_item(reader.hand.net_sticks())


def _raw(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""
