"""The live state of a hand (service/stepper.py) raises at every post what the whole
replay of the record so far raises there: every ruleset, simulated sittings with planted
violations, posts of one to a few events, an impossible event, a tile the deal refuses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.engine import registry
from mjaudit.parts.replay.engine.findings import HandReport
from mjaudit.parts.replay.engine.run import replay_games, replay_hand
from mjaudit.parts.replay.sim import rulesets as simulated
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.schemas.rulesets import RULESET_IDS
from mjaudit.parts.service.session import Raised, raised
from mjaudit.parts.service.stepper import Stepper, _dealt

from tests.service.riichi_game import real_game

PLAYABLE = [r for r in RULESET_IDS if (rs := registry.get(r)) is not None and rs.position]
HANDS = 4


def _sitting(ruleset: str) -> list[tuple[dict[str, Any], HandReport | None]]:
    """The first hands of a sitting, each with the report of the hand before it: simulated
    with planted violations, or a real game's for a ruleset with no simulator (riichi)."""
    if ruleset in simulated():
        records = [r for r, _ in simulate(ruleset, games=1, seed=5, violations=0.7)][:HANDS]
    else:
        records = real_game(ruleset)[:HANDS]
    reports = list(replay_games(records))
    return [(r, reports[k - 1] if k else None) for k, r in enumerate(records)]


SITTINGS: dict[str, list[tuple[dict[str, Any], HandReport | None]]] = {}


def sitting(ruleset: str) -> list[tuple[dict[str, Any], HandReport | None]]:
    if ruleset not in SITTINGS:
        SITTINGS[ruleset] = _sitting(ruleset)
    return SITTINGS[ruleset]


def play_both(
    record: dict[str, Any], previous: HandReport | None, sizes: list[int]
) -> tuple[int, int]:
    """Post ``record``'s events in batches of ``sizes`` (cycled); at every post the live
    state and the whole replay must agree. Returns (posts stepped live, posts)."""
    header = {k: v for k, v in record.items() if k not in ("events", "result")}
    events = record["events"]
    accepted: list[dict[str, Any]] = []
    live: Stepper | None = None
    stepped = posts = 0
    k = 0
    while len(accepted) < len(events):
        batch = events[len(accepted) : len(accepted) + sizes[k % len(sizes)]]
        k += 1
        want = raised({**header, "events": [*accepted, *batch]}, previous, len(accepted))
        if live is not None and not live.deal_holds(batch):
            live = None
        elif live is None:
            live = Stepper.begin(header, accepted, batch, previous)
        posts += 1
        if live is not None:
            got: Raised = live.step(batch)
            assert got == want, f"hand {record['hand_no']}, post at event {len(accepted)}"
            stepped += 1
        accepted.extend(batch[: len(want.at)])
        if want.closed is not None:
            break
    return stepped, posts


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_the_live_state_raises_what_the_whole_replay_raises(ruleset: str) -> None:
    stepped = posts = 0
    for record, previous in sitting(ruleset):
        s, p = play_both(record, previous, [1, 2, 1, 3])
        stepped, posts = stepped + s, posts + p
    assert stepped == posts  # every post of these sittings was stepped live


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(PLAYABLE),
    hand=st.integers(0, HANDS - 1),
    sizes=st.lists(st.integers(1, 5), min_size=1, max_size=6),
)
def test_any_batching_gives_the_same_findings(ruleset: str, hand: int, sizes: list[int]) -> None:
    record, previous = sitting(ruleset)[hand]
    play_both(record, previous, sizes)


def _hk_hand(ruleset: str) -> dict[str, Any]:
    return next(r for r, _ in simulate(ruleset, games=1, seed=3) if len(r["events"]) > 20)


def test_an_impossible_event_closes_the_hand_as_the_replay_does() -> None:
    record = _hk_hand("hk-classic")
    events = record["events"]
    held = {t for ev in events[:12] for t in [ev.get("tile")] if t}
    other = next(t for t in ("1m", "2m", "3m", "E", "C") if t not in held)
    bad = {"type": "discard", "seat": events[11].get("seat", 0), "tile": other}
    broken = {**record, "events": [*events[:12], bad, *events[12:]]}
    stepped, posts = play_both(broken, None, [1])
    assert stepped == posts == 13  # the hand closed at the impossible event


def test_a_tile_the_deal_refuses_is_judged_by_the_whole_replay() -> None:
    """hk-mahjongo has no flowers: the deal's tile-code check (which reads every event)
    refuses one, so the live state may not step it."""
    record = _hk_hand("hk-mahjongo")
    header = {k: v for k, v in record.items() if k not in ("events", "result")}
    live = Stepper.begin(header, [], record["events"][:5], None)
    assert live is not None
    live.step(record["events"][:5])
    assert not live.deal_holds([{"type": "flower", "seat": 0, "tile": "f1"}])
    assert live.deal_holds(record["events"][5:6])


BAD_CODE = {"type": "discard", "seat": 0, "tile": "not-a-tile"}


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_an_event_the_state_admits_leaves_a_deal_made_again_as_it_was(ruleset: str) -> None:
    """``deal_admits`` spares the live service a deal per post: wherever it says an event
    leaves the deal as it was, a deal made again with the event raises what it raised."""
    admitted = 0
    for record, previous in sitting(ruleset):
        header = {k: v for k, v in record.items() if k not in ("events", "result")}
        events = record["events"]
        live = Stepper.begin(header, [], events[:1], previous)
        assert live is not None
        for i, ev in enumerate([*events[1:], BAD_CODE], 1):
            if not live.hand.deal_admits(i, ev):
                continue
            admitted += ev is not BAD_CODE
            fresh = _dealt(live.rules, {**header, "events": [*events[:i], ev]}, previous)
            assert fresh is not None and tuple(fresh.findings) == live.deal, f"event {i}"
    assert admitted > 0  # the real events are admitted: the shortcut is taken


@pytest.mark.parametrize("ruleset", PLAYABLE)
def test_the_live_state_settles_the_hand_as_the_whole_replay_does(ruleset: str) -> None:
    """``end`` settles from the live state (Stepper.finish): the report, recorded result
    compared or not, equals the replay of the whole record, with and without a result."""
    settled = 0
    for record, previous in sitting(ruleset):
        header = {k: v for k, v in record.items() if k not in ("events", "result")}
        events = record["events"]
        for result in (record.get("result"), None):
            live = Stepper.begin(header, [], events, previous)
            assert live is not None
            if live.step(events).closed is not None:
                continue  # a closed hand is settled by the whole replay
            whole = {**header, "events": events}
            if result is not None:
                whole["result"] = result
            got = live.finish(result)
            assert got == replay_hand(whole, previous=previous), f"hand {record['hand_no']}"
            settled += 1
    assert settled > 0
