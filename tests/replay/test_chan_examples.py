"""chan.md §13: the worked examples X1-X8 and the settlement examples P1-P6, each as a full
``mjlog/1`` record (deal, nọc, every event) replayed through ``replay.engine.replay_hand``.

Each hand is scripted the way §13 describes it: the winner's exposed pairs are eaten from
nọc cards it draws (so it "has already drawn", no địa ù), every other seat draws and
leaves the card unless the example needs it to act. The small :class:`Script` below fills
the other hands and the nọc from the rest of the 100 cards.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from mjaudit.parts.replay.engine.findings import FindingClass, HandReport
from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.rulesets.chan.cards import card_name, display, is_red
from mjaudit.parts.schemas.records import parse_record
from mjaudit.parts.schemas.tiles import CHAN_CARDS

DECK = Counter({c: 4 for c in CHAN_CARDS})
AUTO = "?"


def cards(text: str) -> list[str]:
    out = text.replace("CC", " CC ").split()
    res: list[str] = []
    for tok in out:
        if tok == "CC":
            res.append(tok)
        else:
            assert len(tok) % 2 == 0, tok
            res += [tok[i : i + 2] for i in range(0, len(tok), 2)]
    return res


class Script:
    """A hand written event by event; ``record()`` deals the unnamed cards.

    ``hold[seat]`` are the cards a seat must be dealt besides those the script takes out
    of its hand (discards, ``with`` cards); ``exact`` seats get nothing else.
    """

    def __init__(
        self, dealer: int, hold: dict[int, str], exact: tuple[int, ...] = (), **extra: Any
    ):
        self.dealer = dealer
        self.hold = {s: cards(h) for s, h in hold.items()}
        self.exact = exact
        self.events: list[dict[str, Any]] = []
        self.extra = extra
        self.avoid_ranks: set[str] = set()

    def ev(self, **e: Any) -> Script:
        self.events.append(e)
        return self

    def discard(self, seat: int, card: str, **kw: Any) -> Script:
        return self.ev(type="discard", seat=seat, tile=card, **kw)

    def dp(self, *seats: int) -> Script:
        for s in seats:
            self.ev(type="draw", seat=s, tile=AUTO).ev(type="pass", seat=s)
        return self

    def draw(self, seat: int, card: str = AUTO) -> Script:
        return self.ev(type="draw", seat=seat, tile=card)

    def eat(self, seat: int, card: str, frm: int, with_: str, **kw: Any) -> Script:
        return self.ev(type="eat", seat=seat, tile=card, **{"from": frm, "with": with_}, **kw)

    def draw_eat(self, seat: int, card: str, with_: str, junk: str) -> Script:
        """Draw ``card``, eat it with ``with_``, discard ``junk``."""
        return self.draw(seat, card).eat(seat, card, seat, with_).discard(seat, junk)

    def win(
        self, seat: int, card: str, cuoc: list[Any], frm: int | None = None, **kw: Any
    ) -> Script:
        e: dict[str, Any] = {"type": "win", "seat": seat, "tile": card, "claim": {"cuoc": cuoc}}
        e.setdefault("via", kw.pop("via", "stock"))
        if frm is not None:
            e["from"] = frm
        e.update(kw)
        self.events.append(e)
        return self

    def record(self) -> dict[str, Any]:
        n = 4
        dealt = {s: list(self.hold.get(s, [])) for s in range(n)}
        for e in self.events:
            s = e.get("seat")
            if e["type"] == "discard":
                dealt[s].append(e["tile"])
            elif e["type"] == "eat":
                dealt[s].append(e["with"])
            elif e["type"] == "chiu":
                dealt[s] += e["with"]
        named = {c for h in dealt.values() for c in h} | {
            e["tile"] for e in self.events if e.get("tile") not in (None, AUTO)
        }
        pool = DECK - Counter(c for h in dealt.values() for c in h)
        pool -= Counter(e["tile"] for e in self.events if e["type"] == "draw" and e["tile"] != AUTO)
        used = Counter(c for h in dealt.values() for c in h) + Counter(
            e["tile"] for e in self.events if e["type"] == "draw" and e["tile"] != AUTO
        )
        assert not DECK - used - DECK and all(used[c] <= 4 for c in used), used
        safe = [
            c for c in CHAN_CARDS if c not in named and c[0] not in self.avoid_ranks and c != "CC"
        ]
        k = 0
        for e in self.events:
            if e.get("tile") == AUTO:
                for _ in range(len(safe) * 4):
                    c = safe[k % len(safe)]
                    k += 1
                    if pool[c]:
                        break
                else:
                    raise AssertionError("no safe card left for an automatic draw")
                pool[c] -= 1
                e["tile"] = c
        draws = [e["tile"] for e in self.events if e["type"] == "draw"]
        # fill the hands, most plentiful identities first (spreads filler over identities)
        hands: list[list[str]] = []
        for s in range(n):
            want = 20 if s == self.dealer else 19
            h = dealt[s]
            if s in self.exact:
                assert len(h) == want, (s, len(h), want)
            while len(h) < want:
                c = max(sorted(pool), key=lambda x: (pool[x], x not in named))
                assert pool[c] > 0
                pool[c] -= 1
                h.append(c)
            assert len(h) == want, (s, len(h))
            hands.append(h)
        rest = list((+pool).elements())
        wall = draws + rest
        assert len(wall) == 23, len(wall)
        rec = {
            "format": "mjlog/1",
            "game_id": "chan-x",
            "hand_no": 2,
            "ruleset": "chan",
            "players": ["An", "Bình", "Chi", "Dũng"],
            "dealer": self.dealer,
            "start_hands": hands,
            "wall": wall,
            "events": self.events,
            **self.extra,
        }
        return parse_record(json.dumps(rec).encode()).record


def run(script: Script, **options: Any) -> HandReport:
    rec = script.record()
    if options:
        rec["options"] = options
    return replay_hand(rec)


def codes(report: HandReport) -> list[str]:
    return [f.code for f in report.findings]


def serious(report: HandReport) -> list[str]:
    return [f.code for f in report.findings if f.cls is not FindingClass.INFO]


def cuoc(report: HandReport) -> Counter[str]:
    return Counter(report.extras["cuoc"])


# --------------------------------------------------------------------------- scripts


def x1(cuoc_list: list[Any] | None = None, p1: bool = False) -> Script:
    """X1: s1 chíu ù on s0's discarded 7n; s2 is the dealer."""
    s = Script(
        2,
        {1: "7n7n7n 3v3v3s3s CC CC 9v9s8s8v", 0: "6n"},
        exact=(1,),
    )
    s.avoid_ranks = {"2", "4"}
    s.discard(2, "3n").dp(3, 0)
    s.draw_eat(1, "5v", "5v", "6v")  # chắn eat, junk 6v
    if p1:  # s2 holds 6v: declines it as a chắn (draws), later discards a 6v
        s.draw(2, "5n").eat(2, "5n", 2, "5n").discard(2, "6v")  # → BO_AN_CHAN
    else:
        s.dp(2)
    s.dp(3, 0)
    s.draw_eat(1, "2v", "2n", "9n")
    s.dp(2, 3, 0)
    s.draw_eat(1, "4s", "4n", "5s")
    s.dp(2, 3)
    s.draw(0, "6n").eat(0, "6n", 0, "6n").discard(0, "7n")
    s.win(
        1,
        "7n",
        cuoc_list
        if cuoc_list is not None
        else ["chiu_u", "bach_thu", {"id": "tom", "n": 2}, "leo"],
        frm=0,
        via="chiu",
        **{"with": ["7n", "7n", "7n"]},
    )
    return s


def test_x1_chiu_u_bach_thu_two_tom_leo_is_9() -> None:
    r = run(x1())
    assert serious(r) == []
    assert cuoc(r) == Counter({"chiu_u": 1, "bach_thu": 1, "tom": 2, "leo": 1})
    assert r.fan == 9 and r.extras["ga"] == 0
    assert (r.extras["diem"], r.extras["dich"]) == (5, 4) and r.discarder == 0
    assert r.winners == (1,)
    assert r.deltas == (-9, 27, -9, -9)


def test_p1_den_lang_by_the_caught_player() -> None:
    """P1: X1, s2 caught for BO_AN_CHAN earlier: s2 alone pays 3 × 9."""
    r = run(x1(p1=True))
    assert [(f.seat, f.code) for f in r.findings if f.cls is not FindingClass.INFO] == [
        (2, "BO_AN_CHAN")
    ]
    assert r.fan == 9 and r.extras["case"] == "B"
    assert r.deltas == (0, 27, -27, 0)


def x2() -> Script:
    """X2: s0 draws CC: chì bạch thủ chi, tám đỏ, 2 lèo. s1 deals."""
    s = Script(1, {0: "8s8s CC 9s9n 4v4v 6s6s 3v3n 5n5s"}, exact=(0,))
    s.avoid_ranks = {"8"}
    s.discard(1, "7v").dp(2, 3)
    s.draw_eat(0, "9v", "9v", "7s")
    s.dp(1, 2, 3)
    s.draw_eat(0, "8v", "8n", "6v")
    s.dp(1, 2, 3)
    s.draw_eat(0, "2n", "2n", "4s")
    s.dp(1, 2, 3)
    s.draw(0, "CC").win(0, "CC", ["chi", "bach_thu_chi", "tam_do", {"id": "leo", "n": 2}])
    return s


def test_x2_chi_bach_thu_chi_tam_do_two_leo_is_31() -> None:
    r = run(x2())
    assert serious(r) == []
    assert cuoc(r) == Counter({"chi": 1, "bach_thu_chi": 1, "tam_do": 1, "leo": 2})
    assert r.extras["ga"] == 3 and r.extras["base"] == 16
    assert r.fan == 31
    assert r.deltas == (93, -31, -31, -31)
    assert sum(v for _, v in r.patterns) == 31


def x3() -> Script:
    """X3: s2 wins wide on the 5v drawn by s3, declared xuông. s0 deals."""
    s = Script(0, {2: "2v2v 4n4n 5s5s 9s9s 7v7v 4v4s 5n"}, exact=(2,))
    s.avoid_ranks = {"3", "8", "5"}
    s.discard(0, "6s").dp(1)
    s.draw_eat(2, "6v", "6v", "2n")
    s.dp(3, 0, 1)
    s.draw_eat(2, "3n", "3s", "9n")
    s.dp(3, 0, 1)
    s.draw_eat(2, "8n", "8v", "7s")
    s.draw(3, "5v").win(2, "5v", [], frm=3)
    return s


def test_x3_plain_wide_win_xuong_is_2() -> None:
    r = run(x3())
    assert serious(r) == []
    assert cuoc(r) == Counter()
    assert r.fan == 2 and r.patterns == (("xuong", 2),)
    assert r.deltas == (-2, -2, 6, -2)


def test_p6_x3_in_mode_4_11_pays_11_to_each() -> None:
    r = run(x3(), mode_4_11=True)
    assert serious(r) == ["U_4_11_THIEU_DIEM"]
    assert r.winners == () and r.ended_by == "false_win"
    assert r.deltas == (11, 11, -33, 11)


def x4(cuoc_list: list[Any] | None = None, p2: bool = False, p4: bool = False) -> Script:
    """X4: s1 (won the previous hand) draws 6n: thông, chì, bạch thủ. s2 deals."""
    hand = "6n 2s2s 4v4v 5n5n 7s7s 8s8n 7v7n"
    if p2:  # 2n 2n instead of 2s 2s: the cạ eat of 2n with 2v is then treo tranh
        hand = "6n 2n2n 4v4v 5n5n 7s7s 8s8n 7v7n"
    s = Script(
        2,
        {1: hand},
        exact=(1,),
        previous_hand={"winner": 1, "void": None, "giver": 0},
    )
    s.avoid_ranks = {"2", "3", "6"}
    s.discard(2, "5v" if p4 else "9s").dp(3, 0)
    s.draw_eat(1, "9v", "9v", "6s")
    if p4:  # s2 discards its second 5v (#…: DANH_CA_CHAN)
        s.draw(2, "5s").eat(2, "5s", 2, "5s").discard(2, "5v")
    else:
        s.dp(2)
    s.dp(3, 0)
    s.draw_eat(1, "3v", "3n", "4n")
    s.dp(2, 3, 0)
    if p2:
        s.draw_eat(1, "2n", "2v", "8v")
    else:
        s.draw_eat(1, "2v", "2n", "8v")
    s.dp(2, 3, 0)
    s.draw(1, "6n").win(1, "6n", cuoc_list or ["thong", "chi", "bach_thu"])
    return s


def test_x4_thong_chi_bach_thu_is_11() -> None:
    r = run(x4())
    assert serious(r) == []
    assert cuoc(r) == Counter({"thong": 1, "chi": 1, "bach_thu": 1})
    assert r.fan == 11 and r.extras["ga_ids"] == ["ga_chi_bach_thu"]
    assert r.deltas == (-11, 33, -11, -11)


def test_x4_thong_unverified_without_previous_hand() -> None:
    s = x4()
    s.extra.pop("previous_hand")
    r = run(s)
    assert serious(r) == [] and "THONG_UNVERIFIED" in codes(r)
    assert r.fan == 11


def test_p2_winner_with_treo_tranh_scores_zero() -> None:
    """P2 (X4's cước with 2n 2n in hand, so the cạ eat 2n+2v is treo tranh): T = 0."""
    r = run(x4(p2=True))
    assert serious(r) == ["TREO_TRANH_AN_CA_THAY_CHAN"]
    assert r.winners == (1,) and r.fan == 0 and r.extras["case"] == "C"
    assert r.extras["t_decl"] == 11
    assert r.deltas == (0, 0, 0, 0)


def test_p3_wrong_call_pays_declared_total_to_each() -> None:
    r = run(x4(["thong", "chi", "bach_thu", "tom"]))
    assert serious(r) == ["XUONG_SAI"]
    assert r.extras["t_decl"] == 12 and r.winners == ()
    assert r.deltas == (12, -36, 12, 12)


def test_p4_wrong_call_and_caught_player_pay_the_payees() -> None:
    r = run(x4(["thong", "chi", "bach_thu", "tom"], p4=True))
    assert [(f.seat, f.code) for f in r.findings if f.cls is not FindingClass.INFO] == [
        (2, "DANH_CA_CHAN"),
        (1, "XUONG_SAI"),
    ]
    assert r.extras["auto_value"] == 11
    assert r.deltas == (23, -24, -22, 23)


def x5() -> Script:
    """X5: s0 (dealt all four CC) wins on s1's 3n: kính tứ chi, có thiên khai. s2 deals."""
    s = Script(2, {0: "CC CC CC CC 2v2v 4s4s 6n6n 9n9n 4v4n 3v"}, exact=(0,))
    s.avoid_ranks = {"3", "5", "7"}
    s.discard(2, "8n").dp(3)
    s.draw_eat(0, "5v", "5s", "2s")
    s.dp(1, 2, 3)
    s.draw_eat(0, "7s", "7v", "8v")
    s.draw(1, "3n").win(0, "3n", ["kinh_tu_chi", "co_thien_khai"], frm=1)
    return s


def test_x5_kinh_tu_chi_with_thien_khai_is_18() -> None:
    r = run(x5())
    assert serious(r) == []
    assert cuoc(r) == Counter({"kinh_tu_chi": 1, "co_thien_khai": 1})
    assert r.fan == 18
    assert r.deltas == (54, -18, -18, -18)


def x6() -> Script:
    """X6: s3 draws 7s: thập thành, bạch định, chì. s0 deals."""
    s = Script(3, {3: "2v2v 2n2n 3n3n 4s4s 6n6n 9n9n 6v6v 7s"}, exact=(3,))
    s.dealer = 0
    s.avoid_ranks = {"7"}
    s.discard(0, "5s").dp(1, 2)
    s.draw_eat(3, "5v", "5v", "3s")
    s.dp(0, 1, 2)
    s.draw_eat(3, "8n", "8n", "5n")
    s.dp(0, 1, 2)
    s.draw(3, "7s").win(3, "7s", ["thap_thanh", "bach_dinh", "chi"])
    return s


def test_x6_thap_thanh_bach_dinh_chi_is_27() -> None:
    r = run(x6())
    assert serious(r) == []
    assert cuoc(r) == Counter({"thap_thanh": 1, "bach_dinh": 1, "chi": 1})
    assert r.fan == 27 and r.extras["ga"] == 2
    assert r.deltas == (-27, -27, -27, 81)


def x7(cuoc_list: list[Any] | None = None) -> Script:
    """X7: s0 draws 2v with a chắn 5v eaten on the mat: hoa rơi cửa phật. s1 deals."""
    s = Script(1, {0: "2v 4n4n 6s6s 7v7v 9n9n 8s8n 4v4s"}, exact=(0,))
    s.avoid_ranks = {"2", "3", "6"}
    s.discard(1, "9s").dp(2, 3)
    s.draw_eat(0, "5v", "5v", "9v")
    s.dp(1, 2, 3)
    s.draw_eat(0, "3n", "3s", "8v")
    s.dp(1, 2, 3)
    s.draw_eat(0, "6v", "6n", "5s")
    s.dp(1, 2, 3)
    s.draw(0, "2v").win(0, "2v", cuoc_list or ["hoa_roi_cua_phat"])
    return s


def test_x7_hoa_roi_cua_phat_is_20() -> None:
    r = run(x7())
    assert serious(r) == []
    assert cuoc(r) == Counter({"hoa_roi_cua_phat": 1, "chi": 1, "bach_thu": 1})
    assert r.fan == 20 and r.extras["auto_value"] == 20
    assert r.deltas == (60, -20, -20, -20)


def test_x7_hoa_roi_with_chi_is_a_wrong_call_of_21() -> None:
    r = run(x7(["hoa_roi_cua_phat", "chi"]))
    assert serious(r) == ["XUONG_SAI"]
    assert r.extras["t_decl"] == 21
    assert r.deltas == (-63, 21, 21, 21)


def x8() -> Script:
    """X8: s1 ate 6v with one of its dealt 6v 6v (ăn bòn), wins on s2's 6v. s0 deals."""
    s = Script(0, {1: "6v 2s2s 4n4n 5v5v 7s7s 9n9s 2v2n"}, exact=(1,))
    s.avoid_ranks = {"3", "8", "6"}
    s.discard(0, "6v").eat(1, "6v", 0, "6v").discard(1, "4s")
    s.dp(2, 3, 0)
    s.draw_eat(1, "3v", "3n", "5n")
    s.dp(2, 3, 0)
    s.draw_eat(1, "8n", "8v", "7v")
    s.draw(2, "6v").win(1, "6v", ["u_bon", "bach_thu"], frm=2)
    return s


def test_x8_u_bon_bach_thu_is_10() -> None:
    r = run(x8())
    assert serious(r) == []
    assert cuoc(r) == Counter({"u_bon": 1, "bach_thu": 1})
    assert r.fan == 10 and r.extras["ga_ids"] == ["ga_u_bon_bach_thu"]
    assert r.deltas == (-10, 30, -10, -10)


def test_p5_win_on_a_discarded_card_is_u_lao() -> None:
    """P5: s0 declares ù on the card s3 discarded: s0 pays 12 to each."""
    s = Script(2, {})
    s.discard(2, "5s").dp(3, 0, 1, 2)
    s.draw(3, "9v").eat(3, "9v", 3, "9v").discard(3, "2s")
    s.win(0, "2s", [], frm=3)
    r = run(s)
    assert serious(r) == ["U_LAO"]
    assert r.ended_by == "false_win" and r.extras["void"] == "U_LAO"
    assert r.deltas == (-36, 12, 12, 12)


@pytest.mark.parametrize(
    ("card", "name", "red"),
    [
        ("2v", "nhị vạn", False),
        ("CC", "chi chi", True),
        ("8s", "bát sách", True),
        ("7n", "thất văn", False),
    ],
)
def test_card_names_and_colours(card: str, name: str, red: bool) -> None:
    assert card_name(card) == name and is_red(card) is red
    assert display(card).startswith(name)


# --------------------------------------------------------------------------- §12 options


def test_options_reject_unknown_names_and_bad_values() -> None:
    from mjaudit.parts.replay.rulesets.chan.options import OptionError, options_for

    assert options_for({"ga_points": 10}).ga_points == 10
    with pytest.raises(OptionError, match="unknown option"):
        options_for({"fan_cap": 8})
    with pytest.raises(OptionError, match="ga_tam_do"):
        options_for({"ga_tam_do": 3})
    r = run(x3(), enforcement="sometimes")
    assert codes(r) == ["RECORD_INVALID"] and r.deltas is None


def test_x2_gà_options() -> None:
    assert run(x2(), play_ga=False).fan == 16
    assert run(x2(), ga_chi_bach_thu=2).fan == 36
    assert run(x2(), ga_points=10).fan == 46
    assert run(x2(), ga_tam_do_needs_leo=True).fan == 31  # it has lèo
    assert run(x2(), stake=2).deltas == (186, -62, -62, -62)


def test_x6_ga_bach_dinh_needs_tom() -> None:
    r = run(x6(), ga_bach_dinh_needs_tom=True)
    assert r.fan == 22 and r.extras["ga_ids"] == ["ga_thap_thanh"]


def test_red_cards_option_changes_bach_dinh() -> None:
    """With 2v red, X6's hand is no longer all black: declaring bạch định is wrong."""
    r = run(x6(), red_cards=["CC", "8v", "8s", "9v", "9s", "2v"])
    assert serious(r) == ["XUONG_SAI"] and "bach_dinh is not in the hand" in r.findings[0].message


def test_p5_penalty_intentional_with_ga_is_17() -> None:
    s = Script(2, {})
    s.discard(2, "5s").dp(3, 0, 1, 2)
    s.draw(3, "9v").eat(3, "9v", 3, "9v").discard(3, "2s")
    s.win(0, "2s", [], frm=3)
    assert run(s, penalty_intentional_with_ga=True).deltas == (-51, 17, 17, 17)
    assert run(s, penalty_intentional=10).deltas == (-30, 10, 10, 10)


def test_regional_cuoc_only_through_extra_cuoc() -> None:
    s = x3()
    s.events[-1]["claim"] = {"cuoc": ["ngu_ong_bat_ca"]}
    assert serious(run(s)) == ["XUONG_SAI"]
    s = x3()
    s.events[-1]["claim"] = {"cuoc": ["ngu_ong_bat_ca"]}
    r = run(s, extra_cuoc=[{"id": "ngu_ong_bat_ca", "diem": 10, "dich": 7}])
    assert serious(r) == [] and r.fan == 10


def test_min_points_4_11_option() -> None:
    r = run(x4(), mode_4_11=True, min_points_4_11=12, penalty_4_11=7)
    assert serious(r) == ["U_4_11_THIEU_DIEM"] and r.deltas == (7, -21, 7, 7)
    assert serious(run(x4(), mode_4_11=True)) == []


def test_reported_only_p1_needs_a_bao() -> None:
    """With reported_only, P1's BO_AN_CHAN moves money only once somebody reports it."""
    r = run(x1(p1=True), enforcement="reported_only")
    assert r.deltas == (-9, 27, -9, -9)
    s = x1(p1=True)
    s.ev(type="announce", seat=3, what="bao", accused=2, code="BO_AN_CHAN")
    r = run(s, enforcement="reported_only")
    assert r.deltas == (0, 27, -27, 0)


def test_den_lang_basis_declared_valid() -> None:
    """P4 with the valid part of the call as V's basis: thông + chì + bạch thủ = 11 too."""
    r = run(
        x4(["thong", "chi", "bach_thu", "tom"], p4=True),
        den_lang_basis_on_wrong_call="declared_valid",
    )
    assert r.deltas == (23, -24, -22, 23)
    r = run(x4(["bach_thu", "tom"], p4=True), den_lang_basis_on_wrong_call="declared_valid")
    assert r.extras["t_decl"] == 5 and r.deltas == (4 + 5, -10, -8, 4 + 5)


def test_x5_thien_khai_must_expose_counts_only_khai_quads() -> None:
    r = run(x5(), thien_khai_must_expose=True)
    assert serious(r) == ["XUONG_SAI"] and cuoc(r) == Counter({"kinh_tu_chi": 1})


def test_continue_after_void_u_keeps_playing_and_settles_later_win() -> None:
    """X3 with a false ù by s0 on the 5v first (not a win for s0): s0 pays 12 each, s2 wins."""
    s = x3()
    s.events.insert(
        len(s.events) - 1,
        {"type": "win", "seat": 0, "tile": "5v", "via": "stock", "from": 3, "claim": {"cuoc": []}},
    )
    r = run(s, continue_after_void_u=True)
    assert serious(r) == ["U_LAO"] and r.winners == (2,)
    assert r.deltas == (-36 - 2, 12 - 2, 12 + 6, 12 - 2)
    assert serious(run(s)) == ["U_LAO", "EVENT_AFTER_END"]


def test_thong_from_the_previous_report_of_the_game() -> None:
    """Without ``previous_hand`` the engine reads the report of hand_no − 1 (§6)."""
    first = run(x4())
    s = x4()
    s.extra.pop("previous_hand")
    r = replay_hand(s.record(), None, first)
    assert serious(r) == [] and "THONG_UNVERIFIED" not in codes(r) and r.fan == 11
    lost = run(x3())  # s2 won the previous hand: s1's thông is wrong
    r = replay_hand(s.record(), None, lost)
    assert serious(r) == ["XUONG_SAI"]


def test_without_start_hands_the_win_is_settled_on_its_declaration() -> None:
    rec = x1().record()
    del rec["start_hands"]
    r = replay_hand(rec)
    assert codes(r) == ["PARTIAL_INFORMATION"] and r.extras["partial"] is True
    assert r.fan == 9 and r.deltas == (-9, 27, -9, -9)


def _brute_max_chan(hand: tuple[str, ...], memo: dict[tuple[str, ...], int]) -> int:
    """Most chắn over all pairings of ``hand`` (sorted), by trying every partner."""
    if not hand:
        return 0
    if hand in memo:
        return memo[hand]
    first, rest = hand[0], hand[1:]
    best = -(10**6)
    for k, other in enumerate(rest):
        if other == first or (first != "CC" != other and first[0] == other[0]):
            sub = _brute_max_chan(rest[:k] + rest[k + 1 :], memo)
            best = max(best, sub + (other == first))
    memo[hand] = best
    return best


def test_max_chan_matches_brute_force_on_random_holdings() -> None:
    import random

    from mjaudit.parts.replay.rulesets.chan.combos import NEG, concealed_max_chan

    rng = random.Random(7)
    deck = list(DECK.elements())
    memo: dict[tuple[str, ...], int] = {}
    for _ in range(300):
        ranks = rng.sample(["2", "3", "4", "5", "6", "7", "8", "9", "C"], 4)
        pool = [c for c in deck if c[0] in ranks]
        hand = tuple(sorted(rng.sample(pool, 10)))
        want = _brute_max_chan(hand, memo)
        got = concealed_max_chan(Counter(hand))
        assert (got if got != NEG else -(10**6)) == (want if want >= 0 else -(10**6)), hand


def dia() -> Script:
    """s1 eats s0's opening 4v, later wins on its own first nọc draw (địa ù, chì)."""
    s = Script(0, {1: "2v2v 3n3n 5s5s 7n7n 9n9n 4n4s 2s2n 5v5n 7s"}, exact=(1,))
    s.avoid_ranks = {"7", "4"}
    s.discard(0, "4v").eat(1, "4v", 0, "4v").discard(1, "6v").dp(2, 3, 0)
    s.draw(1, "7v").win(1, "7v", ["dia_u", "chi", "bach_dinh"])
    return s


def test_dia_u_on_the_first_draw_and_the_first_round_option() -> None:
    r = run(dia())
    assert serious(r) == [] and cuoc(r) == Counter({"dia_u": 1, "chi": 1, "bach_dinh": 1})
    assert r.fan == 7 + 1 + 1 + 5
    r = run(dia(), dia_u_first_round_only=True)  # s0, the dealer, has had its second turn
    assert serious(r) == ["XUONG_SAI"] and "dia_u" not in cuoc(r)


def test_den_lang_multiple_each() -> None:
    """P1 with s3 also caught (AN_CHAN_XE_CHAN): by default only s2, the earliest, pays."""
    s = x1(p1=True)
    k = next(i for i, e in enumerate(s.events) if e["type"] == "win") - 5  # s3's last turn
    assert s.events[k]["seat"] == 3 and s.events[k]["type"] == "draw"
    s.events[k : k + 2] = [
        {"type": "draw", "seat": 3, "tile": "9s"},
        {"type": "eat", "seat": 3, "tile": "9s", "from": 3, "with": "9s"},
        {"type": "discard", "seat": 3, "tile": "9s"},
    ]
    r = run(s)
    assert serious(r) == ["BO_AN_CHAN", "AN_CHAN_XE_CHAN"]
    assert r.deltas == (0, 27, -27, 0)
    assert run(s, den_lang_multiple="each").deltas == (0, 54, -27, -27)


def ca_scripts() -> tuple[Script, Script]:
    """A cạ eat of rank 5 by s1, then a whole cạ 8n 8v discarded; and the §10.5 hand."""
    a = Script(0, {})
    a.avoid_ranks = {"5", "8", "6"}
    a.discard(0, "5v").eat(1, "5v", 0, "5n").discard(1, "8n").dp(2, 3, 0)
    a.draw(1, "6s").eat(1, "6s", 1, "6s").discard(1, "8v").dp(2)
    b = Script(1, {2: "2v2v 3n3n 5s5s 7v7v 9n9n 4s 2s2n 5v5n 8n8v"}, exact=(2,))
    b.discard(1, "4v").eat(2, "4v", 1, "4n").discard(2, "6s").dp(3)
    return a, b


def test_an_ca_danh_ca_scope_and_an_ca_doi_cho_options() -> None:
    a, b = ca_scripts()
    assert serious(run(a)) == ["AN_CA_DANH_CA"]
    assert serious(run(a, an_ca_danh_ca_scope="same_rank")) == []
    r = run(b)
    assert serious(r) == ["AN_CA_DOI_CHO"] and r.deltas is None  # the hand is unfinished
    assert serious(run(b, rule_an_ca_doi_cho=False)) == []


def test_bo_an_chan_strict() -> None:
    """s1 declines s0's 6n holding a 6n, later eats 6v with that 6n (rule 1 case (c))."""
    s = Script(0, {})
    s.avoid_ranks = {"6"}
    s.discard(0, "6n").dp(1, 2, 3, 0).draw(1, "6v").eat(1, "6v", 1, "6n").discard(1, "2v")
    assert "BO_AN_CHAN" not in serious(run(s))
    assert serious(run(s, bo_an_chan_strict=True)) == ["BO_AN_CHAN"]
