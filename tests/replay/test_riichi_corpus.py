"""Real riichi logs replay clean (issue 23): every hand of the shipped corpus
(tests/data/README.md: the mjx project's Tenhou logs, mjai-reviewer's tenhou.net/6 files,
RiichiEnv's MJAI game) replays with no CORRUPT_LOG, no violation, and every score delta
the log recorded equal to the computed one; the edge cases the files are named after
(double ron, chankan, Pao, nine gates, abortive draws, four kans) are among them."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from mjaudit.parts.ingest.riichi_logs import ImportedRecord, read, sniff
from mjaudit.parts.replay.engine.findings import FindingClass, HandReport
from mjaudit.parts.replay.rulesets.riichi.replayer import replay_riichi

CORPUS = Path(__file__).resolve().parents[1] / "data" / "riichi"
SOURCES = ("mjx", "mjai-reviewer", "riichienv")


@cache
def corpus() -> tuple[tuple[str, dict, HandReport], ...]:  # type: ignore[type-arg]
    out = []
    for source in SOURCES:
        for path in sorted((CORPUS / source).iterdir()):
            fmt = sniff(path)
            assert fmt is not None, path
            previous = None
            for item in read(path, fmt):
                assert isinstance(item, ImportedRecord), item
                rep = replay_riichi(item.record, None, previous)
                previous = rep
                out.append((f"{source}/{path.name}#{rep.hand_no}", item.record, rep))
    return tuple(out)


def test_the_corpus_is_the_one_documented() -> None:
    by_source = Counter(name.split("/")[0] for name, _, _ in corpus())
    files = {s: len(list((CORPUS / s).iterdir())) for s in SOURCES}
    assert files == {"mjx": 65, "mjai-reviewer": 18, "riichienv": 1}
    assert by_source == {"mjx": 602, "mjai-reviewer": 21, "riichienv": 12}


def test_every_corpus_hand_replays_clean_and_matches_what_the_log_recorded() -> None:
    bad = []
    for name, rec, rep in corpus():
        serious = [f for f in rep.findings if f.cls is not FindingClass.INFO]
        if serious or rep.matches_recorded is not True:
            bad.append((name, [(f.code, f.message) for f in serious]))
        else:
            assert list(rep.deltas or ()) == rec["result"]["deltas"], name
    assert bad == []


def _hands(file: str) -> list[tuple[dict, HandReport]]:  # type: ignore[type-arg]
    return [(rec, rep) for name, rec, rep in corpus() if name.split("#")[0].endswith("/" + file)]


def test_double_ron_is_settled_as_recorded() -> None:
    doubles = [rep for _, rep in _hands("double-ron.mjlog") if len(rep.winners) == 2]
    assert doubles and all(rep.matches_recorded for rep in doubles)
    assert any(len(rep.winners) == 2 for _, rep in _hands("double_ron.json"))


def test_chankan_is_settled_as_recorded() -> None:
    hands = [
        rep
        for rec, rep in _hands("encdec-chankan-ippatsu.mjlog") + _hands("chankan.json")
        if any(e.get("robbed_kong") for e in rec["events"])
    ]
    assert len(hands) >= 2
    assert all("chankan" in dict(rep.patterns) for rep in hands)


@pytest.mark.parametrize("file", ["pao-tsumo.mjlog", "encdec-pao-false-pos.mjlog"])
def test_pao_is_settled_as_recorded(file: str) -> None:
    hands = _hands(file)
    assert hands and all(rep.matches_recorded for _, rep in hands)
    recorded = [w for rec, _ in hands for w in rec["result"].get("wins", ()) if "pao" in w]
    computed = [rep.liable for _, rep in hands if rep.liable is not None]
    assert len(recorded) == len(computed)


def test_nine_gates_file_scores_the_flush_the_log_recorded() -> None:
    """mjx's nine-gates case: the hand the log scores as a flush (chinitsu), not the
    yakuman, and the scorer agrees."""
    wins = [rep for _, rep in _hands("encdec-nine-gates.mjlog") if rep.winners]
    assert wins and all(rep.matches_recorded for rep in wins)
    assert any("chinitsu" in dict(rep.patterns) for rep in wins)
    assert not any("chuuren_poutou" in dict(rep.patterns) for rep in wins)


def test_abortive_draws_and_exhaustive_draw_payments() -> None:
    reasons = Counter(rep.extras.get("abortive") for _, _, rep in corpus())
    assert {"nine_terminals", "four_riichi", "four_kans", "four_winds", "triple_ron"} <= set(
        reasons
    )
    draws = [rep for _, _, rep in corpus() if rep.ended_by == "exhaustive_draw"]
    assert any(0 < len(rep.extras["tenpai"]) < 4 for rep in draws)
    nagashi = [rep for rep in draws if rep.extras.get("nagashi")]
    assert nagashi and all(rep.matches_recorded for rep in nagashi)


def test_counters_follow_from_hand_to_hand() -> None:
    """Every hand after the first of a game starts with the honba, sticks and scores the
    one before left (no COUNTERS_MISMATCH anywhere above); one altered honba is found."""
    hands = _hands("double-ron.mjlog")
    first, second = hands[0], hands[1]
    rec = dict(second[0], honba=second[0]["honba"] + 1)
    rep = replay_riichi(rec, None, first[1])
    assert "COUNTERS_MISMATCH" in {f.code for f in rep.findings}
    assert "COUNTERS_MISMATCH" not in {f.code for f in second[1].findings}


def test_a_log_that_stops_mid_hand_is_corrupt() -> None:
    path = CORPUS / "truncated" / "obs-draw-tsumo.mjlog"
    reps = [replay_riichi(i.record) for i in read(path, "tenhou-xml")]  # type: ignore[union-attr]
    assert "HAND_END_INVALID" in {f.code for f in reps[-1].findings}
