"""``vn-160`` scoring (§4, §5, §9) and payments (§6, §7.1): pure functions.

:func:`evaluate` follows §9: find every reading of the hand (the khung read through
:func:`replay.vn160.khung.completions`, which only ever places a khung where a set needs
it, then every set split of :func:`replay.decompose.decompose`), list the patterns, apply
the §5.2 combination rules, and keep the reading with the largest total phán (§4 "Joker
assignment"). Hand patterns (history, declared tiles, the wait) are computed once; only
the set patterns are evaluated per reading.

:func:`con` is the §6 payment curve, :func:`settle` the per-seat deltas of a win,
:func:`false_win_deltas` the §7.1 penalty.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST, N_KINDS
from mjaudit.parts.replay.rulesets.mahjong.decompose import (
    Decomposition,
    decompose,
    wait_candidates,
)
from mjaudit.parts.replay.rulesets.mahjong.decompose import Structure as DecStructure
from mjaudit.parts.replay.rulesets.vn160.khung import completions, is_winning, khung_domain
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions
from mjaudit.parts.replay.rulesets.vn160.patterns import (
    MUN,
    Hit,
    Reading,
    Structure,
    VNWin,
    combine,
    hand_patterns,
    khong_khung,
    reading_patterns,
)
from mjaudit.parts.replay.rulesets.vn160.tiles import CODES, FIRST_KHUNG, is_flower, is_rh

__all__ = [
    "VNScore",
    "con",
    "evaluate",
    "false_win_deltas",
    "khung_assignment",
    "settle",
    "split_hand",
    "wait_set",
]


@dataclass(frozen=True, slots=True)
class VNScore:
    """The best reading of a win and its value.

    ``patterns`` aggregate each id ((id, phán of all its instances)); ``instances`` repeat
    an id per instance (``seat_flower`` twice), the multiset the audit compares. ``phan``
    is p, ``mun`` = ⌊p / 6⌋. ``khung`` maps each khung code among the 14 tiles (declared
    sets included) to the kind it reads as; ``meets_min`` is the ``min_phan`` check (§4).
    """

    patterns: tuple[tuple[str, int], ...]
    instances: tuple[str, ...]
    phan: int
    structure: Structure
    reading: Reading
    khung: tuple[tuple[str, str], ...]
    single_wait: bool
    meets_min: bool

    @property
    def mun(self) -> int:
        return self.phan // MUN

    def to_extras(self) -> dict[str, Any]:
        return {
            "mun": self.mun,
            "structure": self.structure.value,
            "khung_assignment": dict(self.khung),
            "instances": list(self.instances),
            "single_wait": self.single_wait,
        }


# ------------------------------------------------------------------ the hand as khung + kinds


def split_hand(tiles: Sequence[int]) -> tuple[list[int], list[str]]:
    """34 natural counts and the khung codes of a set of playing tiles and khung."""
    nat = [0] * N_KINDS
    khung: list[str] = []
    for t in tiles:
        if t < N_KINDS:
            nat[t] += 1
        else:
            khung.append(CODES[t])
    return nat, khung


def wait_set(
    concealed: Sequence[int],
    n_melds: int,
    opts: VNOptions,
    limit: int | None = None,
    first: int | None = None,
) -> tuple[int, ...]:
    """§4 ``WS``: the kinds k such that the 13 tiles + k form a winning structure.

    Without khung only a kind held, a suit tile within two ranks of one held, or (no
    declared set) an orphan can complete the hand: the candidates of
    :func:`replay.decompose.winning_tiles` (:func:`wait_candidates`); with khung every
    kind is tried. ``limit`` stops after that many waits (``u_xuyen`` only
    needs to know whether there is exactly one); ``first``, a kind tried before the others
    (the winning tile, most likely a wait: with ``limit`` the answer comes sooner, and
    with or without it the set found is the same, only its order differs).
    """
    nat, khung = split_hand(concealed)
    candidates: Iterable[int] = range(N_KINDS) if khung else wait_candidates(nat, n_melds)
    if first is not None and first in candidates:
        candidates = [first, *(k for k in candidates if k != first)]
    out = []
    for k in candidates:
        if nat[k] >= 4:  # a fifth natural copy cannot be the winning tile
            continue
        nat[k] += 1
        if is_winning(
            nat, khung, n_melds, opts.ru_domain, allow_pe_pe=opts.allow_pe_pe, max_copies=None
        ):
            out.append(k)
            if limit is not None and len(out) >= limit:
                nat[k] -= 1
                break
        nat[k] -= 1
    return tuple(out)


def khung_assignment(
    natural: Sequence[int], completion: Sequence[int], khung: Sequence[str], ru_domain: str
) -> tuple[tuple[str, str], ...]:
    """Which kind each khung reads as in ``completion`` (a small matching, by backtracking)."""
    extra = [k for k in range(N_KINDS) for _ in range(completion[k] - natural[k])]
    codes = [c for c in khung if khung_domain(c, ru_domain)]
    doms = [khung_domain(c, ru_domain) for c in codes]
    order = sorted(range(len(codes)), key=lambda i: len(doms[i]))
    used = [False] * len(extra)
    got: dict[int, int] = {}

    def place(j: int) -> bool:
        if j == len(order):
            return True
        i = order[j]
        for e, k in enumerate(extra):
            if not used[e] and k in doms[i]:
                used[e] = True
                got[i] = k
                if place(j + 1):
                    return True
                used[e] = False
        return False

    if len(extra) != len(codes) or not place(0):
        return ()
    return tuple((codes[i], CODES[got[i]]) for i in range(len(codes)))


# ------------------------------------------------------------------ evaluation


def _decompose(comp: Sequence[int], n_melds: int) -> tuple[Decomposition, ...]:
    """:func:`decompose` for a completion where khung may make a fifth (or later) copy.

    §1.2 lets a khung stand for any tile of its domain, even one whose four copies are all
    in the hand. The shared tables split suit counts up to 9 but refuse an honour count
    above 3, so each honour pung beyond the third copy is taken out first (an honour count
    of 5 is pung + pair, 6 two pungs) and added back to every split.
    """
    if max(comp) <= 4:
        return decompose(comp, n_melds)
    if max(comp) > 9:  # ten of one kind: beyond the 9-digit suit tables, never scored
        return ()
    counts = list(comp)
    peeled: list[int] = []
    for t in range(EAST, N_KINDS):
        while counts[t] > 3:
            counts[t] -= 3
            peeled.append(t)
    if n_melds + len(peeled) > 4:
        return ()
    return tuple(
        Decomposition(d.structure, d.pair, d.chows, tuple(sorted((*d.pungs, *peeled))))
        for d in decompose(counts, n_melds + len(peeled))
    )


def _readings(ctx: VNWin, opts: VNOptions) -> list[tuple[Reading, tuple[int, ...]]]:
    """Every (reading, concealed completion) of the 14 tiles; [] if none is a §4 structure."""
    tiles = [*ctx.concealed, ctx.win_tile]
    if ctx.bonus_win:
        tiles[-1] = FIRST_KHUNG  # a won-on bonus discard reads as a Tổng (§3.6)
    nat, khung = split_hand(tiles)
    n_melds = len(ctx.melds)
    comps = completions(
        nat, khung, n_melds, opts.ru_domain, allow_pe_pe=opts.allow_pe_pe, max_copies=None
    )
    meld_counts = [0] * N_KINDS
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    for m in ctx.melds:
        if m.is_chow:
            meld_chows.append(m.tile)
            for d in range(3):
                meld_counts[m.tile + d] += 1
        else:
            meld_pungs.append(m.tile)
            meld_counts[m.tile] += 3
    out: list[tuple[Reading, tuple[int, ...]]] = []
    for comp in sorted(comps, reverse=True):  # ties: khung read as the lowest kinds
        total = tuple(a + b for a, b in zip(comp, meld_counts, strict=True))
        for dec in _decompose(comp, n_melds):
            if dec.structure is DecStructure.THIRTEEN_ORPHANS:
                out.append((Reading(Structure.THIRTEEN_ORPHANS, total, dec.pair), comp))
            else:
                reading = Reading(
                    Structure.STANDARD,
                    total,
                    dec.pair,
                    tuple(sorted((*dec.chows, *meld_chows))),
                    tuple(sorted((*dec.pungs, *meld_pungs))),
                )
                out.append((reading, comp))
        if opts.allow_pe_pe and n_melds == 0 and all(x in (0, 2) for x in comp):
            out.append((Reading(Structure.SEVEN_PAIRS, total, -1), comp))
    return out


def evaluate(ctx: VNWin, opts: VNOptions) -> VNScore | None:
    """Score a declared win, or None when the 14 tiles are not a §4 structure.

    A flower or RH among the 14 tiles is never a structure (§7.1 (b)); the replay loop
    reports that reason itself.
    """
    held = [*ctx.concealed, ctx.win_tile] if not ctx.bonus_win else list(ctx.concealed)
    if any(is_flower(t) or is_rh(t) for t in held):
        return None
    readings = _readings(ctx, opts)
    if not readings:
        return None
    single = False
    if not ctx.heavenly and (ctx.self_drawn or not opts.u_xuyen_self_draw_only):
        waits = wait_set(ctx.concealed, len(ctx.melds), opts, limit=2, first=ctx.win_tile)
        single = len(waits) == 1
    base = hand_patterns(ctx, opts, single)
    no_khung = khong_khung(ctx, opts)
    best: tuple[int, list[Hit], Reading, tuple[int, ...]] | None = None
    for reading, comp in readings:
        hits = combine([*base, *reading_patterns(reading, ctx, opts, no_khung)])
        total = sum(v for _, v in hits)
        if best is None or total > best[0]:
            best = (total, hits, reading, comp)
    assert best is not None
    total, hits, reading, comp = best
    if not any(v for _, v in hits):
        hits = [("u_muoi", 0), *hits]
    tiles = [*ctx.concealed, ctx.win_tile]
    if ctx.bonus_win:
        tiles[-1] = FIRST_KHUNG
    nat, khung = split_hand(tiles)
    assignment = khung_assignment(nat, comp, khung, opts.ru_domain)
    if ctx.bonus_win:
        assignment = tuple(
            (CODES[ctx.win_tile] if c == "BT" and i == len(assignment) - 1 else c, k)
            for i, (c, k) in enumerate(assignment)
        )
    return _score(hits, total, reading, (*_meld_khung(ctx), *assignment), single, opts)


def _meld_khung(ctx: VNWin) -> list[tuple[str, str]]:
    """What each khung in a declared set reads as (the set's kinds the naturals leave)."""
    out: list[tuple[str, str]] = []
    for m in ctx.melds:
        kinds = list(m.meld.tiles)
        for t in m.tiles:
            if t < N_KINDS and t in kinds:
                kinds.remove(t)
        out.extend((CODES[k], CODES[kind]) for k, kind in zip(m.khung, kinds, strict=False))
    return out


def _score(
    hits: list[Hit],
    total: int,
    reading: Reading,
    khung: tuple[tuple[str, str], ...],
    single: bool,
    opts: VNOptions,
) -> VNScore:
    agg: dict[str, int] = {}
    for p, v in hits:
        agg[p] = agg.get(p, 0) + v
    return VNScore(
        patterns=tuple(agg.items()),
        instances=tuple(p for p, _ in hits),
        phan=total,
        structure=reading.structure,
        reading=reading,
        khung=khung,
        single_wait=single,
        meets_min=total >= opts.min_phan,
    )


def fixed_score(pattern: str, opts: VNOptions) -> VNScore:
    """The 1-mủn win of ``three_blue_khung_win`` / ``three_red_khung_win`` (§3.6)."""
    reading = Reading(Structure.STANDARD, (0,) * N_KINDS, -1)
    return _score([(pattern, MUN)], MUN, reading, (), False, opts)


# ------------------------------------------------------------------ payments


def con(phan: int, opts: VNOptions) -> int:
    """§6 Con(p): 1, then doubling per phán to 32, then per whole mủn (leftover phán ignored)."""
    if phan <= 0:
        return 1
    if phan < MUN:
        return 2**phan
    m = phan // MUN
    if opts.max_mun is not None:
        m = min(m, opts.max_mun)
    if opts.payout_curve == "mun_linear":
        return 64 * m
    return 64 * 2 ** (m - 1)


def settle(
    phan: int,
    winner: int,
    source: WinSource,
    opts: VNOptions,
    *,
    discarder: int | None = None,
    dealer: int = 0,
    n: int = 4,
    bonus_deal_in: bool = False,
) -> list[float]:
    """§6 deltas: on a discard the discarder pays Cái and the others Con; self-drawn, all Cái.

    A robbed kong is paid like a discard by the konger (``discarder``). A win on a
    discarded bonus tile (§3.6) makes the discarder pay Cái + 2 Con alone.
    ``dealer_multiplier`` 2 doubles every payment the dealer makes or receives.
    """
    small = con(phan, opts)
    big = opts.cai_multiplier * small
    deltas = [0.0] * n
    for s in range(n):
        if s == winner:
            continue
        if source is WinSource.SELF_DRAW:
            pay = big
        elif bonus_deal_in:
            pay = big + (n - 2) * small if s == discarder else 0
        else:
            pay = big if s == discarder else small
        if opts.dealer_multiplier != 1 and dealer in (s, winner):
            pay *= opts.dealer_multiplier
        deltas[s] -= pay
        deltas[winner] += pay
    return deltas


def false_win_deltas(seat: int, opts: VNOptions, n: int = 4) -> list[float]:
    """§7.1: the declarer pays ``false_win_penalty`` to each other player."""
    pen = opts.false_win_penalty
    return [float(-(n - 1) * pen if s == seat else pen) for s in range(n)]
