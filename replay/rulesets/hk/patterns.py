"""Hong Kong fan patterns: one small function per pattern id, and the fan tables as data.

The functions say only *whether and how often* a pattern applies (the rules files' "Exact
definition" column). What a pattern is worth, and which patterns another one includes, is
table data: ``hk-classic`` §5.3 (value sets ``section5`` / ``section6``) and ``hk-mahjongo``
§5.3 are three :class:`FanTable` rows lists over the same registry, so a variant is data,
not a copy of code.

Facts a pattern needs from the hand's history (self-drawn, kong replacement, last tile,
flowers, winds, heavenly/earthly hand) come in a frozen :class:`WinContext`, filled in by
the replay loop. A pattern function takes ``(HandFacts, SplitFacts)``: facts of the whole
hand, computed once per evaluation, and facts of one decomposition.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from mjaudit.parts.replay.rulesets.hk.options import HKOptions
from mjaudit.parts.replay.rulesets.mahjong.counts import (
    EAST,
    FIRST_BONUS,
    NORTH,
    RED,
    TERMINALS,
    bonus_number,
)
from mjaudit.parts.replay.rulesets.mahjong.decompose import Structure, winning_tiles
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, WinSource


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything scoring needs about one declared win, as ints.

    * ``concealed``: the winner's concealed tiles *before* the winning tile
      (13 − 3 × len(melds) of them; a heavenly hand puts 13 here and the 14th in
      ``win_tile``).
    * ``melds``: declared sets (exposed melds and concealed kongs).
    * ``seat_wind`` / ``prevailing_wind``: 0..3 = E S W N.
    * ``flowers``: bonus tiles the winner exposed (tile ints 34..41).
    * ``kong_replacement_chain``: 0 unless the winning tile is the replacement drawn after
      the winner's own kong; then the number of kongs declared back to back in this turn
      (1 = one kong, ≥ 2 = hk-mahjongo ``consecutive_kong_win``). A replacement after a
      bonus tile is 0.
    * ``last_tile``: the winning tile is the last drawable tile (self-drawn), or the discard
      made after it was drawn.
    * ``heavenly`` / ``earthly``: the replay loop decided the timing conditions of rows
      ``heavenly_hand`` / ``earthly_hand``.
    """

    concealed: tuple[int, ...]
    win_tile: int
    source: WinSource
    melds: tuple[Meld, ...] = ()
    seat_wind: int = 0
    prevailing_wind: int = 0
    flowers: tuple[int, ...] = ()
    kong_replacement_chain: int = 0
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False

    @property
    def self_drawn(self) -> bool:
        return self.source is WinSource.SELF_DRAW


class HandFacts(NamedTuple):
    """Facts of the whole winning hand that no decomposition changes."""

    ctx: WinContext
    opts: HKOptions
    table: FanTable
    counts: tuple[int, ...]  # all 34 kinds, concealed + winning tile + melds (kong = 4)
    suits: int  # bit 0 m, bit 1 p, bit 2 s, bit 3 honours
    n_exposed: int
    n_concealed_kongs: int
    n_kongs: int
    self_drawn: bool
    seat_tile: int
    prevailing_tile: int
    bits: int  # the facts bits (SELF_DRAWN, ...) this hand has


class SplitFacts(NamedTuple):
    """One decomposition, declared melds merged in."""

    structure: Structure
    pair: int
    chows: tuple[int, ...]  # lowest tile of every chow
    pungs: tuple[int, ...]  # tile of every pung or kong
    concealed_pungs: int  # pungs/kongs that are concealed sets (rules §0)


PatternFn = Callable[[HandFacts, SplitFacts], int]
_REGISTRY: dict[str, PatternFn] = {}
#: Pattern id -> function returning how many times the pattern applies (0 = not at all).
REGISTRY: Mapping[str, PatternFn] = MappingProxyType(_REGISTRY)

# Facts of a whole hand, one bit each (``HandFacts.bits``), that some patterns need: a
# pattern registered with ``needs`` returns 0 whenever one of those bits is clear, so the
# evaluator calls only the patterns whose needs the hand meets (a few of the 25-30 rows).
SELF_DRAWN = 1 << 0
NOT_SELF_DRAWN = 1 << 1
NO_EXPOSED = 1 << 2  # no exposed meld (concealed kongs allowed)
FOUR_EXPOSED = 1 << 3
HONOURS = 1 << 4  # some honour tile
ONE_SUIT = 1 << 5  # the suit tiles are of one suit and there are no honours
NO_SIMPLES = 1 << 6  # no suit tile of rank 2-8
DRAGON_PUNG = 1 << 7  # three or four of some dragon
WIND_PUNG = 1 << 8  # three or four of some wind
KONG = 1 << 9  # some kong declared
KONG_REPLACEMENT = 1 << 10  # self-drawn on a kong replacement
ROBBED = 1 << 11
LAST_TILE = 1 << 12
HEAVENLY = 1 << 13
EARTHLY = 1 << 14
NO_MELDS = 1 << 15
NO_CHOW_MELD = 1 << 16
NO_PUNG_MELD = 1 << 17  # no pung or kong declared
FLOWERS = 1 << 18
NO_FLOWERS = 1 << 19
ORPHANS_SHAPE = 1 << 20  # the tiles form thirteen orphans
_NEEDS: dict[str, int] = {}
#: Pattern id -> the HandFacts bits it needs (0: none, it is always evaluated).
NEEDS: Mapping[str, int] = MappingProxyType(_NEEDS)


def pattern(pid: str, needs: int = 0) -> Callable[[PatternFn], PatternFn]:
    """Register a pattern under the id the rules files use; ``needs``: the facts bits
    without which it never applies (its docstring's definition implies them)."""

    def register(fn: PatternFn) -> PatternFn:
        if pid in _REGISTRY:
            raise ValueError(f"pattern {pid!r} registered twice")
        _REGISTRY[pid] = fn
        _NEEDS[pid] = needs
        return fn

    return register


_M, _P, _S, _H = 1, 2, 4, 8
_ONE_SUIT = frozenset({_M, _P, _S})


# ------------------------------------------------------------------ structure patterns


@pattern("all_chows", needs=NO_PUNG_MELD)
def all_chows(h: HandFacts, s: SplitFacts) -> int:
    """Four chows; the pair rule (``all_chows_pair_rule``) keeps value-honour pairs out."""
    if len(s.chows) != 4:
        return 0
    rule = h.opts.all_chows_pair_rule
    if rule == "any":
        return 1
    if rule == "seat_wind_only":  # the one case §4.6/6.2 states
        return s.pair != h.seat_tile
    return s.pair < RED and s.pair != h.seat_tile and s.pair != h.prevailing_tile


@pattern("all_pungs", needs=NO_CHOW_MELD)
def all_pungs(h: HandFacts, s: SplitFacts) -> int:
    return len(s.pungs) == 4


@pattern("four_concealed_pungs", needs=NO_EXPOSED)
def four_concealed_pungs(h: HandFacts, s: SplitFacts) -> int:
    """Four concealed pungs. hk-classic also needs a self-draw and allows concealed kongs;
    hk-mahjongo allows no kong (option) but accepts a discard that completes the pair."""
    if len(s.pungs) != 4 or s.concealed_pungs != 4:
        return 0
    if h.n_kongs and not h.opts.four_concealed_pungs_allow_kongs:
        return 0
    return h.self_drawn or not h.table.four_concealed_pungs_self_draw_only


@pattern("terminals_honours_pungs", needs=HONOURS | NO_SIMPLES | NO_CHOW_MELD)
def terminals_honours_pungs(h: HandFacts, s: SplitFacts) -> int:
    """All pungs, only terminals and honours, at least one of each (pure cases are other rows)."""
    if len(s.pungs) != 4 or not h.suits & _H or h.suits == _H:
        return 0
    c = h.counts
    return sum(c[t] for t in TERMINALS) + sum(c[EAST:]) == 14 + h.n_kongs


@pattern("four_kongs", needs=KONG)
def four_kongs(h: HandFacts, s: SplitFacts) -> int:
    return h.n_kongs == 4


@pattern("thirteen_orphans", needs=ORPHANS_SHAPE)
def thirteen_orphans(h: HandFacts, s: SplitFacts) -> int:
    return s.structure is Structure.THIRTEEN_ORPHANS


# ------------------------------------------------------------------ honour patterns


# Honours cannot chow, so in every standard split an honour held 3 or 4 times is a pung
# (or kong) and one held twice is the pair: these rows read the counts, which is faster and
# the same for every split. Thirteen orphans holds no honour three times.


def _dragon_pungs(c: tuple[int, ...]) -> int:
    return (c[RED] >= 3) + (c[RED + 1] >= 3) + (c[RED + 2] >= 3)


def _wind_pungs(c: tuple[int, ...]) -> int:
    return (c[EAST] >= 3) + (c[EAST + 1] >= 3) + (c[EAST + 2] >= 3) + (c[NORTH] >= 3)


@pattern("dragon_pung", needs=DRAGON_PUNG)
def dragon_pung(h: HandFacts, s: SplitFacts) -> int:
    return _dragon_pungs(h.counts)


@pattern("seat_wind_pung", needs=WIND_PUNG)
def seat_wind_pung(h: HandFacts, s: SplitFacts) -> int:
    return h.counts[h.seat_tile] >= 3


@pattern("prevailing_wind_pung", needs=WIND_PUNG)
def prevailing_wind_pung(h: HandFacts, s: SplitFacts) -> int:
    return h.counts[h.prevailing_tile] >= 3


@pattern("little_three_dragons", needs=DRAGON_PUNG)
def little_three_dragons(h: HandFacts, s: SplitFacts) -> int:
    return s.pair >= RED and _dragon_pungs(h.counts) == 2


@pattern("big_three_dragons", needs=DRAGON_PUNG)
def big_three_dragons(h: HandFacts, s: SplitFacts) -> int:
    return _dragon_pungs(h.counts) == 3


@pattern("little_four_winds", needs=WIND_PUNG)
def little_four_winds(h: HandFacts, s: SplitFacts) -> int:
    return EAST <= s.pair <= NORTH and _wind_pungs(h.counts) == 3


@pattern("big_four_winds", needs=WIND_PUNG)
def big_four_winds(h: HandFacts, s: SplitFacts) -> int:
    return _wind_pungs(h.counts) == 4


# ------------------------------------------------------------------ tile-set patterns


@pattern("half_flush", needs=HONOURS)
def half_flush(h: HandFacts, s: SplitFacts) -> int:
    return (h.suits ^ _H) in _ONE_SUIT and bool(h.suits & _H)


@pattern("full_flush", needs=ONE_SUIT)
def full_flush(h: HandFacts, s: SplitFacts) -> int:
    return h.suits in _ONE_SUIT


@pattern("all_honours", needs=HONOURS)
def all_honours(h: HandFacts, s: SplitFacts) -> int:
    return h.suits == _H


@pattern("all_terminals", needs=NO_SIMPLES)
def all_terminals(h: HandFacts, s: SplitFacts) -> int:
    c = h.counts
    return not h.suits & _H and sum(c[t] for t in TERMINALS) == 14 + h.n_kongs


@pattern("nine_gates", needs=ONE_SUIT | NO_MELDS)
def nine_gates(h: HandFacts, s: SplitFacts) -> int:
    """1112345678999 plus one tile of the same suit, nothing declared; with
    ``nine_gates_pure_wait`` the 13 tiles before the win must be exactly that shape."""
    if h.ctx.melds or h.suits not in _ONE_SUIT:
        return 0
    base = (h.suits >> 1) * 9  # 1 -> 0, 2 -> 9, 4 -> 18
    c = h.counts[base : base + 9]
    if c[0] < 3 or c[8] < 3 or not all(c[1:8]):
        return 0
    if h.opts.nine_gates_pure_wait:
        before = list(c)
        before[h.ctx.win_tile - base] -= 1
        return before == [3, 1, 1, 1, 1, 1, 1, 1, 3]
    return 1


# ------------------------------------------------------------------ concealment and claims


@pattern("self_draw", needs=SELF_DRAWN)
def self_draw(h: HandFacts, s: SplitFacts) -> int:
    return h.self_drawn


@pattern("concealed_self_draw", needs=SELF_DRAWN | NO_EXPOSED)
def concealed_self_draw(h: HandFacts, s: SplitFacts) -> int:
    """bất cầu nhần: self-drawn with no exposed meld (concealed kongs allowed)."""
    return h.self_drawn and not h.n_exposed


@pattern("concealed_on_discard", needs=NOT_SELF_DRAWN | NO_EXPOSED)
def concealed_on_discard(h: HandFacts, s: SplitFacts) -> int:
    """hk-classic option ``concealed_on_discard_fan`` (public 門前清): the row-4 hand won on
    a discard or robbed tile instead of by self-draw."""
    return not h.self_drawn and not h.n_exposed


@pattern("concealed_hand", needs=NO_EXPOSED)
def concealed_hand(h: HandFacts, s: SplitFacts) -> int:
    """hk-mahjongo Bài kín: no exposed meld and, by default, no concealed kong (§5.2)."""
    if h.n_exposed:
        return 0
    return not (h.n_concealed_kongs and h.opts.concealed_kong_breaks_concealed_hand)


@pattern("fully_claimed", needs=FOUR_EXPOSED | NOT_SELF_DRAWN)
def fully_claimed(h: HandFacts, s: SplitFacts) -> int:
    """Four exposed melds and the pair completed by a discard or robbed tile."""
    return h.n_exposed == 4 and not h.self_drawn


# ------------------------------------------------------------------ how the win happened


@pattern("win_on_kong_replacement", needs=KONG_REPLACEMENT)
def win_on_kong_replacement(h: HandFacts, s: SplitFacts) -> int:
    return h.self_drawn and h.ctx.kong_replacement_chain >= 1


@pattern("consecutive_kong_win", needs=KONG_REPLACEMENT)
def consecutive_kong_win(h: HandFacts, s: SplitFacts) -> int:
    return h.self_drawn and h.ctx.kong_replacement_chain >= 2


@pattern("robbing_the_kong", needs=ROBBED)
def robbing_the_kong(h: HandFacts, s: SplitFacts) -> int:
    return h.ctx.source is WinSource.ROBBED_KONG


@pattern("last_tile_draw", needs=LAST_TILE | SELF_DRAWN)
def last_tile_draw(h: HandFacts, s: SplitFacts) -> int:
    return h.self_drawn and h.ctx.last_tile


@pattern("last_discard", needs=LAST_TILE | NOT_SELF_DRAWN)
def last_discard(h: HandFacts, s: SplitFacts) -> int:
    """Option ``last_discard_fan``: a win on the discard made after the last drawable tile."""
    return h.ctx.source is WinSource.DISCARD and h.ctx.last_tile


@pattern("heavenly_hand", needs=HEAVENLY)
def heavenly_hand(h: HandFacts, s: SplitFacts) -> int:
    return h.ctx.heavenly


@pattern("earthly_hand", needs=EARTHLY)
def earthly_hand(h: HandFacts, s: SplitFacts) -> int:
    return h.ctx.earthly


@lru_cache(maxsize=4096)
def _waits(concealed: tuple[int, ...], melds: tuple[Meld, ...]) -> tuple[int, ...]:
    c = [0] * 34
    seen = [0] * 34
    for t in concealed:
        c[t] += 1
    for m in melds:
        for t in m.tiles:
            seen[t] += 1
    return winning_tiles(c, len(melds), seen)


@pattern("single_wait", needs=SELF_DRAWN)
def single_wait(h: HandFacts, s: SplitFacts) -> int:
    """ù xuyên: self-drawn, and before the draw exactly one tile kind completed the hand
    (kinds whose four copies the winner already holds are not waits)."""
    if not h.self_drawn:
        return 0
    return _waits(h.ctx.concealed, h.ctx.melds) == (h.ctx.win_tile,)


# ------------------------------------------------------------------ bonus tiles (hk-classic)


def _full_groups(flowers: tuple[int, ...]) -> tuple[bool, bool]:
    have = set(flowers)
    f = all(FIRST_BONUS + i in have for i in range(4))
    g = all(FIRST_BONUS + 4 + i in have for i in range(4))
    return f, g


@pattern("seat_flower", needs=FLOWERS)
def seat_flower(h: HandFacts, s: SplitFacts) -> int:
    """One per bonus tile numbered like the seat; with ``flower_set_absorbs_seat_flower`` a
    tile inside a complete group is paid by ``flower_set`` alone."""
    if not h.ctx.flowers:
        return 0
    seat_no = h.ctx.seat_wind + 1
    mine = [t for t in h.ctx.flowers if bonus_number(t) == seat_no]
    if mine and h.opts.flower_set_absorbs_seat_flower:
        f, g = _full_groups(h.ctx.flowers)
        mine = [t for t in mine if not (f if t < FIRST_BONUS + 4 else g)]
    return len(mine)


@pattern("no_flowers", needs=NO_FLOWERS)
def no_flowers(h: HandFacts, s: SplitFacts) -> int:
    return not h.ctx.flowers


@pattern("flower_set", needs=FLOWERS)
def flower_set(h: HandFacts, s: SplitFacts) -> int:
    if len(h.ctx.flowers) < 4:
        return 0
    return sum(_full_groups(h.ctx.flowers))


# ------------------------------------------------------------------ fan tables (data)


@dataclass(frozen=True, slots=True)
class Row:
    """One fan-table row. ``value`` is fan per instance, or the name of the option holding
    it; ``includes`` are rows this one absorbs when both apply (§4.6 "incl." values)."""

    id: str
    value: int | str
    includes: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class FanTable:
    """A ruleset's fan table: rows in rules-file order plus the few structural differences
    between the files' definitions."""

    name: str
    rows: tuple[Row, ...]
    chicken_hand: bool  # hk-classic reports the 0-fan label; hk-mahjongo has no such row
    four_concealed_pungs_self_draw_only: bool
    thirteen_orphans_stacks: frozenset[str] | None  # None: every row may stack


BONUS_PATTERNS = frozenset({"seat_flower", "no_flowers", "flower_set"})

_CLASSIC_ROWS = (
    Row("all_chows", 1),
    Row("self_draw", 1),
    Row("concealed_self_draw", 1),
    Row("concealed_on_discard", "concealed_on_discard_fan"),
    Row("fully_claimed", 1),
    Row("seat_flower", 1),
    Row("no_flowers", 1),
    Row("flower_set", 2),
    Row("prevailing_wind_pung", 1),
    Row("seat_wind_pung", 1),
    Row("dragon_pung", 1),
    Row("win_on_kong_replacement", 1),
    Row("robbing_the_kong", 1),
    Row("last_tile_draw", 2),
    Row("last_discard", "last_discard_fan"),
    Row("all_pungs", 3),
    Row("half_flush", 3),
    Row("little_three_dragons", 3),
    Row("big_three_dragons", 6),
    Row("little_four_winds", 6),
    Row("full_flush", 6),
    Row("all_honours", 8),
    Row("big_four_winds", 8),
    Row("four_concealed_pungs", 8),
    Row("thirteen_orphans", 8),
    Row("heavenly_hand", 8),
    Row("earthly_hand", 8),
    Row("single_wait", 0),
)

_WINDS_IN = frozenset({"prevailing_wind_pung", "seat_wind_pung"})
_SECTION6 = {
    "self_draw": Row("self_draw", 0),
    "little_three_dragons": Row("little_three_dragons", 6, frozenset({"dragon_pung"})),
    "big_three_dragons": Row("big_three_dragons", 9, frozenset({"dragon_pung"})),
    "little_four_winds": Row("little_four_winds", 24, _WINDS_IN),
    "all_honours": Row("all_honours", 18, _WINDS_IN | {"dragon_pung", "all_pungs"}),
    "big_four_winds": Row("big_four_winds", 36, _WINDS_IN | {"all_pungs"}),
    "four_concealed_pungs": Row(
        "four_concealed_pungs", 18, frozenset({"concealed_self_draw", "all_pungs"})
    ),
    "thirteen_orphans": Row("thirteen_orphans", 13, frozenset({"concealed_self_draw"})),
    "single_wait": Row("single_wait", 1),
}

# hk-classic row 24: thirteen orphans stacks with rows 3, 4, 6-8, 13, 14, 25, 26 (and the
# option variants of rows 4 and 14).
_CLASSIC_13_STACKS = frozenset(
    {
        "thirteen_orphans",
        "self_draw",
        "concealed_self_draw",
        "concealed_on_discard",
        "seat_flower",
        "no_flowers",
        "flower_set",
        "robbing_the_kong",
        "last_tile_draw",
        "last_discard",
        "heavenly_hand",
        "earthly_hand",
    }
)

CLASSIC_SECTION5 = FanTable("hk-classic/section5", _CLASSIC_ROWS, True, True, _CLASSIC_13_STACKS)
CLASSIC_SECTION6 = FanTable(
    "hk-classic/section6",
    tuple(_SECTION6.get(r.id, r) for r in _CLASSIC_ROWS),
    True,
    True,
    _CLASSIC_13_STACKS,
)
MAHJONGO = FanTable(
    "hk-mahjongo",
    (
        Row("all_chows", 1),
        Row("concealed_hand", 1),
        Row("self_draw", 1),
        Row("dragon_pung", 1),
        Row("seat_wind_pung", 1),
        Row("prevailing_wind_pung", 1),
        Row("terminals_honours_pungs", 1),
        Row("robbing_the_kong", 1),
        Row("win_on_kong_replacement", 1),
        Row("last_tile_draw", 1),
        Row("last_discard", "last_discard_fan"),
        Row("half_flush", 3),
        Row("all_pungs", 3),
        Row("little_three_dragons", 3),
        Row("big_three_dragons", 5),
        Row("full_flush", 7),
        Row("all_honours", 10),
        Row("little_four_winds", 10),
        Row("big_four_winds", 10),
        Row("four_concealed_pungs", 10),
        Row("four_kongs", 10),
        Row("all_terminals", 10),
        Row("heavenly_hand", 10),
        Row("earthly_hand", 10),
        Row("thirteen_orphans", 10),
        Row("consecutive_kong_win", 10),
        Row("nine_gates", 10),
    ),
    False,
    False,
    None,
)

FAN_TABLES: Mapping[str, FanTable] = MappingProxyType(
    {t.name: t for t in (CLASSIC_SECTION5, CLASSIC_SECTION6, MAHJONGO)}
)


def fan_table(opts: HKOptions) -> FanTable:
    """The table the options select."""
    if opts.is_classic:
        return CLASSIC_SECTION6 if opts.fan_value_set == "section6" else CLASSIC_SECTION5
    return MAHJONGO


def _check_registry() -> None:
    """Every row names a registered pattern (fail at import, not mid-replay)."""
    for table in FAN_TABLES.values():
        for row in table.rows:
            if row.id not in _REGISTRY:
                raise RuntimeError(f"{table.name}: row {row.id!r} has no pattern function")


_check_registry()
