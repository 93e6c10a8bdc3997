"""Partition pruning (issue 7, item 2): a filtered reader opens only the partitions its
filters need, with the same figures as the whole archive; the replay tables are written
under ``ruleset=`` folders and an archive in the older flat layout is upgraded."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import duckdb
import msgspec
import polars as pl
import pytest
from mjaudit.parts.dashboards import data
from mjaudit.parts.dashboards.queries import Filters, connect, families, player_stats, summary_tsv
from mjaudit.parts.ingest.partitions import Scope, game_of, prune, segments
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir, Part
from mjaudit.parts.replay.archive.summary import KEY
from mjaudit.parts.replay.archive.summary import SORT as SUMMARY_SORT
from mjaudit.parts.replay.archive.update import bucket_table, flat_buckets, replay_archive
from mjaudit.parts.schemas.tables import REPLAY_TABLES
from typer.testing import CliRunner

from bench.synthlog import records as synthetic_records
from mjaudit.cli import app
from tests.dashboards.archive import sitting

runner = CliRunner()
RULESETS = ("hk-mahjongo", "hk-classic")


# -- the pruner, on paths ---------------------------------------------------------------


def test_segments_reads_the_key_value_folders() -> None:
    rel = "hands/ruleset=hk-classic/month=2026-03/part-00000004.parquet"
    assert segments(rel) == {"ruleset": "hk-classic", "month": "2026-03"}
    assert segments("hands/part-00000001.parquet") == {}
    assert segments("findings/ruleset=chan/bucket-03-00000009.parquet") == {"ruleset": "chan"}


def test_game_of_follows_the_registry_and_defaults_to_mahjong() -> None:
    assert game_of("chan") == "chan"
    assert game_of("hk-classic") == "mahjong"
    assert game_of("not-a-ruleset") == "mahjong"  # as the dashboards' game_sql derives it


FILES = [
    "hands/part-00000001.parquet",  # the empty file every table starts with
    "hands/ruleset=hk-classic/month=2026-01/part-00000002.parquet",
    "hands/ruleset=hk-classic/month=2026-03/part-00000002.parquet",
    "hands/ruleset=hk-mahjongo/month=2026-02/part-00000002.parquet",
    "hands/ruleset=hk-mahjongo/month=unknown/part-00000002.parquet",
    "hands/ruleset=chan/month=2026-02/part-00000003.parquet",
    "findings/ruleset=hk-classic/bucket-01-00000005.parquet",
    "findings/ruleset=chan/bucket-01-00000005.parquet",
    "findings/bucket-02-00000004.parquet",  # the flat layout of older versions
]


def test_no_scope_keeps_every_file() -> None:
    assert prune(FILES, None) == FILES
    assert prune(FILES, Scope()) == FILES


def test_ruleset_scope_keeps_its_folders_and_unlabelled_files() -> None:
    assert prune(FILES, Scope(ruleset="hk-classic")) == [
        "hands/part-00000001.parquet",
        "hands/ruleset=hk-classic/month=2026-01/part-00000002.parquet",
        "hands/ruleset=hk-classic/month=2026-03/part-00000002.parquet",
        "findings/ruleset=hk-classic/bucket-01-00000005.parquet",
        "findings/bucket-02-00000004.parquet",
    ]


def test_game_scope_keeps_the_rulesets_of_the_family() -> None:
    kept = prune(FILES, Scope(game="chan"))
    assert kept == [
        "hands/part-00000001.parquet",
        "hands/ruleset=chan/month=2026-02/part-00000003.parquet",
        "findings/ruleset=chan/bucket-01-00000005.parquet",
        "findings/bucket-02-00000004.parquet",
    ]
    assert "hands/ruleset=chan/month=2026-02/part-00000003.parquet" not in prune(
        FILES, Scope(game="mahjong")
    )
    assert prune(FILES, Scope(game="mahjong", ruleset="chan")) == [  # contradictory: none
        "hands/part-00000001.parquet",
        "findings/bucket-02-00000004.parquet",
    ]


def test_date_scope_keeps_overlapping_months_and_drops_unknown() -> None:
    scope = Scope(since=date(2026, 1, 31), until=date(2026, 2, 1))
    assert prune(FILES, scope) == [
        "hands/part-00000001.parquet",
        "hands/ruleset=hk-classic/month=2026-01/part-00000002.parquet",
        "hands/ruleset=hk-mahjongo/month=2026-02/part-00000002.parquet",
        "hands/ruleset=chan/month=2026-02/part-00000003.parquet",
        # replay files have no month: kept, the join with hands selects their rows
        "findings/ruleset=hk-classic/bucket-01-00000005.parquet",
        "findings/ruleset=chan/bucket-01-00000005.parquet",
        "findings/bucket-02-00000004.parquet",
    ]
    since_march = prune(FILES, Scope(since=date(2026, 3, 1)))
    assert [r for r in since_march if "month=" in r] == [
        "hands/ruleset=hk-classic/month=2026-03/part-00000002.parquet"
    ]
    until_jan = prune(FILES, Scope(until=date(2026, 1, 1)))
    assert [r for r in until_jan if "month=" in r] == [
        "hands/ruleset=hk-classic/month=2026-01/part-00000002.parquet"
    ]


def test_month_boundaries_and_december() -> None:
    dec = "hands/ruleset=x/month=2025-12/part-00000002.parquet"
    assert Scope(since=date(2025, 12, 31)).keeps(dec)
    assert not Scope(since=date(2026, 1, 1)).keeps(dec)
    assert Scope(until=date(2025, 12, 1)).keeps(dec)
    assert not Scope(until=date(2025, 11, 30)).keeps(dec)
    assert Scope(since=date(2026, 1, 1)).keeps("hands/ruleset=x/month=odd/part-1.parquet")


def test_scope_key_round_trips() -> None:
    scope = Scope("mahjong", "hk-classic", date(2026, 2, 1), None)
    assert Scope.from_key(scope.key()) == scope
    assert Filters(game="chan", since=date(2026, 1, 2), venue="x").scope() == Scope(
        "chan", None, date(2026, 1, 2), None
    )


# -- an archive of two rulesets over several months --------------------------------------


def _records() -> list[dict]:
    """Five synthetic sittings (hk-mahjongo and hk-classic in turn, January to April 2026,
    the fifth without a timestamp) and the hand-built hk-classic Lotus sitting (February:
    wins, violations, a score mismatch)."""
    out = []
    for rec in synthetic_records(80, seed=5):
        g = int(rec["game_id"].rsplit("-", 1)[1])
        rec["ruleset"] = RULESETS[g % 2]
        if g < 4:
            rec["started_at"] = f"2026-{g + 1:02d}-15" + rec["started_at"][10:]
        else:
            del rec["started_at"]
        out.append(rec)
    return [*out, *sitting()]


@pytest.fixture(scope="module")
def months(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("months")
    logs = base / "club.jsonl"
    logs.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in _records()))
    root = base / "data"
    summary = ingest([str(logs)], root)
    assert not summary.quarantined
    replay_archive(root)
    return root


def _rels(root: Path, table: str) -> list[str]:
    return DataDir(root).manifest()["tables"][table]


def test_replay_tables_are_written_per_ruleset(months: Path) -> None:
    for table in REPLAY_TABLES:
        buckets = [r for r in _rels(months, table) if "/bucket-" in r]
        assert buckets or table == "riichi_players", table  # riichi hands only: none here
        for rel in buckets:
            assert segments(rel).get("ruleset") in RULESETS, rel
        for rel in buckets:  # each file holds only its ruleset's hands, in key order
            frame = pl.read_parquet(months / rel)
            if "ruleset" in frame.columns:
                assert frame["ruleset"].unique().to_list() == [segments(rel)["ruleset"]]
            # in key order: a hand's, or a summary table's own (player first in some)
            order = SUMMARY_SORT.get(table, [c for c in KEY if c in frame.columns])
            key = frame.select(order)
            assert key.equals(key.sort(order, nulls_last=True)), rel
    scores = pl.concat(
        pl.read_parquet(months / r).with_columns(pl.lit(segments(r)["ruleset"]).alias("folder"))
        for r in _rels(months, "scores")
        if "/bucket-" in r
    )
    results = DataDir(months).scan("hand_results").select("game_id", "hand_no", "ruleset")
    joined = scores.join(results.collect(), on=["game_id", "hand_no"])
    assert joined.height == scores.height
    assert (joined["folder"] == joined["ruleset"]).all()
    assert flat_buckets(DataDir(months)) == set()


FILTERS = [
    Filters(game="mahjong"),
    Filters(game="mahjong", ruleset="hk-classic"),
    Filters(game="mahjong", ruleset="hk-mahjongo"),
    Filters(game="mahjong", since=date(2026, 2, 1), until=date(2026, 3, 31)),
    Filters(game="mahjong", since=date(2026, 3, 10)),
    Filters(game="mahjong", until=date(2026, 2, 1), players=("ann",)),
    Filters(ruleset="hk-classic", since=date(2026, 2, 1), until=date(2026, 2, 28)),
]


def _figures(con: duckdb.DuckDBPyConnection, f: Filters) -> dict[str, object]:
    return {
        "overview": data.overview(con, f),
        "activity": data.activity(con, f, "day")[1].to_dicts(),
        "leaderboard": data.leaderboard(con, f).to_dicts(),
        "fans": data.fan_histogram(con, f).to_dicts(),
        "patterns": data.pattern_frequency(con, f).to_dicts(),
        "payments": data.payment_by_fan(con, f).to_dicts(),
        "findings": data.findings(con, f)[0].to_dicts(),
        "finding_counts": {k: v.to_dicts() for k, v in data.finding_counts(con, f).items()},
        "sittings": data.sittings(con, f)[0].to_dicts(),
        "limits": data.limit_hands(con, f)[0].to_dicts(),
    }


def test_scoped_open_reads_only_matching_files(months: Path) -> None:
    full = data.open_archive(months)
    scoped = data.open_archive(months, Scope(ruleset="hk-classic", since=date(2026, 2, 1)))
    assert full.files["hands"] == [(months / r).resolve() for r in _rels(months, "hands")]
    hands = [p.relative_to(months.resolve()).as_posix() for p in scoped.files["hands"]]
    assert hands == [
        r
        for r in _rels(months, "hands")
        if segments(r)
        in (
            {},
            {"ruleset": "hk-classic", "month": "2026-02"},
            {"ruleset": "hk-classic", "month": "2026-04"},
        )
    ]
    assert any("month=2026-02" in r for r in hands) and any("month=2026-04" in r for r in hands)
    for table in REPLAY_TABLES:
        assert scoped.files[table] == [
            p
            for p in full.files[table]
            if segments(p.relative_to(months.resolve()).as_posix()).get("ruleset")
            in (None, "hk-classic")
        ]
    for table in ("scores", "hand_results"):  # the hk-mahjongo draws' rows were left out
        assert len(scoped.files[table]) < len(full.files[table])


@pytest.mark.parametrize("f", FILTERS, ids=range(len(FILTERS)))
def test_scoped_and_full_opens_give_the_same_figures(months: Path, f: Filters) -> None:
    full = data.open_archive(months).cursor()
    scoped = data.open_archive(months, f.scope()).cursor()
    assert _figures(scoped, f) == _figures(full, f)
    assert data.overview(full, f)["hands"] > 0
    everything = connect(months)
    pruned = connect(months, f.scope())
    assert player_stats(pruned, f).to_dicts() == player_stats(everything, f).to_dicts()
    assert summary_tsv(pruned, f) == summary_tsv(everything, f)


def test_the_index_describes_the_whole_archive(months: Path) -> None:
    found = data.index(months)
    con = data.open_archive(months).cursor()
    assert found["status"] == data.status(con)
    assert found["options"] == data.filter_options(con)
    assert families(months) == {"mahjong"}


def _corrupt_other_partitions(src: Path, dest: Path) -> Path:
    """A copy of ``src`` whose hk-mahjongo files (ingest and replay) are garbage."""
    shutil.copytree(src, dest)
    hit = 0
    for rels in DataDir(dest).manifest()["tables"].values():
        for rel in rels:
            if segments(rel).get("ruleset") == "hk-mahjongo":
                (dest / rel).write_bytes(b"not parquet")
                hit += 1
    assert hit > 4
    return dest


def test_a_scoped_open_never_touches_other_partitions(months: Path, tmp_path: Path) -> None:
    broken = _corrupt_other_partitions(months, tmp_path / "broken")
    f = Filters(game="mahjong", ruleset="hk-classic")
    with pytest.raises(duckdb.Error):
        data.open_archive(broken)
    scoped = data.open_archive(broken, f.scope()).cursor()
    assert _figures(scoped, f) == _figures(data.open_archive(months).cursor(), f)
    pruned = connect(broken, f.scope())
    assert player_stats(pruned, f).to_dicts() == player_stats(connect(months), f).to_dicts()
    with pytest.raises(duckdb.Error):
        player_stats(connect(broken), f)


def test_stats_cli_reads_only_the_needed_partitions(months: Path, tmp_path: Path) -> None:
    broken = _corrupt_other_partitions(months, tmp_path / "broken")
    args = ["stats", "--ruleset", "hk-classic", "--format", "csv", "--since", "2026-02-01"]
    good = runner.invoke(app, [*args, "--data", str(months)])
    assert good.exit_code == 0, good.output
    assert "ann" in good.output
    pruned = runner.invoke(app, [*args, "--data", str(broken)])
    assert pruned.exit_code == 0, pruned.output
    assert pruned.output == good.output
    whole = runner.invoke(app, ["stats", "--format", "csv", "--data", str(broken)])
    assert whole.exit_code != 0


def test_stats_cli_reads_only_the_tables_it_needs(months: Path, tmp_path: Path) -> None:
    """A view reads every file's footer when it is made, so stats makes views of the four
    tables its figures come from only: garbage in the others changes nothing."""
    broken = tmp_path / "broken"
    shutil.copytree(months, broken)
    manifest = DataDir(broken).manifest()["tables"]
    for table in ("events", "seats", "recorded_results", "fans"):
        for rel in manifest[table]:
            (broken / rel).write_bytes(b"not parquet")
    for args in (["--format", "csv"], ["--format", "tsv"], ["--by", "month", "--format", "json"]):
        good = runner.invoke(app, ["stats", *args, "--data", str(months)])
        assert good.exit_code == 0, good.output
        assert "ann" in good.output
        assert runner.invoke(app, ["stats", *args, "--data", str(broken)]).output == good.output
    with pytest.raises(duckdb.Error):
        connect(broken)


# -- an archive written with the flat replay layout of older versions ---------------------


def _flatten(root: Path) -> None:
    """Rewrite the replay tables as older versions wrote them: one file per bucket and
    table directly in the table's folder (the bucket's rows in key order)."""
    data = DataDir(root)
    manifest = data.manifest()["tables"]
    buckets = sorted(
        {
            int(Path(r).name.split("-")[1])
            for t in REPLAY_TABLES
            for r in manifest[t]
            if "/bucket-" in r
        }
    )
    parts, remove = [], []
    for b in buckets:
        # every game of the bucket carried over
        tables = {name: bucket_table(data, b, name) for name in REPLAY_TABLES}
        for name in REPLAY_TABLES:
            parts.append(Part(name, tables[name], f"bucket-{b:02d}"))
            remove += [r for r in manifest[name] if Path(r).name.startswith(f"bucket-{b:02d}-")]
    with data.writing():
        data.commit_parts(parts, remove)


def _contents(root: Path) -> dict[tuple[str, str], bytes]:
    """Replay files by (folder, bucket) -> bytes: the commit version left out."""
    out = {}
    for name in REPLAY_TABLES:
        for rel in _rels(root, name):
            path = Path(rel)
            out[(path.parent.as_posix(), path.name.rsplit("-", 1)[0])] = (root / rel).read_bytes()
    return out


def test_flat_layout_is_read_and_upgraded_by_the_next_replay(months: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(months, old)
    _flatten(old)
    flat = {b for b in flat_buckets(DataDir(old))}
    assert flat
    assert all("ruleset=" not in r for t in REPLAY_TABLES for r in _rels(old, t) if "/bucket-" in r)
    f = Filters(game="mahjong", ruleset="hk-classic")
    expected = _figures(data.open_archive(months).cursor(), f)
    # Read as it is (flat files have no ruleset folder, so a scoped open keeps them).
    assert _figures(data.open_archive(old).cursor(), f) == expected
    assert _figures(data.open_archive(old, f.scope()).cursor(), f) == expected
    upgraded: list[int] = []
    summary = replay_archive(old, on_total=upgraded.append)
    assert upgraded == [len(flat)]
    assert summary.replayed == 0 and summary.buckets == 0  # no hand was replayed again
    assert flat_buckets(DataDir(old)) == set()
    assert _contents(old) == _contents(months)  # the same files, byte for byte
    assert _figures(data.open_archive(old, f.scope()).cursor(), f) == expected
    before = {t: _rels(old, t) for t in REPLAY_TABLES}
    replay_archive(old)  # nothing left to do
    assert {t: _rels(old, t) for t in REPLAY_TABLES} == before


def test_readers_bound_duckdb_memory_and_clean_their_spill_folder(months: Path) -> None:
    """Joins and sorts past MEMORY_LIMIT spill to the connection's own folder (so a
    reader's memory does not grow with the archive); the folder goes with the process."""
    con = connect(months)
    limit, spill = con.execute(
        "SELECT current_setting('memory_limit'), current_setting('temp_directory')"
    ).fetchone()
    assert limit in ("1.0 GiB", "953.6 MiB") and Path(spill).is_dir()
    con.execute("SET memory_limit = '64MB'")  # a small limit: the figures stay the same
    f = Filters(game="mahjong")
    assert player_stats(con, f).to_dicts() == player_stats(connect(months), f).to_dicts()
    code = (
        "from mjaudit.parts.dashboards.queries import connect\n"
        f"con = connect({str(months)!r})\n"
        "print(con.execute(\"SELECT current_setting('temp_directory')\").fetchone()[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() and not Path(done.stdout.strip()).exists()
