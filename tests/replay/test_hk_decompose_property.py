"""Decomposition and best-fan search against a brute-force enumerator (hypothesis)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.hk import (
    HK_CLASSIC,
    HK_MAHJONGO,
    WinContext,
    WinSource,
    evaluate,
    evaluate_all,
    options_for,
    score_decomposition,
)
from mjaudit.parts.replay.rulesets.mahjong.counts import ORPHANS, to_counts
from mjaudit.parts.replay.rulesets.mahjong.decompose import (
    Decomposition,
    Structure,
    decompose,
    suit_key,
    suit_splits,
    winning_tiles,
)
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind

Canon = tuple[str, int, tuple[int, ...], tuple[int, ...]]

SECTION6 = options_for("hk-classic", {"fan_value_set": "section6", "fan_cap": "none"})
OPTION_SETS = (HK_CLASSIC, SECTION6, HK_MAHJONGO)


def brute(counts: tuple[int, ...], n_melds: int) -> set[Canon]:
    """Every (pair, sets) multiset whose tiles sum exactly to ``counts``; no cleverness."""
    total = sum(counts)
    if total != 14 - 3 * n_melds:
        return set()
    out: set[Canon] = set()
    if n_melds == 0 and all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14:
        out.add(("13", next(t for t in ORPHANS if counts[t] == 2), (), ()))
    k = (total - 2) // 3
    sets = [("p", t) for t in range(34) if counts[t] >= 3]
    sets += [
        ("c", t) for t in range(27) if t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]
    ]
    for pair in (t for t in range(34) if counts[t] >= 2):
        for combo in combinations_with_replacement(sets, k):
            c = [0] * 34
            c[pair] += 2
            for kind, t in combo:
                if kind == "p":
                    c[t] += 3
                else:
                    c[t] += 1
                    c[t + 1] += 1
                    c[t + 2] += 1
            if tuple(c) == counts:
                out.add(
                    (
                        "std",
                        pair,
                        tuple(sorted(t for k_, t in combo if k_ == "c")),
                        tuple(sorted(t for k_, t in combo if k_ == "p")),
                    )
                )
    return out


def canon(d: Decomposition) -> Canon:
    tag = "13" if d.structure is Structure.THIRTEEN_ORPHANS else "std"
    return (tag, d.pair, tuple(sorted(d.chows)), tuple(sorted(d.pungs)))


def to_dec(c: Canon) -> Decomposition:
    if c[0] == "13":
        return Decomposition(Structure.THIRTEEN_ORPHANS, c[1])
    return Decomposition(Structure.STANDARD, c[1], c[2], c[3])


WALL = [t for t in range(34) for _ in range(4)]


@st.composite
def any_hand(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    """14 − 3k tiles (k declared melds), often from few kinds so multi-split hands are common."""
    n_melds = draw(st.integers(0, 4))
    size = 14 - 3 * n_melds
    kinds = draw(st.sampled_from([range(34), range(9), range(9, 18), range(18, 34)]))
    pool = [t for t in WALL if t in kinds]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return to_counts(pool[i] for i in picks), n_melds


@st.composite
def winning_context(draw: st.DrawFn) -> WinContext:
    """A random winning hand built from sets, with random melds, source and situation."""
    one_suit = draw(st.booleans())
    low, high = (0, 9) if one_suit else (0, 34)
    used = [0] * 34
    sets: list[tuple[str, int]] = []
    while len(sets) < 4:
        kind = draw(st.sampled_from(["c", "p", "c"]))
        t = draw(st.integers(low, high - 1))
        if kind == "c":
            if t >= 27 or t % 9 > 6 or any(used[t + i] >= 4 for i in range(3)):
                continue
            for i in range(3):
                used[t + i] += 1
        else:
            if used[t] > 1:
                continue
            used[t] += 3
        sets.append((kind, t))
    pair = draw(st.integers(low, high - 1).filter(lambda x: used[x] <= 2))
    used[pair] += 2
    n_melds = draw(st.integers(0, 4))
    melds: list[Meld] = []
    concealed: list[int] = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        if i < n_melds:
            if kind == "c":
                melds.append(Meld(MeldKind.CHOW, t, 3))
            else:
                mk = draw(st.sampled_from(list(MeldKind)[1:]))
                if mk is not MeldKind.PUNG and used[t] == 4:
                    mk = MeldKind.PUNG
                melds.append(Meld(mk, t, None if mk is MeldKind.CONCEALED_KONG else 1))
        else:
            concealed.extend((t, t + 1, t + 2) if kind == "c" else (t, t, t))
    win_tile = draw(st.sampled_from(concealed))
    concealed.remove(win_tile)
    source = draw(st.sampled_from(list(WinSource)))
    return WinContext(
        concealed=tuple(concealed),
        win_tile=win_tile,
        source=source,
        melds=tuple(melds),
        seat_wind=draw(st.integers(0, 3)),
        prevailing_wind=draw(st.integers(0, 3)),
        flowers=tuple(draw(st.sets(st.integers(34, 41), max_size=5))),
        kong_replacement_chain=draw(st.integers(0, 2)) if source is WinSource.SELF_DRAW else 0,
        last_tile=draw(st.booleans()) and source is not WinSource.ROBBED_KONG,
    )


@settings(max_examples=300, deadline=None)
@given(any_hand())
def test_decompositions_match_brute_force(hand: tuple[tuple[int, ...], int]) -> None:
    counts, n_melds = hand
    found = decompose(counts, n_melds)
    assert len(found) == len(set(found)), "duplicate decompositions"
    assert {canon(d) for d in found} == brute(counts, n_melds)
    assert decompose(counts, n_melds + 1) == ()  # wrong size for that many melds


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(winning_context())
def test_best_fan_matches_brute_force(ctx: WinContext) -> None:
    counts = to_counts((*ctx.concealed, ctx.win_tile))
    expected = brute(counts, len(ctx.melds))
    assert {canon(d) for d in decompose(counts, len(ctx.melds))} == expected
    assert expected, "the strategy builds winning hands only"
    for opts in OPTION_SETS:
        best = evaluate(ctx, opts)
        assert best is not None
        raws = [score_decomposition(ctx, opts, to_dec(c)).raw_fan for c in expected]
        assert best.raw_fan == max(raws)
        assert canon(best.decomposition) in expected
        assert evaluate_all(ctx, opts)[0] == best


def test_suit_table_roundtrip() -> None:
    """Nine gates plus a 5: the 9-digit key and its single split (111 234 55 678 999)."""
    key = suit_key([3, 1, 1, 1, 2, 1, 1, 1, 3])
    assert key == 311121113
    assert suit_splits(key) == ((4, (1, 5), (0, 8)),)


@settings(max_examples=200, deadline=None)
@given(any_hand())
def test_winning_tiles_match_trying_every_kind(hand: tuple[tuple[int, ...], int]) -> None:
    counts, n_melds = hand
    waiting = list(counts)
    waiting[next(t for t in range(34) if waiting[t])] -= 1  # 13 − 3k tiles
    naive = []
    for t in range(34):
        if waiting[t] < 4:
            waiting[t] += 1
            if decompose(waiting, n_melds):
                naive.append(t)
            waiting[t] -= 1
    assert winning_tiles(waiting, n_melds) == tuple(naive)
