"""The riichi players' statistics (issue 23 part 3) on the shipped corpus.

The figures ``mjaudit stats --riichi`` reads from the ``riichi_players`` summary rows
equal counts derived here straight from the Tenhou XML files, element by element
(INIT per hand, REACH step 1, N melds, AGARI, RYUUKYOKU and ``owari``), with no use of
the importer or the replay; and the CLI prints those rows.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import unquote

import pytest
from mjaudit.parts.dashboards.queries import Filters, connect
from mjaudit.parts.dashboards.riichi_stats import riichi_stats, riichi_stats_raw
from mjaudit.parts.replay.rulesets.riichi.replayer import places
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.stats.conftest import RIICHI_CORPUS

TABLES = ("hands", "game_days", "riichi_players")


def _is_open(m: int) -> bool:
    """A Tenhou N element's meld is open unless it is a concealed kong (a kan bit pattern,
    no chi/pon/added-kan/nuki bit, given by nobody: ``m & 3 == 0``)."""
    return bool(m & 0x3C) or (m & 3) != 0


def _close(out: dict[str, Counter[str]], names: list[str], hand: dict[str, set[int]]) -> None:
    """Count one hand's facts for its four players."""
    for s, name in enumerate(names):
        c = out[name]
        c["hands"] += 1
        for fact in ("riichi", "open", "win", "deal_in", "exhaustive", "abortive"):
            c[fact] += s in hand.get(fact, set())


def xml_counts() -> dict[str, Counter[str]]:
    """Per player of the mjx Tenhou XML files: the statistics' counts, from the XML."""
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for path in sorted((RIICHI_CORPUS / "mjx").glob("*.mjlog")):
        names: list[str] = []
        hand: dict[str, set[int]] = {}
        for el in ET.parse(path).getroot():
            a = el.attrib
            if el.tag == "UN" and all(a.get(f"n{i}") for i in range(4)):
                names = [unquote(a[f"n{i}"]) for i in range(4)]
            elif el.tag == "INIT":
                if hand:
                    _close(out, names, hand)
                hand = {"seen": set()}
            elif el.tag == "REACH" and a["step"] == "1":
                hand.setdefault("riichi", set()).add(int(a["who"]))
            elif el.tag == "N" and _is_open(int(a["m"])):
                hand.setdefault("open", set()).add(int(a["who"]))
            elif el.tag == "AGARI":
                who, frm = int(a["who"]), int(a["fromWho"])
                hand.setdefault("win", set()).add(who)
                if frm != who:
                    hand.setdefault("deal_in", set()).add(frm)
                out[names[who]]["points"] += int(a["ten"].split(",")[1])
                out[names[who]]["valued"] += 1
            elif el.tag == "RYUUKYOKU":
                kind = "exhaustive" if a.get("type") in (None, "nm") else "abortive"
                hand.setdefault(kind, set()).update(range(4))
            if "owari" in a:
                final = [float(x) for x in a["owari"].split(",")[::2]]
                for s, place in enumerate(places(final)):
                    out[names[s]][f"place{place}"] += 1
        if hand:
            _close(out, names, hand)
    return out


@pytest.fixture(scope="module")
def xml_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mjx Tenhou XML files alone, so every count has an XML to be derived from."""
    from mjaudit.parts.ingest.pipeline import ingest
    from mjaudit.parts.replay.archive.update import replay_archive

    root = tmp_path_factory.mktemp("riichi-xml") / "data"
    result = ingest([str(p) for p in sorted((RIICHI_CORPUS / "mjx").glob("*.mjlog"))], root)
    assert not result.quarantined, result.messages
    replay_archive(root)
    return root


def test_riichi_statistics_equal_the_counts_of_the_tenhou_xml(xml_only: Path) -> None:
    expected = xml_counts()
    rows = {r["player"]: r for r in riichi_stats(connect(xml_only, tables=TABLES)).to_dicts()}
    assert set(rows) == set(expected)
    assert sum(c["hands"] for c in expected.values()) == 4 * 602  # the corpus's 602 hands
    for player, c in expected.items():
        r, n = rows[player], c["hands"]
        assert r["hands"] == n, player
        assert r["riichi_rate"] == pytest.approx(c["riichi"] / n), player
        assert r["call_rate"] == pytest.approx(c["open"] / n), player
        assert r["win_rate"] == pytest.approx(c["win"] / n), player
        assert r["deal_in_rate"] == pytest.approx(c["deal_in"] / n), player
        assert r["draw_rate"] == pytest.approx(c["exhaustive"] / n), player
        assert r["abortive_rate"] == pytest.approx(c["abortive"] / n), player
        points = c["points"] / c["valued"] if c["valued"] else None
        assert r["avg_win_points"] == pytest.approx(points), player
        got = [r["first"], r["second"], r["third"], r["fourth"]]
        assert got == [c[f"place{k}"] for k in (1, 2, 3, 4)], player
        assert r["games"] == sum(got), player
    # the corpus has riichi, calls, deal-ins, both kinds of draws and ended games
    for fact in ("riichi", "open", "deal_in", "exhaustive", "abortive", "place1"):
        assert sum(c[fact] for c in expected.values()) > 0, fact


def test_places_break_a_tie_towards_the_first_dealer() -> None:
    assert places([25000, 35000, 25000, 15000]) == [2, 1, 3, 4]


def test_riichi_summary_equals_the_hand_rows(riichi_archive: Path) -> None:
    """Every source of the corpus (XML, tenhou.net/6, MJAI), under several filters."""
    con = connect(riichi_archive)
    players = tuple(sorted(riichi_stats(con)["player"].to_list())[:5])
    for filters in (
        Filters(),
        Filters(ruleset="riichi"),
        Filters(players=players),
        Filters(source_kind="log", game="mahjong"),
    ):
        for min_hands in (0, 20):
            summed = riichi_stats(con, filters, min_hands)
            assert summed.to_dicts() == riichi_stats_raw(con, filters, min_hands).to_dicts()
            assert not summed.is_empty()


def test_cli_stats_riichi(riichi_archive: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(
        app, ["stats", "--data", str(riichi_archive), "--riichi", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    expected = riichi_stats(connect(riichi_archive, tables=TABLES)).to_dicts()
    assert rows == json.loads(json.dumps(expected))
    assert sum(r["hands"] for r in rows) == 4 * 635  # every hand of the corpus
    table = runner.invoke(app, ["stats", "--data", str(riichi_archive), "--riichi"])
    assert table.exit_code == 0 and "riichi statistics" in table.stdout
    assert "avg place" in table.stdout
    bad = runner.invoke(app, ["stats", "--data", str(riichi_archive), "--riichi", "--by", "month"])
    assert bad.exit_code != 0 and "--riichi gives one row per player" in bad.output
    other = runner.invoke(
        app, ["stats", "--data", str(riichi_archive), "--riichi", "--ruleset", "hk-classic"]
    )
    assert other.exit_code == 2 and "--riichi counts riichi hands" in other.output


def test_tenhou_json_and_mjai_keep_the_game_end(riichi_archive: Path, tmp_path: Path) -> None:
    """tenhou.net/6's ``sc`` (final score, points per seat) is the last hand's game end,
    as XML's ``owari``; an MJAI ``end_game`` with ``scores`` too; the places follow."""
    from mjaudit.parts.ingest import mjai, tenhou_json

    path = RIICHI_CORPUS / "mjai-reviewer" / "ranked_game.json"
    records = [item.record for item in tenhou_json.read(path)]
    assert "game_end" not in records[0]["result"]
    end = records[-1]["result"]["game_end"]
    assert end == {"scores": [21100, 55000, -4900, 28800], "points": [-19.0, 65.0, -55.0, 9.0]}
    con = connect(riichi_archive)
    got = con.sql(
        "SELECT seat, place FROM scores WHERE game_id = 'ranked_game' AND place IS NOT NULL "
        "ORDER BY seat"
    ).fetchall()
    assert got == [(0, 3), (1, 1), (2, 4), (3, 2)]
    lines = (RIICHI_CORPUS / "riichienv" / "126_204_0_mjai.jsonl").read_text().splitlines()
    assert json.loads(lines[-1]) == {"type": "end_game"}  # the corpus's MJAI has no scores
    ended = tmp_path / "ended.jsonl"
    final = [31000, 25000, 24000, 20000]
    ended.write_text("\n".join([*lines[:-1], json.dumps({"type": "end_game", "scores": final})]))
    last = list(mjai.read(ended))[-1].record  # type: ignore[union-attr]
    assert last["result"]["game_end"] == {"scores": final}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], '{"type": "end_game", "scores": [1, 2]}']))
    problem = list(mjai.read(bad))[-1]
    assert "end_game" in problem.message and "scores" in problem.message  # type: ignore[union-attr]


def test_dashboard_players_page_shows_the_riichi_block(
    riichi_archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.dashboards.test_app import app, no_exception

    monkeypatch.setenv("MJAUDIT_DATA", str(riichi_archive))
    at = app("players")
    no_exception(at)
    assert [h.value for h in at.subheader] == ["Riichi"]
    shown = at.dataframe[-1].value
    expected = riichi_stats(connect(riichi_archive, tables=TABLES))
    assert list(shown["player"]) == expected["player"].to_list()
    assert list(shown["riichi_rate"]) == pytest.approx(expected["riichi_rate"].to_list())


def test_riichi_buckets_replayed_before_riichi_players_are_replayed_again(
    riichi_archive: Path, tmp_path: Path
) -> None:
    """A riichi folder's bucket without a riichi_players file was replayed before its
    scores rows had the riichi columns: the statistics refuse, the next replay writes it
    (and the same rows); other rulesets' buckets need none."""
    import shutil

    from mjaudit.parts.dashboards.queries import SummaryMissing
    from mjaudit.parts.ingest.store import DataDir
    from mjaudit.parts.replay.archive.summary import missing_summaries
    from mjaudit.parts.replay.archive.update import replay_archive

    root = tmp_path / "old"
    shutil.copytree(riichi_archive, root)
    store = DataDir(root)
    before = riichi_stats(connect(root, tables=TABLES))
    with store.writing():
        files = store.manifest()["tables"]["riichi_players"]
        store.commit_staged([], [rel for rel in files if "/bucket-" in rel])
    with pytest.raises(SummaryMissing, match="mjaudit replay"):
        connect(root, tables=TABLES)
    refused = CliRunner().invoke(app, ["stats", "--data", str(root), "--riichi"])
    assert refused.exit_code == 2 and "mjaudit replay" in refused.output
    replay_archive(root)
    assert missing_summaries(store.manifest()) == []
    assert riichi_stats(connect(root, tables=TABLES)).to_dicts() == before.to_dicts()
    other = {
        "tables": {
            name: [f"{name}/ruleset=hk-classic/bucket-00-00000001.parquet"]
            for name in ("hand_results", "game_days", "player_pairs")
        }
    }
    assert missing_summaries(other) == []
