"""One entry point for drawing a tile or a card of any ruleset, so views never ask which
family they draw: :func:`face_html` gives a mahjong tile for the mahjong rulesets and a
chắn card for ``chan`` (the family is :func:`ingest.partitions.game_of`, as the data
queries derive it)."""

from __future__ import annotations

from mjaudit.parts.dashboards import cards_svg, tiles_svg
from mjaudit.parts.ingest.partitions import game_of
from mjaudit.parts.schemas.rulesets import game_terms

CARD_RATIO = 0.75  # a card is drawn this many times as wide as a tile of the same row


def is_cards(ruleset: str) -> bool:
    """Whether the ruleset plays cards; an unknown id is read as mahjong."""
    return game_terms(game_of(ruleset)).cards


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
