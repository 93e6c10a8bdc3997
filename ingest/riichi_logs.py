"""What the three riichi log importers share: the hand being built, tile and yaku names.

Tenhou's mjlog XML, its tenhou.net/6 JSON form and MJAI JSON lines all describe a game
as a sequence of hands (kyoku). Each importer walks its own syntax and fills one
:class:`HandDraft` per hand, which becomes one ``mjlog/1`` record of ruleset ``riichi``
(docs/log-format.md#riichi): the deal, every action as events, and what the log
recorded as the hand's ``result`` (the score deltas, and the yaku, han and fu where the
log gives them), which the replay recomputes and compares. A file that cannot be read
becomes :class:`ImportProblem` items naming the file's element or line and the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjaudit.parts.ingest.sheets import SheetProblem, SheetRecord
from mjaudit.parts.schemas.tiles import WINDS

RULESET = "riichi"
FORMATS = ("tenhou-xml", "tenhou-json", "mjai")

# Tenhou's 34 kinds in order: 1-9m, 1-9p, 1-9s, E S W N, white, green, red (our P F C).
KINDS: tuple[str, ...] = (
    *(f"{n}{s}" for s in "mps" for n in range(1, 10)),
    *WINDS,
    "P",
    "F",
    "C",
)
RED_136 = {16: "0m", 52: "0p", 88: "0s"}  # the red five's 136-index in each suit

# Tenhou yaku numbers (the AGARI ``yaku``/``yakuman`` attributes) -> our pattern ids, which
# are the ``mahjong`` package's YakuConfig names (replay/rulesets/riichi/scoring.py).
TENHOU_YAKU: dict[int, str] = {
    0: "tsumo", 1: "riichi", 2: "ippatsu", 3: "chankan", 4: "rinshan", 5: "haitei",
    6: "houtei", 7: "pinfu", 8: "tanyao", 9: "iipeiko", 10: "seat_wind_east",
    11: "seat_wind_south", 12: "seat_wind_west", 13: "seat_wind_north",
    14: "round_wind_east", 15: "round_wind_south", 16: "round_wind_west",
    17: "round_wind_north", 18: "haku", 19: "hatsu", 20: "chun", 21: "daburu_riichi",
    22: "chiitoitsu", 23: "chantai", 24: "ittsu", 25: "sanshoku", 26: "sanshoku_douko",
    27: "sankantsu", 28: "toitoi", 29: "sanankou", 30: "shosangen", 31: "honroto",
    32: "ryanpeiko", 33: "junchan", 34: "honitsu", 35: "chinitsu", 36: "renhou",
    37: "tenhou", 38: "chiihou", 39: "daisangen", 40: "suuankou", 41: "suuankou_tanki",
    42: "tsuisou", 43: "ryuisou", 44: "chinroto", 45: "chuuren_poutou",
    46: "daburu_chuuren_poutou", 47: "kokushi", 48: "daburu_kokushi", 49: "daisuushi",
    50: "shosuushi", 51: "suukantsu", 52: "dora", 53: "ura_dora", 54: "aka_dora",
}  # fmt: skip


class BadLog(ValueError):
    """A log that cannot be read here: ``where`` is the element or line, ``field`` the
    attribute or key, the message says what was expected."""

    def __init__(self, code: str, where: str, fld: str, message: str) -> None:
        super().__init__(f"{where}, {fld}: {message}" if fld else f"{where}: {message}")
        self.code, self.where, self.field = code, where, fld


# A hand read, or a problem quarantined: the items the score-sheet reader yields too, so
# ingest adds both the same way (Ingestor.add_sheet_item).
ImportedRecord = SheetRecord
ImportProblem = SheetProblem
ImportItem = ImportedRecord | ImportProblem


def tile_136(t: int, red: bool = True) -> str:
    """A Tenhou 136-index (0-135) as our code; the red fives are 0m 0p 0s when played."""
    if red and t in RED_136:
        return RED_136[t]
    return KINDS[t // 4]


@dataclass
class HandDraft:
    """One hand (kyoku) as an importer reads it, before it becomes a record."""

    game_id: str
    hand_no: int
    players: list[str]
    dealer: int
    round_index: int  # 0 = East 1, 4 = South 1, ...
    honba: int
    sticks: int
    scores: list[int]
    dora: list[str]
    start_hands: list[list[str]]
    options: dict[str, Any] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    wins: list[dict[str, Any]] = field(default_factory=list)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    draw: dict[str, Any] | None = None
    game_end: dict[str, Any] | None = None
    n_riichi: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    delta_known: bool = True
    line: int = 0  # where the hand starts in its file (line, or element number)

    def add_deltas(self, deltas: list[int]) -> None:
        self.deltas = [a + b for a, b in zip(self.deltas, deltas, strict=True)]

    def net_sticks(self) -> HandDraft:
        """The logs' score changes give the sticks back to the winner but leave out the
        1,000 each riichi put down: the hand's change includes them."""
        self.deltas = [d - 1000 * n for d, n in zip(self.deltas, self.n_riichi, strict=True)]
        return self

    def record(self) -> dict[str, Any]:
        """The ``mjlog/1`` record; ``result.deltas`` include the riichi sticks put down."""
        out: dict[str, Any] = {
            "format": "mjlog/1",
            "game_id": self.game_id,
            "hand_no": self.hand_no,
            "ruleset": RULESET,
            "players": self.players,
            "dealer": self.dealer,
            "prevailing_wind": WINDS[(self.round_index // 4) % 4],
            "round": self.round_index,
            "honba": self.honba,
            "riichi_sticks": self.sticks,
            "scores": self.scores,
            "dora": self.dora,
            "start_hands": self.start_hands,
            "events": self.events,
        }
        if self.options:
            out["options"] = self.options
        result: dict[str, Any] = {"winners": sorted({w["seat"] for w in self.wins})}
        if self.wins:
            if self.wins[0].get("han") is not None:
                result["fan"] = self.wins[0]["han"]
            if any(w.get("yaku") for w in self.wins):
                result["patterns"] = sorted({p for w in self.wins for p in w["yaku"]})
            result["wins"] = self.wins
        if self.delta_known:
            result["deltas"] = self.deltas
        if self.draw is not None:
            result["draw"] = self.draw
        if self.game_end is not None:
            result["game_end"] = self.game_end
        out["result"] = result
        return out


def as_item(draft: HandDraft) -> ImportedRecord:
    rec = draft.record()
    return ImportedRecord(draft.line, json.dumps(rec, ensure_ascii=False).encode(), rec)


def tile_order(code: str) -> tuple[int, int]:
    """Sort key of a tile code: by kind, a red five before the other fives."""
    from mjaudit.parts.replay.rulesets.riichi.tiles import TILE_INDEX

    return (TILE_INDEX[code], 0 if code[0] == "0" else 1)


def game_id_of(path: Path) -> str:
    """A game's id: the file's name without its suffix (Tenhou's log id, e.g.
    ``2010091009gm-00a9-0000-83af2648``, when the file keeps it)."""
    name = path.name
    for suffix in (".mjlog", ".xml", ".json", ".jsonl"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def sniff(path: Path) -> str | None:
    """The riichi format of a file by its first bytes, None if it is none of them."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<mjloggm") or (text.startswith(b"<?xml") and b"<mjloggm" in text):
        return "tenhou-xml"
    if text.startswith(b"{") and b'"log"' in text and (b'"name"' in text or b'"rule"' in text):
        return "tenhou-json"
    first = text.split(b"\n", 1)[0]
    if first.startswith(b"{") and b'"type"' in first and b'"start_game"' in first:
        return "mjai"
    return None


def whole_file_problem(path: Path, err: BadLog | Exception, code: str) -> ImportProblem:
    try:
        raw = path.read_bytes()
    except OSError:
        raw = b""
    return ImportProblem(1, raw, code, f"{path.name}: {err}")


def read(path: Path, fmt: str) -> Iterator[ImportItem]:
    """The hands of one riichi log file in ``fmt`` (one of :data:`FORMATS`)."""
    from importlib import import_module

    module = {"tenhou-xml": "tenhou_xml", "tenhou-json": "tenhou_json", "mjai": "mjai"}[fmt]
    yield from import_module(f"mjaudit.parts.ingest.{module}").read(path)
