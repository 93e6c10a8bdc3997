"""Properties of the replayer over generated legal hands.

* Tiles are conserved: after every event, concealed tiles + declared melds + bonus tiles +
  unclaimed discards + the undrawn wall are exactly the ruleset's tile set.
* Replay is deterministic: the same record gives the same report (and the same JSON).
* A legal hand with one event removed or duplicated never replays clean.

Legal hands come from ``bench/synthlog.py`` (hk-mahjongo, draw/discard to the end of the
wall) and from :func:`legal_hand` below, which also makes flowers, pungs, chows, exposed,
concealed and added kongs with their replacements from the tail of the wall.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logbuilder import FULL_SETS, HARD, canonical, serious
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.schemas.tiles import BONUS_TILES, MAHJONG
from test_checklist_hk_classic import baseline as classic_baseline
from test_checklist_hk_mahjongo import baseline as mahjongo_baseline

from bench import synthlog

CODES = MAHJONG.codes
RESERVED = {"hk-classic": 14, "hk-mahjongo": 0}
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legal_hand(seed: int, ruleset: str) -> dict[str, Any]:
    """A random legal hand ending in an exhaustive draw, with its wall.

    Players draw and discard at random; a player holding two (three) copies of a discard
    sometimes pungs (kongs) it, the next player sometimes chows it, and on one's own turn a
    player sometimes declares a concealed or added kong. Bonus tiles are exposed and replaced.
    """
    rng = random.Random(seed)
    wall = list(FULL_SETS[ruleset].elements())
    rng.shuffle(wall)
    dealer = rng.randrange(4)
    order = [(dealer + k) % 4 for k in range(4)]
    hands: list[Counter[str]] = [Counter() for _ in range(4)]
    start: list[list[str]] = [[] for _ in range(4)]
    pos = 0
    for size in (4, 4, 4, 1):
        for s in order:
            start[s] += wall[pos : pos + size]
            pos += size
    for s in range(4):
        hands[s].update(start[s])
    pungs: list[set[str]] = [set() for _ in range(4)]
    events: list[dict[str, Any]] = []
    st_ = {"head": pos, "tail": 0, "live": len(wall) - pos - RESERVED[ruleset]}

    def take(kind: str, seat: int) -> str | None:
        """Draw (or replace) for ``seat``; expose bonus tiles; None when the wall ran out."""
        while True:
            if st_["live"] == 0:
                return None
            if kind == "draw":
                t = wall[st_["head"]]
                st_["head"] += 1
            else:
                t = wall[len(wall) - 1 - st_["tail"]]
                st_["tail"] += 1
            st_["live"] -= 1
            events.append({"type": kind, "seat": seat, "tile": t})
            if t not in BONUS_TILES:
                hands[seat][t] += 1
                return t
            events.append({"type": "flower", "seat": seat, "tile": t})
            kind = "replacement"

    def own_kongs(seat: int) -> bool:
        """Concealed / added kongs with replacements; False when the wall ran out."""
        while st_["live"] > 0 and rng.random() < 0.6:
            four = [t for t, k in hands[seat].items() if k == 4]
            added = [t for t in pungs[seat] if hands[seat][t] >= 1]
            if four:
                t = four[0]
                hands[seat][t] -= 4
                events.append({"type": "concealed_kong", "seat": seat, "tile": t})
            elif added:
                t = added[0]
                hands[seat][t] -= 1
                pungs[seat].discard(t)
                events.append({"type": "added_kong", "seat": seat, "tile": t})
            else:
                return True
            if take("replacement", seat) is None:
                return False
        return True

    def discard(seat: int) -> str:
        held = sorted(hands[seat].elements())
        if rng.random() < 0.8:  # mostly keep pairs and triples, so melds and kongs happen
            fewest = min(hands[seat][x] for x in held)
            held = [x for x in held if hands[seat][x] == fewest]
        t = rng.choice(held)
        hands[seat][t] -= 1
        events.append({"type": "discard", "seat": seat, "tile": t})
        return t

    # initial phase: every player exposes and replaces bonus tiles
    for s in order:
        for t in sorted(t for t in hands[s].elements() if t in BONUS_TILES):
            hands[s][t] -= 1
            events.append({"type": "flower", "seat": s, "tile": t})
            take("replacement", s)
    seat = dealer
    must_draw = True
    while True:
        if must_draw and (take("draw", seat) is None or not own_kongs(seat)):
            break  # the wall ran out
        t = discard(seat)
        nxt = (seat + 1) % 4
        if st_["live"] == 0:
            seat, must_draw = nxt, True
            continue
        claimers = [s for s in range(4) if s != seat and hands[s][t] >= 2]
        run = next(
            (
                r
                for r in ((-2, -1), (-1, 1), (1, 2))
                if t[-1] in "mps"
                and all(1 <= int(t[0]) + d <= 9 for d in r)
                and all(hands[nxt][f"{int(t[0]) + d}{t[1]}"] for d in r)
            ),
            None,
        )
        if claimers and rng.random() < 0.5:
            c = rng.choice(claimers)
            kong = hands[c][t] == 3 and rng.random() < 0.7
            hands[c][t] -= 3 if kong else 2
            events.append({"type": "kong" if kong else "pung", "seat": c, "from": seat, "tile": t})
            if kong:
                if take("replacement", c) is None or not own_kongs(c):
                    break
            else:
                pungs[c].add(t)
            seat, must_draw = c, False
            continue
        if run is not None and rng.random() < 0.35:
            shown = [f"{int(t[0]) + d}{t[1]}" for d in run]
            for x in shown:
                hands[nxt][x] -= 1
            tiles = sorted([*shown, t], key=lambda x: int(x[0]))
            events.append({"type": "chow", "seat": nxt, "from": seat, "tile": t, "tiles": tiles})
            seat, must_draw = nxt, False  # a chow or pung claimer discards next
            continue
        seat, must_draw = nxt, True
    events.append({"type": "exhaustive_draw"})
    return canonical(
        {
            "format": "mjlog/1",
            "game_id": f"prop-{seed}",
            "hand_no": 1,
            "ruleset": ruleset,
            "players": ["ann", "bob", "cat", "dan"],
            "dealer": dealer,
            "prevailing_wind": "E",
            "wall": wall,
            "start_hands": start,
            "events": events,
            "result": {"winners": [], "deltas": [0, 0, 0, 0]},
        }
    )


def synth(seed: int) -> dict[str, Any]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rec = synthlog.hand(random.Random(seed), f"synth-{seed}", 1, ["a", "b", "c", "d"], start)
    return canonical(rec)


seeds = st.integers(min_value=0, max_value=2**32 - 1)
rulesets = st.sampled_from(["hk-classic", "hk-mahjongo"])


@pytest.mark.parametrize("ruleset", ["hk-classic", "hk-mahjongo"])
def test_generator_makes_rich_legal_hands(ruleset: str) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(12):
        rec = legal_hand(seed, ruleset)
        r = replay_hand(rec)
        assert serious(r) == [], (seed, serious(r))
        assert r.ended_by == "exhaustive_draw"
        kinds.update(e["type"] for e in rec["events"])
    for kind in ("pung", "chow", "kong", "concealed_kong", "replacement"):
        assert kinds[kind] > 0, kinds
    if ruleset == "hk-classic":
        assert kinds["flower"] > 0


def check_conservation(rec: dict[str, Any]) -> None:
    wall, events = rec["wall"], rec["events"]
    full = Counter(wall)
    head = sum(len(h) for h in rec["start_hands"])
    state = {"head": head, "tail": 0}
    out: Counter[str] = Counter()  # discards still on the table

    def observe(i: int, hand: Any) -> None:
        ev = events[i]
        kind = ev["type"]
        if kind == "draw":
            state["head"] += 1
        elif kind == "replacement":
            state["tail"] += 1
        elif kind == "discard":
            out[ev["tile"]] += 1
        elif kind in ("pung", "chow", "kong"):
            out[ev["tile"]] -= 1
        in_play: Counter[str] = Counter()
        for s in range(4):
            for t, k in enumerate(hand.concealed[s]):
                in_play[CODES[t]] += k
            for m in hand.melds[s]:
                in_play.update(CODES[t] for t in m.tiles)
            in_play.update(CODES[t] for t in hand.flowers[s])
        rest = Counter(wall[state["head"] : len(wall) - state["tail"]])
        total = in_play + out + rest
        assert total == full, (i, ev, (total - full), (full - total))

    r = replay_hand(rec, observer=observe)
    assert serious(r) == []


@FAST
@given(seeds, rulesets)
def test_tiles_are_conserved(seed: int, ruleset: str) -> None:
    check_conservation(legal_hand(seed, ruleset))


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_tiles_are_conserved_synthlog(seed: int) -> None:
    check_conservation(synth(seed))


def _report_bytes(rec: dict[str, Any]) -> bytes:
    return msgspec.json.encode(replay_hand(rec).to_json())


@FAST
@given(seeds, rulesets)
def test_replay_is_deterministic(seed: int, ruleset: str) -> None:
    rec = legal_hand(seed, ruleset)
    a, b = replay_hand(rec), replay_hand(rec)
    assert a == b
    assert a.to_json() == b.to_json()
    assert _report_bytes(rec) == _report_bytes(canonical(rec))
    # the input is not mutated by a replay
    assert canonical(rec) == rec


def _mutated(rec: dict[str, Any], index: int, op: str) -> dict[str, Any]:
    events = list(rec["events"])
    if op == "remove":
        del events[index]
    else:
        events.insert(index, dict(events[index]))
    return {**rec, "events": events}


@FAST
@given(
    seeds,
    rulesets,
    st.floats(min_value=0, max_value=1, exclude_max=True),
    st.sampled_from(["remove", "duplicate"]),
)
def test_one_event_removed_or_duplicated_is_never_clean(
    seed: int, ruleset: str, where: float, op: str
) -> None:
    rec = legal_hand(seed, ruleset)
    index = int(where * len(rec["events"]))
    r = replay_hand(_mutated(rec, index, op))
    assert serious(r) != [], (op, index, rec["events"][index])


@pytest.mark.parametrize(
    "make", [classic_baseline, mahjongo_baseline], ids=["hk-classic", "hk-mahjongo"]
)
@pytest.mark.parametrize("op", ["remove", "duplicate"])
def test_every_event_of_the_baselines_removed_or_duplicated(make: Any, op: str) -> None:
    rec = make().record(wall=True)
    assert serious(replay_hand(rec)) == []
    for index in range(len(rec["events"])):
        r = replay_hand(_mutated(rec, index, op))
        assert serious(r) != [], (op, index, rec["events"][index])
        # a hard error leaves the hand unsettled
        if any(f.cls is HARD for f in r.findings):
            assert r.deltas is None
