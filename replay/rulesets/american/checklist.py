"""Where each finding code of this engine is defined in the rules (rules/american.md).

A report cites it beside each finding: the rows of the legality checklist that
define the code (or a FALSE_WIN reason), else the section that names it. Generated
by ``python -m tests.replay.rules_refs_gen RULES_DIR``; do not edit by hand.
"""

from __future__ import annotations

AMERICAN_SECTION = "american §9.2"
AMERICAN: dict[str, str] = {
    "ACTION_BY_DEAD_HAND": "american §9.2 #31, #32",
    "BAD_JOKER_EXCHANGE": "american §9.2 #27",
    "BLIND_TILE_INVALID": "american §9.2 #8",
    "CALL_DEAD_INCORRECT": "american §9.2 #33",
    "CALL_DISCARDED_JOKER": "american §9.2 #21",
    "CALL_FOR_SINGLE_OR_PAIR": "american §9.2 #22",
    "CALL_PRIORITY": "american §9.2 #24",
    "CARD_INVALID": "american §9.2 #2",
    "CHARLESTON_BAD_PASS": "american §9.2 #10, #12",
    "CLAIMED_HAND_DIFFERS": "american §9.2",
    "CONCEALED_HAND_CALL": "american §9.2 #30",
    "DEAD_BY_EXPOSURE": "american §9.2 #25",
    "DEALER_ROTATION_MISMATCH": "american §9.2 #5",
    "DEAL_INVALID": "american §9.2 #6",
    "DRAW_FROM_EMPTY_WALL": "american §9.2 #14",
    "EVENT_AFTER_END": "american §9.2 #35",
    "EXCHANGE_INVALID": "american §9.2 #26",
    "HAND_END_INVALID": "american §9.2 #34",
    "ILLEGAL_EXPOSURE": "american §9.2 #22",
    "JOKER_PASSED": "american §9.2 #9",
    "LATE_CALL": "american §9.2 #20, #23",
    "MAHJONG_IN_ERROR": "american §9.2 #30, #31",
    "OUT_OF_TURN": "american §9.2 #15, #17",
    "PARTIAL_INFORMATION": "american §9.2",
    "RECORD_INVALID": "american §9.2 #1",
    "RESULT_MISMATCH": "american §9.2 #36",
    "SECOND_CHARLESTON_AFTER_STOP": "american §9.2 #11",
    "TILE_NOT_IN_HAND": "american §9.2 #7, #16, #19",
    "TILE_OVERCOUNT": "american §9.2 #4",
    "UNKNOWN_TILE": "american §9.2 #3",
    "WALL_MISMATCH": "american §9.2 #13",
    "WIN_TILE_NOT_AVAILABLE": "american §9.2 #28",
    "WRONG_TILE_COUNT": "american §9.2 #18, #29",
}

CHECKLISTS: dict[str, tuple[str, dict[str, str]]] = {
    "american": (AMERICAN_SECTION, AMERICAN),
}
