"""`mjaudit replay` over a data folder, `check` and `show`: determinism, incrementality, CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import polars as pl
import pyarrow.parquet as pq
import pytest
from mjaudit.parts.ingest import store
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.ingest.store import DataDir
from mjaudit.parts.replay.archive import plan as planning
from mjaudit.parts.replay.archive import ranges
from mjaudit.parts.replay.archive import update as archive
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.schemas.tables import REPLAY_TABLES, TOTALS_TABLES
from typer.testing import CliRunner

from bench.synthlog import records, write_jsonl
from mjaudit.cli import app

runner = CliRunner()


def _replay_bytes(root: Path) -> dict[str, bytes]:
    data = DataDir(root)
    return {
        str(f.relative_to(root)): f.read_bytes()
        for name in (*REPLAY_TABLES, *TOTALS_TABLES)  # the stored totals too
        for f in data.files(name)
    }


@pytest.fixture()
def logs(tmp_path: Path) -> list[Path]:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(str(a), 40, seed=3)
    write_jsonl(str(b), 24, seed=4)
    return [a, b]


def test_replay_output_identical_for_any_worker_count_and_file_order(tmp_path, logs):
    one, two = tmp_path / "one", tmp_path / "two"
    ingest([str(p) for p in logs], one)
    ingest([str(p) for p in reversed(logs)], two)
    s1 = replay_archive(one, workers=1)
    s2 = replay_archive(two, workers=2)
    assert s1.replayed == s2.replayed == 64
    assert _replay_bytes(one) == _replay_bytes(two)
    assert len(_replay_bytes(one)) > 4  # bucket files exist beside the initial empty ones


def test_chunks_finishing_in_any_order_give_the_same_files(tmp_path, logs, monkeypatch):
    """A chunk per game, on two workers, finishes in whatever order: the bucket files are
    those of one chunk in one process; the spill is gone afterwards, and what a killed
    replay left in the work area is removed by the next writer."""
    one, many = tmp_path / "one", tmp_path / "many"
    ingest([str(p) for p in logs], one)
    ingest([str(p) for p in logs], many)
    replay_archive(one, workers=1)
    monkeypatch.setattr(planning, "CHUNK_GAMES", 1)
    monkeypatch.setattr(archive, "FRESH_WORKERS_HANDS", 10)  # buckets in a second pool
    tasks: list[int] = []
    summary = replay_archive(many, workers=2, on_total=tasks.append)
    assert summary.replayed == 64 and tasks[0] > summary.buckets + 3  # 4+ chunks, then buckets
    assert _replay_bytes(one) == _replay_bytes(many)
    assert not (many / ".work" / "replay").exists()
    (many / ".work" / "replay").mkdir(parents=True)
    (many / ".work" / "replay" / "bucket-00.scores.arrow").write_bytes(b"left by a killed run")
    assert replay_archive(many).replayed == 0
    assert not (many / ".work").exists()


def test_plan_finds_the_new_changed_and_vanished_games(tmp_path, logs, monkeypatch):
    """plan() is one DuckDB join within PLAN_MEMORY: with another limit and row group size
    it finds the same new, changed and vanished games, and writes each bucket's sorted,
    each game once, in row groups of at most STALE_ROW_GROUP."""
    root = tmp_path / "data"
    ingest([str(logs[0])], root)
    replay_archive(root)
    ingest([str(logs[1])], root)  # new games
    data = DataDir(root)
    first = [r for r in data.manifest()["tables"]["hands"] if r.endswith("-00000002.parquet")]
    assert first  # the first ingest's files (version 1 is the empty start)
    with data.writing():  # replayed hands vanish (their replay rows stay until the next replay)
        data.commit_parts([], first[:1])
    results = data.scan("hand_results").collect()
    replays = []
    for memory, row_group in (("1GB", 10_000), ("64MB", 3)):
        monkeypatch.setattr(planning, "PLAN_MEMORY", memory)
        monkeypatch.setattr(planning, "STALE_ROW_GROUP", row_group)
        with data.writing():
            found = planning.plan(data)
            games = {
                b: pl.read_parquet(found.stale_file(b))["game_id"].to_list() for b in found.games
            }
            for b in found.games:
                meta = pq.ParquetFile(found.stale_file(b)).metadata
                assert max(meta.row_group(i).num_rows for i in range(meta.num_row_groups)) <= (
                    row_group
                )
        replays.append((found.hands, found.stale, found.unsupported, found.games, games))
    assert all(replay == replays[0] for replay in replays)
    hands, stale, _, counts, by_bucket = replays[0]
    keys = set(data.scan("hands").select("game_id", "hand_no").collect().iter_rows())
    done = set(results.select("game_id", "hand_no").iter_rows())
    assert hands == len(keys)
    assert stale == len(keys - done) + len(done - keys)
    for b, games in by_bucket.items():  # each bucket's games, sorted, each once
        assert games == sorted(set(games)) and len(games) == counts[b]
        assert {planning.bucket_of(g) for g in games} == {b}
    games = {g for gs in by_bucket.values() for g in gs}
    assert games == {g for g, _ in keys ^ done}
    assert {g for g, _ in done - keys} and {g for g, _ in keys - done}  # vanished and new


def test_rerun_replays_only_new_or_changed_games(tmp_path, logs):
    root = tmp_path / "data"
    ingest([str(logs[0])], root)
    first = replay_archive(root)
    assert (first.hands, first.replayed) == (40, 40)
    again = replay_archive(root)
    assert (again.replayed, again.unchanged) == (0, 40)
    before = _replay_bytes(root)
    ingest([str(logs[1])], root)  # 24 hands: two new games of seed 4
    third = replay_archive(root)
    assert third.replayed == 24
    assert third.unchanged == 40
    data = DataDir(root)
    results = data.scan("hand_results").collect()
    assert results.height == 64
    assert results.select("game_id", "hand_no").is_duplicated().sum() == 0
    # Buckets without new games keep their files byte for byte.
    after = _replay_bytes(root)
    assert set(before) & set(after)


def test_replay_tables_hold_scores_and_results(tmp_path, logs):
    root = tmp_path / "data"
    ingest([str(logs[0])], root)
    replay_archive(root)
    data = DataDir(root)
    scores = data.scan("scores").collect()
    assert scores.height == 40 * 4
    assert scores["delta"].to_list() == [0.0] * 160
    results = data.scan("hand_results").collect()
    assert set(results["ended_by"].to_list()) == {"exhaustive_draw"}
    assert results["matches_recorded"].to_list() == [True] * 40
    assert data.scan("findings").collect().height == 0


def test_replay_records_findings_of_a_corrupt_hand(tmp_path):
    rec = next(records(1, seed=9))
    rec["events"][1]["tile"] = "9m" if rec["events"][1]["tile"] != "9m" else "1m"
    rec["events"][1]["seat"] = 2  # a discard out of turn of a tile the seat may not hold
    path = tmp_path / "bad.jsonl"
    path.write_bytes(msgspec.json.encode(rec) + b"\n")
    root = tmp_path / "data"
    ingest([str(path)], root)
    replay_archive(root)
    findings = DataDir(root).scan("findings").collect()
    assert findings.height >= 1
    first = findings.row(0, named=True)
    assert first["event_index"] == 1
    assert first["seat"] == 2
    assert first["code"] == "DISCARD_OUT_OF_TURN"
    assert first["class"] == "PLAYER_VIOLATION"


def test_cli_replay_and_show(tmp_path, logs):
    root = tmp_path / "data"
    ingest([str(logs[0])], root)
    result = runner.invoke(app, ["replay", "--data", str(root)])
    assert result.exit_code == 0, result.output
    assert "replayed now" in result.output
    game = next(records(1, seed=3))["game_id"]
    shown = runner.invoke(app, ["show", game, "1", "--data", str(root), "--at", "3"])
    assert shown.exit_code == 0, shown.output
    assert "after event 3: discard" in shown.output
    assert "wall: 82 tiles undrawn, 82 live" in shown.output  # 136 - 52 dealt - 2 drawn
    missing = runner.invoke(app, ["show", "nope", "1", "--data", str(root)])
    assert missing.exit_code == 2


def test_cli_check_exit_codes_and_json(tmp_path, logs):
    ok = runner.invoke(app, ["check", str(logs[1])])
    assert ok.exit_code == 0, ok.output
    assert "24 hands checked" in ok.output
    as_json = runner.invoke(app, ["check", "--format", "json", str(logs[1])])
    lines = [json.loads(line) for line in as_json.output.splitlines()]
    assert len(lines) == 24
    assert set(lines[0]) == {
        "game_id",
        "hand_no",
        "ruleset",
        "winners",
        "fan",
        "raw_fan",
        "patterns",
        "liable",
        "deltas",
        "findings",
    }
    bad = tmp_path / "bad.jsonl"
    shutil.copy(logs[1], bad)
    with bad.open("ab") as f:
        f.write(b'{"format": "mjlog/1"\n')
    flagged = runner.invoke(app, ["check", str(bad)])
    assert flagged.exit_code == 1
    assert "BAD_JSON" in flagged.output
    assert runner.invoke(app, ["check", str(tmp_path / "missing.jsonl")]).exit_code == 2
    assert runner.invoke(app, ["check", "--option", "nonsense", str(logs[1])]).exit_code == 2


def test_bucket_files_do_not_depend_on_how_their_games_are_cut(tmp_path, logs, monkeypatch):
    """A bucket task cuts its spilled rows by game range, then sorts and writes a range at
    a time (RANGE_HANDS), each file row group by row group: one range per bucket, one per
    game, or ranges placed by a sample of the games give the same bytes, in a first
    replay and in a re-run that carries stored rows over."""
    monkeypatch.setattr(store, "ROW_GROUP_ROWS", 5)  # row groups straddle the ranges
    monkeypatch.setattr(archive, "SPLIT_ROWS", 3)  # the spill cut a few batches at a time
    outputs = []
    monkeypatch.setattr(ranges, "PER_RANGE", 1)  # a sample of 1 game in 3 for (3, 2)
    for range_hands, sample in ((10**6, 10**6), (1, 10**6), (3, 2)):
        monkeypatch.setattr(archive, "RANGE_HANDS", range_hands)
        monkeypatch.setattr(ranges, "SAMPLE_ROWS", sample)
        root = tmp_path / f"ranges-{range_hands}-{sample}"
        ingest([str(logs[0])], root)
        replay_archive(root)
        first = _replay_bytes(root)
        ingest([str(logs[1])], root)
        assert replay_archive(root).replayed == 24
        outputs.append((first, _replay_bytes(root)))
    assert outputs[0] == outputs[1] == outputs[2]
    groups = [pq.ParquetFile(f).num_row_groups for f in DataDir(root).files("scores")]
    assert max(groups) > 2


def test_chunks_hold_each_game_once_with_exactly_the_files_of_its_versions(
    tmp_path, logs, monkeypatch
):
    """chunks() puts every stale game in one chunk, in the order of (first ingest version,
    game_id), with the files of exactly the versions its chunk's hands are in; a game
    ingested in two commits brings both. Scanning the hands files one at a time, or
    locating the stale games a few at a time (merged back in order), gives the same
    chunks."""
    lines = logs[0].read_bytes().splitlines(keepends=True)
    early, late = tmp_path / "early.jsonl", tmp_path / "late.jsonl"
    early.write_bytes(b"".join(lines[:7]))  # the first game's first hands ...
    late.write_bytes(b"".join(lines[7:]))  # ... and its others, in a later commit
    root = tmp_path / "data"
    for path in (logs[1], early, late):  # versions not in game_id order
        ingest([str(path)], root)
    data = DataDir(root)
    versions: dict[str, set[str]] = {}  # by brute force: each file read whole
    for f in data.files("hands"):
        for game in pl.read_parquet(f)["game_id"].unique().to_list():
            versions.setdefault(game, set()).add(planning._version(f))
    assert max(map(len, versions.values())) == 2  # the split game
    everything = {n: data.files(n) for n in planning.HAND_TABLES}
    stale = sorted(versions)[:-1]  # one game is up to date
    files = []  # as plan() writes them: a file per bucket, each game once, sorted
    for b in sorted({planning.bucket_of(g) for g in stale}):
        games = [g for g in stale if planning.bucket_of(g) == b]
        if not files:
            games = sorted([*games, "no-such-game"])  # a game whose hands vanished
        files.append(tmp_path / f"stale-{b}.parquet")
        pl.DataFrame({"game_id": games}).write_parquet(files[-1])
    assert len(files) >= 3
    monkeypatch.setattr(planning, "CHUNK_GAMES", 2)
    results = []
    groups = {10**6: 1, 3: -(-(len(stale) + 1) // 3), 1: len(stale)}  # files of located games
    for locate_bytes, locate_games in ((2**30, 10**6), (1, 10**6), (2**30, 3), (2**30, 1)):
        monkeypatch.setattr(planning, "LOCATE_BYTES", locate_bytes)
        monkeypatch.setattr(planning, "LOCATE_GAMES", locate_games)
        folder = tmp_path / f"located-{locate_bytes}-{locate_games}"
        folder.mkdir()
        n, chunks = planning.chunks(data, files, folder)
        results.append((n, list(chunks)))
        assert len(list(folder.iterdir())) == groups[locate_games]
    assert results[0] == results[1] == results[2] == results[3]
    n, chunks = results[0]
    assert n == len(chunks) >= 2
    games = [g for chunk, _ in chunks for g in chunk]
    assert games == sorted(stale, key=lambda g: (min(versions[g]), g)) != sorted(stale)
    assert [len(chunk) for chunk, _ in chunks] == [2] * (len(stale) // 2) + [1] * (len(stale) % 2)
    for chunk, files_of in chunks:
        wanted = set().union(*(versions[g] for g in chunk))
        for name, fs in files_of.items():
            assert fs == [f for f in everything[name] if planning._version(f) in wanted]
            assert fs or name == "recorded_results"


def test_a_chunks_rows_cross_processes_unchanged(tmp_path, logs):
    """A worker sends its rows as Arrow IPC streams (Fresh.__reduce__): every table, empty
    ones too, arrives with the same schema (metadata included) and the same rows."""
    import pickle

    data = tmp_path / "d"
    ingest([str(logs[0])], data)
    folder = DataDir(data)
    games = sorted(folder.scan("hands").select("game_id").unique().collect()["game_id"])
    files = {n: [str(f) for f in folder.files(n)] for n in planning.HAND_TABLES}
    fresh = archive.replay_chunk(str(data), games, files, "")
    assert isinstance(fresh, archive.Fresh) and fresh
    back = pickle.loads(pickle.dumps(fresh))
    assert isinstance(back, archive.Fresh)
    assert back.keys() == fresh.keys()
    empty = 0
    for b, tables in fresh.items():
        assert back[b].keys() == tables.keys()
        for name, table in tables.items():
            assert back[b][name].schema.equals(table.schema, check_metadata=True)
            assert back[b][name].equals(table)
            empty += table.num_rows == 0
    assert sum(t["hand_results"].num_rows for t in back.values()) == 40
    assert empty  # an empty table (no findings in some bucket) makes the trip as well
