"""A riichi win's value (yaku, han, fu, points) from the ``mahjong`` package.

We do not score riichi ourselves: :func:`value` hands the winning hand, its calls, the
dora indicators and the situation (riichi, ippatsu, the last tile, a robbed kan...) to
``mahjong.hand_calculating.hand.HandCalculator`` and names each yaku by our pattern id,
the package's ``YakuConfig`` attribute name (``riichi``, ``seat_wind_east``,
``daisangen``...), the ids the importers map Tenhou's yaku numbers to. Options are
Tenhou's: open tanyao, red fives, kazoe yakuman, no double yakuman, no kiriage mangan.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as LibMeld
from mjaudit.parts.replay.rulesets.riichi.tiles import to_136


@dataclass(frozen=True)
class CalledSet:
    """A declared set as the scorer needs it: ``kind`` chow/pung/kong/concealed_kong/
    added_kong and its tile codes, red fives included."""

    kind: str
    tiles: tuple[str, ...]


#: The situation flags a win can carry, by the name ``HandConfig`` takes them under
#: (``is_<flag>``): kept as names so the hand's facts pass to the package by that rule.
FLAGS = frozenset(
    {
        "tsumo",
        "riichi",  # riichi, not double riichi
        "daburu_riichi",  # double riichi
        "ippatsu",
        "rinshan",
        "chankan",
        "haitei",
        "houtei",
        "tenhou",
        "chiihou",
    }
)


@dataclass(frozen=True)
class Situation:
    """How the win came about: the winds (27-30) and the :data:`FLAGS` that hold."""

    seat_wind: int
    round_wind: int
    flags: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.flags <= FLAGS:
            raise ValueError(f"unknown situation flags {sorted(self.flags - FLAGS)}")


@dataclass(frozen=True)
class RiichiScore:
    han: int
    fu: int
    patterns: tuple[tuple[str, int], ...]  # (pattern id, han), sorted by id
    main: int  # ron: the discarder's payment; tsumo: the dealer's (each one's if dealer)
    additional: int  # tsumo by a non-dealer: each other player's payment
    yakuman: tuple[str, ...]

    @property
    def points(self) -> int:
        return self.main + 2 * self.additional if self.additional else self.main


@cache
def _yaku_ids() -> dict[type, str]:
    config = YakuConfig()
    return {type(v): k for k, v in vars(config).items() if hasattr(v, "yaku_id")}


#: Tenhou's rules that no option changes (the module docstring's list).
_TENHOU_RULES: dict[str, bool] = {
    "has_double_yakuman": False,
    "kiriage": False,
    "fu_for_open_pinfu": True,
    "fu_for_pinfu_tsumo": False,
}


@cache
def _rules(open_tanyao: bool, red_fives: bool) -> OptionalRules:
    return OptionalRules(has_open_tanyao=open_tanyao, has_aka_dora=red_fives, **_TENHOU_RULES)


_LIB_KIND = {
    "chow": LibMeld.CHI,
    "pung": LibMeld.PON,
    "kong": LibMeld.KAN,
    "concealed_kong": LibMeld.KAN,
    "added_kong": LibMeld.SHOUMINKAN,
}


def value(
    concealed: list[str],
    win_tile: str,
    calls: list[CalledSet],
    dora: list[str],
    ura: list[str],
    situation: Situation,
    *,
    open_tanyao: bool = True,
    red_fives: bool = True,
) -> RiichiScore | str:
    """The value of a win on ``win_tile`` (not in ``concealed``), or why it is no win
    (the package's reason: no yaku, hand not complete)."""
    meld_codes = [c for s in calls for c in s.tiles]
    ids = to_136([*meld_codes, *concealed, win_tile, *dora, *ura], red_fives)
    n_hand = len(meld_codes) + len(concealed) + 1
    tiles = ids[:n_hand]
    dora_ids, ura_ids = ids[n_hand : n_hand + len(dora)], ids[n_hand + len(dora) :]
    melds = []
    at = 0
    for s in calls:
        part = sorted(tiles[at : at + len(s.tiles)])
        at += len(s.tiles)
        melds.append(LibMeld(_LIB_KIND[s.kind], part, opened=s.kind != "concealed_kong"))
    config = HandConfig(
        **{f"is_{flag}": flag in situation.flags for flag in FLAGS},
        player_wind=situation.seat_wind,
        round_wind=situation.round_wind,
        options=_rules(open_tanyao, red_fives),
    )
    res = HandCalculator.estimate_hand_value(
        tiles,
        tiles[-1],
        melds=melds or None,
        dora_indicators=dora_ids or None,
        config=config,
        ura_dora_indicators=ura_ids or None,
    )
    if res.error is not None or res.cost is None:
        return str(res.error)
    names = _yaku_ids()
    is_open = any(s.kind != "concealed_kong" for s in calls)
    pats = []
    yakuman = []
    for y in res.yaku or ():
        pid = names.get(type(y), type(y).__name__.lower())
        han = y.han_open if is_open else y.han_closed
        if y.is_yakuman:
            yakuman.append(pid)
            han = 13
        if han:
            pats.append((pid, int(han)))
    return RiichiScore(
        han=int(res.han or 0),
        fu=int(res.fu or 0),
        patterns=tuple(sorted(pats)),
        main=int(res.cost["main"]),
        additional=int(res.cost["additional"]),
        yakuman=tuple(sorted(yakuman)),
    )
