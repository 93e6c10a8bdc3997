"""§4 ``WS``: the wait set is the same whatever kind is tried first (issue 24: the winning
tile is tried first, so u_xuyen's "exactly one wait" is known sooner)."""

from __future__ import annotations

from mjaudit.parts.replay.rulesets.mahjong.counts import N_KINDS
from mjaudit.parts.replay.rulesets.vn160.options import options_for
from mjaudit.parts.replay.rulesets.vn160.scoring import wait_set
from mjaudit.parts.replay.rulesets.vn160.tiles import CODES, INDEX

# Waiting hands written out (codes), then each with one tile replaced by every fifth kind.
WAITING = (
    "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 5m 6m",  # two-sided: 4m or 7m
    "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E N",  # a single wait: N
    "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m",  # nine gates: any character
    "1m 2m 3m 4p 5p 6p 7s 8s 9s E E 5m BT",  # a khung in hand
    "1m 9m 1p 9p 1s 9s E S W N C F P",  # thirteen orphans, thirteen ways
)


def _hands() -> list[list[int]]:
    out = []
    for text in WAITING:
        tiles = [INDEX[c] for c in text.split()]
        out.append(tiles)
        out += [[k, *tiles[1:]] for k in range(0, N_KINDS, 5)]
    return out


def test_the_wait_set_does_not_depend_on_the_kind_tried_first() -> None:
    opts = options_for({})
    hands = _hands()
    several = 0
    for tiles in hands:
        full = wait_set(tiles, 0, opts)
        several += len(full) > 1
        for first in (None, *range(N_KINDS), N_KINDS + 3):
            assert sorted(wait_set(tiles, 0, opts, first=first)) == sorted(full)
            assert len(wait_set(tiles, 0, opts, limit=2, first=first)) == min(2, len(full))
    assert several  # some hand waits on more than one kind


def test_the_written_out_waits() -> None:
    opts = options_for({})

    def waits(text: str) -> list[str]:
        return [CODES[k] for k in wait_set([INDEX[c] for c in text.split()], 0, opts)]

    assert waits(WAITING[0]) == ["4m", "7m"]
    assert waits(WAITING[1]) == ["N"]
    assert waits(WAITING[2]) == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
