"""Typed options for the Hong Kong rulesets, and their presets.

One frozen :class:`HKOptions` covers ``hk-classic``, ``hk-mahjongo`` and ``hk-mahjongo-2p``:
presets are instances, not copies of code (architecture "presets are option tables"). Each
ruleset accepts only the option names of its own §9 table, with its own allowed values, so
a log naming an option of the other ruleset is reported instead of silently ignored.

A few fields are not user options but ruleset facts kept here so every pure function needs
only ``(…, options)``: ``ruleset``, ``n_players``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from mjaudit.parts.replay.engine.options import Bad as _Bad
from mjaudit.parts.replay.engine.options import OptionError, Validator, overridden
from mjaudit.parts.replay.engine.options import boolean as _bool
from mjaudit.parts.replay.engine.options import choice as _choice
from mjaudit.parts.replay.engine.options import int_choice as _int_choice
from mjaudit.parts.replay.engine.options import int_range as _int_range
from mjaudit.parts.replay.engine.options import positive as _positive

Number = int | float
PaymentTable = str | tuple[Number, ...]
ScoreTable = str | tuple[tuple[Number, Number], ...]


@dataclass(frozen=True)
class HKOptions:
    """Every option of hk-classic §9 and hk-mahjongo §9 (union), with hk-classic defaults.

    Fields meaningful for one ruleset only keep a neutral value in the other preset, chosen
    so the shared scoring code needs no ruleset switch (e.g. hk-classic allows concealed
    kongs in four concealed pungs, which is ``four_concealed_pungs_allow_kongs = True``).
    """

    ruleset: str = "hk-classic"
    n_players: int = 4
    # wall and deal
    reserved_tail_tiles: int = 14
    dealer_initial_tiles: str = "either"
    # fan
    min_fan: int = 0
    min_fan_counts_bonus: bool = True
    fan_cap: int | None = 8
    fan_value_set: str = "section5"
    all_chows_pair_rule: str = "no_value_pair"
    concealed_on_discard_fan: int = 0
    flower_set_absorbs_seat_flower: bool = False
    last_discard_fan: int = 0
    concealed_kong_breaks_concealed_hand: bool = True
    four_concealed_pungs_allow_kongs: bool = True
    nine_gates_pure_wait: bool = False
    # payments
    payment_table: PaymentTable = "half_spicy"
    score_table: ScoreTable = "half_spicy_full_resp"
    golden_table: tuple[Number, ...] | None = None
    base_unit: Number = 1
    dealer_multiplier: int = 1
    robbing_kong_payment: str = "as_discard"
    multiple_winners: bool = False
    rob_concealed_kong_for_thirteen_orphans: bool = False
    dealer_on_draw: str = "stay"
    # liability and penalties
    nine_tile_warning: bool = True
    nine_tile_requires_declaration: bool = False
    nine_tile_counts_concealed_kongs: bool = False
    nine_tile_pays_on_half_flush: bool = False
    nine_tile_second_warning_exemption: str = "unconditional"
    last_five_tiles_penalty: bool = False
    last_five_threshold: int = 5
    concealed_kong_visible: bool = True
    false_win_penalty: str = "flat_64"
    false_win_effect: str = "end_hand"
    pao_enabled: bool = True
    pao_third_dragon: bool = False
    pao_fourth_wind: bool = False
    pao_twelve_tiles: bool = False
    pao_fourth_set: bool = False
    pao_fourth_set_counts_concealed_kongs: bool = True
    pao_on_self_draw: str = "liable_pays_all"
    pao_on_other_discard: str = "liable_pays_all"
    # audit
    draw_mismatch_policy: str = "hard_error"
    violations_are_hard_errors: bool = False
    two_player_seats: tuple[str, str] = ("E", "W")

    @property
    def is_classic(self) -> bool:
        return self.ruleset == "hk-classic"


HK_CLASSIC = HKOptions()

HK_MAHJONGO = dataclasses.replace(
    HK_CLASSIC,
    ruleset="hk-mahjongo",
    reserved_tail_tiles=0,
    min_fan=3,
    fan_cap=10,
    fan_value_set="mahjongo",
    all_chows_pair_rule="any",
    four_concealed_pungs_allow_kongs=False,
    nine_tile_warning=False,
    false_win_penalty="max_self_draw",
    pao_third_dragon=True,
    pao_fourth_set=True,
    pao_on_other_discard="discarder_pays",
)

HK_MAHJONGO_2P = dataclasses.replace(
    HK_MAHJONGO, ruleset="hk-mahjongo-2p", n_players=2, pao_enabled=False
)

PRESETS: Mapping[str, HKOptions] = MappingProxyType(
    {o.ruleset: o for o in (HK_CLASSIC, HK_MAHJONGO, HK_MAHJONGO_2P)}
)


# --------------------------------------------------------------------------- validation


def _is_positive_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and v > 0


def _fan_cap(v: object) -> object:
    if v is None or v == "none":
        return None
    if isinstance(v, int) and not isinstance(v, bool) and v in (8, 10, 13):
        return v
    raise _Bad("one of 8, 10, 13, 'none'")


def _number_list(v: object, length: int | None = None) -> tuple[Number, ...] | None:
    ok = isinstance(v, list | tuple) and v and all(_is_positive_number(x) for x in v)
    if ok and (length is None or len(v) == length):  # type: ignore[arg-type]
        return tuple(v)  # type: ignore[arg-type]
    return None


def _payment_table(v: object) -> object:
    if isinstance(v, str) and v in ("half_spicy", "spicy", "tiered"):
        return v
    table = _number_list(v)
    if table is not None:
        return table
    raise _Bad("'half_spicy', 'spicy', 'tiered' or a custom list of positive numbers M(0), M(1), …")


def _score_table(v: object) -> object:
    if isinstance(v, str) and v in ("half_spicy_full_resp", "spicy_full_resp"):
        return v
    if isinstance(v, list | tuple) and len(v) == 8:
        pairs = tuple(_number_list(p, 2) for p in v)
        if all(p is not None for p in pairs):
            return pairs
    raise _Bad(
        "'half_spicy_full_resp', 'spicy_full_resp' or a custom list of 8 [D, S] pairs for fan 3-10"
    )


def _golden_table(v: object) -> object:
    if v is None:
        return None
    table = _number_list(v, 8)
    if table is not None:
        return table
    raise _Bad("null (provisional G(f) = D(f)) or a list of 8 positive numbers for fan 3-10")


def _two_player_seats(v: object) -> object:
    if isinstance(v, list | tuple) and tuple(v) in (("E", "W"), ("E", "S")):
        return tuple(v)
    raise _Bad("['E', 'W'] or ['E', 'S']")


_FLAT = re.compile(r"flat_([1-9][0-9]*)\Z")


def _mahjongo_false_win(v: object) -> object:
    if isinstance(v, str) and (v in ("max_self_draw", "max_self_draw_total") or _FLAT.match(v)):
        return v
    raise _Bad("'max_self_draw', 'max_self_draw_total' or 'flat_N' (N a positive integer)")


def _dealer_initial_tiles(v: object) -> object:
    if v == 14 and not isinstance(v, bool):
        return "14"  # the §9 tables write the value bare, so a JSON 14 is accepted too
    if v in ("either", "14", "13+draw"):
        return v
    raise _Bad("'either', 14 or '13+draw'")


_STAY = _choice("stay", "rotate")
_EFFECT = _choice("end_hand", "continue_dead")
_DRAW_POLICY = _choice("hard_error", "wrong_position")
_ROB = _choice("as_discard", "konger_pays_all")
_EXEMPTION = _choice("unconditional", "holding_one_suit", "none")
_OTHER_DISCARD = _choice("discarder_pays", "liable_pays_all", "split_half")

# Nine-tile / last-five sub-options: hk-mahjongo §7.4 enables these rules "see hk-classic
# §7.2/§7.3", so their sub-options are accepted there too.
_NINE_TILE_AND_LAST_FIVE: dict[str, Validator] = {
    "nine_tile_warning": _bool,
    "nine_tile_requires_declaration": _bool,
    "nine_tile_counts_concealed_kongs": _bool,
    "nine_tile_pays_on_half_flush": _bool,
    "nine_tile_second_warning_exemption": _EXEMPTION,
    "last_five_tiles_penalty": _bool,
    "last_five_threshold": _int_range(1, 14),
    "concealed_kong_visible": _bool,
}

_CLASSIC: dict[str, Validator] = {
    "reserved_tail_tiles": _int_range(0, 14),
    "dealer_initial_tiles": _dealer_initial_tiles,
    "min_fan": _int_choice(0, 1, 2, 3),
    "min_fan_counts_bonus": _bool,
    "fan_cap": _fan_cap,
    "fan_value_set": _choice("section5", "section6"),
    "all_chows_pair_rule": _choice("no_value_pair", "seat_wind_only", "any"),
    "concealed_on_discard_fan": _int_choice(0, 1),
    "flower_set_absorbs_seat_flower": _bool,
    "last_discard_fan": _int_choice(0, 1, 2),
    "payment_table": _payment_table,
    "base_unit": _positive,
    "dealer_multiplier": _int_choice(1, 2),
    "robbing_kong_payment": _ROB,
    "multiple_winners": _bool,
    "rob_concealed_kong_for_thirteen_orphans": _bool,
    "dealer_on_draw": _STAY,
    **_NINE_TILE_AND_LAST_FIVE,
    "false_win_penalty": _choice("flat_64", "flat_32", "max_self_draw"),
    "false_win_effect": _EFFECT,
    "pao_third_dragon": _bool,
    "pao_fourth_wind": _bool,
    "pao_twelve_tiles": _bool,
    # Not in hk-classic §9: §7.5 says Pao works "as described for hk-mahjongo" while §6.2
    # says the Pao player pays the whole amount; the default follows §6.2.
    "pao_on_other_discard": _OTHER_DISCARD,
    "draw_mismatch_policy": _DRAW_POLICY,
    "violations_are_hard_errors": _bool,
}

_MAHJONGO: dict[str, Validator] = {
    "reserved_tail_tiles": _int_range(0, 14),
    "dealer_initial_tiles": _dealer_initial_tiles,
    "min_fan": _int_choice(3),  # fixed by the seed
    "fan_cap": _int_choice(10),  # fixed by the seed
    "all_chows_pair_rule": _choice("any", "no_value_pair"),
    "concealed_kong_breaks_concealed_hand": _bool,
    "four_concealed_pungs_allow_kongs": _bool,
    "last_discard_fan": _int_choice(0, 1),
    "nine_gates_pure_wait": _bool,
    "score_table": _score_table,
    "base_unit": _positive,
    "dealer_multiplier": _int_choice(1, 2),
    "robbing_kong_payment": _ROB,
    "multiple_winners": _bool,
    "rob_concealed_kong_for_thirteen_orphans": _bool,
    "dealer_on_draw": _STAY,
    "pao_enabled": _bool,
    "pao_third_dragon": _bool,
    "pao_fourth_set": _bool,
    "pao_fourth_set_counts_concealed_kongs": _bool,
    "pao_fourth_wind": _bool,
    "pao_on_self_draw": _choice("liable_pays_all"),
    "pao_on_other_discard": _OTHER_DISCARD,
    **_NINE_TILE_AND_LAST_FIVE,
    "false_win_penalty": _mahjongo_false_win,
    "false_win_effect": _EFFECT,
    "draw_mismatch_policy": _DRAW_POLICY,
    "violations_are_hard_errors": _bool,
}

_MAHJONGO_2P: dict[str, Validator] = {
    **_MAHJONGO,
    "two_player_seats": _two_player_seats,
    "golden_table": _golden_table,
}

OPTION_NAMES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "hk-classic": frozenset(_CLASSIC),
        "hk-mahjongo": frozenset(_MAHJONGO),
        "hk-mahjongo-2p": frozenset(_MAHJONGO_2P),
    }
)
_VALIDATORS = {"hk-classic": _CLASSIC, "hk-mahjongo": _MAHJONGO, "hk-mahjongo-2p": _MAHJONGO_2P}


def options_for(ruleset: str, overrides: Mapping[str, object] | None = None) -> HKOptions:
    """The preset of ``ruleset`` with ``overrides`` (a log's ``options`` object) applied.

    JSON lists are accepted where the rules allow a list and stored as tuples, so options
    stay hashable (the fan table resolved from them is cached per options value).
    Raises :class:`OptionError` naming the option and what was expected.
    """
    try:
        preset = PRESETS[ruleset]
        validators = _VALIDATORS[ruleset]
    except KeyError:
        known = ", ".join(PRESETS)
        raise OptionError(f"unknown ruleset {ruleset!r} (expected one of {known})") from None
    return overridden(preset, validators, overrides, ruleset)
