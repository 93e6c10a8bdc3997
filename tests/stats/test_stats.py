"""`mjaudit stats` against a hand-built archive whose outcome is known by construction.

Four hk-classic hands, players ann (seat 0, East, dealer), bob (S), cat (W), dan (N), each
hand its own sitting so no rotation is involved. Payments by hk-classic §6 (half_spicy,
base 1):

1. bob self-draws all chows (C2): all_chows + self_draw + concealed_self_draw + no_flowers
   = 4 fan, P 16: ann, cat, dan -32, bob +96.
2. dan wins a concealed full flush on cat's discard: full_flush 6 + no_flowers 1 = 7 fan,
   P 48: cat -96, ann -48, bob -48, dan +192.
3. exhaustive draw: nobody pays.
4. bob declares a false win on an incomplete hand (F1): bob -192, the others +64 each.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "replay"))
from logbuilder import Hand
from mjaudit.parts.dashboards.queries import Filters, connect, overview, player_stats
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.replay.archive.update import replay_archive

from mjaudit.cli import app

runner = CliRunner()


def _records() -> list[dict]:
    c2 = Hand("hk-classic", game_id="night-1", avoid="8s")
    c2.hand(1, "1m2m3m 4m5m6m 3p4p5p 6s7s 9p9p")
    c2.turns(0, 1).draw(1, "8s").win(1, "8s")
    flush = Hand("hk-classic", game_id="night-2", avoid="9s")
    flush.hand(3, "1s1s1s 2s3s4s 5s6s7s 8s8s 9s9s")
    flush.turns(0, 2).draw(2, "9s").discard(2, "9s").win(3, "9s", frm=2)
    draw = Hand("hk-classic", game_id="night-3")
    draw.turns(0, 78).exhaustive_draw()  # 144 - 52 dealt - 14 reserved = 78 draws
    false = Hand("hk-classic", game_id="night-4", avoid="6s")
    false.hand(1, "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s")
    false.turns(0, 1).draw(1, "6s").win(1, "6s")
    recs = [c2.record(), flush.record(), draw.record(), false.record()]
    for i, rec in enumerate(recs):
        rec["started_at"] = f"2026-0{i + 1}-10T20:00:00+07:00"
        rec["venue"] = "Lotus" if i < 2 else "Jade"
    return recs


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stats")
    path = root / "club.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in _records()))
    ingest([str(path)], root / "data")
    replay_archive(root / "data")
    return root / "data"


def _by_player(frame) -> dict[str, dict]:
    return {row["player"]: row for row in frame.iter_rows(named=True)}


def test_the_archive_replays_as_constructed(archive):
    con = connect(archive)
    deltas = con.execute(
        "SELECT game_id, list(delta ORDER BY seat) FROM scores GROUP BY game_id ORDER BY game_id"
    ).fetchall()
    assert deltas == [
        ("night-1", [-32.0, 96.0, -32.0, -32.0]),
        ("night-2", [-48.0, -48.0, -96.0, 192.0]),
        ("night-3", [0.0, 0.0, 0.0, 0.0]),
        ("night-4", [64.0, -192.0, 64.0, 64.0]),
    ]


def test_player_statistics(archive):
    rows = _by_player(player_stats(connect(archive)))
    ann, bob, cat, dan = rows["ann"], rows["bob"], rows["cat"], rows["dan"]
    assert [r["hands"] for r in (ann, bob, cat, dan)] == [4, 4, 4, 4]
    assert (bob["wins"], bob["self_draws"], bob["self_draw_rate"], bob["avg_fan"]) == (
        1,
        1,
        1.0,
        4.0,
    )
    assert (dan["wins"], dan["self_draws"], dan["self_draw_rate"], dan["avg_fan"]) == (
        1,
        0,
        0.0,
        7.0,
    )
    assert (ann["wins"], ann["win_rate"], ann["self_draw_rate"], ann["avg_fan"]) == (
        0,
        0.0,
        None,
        None,
    )
    assert (cat["deal_ins"], cat["deal_in_rate"]) == (1, 0.25)
    assert bob["win_rate"] == 0.25
    assert [r["net_points"] for r in (ann, bob, cat, dan)] == [-16.0, -144.0, -64.0, 224.0]
    assert dan["net_per_hand"] == 56.0
    assert (bob["fan_distribution"], dan["fan_distribution"]) == ("4:1", "7:1")
    assert (bob["n_violations"], bob["violations"]) == (1, "FALSE_WIN:1")
    assert ann["n_violations"] == 0
    order = list(player_stats(connect(archive))["player"])
    assert order == ["dan", "ann", "cat", "bob"]  # net points per hand, best first


def test_filters_and_grouping(archive):
    con = connect(archive)
    early = _by_player(player_stats(con, Filters(until=date(2026, 2, 28))))
    assert early["dan"]["hands"] == 2
    assert early["bob"]["net_points"] == 48.0  # 96 - 48, before the false win
    late = _by_player(player_stats(con, Filters(since=date(2026, 3, 1))))
    assert late["bob"]["net_points"] == -192.0
    jade = _by_player(player_stats(con, Filters(venue="Jade")))
    assert jade["cat"]["net_points"] == 64.0
    by_venue = player_stats(con, by="venue")
    assert set(by_venue["venue"]) == {"Lotus", "Jade"}
    assert by_venue.height == 8
    by_month = player_stats(con, by="month")
    assert sorted(set(by_month["month"])) == ["2026-01", "2026-02", "2026-03", "2026-04"]
    assert player_stats(con, min_hands=5).height == 0
    assert player_stats(con, Filters(ruleset="hk-mahjongo")).height == 0
    injected = player_stats(con, Filters(venue="Lotus' OR 1=1 --"))
    assert injected.height == 0


def test_overview(archive):
    figures = overview(connect(archive))
    assert (figures["sittings"], figures["hands"], figures["players"]) == (4, 4, 4)
    assert figures["violations"] == 1
    assert figures["exhaustive_draw_rate"] == 0.25


def test_cli_stats_formats(archive):
    table = runner.invoke(app, ["stats", "--data", str(archive)])
    assert table.exit_code == 0, table.output
    assert "dan" in table.output
    csv = runner.invoke(app, ["stats", "--data", str(archive), "--format", "csv"])
    lines = csv.output.strip().splitlines()
    assert lines[0].startswith("player,unit,hands,wins,win_rate")
    assert lines[1].startswith("dan,fan,4,1,0.25")
    as_json = json.loads(
        runner.invoke(app, ["stats", "--data", str(archive), "--format", "json"]).output
    )
    assert [r["player"] for r in as_json] == ["dan", "ann", "cat", "bob"]
    monthly = runner.invoke(
        app, ["stats", "--data", str(archive), "--by", "month", "--since", "2026-02-01"]
    )
    assert monthly.exit_code == 0
    assert "2026-01" not in monthly.output
    missing = runner.invoke(app, ["stats", "--data", str(archive.parent / "nothing")])
    assert missing.exit_code == 2


def test_cli_stats_json_gives_the_fan_distribution_as_data(archive):
    """It was the table's text ("7:1") inside the JSON."""
    out = runner.invoke(app, ["stats", "--data", str(archive), "--format", "json"]).output
    by_player = {r["player"]: r for r in json.loads(out)}
    assert by_player["dan"]["fan_distribution"] == [{"fan": 7, "wins": 1}]
    assert by_player["bob"]["fan_distribution"] == [{"fan": 4, "wins": 1}]
    assert by_player["ann"]["fan_distribution"] == []  # no wins


def test_statistics_never_add_two_units(tmp_path: Path) -> None:
    """A player's 13.44 "average fan" was 3.5 phán blended with 37.5 card points."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    data = tmp_path / "data"
    ingest([str(examples / f"{n}.jsonl") for n in ("vn160-evening", "american-evening")], data)
    replay_archive(data)
    con = connect(data)
    mixed = player_stats(con)
    assert set(mixed["unit"]) == {"phán", "card points"}
    for unit, ruleset in (("phán", "vn-160"), ("card points", "american")):
        alone = player_stats(connect(data), Filters(ruleset=ruleset))
        assert set(alone["unit"]) == {unit}
        rows = mixed.filter(mixed["unit"] == unit).sort("player")
        # the row of each unit is exactly the figures of that ruleset alone
        assert rows.drop("unit").equals(alone.sort("player").drop("unit"))
    tsv = runner.invoke(app, ["stats", "--data", str(data), "--format", "tsv"])
    assert tsv.exit_code == 2 and "--ruleset" in tsv.output


def test_the_units_stats_labels_with_are_the_engines() -> None:
    """`mjaudit stats` reads each ruleset's unit from schemas/rulesets.py (no engine
    import on its path); it is the engine's own."""
    from mjaudit.parts.replay.engine.registry import RULESETS as ENGINES
    from mjaudit.parts.schemas.rulesets import RULESETS as SHAPES

    assert set(SHAPES) == set(ENGINES)
    assert {k: s.unit for k, s in SHAPES.items()} == {k: e.unit for k, e in ENGINES.items()}
