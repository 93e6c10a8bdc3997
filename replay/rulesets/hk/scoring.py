"""Fan evaluation and settlement for the Hong Kong rulesets: pure functions of their inputs.

``evaluate`` follows the evaluation order both rules files give (hk-classic §5.3,
hk-mahjongo §5.3): list every decomposition, add the applicable rows of the active table,
keep the highest raw fan, cap it, check the minimum. ``settle`` turns the capped fan into
per-seat deltas (§6 of each file), including the liability settlements (nine-tile,
last-five, Pao) once the replay loop has decided *who* is liable.
"""

from __future__ import annotations

from functools import partial
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
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS, RED
from mjaudit.parts.replay.rulesets.mahjong.decompose import Decomposition, Structure, decompose
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind

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


class _Resolved(NamedTuple):
    table: FanTable
    rows: tuple[_ResolvedRow, ...]  # value > 0 only
    rows_13: tuple[_ResolvedRow, ...]  # the rows that stack with thirteen orphans
    has_includes: bool
    # facts bits -> the rows (of ``rows``, or ``rows_13`` for thirteen orphans) whose
    # needs a hand with those bits meets, in table order; filled as bits are seen
    by_bits: dict[int, tuple[_ResolvedRow, ...]]


_RESOLVED: dict[int, tuple[HKOptions, _Resolved]] = {}


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
    resolved = _Resolved(table, tuple(rows), tuple(rows_13), any(r[3] for r in rows), {})
    if len(_RESOLVED) > 256:
        _RESOLVED.clear()
    _RESOLVED[id(opts)] = (opts, resolved)
    return resolved


# ------------------------------------------------------------------ evaluation

_Hits = tuple[tuple[str, int, int], ...]  # (id, instances, fan)
_CHOW, _PUNG, _CONCEALED_KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG
_SELF_DRAW, _ROBBED_KONG = WinSource.SELF_DRAW, WinSource.ROBBED_KONG
_THIRTEEN, _STANDARD = Structure.THIRTEEN_ORPHANS, Structure.STANDARD


class _Prepared(NamedTuple):
    facts: HandFacts
    decompositions: tuple[Decomposition, ...]
    meld_chows: tuple[int, ...]
    meld_pungs: tuple[int, ...]


# NamedTuples built from one tuple in C (their generated __new__ is a Python call).
_new_facts = partial(tuple.__new__, HandFacts)
_new_prepared = partial(tuple.__new__, _Prepared)
_new_split = partial(tuple.__new__, SplitFacts)
_new_score = partial(tuple.__new__, HandScore)


def _prepare(ctx: WinContext, opts: HKOptions, table: FanTable) -> _Prepared | None:
    c = [0] * N_KINDS
    for t in ctx.concealed:
        c[t] += 1
    c[ctx.win_tile] += 1
    melds = ctx.melds
    decs = decompose(c, len(melds))
    if not decs:
        return None
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    n_exposed = n_ckongs = n_kongs = 0
    for m in melds:
        t = m.tile
        kind = m.kind
        if kind is _CHOW:
            meld_chows.append(t)
            c[t] += 1
            c[t + 1] += 1
            c[t + 2] += 1
            n_exposed += 1
            continue
        meld_pungs.append(t)
        if kind is _PUNG:
            c[t] += 3
            n_exposed += 1
            continue
        c[t] += 4
        n_kongs += 1
        if kind is _CONCEALED_KONG:
            n_ckongs += 1
        else:
            n_exposed += 1
    suits = (
        (1 if any(c[0:9]) else 0)
        | (2 if any(c[9:18]) else 0)
        | (4 if any(c[18:27]) else 0)
        | (8 if any(c[EAST:]) else 0)
    )
    source = ctx.source
    self_drawn = source is _SELF_DRAW
    bits = P.SELF_DRAWN if self_drawn else P.NOT_SELF_DRAWN
    if not n_exposed:
        bits |= P.NO_EXPOSED
    elif n_exposed == 4:
        bits |= P.FOUR_EXPOSED
    if suits & 8:
        bits |= P.HONOURS
        if max(c[RED:]) >= 3:
            bits |= P.DRAGON_PUNG
        if max(c[EAST:RED]) >= 3:
            bits |= P.WIND_PUNG
    elif suits in (1, 2, 4):
        bits |= P.ONE_SUIT
    if not (any(c[1:8]) or any(c[10:17]) or any(c[19:26])):
        bits |= P.NO_SIMPLES
    if n_kongs:
        bits |= P.KONG
    if self_drawn and ctx.kong_replacement_chain >= 1:
        bits |= P.KONG_REPLACEMENT
    if source is _ROBBED_KONG:
        bits |= P.ROBBED
    if ctx.last_tile:
        bits |= P.LAST_TILE
    if ctx.heavenly:
        bits |= P.HEAVENLY
    if ctx.earthly:
        bits |= P.EARTHLY
    if not melds:
        bits |= P.NO_MELDS | P.NO_CHOW_MELD | P.NO_PUNG_MELD
    else:
        if not meld_chows:
            bits |= P.NO_CHOW_MELD
        if not meld_pungs:
            bits |= P.NO_PUNG_MELD
    bits |= P.FLOWERS if ctx.flowers else P.NO_FLOWERS
    if decs[0].structure is _THIRTEEN:
        bits |= P.ORPHANS_SHAPE
    facts = _new_facts(
        (
            ctx,
            opts,
            table,
            tuple(c),
            suits,
            n_exposed,
            n_ckongs,
            n_kongs,
            self_drawn,
            EAST + ctx.seat_wind,
            EAST + ctx.prevailing_wind,
            bits,
        )
    )
    return _new_prepared((facts, decs, tuple(meld_chows), tuple(meld_pungs)))


def _split(p: _Prepared, dec: Decomposition) -> SplitFacts:
    h = p.facts
    pungs = dec.pungs
    concealed_pungs = len(pungs) + h.n_concealed_kongs
    win = h.ctx.win_tile
    # The set a winning discard completes is not concealed (§0), unless the tile can sit in
    # a chow of this split instead, which is the reading that scores best.
    if not h.self_drawn and win in pungs and not any([c <= win <= c + 2 for c in dec.chows]):
        concealed_pungs -= 1
    return _new_split(
        (
            dec.structure,
            dec.pair,
            p.meld_chows + dec.chows,
            p.meld_pungs + pungs,
            concealed_pungs,
        )
    )


def _rows_for(r: _Resolved, bits: int) -> tuple[_ResolvedRow, ...]:
    """The rows a hand with facts ``bits`` may score (thirteen orphans: its stacking rows)."""
    rows = r.rows_13 if bits & P.ORPHANS_SHAPE else r.rows
    out = tuple(row for row in rows if NEEDS[row[0]] & bits == NEEDS[row[0]])
    if len(r.by_bits) < 4096:
        r.by_bits[bits] = out
    return out


def _hits(r: _Resolved, h: HandFacts, s: SplitFacts) -> _Hits:
    bits = h.bits
    rows = r.by_bits.get(bits)
    if rows is None:
        rows = _rows_for(r, bits)
    out = [(rid, int(n), n * value) for rid, fn, value, _ in rows if (n := fn(h, s))]
    if r.has_includes:
        absorbed: set[str] = set()
        for rid, _fn, _v, inc in r.rows:
            if inc and any(x[0] == rid for x in out):
                absorbed |= inc
        if absorbed:
            out = [x for x in out if x[0] not in absorbed]
    return tuple(out)


def _score(r: _Resolved, opts: HKOptions, hits: _Hits, dec: Decomposition) -> HandScore:
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
    instances = tuple([rid for rid, n, _f in hits for _ in range(n)])
    if raw == 0 and r.table.chicken_hand and dec.structure is _STANDARD:
        patterns = (("chicken_hand", 0),)
        instances = ("chicken_hand",)
    return _new_score(
        (
            patterns,
            instances,
            raw,
            fan,
            cap is not None and raw >= cap,
            bonus,
            basis,
            basis >= opts.min_fan,
            dec.structure,
            dec,
        )
    )


def evaluate(ctx: WinContext, opts: HKOptions) -> HandScore | None:
    """Score a declared win; None if the tiles form no §4 structure (``WIN_HAND_INCOMPLETE``).

    The best decomposition is the one with the highest raw fan (both files, §4). Ties are
    broken by the pattern list, then by the decomposition, so equal hands always report
    the same patterns whatever order the splits were found in.
    """
    r = _resolve(opts)
    p = _prepare(ctx, opts, r.table)
    if p is None:
        return None
    decs = p.decompositions
    if len(decs) == 1:
        dec = decs[0]
        return _score(r, opts, _hits(r, p.facts, _split(p, dec)), dec)
    best: tuple[tuple[object, ...], _Hits, Decomposition] | None = None
    for dec in decs:
        hits = _hits(r, p.facts, _split(p, dec))
        key = _rank(hits, dec)
        if best is None or key < best[0]:
            best = (key, hits, dec)
    assert best is not None
    return _score(r, opts, best[1], best[2])


def _rank(hits: _Hits, dec: Decomposition) -> tuple[object, ...]:
    """Sort key of a candidate split: highest raw fan, then pattern list, then the split."""
    return (-sum(x[2] for x in hits), tuple((x[0], x[2]) for x in hits), _dec_key(dec))


def _dec_key(d: Decomposition) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    return (d.pair, d.chows, d.pungs)


def evaluate_all(ctx: WinContext, opts: HKOptions) -> tuple[HandScore, ...]:
    """One score per decomposition, best first (for the replayer's "other readings" view)."""
    r = _resolve(opts)
    p = _prepare(ctx, opts, r.table)
    if p is None:
        return ()
    ranked = sorted(
        ((_hits(r, p.facts, _split(p, d)), d) for d in p.decompositions),
        key=lambda hd: _rank(*hd),
    )
    return tuple(_score(r, opts, hits, d) for hits, d in ranked)


def score_decomposition(ctx: WinContext, opts: HKOptions, dec: Decomposition) -> HandScore:
    """Score one given decomposition of the concealed tiles (it is not re-checked)."""
    r = _resolve(opts)
    p = _prepare(ctx, opts, r.table)
    if p is None:
        raise ValueError("the hand forms no winning structure")
    return _score(r, opts, _hits(r, p.facts, _split(p, dec)), dec)


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
