"""The ruleset ids a log may name, and what the log format needs to know about each.

Only the shape of a record depends on this (how many players, which tile codes, whether a
round wind is required). What the rules *are* lives in ``replay/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from mjaudit.parts.schemas.tiles import AMERICAN, CHAN, MAHJONG, RIICHI, VN160, TileSet


class Game(StrEnum):
    """Which family of game a ruleset belongs to, so statistics never mix them."""

    MAHJONG = "mahjong"
    CHAN = "chan"


@dataclass(frozen=True)
class RulesetShape:
    id: str
    game: Game
    tiles: TileSet
    min_players: int
    max_players: int
    needs_prevailing_wind: bool
    # The unit a win's value is counted in (the engine's Ruleset.unit, checked equal in
    # tests): here so that `mjaudit stats` labels its figures without importing engines.
    unit: str = "fan"


RULESETS: dict[str, RulesetShape] = {
    shape.id: shape
    for shape in (
        RulesetShape("hk-classic", Game.MAHJONG, MAHJONG, 4, 4, True),
        RulesetShape("hk-mahjongo", Game.MAHJONG, MAHJONG, 4, 4, True),
        RulesetShape("hk-mahjongo-2p", Game.MAHJONG, MAHJONG, 2, 2, True),
        RulesetShape("vn-160", Game.MAHJONG, VN160, 4, 4, True, "phán"),
        RulesetShape("american", Game.MAHJONG, AMERICAN, 4, 4, False, "card points"),
        RulesetShape("chan", Game.CHAN, CHAN, 2, 5, False, "điểm"),
        RulesetShape("riichi", Game.MAHJONG, RIICHI, 4, 4, True, "han"),
        # Results-only hands from Hong Kong club score sheets: no events, a `sheet` field.
        RulesetShape("hk-sheet", Game.MAHJONG, MAHJONG, 4, 4, False),
    )
}

RULESET_IDS: tuple[str, ...] = tuple(RULESETS)
