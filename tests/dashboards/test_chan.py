"""The chắn statistics and the Game selector, on an archive that holds both families
(tests/dashboards/chan_archive.py): queries first, then the pages under AppTest."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest
from mjaudit.parts.dashboards import data
from mjaudit.parts.dashboards.queries import Filters
from mjaudit.parts.replay.engine.run import supported

from tests.dashboards.chan_archive import (
    CHAN_GAME,
    CHAN_HANDS,
    CHAN_WINS,
    HK_GAME,
    US_GAME,
    VN_GAME,
    build_with_the_chan_engine,
)
from tests.dashboards.test_app import app, metric, no_exception

UseData = Callable[[Path], None]
MAHJONG_HANDS = 4  # two hk-classic, one vn-160, one american


@pytest.fixture(scope="module")
def con(chan_data: Path):  # type: ignore[no-untyped-def]
    return data.open_archive(chan_data).cursor()


# -- queries ------------------------------------------------------------------------------


def test_the_game_column_keeps_the_families_apart(con) -> None:  # type: ignore[no-untyped-def]
    opts = data.filter_options(con)
    assert opts["games"] == ["mahjong", "chan"]
    assert opts["rulesets_by_game"] == {
        "mahjong": ["american", "hk-classic", "vn-160"],
        "chan": ["chan"],
    }
    assert data.overview(con, Filters(game="chan"))["hands"] == CHAN_HANDS
    assert data.overview(con, Filters(game="mahjong"))["hands"] == MAHJONG_HANDS
    # the same four players sat at both: their mahjong figures hold no chắn hand
    mahjong = data.player_table(con, Filters(game="mahjong"))
    assert set(mahjong["hands"]) <= {1, 2, 3, 4} and mahjong["wins"].sum() == 2
    assert data.fan_histogram(con, Filters(game="mahjong"))["wins"].sum() == 2
    assert data.findings(con, Filters(game="mahjong"), classes=("PLAYER_VIOLATION",))[1] == 0


def test_chan_summary(con) -> None:  # type: ignore[no-untyped-def]
    head = data.chan_summary(con, Filters(game="mahjong"))  # always the chắn hands
    assert (head["hands"], head["wins"], head["draws"]) == (CHAN_HANDS, CHAN_WINS, 1)
    assert head["win_rate"] == pytest.approx(0.75)
    assert head["avg_score"] == pytest.approx((6 + 15 + 3) / 3)  # §7.1 totals T


def test_chan_player_stats_in_diem(con) -> None:  # type: ignore[no-untyped-def]
    stats = {r["player"]: r for r in data.chan_player_stats(con, Filters()).iter_rows(named=True)}
    assert stats["dung"]["wins"] == 2 and stats["dung"]["diem_won"] == 27
    assert stats["dung"]["diem_paid"] == 15 and stats["dung"]["net_diem"] == 12
    assert stats["an"]["net_diem"] == 39 and stats["an"]["avg_score"] == 15
    binh = stats["binh"]
    assert (binh["diem_paid"], binh["net_diem"], binh["liable"]) == (30, -30, 1)
    assert binh["violations"] == "DANH_CA_CHAN:1 XE_CHAN:1" and binh["n_violations"] == 2
    assert sum(r["net_diem"] for r in stats.values()) == 0
    only = data.chan_player_stats(con, Filters(players=("binh",)))
    assert only["player"].to_list() == ["binh"]


def test_cuoc_frequencies(con) -> None:  # type: ignore[no-untyped-def]
    cuoc = {r["cuoc"]: r for r in data.cuoc_frequency(con, Filters()).iter_rows(named=True)}
    assert set(cuoc) == {"chi", "tom", "tam_do", "leo", "ga_tam_do"}
    assert cuoc["chi"]["wins_with"] == 2 and cuoc["chi"]["share"] == pytest.approx(2 / 3)
    assert (cuoc["tom"]["wins_with"], cuoc["tom"]["rows"]) == (1, 2)  # two tôm in one win
    assert cuoc["tam_do"]["value"] == 8 and cuoc["tom"]["value"] == (4 + 1) / 2
    hist = data.score_histogram(con, Filters())
    assert dict(hist.iter_rows()) == {3: 1, 6: 1, 15: 1}
    # a player filter keeps that player's wins only
    dung = data.cuoc_frequency(con, Filters(players=("dung",)))
    assert set(dung["cuoc"]) == {"chi", "tom"}


# -- pages --------------------------------------------------------------------------------


def test_game_selector_defaults_to_mahjong_and_keeps_figures_apart(
    chan_data: Path, use_data: UseData
) -> None:
    use_data(chan_data)
    at = app()
    no_exception(at)
    assert at.radio(key="f_game").value == "mahjong"  # both present: mahjong
    assert metric(at, "Hands") == str(MAHJONG_HANDS)
    assert at.selectbox(key="f_ruleset").options == ["All", "american", "hk-classic", "vn-160"]
    at.radio(key="f_game").set_value("chan").run()
    no_exception(at)
    assert (metric(at, "Hands"), metric(at, "Sittings")) == (str(CHAN_HANDS), "1")
    assert metric(at, "Violations") == "2"
    assert at.selectbox(key="f_ruleset").options == ["All", "chan"]
    assert at.query_params["game"] == "chan"  # shareable
    assert "Draws (hòa)" in [m.label for m in at.metric]
    at = app("players", game="chan")
    table = at.dataframe[0].value
    assert "diem_won" in table.columns and "avg_fan" not in table.columns
    assert table.loc[table["player"] == "dung", "hands"].item() == CHAN_HANDS
    at = app("player", name="dung", game="chan")
    no_exception(at)
    assert (metric(at, "Hands"), metric(at, "Wins"), metric(at, "Avg điểm")) == ("4", "2", "4.50")
    assert metric(at, "Net điểm") == "12"
    at = app("players")
    table = at.dataframe[0].value
    assert "avg_fan" in table.columns
    # one row per unit (fan, phán, card points): together at most the mahjong hands
    assert table.loc[table["player"] == "dung", "hands"].sum() <= MAHJONG_HANDS


def test_chan_stats_page_shows_cuoc_frequencies(chan_data: Path, use_data: UseData) -> None:
    use_data(chan_data)
    at = app("fans", game="chan")
    no_exception(at)
    assert at.header[0].value == "Chắn: cước and điểm"
    assert (metric(at, "Wins (ù)"), metric(at, "Win rate")) == (str(CHAN_WINS), "75.0%")
    assert metric(at, "Average score") == "8"
    labels = " ".join(m.label for m in at.metric)
    assert "fan" not in labels.lower()
    players, cuoc = at.dataframe[0].value, at.dataframe[1].value
    assert players.loc[players["player"] == "binh", "violations"].item() == (
        "DANH_CA_CHAN:1 XE_CHAN:1"
    )
    chi = cuoc[cuoc["cuoc"] == "chi"].iloc[0]
    assert (chi["name"], chi["wins_with"]) == ("Chì", 2)
    assert set(cuoc["name"]) == {"Chì", "Tôm", "Tám đỏ", "Lèo", "Gà tám đỏ"}
    # the mahjong fans page is untouched by the chắn hands
    at = app("fans")
    assert at.header[0].value == "Fans" and at.main.caption[0].value == "2 wins"


def test_only_chan_data_defaults_to_chan(tmp_path: Path, use_data: UseData) -> None:
    import msgspec
    from mjaudit.parts.ingest.pipeline import ingest

    from tests.dashboards.chan_archive import chan_hands

    logs = tmp_path / "chan.jsonl"
    logs.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in chan_hands()[:1]))
    ingest([str(logs)], tmp_path / "data")
    use_data(tmp_path / "data")
    at = app()
    no_exception(at)
    assert at.radio(key="f_game").value == "chan" and at.radio(key="f_game").options == ["chắn"]
    assert metric(at, "Hands") == "1"
    # not replayed: the replayer still draws the cards from the log
    at = app("replayer", sitting=CHAN_GAME, hand="1", event="1")
    no_exception(at)
    assert 'data-meld="eat"' in at.html[0].value


def _faces(html: str, seat: int, part: str) -> list[tuple[str, str]]:
    """(code, colour) of the faces in one part of one seat of the table HTML."""
    block = html.split(f'data-seat="{seat}"', 1)[1].split("data-seat=", 1)[0]
    body = block.split(f'data-part="{part}"', 1)[1].split("data-part=", 1)[0]
    return re.findall(r'data-tile="([^"]+)" data-colour="(\w+)"', body)


def test_replayer_draws_chan_cards_and_events(chan_data: Path, use_data: UseData) -> None:
    use_data(chan_data)
    at = app("replayer", sitting=CHAN_GAME, hand="2", event="4")
    no_exception(at)
    assert "chi khai: exposes four CC (chi chi)" in at.markdown[0].value
    html = at.html[0].value
    assert _faces(html, 2, "melds") == [("CC", "red")] * 4  # chi chi is a red card
    assert _faces(html, 1, "melds") == [("6s", "black")] * 4  # the chíu quad
    # the engine's cửa: the 6s binh turned and chíu'd left it for the mat (§5.5)
    assert _faces(html, 1, "discards") == [("3s", "black")]
    assert len(_faces(html, 0, "concealed")) == 19 and "cửa" in html
    events = at.html[1].value
    assert "binh chíu 6s (lục sách)" in events and 'data-type="khai"' in events
    at.button(key="r_last").click().run()
    no_exception(at)
    assert any("Cước: Tám đỏ 8, Gà tám đỏ 5, Lèo 2" in m.value for m in at.markdown)
    assert any("an wins, on their own draw, 15 điểm" in m.value for m in at.markdown)
    at = app("replayer", sitting=CHAN_GAME, hand="1", event="14")
    assert any("Cước: Tôm 4, Chì 1, Tôm 1" in m.value for m in at.markdown)
    # a bắt báo: the finding of the replay tables, at its event
    at = app("replayer", sitting=CHAN_GAME, hand="3", event="3")
    assert any("DANH_CA_CHAN" in e.value for e in at.error)
    assert "#c92a2a" in at.html[0].value.split('data-seat="1"', 1)[1][:300]


def test_replayer_shows_american_and_vn160_events(chan_data: Path, use_data: UseData) -> None:
    use_data(chan_data)
    at = app("replayer", sitting=US_GAME, hand="1", event="8")
    no_exception(at)
    assert "an passes left (Charleston pass 3, blind)" in at.markdown[0].value
    at.slider(key="r_event").set_value(21).run()
    assert "binh gives E (East wind) for a joker in an's exposure 0" in at.markdown[0].value
    html = at.html[0].value
    assert re.findall(r'data-meld="pung"[^>]*>(.*?)</span>', html)[0].count('data-tile="E"') == 3
    assert 'data-tile="J"' in html.split('data-seat="1"', 1)[1].split("data-seat=", 1)[0]
    assert any("after event 21" in c.value for c in at.code)  # the same view, as text
    at = app("replayer", sitting=VN_GAME, hand="1", event="3")
    no_exception(at)
    html = at.html[0].value
    assert 'data-tile="BP"' in html and 'data-tile="k2"' in html
    assert "Blue khung Văn 2" in at.markdown[0].value
    assert HK_GAME  # the hk sitting is stepped by the engine (test_app covers it)


def test_game_selector_reads_old_folders_without_the_game_column() -> None:
    assert "'chan'" in data.game_sql() and "ELSE 'mahjong'" in data.game_sql()
    frame = pl.DataFrame({"ruleset": ["chan", "hk-classic", "vn-160"]})
    db = duckdb.connect()
    db.register("frame", frame.to_arrow())
    got = db.execute(f"SELECT {data.game_sql()} AS g FROM frame").fetchall()
    assert [g for (g,) in got] == ["chan", "mahjong", "mahjong"]


@pytest.mark.skipif(not supported("chan"), reason="the chan engine is not registered")
def test_chan_stats_from_the_real_chan_engine(tmp_path: Path, use_data: UseData) -> None:
    """Worked examples X1-X3 through ingest and the real chan engine's replay: the
    cước the engine scored (values adding up to each T, §7.1) reach the chắn view."""
    root = build_with_the_chan_engine(tmp_path / "data")
    con = data.open_archive(root).cursor()
    head = data.chan_summary(con, Filters())
    assert (head["wins"], head["avg_score"]) == (3, pytest.approx((9 + 31 + 2) / 3))
    cuoc = {r["cuoc"]: r for r in data.cuoc_frequency(con, Filters()).iter_rows(named=True)}
    assert cuoc["leo"]["wins_with"] == 2 and cuoc["leo"]["rows"] == 3  # 1 lèo + 2 lèo
    assert cuoc["xuong"]["share"] == pytest.approx(1 / 3)
    assert {"tam_do", "bach_thu_chi", "chiu_u", "ga_tam_do"} <= set(cuoc)
    use_data(root)
    at = app("fans")
    no_exception(at)
    assert at.radio(key="f_game").value == "chan"  # only chắn here
    assert metric(at, "Average score") == "14"
    names = set(at.dataframe[1].value["name"])
    assert {"Xuông", "Chíu ù", "Bạch thủ chi", "Gà chì bạch thủ"} <= names
    at = app("replayer", sitting="chan-worked-x2", hand="1")
    at.button(key="r_last").click().run()
    no_exception(at)
    assert any("Lèo 2 ×2" in m.value for m in at.markdown)  # two lèo, each its dịch
    assert any("31 điểm" in m.value for m in at.markdown)


@pytest.mark.parametrize("bad", ["' OR 1=1 --", "chan' OR game <> '", "🀄\u0000"])
def test_the_game_and_chan_queries_take_input_as_parameters(
    con, bad: str, chan_data: Path, use_data: UseData
) -> None:  # type: ignore[no-untyped-def]
    assert data.overview(con, Filters(game=bad))["hands"] == 0
    f = Filters(venue=bad, players=(bad,))
    assert data.chan_player_stats(con, f).is_empty()
    assert data.cuoc_frequency(con, f).is_empty()
    assert data.score_histogram(con, f).is_empty()
    assert data.chan_summary(con, f)["hands"] == 0
    use_data(chan_data)
    at = app("fans", game=bad)  # a bad link falls back to the default family
    no_exception(at)
    assert at.radio(key="f_game").value == "mahjong"


def test_player_page_shows_one_unit_at_a_time(chan_data: Path, use_data: UseData) -> None:
    """A player of hk-classic, vn-160 and american hands: the page added fan, phán and card
    points into one net; now it shows one unit at a time, each as `stats` gives it."""
    from mjaudit.parts.dashboards.queries import connect, player_stats

    use_data(chan_data)
    at = app("player", name="dung")
    no_exception(at)
    choice = at.radio(key="p_unit")
    stats = player_stats(connect(chan_data), Filters(game="mahjong", players=("dung",)))
    assert sorted(choice.options) == sorted(stats["unit"].to_list())
    assert len(choice.options) > 1
    for unit in choice.options:
        at.radio(key="p_unit").set_value(unit).run()
        no_exception(at)
        row = stats.filter(pl.col("unit") == unit).row(0, named=True)
        assert metric(at, "Hands") == str(row["hands"])
        assert metric(at, f"Avg {unit}") == (
            "–" if row["avg_fan"] is None else data_num(row["avg_fan"])
        )


def data_num(x: float) -> str:
    from mjaudit.parts.dashboards import ui

    return ui.num(x)
