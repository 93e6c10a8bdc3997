"""The words the chắn pages use: cước and gà ids with their Vietnamese names (rules/chan.md
§7.3, §7.5), so a table reads "Tôm" and "Bạch thủ chi", not ids.

The cước names are the engine's table (:data:`replay.chan.cuoc.TABLE`) and
the gà ids its options' (:data:`replay.chan.options.GA_IDS`); only the gà names, which the
engine does not need, are written here.
"""

from __future__ import annotations

from mjaudit.parts.replay.rulesets.chan.cuoc import TABLE
from mjaudit.parts.replay.rulesets.chan.options import GA_IDS

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
assert set(GA) == set(GA_IDS), "a gà of the engine without a name here"


def cuoc_name(cuoc_id: str) -> str:
    """``bach_thu_chi`` -> ``Bạch thủ chi``; an id the rules do not list is kept as it is
    (a regional cước of option ``extra_cuoc``)."""
    if cuoc_id in TABLE:
        return TABLE[cuoc_id].name
    return GA.get(cuoc_id, cuoc_id)


def kind(cuoc_id: str) -> str:
    """``cước``, ``gà``, or ``other`` (an id of no table)."""
    return "cước" if cuoc_id in TABLE else "gà" if cuoc_id in GA else "other"
