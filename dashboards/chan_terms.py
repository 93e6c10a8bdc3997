"""The words the chắn pages use: cước and gà ids with their Vietnamese names and điểm /
dịch (rules/chan.md §7.3, §7.5), so a table reads "Tôm" and "Bạch thủ chi", not ids."""

from __future__ import annotations

# id -> (Vietnamese name, điểm, dịch); §7.3
CUOC: dict[str, tuple[str, int, int]] = {
    "xuong": ("Xuông", 2, 0),
    "thong": ("Thông", 3, 1),
    "chi": ("Chì", 3, 1),
    "thien_u": ("Thiên ù", 3, 1),
    "dia_u": ("Địa ù", 3, 1),
    "tom": ("Tôm", 4, 1),
    "leo": ("Lèo", 5, 2),
    "bach_dinh": ("Bạch định", 7, 4),
    "tam_do": ("Tám đỏ", 8, 5),
    "kinh_tu_chi": ("Kính tứ chi", 12, 9),
    "thap_thanh": ("Thập thành", 12, 9),
    "co_thien_khai": ("Có thiên khai", 3, 1),
    "co_an_bon": ("Có ăn bòn", 3, 1),
    "u_bon": ("Ù bòn", 3, 1),
    "co_chiu": ("Có chíu", 3, 1),
    "chiu_u": ("Chíu ù", 3, 1),
    "bach_thu": ("Bạch thủ", 4, 1),
    "bach_thu_chi": ("Bạch thủ chi", 6, 3),
    "hoa_roi_cua_phat": ("Hoa rơi cửa phật", 20, 17),
    "ca_loi_san_dinh": ("Cá lội sân đình", 20, 17),
}
# §7.5: each gà adds ga_points (5 by default)
GA: dict[str, str] = {
    "ga_u_bon_bach_thu": "Gà ù bòn bạch thủ",
    "ga_thap_thanh": "Gà thập thành",
    "ga_kinh_tu_chi": "Gà kính tứ chi",
    "ga_bach_dinh": "Gà bạch định",
    "ga_tam_do": "Gà tám đỏ",
    "ga_bach_thu_chi": "Gà bạch thủ chi",
    "ga_chi_bach_thu": "Gà chì bạch thủ",
}


def cuoc_name(cuoc_id: str) -> str:
    """``bach_thu_chi`` -> ``Bạch thủ chi``; an id the rules do not list is kept as it is
    (a regional cước of option ``extra_cuoc``)."""
    if cuoc_id in CUOC:
        return CUOC[cuoc_id][0]
    return GA.get(cuoc_id, cuoc_id)


def kind(cuoc_id: str) -> str:
    """``cước``, ``gà``, or ``other`` (an id of no table)."""
    return "cước" if cuoc_id in CUOC else "gà" if cuoc_id in GA else "other"
