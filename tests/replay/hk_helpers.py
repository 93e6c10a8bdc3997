"""Builders that let tests write hands the way the rules files' examples do.

Seats are wind letters with the dealer at E, so seat index = wind index (E=0 … N=3).
"""

from __future__ import annotations

from mjaudit.parts.replay.rulesets.hk import WinContext, WinSource
from mjaudit.parts.replay.rulesets.mahjong.counts import parse, tile
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind

SEAT = {"E": 0, "S": 1, "W": 2, "N": 3}
_KINDS = {
    "chow": MeldKind.CHOW,
    "pung": MeldKind.PUNG,
    "kong": MeldKind.KONG,
    "ckong": MeldKind.CONCEALED_KONG,
    "akong": MeldKind.ADDED_KONG,
}


def meld(text: str) -> Meld:
    """``"pung 5p5p5p <- S"``, ``"ckong 4m4m4m4m"``, ``"chow 2p3p4p <- E"``."""
    body, _, src = text.partition("<-")
    kind, tiles = body.split(maxsplit=1)
    ts = parse(tiles)
    return Meld(_KINDS[kind], min(ts), SEAT[src.strip()] if src.strip() else None)


def win(
    concealed: str,
    tile_code: str,
    source: str = "discard",
    *,
    melds: tuple[str, ...] = (),
    seat: str = "E",
    prevailing: str = "E",
    flowers: str = "",
    chain: int = 0,
    last: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
) -> WinContext:
    return WinContext(
        concealed=parse(concealed),
        win_tile=tile(tile_code),
        source=WinSource(source),
        melds=tuple(meld(m) for m in melds),
        seat_wind=SEAT[seat],
        prevailing_wind=SEAT[prevailing],
        flowers=parse(flowers),
        kong_replacement_chain=chain,
        last_tile=last,
        heavenly=heavenly,
        earthly=earthly,
    )


def deltas(**by_seat: int) -> tuple[int, ...]:
    """``deltas(E=-2, S=-1, W=4, N=-1)`` → (-2, -1, 4, -1); missing seats are 0."""
    return tuple(by_seat.get(s, 0) for s in "ESWN")
