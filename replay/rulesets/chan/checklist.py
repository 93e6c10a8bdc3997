"""Where each finding code of this engine is defined in the rules (rules/chan.md).

A report cites it beside each finding: the rows of the legality checklist that
define the code (or a FALSE_WIN reason), else the section that names it. Generated
by ``python -m tests.replay.rules_refs_gen RULES_DIR``; do not edit by hand.
"""

from __future__ import annotations

CHAN_SECTION = "chan §11"
CHAN: dict[str, str] = {
    "AN_CA_DANH_CA": "chan §10.4",
    "AN_CA_DOI_CHO": "chan §11 #13",
    "AN_CHAN_XE_CHAN": "chan §10.4",
    "AN_CHON_CA": "chan §10.4",
    "AN_KHONG_THANH_CAP": "chan §11 #23",
    "AN_SAI_LUOT": "chan §11 #21",
    "BAO_SAI": "chan §11 #39",
    "BOC_QUAN_NOC_CHET": "chan §11 #17",
    "BOC_SAI_LUOT": "chan §11 #14",
    "BO_AN_CHAN": "chan §11 #27",
    "BO_U": "chan §11 #35",
    "CARD_COUNT_EXCEEDED": "chan §11 #4",
    "CARD_NOT_IN_HAND": "chan §11 #10, #22",
    "CHIU_INVALID": "chan §11 #29",
    "CHIU_QUAN_CHET": "chan §11 #30",
    "CHIU_THIEU_TRA_CUA": "chan §11 #32",
    "DANH_CA_CHAN": "chan §11 #13",
    "DANH_SAI_LUOT": "chan §11 #11",
    "DEAL_INVALID": "chan §11 #5, #6",
    "EAT_SOURCE_MISMATCH": "chan §11 #20",
    "EVENT_AFTER_END": "chan §11 #41",
    "EXPOSE_INVALID": "chan §11 #33",
    "HAND_END_INVALID": "chan §11 #40",
    "HANH_DONG_KHI_DA_BI_BAO": "chan §11 #28",
    "KHAI_INVALID": "chan §11 #9",
    "PARTIAL_INFORMATION": "chan §11",
    "PASS_WITHOUT_DRAW": "chan §11 #19",
    "PLAYER_COUNT_UNSUPPORTED": "chan §11 #2",
    "RECORD_INVALID": "chan §11 #1, #2",
    "RESULT_MISMATCH": "chan §11 #42",
    "SAI_CAI": "chan §11 #7",
    "SAI_NGUOI_BAT_CAI": "chan §11 #8",
    "STOCK_EXHAUSTED": "chan §11 #16",
    "STOCK_MISMATCH": "chan §11 #15",
    "TACH_CA_AN_CA": "chan §11 #35",
    "TACH_CHAN_AN_CA": "chan §11 #35",
    "THONG_UNVERIFIED": "chan §11 #37",
    "TRAI_VI": "chan §11 #26",
    "TREO_TRANH_AN_CA_THAY_CHAN": "chan §11 #25",
    "TREO_TRANH_CHIU_KHONG_HA_DU": "chan §11 #31",
    "TREO_TRANH_KHONG_CHIU": "chan §11 #24",
    "TREO_TRANH_TRA_CUA": "chan §11 #12",
    "UNKNOWN_CARD": "chan §11 #3",
    "U_4_11_THIEU_DIEM": "chan §11 #35",
    "U_CHI_RONG": "chan §11 #35",
    "U_LAO": "chan §11 #8, #35",
    "U_SOURCE_MISMATCH": "chan §11 #34",
    "XE_CA_AN_CA": "chan §10.4",
    "XE_CHAN": "chan §10.4",
    "XUONG_SAI": "chan §11 #35, #36",
}

CHECKLISTS: dict[str, tuple[str, dict[str, str]]] = {
    "chan": (CHAN_SECTION, CHAN),
}
