"""Where each finding code of this engine is defined in the rules (rules/vn-160.md).

A report cites it beside each finding: the rows of the legality checklist that
define the code (or a FALSE_WIN reason), else the section that names it. Generated
by ``python -m tests.replay.rules_refs_gen RULES_DIR``; do not edit by hand.
"""

from __future__ import annotations

VN_160_SECTION = "vn-160 §8.2"
VN_160: dict[str, str] = {
    "BONUS_DISCARDED": "vn-160 §8.2 #15",
    "CHOW_NOT_FROM_LEFT": "vn-160 §8.2 #21",
    "CLAIM_PRIORITY_VIOLATION": "vn-160 §8.2 #22",
    "CLAIM_TILES_NOT_IN_HAND": "vn-160 §8.2 #18",
    "DEALER_ROTATION_MISMATCH": "vn-160 §8.2 #4",
    "DEAL_INVALID": "vn-160 §8.2 #5",
    "DRAW_FROM_EMPTY_WALL": "vn-160 §8.2 #9",
    "DRAW_WRONG_PLACE": "vn-160 §8.2 #11",
    "EVENT_AFTER_END": "vn-160 §8.2 #29",
    "FALSE_WIN": "vn-160 §8.2 #25, #26, #27",
    "FLOWER_INVALID": "vn-160 §8.2 #6",
    "FLOWER_NOT_DECLARED": "vn-160 §8.2 #16",
    "HAND_END_INVALID": "vn-160 §8.2 #28",
    "INVALID_MELD": "vn-160 §8.2 #20",
    "KHUNG_DECLARED_OFF_TURN": "vn-160 §8.2 #7",
    "KONG_INVALID": "vn-160 §8.2 #23",
    "LATE_CLAIM": "vn-160 §8.2 #19",
    "LONG_HAND": "vn-160 §8.2 #17",
    "MULTIPLE_WINNERS": "vn-160 §8.2 #30",
    "OUT_OF_TURN": "vn-160 §8.2 #12, #14",
    "PARTIAL_INFORMATION": "vn-160 §8.2",
    "RECORD_INVALID": "vn-160 §8.2 #1",
    "RESULT_MISMATCH": "vn-160 §8.2 #30",
    "SHORT_HAND": "vn-160 §8.2 #8, #17",
    "TILE_NOT_IN_HAND": "vn-160 §8.2 #13",
    "TILE_OVERCOUNT": "vn-160 §8.2 #3",
    "UNKNOWN_TILE": "vn-160 §8.2 #2",
    "WALL_MISMATCH": "vn-160 §8.2 #10",
    "WIN_AFTER_MAT_U": "vn-160 §7.1",
    "WIN_BELOW_MIN": "vn-160 §7.1",
    "WIN_CLAIM_OVERRIDDEN": "vn-160 §8.2 #27",
    "WIN_HAND_INCOMPLETE": "vn-160 §7.1",
    "WIN_TILE_NOT_AVAILABLE": "vn-160 §8.2 #24",
    "WIN_WITH_FLOWER": "vn-160 §7.1",
}

CHECKLISTS: dict[str, tuple[str, dict[str, str]]] = {
    "vn-160": (VN_160_SECTION, VN_160),
}
