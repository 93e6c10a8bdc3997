"""Tile codes per TileSet: canonical codes, the 5z and Unicode aliases, and unknown codes."""

from __future__ import annotations

import pytest
from mjaudit.parts.schemas.tiles import AMERICAN, CHAN, MAHJONG, VN160, TileSet, UnknownTile

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = ["E", "S", "W", "N", "C", "F", "P"]
BONUS = ["f1", "f2", "f3", "f4", "g1", "g2", "g3", "g4"]
MAHJONG_CODES = SUITED + HONOURS + BONUS
KHUNG = ["BT", "BP", "BS", "BM", "RH", "RU", "RD", "RW"]
VN_EXTRA = (
    ["k1", "k2", "k3", "k4", "q1", "q2", "q3", "q4"]
    + KHUNG
    + [f"{k}2" for k in KHUNG]
    + [f"{k}3" for k in KHUNG]
)
CHAN_CODES = [f"{r}{s}" for s in "vns" for r in range(2, 10)] + ["CC"]

ALL_SETS = [MAHJONG, VN160, AMERICAN, CHAN]


@pytest.mark.parametrize(
    ("tileset", "codes"),
    [
        (MAHJONG, MAHJONG_CODES),
        (VN160, MAHJONG_CODES + VN_EXTRA),
        (AMERICAN, [*MAHJONG_CODES, "J", "FL"]),
        (CHAN, CHAN_CODES),
    ],
    ids=["mahjong", "vn160", "american", "chan"],
)
def test_canonical_codes_are_exactly_the_rules_codes(tileset: TileSet, codes: list[str]) -> None:
    assert sorted(tileset.codes) == sorted(codes)
    assert len(tileset.codes) == len(set(tileset.codes))
    for code in codes:
        assert tileset.normalize(code) == code
        assert code in tileset


def test_code_counts() -> None:
    assert [len(t.codes) for t in ALL_SETS] == [42, 74, 44, 25]


def test_engine_index_puts_the_34_playing_tiles_first() -> None:
    idx = MAHJONG.index
    assert [idx[c] for c in ("1m", "9m", "1p", "9p", "1s", "9s")] == [0, 8, 9, 17, 18, 26]
    assert [idx[c] for c in ("E", "S", "W", "N", "C", "F", "P")] == [27, 28, 29, 30, 31, 32, 33]
    assert idx["f1"] == 34
    assert VN160.index["5p"] == 13
    assert CHAN.index["2v"] == 0 and CHAN.index["CC"] == 24


@pytest.mark.parametrize(
    ("code", "other_sets"),
    [
        ("J", [MAHJONG, VN160, CHAN]),
        ("FL", [MAHJONG, VN160, CHAN]),
        ("k1", [MAHJONG, AMERICAN, CHAN]),
        ("BT2", [MAHJONG, AMERICAN, CHAN]),
        ("2v", [MAHJONG, VN160, AMERICAN]),
        ("CC", [MAHJONG, VN160, AMERICAN]),
        ("1m", [CHAN]),
        ("E", [CHAN]),
    ],
)
def test_codes_of_one_game_are_unknown_in_another(code: str, other_sets: list[TileSet]) -> None:
    for tileset in other_sets:
        assert code not in tileset
        with pytest.raises(UnknownTile):
            tileset.normalize(code)


def test_two_of_bamboo_and_nhi_sach_share_a_code() -> None:
    assert MAHJONG.normalize("2s") == "2s"
    assert CHAN.normalize("2s") == "2s"


@pytest.mark.parametrize("tileset", [MAHJONG, VN160, AMERICAN], ids=lambda t: t.name)
@pytest.mark.parametrize(
    ("alias", "code"),
    [("1z", "E"), ("2z", "S"), ("3z", "W"), ("4z", "N"), ("5z", "P"), ("6z", "F"), ("7z", "C")],
)
def test_z_honour_aliases(tileset: TileSet, alias: str, code: str) -> None:
    assert tileset.normalize(alias) == code


UNICODE_TABLE = (
    [(0x1F000 + i, w) for i, w in enumerate(["E", "S", "W", "N"])]
    + [(0x1F004, "C"), (0x1F005, "F"), (0x1F006, "P")]
    + [(0x1F007 + i, f"{i + 1}m") for i in range(9)]
    + [(0x1F010 + i, f"{i + 1}s") for i in range(9)]  # the block's bamboos come before circles
    + [(0x1F019 + i, f"{i + 1}p") for i in range(9)]
    + [(0x1F022, "f1"), (0x1F023, "f2"), (0x1F024, "f4"), (0x1F025, "f3")]
    + [(0x1F026 + i, f"g{i + 1}") for i in range(4)]
)


@pytest.mark.parametrize("tileset", [MAHJONG, VN160, AMERICAN], ids=lambda t: t.name)
@pytest.mark.parametrize(
    ("point", "code"), UNICODE_TABLE, ids=lambda v: f"{v:X}" if isinstance(v, int) else v
)
def test_unicode_aliases(tileset: TileSet, point: int, code: str) -> None:
    assert tileset.normalize(chr(point)) == code
    assert tileset.normalize(chr(point) + "\ufe0f") == code
    assert tileset.normalize(chr(point) + "\ufe0e") == code


def test_unicode_red_dragon_and_flower_swap() -> None:
    assert MAHJONG.normalize("\U0001f004") == "C"
    assert MAHJONG.normalize("\U0001f004\ufe0f") == "C"  # 🀄️ as emoji keyboards write it
    assert MAHJONG.normalize("\U0001f024") == "f4"  # bamboo is flower 4 in the rules
    assert MAHJONG.normalize("\U0001f025") == "f3"  # chrysanthemum is flower 3


def test_unicode_joker_only_in_american() -> None:
    assert AMERICAN.normalize("\U0001f02a") == "J"
    assert AMERICAN.normalize("\U0001f02a\ufe0f") == "J"
    for tileset in (MAHJONG, VN160, CHAN):
        with pytest.raises(UnknownTile):
            tileset.normalize("\U0001f02a")


@pytest.mark.parametrize("alias", ["5z", "\U0001f004", "\U0001f007"])
def test_chan_takes_no_mahjong_aliases(alias: str) -> None:
    with pytest.raises(UnknownTile):
        CHAN.normalize(alias)


@pytest.mark.parametrize(
    ("tileset", "code"),
    [
        (MAHJONG, "0m"),
        (MAHJONG, "10m"),
        (MAHJONG, "Z"),
        (MAHJONG, "e"),
        (MAHJONG, "8z"),
        (MAHJONG, "0z"),
        (MAHJONG, ""),
        (MAHJONG, "1M"),
        (MAHJONG, "\U0001f02b"),  # MAHJONG TILE BACK
        (VN160, "\U0001f02b"),
        (AMERICAN, "\U0001f02b"),
        (MAHJONG, "BT"),
        (MAHJONG, "k1"),
        (AMERICAN, "BT"),
        (VN160, "BT4"),
        (VN160, "J"),
        (CHAN, "2m"),
        (CHAN, "1v"),
        (CHAN, "cc"),
        (MAHJONG, "\ufe0f"),
    ],
    ids=repr,
)
def test_unknown_codes_raise_with_code_and_expected(tileset: TileSet, code: str) -> None:
    assert code not in tileset
    with pytest.raises(UnknownTile) as info:
        tileset.normalize(code)
    message = str(info.value)
    assert repr(code) in message
    assert tileset.name in message
    assert tileset.expected in message
    assert isinstance(info.value, ValueError)


def test_expected_texts_name_the_codes() -> None:
    assert "1m-9m" in MAHJONG.expected and "5z" in MAHJONG.expected
    assert "k1-k4" in VN160.expected and "BT" in VN160.expected
    assert "J (joker)" in AMERICAN.expected and "FL" in AMERICAN.expected
    assert CHAN.expected == "2v-9v, 2n-9n, 2s-9s or CC"


def test_unknown_code_message_exact() -> None:
    with pytest.raises(UnknownTile) as info:
        CHAN.normalize("2m")
    assert str(info.value) == "unknown tile '2m' for chan (expected 2v-9v, 2n-9n, 2s-9s or CC)"
