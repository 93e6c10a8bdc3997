"""Typed options of ``vn-160`` (rules §10), with the documented defaults.

One frozen :class:`VNOptions`; a record's ``options`` object and the ``--option K=V``
overrides are validated against the §10 table by :func:`options_for`. The validators are
the Hong Kong ones (:mod:`replay.hk.options`), so both rulesets report a bad value in the
same words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.options import Bad as _Bad
from mjaudit.parts.replay.engine.options import (
    OptionError,
    Validator,
    option,
    overridden,
    validators,
)
from mjaudit.parts.replay.engine.options import boolean as _bool
from mjaudit.parts.replay.engine.options import choice as _choice
from mjaudit.parts.replay.engine.options import int_choice as _int_choice
from mjaudit.parts.replay.engine.options import int_range as _int_range

RULESET = "vn-160"

#: §5.3 default table: khung kind -> (base, +start, +seat, maximum). "+start": added when the
#: winner declared it in the initial phase; "+seat": its number equals the winner's seat
#: number. BT/RU get +1 for either ("or", capped at 3).
KhungValues = tuple[tuple[str, tuple[int, int, int, int]], ...]
DEFAULT_KHUNG_VALUES: KhungValues = (
    ("BT", (2, 1, 1, 3)),
    ("BP", (1, 0, 1, 2)),
    ("BS", (1, 0, 1, 2)),
    ("BM", (1, 0, 1, 2)),
    ("RH", (1, 0, 1, 2)),
    ("RU", (2, 1, 1, 3)),
    ("RD", (1, 0, 1, 2)),
    ("RW", (1, 0, 1, 2)),
)
DEFAULT_TONG_HOP_DAU = 9


def _int_min(lo: int) -> Validator:
    def check(v: object) -> object:
        if isinstance(v, int) and not isinstance(v, bool) and v >= lo:
            return v
        raise _Bad(f"an integer >= {lo}")

    return check


def _max_mun(v: object) -> object:
    if v is None or v == "none":
        return None
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1:
        return v
    raise _Bad("'none' or an integer >= 1")


def _false_win_penalty(v: object) -> object:
    # §10 writes the default as "64 each"; accept that spelling and a bare integer.
    if isinstance(v, str) and v.endswith(" each") and v[:-5].isdigit():
        return int(v[:-5])
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise _Bad("an integer >= 0 (units paid to each other player)")


_ENTRY_KEYS = ("base", "start", "seat", "max")


def _khung_values(v: object) -> object:
    """``{"BT": {"base": 2, "start": 1, "seat": 1, "max": 3}, ..., "tong_hop_dau": 9}``.

    Kinds left out keep their default row; lists ``[base, start, seat, max]`` are accepted.
    The pair value ``tong_hop_dau`` is split off by :func:`options_for`.
    """
    if not isinstance(v, Mapping):
        raise _Bad("an object {khung: {base, start, seat, max}, tong_hop_dau: N}")
    table = dict(DEFAULT_KHUNG_VALUES)
    for key, row in v.items():
        if key == "tong_hop_dau":
            continue
        if key not in table:
            raise _Bad(f"khung kinds {', '.join(table)} (got {key!r})")
        if isinstance(row, Mapping):
            vals = [row.get(k, d) for k, d in zip(_ENTRY_KEYS, table[key], strict=True)]
        elif isinstance(row, list | tuple) and len(row) == 4:
            vals = list(row)
        else:
            raise _Bad(f"{key}: an object with {', '.join(_ENTRY_KEYS)} or a list of 4 integers")
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in vals):
            raise _Bad(f"{key}: non-negative integers")
        table[key] = tuple(vals)  # type: ignore[assignment]
    return tuple(table.items())


@dataclass(frozen=True)
class VNOptions:
    """Every option of vn-160 §10; field names are the option names."""

    players: int = option(4, _int_choice(4))
    khung_sets: int = option(1, _int_choice(1, 2, 3))
    ru_domain: str = option("suit_tiles", _choice("suit_tiles", "any_tile"))
    dealer_on_draw: str = option("rotate", _choice("rotate", "stay"))
    reserved_tail_tiles: int = option(0, _int_range(0, 14))
    allow_bonus_discard: bool = option(False, _bool)
    bonus_deal_in_mun: int = option(1, _int_choice(0, 1))
    three_blue_khung_win: bool = option(False, _bool)
    three_red_khung_win: bool = option(False, _bool)
    multiple_winners: bool = option(False, _bool)
    rob_kong: bool = option(False, _bool)
    allow_pe_pe: bool = option(False, _bool)
    pe_pe_phan: int = option(3, _int_min(0))
    min_phan: int = option(0, _int_min(0))
    phinh_pair_rule: str = option(
        "not_seat_wind", _choice("not_seat_wind", "no_honour_pair", "any")
    )
    u_xuyen_self_draw_only: bool = option(True, _bool)
    khong_khung_counts_declared: bool = option(False, _bool)
    seat_flower_phan: int = option(1, _int_min(0))
    flower_set_phan: int = option(2, _int_min(0))
    rh_completes_flower_set: bool = option(True, _bool)
    rh_must_be_declared: bool = option(False, _bool)
    khung_values: KhungValues = option(DEFAULT_KHUNG_VALUES, _khung_values)
    tong_hop_dau_phan: int = DEFAULT_TONG_HOP_DAU
    thien_u_counts_self_drawn: bool = option(True, _bool)
    payout_curve: str = option("vn_doubling", _choice("vn_doubling", "mun_linear"))
    max_mun: int | None = option(None, _max_mun)
    cai_multiplier: int = option(2, _int_min(1))
    dealer_multiplier: int = option(1, _int_choice(1, 2))
    false_win_penalty: int = option(64, _false_win_penalty)
    false_win_effect: str = option("end_hand", _choice("end_hand", "continue_mat_u"))

    @property
    def ruleset(self) -> str:
        return RULESET

    def khung_value(self, base: str) -> tuple[int, int, int, int]:
        return dict(self.khung_values)[base]


VN160_DEFAULTS = VNOptions()


_VALIDATORS: dict[str, Validator] = validators(VNOptions)
OPTION_NAMES: frozenset[str] = frozenset(_VALIDATORS)


def options_for(overrides: Mapping[str, object] | None = None) -> VNOptions:
    """The §10 defaults with ``overrides`` applied; :class:`OptionError` names a bad one."""
    opts = overridden(VN160_DEFAULTS, _VALIDATORS, overrides, RULESET)
    value = (overrides or {}).get("khung_values")
    if isinstance(value, Mapping) and "tong_hop_dau" in value:
        pair = value["tong_hop_dau"]
        if not isinstance(pair, int) or isinstance(pair, bool) or pair < 0:
            raise OptionError(f"{RULESET} option 'khung_values': tong_hop_dau must be >= 0")
        opts = dataclasses.replace(opts, tong_hop_dau_phan=pair)
    return opts
