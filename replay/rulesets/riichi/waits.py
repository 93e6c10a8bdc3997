"""Tenpai and waits of a concealed hand (13 - 3 per call tiles), by the ``mahjong``
package's agari test: the kinds that would complete it. A kind the hand already holds
all four of is no wait (the fifth copy does not exist), as on Tenhou."""

from __future__ import annotations

from functools import lru_cache

from mahjong.agari import Agari
from mjaudit.parts.replay.rulesets.riichi.tiles import N_KINDS

_AGARI = Agari()


@lru_cache(maxsize=65536)
def waits(counts: tuple[int, ...]) -> frozenset[int]:
    """The kinds that complete ``counts`` (34 concealed counts, 3n+1 tiles)."""
    out = []
    hand = list(counts)
    for k in range(N_KINDS):
        if hand[k] >= 4:
            continue
        hand[k] += 1
        if _AGARI.is_agari(hand):
            out.append(k)
        hand[k] -= 1
    return frozenset(out)


def is_complete(counts: tuple[int, ...]) -> bool:
    """``counts`` (3n+2 tiles) is a winning shape."""
    return bool(_AGARI.is_agari(list(counts)))
