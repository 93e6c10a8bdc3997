"""Independent review of the vn-160 engine against ``vn-160.md``, one test per rule point.

Written from the rules file (and the seed's Phụ Chú V examples), not from the engine. Scoring
rows of §5.1/§5.2/§5.3 are checked on :func:`replay.vn160.scoring.evaluate` directly (a
:class:`VNWin` is the whole input of scoring); the history-dependent points (fifth copy in a
real log, robbing a kong, options that change payments) go through full logs.
Seats: dealer = seat 0 = East, seat k has seat number k + 1 (§0).
"""

from __future__ import annotations

from typing import Any

import pytest
from logbuilder import Hand, clean, serious
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.replay.rulesets.vn160.options import options_for
from mjaudit.parts.replay.rulesets.vn160.patterns import VNMeld, VNWin
from mjaudit.parts.replay.rulesets.vn160.scoring import con, evaluate, settle, wait_set
from mjaudit.parts.replay.rulesets.vn160.tiles import INDEX
from vn160_brute import brute_splits

E, S, W, N = 0, 1, 2, 3
SELF, DISC = WinSource.SELF_DRAW, WinSource.DISCARD


def t(text: str) -> tuple[int, ...]:
    """``"1m 1m BM E"`` -> tile ints (space separated codes)."""
    return tuple(INDEX[c] for c in text.split())


def pung(code: str, frm: int | None = 0, with_: str | None = None) -> VNMeld:
    k = INDEX[code]
    shown = t(with_) if with_ else (k, k)
    kind = MeldKind.PUNG if frm is not None else MeldKind.CONCEALED_KONG
    tiles = (k, *shown) if frm is not None else (k, k, k, k)
    return VNMeld(Meld(kind, k, frm), tuple(sorted(tiles)))


def chow(first: str, frm: int = 0) -> VNMeld:
    k = INDEX[first]
    return VNMeld(Meld(MeldKind.CHOW, k, frm), (k, k + 1, k + 2))


def score(
    concealed: str,
    win: str,
    source: WinSource = SELF,
    opts: dict[str, Any] | None = None,
    **kw: Any,
) -> dict[str, int] | None:
    """The patterns of the best reading as {id: phán}, plus ``"p"`` (total phán)."""
    declared = tuple((INDEX[c], start) for c, start in kw.pop("declared", ()))
    ctx = VNWin(t(concealed), INDEX[win], source, declared=declared, **kw)
    got = evaluate(ctx, options_for(opts))
    if got is None:
        return None
    return {**dict(got.patterns), "p": got.phan}


F1 = (("f4", True),)  # a declared flower, no seat flower for seats 1-3: no không hoa không lá


# --- §1.2 / §4: a khung stands for any tile of its domain, even a fifth copy ------------------


def test_khung_may_stand_for_a_fifth_copy_scoring() -> None:
    """§1.2 sets no limit of four per kind on what a khung reads as: 1m×4 + BM + 222p 333p
    44s wins on 4s only if BM reads as a fifth 1m (the engine used to call it incomplete)."""
    got = score("1m 1m 1m 1m BM 2p 2p 2p 3p 3p 3p 4s 4s", "4s", declared=F1, seat_number=2)
    assert got == {"khan_khan": 18, "p": 18}  # four pungs, concealed, self-drawn, with khung
    # an honour: E×4 + RW (as a fifth E) is pung + pair
    got = score("E E E E RW 2p 2p 2p 3p 3p 3p 4s 4s", "4s", declared=F1, seat_number=2)
    assert got is not None and got["khan_khan"] == 18


def test_khung_may_stand_for_a_fifth_copy_in_a_log() -> None:
    """The same hand in a replayed log is a valid win, not a FALSE_WIN (§7.1 (a))."""
    b = Hand("vn-160").hand(S, "f4 1m1m1m1m BM 2p2p2p 3p3p3p 4s", exact=True)
    b.flower(S, "f4").replacement(S, "4s").discard(E).draw(S, "9s").discard(S, "9s")
    b.draw(W).discard(W).draw(N).discard(N).draw(E).discard(E)
    r = b.draw(S, "4s").win(S, "4s").replay()
    assert serious(r) == [], r.findings
    assert r.winners == (S,) and r.fan == 18
    assert r.deltas == (-512, 1536, -512, -512)  # m = 3: Con 256, Cái 512, self-drawn


def test_fifth_natural_copy_is_not_a_wait() -> None:
    """§4 WS: a kind whose four copies are all held cannot be the winning tile."""
    held = t("1m 1m 1m 1m BM 2p 2p 2p 3p 3p 3p 4s 4s")
    assert INDEX["1m"] not in wait_set(held, 0, options_for())


# --- §4 wait set: the seed's own examples (Phụ Chú V) -----------------------------------------


def test_phu_chu_V_khung_van_waits_on_every_character() -> None:
    """Seed: "Chờ mắt … nếu có khung Vạn thì chờ suốt hàng Vạn, con Vạn nào cũng ù."."""
    held = t("1p 2p 3p 4p 5p 6p 7s 8s 9s E E E BM")
    assert set(wait_set(held, 0, options_for())) == set(range(9))


def test_phu_chu_V_khung_van_and_tam_van() -> None:
    """Seed: "có Khung Vạn và Tam Vạn … ai đánh Nhất, Nhị, Tam, Tứ, Ngũ Vạn đều ù."."""
    held = t("1p 2p 3p 4p 5p 6p 7s 8s 9s E E BM 3m")
    got = set(wait_set(held, 0, options_for()))
    assert {k for k in got if k < 9} == set(t("1m 2m 3m 4m 5m"))
    assert got - set(range(9)) == {INDEX["E"]}  # EEE, and BM + 3m as the pair


def test_phu_chu_V_khung_van_and_tam_to_luc_van() -> None:
    """Seed: "Khung Vạn và Tam, Tứ, Ngũ, Lục Vạn … Tất cả hàng Vạn trừ Cửu Vạn."."""
    held = t("1p 2p 3p 7s 8s 9s E E BM 3m 4m 5m 6m")
    got = set(wait_set(held, 0, options_for()))
    assert {k for k in got if k < 9} == set(t("1m 2m 3m 4m 5m 6m 7m 8m"))
    assert got - set(range(9)) == {INDEX["E"]}  # EEE, 345m and 6m + BM as the pair


def test_V4_wait_is_exactly_the_five_listed() -> None:
    """§11 V4: "4m, 5m, 7m, 8m and 9m all complete the hand" (the khung test only checks
    that these five are among the waits)."""
    held = t("1m 1m 1m 5m 6m 7m 8m 8m BM 9m")
    assert wait_set(held, 1, options_for()) == t("4m 5m 7m 8m 9m")


# --- §5.1 rows and §5.2 combinations ----------------------------------------------------------


def test_u_phinh_pair_not_seat_wind() -> None:
    """Item 12 / §5.4: all chows with an East pair is phình only if the winner is not East."""
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s E"
    assert score(hand, "E", DISC, declared=F1, seat_number=1) == {"u_muoi": 0, "p": 0}
    assert score(hand, "E", DISC, declared=F1, seat_number=2) == {"u_phinh": 1, "p": 1}
    opts = {"phinh_pair_rule": "no_honour_pair"}
    assert score(hand, "E", DISC, opts, declared=F1, seat_number=2) == {"u_muoi": 0, "p": 0}
    opts = {"phinh_pair_rule": "any"}
    assert score(hand, "E", DISC, opts, declared=F1, seat_number=1) == {"u_phinh": 1, "p": 1}


def test_tui_tui_with_and_without_khung() -> None:
    """Phụ Chú IV: tui tui 3 phán, không khung 4; a khung in a claimed set counts."""
    melds = (pung("5p"),)
    got = score("1m 1m 1m 9s 9s 9s E E E C", "C", DISC, declared=F1, melds=melds)
    assert got == {"tui_tui": 4, "p": 4}
    melds = (pung("5p", with_="5p BP"),)
    got = score("1m 1m 1m 9s 9s 9s E E E C", "C", DISC, declared=F1, melds=melds)
    assert got == {"tui_tui": 3, "p": 3}


def test_khan_khan_with_khung_and_concealed_kong() -> None:
    """Item 19: khản khản needs no claimed set (a concealed kong is fine); 3 mủn with khung."""
    melds = (pung("5p", frm=None),)
    got = score("1m 1m BM 9s 9s 9s E E E C", "C", declared=F1, melds=melds)
    assert got == {"khan_khan": 18, "u_xuyen": 1, "p": 19}  # single wait on C
    got = score("1m 1m 1m 9s 9s 9s E E E C", "C", declared=F1, melds=melds)
    assert got == {"khan_khan": 24, "u_xuyen": 1, "p": 25}


def test_toan_hang_khong_khung_two_mun() -> None:
    """Items 14 / Phụ Chú IV: toàn hàng 1 mủn, without khung 2 mủn."""
    got = score("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 8m 9m 9m", "9m", DISC, declared=F1)
    assert got is not None and got["toan_hang"] == 12


def test_toan_chu_replaces_tui_tui() -> None:
    """Item 15: 18 phán; §5.2 toàn chữ replaces tui tui."""
    got = score("E E E S S S W W W C C C P", "P", DISC, declared=F1, seat_number=2)
    assert got == {"toan_chu": 18, "p": 18}


def test_dai_tam_nguyen_replaces_tieu() -> None:
    """Item 21: 9 phán."""
    got = score("C C C F F F P P P 1m 2m 3m 5s", "5s", DISC, declared=F1)
    assert got == {"dai_tam_nguyen": 9, "p": 9}


def test_dai_tu_hi_replaces_tieu_tu_hi_and_tui_tui() -> None:
    """Item 23: 6 mủn; §5.2: no tui tui, no tiểu tứ hỉ on top."""
    got = score("E E E S S S W W W N N N 5p", "5p", DISC, declared=F1, seat_number=3)
    assert got == {"dai_tu_hi": 36, "p": 36}


def test_tieu_tu_hi_keeps_tui_tui() -> None:
    """Item 24: 4 mủn; §5.2 only đại tứ hỉ replaces tui tui."""
    got = score("E E E S S S W W W N N 5p 5p", "5p", DISC, declared=F1, seat_number=3)
    assert got == {"tui_tui": 4, "tieu_tu_hi": 24, "p": 28}


def test_u_pe_pe_only_with_option_and_its_value() -> None:
    """§4 structure 3 / §5.1: 3 phán by default, pe_pe_phan changes it; it takes no set
    pattern (§5.2)."""
    hand = "1m 1m 4m 4m 2p 2p 7p 7p 3s 3s 9s 9s E"
    assert score(hand, "E", DISC, declared=F1) is None
    assert score(hand, "E", DISC, {"allow_pe_pe": True}, declared=F1) == {"u_pe_pe": 3, "p": 3}
    opts = {"allow_pe_pe": True, "pe_pe_phan": 5}
    assert score(hand, "E", DISC, opts, declared=F1) == {"u_pe_pe": 5, "p": 5}


def test_seat_flower_and_flower_set_with_rh() -> None:
    """§5.1/§5.4: f1 is E's seat flower; f2 f3 f4 + RH make a set (RH fills one);
    RH itself is a declared khung (1, +1 for number 1 = seat 1)."""
    decl = (("f1", True), ("f2", True), ("f3", True), ("RH", True))
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 5m"
    got = score(hand, "5m", DISC, declared=decl, seat_number=1)
    assert got == {"u_phinh": 1, "seat_flower": 1, "flower_set": 2, "khung_declared": 2, "p": 6}
    opts = {"seat_flower_phan": 2, "flower_set_phan": 3}
    got = score(hand, "5m", DISC, opts, declared=decl, seat_number=1)
    assert got is not None and (got["seat_flower"], got["flower_set"]) == (2, 3)
    opts = {"rh_completes_flower_set": False}
    got = score(hand, "5m", DISC, opts, declared=decl, seat_number=1)
    assert got is not None and "flower_set" not in got


def test_tong_hop_dau_needs_both_at_the_start() -> None:
    """§5.3: BT + RU dựng đầu = 9; RU declared later: BT 2 + 1 (start) and RU 2 (+1 seat 2)."""
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 5m"
    got = score(hand, "5m", DISC, declared=(("BT", True), ("RU", True)), seat_number=3)
    assert got == {"u_phinh": 1, "tong_hop_dau": 9, "p": 10}
    got = score(hand, "5m", DISC, declared=(("BT", True), ("RU", False)), seat_number=2)
    assert got == {"u_phinh": 1, "khung_declared": 6, "p": 7}


def test_khong_hoa_khong_la_lost_by_a_declared_khung_or_held_khung() -> None:
    """Phụ Chú IV: no flower, no khung declared, and no khung among the 14 tiles."""
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 5m"
    assert score(hand, "5m", DISC, seat_number=2) == {
        "u_phinh": 1,
        "khong_hoa_khong_la": 6,
        "p": 7,
    }
    got = score("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s BS 5m", "5m", DISC, seat_number=2)
    assert got is not None and "khong_hoa_khong_la" not in got
    got = score(hand, "5m", DISC, declared=(("BP", False),), seat_number=2)
    assert got is not None and "khong_hoa_khong_la" not in got


def test_thien_u_counts_self_drawn_option() -> None:
    """§5.2 [D]: thiên ù counts as self-drawn and concealed (bất cầu nhần); the option off
    drops it. Never ù xuyên."""
    hand = "1s 2s 3s 4s 5s 6s 7s 8s 9s 2p 3p 4p 5p"
    got = score(hand, "5p", heavenly=True)
    assert got == {"u_phinh": 1, "bat_cau_nhan": 1, "thien_u": 6, "khong_hoa_khong_la": 6, "p": 14}
    got = score(hand, "5p", opts={"thien_u_counts_self_drawn": False}, heavenly=True)
    assert got is not None and "bat_cau_nhan" not in got and got["p"] == 13


def test_u_xuyen_self_draw_only_option() -> None:
    """Item 17 / §5.4: a single wait won on a discard scores xuyên only with the option off."""
    hand = "1p 2p 3p 4s 5s 6s 7s 8s 9s 6m 8m 2m 2m"
    got = score(hand, "7m", DISC, declared=F1, seat_number=3)
    assert got == {"u_phinh": 1, "p": 1}
    got = score(hand, "7m", DISC, {"u_xuyen_self_draw_only": False}, declared=F1, seat_number=3)
    assert got == {"u_phinh": 1, "u_xuyen": 1, "p": 2}


# --- §6 payments and their options ------------------------------------------------------------


def test_con_table_and_curves() -> None:
    """§6 table; mun_linear = 64 × m; max_mun caps m."""
    d = options_for()
    assert [con(p, d) for p in (0, 1, 2, 3, 4, 5, 6, 11, 12, 18, 24, 30, 36)] == [
        1, 2, 4, 8, 16, 32, 64, 64, 128, 256, 512, 1024, 2048,
    ]  # fmt: skip
    lin = options_for({"payout_curve": "mun_linear"})
    assert [con(p, lin) for p in (5, 6, 12, 18, 36)] == [32, 64, 128, 192, 384]
    capped = options_for({"max_mun": 2})
    assert [con(p, capped) for p in (6, 12, 18, 36)] == [64, 128, 128, 128]


def test_cai_and_dealer_multipliers() -> None:
    """§6: Cái = cai_multiplier × Con; dealer_multiplier 2 doubles the dealer's payments."""
    d = options_for()
    assert settle(3, S, DISC, d, discarder=W) == [-8, 32, -16, -8]
    assert settle(3, S, SELF, d) == [-16, 48, -16, -16]
    c3 = options_for({"cai_multiplier": 3})
    assert settle(3, S, DISC, c3, discarder=W) == [-8, 40, -24, -8]
    d2 = options_for({"dealer_multiplier": 2})
    assert settle(3, S, DISC, d2, discarder=W, dealer=E) == [-16, 40, -16, -8]


# --- §3.2 / §6: robbing a kong (option) -------------------------------------------------------


def rob(opts: dict[str, Any]) -> Hand:
    """W pungs E's 5p, later adds the drawn 5p; S (ready on 5p: 4p6p closed) robs it."""
    b = Hand("vn-160", options=opts)
    b.hand(S, "1m2m3m 4p6p 7s8s9s 2s3s4s 5m5m").hand(W, "5p5p")
    b.discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N).draw(E).discard(E).draw(S).discard(S)
    return b.draw(W, "5p").added_kong(W, "5p").win(S, "5p", W, robbed_kong=True)


def test_rob_kong_option_konger_pays_cai() -> None:
    """§6: the konger pays Cái, the others Con. S: phình 1 + không hoa không lá 6 = 7 phán
    (Con 64, Cái 128)."""
    r = rob({"rob_kong": True}).replay()
    clean(r)
    assert r.winners == (S,) and r.fan == 7
    assert r.deltas == (-64, 256, -128, -64)


def test_rob_kong_off_by_default() -> None:
    """§3.2 [D]: without the option the kong's tile is not available to win on."""
    r = rob({}).replay()
    assert r.winners == ()
    assert any(f.code == "WIN_TILE_NOT_AVAILABLE" for f in r.findings)


@pytest.mark.parametrize("bad", [{"pe_pe_phan": -1}, {"cai_multiplier": 0}])
def test_option_values_are_validated(bad: dict[str, Any]) -> None:
    with pytest.raises(Exception, match="option"):
        options_for(bad)


# --- options that change scoring: khung_values, khong_khung_counts_declared ------------------


def test_khung_values_option_changes_the_score() -> None:
    """§5.3 / §10 khung_values: the table (and the pair value) is replaced."""
    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s 5m"
    decl = (("BM", False), ("BT", True), ("RU", True))
    opts = {"khung_values": {"BM": {"base": 2, "max": 5}, "tong_hop_dau": 12}}
    got = score(hand, "5m", DISC, opts, declared=decl, seat_number=4)
    assert got == {"u_phinh": 1, "khung_declared": 3, "tong_hop_dau": 12, "p": 16}


def test_khong_khung_counts_declared_option() -> None:
    """§5.1 [D]: a declared khung spoils "không khung" only with the option."""
    decl = (("BP", False),)
    hand = "1m 1m 1m 9s 9s 9s E E E C"
    got = score(hand, "C", DISC, declared=decl, melds=(pung("5p"),), seat_number=3)
    assert got == {"tui_tui": 4, "khung_declared": 1, "p": 5}
    opts = {"khong_khung_counts_declared": True}
    got = score(hand, "C", DISC, opts, declared=decl, melds=(pung("5p"),), seat_number=3)
    assert got == {"tui_tui": 3, "khung_declared": 1, "p": 4}


# --- property: the uncapped khung reading against an independent brute force ----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from mjaudit.parts.replay.rulesets.mahjong.counts import ORPHANS  # noqa: E402
from mjaudit.parts.replay.rulesets.vn160.khung import completions, khung_domain  # noqa: E402
from mjaudit.parts.replay.rulesets.vn160.scoring import _decompose  # noqa: E402

DOMAINS = {  # §1.2, written out here rather than taken from the engine
    "BT": set(range(34)),
    "BM": set(range(9)),
    "BP": set(range(9, 18)),
    "BS": set(range(18, 27)),
    "RU": set(range(27)),
    "RW": set(range(27, 31)),
    "RD": set(range(31, 34)),
}


def brute_completions(nat: tuple[int, ...], khung: list[str], n_melds: int) -> set:  # type: ignore[type-arg]
    partial = {nat}
    for k in khung:
        partial = {
            tuple(n + (i == x) for i, n in enumerate(c)) for c in partial for x in DOMAINS[k]
        }
    out = set()
    for c in partial:
        if sum(c) != 14 - 3 * n_melds:
            continue
        orphans = n_melds == 0 and all(c[o] >= 1 for o in ORPHANS) and sum(c) == 14
        orphans = orphans and all(c[x] == 0 for x in range(34) if x not in ORPHANS)
        if brute_splits(c) or orphans:
            out.add(c)
    return out


SETS = [("pung", x) for x in range(34)] + [("chow", x) for x in range(27) if x % 9 <= 6]


@st.composite
def fifth_copy_hands(draw):  # type: ignore[no-untyped-def]
    """A pair and sets (often five or more of a kind); every copy beyond the fourth, and a
    few more tiles, are held as khung (usually one whose domain has the tile)."""
    n_melds = draw(st.integers(0, 2))
    n_sets = 4 - n_melds
    c = [0] * 34
    pair = draw(st.integers(0, 33))
    c[pair] += 2
    if draw(st.booleans()):  # one set is a pung of the pair's kind: five copies
        c[pair] += 3
        n_sets -= 1
    for what, x in draw(st.lists(st.sampled_from(SETS), min_size=n_sets, max_size=n_sets)):
        for d in (0, 0, 0) if what == "pung" else (0, 1, 2):
            c[x + d] += 1
    if draw(st.booleans()):  # a tile swapped for a random one: often no completion
        held = [x for x in range(34) if c[x]]
        c[draw(st.sampled_from(held))] -= 1
        c[draw(st.integers(0, 33))] += 1
    khung: list[str] = []
    extra = draw(st.integers(0, 2))
    for x in range(34):
        while c[x] > 4 or (extra and c[x] and draw(st.integers(0, 5)) == 0):
            if c[x] <= 4:
                extra -= 1
            c[x] -= 1
            fitting = sorted(k for k, dom in DOMAINS.items() if x in dom)
            pick = fitting if draw(st.integers(0, 4)) else sorted(DOMAINS)
            khung.append(draw(st.sampled_from(pick)))
    return tuple(c), khung[:4], n_melds  # more than 4 khung: the count is short, no completion


@settings(max_examples=150, deadline=None)
@given(fifth_copy_hands())
def test_uncapped_completions_match_brute_force(h) -> None:  # type: ignore[no-untyped-def]
    nat, khung, n_melds = h
    assert {k: set(khung_domain(k)) for k in DOMAINS} == DOMAINS
    got = completions(nat, khung, n_melds, max_copies=None)
    assert set(got) == brute_completions(nat, khung, n_melds)
    for comp in got:
        if max(comp) > 9:
            continue
        mine = {
            (d.pair, d.chows, d.pungs)
            for d in _decompose(comp, n_melds)
            if d.structure.value == "standard"
        }
        want = {s for s in brute_splits(comp) if len(s[1]) + len(s[2]) == 4 - n_melds}
        assert mine == want
