"""Hong Kong fan patterns: one small function per pattern id, and the fan tables as data.

The functions say only *whether and how often* a pattern applies (the rules files' "Exact
definition" column). What a pattern is worth, and which patterns another one includes, is
table data: ``hk-classic`` §5.3 (value sets ``section5`` / ``section6``) and ``hk-mahjongo``
§5.3 are three :class:`FanTable` rows lists over the same registry, so a variant is data,
not a copy of code.

Facts a pattern needs from the hand's history (self-drawn, kong replacement, last tile,
flowers, winds, heavenly/earthly hand) come in a frozen :class:`WinContext`, filled in by
the replay loop. A pattern function takes ``(HandFacts, SplitFacts)``: small facts of the
whole hand (bits and counts, computed once per evaluation from the tiles) and of one
decomposition. Because the facts are all a pattern reads, and there are few distinct
facts, the evaluator scores each distinct pair of facts once per fan table and reuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from mjaudit.parts.replay.rulesets.hk.options import HKOptions
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
    """Facts of the whole winning hand that no decomposition changes (tiles counted with
    the winning tile and the declared melds, a kong as four).

    ``bits`` holds only the bits the active fan table's patterns read (:data:`READS`), so
    hands that no row of the table tells apart have equal facts.
    """

    opts: HKOptions
    table: FanTable
    bits: int  # the facts bits (SELF_DRAWN, ...) this hand has
    dragon_pungs: int  # dragons held three or four times
    wind_pungs: int  # winds held three or four times
    seat_flowers: int  # bonus tiles numbered like the seat (0 if the table has no such row)
    seat_flowers_in_sets: int  # those of them inside a complete group f1-f4 or g1-g4
    flower_sets: int  # complete groups f1-f4, g1-g4


class SplitFacts(NamedTuple):
    """One decomposition, declared melds merged in."""

    four_chows: bool
    four_pungs: bool  # pungs or kongs
    four_concealed_pungs: bool  # four pungs/kongs, all concealed sets (rules §0)


PatternFn = Callable[[HandFacts, SplitFacts], int]
_REGISTRY: dict[str, PatternFn] = {}
#: Pattern id -> function returning how many times the pattern applies (0 = not at all).
REGISTRY: Mapping[str, PatternFn] = MappingProxyType(_REGISTRY)

# Facts of a whole hand, one bit each (``HandFacts.bits``): a pattern registered with
# ``needs`` returns 0 whenever one of those bits is clear, and reads no bits but its
# ``needs`` and ``reads``, so the evaluator keeps only those bits of the table's rows.
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
HALF_FLUSH = 1 << 15  # honours and the suit tiles of one suit (some of each)
ALL_HONOURS = 1 << 16  # honours only
CONCEALED_KONG = 1 << 17  # some concealed kong declared
FLOWERS = 1 << 18
NO_FLOWERS = 1 << 19
ORPHANS_SHAPE = 1 << 20  # the tiles form thirteen orphans
DISCARD = 1 << 21  # won on a discard (not a robbed kong)
SEAT_WIND_PUNG = 1 << 22  # three or four of the seat wind
PREVAILING_WIND_PUNG = 1 << 23
PAIR_DRAGON = 1 << 24  # the pair (thirteen orphans: the doubled tile) is a dragon
PAIR_WIND = 1 << 25
PAIR_SEAT_WIND = 1 << 26
PAIR_PREVAILING_WIND = 1 << 27
CONSECUTIVE_KONGS = 1 << 28  # self-drawn on the replacement of a second kong in a row
NINE_GATES = 1 << 29  # 1112345678999 plus one tile of the suit, nothing declared
PURE_NINE_GATES = 1 << 30  # ... and the 13 tiles before the win were exactly 1112345678999
# Self-drawn, and before the draw exactly one tile kind completed the hand (kinds whose
# four copies the winner already holds are not waits). Only set for a fan table that
# scores ``single_wait``: the waits are the one costly fact.
SINGLE_WAIT = 1 << 31
FOUR_KONGS = 1 << 32
_NEEDS: dict[str, int] = {}
_READS: dict[str, int] = {}
#: Pattern id -> the HandFacts bits it needs (0: none, it is always evaluated).
NEEDS: Mapping[str, int] = MappingProxyType(_NEEDS)
#: Pattern id -> every HandFacts bit it reads (its needs included).
READS: Mapping[str, int] = MappingProxyType(_READS)


def pattern(pid: str, needs: int = 0, reads: int = 0) -> Callable[[PatternFn], PatternFn]:
    """Register a pattern under the id the rules files use; ``needs``: the facts bits
    without which it never applies (its docstring's definition implies them); ``reads``:
    the other bits it reads."""

    def register(fn: PatternFn) -> PatternFn:
        if pid in _REGISTRY:
            raise ValueError(f"pattern {pid!r} registered twice")
        _REGISTRY[pid] = fn
        _NEEDS[pid] = needs
        _READS[pid] = needs | reads
        return fn

    return register


# ------------------------------------------------------------------ structure patterns


@pattern("all_chows", reads=PAIR_DRAGON | PAIR_SEAT_WIND | PAIR_PREVAILING_WIND)
def all_chows(h: HandFacts, s: SplitFacts) -> int:
    """Four chows; the pair rule (``all_chows_pair_rule``) keeps value-honour pairs out."""
    if not s.four_chows:
        return 0
    rule = h.opts.all_chows_pair_rule
    if rule == "any":
        return 1
    if rule == "seat_wind_only":  # the one case §4.6/6.2 states
        return not h.bits & PAIR_SEAT_WIND
    return not h.bits & (PAIR_DRAGON | PAIR_SEAT_WIND | PAIR_PREVAILING_WIND)


@pattern("all_pungs")
def all_pungs(h: HandFacts, s: SplitFacts) -> int:
    return s.four_pungs


@pattern("four_concealed_pungs", needs=NO_EXPOSED, reads=KONG | SELF_DRAWN)
def four_concealed_pungs(h: HandFacts, s: SplitFacts) -> int:
    """Four concealed pungs. hk-classic also needs a self-draw and allows concealed kongs;
    hk-mahjongo allows no kong (option) but accepts a discard that completes the pair."""
    if not s.four_concealed_pungs:
        return 0
    if h.bits & KONG and not h.opts.four_concealed_pungs_allow_kongs:
        return 0
    return bool(h.bits & SELF_DRAWN) or not h.table.four_concealed_pungs_self_draw_only


@pattern("terminals_honours_pungs", needs=HONOURS | NO_SIMPLES, reads=ALL_HONOURS)
def terminals_honours_pungs(h: HandFacts, s: SplitFacts) -> int:
    """All pungs, only terminals and honours, at least one of each (pure cases are other rows)."""
    if not s.four_pungs or h.bits & ALL_HONOURS:
        return 0
    return h.bits & (HONOURS | NO_SIMPLES) == HONOURS | NO_SIMPLES


@pattern("four_kongs", needs=FOUR_KONGS)
def four_kongs(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & FOUR_KONGS)


@pattern("thirteen_orphans", needs=ORPHANS_SHAPE)
def thirteen_orphans(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & ORPHANS_SHAPE)


# ------------------------------------------------------------------ honour patterns


# Honours cannot chow, so in every standard split an honour held 3 or 4 times is a pung
# (or kong) and one held twice is the pair: these facts come from the counts and are the
# same for every split. Thirteen orphans holds no honour three times.


@pattern("dragon_pung", needs=DRAGON_PUNG)
def dragon_pung(h: HandFacts, s: SplitFacts) -> int:
    return h.dragon_pungs


@pattern("seat_wind_pung", needs=SEAT_WIND_PUNG)
def seat_wind_pung(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & SEAT_WIND_PUNG)


@pattern("prevailing_wind_pung", needs=PREVAILING_WIND_PUNG)
def prevailing_wind_pung(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & PREVAILING_WIND_PUNG)


@pattern("little_three_dragons", needs=DRAGON_PUNG | PAIR_DRAGON)
def little_three_dragons(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & PAIR_DRAGON) and h.dragon_pungs == 2


@pattern("big_three_dragons", needs=DRAGON_PUNG)
def big_three_dragons(h: HandFacts, s: SplitFacts) -> int:
    return h.dragon_pungs == 3


@pattern("little_four_winds", needs=WIND_PUNG | PAIR_WIND)
def little_four_winds(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & PAIR_WIND) and h.wind_pungs == 3


@pattern("big_four_winds", needs=WIND_PUNG)
def big_four_winds(h: HandFacts, s: SplitFacts) -> int:
    return h.wind_pungs == 4


# ------------------------------------------------------------------ tile-set patterns


@pattern("half_flush", needs=HALF_FLUSH)
def half_flush(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & HALF_FLUSH)


@pattern("full_flush", needs=ONE_SUIT)
def full_flush(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & ONE_SUIT)


@pattern("all_honours", needs=ALL_HONOURS)
def all_honours(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & ALL_HONOURS)


@pattern("all_terminals", needs=NO_SIMPLES, reads=HONOURS)
def all_terminals(h: HandFacts, s: SplitFacts) -> int:
    return h.bits & (NO_SIMPLES | HONOURS) == NO_SIMPLES


@pattern("nine_gates", needs=NINE_GATES, reads=PURE_NINE_GATES)
def nine_gates(h: HandFacts, s: SplitFacts) -> int:
    """1112345678999 plus one tile of the same suit, nothing declared; with
    ``nine_gates_pure_wait`` the 13 tiles before the win must be exactly that shape."""
    if not h.bits & NINE_GATES:
        return 0
    if h.opts.nine_gates_pure_wait:
        return bool(h.bits & PURE_NINE_GATES)
    return 1


# ------------------------------------------------------------------ concealment and claims


@pattern("self_draw", needs=SELF_DRAWN)
def self_draw(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & SELF_DRAWN)


@pattern("concealed_self_draw", needs=SELF_DRAWN | NO_EXPOSED)
def concealed_self_draw(h: HandFacts, s: SplitFacts) -> int:
    """bất cầu nhần: self-drawn with no exposed meld (concealed kongs allowed)."""
    return h.bits & (SELF_DRAWN | NO_EXPOSED) == SELF_DRAWN | NO_EXPOSED


@pattern("concealed_on_discard", needs=NOT_SELF_DRAWN | NO_EXPOSED)
def concealed_on_discard(h: HandFacts, s: SplitFacts) -> int:
    """hk-classic option ``concealed_on_discard_fan`` (public 門前清): the row-4 hand won on
    a discard or robbed tile instead of by self-draw."""
    return h.bits & (NOT_SELF_DRAWN | NO_EXPOSED) == NOT_SELF_DRAWN | NO_EXPOSED


@pattern("concealed_hand", needs=NO_EXPOSED, reads=CONCEALED_KONG)
def concealed_hand(h: HandFacts, s: SplitFacts) -> int:
    """hk-mahjongo Bài kín: no exposed meld and, by default, no concealed kong (§5.2)."""
    if not h.bits & NO_EXPOSED:
        return 0
    return not (h.bits & CONCEALED_KONG and h.opts.concealed_kong_breaks_concealed_hand)


@pattern("fully_claimed", needs=FOUR_EXPOSED | NOT_SELF_DRAWN)
def fully_claimed(h: HandFacts, s: SplitFacts) -> int:
    """Four exposed melds and the pair completed by a discard or robbed tile."""
    return h.bits & (FOUR_EXPOSED | NOT_SELF_DRAWN) == FOUR_EXPOSED | NOT_SELF_DRAWN


# ------------------------------------------------------------------ how the win happened


@pattern("win_on_kong_replacement", needs=KONG_REPLACEMENT)
def win_on_kong_replacement(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & KONG_REPLACEMENT)


@pattern("consecutive_kong_win", needs=CONSECUTIVE_KONGS)
def consecutive_kong_win(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & CONSECUTIVE_KONGS)


@pattern("robbing_the_kong", needs=ROBBED)
def robbing_the_kong(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & ROBBED)


@pattern("last_tile_draw", needs=LAST_TILE | SELF_DRAWN)
def last_tile_draw(h: HandFacts, s: SplitFacts) -> int:
    return h.bits & (LAST_TILE | SELF_DRAWN) == LAST_TILE | SELF_DRAWN


@pattern("last_discard", needs=LAST_TILE | DISCARD)
def last_discard(h: HandFacts, s: SplitFacts) -> int:
    """Option ``last_discard_fan``: a win on the discard made after the last drawable tile."""
    return h.bits & (LAST_TILE | DISCARD) == LAST_TILE | DISCARD


@pattern("heavenly_hand", needs=HEAVENLY)
def heavenly_hand(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & HEAVENLY)


@pattern("earthly_hand", needs=EARTHLY)
def earthly_hand(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & EARTHLY)


@pattern("single_wait", needs=SINGLE_WAIT)
def single_wait(h: HandFacts, s: SplitFacts) -> int:
    """ù xuyên: self-drawn, and before the draw exactly one tile kind completed the hand
    (kinds whose four copies the winner already holds are not waits)."""
    return bool(h.bits & SINGLE_WAIT)


# ------------------------------------------------------------------ bonus tiles (hk-classic)


@pattern("seat_flower", needs=FLOWERS)
def seat_flower(h: HandFacts, s: SplitFacts) -> int:
    """One per bonus tile numbered like the seat; with ``flower_set_absorbs_seat_flower`` a
    tile inside a complete group is paid by ``flower_set`` alone."""
    if h.opts.flower_set_absorbs_seat_flower:
        return h.seat_flowers - h.seat_flowers_in_sets
    return h.seat_flowers


@pattern("no_flowers", needs=NO_FLOWERS)
def no_flowers(h: HandFacts, s: SplitFacts) -> int:
    return bool(h.bits & NO_FLOWERS)


@pattern("flower_set", needs=FLOWERS)
def flower_set(h: HandFacts, s: SplitFacts) -> int:
    return h.flower_sets


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
