"""Fan evaluation and settlement for the Hong Kong rulesets: pure functions of their inputs.

``evaluate`` follows the evaluation order both rules files give (hk-classic §5.3,
hk-mahjongo §5.3): list every decomposition, add the applicable rows of the active table,
keep the highest raw fan, cap it, check the minimum. ``settle`` turns the capped fan into
per-seat deltas (§6 of each file), including the liability settlements (nine-tile,
last-five, Pao) once the replay loop has decided *who* is liable.

Speed (issue 24): the tiles are read as one packed int (``mahjong.packed``) whose suit and
honour fields are looked up whole in tables built once per shape; the few facts patterns
read are computed from those entries and the melds; and since a split's score is a pure
function of its facts and the options, it is computed once per distinct facts and table
(a few hundred of them) and looked up after that, so the pattern functions run only for
facts never seen before.
"""

from __future__ import annotations

from functools import partial
from itertools import product
from typing import NamedTuple

from mjaudit.parts.replay.rulesets.hk import patterns as P
from mjaudit.parts.replay.rulesets.hk.options import HKOptions, Number
from mjaudit.parts.replay.rulesets.hk.patterns import (
    BONUS_PATTERNS,
    NEEDS,
    REGISTRY,
    FanTable,
    HandFacts,
    PatternFn,
    SplitFacts,
    WinContext,
    WinSource,
    fan_table,
)
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, FIRST_BONUS, RED, bonus_number
from mjaudit.parts.replay.rulesets.mahjong.decompose import Decomposition, Structure
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind
from mjaudit.parts.replay.rulesets.mahjong.packed import (
    FIELD,
    HONOUR_GROUPS,
    HONOUR_SHIFT,
    PURE_NINE_GATES,
    SUIT_GROUPS,
    THIRTEEN_ORPHANS,
    WEIGHT,
    honour_group,
    suit_group,
    waits,
)

__all__ = [
    "HandScore",
    "WinContext",
    "WinSource",
    "base_points",
    "discard_amount",
    "evaluate",
    "evaluate_all",
    "false_win_deltas",
    "golden_amount",
    "score_decomposition",
    "self_draw_amount",
    "settle",
]


class HandScore(NamedTuple):
    """The scored best decomposition of a win (a frozen value; a NamedTuple because one is
    built per evaluation, and a tuple is built in C).

    ``patterns`` are (id, fan) in table order, one entry per id with the fan of all its
    instances, 0-fan rows left out except ``chicken_hand``; ``instances`` repeats an id once
    per instance (``dragon_pung`` × 3), the multiset the audit compares (checklist #44/#40).
    ``min_fan_basis`` is the capped fan the ``min_fan`` check uses (bonus-tile fan left out
    when hk-classic ``min_fan_counts_bonus`` is false).
    """

    patterns: tuple[tuple[str, int], ...]
    instances: tuple[str, ...]
    raw_fan: int
    fan: int
    is_limit: bool
    bonus_fan: int
    min_fan_basis: int
    meets_min_fan: bool
    structure: Structure
    decomposition: Decomposition


# ------------------------------------------------------------------ resolved tables


_ResolvedRow = tuple[str, PatternFn, int, frozenset[str]]
# A split's score but its structure and decomposition (the first eight HandScore fields),
# and its rank among the splits of one hand: (-raw fan, (id, fan) of the rows it scores).
_Scored = tuple[tuple[object, ...], tuple[int, tuple[tuple[str, int], ...]]]
# HandFacts after (opts, table), then SplitFacts: what a split's score depends on.
_FactsKey = tuple[object, ...]


class _Resolved(NamedTuple):
    opts: HKOptions
    table: FanTable
    rows: tuple[_ResolvedRow, ...]  # value > 0 only
    rows_13: tuple[_ResolvedRow, ...]  # the rows that stack with thirteen orphans
    has_includes: bool
    waits: bool  # the table scores single_wait, so the waits are computed
    flowers: bool  # the table scores seat_flower or flower_set, so their facts are
    scores: dict[_FactsKey, _Scored]  # filled as facts are seen


_RESOLVED: dict[int, tuple[HKOptions, _Resolved]] = {}
_MAX_SCORES = 1 << 16  # distinct facts per table kept (a few hundred in practice)


def _resolve(opts: HKOptions) -> _Resolved:
    """Rows with their option-dependent values, cached per options object.

    Keyed by identity, not by hash: hashing ~50 option fields costs more than a whole
    evaluation, and the replay loop keeps one options object per hand.
    """
    hit = _RESOLVED.get(id(opts))
    if hit is not None and hit[0] is opts:
        return hit[1]
    table = fan_table(opts)
    rows = []
    for row in table.rows:
        value = row.value if isinstance(row.value, int) else getattr(opts, row.value)
        if value:
            rows.append((row.id, REGISTRY[row.id], value, row.includes))
    stacks = table.thirteen_orphans_stacks
    rows_13 = rows if stacks is None else [r for r in rows if r[0] in stacks]
    ids = {r[0] for r in rows}
    resolved = _Resolved(
        opts,
        table,
        tuple(rows),
        tuple(rows_13),
        any(r[3] for r in rows),
        "single_wait" in ids,
        bool(ids & {"seat_flower", "flower_set"}),
        {},
    )
    if len(_RESOLVED) > 256:
        _RESOLVED.clear()
    _RESOLVED[id(opts)] = (opts, resolved)
    return resolved


# ------------------------------------------------------------------ facts

_CHOW, _PUNG, _CONCEALED_KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG
_SELF_DRAW, _ROBBED_KONG = WinSource.SELF_DRAW, WinSource.ROBBED_KONG
_THIRTEEN, _STANDARD = Structure.THIRTEEN_ORPHANS, Structure.STANDARD
_M_GROUPS, _P_GROUPS, _S_GROUPS = SUIT_GROUPS
_WEIGHT = WEIGHT.__getitem__
# Tile -> its HandFacts.suits bit; and whether it is a suit tile of rank 2-8.
_SUIT_BIT = tuple(8 if t >= EAST else 1 << t // 9 for t in range(34))
_SIMPLE = tuple(t < EAST and 0 < t % 9 < 8 for t in range(34))
_POPCOUNT = tuple(bin(i).count("1") for i in range(16))
_ONE_SUIT = (0, 1, 1, 0, 1, 0, 0, 0)  # suits (without honours) -> of one suit


class _Prepared(NamedTuple):
    facts: _FactsKey  # the HandFacts fields after (opts, table)
    decompositions: tuple[Decomposition, ...]
    n_meld_chows: int
    n_meld_pungs: int
    n_concealed_kongs: int
    discard_win: bool  # not self-drawn (a discard or a robbed kong)
    win_tile: int


# NamedTuples built from one tuple in C (their generated __new__ is a Python call).
_new_dec = partial(tuple.__new__, Decomposition)
_new_score = partial(tuple.__new__, HandScore)


def _flower_facts(ctx: WinContext) -> tuple[int, int, int]:
    """(seat flowers, those inside a complete group, complete groups) of ``ctx.flowers``."""
    flowers = ctx.flowers
    seat_no = ctx.seat_wind + 1
    have = set(flowers)
    full_f = all(FIRST_BONUS + i in have for i in range(4))
    full_g = all(FIRST_BONUS + 4 + i in have for i in range(4))
    mine = [t for t in flowers if bonus_number(t) == seat_no]
    in_sets = sum(1 for t in mine if (full_f if t < FIRST_BONUS + 4 else full_g))
    return len(mine), in_sets, full_f + full_g


def _single_wait(ctx: WinContext, key: int) -> bool:
    """Before the draw (``key`` without the winning tile) only the winning tile's kind
    completed the hand, kinds whose four copies the winner holds (melds too) left out."""
    before = key - WEIGHT[ctx.win_tile]
    found = waits(before, len(ctx.melds))
    held = before
    for m in ctx.melds:
        for t in m.tiles:
            held += WEIGHT[t]
    rest = found
    while rest:
        low = rest & -rest
        rest ^= low
        if held >> 4 * (low.bit_length() - 1) & 15 >= 4:
            found ^= low
    return found == 1 << ctx.win_tile


def _prepare(ctx: WinContext, r: _Resolved) -> _Prepared | None:
    """The hand's facts and decompositions; None if the tiles form no §4 structure."""
    win = ctx.win_tile
    concealed = ctx.concealed
    key = sum(map(_WEIGHT, concealed), WEIGHT[win])
    melds = ctx.melds
    n_melds = len(melds)
    if len(concealed) != 13 - 3 * n_melds:
        return None
    field = key & FIELD
    pairs_m, splits_m, suit_m, simple_m, nine_m = _M_GROUPS.get(field) or suit_group(0, field)
    field = key >> 36 & FIELD
    pairs_p, splits_p, suit_p, simple_p, nine_p = _P_GROUPS.get(field) or suit_group(1, field)
    field = key >> 72 & FIELD
    pairs_s, splits_s, suit_s, simple_s, nine_s = _S_GROUPS.get(field) or suit_group(2, field)
    field = key >> HONOUR_SHIFT
    pairs_h, pair, honour_pungs, suits, dragons, winds = HONOUR_GROUPS.get(field) or honour_group(
        field
    )
    if pairs_m + pairs_p + pairs_s + pairs_h == 1:
        bits = 0
        if len(splits_m) == 1 and len(splits_p) == 1 and len(splits_s) == 1:
            (a,), (b,), (d,) = splits_m, splits_p, splits_s
            decs: tuple[Decomposition, ...] = (
                _new_dec(
                    (
                        _STANDARD,
                        max(pair, a[0], b[0], d[0]),
                        a[1] + b[1] + d[1],
                        a[2] + b[2] + d[2] + honour_pungs,
                    )
                ),
            )
        else:
            decs = tuple(
                [
                    _new_dec(
                        (
                            _STANDARD,
                            max(pair, a[0], b[0], d[0]),
                            a[1] + b[1] + d[1],
                            a[2] + b[2] + d[2] + honour_pungs,
                        )
                    )
                    for a, b, d in product(splits_m, splits_p, splits_s)
                ]
            )
    elif n_melds or (pair := THIRTEEN_ORPHANS.get(key, -1)) < 0:
        return None
    else:
        bits = P.ORPHANS_SHAPE
        decs = (_new_dec((_THIRTEEN, pair, (), ())),)
    suits |= suit_m | suit_p | suit_s
    simples = simple_m or simple_p or simple_s
    n_exposed = n_ckongs = n_kongs = n_chows = n_pungs = 0
    for m in melds:
        t = m.tile
        kind = m.kind
        if kind is _CHOW:
            n_chows += 1
            n_exposed += 1
            suits |= _SUIT_BIT[t]
            simples = True
            continue
        n_pungs += 1
        if kind is _PUNG:
            n_exposed += 1
        else:
            n_kongs += 1
            if kind is _CONCEALED_KONG:
                n_ckongs += 1
            else:
                n_exposed += 1
        if t >= EAST:
            suits |= 8
            if t >= RED:
                dragons += 1
            else:
                winds |= 1 << t - EAST
        else:
            suits |= _SUIT_BIT[t]
            if _SIMPLE[t]:
                simples = True
    source = ctx.source
    self_drawn = source is _SELF_DRAW
    if self_drawn:
        bits |= P.SELF_DRAWN
        chain = ctx.kong_replacement_chain
        if chain >= 1:
            bits |= P.KONG_REPLACEMENT if chain == 1 else P.KONG_REPLACEMENT | P.CONSECUTIVE_KONGS
    elif source is _ROBBED_KONG:
        bits |= P.NOT_SELF_DRAWN | P.ROBBED
    else:
        bits |= P.NOT_SELF_DRAWN | P.DISCARD
    if not n_exposed:
        bits |= P.NO_EXPOSED
    elif n_exposed == 4:
        bits |= P.FOUR_EXPOSED
    if suits & 8:
        bits |= P.HONOURS
        if dragons:
            bits |= P.DRAGON_PUNG
        if winds:
            bits |= P.WIND_PUNG
            if winds >> ctx.seat_wind & 1:
                bits |= P.SEAT_WIND_PUNG
            if winds >> ctx.prevailing_wind & 1:
                bits |= P.PREVAILING_WIND_PUNG
        if pair >= EAST:
            if pair >= RED:
                bits |= P.PAIR_DRAGON
            else:
                bits |= P.PAIR_WIND
                if pair == EAST + ctx.seat_wind:
                    bits |= P.PAIR_SEAT_WIND
                if pair == EAST + ctx.prevailing_wind:
                    bits |= P.PAIR_PREVAILING_WIND
    elif _ONE_SUIT[suits]:
        bits |= P.ONE_SUIT
        if not n_melds and (nine_m, nine_p, nine_s)[suits >> 1]:
            bits |= P.NINE_GATES
            if (key - WEIGHT[win]) >> 36 * (suits >> 1) & FIELD == PURE_NINE_GATES:
                bits |= P.PURE_NINE_GATES
    if not simples:
        bits |= P.NO_SIMPLES
    if n_kongs:
        bits |= P.KONG
    if ctx.last_tile:
        bits |= P.LAST_TILE
    if ctx.heavenly:
        bits |= P.HEAVENLY
    if ctx.earthly:
        bits |= P.EARTHLY
    if not n_melds:
        bits |= P.NO_MELDS | P.NO_CHOW_MELD | P.NO_PUNG_MELD
    else:
        if not n_chows:
            bits |= P.NO_CHOW_MELD
        if not n_pungs:
            bits |= P.NO_PUNG_MELD
    if ctx.flowers:
        bits |= P.FLOWERS
        seat_flowers, in_sets, flower_sets = _flower_facts(ctx) if r.flowers else (0, 0, 0)
    else:
        bits |= P.NO_FLOWERS
        seat_flowers = in_sets = flower_sets = 0
    if self_drawn and r.waits and _single_wait(ctx, key):
        bits |= P.SINGLE_WAIT
    facts = (
        bits,
        suits,
        n_exposed,
        n_ckongs,
        n_kongs,
        self_drawn,
        dragons,
        _POPCOUNT[winds],
        seat_flowers,
        in_sets,
        flower_sets,
    )
    return _new_prepared((facts, decs, n_chows, n_pungs, n_ckongs, not self_drawn, win))


_new_prepared = partial(tuple.__new__, _Prepared)


def _split(p: _Prepared, dec: Decomposition) -> tuple[int, int, int]:
    """The SplitFacts fields of one decomposition."""
    pungs = dec[3]
    concealed_pungs = len(pungs) + p[4]
    # The set a winning discard completes is not concealed (§0), unless the tile can sit in
    # a chow of this split instead, which is the reading that scores best.
    if p[5]:
        win = p[6]
        if win in pungs and not any([c <= win <= c + 2 for c in dec[2]]):
            concealed_pungs -= 1
    return (p[2] + len(dec[2]), p[3] + len(pungs), concealed_pungs)


# ------------------------------------------------------------------ scoring facts


_Hits = tuple[tuple[str, int, int], ...]  # (id, instances, fan)


def _hits(r: _Resolved, h: HandFacts, s: SplitFacts) -> _Hits:
    bits = h.bits
    rows = r.rows_13 if bits & P.ORPHANS_SHAPE else r.rows
    out = [
        (rid, int(n), n * value)
        for rid, fn, value, _ in rows
        if NEEDS[rid] & bits == NEEDS[rid] and (n := fn(h, s))
    ]
    if r.has_includes:
        absorbed: set[str] = set()
        for rid, _fn, _v, inc in r.rows:
            if inc and any(x[0] == rid for x in out):
                absorbed |= inc
        if absorbed:
            out = [x for x in out if x[0] not in absorbed]
    return tuple(out)


def _score_facts(r: _Resolved, facts: _FactsKey, split: tuple[int, int, int]) -> _Scored:
    """Score a split from its facts (the pattern functions run here, once per facts)."""
    opts = r.opts
    h = HandFacts(opts, r.table, *facts)  # type: ignore[arg-type]
    hits = _hits(r, h, SplitFacts(*split))
    raw = 0
    bonus = 0
    for rid, _n, fan in hits:
        raw += fan
        if rid in BONUS_PATTERNS:
            bonus += fan
    cap = opts.fan_cap
    fan = raw if cap is None or raw < cap else cap
    basis = fan
    if not opts.min_fan_counts_bonus and bonus:
        basis = raw - bonus if cap is None else min(raw - bonus, cap)
    patterns = tuple([(rid, f) for rid, _n, f in hits])
    rank = (-raw, patterns)
    instances = tuple([rid for rid, n, _f in hits for _ in range(n)])
    if raw == 0 and r.table.chicken_hand and not h.bits & P.ORPHANS_SHAPE:
        patterns = (("chicken_hand", 0),)
        instances = ("chicken_hand",)
    limit = cap is not None and raw >= cap
    return ((patterns, instances, raw, fan, limit, bonus, basis, basis >= opts.min_fan), rank)


def _scored(r: _Resolved, p: _Prepared, dec: Decomposition) -> _Scored:
    split = _split(p, dec)
    key = (p[0], split)
    hit = r.scores.get(key)
    if hit is None:
        hit = _score_facts(r, p[0], split)
        if len(r.scores) >= _MAX_SCORES:
            r.scores.clear()
        r.scores[key] = hit
    return hit


# ------------------------------------------------------------------ evaluation


def evaluate(ctx: WinContext, opts: HKOptions) -> HandScore | None:
    """Score a declared win; None if the tiles form no §4 structure (``WIN_HAND_INCOMPLETE``).

    The best decomposition is the one with the highest raw fan (both files, §4). Ties are
    broken by the pattern list, then by the decomposition, so equal hands always report
    the same patterns whatever order the splits were found in.
    """
    r = _resolve(opts)
    p = _prepare(ctx, r)
    if p is None:
        return None
    decs = p[1]
    if len(decs) == 1:
        dec = decs[0]
        return _new_score(_scored(r, p, dec)[0] + (dec[0], dec))
    best: tuple[object, ...] | None = None
    for dec in decs:
        fields, rank = _scored(r, p, dec)
        key = (rank, (dec[1], dec[2], dec[3]), fields, dec)
        if best is None or key < best:
            best = key
    assert best is not None
    dec = best[3]
    return _new_score(best[2] + (dec[0], dec))  # type: ignore[operator]


def evaluate_all(ctx: WinContext, opts: HKOptions) -> tuple[HandScore, ...]:
    """One score per decomposition, best first (for the replayer's "other readings" view)."""
    r = _resolve(opts)
    p = _prepare(ctx, r)
    if p is None:
        return ()
    ranked = sorted(
        ((_scored(r, p, d), d) for d in p.decompositions),
        key=lambda sd: (sd[0][1], (sd[1].pair, sd[1].chows, sd[1].pungs)),
    )
    return tuple(_new_score(s[0] + (d.structure, d)) for s, d in ranked)


def score_decomposition(ctx: WinContext, opts: HKOptions, dec: Decomposition) -> HandScore:
    """Score one given decomposition of the concealed tiles (it is not re-checked)."""
    r = _resolve(opts)
    p = _prepare(ctx, r)
    if p is None:
        raise ValueError("the hand forms no winning structure")
    return _new_score(_scored(r, p, dec)[0] + (dec.structure, dec))


# ------------------------------------------------------------------ points


def multiplier(fan: int, table: str) -> int:
    """M(f) of hk-classic §6.1 / hk-mahjongo §6.1 for a named table."""
    if table in ("half_spicy", "half_spicy_full_resp"):
        if fan <= 4:
            return 1 << fan
        if fan % 2 == 0:
            return 1 << (fan // 2 + 2)
        return 3 << ((fan - 1) // 2 + 1)
    if table in ("spicy", "spicy_full_resp"):
        return 1 << fan
    if table == "tiered":
        return (1, 2, 4, 8)[fan] if fan < 4 else 16 if fan <= 6 else 32 if fan <= 9 else 64
    raise ValueError(f"unknown payment table {table!r}")


def _effective_cap(opts: HKOptions) -> int:
    # With fan_cap = none the "maximum" hand is taken at 13, the usual public HK limit.
    return 13 if opts.fan_cap is None else opts.fan_cap


def base_points(fan: int, opts: HKOptions) -> Number:
    """hk-classic P(f) = base_unit × M(f); a custom list is M(0), M(1), … (last value repeats)."""
    table = opts.payment_table
    if isinstance(table, str):
        m: Number = multiplier(fan, table)
    else:
        m = table[min(fan, len(table) - 1)]
    return opts.base_unit * m


def discard_amount(fan: int, opts: HKOptions) -> Number:
    """hk-mahjongo D(f): what the discarder alone pays. A custom (D, S) list is final points
    for fan 3-10, clamped at both ends."""
    table = opts.score_table
    if isinstance(table, str):
        return 2 * opts.base_unit * multiplier(fan, table)
    return table[min(max(fan, 3), 10) - 3][0]


def self_draw_amount(fan: int, opts: HKOptions) -> Number:
    """hk-mahjongo S(f): what each opponent pays on a self-drawn win."""
    table = opts.score_table
    if isinstance(table, str):
        return opts.base_unit * multiplier(fan, table)
    return table[min(max(fan, 3), 10) - 3][1]


def golden_amount(fan: int, opts: HKOptions) -> Number:
    """hk-mahjongo-2p G(f); the provisional default is G(f) = D(f)."""
    if opts.golden_table is None:
        return discard_amount(fan, opts)
    return opts.golden_table[min(max(fan, 3), 10) - 3]


def _half(x: Number) -> Number:
    return x // 2 if isinstance(x, int) and x % 2 == 0 else x / 2


def settle(
    fan: int,
    winner: int,
    source: WinSource,
    opts: HKOptions,
    *,
    discarder: int | None = None,
    dealer: int = 0,
    liable: int | None = None,
) -> tuple[Number, ...]:
    """Per-seat deltas (by seat index) for a win worth ``fan`` (the capped fan).

    ``discarder`` is the discarder of the winning tile, or the konger for a robbed kong;
    ``liable`` is the one player a liability rule (nine-tile, last-five, Pao) names.
    A liable player pays the whole amount the winner receives on a self-draw or on their
    own discard; on another player's discard ``pao_on_other_discard`` decides.
    """
    n = opts.n_players
    if not 0 <= winner < n or not 0 <= dealer < n:
        raise ValueError(f"seat out of range for {n} players")
    if source is WinSource.SELF_DRAW:
        discarder = None
    elif discarder is None or discarder == winner or not 0 <= discarder < n:
        raise ValueError(f"a {source.value} win needs a discarder other than the winner")
    owed: list[Number] = [0] * n
    others = [s for s in range(n) if s != winner]
    if n == 2:
        owed[others[0]] = golden_amount(fan, opts)
    elif opts.is_classic:
        p = base_points(fan, opts)
        if discarder is None:
            for s in others:
                owed[s] = 2 * p
        elif source is WinSource.ROBBED_KONG and opts.robbing_kong_payment == "konger_pays_all":
            owed[discarder] = 6 * p
        else:
            for s in others:
                owed[s] = p
            owed[discarder] = 2 * p
    else:
        if discarder is None:
            each = self_draw_amount(fan, opts)
            for s in others:
                owed[s] = each
        elif source is WinSource.ROBBED_KONG and opts.robbing_kong_payment == "konger_pays_all":
            owed[discarder] = 3 * self_draw_amount(fan, opts)
        else:
            owed[discarder] = discard_amount(fan, opts)
    if opts.dealer_multiplier != 1:
        k = opts.dealer_multiplier
        if winner == dealer:
            owed = [x * k for x in owed]
        else:
            owed[dealer] *= k
    if liable is not None and liable != winner and n > 2:
        if not 0 <= liable < n:
            raise ValueError(f"liable seat {liable} out of range")
        total = sum(owed)
        rule = opts.pao_on_other_discard
        if discarder is None or liable == discarder or rule == "liable_pays_all":
            owed = [0] * n
            owed[liable] = total
        elif rule == "split_half":
            owed = [0] * n
            owed[liable] = _half(total)
            owed[discarder] = total - owed[liable]
        # "discarder_pays": the normal payment stands
    deltas = [-x for x in owed]
    deltas[winner] = sum(owed)
    return tuple(deltas)


def false_win_deltas(offender: int, opts: HKOptions) -> tuple[Number, ...]:
    """The false-win penalty (hk-classic §7.1, hk-mahjongo §7.1): the offender pays each
    other player the same amount; no other payment is made for the hand."""
    n = opts.n_players
    rule = opts.false_win_penalty
    cap = _effective_cap(opts)
    if rule.startswith("flat_"):
        each: Number = int(rule[5:])
    elif n == 2:
        each = golden_amount(cap, opts)
    elif opts.is_classic:  # max_self_draw: 2 × P(cap)
        each = 2 * base_points(cap, opts)
    elif rule == "max_self_draw_total":
        each = 3 * self_draw_amount(cap, opts)
    else:
        each = self_draw_amount(cap, opts)
    deltas: list[Number] = [each] * n
    deltas[offender] = -each * (n - 1)
    return tuple(deltas)
