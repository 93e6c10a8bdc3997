"""One entry point for drawing a tile or a card of any ruleset, so views never ask which
family they draw: :func:`face_html` gives a mahjong tile for the mahjong rulesets and a
chắn card for ``chan`` (the family comes from ``schemas.rulesets``)."""

from __future__ import annotations

from collections.abc import Iterable

from dashboards import cards_svg, tiles_svg
from schemas.rulesets import RULESETS, Game

CARD_RATIO = 0.75  # a card is drawn this many times as wide as a tile of the same row


def game_of(ruleset: str) -> Game:
    """The ruleset's family; an unknown id is read as mahjong (its codes are tile-like)."""
    shape = RULESETS.get(ruleset)
    return shape.game if shape is not None else Game.MAHJONG


def is_cards(ruleset: str) -> bool:
    return game_of(ruleset) is Game.CHAN


def face_name(ruleset: str, code: str) -> str:
    """``5p`` -> ``5 dots`` (mahjong), ``2v`` -> ``nhị vạn`` (chắn)."""
    return cards_svg.card_name(code) if is_cards(ruleset) else tiles_svg.tile_name(code)


def face_html(ruleset: str, code: str, width: int = 34, state: str = "") -> str:
    """One face as an ``<img>`` for ``st.html``: ``width`` is the width a tile would have;
    a card of the same row is narrower and taller."""
    if is_cards(ruleset):
        return cards_svg.card_img(code, max(12, round(width * CARD_RATIO)), state)
    return tiles_svg.tile_img(code, width, state)


def face_svg(ruleset: str, code: str, width: int = 34, state: str = "") -> str:
    """The same face as an inline ``<svg>`` (for pages that are plain HTML)."""
    if is_cards(ruleset):
        return cards_svg.card_svg(code, max(12, round(width * CARD_RATIO)), state)
    return tiles_svg.tile_svg(code, width, state)


def faces_html(ruleset: str, codes: Iterable[str], width: int = 34, state: str = "") -> str:
    return "".join(face_html(ruleset, c, width, state) for c in codes)
