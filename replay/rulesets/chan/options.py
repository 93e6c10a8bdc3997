"""Typed options of ruleset ``chan`` (chan.md §12), with their defaults.

One frozen :class:`ChanOptions`; a log's ``options`` object and ``mjaudit check --option``
overrides are validated by :func:`options_for`, which names the option and what was
expected when a value is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.options import Bad as _Bad
from mjaudit.parts.replay.engine.options import (
    OptionError as OptionError,  # the engine's callers catch it here
)
from mjaudit.parts.replay.engine.options import (
    Validator,
    option,
    overridden,
    validators,
)
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


@dataclass(frozen=True)
class ChanOptions:
    """Every option of chan.md §12 with its default."""

    players: int = option(4, _players)
    red_cards: frozenset[str] = option(DEFAULT_RED, _red_cards)
    cai_cc_counts_as: int = option(1, _int())
    last_stock_card_dead: bool = option(True, _bool)
    thien_khai_must_expose: bool = option(False, _bool)
    continue_after_void_u: bool = option(False, _bool)
    enforcement: str = option("auto", _choice("auto", "reported_only"))
    stake: float = option(1, _positive)
    play_ga: bool = option(True, _bool)
    ga_points: int = option(5, _int(0))
    ga_u_bon_bach_thu: int = option(1, _int(0, 2))
    ga_thap_thanh: int = option(1, _int(0, 2))
    ga_kinh_tu_chi: int = option(1, _int(0, 2))
    ga_bach_dinh: int = option(1, _int(0, 2))
    ga_tam_do: int = option(1, _int(0, 2))
    ga_bach_thu_chi: int = option(1, _int(0, 2))
    ga_chi_bach_thu: int = option(1, _int(0, 2))
    ga_bach_dinh_needs_tom: bool = option(False, _bool)
    ga_tam_do_needs_leo: bool = option(False, _bool)
    dia_u_first_round_only: bool = option(False, _bool)
    extra_cuoc: tuple[ExtraCuoc, ...] = option((), _extra_cuoc)
    mode_4_11: bool = option(False, _bool)
    min_points_4_11: int = option(4, _int())
    penalty_4_11: int = option(11, _int())
    rule_an_ca_doi_cho: bool = option(True, _bool)
    an_ca_danh_ca_scope: str = option("any_rank", _choice("any_rank", "same_rank"))
    bo_an_chan_strict: bool = option(False, _bool)
    penalty_intentional: int = option(12, _int())
    penalty_intentional_with_ga: bool = option(False, _bool)
    den_lang_multiple: str = option("earliest", _choice("earliest", "each"))
    den_lang_basis_on_wrong_call: str = option(
        "auto_value", _choice("auto_value", "declared_valid")
    )

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


_VALIDATORS: dict[str, Validator] = validators(ChanOptions)
OPTION_NAMES: frozenset[str] = frozenset(_VALIDATORS)


def options_for(overrides: Mapping[str, object] | None = None) -> ChanOptions:
    """The defaults with ``overrides`` applied; raises :class:`OptionError`."""
    return overridden(DEFAULT, _VALIDATORS, overrides, "chan")
