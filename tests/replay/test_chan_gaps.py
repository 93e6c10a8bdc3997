"""Gaps found when checking issue 8's "Done when" against chan.md §13 and §3.1.

* §13 X1-X8 state the score before gà and which gà apply; test_chan_examples.py asserts
  the total everywhere but the gà explicitly only for some examples (not X3, X5, X7).
  One table here pins base score, gà and total for every example.
* §13 P5 says after a ù láo "next G = next(G)" (§3.1: the giver follows the previous
  winner unless the hand was void by U_LAO). The `previous_hand` field form is tested in
  test_checklist_chan.py; no test followed a replayed U_LAO hand's *report* into the next
  hand (§6: "the engine reads hand hand_no − 1 of the same game_id").
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from chan_builder import ENGINE_READY, VIOL, Chan, clean, only
from mjaudit.parts.replay.engine.findings import FindingClass
from test_chan_examples import Script, run, x1, x2, x3, x4, x5, x6, x7, x8

pytestmark = pytest.mark.skipif(not ENGINE_READY, reason="the chan engine is not registered")

S0, S1, S2, S3 = 0, 1, 2, 3

# (example, score before gà, the gà that apply, T) as chan.md §13 states them.
EXAMPLES: list[tuple[Callable[[], Script], int, set[str], int]] = [
    (x1, 9, set(), 9),  # "no gà"
    (x2, 16, {"ga_tam_do", "ga_chi_bach_thu", "ga_bach_thu_chi"}, 31),
    (x3, 2, set(), 2),
    (x4, 6, {"ga_chi_bach_thu"}, 11),
    (x5, 13, {"ga_kinh_tu_chi"}, 18),
    (x6, 17, {"ga_thap_thanh", "ga_bach_dinh"}, 27),
    (x7, 20, set(), 20),  # "one cước, no gà"
    (x8, 5, {"ga_u_bon_bach_thu"}, 10),
]


@pytest.mark.parametrize(
    ("example", "base", "ga", "total"), EXAMPLES, ids=[f"X{i}" for i in range(1, 9)]
)
def test_13_example_base_ga_and_total(
    example: Callable[[], Script], base: int, ga: set[str], total: int
) -> None:
    r = run(example())
    assert [f.code for f in r.findings if f.cls is not FindingClass.INFO] == []
    assert r.extras["base"] == base
    assert set(r.extras["ga_ids"]) == ga and r.extras["ga"] == len(ga)
    assert r.fan == total == base + 5 * len(ga)  # ga_points = 5 by default
    # the gà are also in the patterns, 5 points each, and the patterns sum to T
    assert {p for p, _ in r.patterns if p.startswith("ga_")} == ga
    assert all(v == 5 for p, v in r.patterns if p.startswith("ga_"))
    assert sum(v for _, v in r.patterns) == total


def _u_lao_hand() -> Chan:
    """P5-like: s2 gives the cái 3v to the dealer s0 (2 + 3 - 1 = 4 ≡ 0); s1 declares ù
    on the 5n s0 discarded (§10.6 (b)), so hand 1 is void by U_LAO."""
    x3_hand = "6v6v 3n3s 8n8v 2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n"
    return Chan(dealer=S0).cai(S2, "3v").hand(S1, x3_hand, exact=True).discard(S0, "5n")


def test_P5_u_lao_then_the_cai_passes_to_next_G() -> None:
    first = _u_lao_hand().win(S1, "5n", frm=S0).replay()
    only(first, "U_LAO", VIOL, seat=S1, index=1)
    assert first.deltas == (12, -36, 12, 12)
    # hand 2: next(G) = s3 gives; 2v → dealer = 3 + 2 - 1 = 4 ≡ s0
    nxt = Chan(dealer=S0, hand_no=2).cai(S3, "2v").discard(S0, "2n").abandon()
    clean(nxt.replay(previous=first))
    # the ù láo declarer is not a winner: s1 giving the cái is SAI_NGUOI_BAT_CAI
    wrong = Chan(dealer=S0, hand_no=2).cai(S1, "4v").discard(S0, "2n").abandon()
    only(wrong.replay(previous=first), "SAI_NGUOI_BAT_CAI", VIOL, seat=S1, index=None)
    # and G again (s2) is wrong too
    again = Chan(dealer=S0, hand_no=2).cai(S2, "3v").discard(S0, "2n").abandon()
    only(again.replay(previous=first), "SAI_NGUOI_BAT_CAI", VIOL, seat=S2, index=None)
