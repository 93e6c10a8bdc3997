"""Xướng (chan.md §8) and error 14 ``XUONG_SAI`` (§7.4, §10.7): reading ``claim.cuoc`` and
judging it against the cước present in the hand. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.chan.cuoc import table_for
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions


@dataclass(frozen=True)
class Declaration:
    """The spoken list: ids with multiplicities; ``unreadable`` lists items that are not cước."""

    cuoc: Counter[str]
    unreadable: tuple[str, ...] = ()

    def items(self) -> list[str]:
        return sorted(self.cuoc.elements())


def parse_claim(claim: object) -> Declaration:
    """``{"cuoc": ["chi", {"id": "tom", "n": 2}]}`` -> Counter; None / {} means xuông."""
    raw: Iterable[object] = ()
    if isinstance(claim, dict):
        raw = claim.get("cuoc") or ()
    out: Counter[str] = Counter()
    bad: list[str] = []
    for item in raw:
        if isinstance(item, str):
            out[item] += 1
        elif isinstance(item, dict) and isinstance(item.get("id"), str):
            n = item.get("n", 1)
            if isinstance(n, int) and not isinstance(n, bool) and n >= 1:
                out[item["id"]] += n
            else:
                bad.append(repr(item))
        else:
            bad.append(repr(item))
    return Declaration(out, tuple(bad))


def wrong_reasons(
    decl: Declaration, present: Counter[str], opts: ChanOptions, unverifiable: Iterable[str] = ()
) -> list[str]:
    """Why the declaration breaks §7.4 (empty: it is not wrong). ``xuong`` is never wrong.

    ``unverifiable`` ids (thông without previous-hand information, enabled regional cước)
    are accepted as declared.
    """
    table = table_for(opts)
    skip = set(unverifiable)
    d = Counter({c: n for c, n in decl.cuoc.items() if c != "xuong"})
    reasons = [f"{u} is not a cước" for u in decl.unreadable]
    for c, n in sorted(d.items()):
        if c not in table:
            reasons.append(f"{c} is not a cước of the table (or a disabled regional cước)")
            continue
        cap = table[c].max_n
        if cap is not None and n > cap:
            reasons.append(f"{c} declared {n} times (at most {cap})")
        elif c not in skip and n > present[c]:
            has = present[c]
            reasons.append(
                f"{c} declared {n} times but the hand has {has}"
                if has
                else f"{c} is not in the hand"
            )
    if d["bach_thu"] and d["bach_thu_chi"]:
        reasons.append("bach_thu together with bach_thu_chi")
    for special in ("hoa_roi_cua_phat", "ca_loi_san_dinh"):
        if d[special] and (d["chi"] or d["bach_thu"]):
            reasons.append(f"{special} together with chi or bach_thu")
    return reasons


def valid_part(decl: Declaration, present: Counter[str]) -> Counter[str]:
    """The declared cước that are present (for ``den_lang_basis_on_wrong_call``)."""
    part = Counter({c: n for c, n in decl.cuoc.items() if c != "xuong"}) & present
    if part["bach_thu_chi"]:
        del part["bach_thu"]
    if part["hoa_roi_cua_phat"] or part["ca_loi_san_dinh"]:
        del part["chi"]
        del part["bach_thu"]
    return part
