"""The mahjong simulators (Hong Kong, vn-160) play from the engine's legal actions: every
draw, discard, kong and call a bot makes in a clean hand is one the hand state lists
(:meth:`MahjongHand.legal_actions`) at that moment, and the driver takes its kongs and
calls from that list. The american and chắn drivers still build their events themselves;
what their bots make is checked against their states' own lists (``legal_actions``,
``legal_events``) all the same, but for chắn's ``khai``, which ``legal_events`` does not
list (a gap of the chắn state, not taken up here). (That the simulated sittings stay byte for byte what they were is
``tests/golden``'s ``test_simulator_still_writes_the_stored_log``.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.rulesets.hk.hand import HKHand
from mjaudit.parts.replay.rulesets.hk.options import options_for
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.replay.sim.american_play import AmericanHandSim
from mjaudit.parts.replay.sim.chan_play import ChanHandSim
from mjaudit.parts.replay.sim.mahjong_play import MahjongHandSim

MAHJONG = ("hk-classic", "hk-mahjongo", "hk-mahjongo-2p", "vn-160")
# the events the shared table lists; a win (vn-160: on a discard) and flowers are the
# ruleset's, and replacement draws follow a kong or a flower by rule
LISTED = {"draw", "discard", "concealed_kong", "added_kong", "pung", "kong", "chow"}
DRIVER_ADDS = {"draw": ("tile",), "win": ("claim",)}


def checked_sitting(
    cls: Any, ruleset: str, seed: int, legal: Callable[[Any, dict[str, Any]], list[Any] | None]
) -> tuple[int, list[str]]:
    """Simulate a clean sitting with ``cls``'s emit watched: ``legal(sim, ev)`` gives what
    ``ev`` must be among (None: not checked) and whether it is; (events checked, wrong)."""
    checked = 0
    wrong: list[str] = []
    real = cls.emit

    def emit(sim: Any, ev: dict[str, Any]) -> int:
        nonlocal checked
        if sim.plant is None:
            found = legal(sim, ev)
            if found is not None:
                checked += 1
                if found:
                    wrong.append(f"event {len(sim.events)}: {ev} not in {found[1:]}")
        return real(sim, ev)

    mp = pytest.MonkeyPatch()
    mp.setattr(cls, "emit", emit)
    try:
        for _ in simulate(ruleset, games=1, seed=seed, violations=0.0):
            pass
    finally:
        mp.undo()
    return checked, wrong


def played(ruleset: str, seed: int) -> tuple[int, list[str]]:
    """A clean mahjong sitting; (events checked, those not among the legal actions)."""

    def legal(sim: MahjongHandSim, ev: dict[str, Any]) -> list[Any] | None:
        kinds = LISTED | ({"win"} if ruleset == "vn-160" and "from" in ev else set())
        if ev["type"] not in kinds:
            return None
        listed = sim.hand.legal_actions(ev["seat"])
        # a draw is listed without its tile (the wall's next), a win without the value
        # the winner claims
        made = {k: v for k, v in ev.items() if k not in DRIVER_ADDS.get(ev["type"], ())}
        return [] if made in listed else ["wrong", *listed]

    return checked_sitting(MahjongHandSim, ruleset, seed, legal)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a sitting is too slow to shrink
)
@given(ruleset=st.sampled_from(MAHJONG), seed=st.integers(0, 2**31))
def test_every_action_a_bot_makes_is_among_the_states_legal_actions(
    ruleset: str, seed: int
) -> None:
    checked, wrong = played(ruleset, seed)
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


def _fits(ev: dict[str, Any], action: dict[str, Any]) -> bool:
    """``ev`` is the listed ``action`` (its template keys aside; ``with`` as a multiset)."""
    if action["type"] != ev["type"]:
        return False
    for k, v in action.items():
        if k in TEMPLATE:
            continue
        if k == "with" and sorted(v) == sorted(ev.get(k) or ()):
            continue
        if ev.get(k) != v:
            return False
    return True


OTHERS = {
    "american": (AmericanHandSim, "legal_actions", ()),
    "chan": (ChanHandSim, "legal_events", ("khai",)),
}


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(ruleset=st.sampled_from(sorted(OTHERS)), seed=st.integers(0, 2**31))
def test_the_american_and_chan_bots_make_only_listed_actions(ruleset: str, seed: int) -> None:
    cls, method, unlisted = OTHERS[ruleset]

    def legal(sim: Any, ev: dict[str, Any]) -> list[Any] | None:
        if "seat" not in ev or ev["type"] in unlisted:
            return None
        listed = getattr(sim.hand, method)(ev["seat"])
        return [] if any(_fits(ev, a) for a in listed) else ["wrong", *listed[:6]]

    checked, wrong = checked_sitting(cls, ruleset, seed, legal)
    assert checked > 0
    assert wrong == []
