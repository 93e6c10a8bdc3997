"""Where each finding code of the riichi engine is defined in the rules (docs/rules/riichi.md)."""

from __future__ import annotations

RIICHI_SECTION = "riichi §9"
RIICHI: dict[str, str] = {
    "ABORTIVE_DRAW_INVALID": "riichi §7",
    "ACTION_UNKNOWN": "riichi §9",
    "CALL_AFTER_RIICHI": "riichi §4",
    "CLAIM_NOT_LIVE": "riichi §3",
    "COUNTERS_MISMATCH": "riichi §8",
    "DEALER_ROTATION_MISMATCH": "riichi §8",
    "DEAL_INVALID": "riichi §2",
    "DORA_INVALID": "riichi §6",
    "DRAW_FROM_EMPTY_WALL": "riichi §2",
    "EVENT_AFTER_END": "riichi §9",
    "FALSE_WIN": "riichi §5",
    "FURITEN_RON": "riichi §5",
    "GAME_EXCERPT": "riichi §8",
    "HAND_ABANDONED": "riichi §7",
    "HAND_END_INVALID": "riichi §7",
    "INVALID_MELD": "riichi §3",
    "KONG_INVALID": "riichi §3",
    "LONG_HAND": "riichi §2",
    "OUT_OF_TURN": "riichi §2",
    "PARTIAL_INFORMATION": "riichi §2",
    "PLAYED_AFTER_TOBI": "riichi §8",
    "PREVIOUS_HAND_MISSING": "riichi §8",
    "RECORD_INVALID": "riichi §10",
    "REPLACEMENT_INVALID": "riichi §3",
    "REPLACEMENT_MISSING": "riichi §3",
    "RESULT_MISMATCH": "riichi §8",
    "RIICHI_DISCARD_NOT_DRAWN": "riichi §4",
    "RIICHI_INVALID": "riichi §4",
    "RIICHI_NOT_TENPAI": "riichi §4",
    "SHORT_HAND": "riichi §2",
    "TILE_NOT_IN_HAND": "riichi §2",
    "TILE_OVERCOUNT": "riichi §2",
    "WAIT_CHANGED_AFTER_RIICHI": "riichi §4",
    "WIN_CLAIM_OVERRIDDEN": "riichi §5",
    "WIN_TILE_NOT_AVAILABLE": "riichi §5",
}

CHECKLISTS: dict[str, tuple[str, dict[str, str]]] = {
    "riichi": (RIICHI_SECTION, RIICHI),
}
