"""Tile and card codes: the canonical spellings of the rules (docs/rules/) and their aliases.

Every ruleset writes tiles as short case-sensitive codes (``5s``, ``E``, ``f1``, ``BT2``,
``CC``). Logs written by other tools also use two common alias families, which ingest
normalises to the canonical code:

* ``Nz`` honour numbers (Tenhou style): 1z-4z = E S W N, 5z = P (white), 6z = F (green),
  7z = C (red).
* Unicode mahjong tiles U+1F000..U+1F02A (an optional variation selector is ignored).

The tile vocabulary depends on the game: ``2s`` is the two of bamboo in mahjong but the
nhị sách card in Chắn, and ``J`` exists only in American mahjong. So codes are always
parsed against a :class:`TileSet`, chosen by ruleset.

Inside the engine tiles are small integers: :attr:`TileSet.index` maps a canonical code to
its position in :attr:`TileSet.codes`, which puts the 34 playing tiles first
(``0..8`` = 1m..9m, ``9..17`` = 1p..9p, ``18..26`` = 1s..9s, ``27..30`` = E S W N,
``31..33`` = C F P) so suit arithmetic is ``index // 9`` and ``index % 9``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

SUITS = ("m", "p", "s")
WINDS = ("E", "S", "W", "N")
DRAGONS = ("C", "F", "P")

SUIT_TILES: tuple[str, ...] = tuple(f"{n}{s}" for s in SUITS for n in range(1, 10))
HONOURS: tuple[str, ...] = WINDS + DRAGONS
PLAYING_TILES: tuple[str, ...] = SUIT_TILES + HONOURS  # the 34 kinds, 4 copies each
FLOWERS: tuple[str, ...] = ("f1", "f2", "f3", "f4")
SEASONS: tuple[str, ...] = ("g1", "g2", "g3", "g4")
BONUS_TILES: tuple[str, ...] = FLOWERS + SEASONS

# vn-160: two more flower sets and the khung (framed jokers); extra khung sets carry a suffix.
VN_KINGS: tuple[str, ...] = ("k1", "k2", "k3", "k4")
VN_QUEENS: tuple[str, ...] = ("q1", "q2", "q3", "q4")
KHUNG: tuple[str, ...] = ("BT", "BP", "BS", "BM", "RH", "RU", "RD", "RW")
KHUNG_EXTRA_SETS: tuple[str, ...] = tuple(f"{k}{n}" for n in (2, 3) for k in KHUNG)

# american: jokers, and FL for a flower whose identity the log does not record.
JOKER = "J"
UNKNOWN_FLOWER = "FL"

# chan: 25 card identities (vạn v, văn n, sách s; ranks 2-9) plus chi chi.
CHAN_SUITS = ("v", "n", "s")
CHAN_CARDS: tuple[str, ...] = (*(f"{r}{s}" for s in CHAN_SUITS for r in range(2, 10)), "CC")

_Z_HONOURS = {"1z": "E", "2z": "S", "3z": "W", "4z": "N", "5z": "P", "6z": "F", "7z": "C"}


def _unicode_aliases() -> dict[str, str]:
    """Unicode Mahjong Tiles block: winds, dragons, characters, bamboos, circles, bonus."""
    order = (
        list(WINDS)
        + ["C", "F", "P"]
        + [f"{n}m" for n in range(1, 10)]
        + [f"{n}s" for n in range(1, 10)]
        + [f"{n}p" for n in range(1, 10)]
        # U+1F022..25 are plum, orchid, BAMBOO, chrysanthemum; the rules number
        # chrysanthemum 3 and bamboo 4.
        + ["f1", "f2", "f4", "f3"]
        + list(SEASONS)
        + [JOKER]
    )
    return {chr(0x1F000 + i): code for i, code in enumerate(order)}


_UNICODE = _unicode_aliases()
_VARIATION_SELECTORS = ("\ufe0e", "\ufe0f")


class UnknownTile(ValueError):
    """A code that is not a tile of the game being read; the message says what was expected."""


@dataclass(frozen=True)
class TileSet:
    """The codes one family of rulesets accepts, with their aliases."""

    name: str
    codes: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    expected: str = ""

    def __post_init__(self) -> None:
        lookup = {code: code for code in self.codes}
        lookup.update({a: c for a, c in self.aliases.items() if c in lookup})
        object.__setattr__(self, "_lookup", MappingProxyType(lookup))
        object.__setattr__(
            self, "index", MappingProxyType({c: i for i, c in enumerate(self.codes)})
        )
        object.__setattr__(self, "canonical", frozenset(self.codes))

    index: Mapping[str, int] = field(init=False, repr=False, compare=False)
    canonical: frozenset[str] = field(init=False, repr=False, compare=False)

    def normalize(self, code: object) -> str:
        """Return the canonical code for ``code`` or raise :class:`UnknownTile`."""
        canonical = self._lookup.get(code)  # type: ignore[attr-defined]
        if canonical is not None:
            return canonical
        if isinstance(code, str) and code.endswith(_VARIATION_SELECTORS):
            canonical = self._lookup.get(code.rstrip("".join(_VARIATION_SELECTORS)))  # type: ignore[attr-defined]
            if canonical is not None:
                return canonical
        raise UnknownTile(f"unknown tile {code!r} for {self.name} (expected {self.expected})")

    def __contains__(self, code: object) -> bool:
        return code in self._lookup  # type: ignore[attr-defined]


_MAHJONG_ALIASES = {**_Z_HONOURS, **_UNICODE}
_MAHJONG_EXPECTED = "1m-9m, 1p-9p, 1s-9s, E S W N, C F P, f1-f4, g1-g4, or a 5z / Unicode alias"

MAHJONG = TileSet(
    "mahjong (hk-*)", PLAYING_TILES + BONUS_TILES, _MAHJONG_ALIASES, _MAHJONG_EXPECTED
)
VN160 = TileSet(
    "vn-160",
    PLAYING_TILES + BONUS_TILES + VN_KINGS + VN_QUEENS + KHUNG + KHUNG_EXTRA_SETS,
    _MAHJONG_ALIASES,
    _MAHJONG_EXPECTED.replace(
        ", or", ", k1-k4, q1-q4, khung BT BP BS BM RH RU RD RW (suffix 2/3), or"
    ),
)
AMERICAN = TileSet(
    "american",
    PLAYING_TILES + BONUS_TILES + (JOKER, UNKNOWN_FLOWER),
    _MAHJONG_ALIASES,
    _MAHJONG_EXPECTED.replace(", or", ", J (joker), FL (a flower), or"),
)
# riichi: the 34 kinds and the red fives 0m 0p 0s (Tenhou, MJAI: 5mr 5pr 5sr).
RED_FIVES: tuple[str, ...] = ("0m", "0p", "0s")
RIICHI = TileSet(
    "riichi",
    PLAYING_TILES + RED_FIVES,
    {**_MAHJONG_ALIASES, "5mr": "0m", "5pr": "0p", "5sr": "0s"},
    "1m-9m, 1p-9p, 1s-9s, E S W N, C F P, red fives 0m 0p 0s (or 5mr 5pr 5sr), "
    "or a 5z / Unicode alias",
)
CHAN = TileSet("chan", CHAN_CARDS, {}, "2v-9v, 2n-9n, 2s-9s or CC")
