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

from functools import partial, reduce
from itertools import product
from operator import or_
from typing import Any, NamedTuple

from mjaudit.parts.replay.rulesets.hk import patterns as P
from mjaudit.parts.replay.rulesets.hk.options import HKOptions, Number
from mjaudit.parts.replay.rulesets.hk.patterns import (
    BONUS_PATTERNS,
    NEEDS,
    READS,
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
    DRAGONS_AT,
    FIELD,
    HONOUR_GROUPS,
    HONOUR_SHIFT,
    MANY,
    PAIR_AT,
    PURE_NINE_GATES,
    SUIT_GROUPS,
    THIRTEEN_ORPHANS,
    TILE_SIMPLES,
    WEIGHT,
    WINDS_AT,
    SuitGroup,
    Table,
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


class _Resolved(NamedTuple):
    """A table resolved for one options object (the hot path reads fields 5-8 by index:
    a NamedTuple field by name costs a descriptor call)."""

    opts: HKOptions
    table: FanTable
    rows: tuple[_ResolvedRow, ...]  # value > 0 only
    rows_13: tuple[_ResolvedRow, ...]  # the rows that stack with thirteen orphans
    has_includes: bool
    waits: bool  # the table scores single_wait, so the waits are computed
    flowers: bool  # the table scores seat_flower or flower_set, so their counts are kept
    mask: int  # the facts bits its rows read (READS), and the count fields
    scores: Table[int, _Scored]  # packed facts of a split -> its score; built as seen


_RESOLVED: dict[int, tuple[HKOptions, _Resolved]] = {}
# The options object evaluate saw last and its table (a replay keeps one per game): one
# identity test instead of a dict lookup.
_LAST_RESOLVED: list[Any] = [None, None]
_MAX_SCORES = 1 << 16  # distinct facts per table kept (a few thousand in practice)


def _unbuilt(key: int) -> _Scored:
    raise AssertionError("_resolve sets the builder")


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
        reduce(or_, (READS[i] for i in ids), P.ORPHANS_SHAPE | _COUNTS),
        Table(_unbuilt, _MAX_SCORES),
    )
    resolved.scores.build = partial(_score_facts, resolved)
    if len(_RESOLVED) > 256:
        _RESOLVED.clear()
    _RESOLVED[id(opts)] = (opts, resolved)
    return resolved


# ------------------------------------------------------------------ facts

# A split's facts as one int (the cache key): the HandFacts bits (bits 0-32), then the
# small counts, then the SplitFacts.
_DRAGONS_AT, _WINDS_AT, _SEAT_FLOWERS_AT, _IN_SETS_AT, _FLOWER_SETS_AT = 33, 35, 38, 42, 46
_FOUR_CHOWS, _FOUR_PUNGS, _FOUR_CONCEALED = 1 << 50, 1 << 51, 1 << 52
_BITS = (1 << _DRAGONS_AT) - 1
_COUNTS = ((1 << 50) - 1) ^ _BITS  # the count fields

_CHOW, _PUNG, _CONCEALED_KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG
_SELF_DRAW, _ROBBED_KONG = WinSource.SELF_DRAW, WinSource.ROBBED_KONG
_THIRTEEN, _STANDARD = Structure.THIRTEEN_ORPHANS, Structure.STANDARD
_M_GROUPS, _P_GROUPS, _S_GROUPS = SUIT_GROUPS
_WEIGHT = list(WEIGHT).__getitem__  # a list method: cheaper per call than a tuple slot

# A declared set -> (its tile facts, its counts): counts packed 4 bits each, so a hand's
# are a sum: exposed sets, chows, pungs and kongs, kongs, concealed kongs.
_EXPOSED, _CHOWS, _PUNGS, _KONGS, _CKONGS = 1, 1 << 4, 1 << 8, 1 << 12, 1 << 16


def _set_facts(t: int, chow: bool) -> int:
    if chow:
        return 1 << t // 9 | TILE_SIMPLES
    if t >= RED:
        return 8 | 1 << DRAGONS_AT + t - RED
    if t >= EAST:
        return 8 | 1 << WINDS_AT + t - EAST
    return 1 << t // 9 | (TILE_SIMPLES if 0 < t % 9 < 8 else 0)


_CHOW_FACTS = tuple((_set_facts(t, True), _EXPOSED | _CHOWS) for t in range(34))
_PUNG_FACTS = tuple((_set_facts(t, False), _EXPOSED | _PUNGS) for t in range(34))
_KONG_FACTS = tuple((_set_facts(t, False), _EXPOSED | _PUNGS | _KONGS) for t in range(34))
_CKONG_FACTS = tuple((_set_facts(t, False), _PUNGS | _KONGS | _CKONGS) for t in range(34))


def _meld_bits(counts: int) -> int:
    """The facts bits of a hand's declared sets, from their packed counts."""
    exposed, kongs, ckongs = counts & 15, counts >> 12 & 15, counts >> 16 & 15
    bits = P.NO_EXPOSED if not exposed else P.FOUR_EXPOSED if exposed == 4 else 0
    if kongs:
        bits |= P.KONG if kongs < 4 else P.KONG | P.FOUR_KONGS
        if ckongs:
            bits |= P.CONCEALED_KONG
    return bits


_MELD_BITS: Table[int, int] = Table(_meld_bits)


def _tile_bits(key: int) -> int:
    """The facts bits and counts that the tiles give, from ``key``: OR-ed tile facts of
    every group and set (bits 0-11), the pair's tile + 1 (bits 12-17; 0: a suit pair),
    the seat wind (18-20) and the prevailing wind (21-23), both 0..3."""
    facts = key & 0xFFF
    pair = (key >> 12 & 63) - 1
    seat = key >> 18 & 7
    prevailing = key >> 21
    suits = facts & 15
    simples = facts & TILE_SIMPLES
    dragons = facts >> DRAGONS_AT & 7
    winds = facts >> WINDS_AT & 15
    bits = 0 if simples else P.NO_SIMPLES
    if suits & 8:
        bits |= P.HONOURS
        if suits == 8:
            bits |= P.ALL_HONOURS
        elif suits & 7 in (1, 2, 4):
            bits |= P.HALF_FLUSH
        if dragons:
            bits |= P.DRAGON_PUNG
        if winds:
            bits |= P.WIND_PUNG
            if winds >> seat & 1:
                bits |= P.SEAT_WIND_PUNG
            if winds >> prevailing & 1:
                bits |= P.PREVAILING_WIND_PUNG
        if pair >= RED:
            bits |= P.PAIR_DRAGON
        elif pair >= EAST:
            bits |= P.PAIR_WIND
            if pair == EAST + seat:
                bits |= P.PAIR_SEAT_WIND
            if pair == EAST + prevailing:
                bits |= P.PAIR_PREVAILING_WIND
    elif suits in (1, 2, 4):
        bits |= P.ONE_SUIT
    n_dragons = bin(dragons).count("1")
    n_winds = bin(winds).count("1")
    return bits | n_dragons << _DRAGONS_AT | n_winds << _WINDS_AT


_TILE_BITS: Table[int, int] = Table(_tile_bits)  # filled as seen (a few hundred)


def _flower_bits(flowers: tuple[int, ...], seat_wind: int) -> int:
    """FLOWERS and the counts: seat flowers, those inside a complete group, complete groups."""
    seat_no = seat_wind + 1
    have = set(flowers)
    full_f = all(FIRST_BONUS + i in have for i in range(4))
    full_g = all(FIRST_BONUS + 4 + i in have for i in range(4))
    mine = [t for t in flowers if bonus_number(t) == seat_no]
    in_sets = sum(1 for t in mine if (full_f if t < FIRST_BONUS + 4 else full_g))
    return (
        P.FLOWERS
        | min(len(mine), 15) << _SEAT_FLOWERS_AT
        | min(in_sets, 15) << _IN_SETS_AT
        | (full_f + full_g) << _FLOWER_SETS_AT
    )


_FLOWER_BITS: dict[tuple[tuple[int, ...], int], int] = {}


# A declared set's tiles, packed.
_CHOW_KEY = tuple(sum(WEIGHT[t : t + 3]) for t in range(34))
_PUNG_KEY = tuple(3 * w for w in WEIGHT)
_KONG_KEY = tuple(4 * w for w in WEIGHT)


def _single_wait(ctx: WinContext, key: int) -> bool:
    """Before the draw (``key`` without the winning tile) only the winning tile's kind
    completed the hand, kinds whose four copies the winner holds (melds too) left out."""
    win = ctx.win_tile
    before = key - WEIGHT[win]
    found = waits(before, len(ctx.melds))
    if not found >> win & 1:
        return False
    held = before
    for m in ctx.melds:
        kind = m.kind
        held += (_CHOW_KEY if kind is _CHOW else _PUNG_KEY if kind is _PUNG else _KONG_KEY)[m.tile]
    if held >> 4 * win & 15 >= 4:
        return False
    others = found ^ 1 << win
    while others:  # another wait: a single wait only if the winner holds all four
        low = others & -others
        if held >> 4 * (low.bit_length() - 1) & 15 < 4:
            return False
        others ^= low
    return True


# What _prepare finds (a plain tuple, built in one instruction): the hand's packed facts
# (HandFacts after opts and table), its decompositions, and what _split needs: the packed
# counts of the declared sets (_EXPOSED, ...), won on a discard (or robbed kong), the
# winning tile; then, for a hand of one decomposition, its packed facts with the split's
# (else -1).
_Prepared = tuple[int, tuple[Decomposition, ...], int, bool, int, int]


# NamedTuples built from one tuple in C (their generated __new__ is a Python call).
_new_dec = partial(tuple.__new__, Decomposition)
_new_score = partial(tuple.__new__, HandScore)


# The facts bits _prepare sets, as globals (one lookup each, not two).
_SELF_DRAWN, _NOT_SELF_DRAWN, _ROBBED, _DISCARD = (
    P.SELF_DRAWN,
    P.NOT_SELF_DRAWN,
    P.ROBBED,
    P.DISCARD,
)
_KONG_REPLACEMENT, _CONSECUTIVE_KONGS, _SINGLE_WAIT = (
    P.KONG_REPLACEMENT,
    P.CONSECUTIVE_KONGS,
    P.SINGLE_WAIT,
)
_LAST_TILE, _HEAVENLY, _EARTHLY = P.LAST_TILE, P.HEAVENLY, P.EARTHLY
_FLOWERS, _NO_FLOWERS, _ONE_SUIT, _ORPHANS = P.FLOWERS, P.NO_FLOWERS, P.ONE_SUIT, P.ORPHANS_SHAPE


def _prepare(ctx: WinContext, r: _Resolved) -> _Prepared | None:
    """The hand's facts and decompositions; None if the tiles form no §4 structure."""
    win = ctx.win_tile
    concealed = ctx.concealed
    key = sum(map(_WEIGHT, concealed), WEIGHT[win])
    melds = ctx.melds
    n_melds = len(melds)
    if len(concealed) != 13 - 3 * n_melds:
        return None
    gm = _M_GROUPS[key & FIELD]
    gp = _P_GROUPS[key >> 36 & FIELD]
    gs = _S_GROUPS[key >> 72 & FIELD]
    gh = HONOUR_GROUPS[key >> HONOUR_SHIFT]
    code = gm[0] + gp[0] + gs[0] + gh[0]
    if code == 1:  # one decomposition
        bits = 0
        pair = gh[1]
        decs: tuple[Decomposition, ...] = (
            _new_dec(
                (
                    _STANDARD,
                    pair + gm[4] + gp[4] + gs[4] + 3,  # one of the four holds it, -1 the others
                    gm[5] + gp[5] + gs[5],
                    gm[6] + gp[6] + gs[6] + gh[2],
                )
            ),
        )
        tile_facts = gm[2] | gp[2] | gs[2] | gh[4]
    elif code % MANY == 1:
        bits = 0
        pair = gh[1]
        tile_facts = gm[2] | gp[2] | gs[2] | gh[4]
        decs = tuple(
            [
                _new_dec(
                    (
                        _STANDARD,
                        max(pair, a[0], b[0], d[0]),
                        a[1] + b[1] + d[1],
                        a[2] + b[2] + d[2] + gh[2],
                    )
                )
                for a, b, d in product(gm[1], gp[1], gs[1])
            ]
        )
    elif n_melds or (pair := THIRTEEN_ORPHANS.get(key, -1)) < 0:
        return None
    else:
        bits = _ORPHANS
        decs = (_new_dec((_THIRTEEN, pair, (), ())),)
        tile_facts = gm[2] | gp[2] | gs[2] | gh[3] | (pair + 1) << PAIR_AT
    counts = 0
    for m in melds:
        kind = m.kind
        if kind is _CHOW:
            f = _CHOW_FACTS[m.tile]
        elif kind is _PUNG:
            f = _PUNG_FACTS[m.tile]
        elif kind is _CONCEALED_KONG:
            f = _CKONG_FACTS[m.tile]
        else:
            f = _KONG_FACTS[m.tile]
        tile_facts |= f[0]
        counts += f[1]
    seat = ctx.seat_wind
    bits |= _TILE_BITS[tile_facts | seat << 18 | ctx.prevailing_wind << 21] | _MELD_BITS[counts]
    source = ctx.source
    if source is _SELF_DRAW:
        bits |= _SELF_DRAWN
        chain = ctx.kong_replacement_chain
        if chain >= 1:
            bits |= _KONG_REPLACEMENT if chain == 1 else _KONG_REPLACEMENT | _CONSECUTIVE_KONGS
        if r[5] and _single_wait(ctx, key):  # the table scores single_wait
            bits |= _SINGLE_WAIT
    elif source is _ROBBED_KONG:
        bits |= _NOT_SELF_DRAWN | _ROBBED
    else:
        bits |= _NOT_SELF_DRAWN | _DISCARD
    if bits & _ONE_SUIT and not n_melds:
        bits |= _nine_gates(key - WEIGHT[win], (gm, gp, gs)[(tile_facts & 7) >> 1])
    if ctx.last_tile:
        bits |= _LAST_TILE
    if ctx.heavenly:
        bits |= _HEAVENLY
    if ctx.earthly:
        bits |= _EARTHLY
    flowers = ctx.flowers
    if not flowers:
        bits |= _NO_FLOWERS
    elif r[6]:  # the table scores seat flowers or flower sets
        fkey = (flowers, seat)
        fb = _FLOWER_BITS.get(fkey)
        if fb is None:
            fb = _flower_bits(flowers, seat)
            if len(_FLOWER_BITS) < 1 << 14:
                _FLOWER_BITS[fkey] = fb
        bits |= fb
    else:
        bits |= _FLOWERS
    bits &= r[7]  # the bits the table reads
    if len(decs) != 1:
        return (bits, decs, counts, source is not _SELF_DRAW, win, -1)
    dec = decs[0]
    chows = (counts >> 4 & 15) + len(dec[2])  # a standard hand's other three sets are pungs
    if chows == 4:
        split = _FOUR_CHOWS
    elif chows or bits & _ORPHANS:
        split = 0
    else:
        split = _four_pungs(dec, counts >> 16 & 15, source is not _SELF_DRAW, win)
    return (bits, decs, counts, source is not _SELF_DRAW, win, bits | split)


def _nine_gates(before: int, group: SuitGroup) -> int:
    """NINE_GATES (and PURE_NINE_GATES) of a hand of one suit, ``group``, with nothing
    declared; ``before``: the packed hand without its winning tile."""
    if not group.nine_gates:
        return 0
    suit = (group.facts & 7) >> 1  # 1, 2, 4 -> 0, 1, 2
    if before >> 36 * suit & FIELD == PURE_NINE_GATES:
        return P.NINE_GATES | P.PURE_NINE_GATES
    return P.NINE_GATES


def _split(p: _Prepared, dec: Decomposition) -> int:
    """The SplitFacts of one decomposition, as bits."""
    counts = p[2]
    if (counts >> 4 & 15) + len(dec[2]) == 4:
        return _FOUR_CHOWS
    if (counts >> 8 & 15) + len(dec[3]) == 4:
        return _four_pungs(dec, counts >> 16 & 15, p[3], p[4])
    return 0


def _four_pungs(dec: Decomposition, n_ckongs: int, discard: bool, win: int) -> int:
    """The split bits of a split of four pungs (or kongs), declared ones included."""
    pungs = dec[3]
    if len(pungs) + n_ckongs < 4:
        return _FOUR_PUNGS
    # The set a winning discard completes is not concealed (§0), unless the tile can sit in
    # a chow of this split instead, which is the reading that scores best.
    if discard and win in pungs and not any([c <= win <= c + 2 for c in dec[2]]):
        return _FOUR_PUNGS
    return _FOUR_PUNGS | _FOUR_CONCEALED


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


def _unpack(r: _Resolved, key: int) -> tuple[HandFacts, SplitFacts]:
    """The facts a split's packed facts stand for."""
    h = HandFacts(
        r.opts,
        r.table,
        key & _BITS,
        key >> _DRAGONS_AT & 3,
        key >> _WINDS_AT & 7,
        key >> _SEAT_FLOWERS_AT & 15,
        key >> _IN_SETS_AT & 15,
        key >> _FLOWER_SETS_AT & 15,
    )
    s = SplitFacts(bool(key & _FOUR_CHOWS), bool(key & _FOUR_PUNGS), bool(key & _FOUR_CONCEALED))
    return h, s


def _score_facts(r: _Resolved, key: int) -> _Scored:
    """Score a split from its packed facts (the pattern functions run here, once per facts)."""
    opts = r.opts
    h, s = _unpack(r, key)
    hits = _hits(r, h, s)
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
    return r.scores[p[0] | _split(p, dec)]


# ------------------------------------------------------------------ evaluation


def evaluate(ctx: WinContext, opts: HKOptions) -> HandScore | None:
    """Score a declared win; None if the tiles form no §4 structure (``WIN_HAND_INCOMPLETE``).

    The best decomposition is the one with the highest raw fan (both files, §4). Ties are
    broken by the pattern list, then by the decomposition, so equal hands always report
    the same patterns whatever order the splits were found in.
    """
    last = _LAST_RESOLVED
    if last[0] is opts:
        r = last[1]
    else:
        r = last[1] = _resolve(opts)
        last[0] = opts
    p = _prepare(ctx, r)
    if p is None:
        return None
    decs = p[1]
    if len(decs) == 1:
        dec = decs[0]
        return _new_score(r[8][p[5]][0] + (dec[0], dec))
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
        ((_scored(r, p, d), d) for d in p[1]),
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
