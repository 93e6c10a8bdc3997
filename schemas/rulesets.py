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
class OwnStats:
    """Statistics a family or a ruleset has of its own, so that ``mjaudit stats`` offers
    them without naming it: where the statistics layer computes them (``module:function``,
    imported only when they are asked for), the sentence ``stats --help`` says of them,
    and for a ruleset's, the option that asks for them and its help."""

    report: str  # e.g. "mjaudit.parts.dashboards.riichi_stats:riichi_report"
    about: str  # its sentence in the description of ``mjaudit stats``
    flag: str | None = None  # a ruleset's: "--riichi"; a family's: None (``--game``)
    help: str = ""  # the flag's help


@dataclass(frozen=True)
class GameTerms:
    """What statistics and the dashboard say differently for one family of games, so that
    no view or command tests a family's name: the facts and the words they print."""

    title: str  # the family in a sentence ("Chắn hands are counted with --game chan")
    label: str  # the family in the dashboard's Game selector
    # its wins score patterns in a unit of fan (fan, phán, han, card points): the mahjong
    # statistics; False: chắn's cước and điểm, statistics of their own
    scores_fan: bool
    deal_ins: bool  # a win can be on another player's discard, which "deals in"
    winds: bool  # its seats have winds
    points: str  # what scores are counted in ("Net points", "Net điểm")
    draws: str  # a hand that ended without a winner, as a headline figure
    own_draw: str  # a win on the winner's own draw, as a headline figure
    win_ways: tuple[str, str]  # the two ways to win: on one's own draw, and otherwise
    cards: bool = False  # it is played with cards, which views draw as cards, not tiles
    # statistics of its own instead of the shared ones; None: the shared ones
    own_stats: OwnStats | None = None


GAME_TERMS: dict[Game, GameTerms] = {
    Game.MAHJONG: GameTerms(
        "mahjong",
        "mahjong",
        scores_fan=True,
        deal_ins=True,
        winds=True,
        points="points",
        draws="Exhaustive draws",
        own_draw="Self-drawn",
        win_ways=("self-drawn", "on a discard"),
    ),
    Game.CHAN: GameTerms(
        "Chắn",
        "chắn",
        scores_fan=False,
        deal_ins=False,  # no win on a discard: a win is on one's own draw or a card eaten
        winds=False,
        points="điểm",
        draws="Draws (hòa)",
        own_draw="On own draw",
        win_ways=("on their own draw", "otherwise"),
        cards=True,
        own_stats=OwnStats(
            "mjaudit.parts.dashboards.chan_stats:chan_report",
            "Mahjong and Chắn are never mixed: `--game chan` gives the Chắn figures (wins, "
            "điểm won and paid, average score, violations by code).",
        ),
    ),
}

DEFAULT_GAME = Game.MAHJONG
"""The family statistics cover when none is chosen (and several are in the archive)."""


def game_terms(game: str | None) -> GameTerms:
    """The terms of a family by its name (``Filters.game``); none: :data:`DEFAULT_GAME`'s."""
    return GAME_TERMS[Game(game) if game else DEFAULT_GAME]


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
    # statistics of its hands of its own, beside the shared ones (``stats --riichi``)
    own_stats: OwnStats | None = None


RULESETS: dict[str, RulesetShape] = {
    shape.id: shape
    for shape in (
        RulesetShape("hk-classic", Game.MAHJONG, MAHJONG, 4, 4, True),
        RulesetShape("hk-mahjongo", Game.MAHJONG, MAHJONG, 4, 4, True),
        RulesetShape("hk-mahjongo-2p", Game.MAHJONG, MAHJONG, 2, 2, True),
        RulesetShape("vn-160", Game.MAHJONG, VN160, 4, 4, True, "phán"),
        RulesetShape("american", Game.MAHJONG, AMERICAN, 4, 4, False, "card points"),
        RulesetShape("chan", Game.CHAN, CHAN, 2, 5, False, "điểm"),
        RulesetShape(
            "riichi",
            Game.MAHJONG,
            RIICHI,
            4,
            4,
            True,
            "han",
            OwnStats(
                "mjaudit.parts.dashboards.riichi_stats:riichi_report",
                "Riichi hands get these shared figures (han as the value), and `--riichi` "
                "gives the riichi players' own, of the riichi hands: win, deal-in, riichi "
                "(hands with a riichi declaration), call (hands with an open call) and draw "
                "rates (exhaustive draws; abortive draws apart), average win in points and "
                "han, and the places at the games' ends the logs record (Tenhou XML owari, "
                "tenhou.net/6 sc, MJAI end_game scores).",
                "--riichi",
                "The riichi players' statistics of the riichi hands: win, deal-in, riichi, "
                "call and draw rates, average win in points and han, places at the games' ends.",
            ),
        ),
        # Results-only hands from Hong Kong club score sheets: no events, a `sheet` field.
        RulesetShape("hk-sheet", Game.MAHJONG, MAHJONG, 4, 4, False),
    )
}

RULESET_IDS: tuple[str, ...] = tuple(RULESETS)

OWN_FLAGS: dict[str, RulesetShape] = {
    s.own_stats.flag: s for s in RULESETS.values() if s.own_stats and s.own_stats.flag
}
"""The ``mjaudit stats`` options asking for a ruleset's own statistics, in ruleset order."""
