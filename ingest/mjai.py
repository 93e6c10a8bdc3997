"""MJAI JSON lines (Mortal, mjai-reviewer, RiichiEnv) as ``riichi`` hand records.

One event a line: ``start_game`` (names), ``start_kyoku`` (round, counters, scores, the
first dora indicator, the 13-tile hands), ``tsumo``/``dahai`` (a draw, a discard),
``chi``/``pon``/``daiminkan``/``ankan``/``kakan`` (calls, ``consumed`` the hand tiles),
``reach``/``reach_accepted``, ``dora``, ``hora`` (a win; ``deltas``, ``ura_markers``),
``ryukyoku`` (a draw; ``deltas``), ``end_kyoku``, ``end_game``. The winning tile of a
``hora`` without ``pai`` is the tile just drawn or discarded. A draw after a kan is the
replacement. Tiles: ``5mr`` is a red five (our ``0m``); the honours are E S W N, P
(white), F (green), C (red), as ours. A line that is not JSON is BAD_JSON, a missing or
bad field BAD_MJAI, each naming the line and the key.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
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
from mjaudit.parts.schemas.tiles import RIICHI, UnknownTile

BAD_MJAI = "BAD_MJAI"
BAD_JSON = "BAD_JSON"
_ROUND = {"E": 0, "S": 4, "W": 8, "N": 12}
_ABORTIVE = {
    "kyushukyuhai": "nine_terminals",
    "kyushu_kyuhai": "nine_terminals",
    "sufonrenda": "four_winds",
    "suufon_renda": "four_winds",
    "suuchariichi": "four_riichi",
    "suucha_riichi": "four_riichi",
    "sukaikan": "four_kans",
    "suukaikan": "four_kans",
    "sanchaho": "triple_ron",
    "sanchahou": "triple_ron",
}


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.game_id = game_id_of(path)
        self.players = ["A", "B", "C", "D"]
        self.hand: HandDraft | None = None
        self.hand_no = 0
        self.line = 0
        self.kong_by: int | None = None

    def get(self, ev: dict[str, Any], key: str) -> Any:
        if key not in ev:
            raise BadLog(BAD_MJAI, f"line {self.line} ({ev.get('type')})", key, "missing")
        return ev[key]

    def seat(self, ev: dict[str, Any], key: str = "actor") -> int:
        v = self.get(ev, key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 4:
            raise BadLog(
                BAD_MJAI, f"line {self.line} ({ev.get('type')})", key, f"{v!r} is not a seat 0-3"
            )
        return v

    def tile(self, ev: dict[str, Any], key: str, value: Any = None) -> str:
        v = self.get(ev, key) if value is None else value
        try:
            return RIICHI.normalize(v)
        except UnknownTile as exc:
            raise BadLog(BAD_MJAI, f"line {self.line} ({ev.get('type')})", key, str(exc)) from None

    def tiles(self, ev: dict[str, Any], key: str) -> list[str]:
        v = self.get(ev, key)
        if not isinstance(v, list):
            raise BadLog(
                BAD_MJAI, f"line {self.line} ({ev.get('type')})", key, "expected a list of tiles"
            )
        return [self.tile(ev, key, t) for t in v]

    def live(self, ev: dict[str, Any]) -> HandDraft:
        if self.hand is None:
            raise BadLog(
                BAD_MJAI, f"line {self.line} ({ev.get('type')})", "type", "before any start_kyoku"
            )
        return self.hand

    def deltas(self, ev: dict[str, Any], hand: HandDraft) -> None:
        d = ev.get("deltas")
        if d is None:
            hand.delta_known = False
            return
        if not isinstance(d, list) or len(d) != 4 or not all(isinstance(x, int) for x in d):
            raise BadLog(
                BAD_MJAI, f"line {self.line} ({ev.get('type')})", "deltas", "expected 4 integers"
            )
        hand.add_deltas(d)

    def on(self, ev: dict[str, Any]) -> HandDraft | None:
        kind = ev.get("type")
        if kind == "start_game":
            names = ev.get("names")
            if (
                isinstance(names, list)
                and len(names) == 4
                and all(isinstance(n, str) and n for n in names)
            ):
                self.players = names
            return None
        if kind == "start_kyoku":
            return self.start(ev)
        if kind == "end_game" and ev.get("scores") is not None and self.hand is not None:
            scores = ev["scores"]
            if not (
                isinstance(scores, list)
                and len(scores) == 4
                and all(isinstance(x, int) for x in scores)
            ):
                raise BadLog(
                    BAD_MJAI, f"line {self.line} (end_game)", "scores", "expected 4 scores"
                )
            self.hand.game_end = {"scores": [int(x) for x in scores]}  # the final scores
            return None
        if kind in ("end_kyoku", "end_game", "none"):
            return None
        hand = self.live(ev)
        events = hand.events
        if kind == "tsumo":
            seat = self.seat(ev)
            step = "replacement" if self.kong_by == seat else "draw"
            self.kong_by = None
            events.append({"type": step, "seat": seat, "tile": self.tile(ev, "pai")})
        elif kind == "dahai":
            events.append({"type": "discard", "seat": self.seat(ev), "tile": self.tile(ev, "pai")})
        elif kind in ("chi", "pon", "daiminkan"):
            seat, frm = self.seat(ev), self.seat(ev, "target")
            pai, used = self.tile(ev, "pai"), self.tiles(ev, "consumed")
            step = {"chi": "chow", "pon": "pung", "daiminkan": "kong"}[kind]
            out: dict[str, Any] = {"type": step, "seat": seat, "tile": pai, "from": frm}
            if step == "chow":
                out["tiles"] = sorted([pai, *used], key=tile_order)
            else:
                out["with"] = sorted(used, key=tile_order)
            if step == "kong":
                self.kong_by = seat
            events.append(out)
        elif kind == "ankan":
            seat, used = self.seat(ev), self.tiles(ev, "consumed")
            tile = sorted(used, key=tile_order)[-1]
            events.append(
                {
                    "type": "concealed_kong",
                    "seat": seat,
                    "tile": tile,
                    "with": sorted(used, key=tile_order),
                }
            )
            self.kong_by = seat
        elif kind == "kakan":
            seat = self.seat(ev)
            events.append({"type": "added_kong", "seat": seat, "tile": self.tile(ev, "pai")})
            self.kong_by = seat
        elif kind == "reach":
            events.append({"type": "riichi", "seat": self.seat(ev)})
        elif kind == "reach_accepted":
            hand.n_riichi[self.seat(ev)] += 1
        elif kind == "dora":
            events.append({"type": "dora", "tile": self.tile(ev, "dora_marker")})
        elif kind == "hora":
            self.hora(ev, hand)
        elif kind == "ryukyoku":
            reason = _ABORTIVE.get(str(ev.get("reason", "")).lower())
            if reason is not None:
                out = {"type": "abortive_draw", "reason": reason}
                if reason == "nine_terminals" and events:
                    out["seat"] = events[-1]["seat"]
                events.append(out)
            else:
                events.append({"type": "exhaustive_draw"})
            self.deltas(ev, hand)
        else:
            raise BadLog(BAD_MJAI, f"line {self.line}", "type", f"unknown MJAI event {kind!r}")
        return None

    def hora(self, ev: dict[str, Any], hand: HandDraft) -> None:
        seat, frm = self.seat(ev), self.seat(ev, "target")
        plays = [e for e in hand.events if e["type"] != "win"]
        if "pai" in ev:
            tile = self.tile(ev, "pai")
        elif plays and "tile" in plays[-1]:
            tile = plays[-1]["tile"]
        else:
            raise BadLog(
                BAD_MJAI, f"line {self.line} (hora)", "pai", "missing, and no tile was played"
            )
        out: dict[str, Any] = {"type": "win", "seat": seat, "tile": tile}
        if frm != seat:
            out["from"] = frm
            if plays and plays[-1]["type"] == "added_kong":
                out["robbed_kong"] = True
        ura = ev.get("ura_markers")
        if ura:
            out["ura"] = self.tiles(ev, "ura_markers")
        hand.events.append(out)
        win: dict[str, Any] = {"seat": seat}
        if frm != seat:
            win["from"] = frm
        for key in ("han", "fu"):
            if isinstance(ev.get(key), int):
                win[key] = ev[key]
        hand.wins.append(win)
        self.deltas(ev, hand)

    def start(self, ev: dict[str, Any]) -> HandDraft | None:
        done, self.hand = self.hand, None
        bakaze = self.get(ev, "bakaze")
        if bakaze not in _ROUND:
            raise BadLog(
                BAD_MJAI, f"line {self.line} (start_kyoku)", "bakaze", f"{bakaze!r} is not E S W N"
            )
        kyoku = self.get(ev, "kyoku")
        if not isinstance(kyoku, int) or not 1 <= kyoku <= 4:
            raise BadLog(BAD_MJAI, f"line {self.line} (start_kyoku)", "kyoku", "expected 1-4")
        hands = self.get(ev, "tehais")
        if not isinstance(hands, list) or len(hands) != 4:
            raise BadLog(BAD_MJAI, f"line {self.line} (start_kyoku)", "tehais", "expected 4 hands")
        start_hands = []
        for i, h in enumerate(hands):
            if not isinstance(h, list) or len(h) != 13:
                raise BadLog(
                    BAD_MJAI, f"line {self.line} (start_kyoku)", f"tehais[{i}]", "expected 13 tiles"
                )
            start_hands.append([self.tile(ev, f"tehais[{i}]", t) for t in h])
        scores = self.get(ev, "scores")
        if not isinstance(scores, list) or len(scores) != 4:
            raise BadLog(BAD_MJAI, f"line {self.line} (start_kyoku)", "scores", "expected 4 scores")
        self.hand_no += 1
        self.hand = HandDraft(
            game_id=self.game_id,
            hand_no=self.hand_no,
            players=self.players,
            dealer=self.seat(ev, "oya"),
            round_index=_ROUND[bakaze] + kyoku - 1,
            honba=int(ev.get("honba", 0)),
            sticks=int(ev.get("kyotaku", 0)),
            scores=list(scores),
            dora=[self.tile(ev, "dora_marker")],
            start_hands=start_hands,
            line=self.line,
        )
        self.kong_by = None
        return done


def read(path: Path) -> Iterator[ImportItem]:
    """The hands of one MJAI file; the first bad line is one problem naming the line and
    key, and the hands before it are kept."""
    reader = _Reader(path)
    try:
        with open(path, "rb") as f:
            for reader.line, raw in enumerate(f, 1):
                if not raw.strip():
                    continue
                try:
                    ev = json.loads(raw)
                except ValueError as exc:
                    yield ImportProblem(
                        reader.line, raw, BAD_JSON, f"{path.name}:{reader.line}: {exc}"
                    )
                    return
                if not isinstance(ev, dict):
                    yield ImportProblem(
                        reader.line, raw, BAD_MJAI, f"{path.name}:{reader.line}: not an object"
                    )
                    return
                done = reader.on(ev)
                if done is not None:
                    yield as_item(done.net_sticks())
    except BadLog as exc:
        yield ImportProblem(reader.line, b"", exc.code, f"{path.name}: {exc}")
        return
    if reader.hand is not None:
        yield as_item(reader.hand.net_sticks())
