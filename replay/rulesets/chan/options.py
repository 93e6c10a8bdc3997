"""Typed options of ruleset ``chan`` (chan.md §12), with their defaults.

One frozen :class:`ChanOptions`; a log's ``options`` object and ``mjaudit check --option``
overrides are validated by :func:`options_for`, which names the option and what was
expected when a value is wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.options import Bad as _Bad
from mjaudit.parts.replay.engine.options import (
    OptionError as OptionError,  # the engine's callers catch it here
)
from mjaudit.parts.replay.engine.options import Validator, checked_changes
from mjaudit.parts.replay.engine.options import boolean as _bool
from mjaudit.parts.replay.engine.options import choice as _choice
from mjaudit.parts.replay.engine.options import int_range as _int
from mjaudit.parts.replay.engine.options import positive as _positive
from mjaudit.parts.replay.rulesets.chan.cards import CARDS, DEFAULT_RED

GA_IDS: tuple[str, ...] = (
    "ga_u_bon_bach_thu",
    "ga_thap_thanh",
    "ga_kinh_tu_chi",
    "ga_bach_dinh",
    "ga_tam_do",
    "ga_bach_thu_chi",
    "ga_chi_bach_thu",
)


@dataclass(frozen=True)
class ExtraCuoc:
    """A regional cước enabled by ``extra_cuoc`` (§7.3): the user gives its điểm and dịch."""

    id: str
    diem: int
    dich: int


@dataclass(frozen=True)
class ChanOptions:
    """Every option of chan.md §12 with its default."""

    players: int = 4
    red_cards: frozenset[str] = DEFAULT_RED
    cai_cc_counts_as: int = 1
    last_stock_card_dead: bool = True
    thien_khai_must_expose: bool = False
    continue_after_void_u: bool = False
    enforcement: str = "auto"
    stake: float = 1
    play_ga: bool = True
    ga_points: int = 5
    ga_u_bon_bach_thu: int = 1
    ga_thap_thanh: int = 1
    ga_kinh_tu_chi: int = 1
    ga_bach_dinh: int = 1
    ga_tam_do: int = 1
    ga_bach_thu_chi: int = 1
    ga_chi_bach_thu: int = 1
    ga_bach_dinh_needs_tom: bool = False
    ga_tam_do_needs_leo: bool = False
    dia_u_first_round_only: bool = False
    extra_cuoc: tuple[ExtraCuoc, ...] = ()
    mode_4_11: bool = False
    min_points_4_11: int = 4
    penalty_4_11: int = 11
    rule_an_ca_doi_cho: bool = True
    an_ca_danh_ca_scope: str = "any_rank"
    bo_an_chan_strict: bool = False
    penalty_intentional: int = 12
    penalty_intentional_with_ga: bool = False
    den_lang_multiple: str = "earliest"
    den_lang_basis_on_wrong_call: str = "auto_value"

    @property
    def reported_only(self) -> bool:
        return self.enforcement == "reported_only"

    @property
    def intentional_penalty(self) -> int:
        """The "tám đỏ 2 lèo" penalty of errors 10-13 (§9 case E/H)."""
        return self.penalty_intentional + (
            self.ga_points if self.penalty_intentional_with_ga else 0
        )


DEFAULT = ChanOptions()


def _players(v: object) -> object:
    if isinstance(v, int) and not isinstance(v, bool) and v in (2, 3, 4):
        return v
    raise _Bad("2, 3 or 4")


def _red_cards(v: object) -> object:
    if isinstance(v, list | tuple | set | frozenset) and all(c in CARDS for c in v):
        return frozenset(v)  # type: ignore[arg-type]
    raise _Bad("a list of card codes (2v-9v, 2n-9n, 2s-9s, CC)")


def _extra_cuoc(v: object) -> object:
    if v is None or v == "none":
        return ()
    out = []
    if isinstance(v, list | tuple):
        for item in v:
            if isinstance(item, ExtraCuoc):
                out.append(item)
                continue
            if not isinstance(item, Mapping):
                break
            i, d, x = (
                item.get("id"),
                item.get("diem", item.get("điểm")),
                item.get("dich", item.get("dịch")),
            )
            if not (isinstance(i, str) and isinstance(d, int) and isinstance(x, int)):
                break
            out.append(ExtraCuoc(i, d, x))
        else:
            return tuple(out)
    raise _Bad('a list of {"id": str, "diem": int, "dich": int}')


_VALIDATORS: dict[str, Validator] = {
    "players": _players,
    "red_cards": _red_cards,
    "cai_cc_counts_as": _int(),
    "last_stock_card_dead": _bool,
    "thien_khai_must_expose": _bool,
    "continue_after_void_u": _bool,
    "enforcement": _choice("auto", "reported_only"),
    "stake": _positive,
    "play_ga": _bool,
    "ga_points": _int(0),
    **{g: _int(0, 2) for g in GA_IDS},
    "ga_bach_dinh_needs_tom": _bool,
    "ga_tam_do_needs_leo": _bool,
    "dia_u_first_round_only": _bool,
    "extra_cuoc": _extra_cuoc,
    "mode_4_11": _bool,
    "min_points_4_11": _int(),
    "penalty_4_11": _int(),
    "rule_an_ca_doi_cho": _bool,
    "an_ca_danh_ca_scope": _choice("any_rank", "same_rank"),
    "bo_an_chan_strict": _bool,
    "penalty_intentional": _int(),
    "penalty_intentional_with_ga": _bool,
    "den_lang_multiple": _choice("earliest", "each"),
    "den_lang_basis_on_wrong_call": _choice("auto_value", "declared_valid"),
}
OPTION_NAMES: frozenset[str] = frozenset(_VALIDATORS)


def options_for(overrides: Mapping[str, object] | None = None) -> ChanOptions:
    """The defaults with ``overrides`` applied; raises :class:`OptionError`."""
    if not overrides:
        return DEFAULT
    changes = checked_changes(_VALIDATORS, overrides, "chan")
    return dataclasses.replace(DEFAULT, **changes)  # type: ignore[arg-type]
