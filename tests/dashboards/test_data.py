"""The dashboard's queries and the replayer's view, without Streamlit."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from mjaudit.parts.dashboards import data
from mjaudit.parts.dashboards.describe import describe
from mjaudit.parts.dashboards.queries import Filters, player_stats
from mjaudit.parts.dashboards.table_view import table_html, table_view
from mjaudit.parts.dashboards.tiles_svg import tile_img, tile_name, tile_svg
from mjaudit.parts.schemas.tiles import BONUS_TILES, PLAYING_TILES

from tests.dashboards.archive import GAME, SYNTHETIC_HANDS, baseline

HAND_BUILT = 6


@pytest.fixture(scope="module")
def con(demo_data: Path):  # type: ignore[no-untyped-def]
    return data.open_archive(demo_data).cursor()


def test_overview_counts_and_filters(con) -> None:  # type: ignore[no-untyped-def]
    everything = data.overview(con, Filters())
    assert everything["hands"] == SYNTHETIC_HANDS + HAND_BUILT
    assert everything["replayed"] == everything["hands"]
    assert everything["wins"] == 4
    assert everything["violations"] == 3  # DISCARD_OUT_OF_TURN, SHORT_HAND, FALSE_WIN
    assert everything["first_day"] == date(2026, 1, 1)
    assert data.overview(con, Filters(ruleset="hk-classic"))["hands"] == HAND_BUILT
    assert data.overview(con, Filters(venue="Lotus Club"))["sittings"] == 1
    assert data.overview(con, Filters(since=date(2026, 2, 1)))["hands"] == HAND_BUILT
    assert data.overview(con, Filters(until=date(2026, 1, 31)))["hands"] == SYNTHETIC_HANDS
    assert data.overview(con, Filters(source_kind="sheet"))["hands"] == 0
    assert data.filter_options(con)["sources"] == ["log"]
    ann = data.overview(con, Filters(players=("ann",)))
    assert (ann["hands"], ann["players"], ann["violations"]) == (HAND_BUILT, 4, 2)


def test_leaderboard_agrees_with_player_stats(con) -> None:  # type: ignore[no-untyped-def]
    stats = player_stats(con, Filters()).sort("player", "unit")
    board = data.leaderboard(con, Filters()).sort("player", "unit")
    assert board["player"].to_list() == stats["player"].to_list()
    assert board["unit"].to_list() == stats["unit"].to_list()
    for col in ("hands", "wins", "net_points", "win_rate", "deal_in_rate"):
        assert board[col].to_list() == pytest.approx(stats[col].to_list()), col
    assert data.leaderboard(con, Filters(), min_hands=16)["hands"].min() >= 16
    only_ann = data.leaderboard(con, Filters(players=("ann",)))
    assert only_ann["player"].to_list() == ["ann"]


def test_player_queries(con) -> None:  # type: ignore[no-untyped-def]
    bob = data.player_sittings(con, Filters(), "bob")
    assert bob["hands"].sum() == HAND_BUILT
    assert bob["wins"].sum() == 1 and bob["self_draws"].sum() == 1  # hand 1
    assert bob["deal_ins"].sum() == 1  # cat won on bob's discard in hand 2
    h2h = data.head_to_head(con, Filters(), "bob").sort("opponent")
    assert h2h["opponent"].to_list() == ["ann", "cat", "dan"]
    cat = h2h.filter(pl.col("opponent") == "cat").row(0, named=True)
    assert cat["dealt_in_to_them"] == 1 and cat["paid_to"] > 0
    stats = player_stats(con, Filters()).filter(pl.col("player") == "bob").row(0, named=True)
    assert h2h["net"].unique().to_list() == [stats["net_points"]]


def test_a_players_pairs_are_copied_only_when_read_and_again_after_a_failed_copy(
    demo_data: Path,
) -> None:
    """The violations page's queries copy none of a chosen player's player_pairs rows; the
    head-to-head does, and a copy that stopped before its last table is made again."""
    cur = data.open_archive(demo_data).cursor()
    chosen = Filters(players=("dan",))
    data.finding_counts(cur, chosen)
    schema = data._chosen_schema(cur, ("dan",))

    def tables() -> set[str]:
        rows = cur.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = ?", [schema]
        ).fetchall()
        return {r[0] for r in rows}

    assert tables() == {"mine", "sel", "days"}
    expected = data.head_to_head(cur, Filters(), "dan")
    assert tables() == {"mine", "sel", "days", "pairs", "met"}
    cur.execute(f'DROP TABLE "{schema}".met')  # as if the copy had failed before it
    assert data.head_to_head(cur, Filters(), "dan").equals(expected)


def test_fan_queries(con) -> None:  # type: ignore[no-untyped-def]
    hist = data.fan_histogram(con, Filters())
    assert hist["wins"].sum() == 4
    assert set(hist["ruleset"]) == {"hk-classic"}
    pats = data.pattern_frequency(con, Filters())
    assert pats.filter(pl.col("pattern") == "heavenly_hand")["wins_with"].to_list() == [1]
    assert pats["share"].max() <= 1
    limits, n = data.limit_hands(con, Filters())
    assert n == 2 and limits.height == 2  # the heavenly and the earthly hand
    assert "heavenly_hand" in " ".join(limits["patterns"].to_list())
    assert data.fan_histogram(con, Filters(ruleset="hk-mahjongo")).is_empty()
    by_fan = data.payment_by_fan(con, Filters())
    assert (by_fan["avg_gain"] > 0).all()


def test_findings_filters(con) -> None:  # type: ignore[no-untyped-def]
    serious = data.SERIOUS_CLASSES
    rows, total = data.findings(con, Filters(), classes=serious)
    assert total == rows.height == 4
    _, total = data.findings(con, Filters(), codes=("FALSE_WIN",))
    assert total == 1
    # a player's own findings, and the seatless ones of hands they sat at
    rows, total = data.findings(con, Filters(players=("ann",)), classes=serious)
    assert sorted(rows["code"]) == ["DISCARD_OUT_OF_TURN", "RECORDED_RESULT_MISMATCH", "SHORT_HAND"]
    rows, _ = data.findings(con, Filters(players=("dan",)), codes=("SHORT_HAND", "FALSE_WIN"))
    assert rows["code"].to_list() == ["FALSE_WIN"]
    counts = data.finding_counts(con, Filters(), classes=serious)
    assert dict(counts["by_player"].iter_rows()) == {"ann": 2, "dan": 1}
    assert data.findings(con, Filters(venue="Synthetic Club"))[1] == 0


def test_replayer_queries(con) -> None:  # type: ignore[no-untyped-def]
    sits, total = data.sittings(con, Filters())
    assert total == 4 and sits["game_id"][0] == GAME  # newest first
    hands = data.hands_of(con, GAME)
    assert hands["hand_no"].to_list() == [1, 2, 3, 4, 5, 6]
    assert hands["winners"][0] == "bob"
    record = data.load_record(con, GAME, 1)
    assert record is not None and record.pop("result")["winners"] == [1]
    assert record == baseline_record()
    result = data.computed_result(con, GAME, 1)
    assert result is not None
    assert (result["winners"], result["fan"], result["deltas"]) == ([1], 2, [-8, 24, -8, -8])
    assert data.load_record(con, GAME, 99) is None
    assert data.hand_findings(con, GAME, 4)["code"].to_list() == ["FALSE_WIN", "FALSE_WIN_PENALTY"]


def test_empty_and_missing_folders(tmp_path: Path) -> None:
    assert data.data_version(tmp_path) is None
    with pytest.raises(data.NoData, match="mjaudit ingest"):
        data.open_archive(tmp_path)


# -- the replayer's view -----------------------------------------------------------------


def baseline_record() -> dict:  # type: ignore[type-arg]
    return baseline().record()


def concealed_after(record: dict, seat: int, at: int) -> Counter[str]:  # type: ignore[type-arg]
    """An independent account of a seat's concealed tiles: start hand, plus what it drew,
    minus what it discarded, declared or melded."""
    held = Counter(record["start_hands"][seat])
    used = {"pung": 2, "kong": 3, "concealed_kong": 4, "added_kong": 1}
    for ev in record["events"][: at + 1]:
        if ev.get("seat") != seat:
            continue
        kind, tile = ev["type"], ev.get("tile")
        if kind in ("draw", "replacement"):
            held[tile] += 1
        elif kind in ("discard", "flower"):
            held[tile] -= 1
        elif kind in used:
            held[tile] -= used[kind]
        elif kind == "chow":
            run = list(ev["tiles"])
            run.remove(tile)
            held.subtract(run)
    return +held


def test_table_view_at_a_known_event() -> None:
    record = baseline_record()
    at = 24  # cat (W) discards after the added kong
    assert record["events"][at]["type"] == "discard" and record["events"][at]["seat"] == 2
    view = table_view(record, at)
    tile = record["events"][at]["tile"]
    assert describe(record, at) == f"event 24: cat discards {tile} ({tile_name(tile)})"
    for seat in view.seats:
        assert Counter(seat.concealed) == concealed_after(record, seat.seat, at), seat.player
    ann, bob, cat, dan = view.seats
    assert [(m.kind, m.tiles) for m in bob.melds] == [
        ("chow", ("1m", "2m", "3m")),
        ("concealed_kong", ("9s",) * 4),
    ]
    assert [(m.kind, m.tiles) for m in cat.melds] == [("added_kong", ("5p",) * 4)]
    assert dan.flowers == ("f3",)
    assert ann.discards[:2] == (("3m", True), ("5p", True))  # both claimed
    assert cat.discards[-1] == (record["events"][at]["tile"], False) and cat.new_discard
    draws = sum(1 for e in record["events"][: at + 1] if e["type"] in ("draw", "replacement"))
    assert view.stock == 144 - (4 * 13 + 1) - draws
    assert (ann.dealer, ann.wind, bob.wind) == (True, "E", "S")


def test_table_view_deal_and_end() -> None:
    record = baseline_record()
    deal = table_view(record, -1)
    assert describe(record, -1) == "after the deal" and deal.event is None
    assert [len(s.concealed or ()) for s in deal.seats] == [14, 13, 13, 13]
    end = table_view(record, len(record["events"]) - 1)
    assert end.seats[1].drawn == "6s"  # the winning tile, shown apart
    with pytest.raises(ValueError):
        table_view(record, len(record["events"]))


def test_table_html_escapes_and_marks_tiles() -> None:
    record = baseline_record()
    record["players"] = ["<b>ann</b>", "bob", "cat", "dan"]
    html = table_html(table_view(record, 24), {2})
    assert "<b>ann</b>" not in html and "&lt;b&gt;ann&lt;/b&gt;" in html
    assert html.count('data-tile="') > 50
    assert 'data-seat="2" style="grid-area:top' in html and "#c92a2a" in html


def test_every_tile_has_a_picture_and_a_name() -> None:
    for code in (*PLAYING_TILES, *BONUS_TILES):
        svg = tile_svg(code)
        assert svg.startswith("<svg") and f'data-tile="{code}"' in svg
        assert tile_name(code) != code
        assert tile_img(code).startswith('<img src="data:image/svg+xml;utf8,')
    assert tile_name("5p") == "5 dots" and tile_name("C") == "Red dragon"
    assert tile_name("g2") == "Season 2"
    # the faces differ from one another
    assert len({tile_svg(c) for c in (*PLAYING_TILES, *BONUS_TILES)}) == 42


def test_a_draw_marks_the_drawn_tile_not_the_last_discard() -> None:
    """Only chắn turns a drawn card onto the drawer's discards (its cửa); a mahjong draw
    goes to the hand, shown apart, and leaves the discards as they were."""
    record = baseline_record()
    at, ev = next(
        (i, e)
        for i, e in enumerate(record["events"])
        if e["type"] == "draw"
        and any(d["type"] == "discard" and d["seat"] == e["seat"] for d in record["events"][:i])
    )
    seat = table_view(record, at).seats[ev["seat"]]
    assert seat.discards and not seat.new_discard
    assert seat.drawn == ev["tile"]
