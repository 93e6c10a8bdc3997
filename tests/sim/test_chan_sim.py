"""The chắn (``chan``) simulator: deterministic, clean when nothing is planted, and every
planted violation found by the replayer at the labelled event, with no false alarm.

The accuracy sample is 1,077 hands (60 sittings) with a break planted in half of them
(543 hands, 640 labels). Measured on the 2-core reference machine: about 10 s of CPU to
simulate and 1 s to replay; 17-30 s wall clock while other jobs load the machine (a
figure: bench/accuracy.py prints it; no test asserts a time).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mjaudit.parts.replay.engine.findings import SERIOUS, HandReport
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.sim import chan_play, labels_path, simulate, write_simulation
from mjaudit.parts.replay.sim.accuracy import Accuracy, score
from typer.testing import CliRunner

SEED = 20261130
SITTINGS = 60
RATE = 0.5


@dataclass
class Planted:
    records: list[dict[str, Any]]
    labels: list[dict[str, Any]]
    reports: list[HandReport]


def _run(games: int, seed: int, rate: float) -> Planted:
    records: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    for rec, labs in simulate("chan", games, seed=seed, violations=rate):
        records.append(rec)
        labels.extend(labs)
    return Planted(records, labels, list(replay_games(records)))


@pytest.fixture(scope="module")
def planted() -> Planted:
    return _run(SITTINGS, SEED, RATE)


def _describe(acc: Accuracy) -> str:
    lines = [f"missed {len(acc.missed)} of {acc.labels} labels"]
    lines += [str(m) for m in acc.missed[:10]]
    lines += [
        f"unplanted {k}: {f.code} @{f.event_index} {f.message}"
        for k, f in acc.serious_in_unplanted[:10]
    ]
    lines += [
        f"unlabelled {k}: {f.code} @{f.event_index} {f.message}"
        for k, f in acc.unlabelled_serious[:10]
    ]
    return "\n".join(lines)


# -- determinism -------------------------------------------------------------------------


def test_same_seed_same_bytes_also_with_two_workers(tmp_path: Path) -> None:
    outs = []
    for run, workers in (("a", 1), ("b", 1), ("c", 2)):
        path = tmp_path / f"{run}.jsonl"
        write_simulation(path, "chan", 4, seed=7, players=9, violations=0.4, workers=workers)
        outs.append(path.read_bytes() + b"|" + labels_path(path).read_bytes())
    assert outs[0] == outs[1] == outs[2]
    other = tmp_path / "other.jsonl"
    write_simulation(other, "chan", 4, seed=8, players=9, violations=0.4)
    assert other.read_bytes() != outs[0].split(b"|")[0]


# -- clean play --------------------------------------------------------------------------


def test_clean_sittings_replay_clean() -> None:
    records = []
    for rec, labels in simulate("chan", 4, seed=11):
        assert labels == []
        records.append(rec)
    reports = list(replay_games(records))
    assert len(reports) == len(records) >= 40
    for rep in reports:
        serious = [f for f in rep.findings if f.cls in SERIOUS]
        assert not serious, (rep.game_id, rep.hand_no, serious)
        assert rep.matches_recorded is True
    ends = Counter(r["events"][-1]["type"] for r in records)
    assert ends["win"] > ends["exhaustive_draw"] > 0  # most hands are won, some run dry
    kinds = Counter(e["type"] for r in records for e in r["events"])
    assert kinds["eat"] > len(records) and kinds["chiu"] >= 1 and kinds["pass"] > 0
    declared = Counter(
        c if isinstance(c, str) else c["id"]
        for r in records
        for e in r["events"]
        if e["type"] == "win"
        for c in e["claim"]["cuoc"]
    )
    assert declared["bach_thu"] and declared["chi"] and declared["thong"]  # xướng from win_check


def test_deal_and_cai_follow_the_rules() -> None:
    """§3.1: dealer 20, others 19, nọc 23, all 100 cards; the cái card counted from the giver,
    the giver the previous winner (else the next player); previous_hand says so."""
    records = [rec for rec, _ in simulate("chan", 3, seed=5, players=6)]
    deck = Counter(chan_play.DECK)
    for rec in records:
        hands, dealer, cai = rec["start_hands"], rec["dealer"], rec["cai"]
        assert [len(h) for h in hands] == [20 if s == dealer else 19 for s in range(4)]
        assert len(rec["wall"]) == 23
        assert Counter(c for h in hands for c in h) + Counter(rec["wall"]) == deck
        assert cai["tile"] in hands[dealer]
        k = 1 if cai["tile"] == "CC" else int(cai["tile"][0])
        assert dealer == (cai["giver"] + k - 1) % 4
        assert rec["venue"] and rec["table"] and rec["started_at"].endswith("+07:00")
    for prev, rec in itertools.pairwise(records):
        if prev["game_id"] != rec["game_id"]:
            assert "previous_hand" not in rec
            continue
        ph = rec["previous_hand"]
        assert ph["giver"] == prev["cai"]["giver"]
        wins = [e for e in prev["events"] if e["type"] == "win"]
        assert ph["winner"] == (wins[0]["seat"] if wins else None)
        expected = ph["winner"] if ph["winner"] is not None else (ph["giver"] + 1) % 4
        assert rec["cai"]["giver"] == expected


# -- accuracy ----------------------------------------------------------------------------


def test_enough_planted_hands(planted: Planted) -> None:
    assert len(planted.records) >= 1000
    assert len({(lab["game_id"], lab["hand_no"]) for lab in planted.labels}) >= 400
    assert any(r.get("options", {}).get("mode_4_11") for r in planted.records)


def test_recall_is_total(planted: Planted) -> None:
    acc = score(planted.reports, planted.labels)
    assert acc.labels >= 400
    assert acc.recall == 1.0, _describe(acc)


def test_precision_is_total(planted: Planted) -> None:
    acc = score(planted.reports, planted.labels)
    assert not acc.serious_in_unplanted, _describe(acc)
    assert acc.precision == 1.0
    assert not acc.unlabelled_serious, _describe(acc)  # stricter: nothing unintended
    assert acc.strict_precision == 1.0


def test_every_kind_of_break_is_planted(planted: Planted) -> None:
    codes = Counter(lab["code"] for lab in planted.labels)
    common = set(chan_play.TARGETS.values()) - {
        # rarer scenarios: checked with their own plants below
        "U_CHI_RONG",
        "BO_U",
        "TREO_TRANH_KHONG_CHIU",
        "CHIU_QUAN_CHET",
        "TREO_TRANH_CHIU_KHONG_HA_DU",
        "U_4_11_THIEU_DIEM",
    }
    missing = sorted(c for c in common if not codes[c])
    assert not missing, (missing, codes)
    assert {lab["class"] for lab in planted.labels} == {"PLAYER_VIOLATION", "SCORE_MISMATCH"}


def test_labels_stay_out_of_the_log(planted: Planted) -> None:
    allowed = {"type", "seat", "tile", "from", "with", "to", "via", "claim", "placement"}
    allowed |= {"what", "accused", "code", "tiles"}
    for rec in planted.records[:300]:
        assert "labels" not in rec and "violation" not in rec
        assert all(set(ev) <= allowed for ev in rec["events"])


@pytest.mark.parametrize(
    "kind",
    ["u_chi_rong", "bo_u", "treo_tranh_khong_chiu", "chiu_quan_chet", "u_4_11"],
)
def test_rare_plants_are_found(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand gets this plant (Ù 4-11 sittings for u_4_11); all labels are found."""
    real = chan_play.make_plant

    def only(rng: random.Random, rate: float, mode_4_11: bool, hand_no: int):  # type: ignore[no-untyped-def]
        p = real(rng, rate, mode_4_11, hand_no)
        if p is not None:
            p.kind, p.earliest, p.chance = kind, 0, 1.0
        return p

    monkeypatch.setattr(chan_play, "make_plant", only)
    if kind == "u_4_11":
        monkeypatch.setattr(chan_play, "SHARE_4_11", 1.0)
    run = _run(3, SEED + len(kind), 1.0)
    acc = score(run.reports, run.labels)
    assert acc.recall == 1.0 and acc.precision == 1.0, _describe(acc)
    assert not acc.unlabelled_serious, _describe(acc)
    assert any(lab["code"] == chan_play.TARGETS[kind] for lab in run.labels)


# -- the demo ----------------------------------------------------------------------------


def test_demo_runs_end_to_end(tmp_path: Path) -> None:
    from mjaudit.cli import app

    data = tmp_path / "demo"
    result = CliRunner().invoke(
        app, ["demo", "--ruleset", "chan", "--games", "3", "--no-dashboard", "--data", str(data)]
    )
    assert result.exit_code == 0, result.output
    assert "replayed" in result.output
    assert (data / "catalog.duckdb").exists()
