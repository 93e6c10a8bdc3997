"""Cước: detection in the winning hand (chan.md §7.2), the table (§7.3), gà (§7.5), the
score of a declared list (§7.1) and the true value of a hand (§7.6). All pure.

A declared or detected list of cước is a ``Counter`` of ids (``{"tom": 2, "leo": 1}``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.chan.cards import CC, count_red, leo_count, tom_count
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions


@dataclass(frozen=True)
class CuocDef:
    id: str
    name: str
    diem: int
    dich: int
    max_n: int | None  # None: one per quad / per chíu (bounded by the hand)


TABLE: dict[str, CuocDef] = {
    c.id: c
    for c in (
        CuocDef("xuong", "Xuông", 2, 0, 1),
        CuocDef("thong", "Thông", 3, 1, 1),
        CuocDef("chi", "Chì", 3, 1, 1),
        CuocDef("thien_u", "Thiên ù", 3, 1, 1),
        CuocDef("dia_u", "Địa ù", 3, 1, 1),
        CuocDef("tom", "Tôm", 4, 1, 4),
        CuocDef("leo", "Lèo", 5, 2, 4),
        CuocDef("bach_dinh", "Bạch định", 7, 4, 1),
        CuocDef("tam_do", "Tám đỏ", 8, 5, 1),
        CuocDef("kinh_tu_chi", "Kính tứ chi", 12, 9, 1),
        CuocDef("thap_thanh", "Thập thành", 12, 9, 1),
        CuocDef("co_thien_khai", "Có thiên khai", 3, 1, None),
        CuocDef("co_an_bon", "Có ăn bòn", 3, 1, None),
        CuocDef("u_bon", "Ù bòn", 3, 1, 1),
        CuocDef("co_chiu", "Có chíu", 3, 1, None),
        CuocDef("chiu_u", "Chíu ù", 3, 1, 1),
        CuocDef("bach_thu", "Bạch thủ", 4, 1, 1),
        CuocDef("bach_thu_chi", "Bạch thủ chi", 6, 3, 1),
        CuocDef("hoa_roi_cua_phat", "Hoa rơi cửa phật", 20, 17, 1),
        CuocDef("ca_loi_san_dinh", "Cá lội sân đình", 20, 17, 1),
    )
}


def table_for(opts: ChanOptions) -> dict[str, CuocDef]:
    """The §7.3 table plus the regional cước enabled by ``extra_cuoc``."""
    if not opts.extra_cuoc:
        return TABLE
    extra = {e.id: CuocDef(e.id, e.id, e.diem, e.dich, 1) for e in opts.extra_cuoc}
    return {**TABLE, **extra}


@dataclass(frozen=True)
class WinFacts:
    """What §7.2 needs to know about one win, gathered by the replay from the hand history.

    ``k`` is the 20 cards; ``w`` the winning card (None for thiên ù). ``thong`` is None when
    the previous hand is unknown.
    """

    k: Counter[str]
    w: str | None
    via: str  # stock, chiu, deal
    chi: bool
    dia_u: bool
    thong: bool | None
    thien_khai: int
    an_bon: int
    u_bon: bool
    chiu: int
    bach_thu: bool
    bach_thu_chi: bool
    eaten_chan_5v: bool
    max_chan: int


def detect(f: WinFacts, opts: ChanOptions) -> Counter[str]:
    """Every cước present in the winning hand, at its true count (§7.2)."""
    out: Counter[str] = Counter()
    deal = f.via == "deal"
    if f.thong:
        out["thong"] = 1
    if f.chi and not deal:
        out["chi"] = 1
    if deal:
        out["thien_u"] = 1
    if f.dia_u and not deal:
        out["dia_u"] = 1
    if tom := tom_count(f.k):
        out["tom"] = tom
    if leo := leo_count(f.k):
        out["leo"] = leo
    red = count_red(f.k, opts.red_cards)
    if red == 0:
        out["bach_dinh"] = 1
    if red == 8:
        out["tam_do"] = 1
    if f.k[CC] == 4 and red == 4 and all(c == CC or c not in opts.red_cards for c in +f.k):
        out["kinh_tu_chi"] = 1
    if f.max_chan == 10:
        out["thap_thanh"] = 1
    if f.thien_khai:
        out["co_thien_khai"] = f.thien_khai
    if f.an_bon:
        out["co_an_bon"] = f.an_bon
    if f.u_bon and not deal:
        out["u_bon"] = 1
    if f.chiu:
        out["co_chiu"] = f.chiu
    if f.via == "chiu":
        out["chiu_u"] = 1
    if not deal:
        if f.bach_thu and f.w != CC:
            out["bach_thu"] = 1
        if f.bach_thu_chi:
            out["bach_thu_chi"] = 1
        if out["chi"] and out["bach_thu"] and f.eaten_chan_5v:
            if f.w == "2v":
                out["hoa_roi_cua_phat"] = 1
            elif f.w == "8v":
                out["ca_loi_san_dinh"] = 1
    return +out


def ga_of(declared: Counter[str], opts: ChanOptions) -> Counter[str]:
    """The gà earned by a declared list (§7.5), with their counts (option 0-2 each)."""
    if not opts.play_ga:
        return Counter()
    d = declared
    bt = d["bach_thu"] or d["bach_thu_chi"]
    conditions = {
        "ga_u_bon_bach_thu": d["u_bon"] and bt,
        "ga_thap_thanh": d["thap_thanh"],
        "ga_kinh_tu_chi": d["kinh_tu_chi"],
        "ga_bach_dinh": d["bach_dinh"] and (d["tom"] or not opts.ga_bach_dinh_needs_tom),
        "ga_tam_do": d["tam_do"] and (d["leo"] or not opts.ga_tam_do_needs_leo),
        "ga_bach_thu_chi": d["bach_thu_chi"],
        "ga_chi_bach_thu": d["chi"] and bt,
    }
    return +Counter({g: getattr(opts, g) for g, ok in conditions.items() if ok})


@dataclass(frozen=True)
class Score:
    """The §7.1 total of a declared list: base + gà points; ``parts`` sum to ``total``."""

    base: int
    ga: Counter[str]
    ga_points: int
    total: int
    parts: tuple[tuple[str, int], ...]


def score(declared: Counter[str], opts: ChanOptions) -> Score:
    """§7.1: largest điểm + every other instance's dịch (xuông 2), plus gà."""
    table = table_for(opts)
    instances = [
        table[c]
        for c in sorted(
            (c for c in declared.elements() if c in table and c != "xuong"),
            key=lambda c: -table[c].diem,
        )
    ]
    if not instances:
        parts: list[tuple[str, int]] = [("xuong", 2)]
        base = 2
    else:
        parts = [(instances[0].id, instances[0].diem)] + [(c.id, c.dich) for c in instances[1:]]
        base = sum(v for _, v in parts)
    ga = ga_of(declared, opts)
    ga_pts = opts.ga_points * sum(ga.values())
    parts += [(g, opts.ga_points) for g in sorted(ga.elements())]
    return Score(base, ga, ga_pts, base + ga_pts, tuple(parts))


_EXCLUSIVE_SPECIAL = ("hoa_roi_cua_phat", "ca_loi_san_dinh")


def valid_declarations(present: Counter[str]) -> list[Counter[str]]:
    """The maximal declarations that are not wrong (§7.6): hoa/cá vs {chi, bach_thu}."""
    special = [c for c in _EXCLUSIVE_SPECIAL if present[c]]
    if not special:
        return [Counter(present)]
    with_special = Counter(present)
    del with_special["chi"]
    del with_special["bach_thu"]
    without = Counter(present)
    for c in _EXCLUSIVE_SPECIAL:
        del without[c]
    return [with_special, without]


def auto_value(present: Counter[str], opts: ChanOptions) -> int:
    """The hand's true value: the best total over declarations that are not wrong."""
    return max(score(d, opts).total for d in valid_declarations(present))
