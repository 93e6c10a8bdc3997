"""One line of words for any event of any ruleset, in the players' names and the faces'
names (the replayer's caption, its event list and ``mjaudit report``'s headings).

Words only: what the event does to the table is the engine's business
(:func:`replay.engine.run.table_view`).
"""

from __future__ import annotations

from typing import Any

from mjaudit.parts.dashboards.chan_terms import cuoc_name
from mjaudit.parts.dashboards.faces import face_name, is_cards

CHARLESTON_WORDS = {1: "right", 2: "across", 3: "left", 4: "left", 5: "across", 6: "right"}
CLAIM_SIZES = ("pung", "kong", "quint", "sextet")


def _tile(x: Any) -> str | None:
    """A tile field: a code, or a blind-pass ``{"tile": code, "blind": true}``."""
    if isinstance(x, dict):
        x = x.get("tile")
    return x if isinstance(x, str) else None


def describe(record: dict[str, Any], at: int) -> str:
    """One line for event ``at`` of any ruleset (-1: the deal), in the players' names and
    the faces' names; an unknown event type is shown with its fields."""
    if at < 0:
        return "after the deal"
    ruleset = record["ruleset"]
    ev = record["events"][at]
    names = record["players"]

    def who(key: str = "seat") -> str:
        seat = ev.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def name(code: Any) -> str:
        code = _tile(code)
        return f"{code} ({face_name(ruleset, code)})" if code else "?"

    def names_of(codes: Any) -> str:
        if not isinstance(codes, list):
            return "?"
        return ", ".join(
            name(c) + (" (blind)" if isinstance(c, dict) and c.get("blind") else "") for c in codes
        )

    kind, tile = ev.get("type", "?"), ev.get("tile")
    cards = is_cards(ruleset)
    text: str | None = None
    if kind == "draw":
        text = (
            f"{who()} turns {name(tile)} from the nọc onto their cửa"
            if cards
            else f"{who()} draws {name(tile)}"
        )
    elif kind == "discard":
        to = ev.get("to")
        onto = (
            f" onto {who('to')}'s cửa" if cards and to is not None and to != ev.get("seat") else ""
        )
        text = f"{who()} discards {name(tile)}{onto}"
    elif kind in ("replacement", "flower"):
        text = {
            "replacement": f"{who()} draws a replacement, {name(tile)}",
            "flower": f"{who()} declares {name(tile)}",
        }[kind]
    elif kind == "chow":
        text = f"{who()} chows {name(tile)} from {who('from')}: {names_of(ev.get('tiles'))}"
    elif kind in CLAIM_SIZES:
        with_ = f" with {names_of(ev['with'])}" if ev.get("with") else ""
        text = f"{who()} calls {name(tile)} from {who('from')} for a {kind}{with_}"
    elif kind == "concealed_kong":
        text = f"{who()} declares a concealed kong of {name(tile)}"
    elif kind == "added_kong":
        text = f"{who()} adds {name(tile)} to a pung"
    elif kind == "charleston_pass":
        n = ev.get("pass")
        blind = any(isinstance(t, dict) and t.get("blind") for t in ev.get("tiles") or [])
        text = (
            f"{who()} passes {CHARLESTON_WORDS.get(n, '?')} (Charleston pass {n}"
            f"{', blind' if blind else ''}): {names_of(ev.get('tiles'))}"
        )
    elif kind == "charleston_stop":
        text = f"{who()} stops the Charleston (no second Charleston)"
    elif kind == "courtesy_pass":
        text = (
            f"{who()} passes {len(ev.get('tiles') or [])} to {who('partner')} in the courtesy "
            f"pass (asked {ev.get('asked', '?')}): {names_of(ev.get('tiles'))}"
        )
    elif kind == "joker_exchange":
        text = (
            f"{who()} gives {name(tile)} for a joker in {who('target')}'s exposure "
            f"{ev.get('exposure', '?')}"
        )
    elif kind == "eat":
        src = "the card they drew" if ev.get("from") == ev.get("seat") else f"{who('from')}'s cửa"
        trai = " (eaten card on top)" if ev.get("placement") == "eaten_on_top" else ""
        text = f"{who()} eats {name(tile)} from {src} with {name(ev.get('with'))}{trai}"
    elif kind == "chiu":
        text = f"{who()} chíu {name(tile)} from {who('from')}'s cửa with {names_of(ev.get('with'))}"
    elif kind == "expose":
        text = f"{who()} exposes {names_of(ev.get('tiles'))} (completing a chíu)"
    elif kind == "khai":
        text = f"{who()} khai: exposes four {name(tile)} (thiên khai)"
    elif kind == "pass":
        text = f"{who()} leaves the drawn card on their cửa"
    elif kind == "decline_u":
        text = f"{who()} declines to win (không ù)"
    elif kind == "announce":
        what = ev.get("what", "")
        if what == "bao":
            text = f"{who()} reports {who('accused')} for {ev.get('code', '?')} (bắt báo)"
        elif what == "dead_hand":
            text = f"{who()} declares {who('target')}'s hand dead"
        else:
            text = f"{who()} announces {what}"
    elif kind == "win":
        text = _describe_win(ev, who, name, cards)
    elif kind == "exhaustive_draw":
        text = "draw (hòa): the nọc is exhausted" if cards else "exhaustive draw: the wall is empty"
    elif kind == "abandon":
        text = f"the hand is abandoned ({ev.get('reason') or 'no reason given'})"
    if text is None:  # a type this page does not know: its fields, as recorded
        fields = ", ".join(f"{k}={v}" for k, v in ev.items() if k != "type")
        text = f"{kind}" + (f" ({fields})" if fields else "")
    return f"event {at}: {text}"


def _describe_win(ev: dict[str, Any], who: Any, name: Any, cards: bool) -> str:
    tile = ev.get("tile")
    via = ev.get("via")
    if via == "deal":
        how = "from the deal (thiên ù)"
    elif via == "chiu":
        how = f"by chíu from {who('from')}'s cửa (chíu ù)"
    elif ev.get("robbed_kong"):
        how = f"robbing {who('from')}'s kong"
    elif ev.get("from") is None:
        how = "on their own draw" if cards else "self-drawn"
    else:
        how = f"on the card {who('from')} drew" if cards else f"on {who('from')}'s discard"
    claim = ev.get("claim") or {}
    said = ""
    if cards and isinstance(claim, dict) and "cuoc" in claim:
        items = []
        for c in claim["cuoc"] or []:
            if isinstance(c, dict):
                n = c.get("n", 1)
                items.append(cuoc_name(str(c.get("id"))) + (f" ×{n}" if n != 1 else ""))
            else:
                items.append(cuoc_name(str(c)))
        said = f"; declares {', '.join(items) or 'xuông'}"
    elif isinstance(claim, dict) and claim.get("hand"):
        said = f"; card hand {claim['hand']}"
    verb = "wins (ù)" if cards else "declares a win"
    return f"{who()} {verb} on {name(tile)}, {how}{said}"
