"""Tile and card faces for every code of every family, and the engine's view model of the
table drawn with them for the mahjong variants and chắn (pure functions, no Streamlit)."""

from __future__ import annotations

import re

import polars as pl
import pytest
from mjaudit.parts.dashboards import cards_svg, tiles_svg
from mjaudit.parts.dashboards.describe import describe
from mjaudit.parts.dashboards.faces import face_html, face_name, face_svg
from mjaudit.parts.dashboards.table_view import FINDING_SCHEMA, events_html, table_html, table_view
from mjaudit.parts.replay.engine import run as engine
from mjaudit.parts.replay.engine.view import position_text
from mjaudit.parts.schemas.rulesets import RULESETS
from mjaudit.parts.schemas.tiles import AMERICAN, CHAN, MAHJONG, VN160, TileSet

from tests.dashboards.chan_archive import american_hand, chan_hands, vn160_hand

TILE_SETS = [MAHJONG, VN160, AMERICAN, CHAN]


def ruleset_for(tiles: TileSet) -> str:
    """A ruleset that plays with this tile set."""
    return next(r.id for r in RULESETS.values() if r.tiles is tiles)


@pytest.mark.parametrize("tiles", TILE_SETS, ids=lambda t: t.name)
def test_every_code_of_every_family_has_its_own_face_and_name(tiles: TileSet) -> None:
    ruleset = ruleset_for(tiles)
    faces = set()
    for code in tiles.codes:
        svg = face_svg(ruleset, code)
        assert svg.startswith("<svg") and (
            f'data-tile="{code}"' in svg or f'data-card="{code}"' in svg
        ), code
        assert face_name(ruleset, code) != code, code
        img = face_html(ruleset, code)
        assert img.startswith('<img src="data:image/svg+xml;utf8,') and f'data-tile="{code}"' in img
        faces.add(re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"|data-\w+=\"[^\"]*\"", "", svg))
    assert len(faces) == len(tiles.codes)  # no two codes share a picture


def test_khung_blue_and_red_and_their_sets() -> None:
    blue, red = tiles_svg.tile_svg("BT"), tiles_svg.tile_svg("RU")
    assert tiles_svg.BLUE in blue and tiles_svg.RED not in blue
    assert tiles_svg.RED in red and tiles_svg.BLUE not in red
    assert "Tổng" in blue and "Hợp" in red
    assert "<ellipse" in tiles_svg.tile_svg("RU2") and "<polygon" in tiles_svg.tile_svg("RU3")
    assert tiles_svg.tile_name("RD3") == "Red khung Nguyên 3 (any dragon), set 3"
    assert tiles_svg.tile_name("k1") == "King flower 1 (Tinh)"
    assert tiles_svg.tile_name("q4") == "Queen flower 4 (Hậu)"
    assert tiles_svg.tile_name("J") == "Joker" and "JOKER" in tiles_svg.tile_svg("J")
    assert tiles_svg.tile_name("FL").startswith("Flower")


def test_red_chan_cards_are_red_and_the_others_black() -> None:
    red = {"CC", "8v", "8s", "9v", "9s"}  # rules/chan.md §1.2
    for code in CHAN.codes:
        svg = cards_svg.card_svg(code)
        fills = set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]{6})"', svg))
        if code in red:
            assert 'data-colour="red"' in svg and cards_svg.RED in fills, code
            assert cards_svg.BLACK not in fills, code
        else:
            assert 'data-colour="black"' in svg and cards_svg.BLACK in fills, code
            assert cards_svg.RED not in fills, code
    assert 'data-colour="red"' in face_html("chan", "CC")


def test_card_names_and_shape() -> None:
    assert cards_svg.card_name("2v") == "nhị vạn"
    assert cards_svg.card_name("7n") == "thất văn"
    assert cards_svg.card_name("9s") == "cửu sách"
    assert cards_svg.card_name("CC") == "chi chi"
    assert cards_svg.card_label("8v") == "bát vạn (cá), red"
    svg = cards_svg.card_svg("5n", 20)
    width, height = (int(x) for x in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())  # type: ignore[union-attr]
    assert height > 2.5 * width  # a tall narrow card
    assert ">5<" in svg and ">văn<" in svg and ">ngũ<" in svg  # rank and suit as text
    assert face_name("chan", "2s") == "nhị sách" and face_name("hk-classic", "2s") == "2 bamboo"


# -- the engine's view model of every ruleset ---------------------------------------------


def test_the_view_follows_the_charleston_with_a_blind_pass() -> None:
    rec = american_hand()
    before = table_view(rec, 7).seats[0].concealed
    after = table_view(rec, 11)
    assert before is not None and after.seats[0].concealed is not None
    # an gave 2m and passed on blind the S and 2p binh passed him; he keeps binh's other S
    mine = after.seats[0].concealed
    assert mine.count("S") == before.count("S") + 1 and "2m" not in mine
    assert "2p" not in mine
    assert after.findings == ()  # a clean pass
    assert after.extras == (("phase", "charleston, next pass 4"),)
    assert "(Charleston pass 3, blind)" in describe(rec, 8)
    assert describe(rec, 12) == "event 12: chi stops the Charleston (no second Charleston)"


def test_the_view_joker_exchange_takes_the_joker_out_of_the_exposure() -> None:
    rec = american_hand()
    pung = table_view(rec, 18).seats[0].melds[0]
    assert (pung.kind, pung.tiles, pung.new) == ("pung", ("E", "E", "J"), True)
    view = table_view(rec, 21)
    assert view.seats[0].melds[0].tiles == ("E", "E", "E")
    assert view.seats[0].melds[0].new  # changed at this event
    assert "J" in (view.seats[1].concealed or ())
    assert view.seats[0].status == ("DEAD (DEAD_BY_EXPOSURE)",)  # the engine's own finding


def test_the_view_chan_eat_chiu_khai_and_the_cua() -> None:
    one, two = chan_hands()[:2]
    view = table_view(one, 1)
    assert view.seats[1].melds[0].tiles == ("7s", "7n")  # hand card on top (§5.3)
    assert view.seats[1].melds[0].from_seat == 0 and view.seats[1].melds[0].new
    assert view.seats[0].discards == ()  # the eaten card left an's cửa for binh's chiếu
    eaten_on_top = {
        **one,
        "events": [*one["events"][:1], {**one["events"][1], "placement": "eaten_on_top"}],
    }
    assert "(eaten card on top)" in describe(eaten_on_top, 1)
    draw = table_view(two, 1)
    assert draw.seats[1].discards == (("6s", False),) and draw.seats[1].new_discard
    assert draw.stock == 100 - 77 - 1 and draw.pieces == "cards"
    assert ("live card", "6s lục sách (đen) on binh's cửa (draw)") in draw.extras
    khai = table_view(two, 4).seats[2]
    assert khai.melds[0].tiles == ("CC",) * 4 and "CC" not in (khai.concealed or ())
    win = table_view(two, 10)
    assert win.seats[0].drawn == two["events"][10]["tile"]
    assert describe(one, 14).endswith("on their own draw; declares Chì, Tôm ×2")
    xuong = {**two, "events": [*two["events"][:10], {**two["events"][10], "claim": {"cuoc": []}}]}
    assert describe(xuong, 10).endswith("declares xuông")
    html = table_html(win)
    assert "trên chiếu" in html and "cửa" in html and "cards in the nọc" in html
    assert 'data-extra="arrangement"' in html


def test_the_view_vn160_khung_pung_and_king_flower() -> None:
    rec = vn160_hand()
    view = table_view(rec, 3)
    assert view.seats[0].flowers == ("k2",) and view.seats[0].flowers_at_start == (True,)
    assert view.seats[1].melds[0].tiles == ("4p", "4p", "BP")
    assert view.seats[1].extras == (("khung", "4p4pBP reads 4p4p4p"),)
    assert "Blue khung Văn 2 (any dots)" in describe(rec, 3)
    assert 'data-tile="BP"' in table_html(view)


def test_an_unknown_event_type_is_shown_as_recorded() -> None:
    rec = american_hand()
    rec["events"] = [*rec["events"][:2], {"type": "tea_break", "seat": 1, "minutes": 5}]
    assert describe(rec, 2) == "event 2: tea_break (seat=1, minutes=5)"
    view = table_view(rec, 2)  # the engine stops at it (corrupt log): nothing moves
    assert view.seats[1].concealed == table_view(rec, 1).seats[1].concealed
    findings = pl.DataFrame(
        [
            {
                "event_index": 2,
                "seat": 1,
                "player": "binh",
                "code": "X",
                "class": "INFO",
                "message": "",
            }
        ],
        schema=FINDING_SCHEMA,
    )
    html = events_html(rec, 2, findings)
    assert 'data-type="tea_break"' in html and ">X<" in html and "#fff3bf" in html


@pytest.mark.parametrize("make", [american_hand, lambda: chan_hands()[1], vn160_hand])
def test_show_prints_the_view_the_page_draws(make) -> None:  # type: ignore[no-untyped-def]
    """One definition of the table after an event: `mjaudit show`'s text is the shared
    renderer of the same view model the replayer draws."""
    rec = make()
    for at in (-1, 4, len(rec["events"]) - 1):
        view = table_view(rec, at)
        text = engine.position_text(rec, None if at < 0 else at)
        assert text == position_text(view)
        for s in view.seats:
            assert f"seat {s.seat} {s.player}" in text
            if s.concealed:
                assert " ".join(s.concealed) in text
