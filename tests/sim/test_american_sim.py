"""The American simulator against the American engine (american.md; sample card of §6).

Bots play whole sittings through ``AmericanHand`` (one definition of legal); the tests
check what the brief asks of any simulator: the same seed gives the same bytes (also with
two worker processes), East passes right every hand (§2.5), a clean hand replays with no
serious finding and its recorded result is the engine's, and about 1,000 hands with planted
violations are audited with 100% recall and 100% precision (``replay.sim.accuracy``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from mjaudit.parts.replay.engine.findings import SERIOUS, HandReport
from mjaudit.parts.replay.engine.run import replay_games
from mjaudit.parts.replay.rulesets.american.card import sample_card
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape
from mjaudit.parts.replay.rulesets.american.options import options_for
from mjaudit.parts.replay.rulesets.american.tiles import counts, kind
from mjaudit.parts.replay.sim import REGISTRY, SimulationError, simulate, write_simulation
from mjaudit.parts.replay.sim import american_play as ap
from mjaudit.parts.replay.sim.accuracy import score
from mjaudit.parts.replay.sim.american_bot import AmericanBot, CardModel, Style
from typer.testing import CliRunner

SEED = 20261130
GAMES = 63  # 16 hands a sitting: 1,008 hands
RATE = 0.25
CLEAN_GAMES = 6


@dataclass
class Run:
    records: list[dict[str, Any]]
    labels: list[dict[str, Any]]
    reports: list[HandReport]


def _run(games: int, seed: int, rate: float) -> Run:
    records: list[dict[str, Any]] = []
    labels: list[dict[str, Any]] = []
    for rec, labs in simulate("american", games, seed=seed, violations=rate):
        records.append(rec)
        labels.extend(labs)
    return Run(records, labels, list(replay_games(records)))


@pytest.fixture(scope="module")
def clean() -> Run:
    return _run(CLEAN_GAMES, SEED + 1, 0.0)


@pytest.fixture(scope="module")
def planted() -> Run:
    return _run(GAMES, SEED, RATE)


def _describe(acc) -> str:  # type: ignore[no-untyped-def]
    lines = [f"missed {len(acc.missed)} of {acc.labels} labels"]
    lines += [str(m) for m in acc.missed[:10]]
    lines += [f"unplanted {k}: {f.code} @{f.event_index} {f.message}"
              for k, f in acc.serious_in_unplanted[:10]]  # fmt: skip
    lines += [f"unlabelled {k}: {f.code} @{f.event_index} {f.message}"
              for k, f in acc.unlabelled_serious[:10]]  # fmt: skip
    return "\n".join(lines)


# -- determinism -----------------------------------------------------------------------------


def test_same_seed_same_bytes_also_with_two_workers(tmp_path: Path) -> None:
    outs = []
    for name, workers in (("a", 1), ("b", 1), ("c", 2)):
        s = write_simulation(tmp_path / f"{name}.jsonl", "american", 3, 11, 12, 0.4, workers)
        outs.append((s.path.read_bytes(), s.labels_path.read_bytes()))
        assert s.hands == 48 and s.labels > 0
    assert outs[0] == outs[1] == outs[2]
    other = write_simulation(tmp_path / "d.jsonl", "american", 3, 12, 12, 0.4)
    assert other.path.read_bytes() != outs[0][0]


# -- sittings (§2.5) -------------------------------------------------------------------------


def test_east_passes_right_every_hand(clean: Run) -> None:
    games: dict[str, list[dict[str, Any]]] = {}
    for rec in clean.records:
        games.setdefault(rec["game_id"], []).append(rec)
    assert len(games) == CLEAN_GAMES
    venues = {v.name: v for v in REGISTRY["american"].venues}
    for hands in games.values():
        hands.sort(key=lambda r: r["hand_no"])
        assert [r["hand_no"] for r in hands] == list(range(1, ap.HANDS_PER_SITTING + 1))
        first = hands[0]["dealer"]
        assert [r["dealer"] for r in hands] == [(first + k) % 4 for k in range(len(hands))]
        starts = [datetime.fromisoformat(r["started_at"]) for r in hands]
        assert starts == sorted(starts) and len(set(starts)) == len(starts)
        assert len({(r["venue"], r["table"], tuple(r["players"])) for r in hands}) == 1
        assert hands[0]["table"] in venues[hands[0]["venue"]].tables
        assert all(r["options"] == {"card": "sample-original-1"} for r in hands)


# -- clean play --------------------------------------------------------------------------------


def test_clean_hands_replay_with_no_serious_finding(clean: Run) -> None:
    assert clean.labels == []
    for rep in clean.reports:
        serious = [f for f in rep.findings if f.cls in SERIOUS]
        assert not serious, (rep.game_id, rep.hand_no, serious)
        assert rep.matches_recorded is True, (rep.game_id, rep.hand_no)
        assert rep.ended_by in ("win", "exhaustive_draw")


def test_every_win_is_a_card_hand_and_settled_by_7_2(clean: Run) -> None:
    wins = [r for r in clean.reports if r.winners]
    assert len(wins) >= len(clean.reports) // 3
    assert len({r.extras["hand"] for r in wins}) >= 3
    for rep in wins:
        v = rep.fan
        assert v is not None and rep.deltas is not None
        w = rep.winners[0]
        assert rep.deltas[w] == (6 * v if rep.self_drawn else 4 * v)
    assert any(r.self_drawn for r in wins) and any(not r.self_drawn for r in wins)
    assert any(r.ended_by == "exhaustive_draw" for r in clean.reports)


def test_bots_play_the_whole_charleston_calls_and_joker_exchanges(clean: Run) -> None:
    seen: Counter[str] = Counter()
    for rec in clean.records:
        ev = rec["events"]
        passes = [e["pass"] for e in ev if e["type"] == "charleston_pass"]
        assert passes[:12] == [1] * 4 + [2] * 4 + [3] * 4
        seen["second charleston"] += 4 in passes
        seen["stop"] += any(e["type"] == "charleston_stop" for e in ev)
        seen["courtesy"] += any(e["type"] == "courtesy_pass" for e in ev)
        seen["blind"] += any(
            e["type"] == "charleston_pass" and any(isinstance(t, dict) for t in e["tiles"])
            for e in ev
        )
        seen["jokers in an exposure"] += any("J" in (e.get("with") or ()) for e in ev)
        seen["joker exchange"] += any(e["type"] == "joker_exchange" for e in ev)
        for t in ("pung", "kong", "quint"):
            seen[t] += any(e["type"] == t for e in ev)
        for e in ev:  # never a joker in a clean pass
            if e["type"] in ("charleston_pass", "courtesy_pass"):
                assert "J" not in [t["tile"] if isinstance(t, dict) else t for t in e["tiles"]]
    for what in ("second charleston", "stop", "courtesy", "blind", "jokers in an exposure",
                 "joker exchange", "pung", "kong", "quint"):  # fmt: skip
        assert seen[what] >= 1, (what, seen)


def test_a_clean_hand_with_a_finding_stops_the_simulator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The simulator's own check: a rule break nobody planted is a simulator bug."""

    def courtesy_with_the_wrong_partner(self: ap.AmericanHandSim) -> None:
        a = self.dealer
        for s, other in ((a, (a + 1) % 4), ((a + 1) % 4, a)):
            self.emit(
                {"type": "courtesy_pass", "seat": s, "partner": other, "asked": 1,
                 "tiles": self.give_away(s, 1)}
            )  # fmt: skip

    monkeypatch.setattr(ap.AmericanHandSim, "courtesy", courtesy_with_the_wrong_partner)
    with pytest.raises(SimulationError, match="CHARLESTON_BAD_PASS"):
        list(simulate("american", 1, seed=3))


# -- the bot's choices -------------------------------------------------------------------------


def _kinds(codes: str) -> list[int]:
    return counts(codes.split())


def test_bot_targets_the_nearest_card_hand_and_discards_what_it_needs_least() -> None:
    """A2's winner one tile before Mahjong, holding a stray 2p: LIKE-1 with x = 7 is the
    target, one tile (the N) missing; the 2p is the tile to throw."""
    card = sample_card()
    model = CardModel.of(card)
    exposures = [ExposureShape(kind("7m"), 3), ExposureShape(kind("7p"), 4)]
    bot = AmericanBot(Style(), random.Random(1))
    concealed = _kinds("7s 7s 7s 7s J N 2p")
    a = bot.assess(model, concealed, exposures)
    assert a is not None
    assert model.owner[a.target].id == "LIKE-1" and a.distance == 1
    assert bot.least_useful(model, a, concealed, 1) == [kind("2p")]
    # a pair is never called for an exposure, nor a tile the target has no group for
    assert bot.call_size(model, a, concealed, exposures, kind("N")) is None
    assert bot.call_size(model, a, concealed, exposures, kind("2p")) is None


def test_bot_calls_for_its_targets_free_group_with_a_joker() -> None:
    """Close to ODD-1 (xxxx yyyy(A) zzz(B) FFF): a 5m discard, with one 5m and a joker in
    hand, is called for the free 5m pung group."""
    card = sample_card()
    model = CardModel.of(card)
    bot = AmericanBot(Style(claim=1.0), random.Random(1))
    concealed = _kinds("3s 3s 3s 9s 9s 9s 9s 5m J f1 f2 f3 2p")
    a = bot.assess(model, concealed, [])
    assert a is not None and model.owner[a.target].id == "ODD-1"
    assert bot.call_size(model, a, concealed, [], kind("5m")) == 3
    assert bot.call_size(model, a, concealed, [], kind("7p")) is None


def test_east_declares_an_initial_mahjong_before_the_charleston() -> None:
    """§3: East's 14 dealt tiles are WIND-2 (A5's tiles plus the S): East declares at once;
    settled as self-drawn, 2V from each (V = 80, jokerless)."""
    east = ["N", "N", "N", "C", "C", "C", "S", "S", "S", "F", "F", "F", "f2", "g3"]
    rest = list((Counter(ap.TILES) - Counter(east)).elements())
    random.Random(7).shuffle(rest)
    # East (seat 0) takes wall positions 0-3, 16-19, 32-35 and 48-49 (§2.4)
    spots = [*range(0, 4), *range(16, 20), *range(32, 36), 48, 49]
    wall: list[str] = []
    it_e, it_r = iter(east), iter(rest)
    for pos in range(152):
        wall.append(next(it_e) if pos in spots else next(it_r))
    record = {
        "format": "mjlog/1", "game_id": "initial", "hand_no": 1, "ruleset": "american",
        "players": ["A", "B", "C", "D"], "dealer": 0, "options": {"card": sample_card().card_id},
        "wall": wall, "start_hands": ap.deal(wall, 0), "events": [],
    }  # fmt: skip
    bots = [AmericanBot(Style(), random.Random(s)) for s in range(4)]
    hs = ap.AmericanHandSim(
        record, options_for(record["options"]), sample_card(), bots, random.Random(1), None
    )
    hs.run()
    assert [e["type"] for e in record["events"]] == ["win"]
    assert ap.result_of(hs) == {
        "winners": [0], "deltas": [480, -160, -160, -160], "fan": 80, "patterns": ["WIND-2"],
    }  # fmt: skip


# -- planted violations: the accuracy test -----------------------------------------------------


def test_enough_planted_hands(planted: Run) -> None:
    assert len(planted.records) >= 1000
    planted_hands = {(lab["game_id"], lab["hand_no"]) for lab in planted.labels}
    assert len(planted_hands) >= 150


def test_recall_is_total(planted: Run) -> None:
    acc = score(planted.reports, planted.labels)
    assert acc.recall == 1.0, _describe(acc)


def test_no_serious_finding_in_unplanted_hands(planted: Run) -> None:
    acc = score(planted.reports, planted.labels)
    assert not acc.serious_in_unplanted, _describe(acc)
    assert acc.precision == 1.0


def test_every_serious_finding_is_labelled(planted: Run) -> None:
    acc = score(planted.reports, planted.labels)
    assert not acc.unlabelled_serious, _describe(acc)
    assert acc.strict_precision == 1.0


def test_labels_name_the_engines_seat_and_class(planted: Run) -> None:
    """Beyond the scorer (code and event index): the seat and class are the engine's too."""
    reports = {(r.game_id, r.hand_no): r for r in planted.reports}
    for lab in planted.labels:
        rep = reports[(lab["game_id"], lab["hand_no"])]
        (f,) = [f for f in rep.findings
                if f.event_index == lab["event_index"] and f.code == lab["code"]]  # fmt: skip
        assert (f.seat, f.cls.value) == (lab["seat"], lab["class"]), lab


def test_every_plantable_code_of_the_checklist_is_planted(planted: Run) -> None:
    """§9.2 PLAYER_VIOLATION codes and RESULT_MISMATCH. Not planted: CONCEALED_HAND_CALL
    (on the sample card every exposure a concealed hand could use is DEAD_BY_EXPOSURE
    first, and a dead hand's Mahjong stops at ACTION_BY_DEAD_HAND)."""
    codes = Counter(lab["code"] for lab in planted.labels)
    for code in (
        "JOKER_PASSED", "CHARLESTON_BAD_PASS", "SECOND_CHARLESTON_AFTER_STOP", "OUT_OF_TURN",
        "WRONG_TILE_COUNT", "LATE_CALL", "CALL_DISCARDED_JOKER", "ILLEGAL_EXPOSURE",
        "CALL_FOR_SINGLE_OR_PAIR", "CALL_PRIORITY", "DEAD_BY_EXPOSURE", "BAD_JOKER_EXCHANGE",
        "MAHJONG_IN_ERROR", "ACTION_BY_DEAD_HAND", "CALL_DEAD_INCORRECT", "RESULT_MISMATCH",
    ):  # fmt: skip
        assert codes[code] >= 1, (code, codes)
    classes = {lab["class"] for lab in planted.labels}
    assert classes == {"PLAYER_VIOLATION", "SCORE_MISMATCH"}
    kinds = {lab["violation"].split(" (")[0] for lab in planted.labels}
    assert kinds == set(ap.MENU)


def test_labels_stay_out_of_the_log(planted: Run) -> None:
    for rec in planted.records:
        assert "labels" not in rec and "violation" not in rec
        assert all("violation" not in ev and "note" not in ev for ev in rec["events"])


# -- the demo ----------------------------------------------------------------------------------


def test_demo_runs_an_american_club(tmp_path: Path) -> None:
    from mjaudit.cli import app

    data = tmp_path / "demo"
    result = CliRunner().invoke(
        app, ["demo", "--ruleset", "american", "--games", "3", "--no-dashboard", "--data",
              str(data)]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "48 hands added" in result.output
    assert (data / "logs" / "american-3-sittings-seed1.labels.jsonl").exists()
