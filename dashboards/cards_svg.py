"""Chắn cards as small inline SVG pictures (rules/chan.md §1), drawn from shapes and text.

A chắn card is tall and narrow. Each picture shows the rank as a numeral (or ``chi`` for
chi chi), the suit word (vạn, văn, sách) with a small mark in the spirit of the seed's
mnemonic "vạn vuông, văn chéo, sách loằng ngoằng" (vạn square, văn crossed, sách
squiggly), and the card's Vietnamese name at the foot (``nhị vạn``). The red cards of §1.2
(``CC 8v 8s 9v 9s``) are drawn in red, every other card in black, so the tám đỏ and bạch
định cước can be checked by eye. Like the tiles, each picture carries its code
(``data-card``), its colour (``data-colour``) and a readable name.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from urllib.parse import quote

from mjaudit.parts.replay.rulesets.chan.cards import (
    NICKNAMES,
    RANK_NAMES,
    SUIT_NAMES,
    is_card,
    is_red,
)
from mjaudit.parts.replay.rulesets.chan.cards import card_name as _engine_card_name
from mjaudit.parts.schemas.tiles import CHAN_CARDS

W, H = 36, 100  # the view box: a tall narrow card
PAPER, EDGE = "#fbf3df", "#b9a77f"
RED, BLACK = "#c0392b", "#1a1a1a"
FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"

# Names, nicknames and the §1.2 red set are the engine's (replay.chan.cards).


def card_name(code: str) -> str:
    """``2v`` -> ``nhị vạn``, ``CC`` -> ``chi chi`` (:func:`replay.chan.cards.card_name`);
    a code that is no card is kept as it is, so a bad log still draws."""
    return _engine_card_name(code) if is_card(code) else code


def card_label(code: str) -> str:
    """The name with the colour and any picture nickname: ``bát vạn (cá), red``."""
    nick = f" ({NICKNAMES[code]})" if code in NICKNAMES else ""
    return f"{card_name(code)}{nick}, {'red' if is_red(code) else 'black'}"


def _text(x: float, y: float, size: float, body: str, colour: str, weight: int = 700) -> str:
    return (
        f'<text x="{x}" y="{y}" text-anchor="middle" font-family="{FONT}" '
        f'font-size="{size}" font-weight="{weight}" fill="{colour}">{escape(body)}</text>'
    )


def _suit_mark(suit: str, colour: str) -> str:
    """vạn: a square; văn: crossed strokes; sách: a squiggle."""
    s = f'fill="none" stroke="{colour}" stroke-width="2.2" stroke-linecap="round"'
    if suit == "v":
        return f'<rect x="10" y="46" width="16" height="16" {s}/>'
    if suit == "n":
        return f'<path d="M10 46 L26 62 M26 46 L10 62 M18 44 V64" {s}/>'
    return f'<path d="M10 48 Q14 42 18 48 T26 48 M10 58 Q14 52 18 58 T26 58" {s}/>'


def _face(code: str, colour: str) -> str:
    if code == "CC":  # chi chi: the yêu rank, a ringed dot between two strokes
        return (
            _text(18, 24, 13, "chi", colour)
            + f'<circle cx="18" cy="52" r="8" fill="none" stroke="{colour}" stroke-width="2.2"/>'
            f'<circle cx="18" cy="52" r="3" fill="{colour}"/>'
            f'<path d="M8 38 H28 M8 66 H28" stroke="{colour}" stroke-width="2"/>'
            + _text(18, 88, 9, "chi chi", colour)
        )
    rank, suit = code[0], code[1]
    return (
        _text(18, 26, 22, rank, colour)
        + _text(18, 40, 10, SUIT_NAMES[suit], colour, 600)
        + _suit_mark(suit, colour)
        + _text(18, 80, 9, RANK_NAMES[int(rank)], colour, 600)
        + _text(18, 91, 9, SUIT_NAMES[suit], colour, 600)
    )


@lru_cache(maxsize=256)
def card_svg(code: str, width: int = 22, state: str = "") -> str:
    """One card as an inline ``<svg>``. ``state`` as for tiles: "" plain, "new" (the card
    of the current event, outlined), "claimed" (taken by a player, faded), "back"."""
    height = round(width * H / W)
    red = is_red(code)
    colour = RED if red else BLACK
    label = "face-down card" if state == "back" else card_label(code)
    if state == "back":
        face = (
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="4" fill="#8c2f39" '
            f'stroke="{EDGE}"/>'
            f'<rect x="5" y="5" width="{W - 10}" height="{H - 10}" rx="2" fill="none" '
            'stroke="#e9c46a" stroke-width="1.2"/>'
        )
    else:
        known = is_card(code)
        body = _face(code, colour) if known else _text(18, 55, 11, code[:3], BLACK)
        face = (
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="4" fill="{PAPER}" '
            f'stroke="{EDGE}"/>{body}'
        )
    outline = ""
    if state == "new":
        outline = (
            f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="4" fill="none" '
            'stroke="#f08c00" stroke-width="3"/>'
        )
    opacity = ' opacity="0.45"' if state == "claimed" else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{width}" '
        f'height="{height}" role="img" aria-label="{escape(label, quote=True)}" '
        f'data-card="{escape(code, quote=True)}" data-colour="{"red" if red else "black"}" '
        f'class="cn-card{" cn-" + state if state else ""}"{opacity} '
        f'style="display:inline-block;vertical-align:bottom;margin:1px">'
        f"<title>{escape(label)}</title>{face}{outline}</svg>"
    )


@lru_cache(maxsize=256)
def card_img(code: str, width: int = 22, state: str = "") -> str:
    """The card as an ``<img>`` of its SVG (``st.html`` strips inline ``<svg>``)."""
    svg = card_svg(code, width, state)
    label = "face-down card" if state == "back" else card_label(code)
    height = round(width * H / W)
    return (
        f'<img src="data:image/svg+xml;utf8,{quote(svg, safe=" =:/;,")}" width="{width}" '
        f'height="{height}" alt="{escape(label, quote=True)}" title="{escape(label, quote=True)}" '
        f'data-tile="{escape(code, quote=True)}" data-colour="{"red" if is_red(code) else "black"}" '
        f'data-state="{state}" style="display:inline-block;vertical-align:bottom;margin:1px">'
    )


def sample_sheet(width: int = 30) -> str:
    """Every card once (by suit, then chi chi): a picture to check the drawings by eye."""
    rows = [CHAN_CARDS[i : i + 8] for i in range(0, 24, 8)] + [CHAN_CARDS[24:]]
    return "".join(f"<div>{''.join(card_svg(c, width) for c in r)}</div>" for r in rows)
