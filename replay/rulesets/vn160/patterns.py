"""``vn-160`` patterns (rules §5.1) and their combination rules (§5.2, §5.3).

A win is described by a frozen :class:`VNWin` (filled in by the replay loop or a
simulator). Patterns fall in two kinds:

* *hand patterns* (:func:`hand_patterns`) depend only on the history and on the tiles as
  held: self-draw, single wait, thiên/địa ù, không hoa không lá, declared flowers and khung;
* *reading patterns* (:func:`reading_patterns`) depend on how the khung are read and how
  the tiles split into sets (a :class:`Reading`): phình, tui tui, khản khản, toàn hàng,
  toàn chữ, thập tam thái bảo, tam nguyên, tứ hỉ, pe pe.

:func:`combine` applies the "replaces" rules of §5.2 to the union. Values are phán
(1 mủn = 6 phán, §0). Pure functions throughout.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.counts import DRAGONS, EAST, WINDS
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions
from mjaudit.parts.replay.rulesets.vn160.tiles import (
    CODES,
    flower_number,
    flower_set,
    is_flower,
    is_khung,
    khung_base,
    khung_number,
)

MUN = 6  # phán per mủn (§0)

__all__ = [
    "MUN",
    "Reading",
    "Structure",
    "VNMeld",
    "VNWin",
    "WinSource",
    "combine",
    "hand_patterns",
    "reading_patterns",
]


class Structure(Enum):
    """§4 winning structures."""

    STANDARD = "standard"
    THIRTEEN_ORPHANS = "thap_tam_thai_bao"
    SEVEN_PAIRS = "u_pe_pe"


@dataclass(frozen=True, slots=True)
class VNMeld:
    """A declared set: what it stands for (``meld``) and the real tiles shown (khung included).

    ``meld.tile`` is the pung/kong kind or the lowest kind of the chow that the set reads as
    (§1.2: a khung in a set stands for one tile of its domain).
    """

    meld: Meld
    tiles: tuple[int, ...]

    @property
    def kind(self) -> MeldKind:
        return self.meld.kind

    @property
    def tile(self) -> int:
        return self.meld.tile

    @property
    def from_seat(self) -> int | None:
        return self.meld.from_seat

    @property
    def khung(self) -> tuple[int, ...]:
        return tuple(t for t in self.tiles if is_khung(t))

    @property
    def claimed(self) -> bool:
        """Every set but a concealed kong was claimed from a discard (bất cầu nhần, khản khản)."""
        return self.meld.kind is not MeldKind.CONCEALED_KONG

    @property
    def is_chow(self) -> bool:
        return self.meld.is_chow

    def __str__(self) -> str:
        src = f" <- {self.from_seat}" if self.from_seat is not None else ""
        return f"[{self.kind.value} {''.join(CODES[t] for t in self.tiles)}{src}]"


@dataclass(frozen=True, slots=True)
class VNWin:
    """Everything scoring needs about one declared win (tile ints of :mod:`replay.vn160.tiles`).

    * ``concealed``: the concealed tiles before the winning tile, khung included
      (13 − 3 × len(melds)); thiên ù puts 13 here and the 14th in ``win_tile``.
    * ``win_tile``: a flower or khung only for a win on a discarded bonus tile (§3.6),
      which is then read as a Tổng.
    * ``seat_number``: 1..4 = E S W N (§0; used for flowers, khung and the seat wind).
    * ``declared``: the bonus tiles the winner declared this hand, each with True when
      declared in the initial phase (dựng đầu, §2.3).
    * ``heavenly`` / ``earthly``: the replay loop decided the thiên ù / địa ù timing.
    * ``khung_discards``: blue and red khung the winner discarded, none won on (§3.6).
    """

    concealed: tuple[int, ...]
    win_tile: int
    source: WinSource
    melds: tuple[VNMeld, ...] = ()
    seat_number: int = 1
    declared: tuple[tuple[int, bool], ...] = ()
    heavenly: bool = False
    earthly: bool = False

    @property
    def self_drawn(self) -> bool:
        return self.source is WinSource.SELF_DRAW

    @property
    def seat_wind(self) -> int:
        return EAST + self.seat_number - 1

    @property
    def bonus_win(self) -> bool:
        """Won on a discarded flower or khung (§3.6)."""
        return self.win_tile >= 34 and self.source is not WinSource.SELF_DRAW

    @property
    def no_claim(self) -> bool:
        return not any(m.claimed for m in self.melds)

    def hand_khung(self) -> tuple[int, ...]:
        """Khung among the 14 tiles: concealed, in the sets, and a won-on bonus discard."""
        out = [t for t in self.concealed if is_khung(t)]
        out.extend(k for m in self.melds for k in m.khung)
        if self.bonus_win or is_khung(self.win_tile):
            out.append(self.win_tile)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of the 14 tiles: khung read as kinds, split into sets (melds merged in)."""

    structure: Structure
    counts: tuple[int, ...]  # 34 kinds, concealed completion + melds (a kong counts 3)
    pair: int  # the pair kind (-1 for pe pe / thirteen orphans has its doubled kind)
    chows: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()


Hit = tuple[str, int]  # (pattern id, phán) for one instance


# --------------------------------------------------------------------- hand patterns


def khong_khung(ctx: VNWin, opts: VNOptions) -> bool:
    """§5.1: none of the 14 tiles is a khung (declared khung too with the option)."""
    if ctx.hand_khung():
        return False
    if opts.khong_khung_counts_declared:
        return not any(is_khung(t) for t, _ in ctx.declared)
    return True


def counts_self_drawn(ctx: VNWin, opts: VNOptions) -> bool:
    """Self-drawn for bất cầu nhần / khản khản; thiên ù per ``thien_u_counts_self_drawn``."""
    if ctx.heavenly:
        return opts.thien_u_counts_self_drawn
    return ctx.self_drawn


def _declared_khung_hits(ctx: VNWin, opts: VNOptions) -> list[Hit]:
    """§5.3: each declared khung by the table; a BT + RU pair dựng đầu is tong_hop_dau."""
    khung = [(t, start) for t, start in ctx.declared if is_khung(t)]
    hits: list[Hit] = []
    bt = [i for i, (t, start) in enumerate(khung) if start and khung_base(t) == "BT"]
    ru = [i for i, (t, start) in enumerate(khung) if start and khung_base(t) == "RU"]
    paired = set()
    for a, b in zip(bt, ru, strict=False):
        paired.update((a, b))
        hits.append(("tong_hop_dau", opts.tong_hop_dau_phan))
    for i, (t, start) in enumerate(khung):
        if i in paired:
            continue
        base, plus_start, plus_seat, top = opts.khung_value(khung_base(t))
        value = base + (plus_start if start else 0)
        value += plus_seat if khung_number(t) == ctx.seat_number else 0
        hits.append(("khung_declared", min(value, top)))
    return hits


def _flower_hits(ctx: VNWin, opts: VNOptions) -> list[Hit]:
    """seat_flower per flower of the seat's number; flower_set per complete set (RH fills one)."""
    flowers = [t for t, _ in ctx.declared if is_flower(t)]
    hits: list[Hit] = [
        ("seat_flower", opts.seat_flower_phan)
        for t in flowers
        if flower_number(t) == ctx.seat_number
    ]
    per_set = Counter(flower_set(t) for t in flowers)
    spare_rh = (
        sum(1 for t, _ in ctx.declared if is_khung(t) and khung_base(t) == "RH")
        if opts.rh_completes_flower_set
        else 0
    )
    for s in range(4):
        n = per_set.get(s, 0)
        if n == 4:
            hits.append(("flower_set", opts.flower_set_phan))
        elif n == 3 and spare_rh:
            spare_rh -= 1
            hits.append(("flower_set", opts.flower_set_phan))
    return hits


def hand_patterns(ctx: VNWin, opts: VNOptions, single_wait: bool) -> list[Hit]:
    """Patterns that no khung reading or set split changes (§5.1, §5.3)."""
    hits: list[Hit] = []
    self_drawn = counts_self_drawn(ctx, opts)
    if self_drawn and ctx.no_claim:
        hits.append(("bat_cau_nhan", 1))
    xuyen_source = ctx.self_drawn or not opts.u_xuyen_self_draw_only
    if single_wait and xuyen_source and not ctx.heavenly:
        hits.append(("u_xuyen", 1))
    if ctx.heavenly:
        hits.append(("thien_u", MUN))
    if ctx.earthly:
        hits.append(("dia_u", MUN))
    if not ctx.declared and not ctx.hand_khung():
        hits.append(("khong_hoa_khong_la", MUN))
    hits.extend(_flower_hits(ctx, opts))
    hits.extend(_declared_khung_hits(ctx, opts))
    if ctx.bonus_win and opts.bonus_deal_in_mun:
        hits.append(("bonus_deal_in", MUN * opts.bonus_deal_in_mun))
    return hits


# --------------------------------------------------------------------- reading patterns


def _groups(counts: tuple[int, ...]) -> set[int]:
    """Which of m p s (0 1 2) and honours (3) the tiles use."""
    out = set()
    for g, (lo, hi) in enumerate(((0, 9), (9, 18), (18, 27), (27, 34))):
        if any(counts[lo:hi]):
            out.add(g)
    return out


def reading_patterns(r: Reading, ctx: VNWin, opts: VNOptions, no_khung: bool) -> list[Hit]:
    """Patterns of one reading. Thập tam thái bảo and pe pe take no set pattern (§5.2)."""
    hits: list[Hit] = []
    groups = _groups(r.counts)
    if len(groups) == 1 and 3 not in groups:
        hits.append(("toan_hang", 2 * MUN if no_khung else MUN))
    if groups == {3}:
        hits.append(("toan_chu", 3 * MUN))
    if r.structure is Structure.THIRTEEN_ORPHANS:
        hits.append(("thap_tam_thai_bao", 13))
        return hits
    if r.structure is Structure.SEVEN_PAIRS:
        hits.append(("u_pe_pe", opts.pe_pe_phan))
        return hits
    if len(r.chows) == 4 and _phinh_pair_ok(r.pair, ctx, opts):
        hits.append(("u_phinh", 1))
    if len(r.pungs) == 4:
        hits.append(("tui_tui", 4 if no_khung else 3))
        if counts_self_drawn(ctx, opts) and ctx.no_claim:
            hits.append(("khan_khan", (4 if no_khung else 3) * MUN))
    dragons = sum(1 for t in r.pungs if t in DRAGONS)
    winds = sum(1 for t in r.pungs if t in WINDS)
    if dragons == 3:
        hits.append(("dai_tam_nguyen", 9))
    elif dragons == 2 and r.pair in DRAGONS:
        hits.append(("tieu_tam_nguyen", MUN))
    if winds == 4:
        hits.append(("dai_tu_hi", 6 * MUN))
    elif winds == 3 and r.pair in WINDS:
        hits.append(("tieu_tu_hi", 4 * MUN))
    return hits


def _phinh_pair_ok(pair: int, ctx: VNWin, opts: VNOptions) -> bool:
    """§5.4 ``phinh_pair_rule``."""
    rule = opts.phinh_pair_rule
    if rule == "not_seat_wind":
        return pair != ctx.seat_wind
    if rule == "no_honour_pair":
        return pair < EAST
    return True


#: §5.2: a pattern present removes the ones listed.
REPLACES: dict[str, frozenset[str]] = {
    "khan_khan": frozenset({"tui_tui", "bat_cau_nhan"}),
    "dai_tu_hi": frozenset({"tieu_tu_hi", "tui_tui"}),
    "toan_chu": frozenset({"tui_tui"}),
    "dai_tam_nguyen": frozenset({"tieu_tam_nguyen"}),
}

#: Report order: the §5.1 table order.
ORDER: tuple[str, ...] = (
    "u_muoi",
    "u_phinh",
    "tui_tui",
    "khan_khan",
    "toan_hang",
    "toan_chu",
    "bat_cau_nhan",
    "u_xuyen",
    "thap_tam_thai_bao",
    "dai_tam_nguyen",
    "tieu_tam_nguyen",
    "dai_tu_hi",
    "tieu_tu_hi",
    "thien_u",
    "dia_u",
    "khong_hoa_khong_la",
    "seat_flower",
    "flower_set",
    "khung_declared",
    "tong_hop_dau",
    "u_pe_pe",
    "bonus_deal_in",
    "three_blue_khung",
    "three_red_khung",
)
_RANK = {p: i for i, p in enumerate(ORDER)}


def combine(hits: list[Hit]) -> list[Hit]:
    """Drop the patterns replaced by another present one (§5.2), in table order."""
    present = {p for p, _ in hits}
    gone: set[str] = set()
    for p in present:
        gone |= REPLACES.get(p, frozenset())
    kept = [h for h in hits if h[0] not in gone]
    kept.sort(key=lambda h: _RANK[h[0]])
    return kept
