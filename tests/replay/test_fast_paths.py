"""The shortcuts of issue 24 give what the definitions they skip would give.

* A fan pattern is only called when the hand has the facts it is registered as needing
  (``patterns.NEEDS``): so every pattern must return 0 on a hand without them. And it is
  shown only the facts bits its table's rows read (``patterns.READS``): so no pattern may
  depend on another bit.
* The packed waits (``mahjong.packed.waits``, from per-group tables) are the kinds
  ``decompose.winning_tiles`` finds by trying every candidate tile.
* chắn's win set re-arranges only the candidate card's rank, and ``is_win_with`` reads
  the holding without copying it: both must equal §4.1's definition, ``is_win`` of the
  holding with the card added.
"""

from __future__ import annotations

import random
from collections import Counter

from mjaudit.parts.replay.rulesets.chan.cards import CARDS
from mjaudit.parts.replay.rulesets.chan.combos import (
    Exposed,
    is_win,
    is_win_with,
    plus,
    win_set,
)
from mjaudit.parts.replay.rulesets.hk import options_for
from mjaudit.parts.replay.rulesets.hk.patterns import (
    NEEDS,
    READS,
    REGISTRY,
    HandFacts,
    SplitFacts,
    WinContext,
    WinSource,
)
from mjaudit.parts.replay.rulesets.hk.scoring import _prepare, _resolve, _split, _unpack
from mjaudit.parts.replay.rulesets.mahjong.decompose import winning_tiles
from mjaudit.parts.replay.rulesets.mahjong.packed import WEIGHT, waits

from bench.fan_eval import random_win

OPTIONS = [
    options_for("hk-classic"),
    options_for("hk-classic", {"fan_value_set": "section6"}),
    options_for("hk-mahjongo"),
]


def _contexts(n: int, seed: int) -> list[WinContext]:
    """Random winning hands with random win sources and timing flags."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        c = random_win(rng)
        out.append(
            WinContext(
                concealed=c.concealed,
                win_tile=c.win_tile,
                source=rng.choice(list(WinSource)),
                melds=c.melds,
                seat_wind=c.seat_wind,
                prevailing_wind=c.prevailing_wind,
                flowers=c.flowers,
                kong_replacement_chain=rng.choice([0, 0, 1, 2]),
                last_tile=rng.random() < 0.2,
                heavenly=rng.random() < 0.1,
                earthly=rng.random() < 0.1,
            )
        )
    return out


def _facts(n: int, seed: int) -> list[tuple[HandFacts, SplitFacts]]:
    """The facts of every split of ``n`` random hands under each option set."""
    out = []
    for ctx in _contexts(n, seed):
        for opts in OPTIONS:
            r = _resolve(opts)
            prepared = _prepare(ctx, r)
            assert prepared is not None
            for dec in prepared[1]:
                out.append(_unpack(r, prepared[0] | _split(prepared, dec)))
    return out


def test_a_pattern_never_applies_without_the_facts_it_needs() -> None:
    checked = skipped = 0
    for facts, split in _facts(1500, seed=24):
        for pid, fn in REGISTRY.items():
            if NEEDS[pid] & facts.bits == NEEDS[pid]:
                checked += 1
                continue
            skipped += 1
            assert not fn(facts, split), (pid, facts)
    assert checked and skipped  # both kinds of row were met


def test_a_pattern_reads_no_facts_bit_it_does_not_declare() -> None:
    """The evaluator keeps only the bits the table's rows declare (``READS``), so a
    pattern must give the same answer whatever the other bits are."""
    rng = random.Random(25)
    for facts, split in _facts(500, seed=25):
        for pid, fn in REGISTRY.items():
            noise = rng.getrandbits(33) & ~READS[pid]
            assert fn(facts._replace(bits=facts.bits ^ noise), split) == fn(facts, split), pid


def test_packed_waits_are_the_tiles_that_complete_the_hand() -> None:
    rng = random.Random(2424)
    waiting = 0
    for i in range(3000):
        ctx = random_win(rng)
        n_melds = len(ctx.melds)
        if i % 3 == 0:  # a random hand of the same size, mostly waiting on nothing
            concealed = [rng.randrange(34) for _ in ctx.concealed]
        elif i % 3 == 1:  # the winning hand with one other tile given back
            concealed = [*ctx.concealed, ctx.win_tile]
            concealed.pop(rng.randrange(len(concealed)))
        else:
            concealed = list(ctx.concealed)
        counts = [0] * 34
        for t in concealed:
            counts[t] += 1
        if max(counts) > 4:
            continue
        key = sum(WEIGHT[t] for t in concealed)
        found = waits(key, n_melds)
        assert tuple(t for t in range(34) if found >> t & 1) == winning_tiles(counts, n_melds)
        waiting += bool(found)
    assert waiting > 1000


def _holding(rng: random.Random) -> tuple[Counter[str], tuple[Exposed, ...]]:
    """A holding of 18-20 cards, sometimes made of pairs (so that many of them win)."""
    exposed = []
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        card = rng.choice(CARDS)
        how = rng.choice(["eat", "eat", "chiu", "khai"])
        exposed.append(Exposed((card,) * (2 if how == "eat" else rng.choice([3, 4])), how))
    size = rng.choice([18, 19, 19, 19, 20]) - sum(len(e.cards) for e in exposed)
    concealed: Counter[str] = Counter()
    if rng.random() < 0.3:
        while sum(concealed.values()) < size - 1:
            concealed[rng.choice(CARDS)] += 2
    while sum(concealed.values()) < size:
        concealed[rng.choice(CARDS)] += 1
    return concealed, tuple(exposed)


def test_chan_win_set_and_win_test_match_the_definition() -> None:
    rng = random.Random(160)
    winning = 0
    for _ in range(3000):
        concealed, exposed = _holding(rng)
        by_definition = frozenset(x for x in CARDS if is_win(plus(concealed, x), exposed))
        assert win_set(concealed, exposed) == by_definition
        for x in CARDS:
            assert is_win_with(concealed, x, exposed) == (x in by_definition)
        winning += bool(by_definition)
    assert winning > 100  # the comparison met many holdings that wait on something
