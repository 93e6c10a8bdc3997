"""vn-160 khung (jokers) win test: rules examples and a brute-force property (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.mahjong.counts import N_KINDS, ORPHANS, parse, tile, to_counts
from mjaudit.parts.replay.rulesets.mahjong.decompose import decompose, is_complete
from mjaudit.parts.replay.rulesets.vn160 import KHUNG_CODES, completions, is_winning, khung_domain
from vn160_brute import brute_splits

WIDE = ("BT", "RU")
NARROW = tuple(c for c in KHUNG_CODES if c not in WIDE)


def hand(text: str) -> tuple[int, ...]:
    return to_counts(parse(text))


def with_tiles(base: tuple[int, ...], text: str) -> tuple[int, ...]:
    c = list(base)
    for t in parse(text):
        c[t] += 1
    return tuple(c)


# --- rules examples -------------------------------------------------------------------------


def test_v4_bm_stands_for_a_character():
    # §11 V4: [chow 2m3m4m] + 1m1m1m 5m6m7m 8m8m BM 9m + win 9m; BM = 8m is one reading.
    nat = hand("111m 567m 88m 9m 9m")
    got = completions(nat, ["BM"], 1)
    assert hand("111m 567m 888m 99m") in got
    assert all(sum(c[9:]) == 0 for c in got)  # BM only ever reads as a character
    assert is_winning(nat, ["BM"], 1)
    assert not is_winning(nat, ["BP"], 1)  # a dots khung cannot finish a pure-character hand
    assert is_winning(nat, ["BT"], 1)
    assert is_winning(nat, ["RU"], 1)


def test_v4_wait_widened_by_khung():
    # §11 V4: with BM in hand 4m, 5m, 7m, 8m and 9m all complete the hand.
    before = hand("111m 567m 88m 9m")
    waits = [
        t
        for t in range(N_KINDS)
        if is_winning(tuple(n + (i == t) for i, n in enumerate(before)), ["BM"], 1)
    ]
    assert {tile(c) for c in ("4m", "5m", "7m", "8m", "9m")} <= set(waits)


def test_khung_for_a_dragon():
    nat = hand("123m 456p 789s CC FF")
    assert completions(nat, ["RD"]) == {
        hand("123m 456p 789s CCC FF"),
        hand("123m 456p 789s CC FFF"),
    }
    assert not is_winning(nat, ["RW"])  # a wind khung cannot be a dragon
    assert not is_winning(nat, ["BM"])
    assert is_winning(nat, ["BT"])


def test_khung_for_a_wind():
    nat = hand("123m 456p 789s EE SS")
    assert completions(nat, ["RW"]) == {
        hand("123m 456p 789s EEE SS"),
        hand("123m 456p 789s EE SSS"),
    }
    assert not is_winning(nat, ["RD"])
    assert not is_winning(nat, ["RU"])  # RU = suit tiles only by default (§1.2 [D])
    assert is_winning(nat, ["RU"], ru_domain="any_tile")
    assert is_winning(nat, ["RU"], ru_domain="suit_tiles") is False


def test_rh_never_forms_a_set():
    thirteen = hand("123m 456p 789s EEE S")
    assert not is_winning(thirteen, ["RH"])  # RH is not one of the 14 tiles (§1.2, §7.1 (b))
    assert is_winning(thirteen, ["RH", "RW"])  # the other khung does the work
    assert is_winning(hand("123m 456p 789s EE SSS"), ["RH"])
    assert khung_domain("RH") == frozenset()


def test_bm_only_characters_and_suit_khung():
    nat = hand("123m 456p 789s 55s 4p5p")  # needs 3p or 6p
    assert not is_winning(nat, ["BM"])
    assert not is_winning(nat, ["BS"])
    assert not is_winning(nat, ["RD"])
    assert completions(nat, ["BP"]) == {
        hand("123m 456p 789s 55s 345p"),
        hand("123m 456p 789s 55s 456p"),
    }
    assert completions(nat, ["RU"]) == completions(nat, ["BP"]) == completions(nat, ["BT"])


def test_domains():
    assert khung_domain("BT") == frozenset(range(34))
    assert khung_domain("BM") == frozenset(range(9))
    assert khung_domain("BP") == frozenset(range(9, 18))
    assert khung_domain("BS") == frozenset(range(18, 27))
    assert khung_domain("RU") == frozenset(range(27))
    assert khung_domain("RU", "any_tile") == frozenset(range(34))
    assert khung_domain("RW") == frozenset(range(27, 31))
    assert khung_domain("RD") == frozenset(range(31, 34))
    assert khung_domain("BT2") == khung_domain("BT")  # option khung_sets (§1.2)
    with pytest.raises(ValueError):
        khung_domain("f1")
    with pytest.raises(ValueError):
        khung_domain("RU", "honours")


def test_thirteen_orphans_with_khung():
    # §4 item 2 / §11 V6 with a khung as the missing dragon.
    nat = hand("1m9m1p9p1s9s ESWN CF C")
    assert completions(nat, ["RD"]) == {hand("1m9m1p9p1s9s ESWN CFP C")}
    assert not is_winning(nat, ["BM"])
    assert not is_winning(nat, ["RD"], 1)
    twelve = hand("1m9m1p9p1s9s ESWN CF")
    got = completions(twelve, ["RD", "BT"])
    # RD is P and BT any orphan, or RD doubles C/F/P and BT is P.
    assert len(got) == 13
    assert all(c[tile("P")] >= 1 for c in got)


def test_seven_pairs_only_with_option():
    nat = hand("11m 22m 33p 44p 55s 66s E")
    assert not is_winning(nat, ["RW"])
    assert completions(nat, ["RW"], allow_pe_pe=True) == {hand("11m 22m 33p 44p 55s 66s EE")}
    # two khung make a new pair of one kind not already held
    got = completions(hand("11m 22m 33p 44p 55s 66s"), ["RD", "RD2"], allow_pe_pe=True)
    base = hand("11m 22m 33p 44p 55s 66s")
    assert got == {with_tiles(base, d + d) for d in "CFP"}


def test_no_fifth_copy_by_default():
    nat = hand("5555m 123p 456p 789p")
    assert not is_winning(nat, ["BM"])
    assert completions(nat, ["BM"], max_copies=None) == {hand("55555m 123p 456p 789p")}


def test_without_khung_matches_decompose():
    for text, n in (
        ("123p 456s 789s 68m 7m 22m", 0),
        ("111p 555p 777s WWW 3m 3m", 0),
        ("1m9m1p9p1s9s ESWN CFP C", 0),
        ("456p 777s 345s 9m9m", 1),
        ("123s456s789s 23p5p5p", 0),
    ):
        nat = hand(text)
        assert is_winning(nat, [], n) == is_complete(nat, n)
        assert completions(nat, [], n) == ({nat} if is_complete(nat, n) else set())


def test_wrong_tile_count_is_not_a_win():
    assert completions(hand("123m 456p 789s EE"), ["BT"]) == frozenset()
    assert not is_winning(hand("123m 456p 789s EEE S"), ["BT", "BT2"])
    with pytest.raises(ValueError):
        is_winning((0,) * 33, [])


def test_eight_khung():
    nat = hand("E 1m 2m 5p 9s 9s C")
    khung = ["BT", "BP", "BS", "BM", "RH", "RU", "RD", "RW"]
    assert is_winning(nat, khung) == bool(completions(nat, khung))
    assert is_winning(nat, khung)


# --- property: against every khung assignment ------------------------------------------------


def brute(nat, khung, n_melds, ru_domain, pe_pe):
    """Every assignment of every khung within its domain, then the plain decomposition."""
    need = 14 - 3 * n_melds
    real = [k for k in khung if k != "RH"]
    if sum(nat) + len(real) != need:
        return frozenset()
    partial = {tuple(nat)}
    for k in real:
        partial = {
            tuple(n + (i == t) for i, n in enumerate(c))
            for c in partial
            for t in khung_domain(k, ru_domain)
        }
    out = set()
    for c in partial:
        if max(c) > 4:
            continue
        if decompose(c, n_melds) or (pe_pe and n_melds == 0 and set(c) <= {0, 2} and sum(c) == 14):
            out.add(c)
    return frozenset(out)


SET_KINDS = [("pung", t) for t in range(34)] + [("chow", t) for t in range(27) if t % 9 <= 6]


@st.composite
def hands(draw):
    n_melds = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(["standard", "standard", "orphans", "pairs", "random"]))
    c = [0] * 34
    if kind == "orphans" and n_melds == 0:
        for t in ORPHANS:
            c[t] = 1
        c[draw(st.sampled_from(ORPHANS))] += 1
    elif kind == "pairs" and n_melds == 0:
        for t in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
            c[t] = 2
    elif kind == "random":
        for t in draw(
            st.lists(st.integers(0, 33), min_size=14 - 3 * n_melds, max_size=14 - 3 * n_melds)
        ):
            c[t] += 1
    else:
        c[draw(st.integers(0, 33))] += 2
        for what, t in draw(
            st.lists(
                st.sampled_from(SET_KINDS), min_size=4 - n_melds, max_size=4 - n_melds, unique=True
            )
        ):
            if what == "pung":
                c[t] += 3
            else:
                for d in range(3):
                    c[t + d] += 1
    c = [min(n, 4) for n in c]  # a fifth copy is dropped: the tile count is then wrong
    held = [t for t in range(34) for _ in range(c[t])]
    n_khung = min(draw(st.sampled_from([0, 1, 2, 2, 3, 3, 4, 4])), len(held))
    slots = (
        draw(
            st.lists(st.integers(0, len(held) - 1), min_size=n_khung, max_size=n_khung, unique=True)
        )
        if held
        else []
    )
    codes: list[str] = []
    for t in (held[i] for i in slots):
        c[t] -= 1
        fitting = [k for k in KHUNG_CODES if t in khung_domain(k, "any_tile")]
        code = draw(st.sampled_from(fitting if draw(st.integers(0, 4)) else KHUNG_CODES))
        if code in WIDE and sum(k in WIDE for k in codes) >= (3 if len(slots) <= 3 else 1):
            code = next(k for k in fitting if k not in WIDE)
        codes.append(code)
    if draw(st.integers(0, 5)) == 0:
        codes.append("RH")
    # sometimes a tile too many or too few, so the count check is exercised
    if draw(st.integers(0, 9)) == 0 and held:
        c[draw(st.sampled_from(held))] += 1
    return tuple(c), codes, n_melds


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(["suit", "any_tile"]), st.booleans())
def test_matches_brute_force(h, ru_domain, pe_pe):
    nat, khung, n_melds = h
    if min(nat) < 0:
        return
    want = brute(nat, khung, n_melds, ru_domain, pe_pe)
    got = completions(nat, khung, n_melds, ru_domain, allow_pe_pe=pe_pe)
    assert got == want
    assert is_winning(nat, khung, n_melds, ru_domain, allow_pe_pe=pe_pe) == bool(want)


# --- property: the best score against a brute-force search over every khung assignment -------

from mjaudit.parts.replay.rulesets.hk.patterns import WinSource  # noqa: E402
from mjaudit.parts.replay.rulesets.mahjong.decompose import Structure as DecStructure  # noqa: E402
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind  # noqa: E402
from mjaudit.parts.replay.rulesets.vn160.options import options_for  # noqa: E402
from mjaudit.parts.replay.rulesets.vn160.patterns import (  # noqa: E402
    Reading,
    Structure,
    VNMeld,
    VNWin,
    combine,
    hand_patterns,
    khong_khung,
    reading_patterns,
)
from mjaudit.parts.replay.rulesets.vn160.scoring import evaluate, wait_set  # noqa: E402
from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX  # noqa: E402

OPTION_SETS = (
    {},
    {"allow_pe_pe": True},
    {"ru_domain": "any_tile", "phinh_pair_rule": "no_honour_pair"},
    {"u_xuyen_self_draw_only": False, "khong_khung_counts_declared": True},
)


def brute_best(ctx: VNWin, opts) -> int | None:  # type: ignore[no-untyped-def]
    """Max phán over every khung assignment and every split, scored with the same rules."""
    nat = [0] * 34
    khung = []
    win_tile = INDEX["BT"] if ctx.bonus_win else ctx.win_tile  # a bonus discard is a Tổng
    for t in (*ctx.concealed, win_tile):
        if t < 34:
            nat[t] += 1
        else:
            khung.append(t)
    partial = {tuple(nat)}
    for k in khung:
        dom = khung_domain(CODES_OF[k], opts.ru_domain)
        partial = {tuple(n + (i == t) for i, n in enumerate(c)) for c in partial for t in dom}
    n_melds = len(ctx.melds)
    single = len(wait_set(ctx.concealed, n_melds, opts)) == 1
    base = hand_patterns(ctx, opts, single)
    no_khung = khong_khung(ctx, opts)
    meld_counts = [0] * 34
    for m in ctx.melds:
        for t in m.meld.tiles[:3]:
            meld_counts[t] += 1
    best = None
    for c in partial:
        # no cap at four copies: a khung may stand for a fifth copy (§1.2; review fix)
        if sum(c) != 14 - 3 * n_melds:
            continue
        total = tuple(a + b for a, b in zip(c, meld_counts, strict=True))
        readings = []
        if n_melds == 0 and max(c) <= 4:
            for dec in decompose(c, 0):
                if dec.structure is DecStructure.THIRTEEN_ORPHANS:
                    readings.append(Reading(Structure.THIRTEEN_ORPHANS, total, dec.pair))
        for pair, chows0, pungs0 in brute_splits(c):
            chows = tuple(sorted((*chows0, *(m.tile for m in ctx.melds if m.is_chow))))
            pungs = tuple(sorted((*pungs0, *(m.tile for m in ctx.melds if not m.is_chow))))
            readings.append(Reading(Structure.STANDARD, total, pair, chows, pungs))
        if opts.allow_pe_pe and n_melds == 0 and set(c) <= {0, 2}:
            readings.append(Reading(Structure.SEVEN_PAIRS, total, -1))
        for r in readings:
            hits = combine([*base, *reading_patterns(r, ctx, opts, no_khung)])
            value = sum(v for _, v in hits)
            best = value if best is None else max(best, value)
    return best


CODES_OF = {i: c for c, i in INDEX.items()}
FLOWER_AND_KHUNG = [INDEX[c] for c in ("f1", "f2", "g3", "k4", "q2", "BT", "RU", "BM", "RH", "RW")]


@st.composite
def wins(draw):
    nat, codes, n_melds = draw(hands())
    if min(nat) < 0:
        nat = tuple(max(0, n) for n in nat)
    codes = [c for c in codes if c != "RH"]
    held = [t for t in range(34) for _ in range(nat[t])] + [INDEX[c] for c in codes]
    if not held:
        held = [0]
    win_tile = draw(st.sampled_from(held))
    held.remove(win_tile)
    melds = []
    for _ in range(n_melds):
        if draw(st.booleans()):
            t = draw(st.sampled_from([t for t in range(27) if t % 9 <= 6]))
            melds.append(VNMeld(Meld(MeldKind.CHOW, t, 0), (t, t + 1, t + 2)))
        else:
            t = draw(st.integers(0, 33))
            kind = draw(st.sampled_from([MeldKind.PUNG, MeldKind.CONCEALED_KONG]))
            melds.append(VNMeld(Meld(kind, t, 0 if kind is MeldKind.PUNG else None), (t,) * 3))
    declared = tuple(
        (t, draw(st.booleans()))
        for t in draw(st.lists(st.sampled_from(FLOWER_AND_KHUNG), max_size=3, unique=True))
    )
    return VNWin(
        concealed=tuple(sorted(held)),
        win_tile=win_tile,
        source=draw(st.sampled_from([WinSource.SELF_DRAW, WinSource.DISCARD])),
        melds=tuple(melds),
        seat_number=draw(st.integers(1, 4)),
        declared=declared,
        earthly=draw(st.integers(0, 9)) == 0,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wins(), st.sampled_from(OPTION_SETS))
def test_best_score_matches_brute_force(ctx, overrides):
    opts = options_for(overrides)
    got = evaluate(ctx, opts)
    want = brute_best(ctx, opts)
    assert (got is None) == (want is None)
    if got is None:
        return
    assert got.phan == want
    # the reported assignment reads every khung inside its domain
    reads = list(got.khung)
    if ctx.bonus_win:
        reads[-1] = ("BT", reads[-1][1])
    for code, kind in reads:
        assert INDEX[kind] in khung_domain(code, opts.ru_domain)
