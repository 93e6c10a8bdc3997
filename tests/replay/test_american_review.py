"""Independent review of the american engine against rules/american.md (one test per deviation
found, named after the rule), plus an independent brute-force matcher on a second card.

The brute force below does not use the engine's token parser or binding compiler: it parses
the §5.2 tokens itself, resolves them to log codes, and searches assignments of the 14 tiles
(exposures into groups of their size and identity, jokers only in groups of 3+, §5.3).
"""

from __future__ import annotations

import itertools
import operator
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from american_builder import AmHand, E, N, S, W, tiles
from hypothesis import given, settings
from hypothesis import strategies as st
from mjaudit.parts.replay.engine.findings import FindingClass
from mjaudit.parts.replay.rulesets.american.card import CardInvalid, card_from_obj
from mjaudit.parts.replay.rulesets.american.matcher import ExposureShape, best_match, match_all
from mjaudit.parts.replay.rulesets.american.tiles import counts, kind

VIOL = FindingClass.PLAYER_VIOLATION


def codes(r: Any) -> list[str]:
    return [f.code for f in r.findings]


# --- §5.3/§5.5 on a second card (offsets, literal/variable collisions, 0 and D.B, C only) ----

REVIEW_CARD: dict[str, Any] = {
    "format": "mj-card/1",
    "card_id": "review-1",
    "hands": [
        {  # {x-1} pair, {x} pung, {x+1}(B) kong, zero and D.B (both P when B = dots), FFF
            "id": "OFF-1",
            "concealed": False,
            "value": 30,
            "vars": {"x": {"min": 2, "max": 8}},
            "groups": [
                {"t": "{x-1}.A", "n": 2},
                {"t": "{x}.A", "n": 3},
                {"t": "{x+1}.B", "n": 4},
                {"t": "0", "n": 1},
                {"t": "D.B", "n": 1},
                {"t": "F", "n": 3},
            ],
        },
        {  # a literal single that may be the same tile as a variable kong
            "id": "LIT-1",
            "concealed": False,
            "value": 25,
            "vars": {"x": {"min": 1, "max": 9}, "y": {"in": [2, 4, 6, 8]}},
            "constraints": [["y", ">", "x"]],
            "groups": [
                {"t": "5.A", "n": 1},
                {"t": "{x}.A", "n": 4},
                {"t": "{y}.B", "n": 4},
                {"t": "D.C", "n": 3},
                {"t": "E", "n": 2},
            ],
        },
        {  # concealed, suit variables A and C only
            "id": "CON-1",
            "concealed": True,
            "value": 50,
            "vars": {"x": {"min": 4, "max": 9}},
            "groups": [
                {"t": "1.A", "n": 1},
                {"t": "3.C", "n": 1},
                {"t": "F", "n": 2},
                {"t": "N", "n": 3},
                {"t": "S", "n": 3},
                {"t": "{x}.A", "n": 4},
            ],
        },
        {  # two sextets, same number, two suits; no bonus by the card
            "id": "SIX-1",
            "concealed": False,
            "value": 40,
            "jokerless_bonus": False,
            "vars": {"x": {"min": 1, "max": 9}},
            "groups": [
                {"t": "{x}.A", "n": 6},
                {"t": "{x}.B", "n": 6},
                {"t": "W", "n": 2},
            ],
        },
    ],
}
CARD2 = card_from_obj(REVIEW_CARD)
RAW = {h["id"]: h for h in REVIEW_CARD["hands"]}
OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
       "==": operator.eq, "!=": operator.ne}  # fmt: skip
DRAGON = {"m": "C", "p": "P", "s": "F"}
TOKEN = re.compile(r"(?:([1-9])|\{([a-z])(?:([+-])([1-8]))?\})\.([ABC])\Z")


def _resolve(t: str, suits: dict[str, str], values: dict[str, int]) -> str | None:
    """A §5.2 token as a log code ("FL" for any flower), parsed here, not by the engine."""
    if t == "F":
        return "FL"
    if t == "0":
        return "P"
    if t in ("E", "S", "W", "N"):
        return t
    if t.startswith("D."):
        return DRAGON[suits[t[2]]]
    m = TOKEN.match(t)
    assert m, t
    digit, var, sign, off, sv = m.groups()
    n = int(digit) if digit else values[var] + (int(off) * (1 if sign == "+" else -1) if off else 0)
    return f"{n}{suits[sv]}" if 1 <= n <= 9 else None


def bindings(raw: dict[str, Any]) -> Iterator[list[tuple[str, int]]]:
    names = sorted(raw.get("vars", {}))
    doms = []
    for v in names:
        d = raw["vars"][v]
        doms.append(d["in"] if "in" in d else range(d["min"], d["max"] + 1))
    for vals in itertools.product(*doms):
        values = dict(zip(names, vals, strict=True))
        if not all(
            OPS[op](values.get(a, a), values.get(b, b)) for a, op, b in raw.get("constraints", [])
        ):
            continue
        for perm in itertools.permutations("mps"):
            suits = dict(zip("ABC", perm, strict=True))
            groups = [(_resolve(g["t"], suits, values), g["n"]) for g in raw["groups"]]
            if all(c is not None for c, _ in groups):
                yield groups  # type: ignore[misc]


def _splits(caps: list[int], jokers: int) -> Iterator[list[int]]:
    if not caps:
        if jokers == 0:
            yield []
        return
    for j in range(min(caps[0], jokers) + 1):
        for rest in _splits(caps[1:], jokers - j):
            yield [j, *rest]


def brute(raw: dict[str, Any], concealed: Counter[str], exposures: list[tuple[str, int]]) -> bool:
    """§5.3 rules 1-4 by exhaustive search; ``exposures`` as (identity code, size)."""
    if raw["concealed"] and exposures:
        return False
    if sum(concealed.values()) + sum(n for _, n in exposures) != 14:
        return False
    naturals = +Counter({c: k for c, k in concealed.items() if c != "J"})
    for groups in bindings(raw):
        for chosen in itertools.permutations(range(len(groups)), len(exposures)):
            if any(groups[g] != e for g, e in zip(chosen, exposures, strict=True)):
                continue
            rest = [groups[g] for g in range(len(groups)) if g not in chosen]
            for split in _splits([n if n >= 3 else 0 for _, n in rest], concealed["J"]):
                need: Counter[str] = Counter()
                for (c, n), j in zip(rest, split, strict=True):
                    need[c] += n - j
                if +need == naturals:
                    return True
    return False


ALL_CODES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + list("ESWNCFP") + ["FL", "J"]


@st.composite
def near(draw: st.DrawFn) -> tuple[Counter[str], list[tuple[str, int, int]]]:
    raw = draw(st.sampled_from(REVIEW_CARD["hands"]))
    groups = draw(st.sampled_from(list(bindings(raw))))
    concealed: Counter[str] = Counter()
    exposures: list[tuple[str, int, int]] = []
    for c, n in groups:
        j = draw(st.integers(0, n - 1)) if n >= 3 and draw(st.booleans()) else 0
        if n >= 3 and draw(st.integers(0, 3)) == 0:
            exposures.append((c, n, j))  # exposed even in a concealed hand: rule 4
            continue
        concealed[c] += n - j
        concealed["J"] += j
    for _ in range(draw(st.integers(0, 2))):
        present = sorted(t for t, k in concealed.items() if k > 0)
        if not present:
            break
        concealed[draw(st.sampled_from(present))] -= 1
        concealed[draw(st.sampled_from(ALL_CODES))] += 1
    return +concealed, exposures


@settings(max_examples=120, deadline=None)
@given(near())
def test_5_3_matcher_equals_independent_brute_force_on_a_second_card(
    case: tuple[Counter[str], list[tuple[str, int, int]]],
) -> None:
    concealed, exposures = case
    vec = counts(concealed.elements())
    shapes = [ExposureShape(kind(c), n, j) for c, n, j in exposures]
    got = {m.hand.id for m in match_all(CARD2, vec, shapes)}
    want = {
        hid for hid, raw in RAW.items() if brute(raw, concealed, [(c, n) for c, n, _ in exposures])
    }
    assert got == want, (sorted(concealed.elements()), exposures)
    best = best_match(CARD2, vec, shapes)
    if not want:
        assert best is None
        return
    jokerless = concealed["J"] == 0 and all(j == 0 for _, _, j in exposures)
    ranked = []
    for i, raw in enumerate(REVIEW_CARD["hands"]):
        if raw["id"] in want:
            eligible = raw.get("jokerless_bonus", "auto") == "auto" and any(
                g["n"] >= 3 for g in raw["groups"]
            )
            ranked.append((raw["value"] * (2 if jokerless and eligible else 1), -i, raw["id"]))
    assert best is not None and (best.final, best.hand.id) == (max(ranked)[0], max(ranked)[2])


def test_5_3_zero_and_white_dragon_share_the_P_tiles() -> None:
    """OFF-1 with B = dots needs two natural P (zero and D.B): one P and a joker is no match."""
    hand = tiles("2m 2m 3m 3m 3m 4p 4p 4p 4p P P f1 f2 f3")
    assert [m.hand.id for m in match_all(CARD2, counts(hand))] == ["OFF-1"]
    hand[hand.index("P")] = "J"
    assert match_all(CARD2, counts(hand)) == []


# --- §4.2 / §8.2: a call whose ``with`` is empty is a call for a single ------------------------


def test_8_2_CALL_FOR_SINGLE_OR_PAIR_with_empty_with() -> None:
    """``pung ... with=[]`` shows no hand tile: a call for a single (V, dead hand), not a
    pung of two invented naturals (the engine used to read [] as "two copies of the tile"
    and then stopped on TILE_NOT_IN_HAND)."""
    b = AmHand().hand(W, "5m").discard(E, "5m").call("pung", W, E, "5m", "")
    r = b.replay()
    found = [f for f in r.findings if f.code == "CALL_FOR_SINGLE_OR_PAIR"]
    assert [(f.seat, f.event_index, f.cls) for f in found] == [(W, 1, VIOL)]
    assert not r.corrupt
    b.discard(W)
    assert "ACTION_BY_DEAD_HAND" in codes(b.replay())


# --- §3: the courtesy pass after a first Charleston that nobody continued ----------------------


def test_3_courtesy_pass_after_pass_3_without_a_recorded_stop() -> None:
    """The second Charleston is optional (by_agreement): play may start after pass 3 without a
    recorded stop, and so may the courtesy pass. It used to be CHARLESTON_BAD_PASS."""
    b = AmHand().first_charleston().courtesy_pass(E, W, 2).courtesy_pass(W, E, 2).discard(E)
    r = b.replay()
    assert [f for f in r.findings if f.cls in (VIOL, FindingClass.CORRUPT_LOG)] == []


def test_3_courtesy_pass_after_pass_3_with_second_charleston_always() -> None:
    """``second_charleston = always``: passes 4-6 must come before the courtesy pass."""
    b = AmHand().first_charleston().courtesy_pass(E, W, 2).courtesy_pass(W, E, 2).discard(E)
    r = b.replay({"second_charleston": "always"})
    assert "CHARLESTON_BAD_PASS" in codes(r)


def test_3_second_charleston_after_the_courtesy_pass_is_out_of_order() -> None:
    """Pass 7 (courtesy) is last: a pass 4 after it is CHARLESTON_BAD_PASS (#10, in order)."""
    b = AmHand().first_charleston().courtesy_pass(E, W, 1).courtesy_pass(W, E, 1)
    b.second_charleston().discard(E)
    r = b.replay()
    bad = [f for f in r.findings if f.code == "CHARLESTON_BAD_PASS"]
    assert bad and all(f.cls is VIOL for f in bad)
    assert {f.event_index for f in bad} >= {14}  # the first pass-4 part


# --- §8.1 option dead_by_visible_tiles changes the verdict on a dead-hand call -----------------


def _s_needs_visible_tiles() -> AmHand:
    """S exposes 2m 2m J: on the sample card only RUN-1 (x=1, needs the pair 1m 1m) and LIKE-1
    (x=2, needs the pair N N) hold a 2m pung. Then all four N and three 1m are discarded."""
    b = AmHand().hand(S, "2m J").hand(W, "N N").hand(N, "N N").hand(E, "2m 1m 1m 1m")
    b.discard(E, "2m").pung(S, E, "2m", "2m J").discard(S)
    b.draw(W).discard(W, "N").draw(N).discard(N, "N").draw(E).discard(E, "1m")
    b.draw(S).discard(S).draw(W).discard(W, "N").draw(N).discard(N, "N")
    b.draw(E).discard(E, "1m").draw(S).discard(S).draw(W).discard(W)
    b.draw(N).discard(N).draw(E).discard(E, "1m")
    return b.announce_dead(W, S)


def test_8_1_dead_by_visible_tiles_option() -> None:
    b = _s_needs_visible_tiles()
    off = b.replay()
    assert "CALL_DEAD_INCORRECT" in codes(off) and off.extras["dead"] == {}
    on = b.replay({"dead_by_visible_tiles": True})
    assert "CALL_DEAD_INCORRECT" not in codes(on)
    assert on.extras["dead"] == {str(S): "DEAD_BY_VISIBLE_TILES"}
    b.draw(S)
    assert "ACTION_BY_DEAD_HAND" in codes(b.replay({"dead_by_visible_tiles": True}))


# --- §8.1 / #24 / #32: a dead hand's claim does not outrank a live caller ----------------------


def test_8_1_dead_hand_claim_does_not_take_priority() -> None:
    """E's hand died by LATE_CALL at #6. E's later announced Mahjong claim on N's 5m is an
    action by a dead hand (#32), and W's pung of that 5m is not a CALL_PRIORITY breach."""
    b = AmHand().hand(E, "6s J").hand(W, "5m 5m").discard(E).draw(S).discard(S)
    b.draw(W).discard(W, "6s").draw(N, "2p").pung(E, W, "6s", "6s J")  # E dead (LATE_CALL)
    b.discard(N, "5m").announce_claim(E, "win", "5m").pung(W, N, "5m", "5m 5m").discard(W)
    r = b.replay()
    assert "CALL_PRIORITY" not in codes(r)
    dead_claim = [f for f in r.findings if f.code == "ACTION_BY_DEAD_HAND"]
    assert [(f.seat, f.event_index) for f in dead_claim] == [(E, 8)]
    # the same claim by a live seat does outrank W (the clean counterpart of the check)
    b = AmHand().hand(W, "5m 5m").discard(E).draw(S).discard(S).draw(W).discard(W)
    b.draw(N).discard(N, "5m").announce_claim(E, "win", "5m").pung(W, N, "5m", "5m 5m")
    assert "CALL_PRIORITY" in codes(b.replay())


# --- #20 / §8.1: a late Mahjong call is LATE_CALL; MAHJONG_IN_ERROR only if T matches nothing --


def _late_mahjong(pair: str) -> AmHand:
    """A2's hand (W: 7m pung, 7p kong exposed; 7s7s7s7s J + ``pair``), claiming E's N after
    S drew (the window had closed)."""
    b = AmHand()
    b.hand(W, f"7m7m 7p7p7p 7s7s7s7s J {pair}")
    b.discard(E).draw(S).discard(S, "7m").pung(W, S, "7m", "7m 7m").discard(W)
    b.draw(N).discard(N, "7p").kong(W, N, "7p", "7p 7p 7p").discard(W)
    return b.draw(N).discard(N).draw(E).discard(E, "N").draw(S).win(W, "N", E)


def test_9_2_LATE_CALL_win_is_not_a_mahjong_in_error_when_T_matches() -> None:
    """With N the tiles are LIKE-1: the claim is late (dead hand), but "their tiles match no
    hand of the card" would be false. The engine used to add MAHJONG_IN_ERROR anyway."""
    r = _late_mahjong("N").replay()
    assert "LATE_CALL" in codes(r) and "MAHJONG_IN_ERROR" not in codes(r)
    assert r.extras["dead"] == {str(W): "LATE_CALL"} and r.winners == ()
    # with a pair that cannot be LIKE-1 (S, not N) the declaration is also a Mahjong in error
    r = _late_mahjong("S").replay()
    assert "LATE_CALL" in codes(r) and "MAHJONG_IN_ERROR" in codes(r)


# --- §5.4 rules the card tests did not reach --------------------------------------------------


def _one_hand(groups: list[tuple[str, int]], **extra: Any) -> dict[str, Any]:
    hand = {"id": "H", "concealed": False, "value": 25, **extra}
    hand["groups"] = [{"t": t, "n": n} for t, n in groups]
    return {"format": "mj-card/1", "card_id": "c", "hands": [hand]}


def test_5_4_flower_pairs_fit_the_eight_flowers() -> None:
    """§5.4: singles and pairs need naturals; the set has 8 flowers (not 4 per tile)."""
    card_from_obj(_one_hand([("F", 2)] * 4 + [("E", 3), ("S", 3)]))  # 8 flowers: fine
    with pytest.raises(CardInvalid) as info:
        card_from_obj(_one_hand([("F", 2)] * 5 + [("E", 4)]))  # 10 flowers
    assert info.value.where == "groups" and "152-tile set" in str(info.value)


def test_5_4_completable_under_at_least_one_binding_only_those_are_kept() -> None:
    """Three pairs 3.A, {x}.A, {x}.A need six 3s when x = 3, but the hand is valid (x = 4 works),
    and a hand needing the x = 3 binding never matches."""
    card = card_from_obj(
        _one_hand(
            [("3.A", 2), ("{x}.A", 2), ("{x}.A", 2), ("E", 4), ("W", 4)], vars={"x": {"in": [3, 4]}}
        )
    )
    assert {dict(b.values)["x"] for b in card.hands[0].bindings} == {4}
    six_threes = tiles("3m 3m 3m 3m 3m 3m E E E E W W W W")  # over-counted on purpose
    assert match_all(card, counts(six_threes)) == []
    ok = tiles("3m 3m 4m 4m 4m 4m E E E J W W W W")
    assert [m.hand.id for m in match_all(card, counts(ok))] == ["H"]


def test_4_2_a_claim_by_the_discarder_ranks_nothing() -> None:
    """§4.2 priority is among the *other* players: an announced claim by the discarder on its
    own discard must not make W's pung a CALL_PRIORITY breach (it used to: distance 0)."""
    b = AmHand().hand(W, "5m 5m").discard(E, "5m").announce_claim(E, "pung", "5m")
    r = b.pung(W, E, "5m", "5m 5m").discard(W).replay()
    assert "CALL_PRIORITY" not in codes(r)


# --- §8.1 dead_by_visible_tiles: the seat's own exposed naturals are not available either -----

PUNG_AND_PAIR_CARD = """\
format: mj-card/1
card_id: review-pung-pair
hands:
  - id: NPP-1
    concealed: false
    value: 25
    groups:
      - {t: "N", n: 3}
      - {t: "N", n: 2}
      - {t: E, n: 3}
      - {t: W, n: 3}
      - {t: S, n: 3}
"""


def test_8_1_dead_by_visible_tiles_counts_own_exposed_naturals(tmp_path: Any) -> None:
    """S exposes N N J (two natural N) and W discards the third N: the pair N N of the only
    hand needs two of the four N, but only one is left. S's own exposure used to be left
    out of the visible tiles, so S was "alive" and W's dead call was CALL_DEAD_INCORRECT."""
    path = tmp_path / "card.yaml"
    path.write_text(PUNG_AND_PAIR_CARD)
    opts = {"card_file": str(path), "dead_by_visible_tiles": True}
    b = AmHand(card="review-pung-pair").hand(S, "N J").hand(W, "N")
    b.discard(E, "N").pung(S, E, "N", "N J").discard(S).draw(W).discard(W, "N")
    dead = b.announce_dead(N, S).replay(opts)
    assert "CALL_DEAD_INCORRECT" not in codes(dead)
    assert dead.extras["dead"] == {str(S): "DEAD_BY_VISIBLE_TILES"}
    # clean counterpart: with no N discarded the last two N may still come
    b = AmHand(card="review-pung-pair").hand(S, "N J")
    b.discard(E, "N").pung(S, E, "N", "N J").discard(S).draw(W).discard(W)
    alive = b.announce_dead(N, S).replay(opts)
    assert "CALL_DEAD_INCORRECT" in codes(alive) and alive.extras["dead"] == {}


# --- §3 / simulator API: the courtesy pass is offered once per pair ----------------------------


def test_3_legal_actions_offer_the_courtesy_pass_once() -> None:
    """After E and W exchanged, neither is offered a second courtesy pass (#12 flags one);
    S and N still are. legal_actions used to offer it again to E and W."""
    from mjaudit.parts.replay.rulesets.american.replayer import replay_to

    b = AmHand().first_charleston().charleston_stop(W)
    b.courtesy_pass(E, W, 1).courtesy_pass(W, E, 1)
    rec = b.record()
    hand = replay_to(rec, len(rec["events"]) - 1)
    offered = {s for s in range(4) for a in hand.legal_actions(s) if a["type"] == "courtesy_pass"}
    assert offered == {S, N}


# --- §10 second_charleston = always changes the verdict --------------------------------------


def test_10_second_charleston_always() -> None:
    """by_agreement: a stop after pass 3 ends the Charleston (clean). always: the stop is
    ignored and starting play without passes 4-6 is CHARLESTON_BAD_PASS; with them, clean."""
    stop = AmHand().first_charleston().charleston_stop(N).discard(E)
    assert [f for f in stop.replay().findings if f.cls is VIOL] == []
    r = stop.replay({"second_charleston": "always"})
    assert "CHARLESTON_STOP_IGNORED" in codes(r) and "CHARLESTON_BAD_PASS" in codes(r)
    full = AmHand().first_charleston().second_charleston().discard(E)
    assert [f for f in full.replay({"second_charleston": "always"}).findings if f.cls is VIOL] == []
