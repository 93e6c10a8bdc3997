"""Every simulator plays from its state's legal actions: each event a bot makes in a clean
hand (a draw, a discard, a call, a kong, a flower and its replacement, a win, the
exhaustive draw; the american Charleston, chắn's eat, chíu and khai) is one the state lists
for that seat at that moment (:meth:`MahjongHand.legal_actions`,
:meth:`AmericanHand.legal_actions`, :meth:`ChanHand.legal_events`), the driver having
taken it from that list; and until the hand ends some seat has a legal action, after it
none has. (That the simulated sittings stay byte for byte what they were is
``tests/golden``'s ``test_simulator_still_writes_the_stored_log``.)"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.american.tiles import kind
from mjaudit.parts.replay.rulesets.hk.hand import HKHand
from mjaudit.parts.replay.rulesets.hk.options import options_for
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.replay.sim.american_play import AmericanHandSim
from mjaudit.parts.replay.sim.chan_play import ChanHandSim
from mjaudit.parts.replay.sim.core import SimulationError
from mjaudit.parts.replay.sim.hk_play import HKHandSim
from mjaudit.parts.replay.sim.mahjong_play import MahjongHandSim

# a sitting per example: too slow for a deadline, and to shrink
SITTING = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
MAHJONG = ("hk-classic", "hk-mahjongo", "hk-mahjongo-2p", "vn-160")
# what the driver adds to a listed event: a draw's or replacement's tile (the wall's), the
# value a winner claims
LISTED_WITHOUT = {"draw": ("tile",), "replacement": ("tile",), "win": ("claim",)}


def checked_sitting(
    cls: Any,
    ruleset: str,
    seed: int,
    fits: Callable[[dict[str, Any], dict[str, Any]], bool],
    seats: int,
) -> tuple[int, list[str]]:
    """Simulate a clean sitting with ``cls``'s emit watched: before each event of a clean
    hand, the acting seat's legal list (every seat's for an event of the table) must
    hold it (``fits(event, listed)``); after it, some seat must have a legal action
    unless the hand has ended, and none once it has. (events checked, what went wrong)."""
    checked = 0
    wrong: list[str] = []
    real = cls.emit

    def emit(sim: Any, ev: dict[str, Any]) -> int:
        nonlocal checked
        if sim.plant is not None:
            return real(sim, ev)
        actors = [ev["seat"]] if "seat" in ev else range(seats)
        listed = [a for s in actors for a in sim.legal(s)]
        checked += 1
        if not any(fits(ev, a) for a in listed):
            wrong.append(f"event {len(sim.events)}: {ev} not in {listed[:8]}")
        i = real(sim, ev)
        after = [a for s in range(seats) for a in sim.legal(s)]
        if sim.hand.phase == "ended" and after:
            wrong.append(f"after event {i} ({ev['type']}) the ended hand lists {after[:4]}")
        if sim.hand.phase != "ended" and not after:
            wrong.append(f"after event {i} {ev}: the hand is live and no seat may act")
        return i

    mp = pytest.MonkeyPatch()
    mp.setattr(cls, "emit", emit)
    try:
        for _ in simulate(ruleset, games=1, seed=seed, violations=0.0):
            pass
    finally:
        mp.undo()
    return checked, wrong


def mahjong_fits(ev: dict[str, Any], action: dict[str, Any]) -> bool:
    """``ev`` is the listed ``action``, with what the driver adds."""
    made = {k: v for k, v in ev.items() if k not in LISTED_WITHOUT.get(ev["type"], ())}
    return made == action


@settings(SITTING, max_examples=8)
@given(ruleset=st.sampled_from(MAHJONG), seed=st.integers(0, 2**31))
def test_every_action_a_mahjong_bot_makes_is_among_the_states_legal_actions(
    ruleset: str, seed: int
) -> None:
    seats = 2 if ruleset.endswith("-2p") else 4
    checked, wrong = checked_sitting(MahjongHandSim, ruleset, seed, mahjong_fits, seats)
    assert checked > 0
    assert wrong == []


def _hand(events: list[dict[str, Any]]) -> HKHand:
    record = next(r for r, _ in simulate("hk-classic", games=1, seed=3))
    record = {**record, "events": []}
    hand = HKHand(record, options_for("hk-classic", {}))
    hand.start()
    for i, ev in enumerate(events):
        record["events"].append(ev)
        hand.step(i, ev)
    return hand


def test_only_the_dealer_acts_first_and_may_discard_what_it_holds() -> None:
    record = next(r for r, _ in simulate("hk-classic", games=1, seed=3))
    dealer, events = record["dealer"], record["events"]
    hand = _hand([])
    assert [hand.legal_actions(s) for s in range(4) if s != dealer] == [[], [], []]
    first = {
        k: v for k, v in events[0].items() if not (events[0]["type"] == "draw" and k == "tile")
    }
    assert first in hand.legal_actions(dealer)
    k = next(i for i, ev in enumerate(events) if ev["type"] == "discard")
    hand = _hand(events[:k])  # the dealer holds its 14: it may discard any kind it holds
    held = {hand.CODES[t] for t in range(34) if hand.concealed[dealer][t]}
    acts = hand.legal_actions(dealer)
    assert {a["tile"] for a in acts if a["type"] == "discard"} == held
    assert {"type": "discard", "seat": dealer, "tile": events[k]["tile"]} in acts


def test_after_a_discard_the_next_seat_may_draw_or_call_and_the_discarder_may_not() -> None:
    record = next(r for r, _ in simulate("hk-classic", games=1, seed=3))
    events = record["events"]
    k = next(i for i, ev in enumerate(events) if ev["type"] == "discard")
    hand = _hand(events[: k + 1])
    discarder, t = events[k]["seat"], hand.TILE_INDEX[events[k]["tile"]]
    nxt = (discarder + 1) % 4
    assert {"type": "draw", "seat": nxt} in hand.legal_actions(nxt)
    assert hand.legal_actions(discarder) == []
    for seat in range(4):
        calls = [a for a in hand.legal_actions(seat) if a["type"] in ("pung", "kong", "chow")]
        held = hand.concealed[seat][t]
        assert any(a["type"] == "pung" for a in calls) == (seat != discarder and held >= 2)
        assert any(a["type"] == "kong" for a in calls) == (seat != discarder and held >= 3)
        assert all(a["type"] != "chow" for a in calls) or seat == nxt


# the american Charleston's listed actions are templates: what the passer chooses is its own
TEMPLATE = ("choose", "blind_allowed", "asked")


def american_fits(ev: dict[str, Any], action: dict[str, Any]) -> bool:
    """``ev`` is the listed ``action`` (its template keys aside; ``with`` as a multiset
    of kinds: the flowers are one kind)."""
    if action["type"] != ev["type"]:
        return False
    for k, v in action.items():
        if k in TEMPLATE:
            continue
        if k == "with":
            if sorted(map(kind, v)) != sorted(map(kind, ev.get(k) or ())):
                return False
        elif ev.get(k) != v:
            return False
    return True


def chan_fits(ev: dict[str, Any], action: dict[str, Any]) -> bool:
    """``ev`` is the listed ``action``, with the cước the winner claims."""
    return {k: v for k, v in ev.items() if k != "claim"} == action


OTHERS = {"american": (AmericanHandSim, american_fits), "chan": (ChanHandSim, chan_fits)}


@pytest.mark.parametrize("ruleset", sorted(OTHERS))
@settings(SITTING, max_examples=3)
@given(seed=st.integers(0, 2**31))
def test_every_action_an_american_or_chan_bot_makes_is_among_the_states_legal_actions(
    ruleset: str, seed: int
) -> None:
    cls, fits = OTHERS[ruleset]
    checked, wrong = checked_sitting(cls, ruleset, seed, fits, 4)
    assert checked > 0
    assert wrong == []


def test_a_clean_driver_that_leaves_the_legal_list_is_a_simulator_bug() -> None:
    """take() refuses what the state does not list in a clean hand (the check that keeps
    the drivers on the list)."""
    record = next(r for r, _ in simulate("hk-classic", games=1, seed=3))
    record = {**record, "events": []}
    wall = [HKHand.TILE_INDEX[c] for c in record["wall"]]
    sim = HKHandSim(record, wall, options_for("hk-classic", {}), [], random.Random(0), None)
    sim.hand.start()
    other = (record["dealer"] + 1) % 4
    with pytest.raises(SimulationError, match="does not list"):
        sim.take(other, {"type": "draw"}, tile=record["wall"][0])
    assert sim.events == []
