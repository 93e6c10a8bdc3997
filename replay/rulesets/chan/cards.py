"""Chắn card codes, Vietnamese names and colours (chan.md §1).

Cards are the 25 identities of ``schemas.tiles.CHAN_CARDS`` written as their codes
(``"2v"`` … ``"9s"``, ``"CC"``); a hand is a ``Counter`` of codes. Codes are kept as
strings inside the engine: hands are small and the readable code is what every finding
message and every test names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache

from mjaudit.parts.schemas.tiles import CHAN, CHAN_CARDS

CARDS: tuple[str, ...] = CHAN_CARDS
CC = "CC"
SUITS = ("v", "n", "s")
RANKS = tuple(range(2, 10))
RANK_NAMES = {
    1: "chi",
    2: "nhị",
    3: "tam",
    4: "tứ",
    5: "ngũ",
    6: "lục",
    7: "thất",
    8: "bát",
    9: "cửu",
}
SUIT_NAMES = {"v": "vạn", "n": "văn", "s": "sách"}
NICKNAMES = {"2v": "hoa đào", "5v": "chùa", "8v": "cá"}
DEFAULT_RED: frozenset[str] = frozenset({"CC", "8v", "8s", "9v", "9s"})  # §1.2
TOM: tuple[str, ...] = ("3v", "3s", "7n")  # §1.3
LEO: tuple[str, ...] = ("9v", "8s", "CC")


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in CHAN.canonical


def rank(card: str) -> int:
    """2-9; chi chi is rank 1 (the "yêu" rank, §3.1)."""
    return 1 if card == CC else int(card[0])


def suit(card: str) -> str | None:
    return None if card == CC else card[1]


def card_name(card: str) -> str:
    """``"2v"`` -> ``"nhị vạn"``; ``"CC"`` -> ``"chi chi"``."""
    if card == CC:
        return "chi chi"
    return f"{RANK_NAMES[rank(card)]} {SUIT_NAMES[card[1]]}"


def is_red(card: str, red: Iterable[str] = DEFAULT_RED) -> bool:
    return card in red


def display(card: str, red: Iterable[str] = DEFAULT_RED) -> str:
    """A card for people: name and colour, e.g. ``"bát vạn (đỏ)"``."""
    return f"{card_name(card)} ({'đỏ' if is_red(card, red) else 'đen'})"


@cache  # asked for at every discard and eat (§10 history): a tuple built once per card
def same_rank_others(card: str) -> tuple[str, ...]:
    """The other-suit cards of ``card``'s rank (a cạ partner); none for CC."""
    if card == CC:
        return ()
    return tuple(f"{card[0]}{s}" for s in SUITS if s != card[1])


def is_chan(a: str, b: str) -> bool:
    return a == b


def is_ca(a: str, b: str) -> bool:
    return a != b and CC not in (a, b) and a[0] == b[0]


def is_pair(a: str, b: str) -> bool:
    return is_chan(a, b) or is_ca(a, b)


def count_red(k: Counter[str], red: Iterable[str] = DEFAULT_RED) -> int:
    return sum(n for c, n in k.items() if c in red)


def tom_count(k: Counter[str]) -> int:
    return min(k[c] for c in TOM)


def leo_count(k: Counter[str]) -> int:
    return min(k[c] for c in LEO)


def fmt(cards: Iterable[str]) -> str:
    return " ".join(cards)
