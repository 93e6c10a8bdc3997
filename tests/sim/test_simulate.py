"""The simulator's promises: canonical legal records, determinism, plausible tables."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest
from mjaudit.parts.replay.engine.findings import SERIOUS
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import labels_path, simulate, write_simulation
from mjaudit.parts.schemas.records import canonical_json, parse_record


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    outs = []
    for run in ("a", "b"):
        files = []
        for ruleset, games in (("hk-classic", 2), ("hk-mahjongo", 2), ("hk-mahjongo-2p", 3)):
            path = tmp_path / f"{run}-{ruleset}.jsonl"
            write_simulation(path, ruleset, games, seed=7, players=9, violations=0.3)
            files.append(path.read_bytes() + b"|" + labels_path(path).read_bytes())
        outs.append(files)
    assert outs[0] == outs[1]
    other = tmp_path / "other.jsonl"
    write_simulation(other, "hk-classic", 2, seed=8, players=9, violations=0.3)
    assert other.read_bytes() != outs[0][0].split(b"|")[0]


def test_written_records_are_canonical(tmp_path: Path) -> None:
    path = tmp_path / "sim.jsonl"
    summary = write_simulation(path, "hk-mahjongo", 1, seed=3, violations=0.5)
    assert summary.labels_path == tmp_path / "sim.labels.jsonl"
    lines = path.read_bytes().splitlines()
    assert len(lines) == summary.hands >= 16
    for line in lines:
        parsed = parse_record(line)
        assert canonical_json(parsed.record) == line
    labels = labels_path(path).read_bytes().splitlines()
    assert len(labels) == summary.labels


@pytest.mark.parametrize("ruleset", ["hk-classic", "hk-mahjongo", "hk-mahjongo-2p"])
def test_clean_sittings_replay_clean(ruleset: str) -> None:
    records = []
    for rec, labels in simulate(ruleset, 2, seed=11):
        assert labels == []
        records.append(rec)
    reports = list(replay_games(records))
    assert len(reports) == len(records)
    for rep in reports:
        serious = [f for f in rep.findings if f.cls in SERIOUS]
        assert not serious, (rep.game_id, rep.hand_no, serious)
        assert rep.matches_recorded is True


def test_club_and_schedule() -> None:
    records = [rec for rec, _ in simulate("hk-classic", 6, seed=5, players=7)]
    names = {p for r in records for p in r["players"]}
    assert len(names) <= 7 and len(names) >= 5
    starts = [r["started_at"] for r in records]
    assert all(s.endswith(("+07:00", "+08:00")) for s in starts)
    months = {s[:7] for s in starts}
    assert len(months) >= 2
    assert all(r["venue"] and r["table"] for r in records)
    assert all(len(r["wall"]) == 144 and len(r["start_hands"]) == 4 for r in records)
    flowers = sum(1 for r in records for e in r["events"] if e["type"] == "flower")
    assert flowers > len(records)  # every hand has about 8 bonus tiles to expose


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="no simulator"):
        next(simulate("hk-sheet", 1))  # results-only score sheets: nothing to play
    with pytest.raises(ValueError):
        next(simulate("hk-classic", 1, violations=1.5))
    with pytest.raises(ValueError, match="at least 4"):
        next(simulate("hk-classic", 1, players=3))
    assert labels_path("x/out.jsonl") == Path("x/out.labels.jsonl")
    assert labels_path("out.json") == Path("out.json.labels.jsonl")


# -- realism over the shared planted simulation (conftest) -------------------------------


def _clean(planted):  # type: ignore[no-untyped-def]
    planted_hands = {(lab["game_id"], lab["hand_no"]) for lab in planted.labels}
    return [r for r in planted.records if (r["game_id"], r["hand_no"]) not in planted_hands]


def test_win_and_draw_rates(planted) -> None:  # type: ignore[no-untyped-def]
    by_rs: dict[str, Counter[str]] = defaultdict(Counter)
    fans: dict[str, Counter[int]] = defaultdict(Counter)
    for r in _clean(planted):
        end = r["events"][-1]["type"]
        by_rs[r["ruleset"]][end] += 1
        if end == "win":
            fans[r["ruleset"]][r["result"]["fan"]] += 1
    total = sum(sum(c.values()) for c in by_rs.values())
    draws = sum(c["exhaustive_draw"] for c in by_rs.values())
    assert 0.01 <= draws / total <= 0.35, by_rs
    for ruleset, ends in by_rs.items():
        n = sum(ends.values())
        assert ends["exhaustive_draw"] / n <= 0.35, (ruleset, ends)
        assert ends["win"] / n >= 0.6, (ruleset, ends)
        assert len(fans[ruleset]) >= 3, (ruleset, fans[ruleset])
    assert min(fans["hk-mahjongo"]) >= 3  # nobody wins below the minimum in a clean hand
    assert fans["hk-classic"][0] > 0  # chicken hands happen at a 0-fan table


def test_rotation_and_rounds(planted) -> None:  # type: ignore[no-untyped-def]
    rotation = {"DEALER_ROTATION_MISMATCH", "PREVAILING_WIND_MISMATCH", "PREVIOUS_HAND_MISSING"}
    for rep in planted.reports:
        assert not [f for f in rep.findings if f.code in rotation], (rep.game_id, rep.hand_no)
    games: dict[str, list[dict]] = defaultdict(list)
    for r in planted.records:
        games[r["game_id"]].append(r)
    for hands in games.values():
        hands.sort(key=lambda r: r["hand_no"])
        assert [r["hand_no"] for r in hands] == list(range(1, len(hands) + 1))
        winds = [r["prevailing_wind"] for r in hands]
        assert winds[0] == "E" and winds[-1] == "N"
        assert winds == sorted(winds, key="ESWN".index)
        n = len(hands[0]["players"])
        assert len(hands) >= 4 * n
        # the last hand ends the North round: the dealership passes back to the first dealer
        last = hands[-1]
        dealer_won = last["dealer"] in last["result"].get("winners", [])
        assert last["events"][-1]["type"] == "win" and not dealer_won
        assert (last["dealer"] + 1) % n == hands[0]["dealer"]


def test_parallel_simulation_writes_the_same_bytes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mjaudit.parts.replay.sim import write_simulation

    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    write_simulation(one, "hk-classic", 3, seed=9, violations=0.2)
    write_simulation(two, "hk-classic", 3, seed=9, violations=0.2, workers=2)
    assert one.read_bytes() == two.read_bytes()
    assert (tmp_path / "one.labels.jsonl").read_bytes() == (
        tmp_path / "two.labels.jsonl"
    ).read_bytes()
