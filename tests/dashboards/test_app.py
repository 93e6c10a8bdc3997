"""Every page under Streamlit's AppTest: on demo data, on an empty folder, with filters,
with state in the URL, and the replayer stepping through a hand-built log."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from mjaudit.parts.dashboards.app import SCRIPT
from streamlit.testing.v1 import AppTest

from tests.dashboards.archive import GAME, SYNTHETIC_HANDS
from tests.dashboards.test_data import baseline_record, concealed_after

PAGES = ["overview", "players", "player", "fans", "violations", "replayer"]
UseData = Callable[[Path], None]


def app(page: str = "overview", **query: str) -> AppTest:
    at = AppTest.from_file(SCRIPT, default_timeout=300)  # a hang guard: a busy CI machine is slow
    if page != "overview":
        at.switch_page(f"views/{page}.py")  # url_path == file name, so no first run needed
    at.query_params.update(query)
    return at.run()


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_on_demo_data(page: str, demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    at = app(page)
    no_exception(at)
    assert at.header[0].value
    assert not any("mjaudit ingest" in i.value for i in at.info)
    assert not at.warning  # everything is replayed


@pytest.mark.parametrize("page", PAGES)
def test_page_says_how_to_get_data(page: str, empty_data: Path, use_data: UseData) -> None:
    use_data(empty_data)
    at = app(page)
    no_exception(at)
    assert "mjaudit ingest" in at.info[0].value and "mjaudit demo" in at.info[0].value
    use_data(empty_data / "does-not-exist")
    no_exception(app(page))


@pytest.mark.parametrize("page", PAGES)
def test_page_notes_hands_not_replayed(page: str, unreplayed_data: Path, use_data: UseData) -> None:
    use_data(unreplayed_data)
    at = app(page)
    no_exception(at)
    if page != "replayer":
        assert "mjaudit replay" in at.warning[0].value


def test_sidebar_filters_change_the_figures(demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    at = app()
    assert metric(at, "Hands") == str(SYNTHETIC_HANDS + 6)
    at.selectbox(key="f_ruleset").set_value("hk-classic").run()
    assert (metric(at, "Hands"), metric(at, "Sittings"), metric(at, "Violations")) == (
        "6",
        "1",
        "3",
    )
    assert at.query_params["ruleset"] == "hk-classic"  # shareable
    at.selectbox(key="f_ruleset").set_value("All").run()
    at.selectbox(key="f_venue").set_value("Synthetic Club").run()
    assert metric(at, "Hands") == str(SYNTHETIC_HANDS)
    at.selectbox(key="f_venue").set_value("All").run()
    at.multiselect(key="f_players").set_value(["ann"]).run()
    assert (metric(at, "Hands"), metric(at, "Violations")) == ("6", "2")
    assert at.query_params["players"] == "ann"
    # the other pages honour the same filters
    at.switch_page("views/violations.py").run()
    assert metric(at, "Findings") == "3"  # ann's two, and a seatless one at her table
    at.switch_page("views/fans.py").run()
    no_exception(at)
    assert "No replayed wins" in at.info[0].value  # ann won nothing
    at.multiselect(key="f_players").set_value(["cat"]).run()
    assert at.main.caption[0].value == "2 wins by cat"


def test_date_filter_and_url_state(demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    at = app(since="2026-02-01")
    assert metric(at, "Hands") == "6"
    at = app(until="2026-01-31", min_hands="16")
    assert metric(at, "Hands") == str(SYNTHETIC_HANDS)
    assert at.number_input(key="o_min_hands").value == 16
    board = at.dataframe[0].value
    assert (board["hands"] >= 16).all()
    at = app(ruleset="no-such-ruleset")  # a bad link falls back to everything
    no_exception(at)
    assert metric(at, "Hands") == str(SYNTHETIC_HANDS + 6)


def test_players_page_and_player_page(demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    at = app("players")
    table = at.dataframe[0].value
    assert {"ann", "bob", "cat", "dan"} <= set(table["player"])
    assert table.loc[table["player"] == "bob", "wins"].item() == 1
    at = app("player", name="cat")
    no_exception(at)
    assert at.selectbox(key="p_name").value == "cat"
    assert (metric(at, "Hands"), metric(at, "Wins")) == ("6", "2")
    h2h = at.dataframe[-1].value
    assert sorted(h2h["opponent"]) == ["ann", "bob", "dan"]
    at.selectbox(key="p_name").set_value("dan").run()
    assert metric(at, "Wins") == "1" and at.query_params["name"] == "dan"


def test_violations_page_filters_and_links(demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    at = app("violations")
    assert metric(at, "Findings") == "4"
    rows = at.dataframe[-1].value
    false_win = rows[rows["code"] == "FALSE_WIN"].iloc[0]
    assert false_win["replay"] == f"replayer?sitting={GAME}&hand=4&event=2"
    at.multiselect(key="v_class").set_value(["INFO"]).run()
    assert metric(at, "Findings") == "3"
    at.multiselect(key="v_class").set_value([]).run()
    at.multiselect(key="v_code").set_value(["SHORT_HAND"]).run()
    assert metric(at, "Findings") == "1" and at.query_params["code"] == "SHORT_HAND"


def _tiles(html: str, seat: int, part: str) -> list[str]:
    block = html.split(f'data-seat="{seat}"', 1)[1]
    parts = ["concealed", "melds", "flowers", "discards"]
    body = block.split(f'data-part="{part}"', 1)[1]
    nxt = parts.index(part) + 1
    if nxt < len(parts):
        body = body.split(f'data-part="{parts[nxt]}"', 1)[0]
    else:
        body = body.split("data-seat=", 1)[0]
    return re.findall(r'data-tile="([^"]+)"', body)


def test_replayer_steps_and_shows_the_right_tiles(demo_data: Path, use_data: UseData) -> None:
    use_data(demo_data)
    record = baseline_record()
    at = app("replayer", sitting=GAME, hand="1", event="24")
    no_exception(at)
    assert at.slider(key="r_event").value == 24
    html = at.html[0].value
    assert 'data-at="24"' in html
    for seat in range(4):
        shown = _tiles(html, seat, "concealed")
        assert sorted(shown) == sorted(concealed_after(record, seat, 24).elements()), seat
    assert _tiles(html, 1, "melds") == ["1m", "2m", "3m", "9s", "9s", "9s", "9s"]
    assert _tiles(html, 3, "flowers") == ["f3"]
    assert _tiles(html, 2, "discards")[-1] == record["events"][24]["tile"]
    assert "cat discards" in at.markdown[0].value

    at.button(key="r_next").click().run()
    assert at.slider(key="r_event").value == 25
    assert 'data-at="25"' in at.html[0].value and at.query_params["event"] == "25"
    at.button(key="r_prev").click().run()
    at.button(key="r_prev").click().run()
    assert at.slider(key="r_event").value == 23
    assert sorted(_tiles(at.html[0].value, 2, "concealed")) == sorted(
        concealed_after(record, 2, 23).elements()
    )
    at.slider(key="r_event").set_value(3).run()
    assert _tiles(at.html[0].value, 1, "melds") == ["1m", "2m", "3m"]  # the chow, just made
    at.button(key="r_first").click().run()
    assert at.slider(key="r_event").value == -1
    assert "after the deal" in at.markdown[0].value
    at.button(key="r_last").click().run()
    no_exception(at)
    assert any(s.value == "Result" for s in at.subheader)
    assert any("matches" in s.value for s in at.success)


def test_replayer_link_names_the_sitting_apart_from_the_game_filter(
    demo_data: Path, use_data: UseData
) -> None:
    """The sidebar's ``game`` is the game (mahjong or chắn); the replayer's sitting has its
    own parameter, so a link to a sitting neither warns about ``game`` nor overwrites it."""
    use_data(demo_data)
    at = app("replayer", sitting=GAME, hand="4", event="2", game="mahjong")
    no_exception(at)
    assert not at.warning, [w.value for w in at.warning]
    assert at.selectbox(key="r_game").value == GAME
    assert at.radio(key="f_game").value == "mahjong"
    assert at.query_params["sitting"] == GAME and at.query_params["hand"] == "4"


def test_replayer_highlights_findings_and_opens_from_a_link(
    demo_data: Path, use_data: UseData
) -> None:
    use_data(demo_data)
    at = app("replayer", sitting=GAME, hand="4", event="2", ruleset="hk-mahjongo")
    no_exception(at)  # the filters leave the sitting out, the link still opens it
    assert at.selectbox(key="r_game").value == GAME
    assert any("FALSE_WIN" in e.value for e in at.error)
    assert "#c92a2a" in at.html[0].value.split('data-seat="3"', 1)[1][:400]
    at = app("replayer", sitting=GAME, hand="3")
    at.button(key="r_next_finding").click().run()
    assert at.slider(key="r_event").value == 1  # ann's discard out of turn
    at.selectbox(key="r_hand").set_value(6).run()
    at.button(key="r_last").click().run()
    assert any("differs" in e.value for e in at.error)


def test_the_app_never_writes_the_data_folder(demo_data: Path, use_data: UseData) -> None:
    def snapshot() -> dict[str, tuple[int, int]]:
        return {
            str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(demo_data.rglob("*"))
        }

    before = snapshot()
    use_data(demo_data)
    for page in PAGES:
        no_exception(app(page))
    assert snapshot() == before
