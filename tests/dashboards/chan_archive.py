"""A small archive with both families for the chắn dashboard tests: one chắn sitting of
four hand-written hands (rules/chan.md §6 vocabulary), one hk-classic sitting of the same
four players, and one vn-160 and one american hand for the replayer, ingested with the
project's ingest and replayed with ``replay_archive``.

The chắn statistics must not depend on how far the chan engine has got, so the archive is
replayed with :func:`recorded_engine` in the registry's ``chan`` slot: it takes the log's
word (the recorded winners, cước, total T and payments, and each bắt báo as a
PLAYER_VIOLATION of the accused) and the ordinary replay path writes those reports into
the replay tables (schemas/tables.py REPLAY_TABLES). The expected figures below follow
rules/chan.md §7.1 and §9 for those hands.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine import run as engine
from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.schemas.tiles import CHAN_CARDS

from tests.replay.logbuilder import Hand

CHAN_GAME = "chan-hanoi-2026-03-01"
HK_GAME = "hk-hanoi-2026-03-01"
PLAYERS = ["an", "binh", "chi", "dung"]
# §7.3 (điểm, dịch) of the cước the hands use; a gà adds ga_points = 5 (§7.5)
DIEM = {"chi": (3, 1), "tom": (4, 1), "leo": (5, 2), "tam_do": (8, 5)}
GA_POINTS = 5
# hand -> (winners, declared cước with repeats, T, deltas); T by §7.1 (and §9 case B in 4)
HANDS = {
    1: ([3], ["chi", "tom", "tom"], 6, [-6, -6, -6, 18]),  # 4 + dịch 1 + dịch 1
    2: ([0], ["tam_do", "leo", "ga_tam_do"], 15, [45, -15, -15, -15]),  # 8 + 2 + gà 5
    3: ([], [], None, [0, 0, 0, 0]),  # hòa; binh caught for DANH_CA_CHAN, pays nothing
    4: ([3], ["chi"], 3, [0, -9, 0, 9]),  # binh caught (XE_CHAN) pays 3 × T alone
}
CHAN_WINS, CHAN_HANDS = 3, 4
VIOLATIONS = {"DANH_CA_CHAN": ("binh", 1), "XE_CHAN": ("binh", 1)}


def deal(seed: int, fixed: Mapping[int, str]) -> tuple[list[list[str]], list[str]]:
    """The 100 cards shuffled, with ``fixed`` positions (0-19 the dealer s0, 20-38 s1,
    39-57 s2, 58-76 s3, 77-99 the nọc) holding the cards the script needs."""
    deck = [c for c in CHAN_CARDS for _ in range(4)]
    random.Random(seed).shuffle(deck)
    for pos, card in sorted(fixed.items()):
        j = next(i for i in range(len(deck)) if deck[i] == card and (i not in fixed or i == pos))
        deck[pos], deck[j] = deck[j], deck[pos]
    assert Counter(deck) == Counter({c: 4 for c in CHAN_CARDS})
    cuts = [0, 20, 39, 58, 77]
    hands = [deck[a:b] for a, b in itertools.pairwise(cuts)]
    return hands, deck[77:]


def _record(hand_no: int, hands: list[list[str]], nọc: list[str], events: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    winners, cuoc, total, deltas = HANDS[hand_no]
    claim = Counter(c for c in cuoc if not c.startswith("ga_"))
    rec: dict[str, Any] = {
        "format": "mjlog/1",
        "game_id": CHAN_GAME,
        "hand_no": hand_no,
        "ruleset": "chan",
        "players": list(PLAYERS),
        "dealer": 0,
        "started_at": f"2026-03-01T20:{10 * hand_no:02d}:00+07:00",
        "venue": "Hanoi Chắn Club",
        "table": "C1",
        "start_hands": hands,
        "wall": nọc,
        "events": events,
        "result": {"winners": winners, "patterns": cuoc, "deltas": deltas},
    }
    if total is not None:
        rec["result"]["fan"] = total
        win = next(e for e in events if e["type"] == "win")
        win["claim"] = {"cuoc": [c if n == 1 else {"id": c, "n": n} for c, n in claim.items()]}
    return rec


def chan_hands() -> list[dict[str, Any]]:
    """Four hands of one chắn sitting (s0 an is the cái every time, for simplicity)."""
    out = []
    # 1: binh eats an's 7n with 7s (a cạ), later dung wins on his own draw (chì, 2 tôm)
    hands, noc = deal(1, {19: "7n", 20: "7s"})
    ev: list[dict[str, Any]] = [
        {"type": "discard", "seat": 0, "tile": "7n"},
        {"type": "eat", "seat": 1, "tile": "7n", "from": 0, "with": "7s"},
        {"type": "discard", "seat": 1, "tile": hands[1][-1]},
    ]
    k = 0
    for seat in (2, 3, 0, 1, 2):
        ev += [{"type": "draw", "seat": seat, "tile": noc[k]}, {"type": "pass", "seat": seat}]
        k += 1
    ev += [
        {"type": "draw", "seat": 3, "tile": noc[k]},
        {"type": "win", "seat": 3, "tile": noc[k], "via": "stock"},
    ]
    out.append(_record(1, hands, noc, ev))
    # 2: binh chíu the 6s he drew (three in hand) and returns a card; chi khai four chi chi
    hands, noc = deal(
        2, {20: "6s", 21: "6s", 22: "6s", 39: "CC", 40: "CC", 41: "CC", 42: "CC", 77: "6s"}
    )
    ev = [
        {"type": "discard", "seat": 0, "tile": hands[0][-1]},
        {"type": "draw", "seat": 1, "tile": "6s"},
        {"type": "chiu", "seat": 1, "tile": "6s", "from": 1, "with": ["6s", "6s", "6s"]},
        {"type": "discard", "seat": 1, "tile": hands[1][-1]},
        {"type": "khai", "seat": 2, "tile": "CC"},
        {"type": "draw", "seat": 2, "tile": noc[1]},
        {"type": "pass", "seat": 2},
        {"type": "draw", "seat": 3, "tile": noc[2]},
        {"type": "pass", "seat": 3},
        {"type": "draw", "seat": 0, "tile": noc[3]},
        {"type": "win", "seat": 0, "tile": noc[3], "via": "stock"},
    ]
    out.append(_record(2, hands, noc, ev))
    # 3: hòa; an reports binh for đánh cả chắn
    hands, noc = deal(3, {})
    ev = [
        {"type": "discard", "seat": 0, "tile": hands[0][-1]},
        {"type": "draw", "seat": 1, "tile": noc[0]},
        {"type": "pass", "seat": 1},
        {"type": "announce", "seat": 0, "what": "bao", "accused": 1, "code": "DANH_CA_CHAN"},
        {"type": "exhaustive_draw"},
    ]
    out.append(_record(3, hands, noc, ev))
    # 4: chi reports binh for xé chắn; dung wins on his own draw (chì)
    hands, noc = deal(4, {})
    ev = [
        {"type": "discard", "seat": 0, "tile": hands[0][-1]},
        {"type": "draw", "seat": 1, "tile": noc[0]},
        {"type": "pass", "seat": 1},
        {"type": "announce", "seat": 2, "what": "bao", "accused": 1, "code": "XE_CHAN"},
        {"type": "draw", "seat": 2, "tile": noc[1]},
        {"type": "pass", "seat": 2},
        {"type": "draw", "seat": 3, "tile": noc[2]},
        {"type": "win", "seat": 3, "tile": noc[2], "via": "stock"},
    ]
    out.append(_record(4, hands, noc, ev))
    return out


def hk_hands() -> list[dict[str, Any]]:
    """Two hk-classic hands of the same four players: binh wins on an's E, then (binh
    dealing) chi wins on binh's E."""
    out = []
    for hand_no, dealer, winner in ((1, 0, 1), (2, 1, 2)):
        b = Hand(dealer=dealer, hand_no=hand_no, game_id=HK_GAME, players=list(PLAYERS))
        b.fields.update(started_at=f"2026-03-01T19:{10 * hand_no:02d}:00+07:00", venue="Hanoi")
        b.hand(winner, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
        b.discard(dealer, "E").win(winner, "E", dealer)
        out.append(b.record())
    return out


VN_GAME = "vn-hanoi-2026-03-01"
US_GAME = "us-hanoi-2026-03-01"


def vn160_hand() -> dict[str, Any]:
    """A vn-160 hand: an declares a king flower, binh pungs 4p with a blue Văn khung."""
    b = Hand("vn-160", dealer=0, hand_no=1, game_id=VN_GAME, players=list(PLAYERS))
    b.fields.update(started_at="2026-03-01T18:00:00+07:00", venue="Hanoi")
    b.hand(0, "k2 4p").hand(1, "4p BP")
    b.flower(0, "k2").replacement(0).discard(0, "4p").pung(1, 0, "4p", with_="4p BP")
    b.discard(1).draw(2).discard(2)
    return b.record()


def american_hand() -> dict[str, Any]:
    """An american hand: the first Charleston (pass 3 partly blind), a joker pung, and a
    joker exchange (rules/american.md §3, §4.4, §9.1)."""
    hands = [
        ["1m", "1m", "2m", "3m", "4p", "5p", "6p", "E", "E", "N", "f1", "J", "9s", "C"],
        ["2p", "2p", "3p", "7s", "7s", "8s", "S", "S", "W", "g2", "J", "F", "P"],
        ["1s", "2s", "3s", "4s", "5s", "6s", "7m", "8m", "9m", "N", "W", "C", "f3"],
        ["9p", "9p", "8p", "7p", "6m", "5m", "4m", "S", "6p", "F", "P", "g4", "1p"],
    ]
    passes = {
        1: [["9s", "C", "N"], ["W", "F", "P"], ["N", "W", "C"], ["S", "F", "P"]],
        2: [["4p", "5p", "6p"], ["3p", "8s", "g2"], ["7m", "8m", "9m"], ["8p", "7p", "1p"]],
    }
    ev: list[dict[str, Any]] = []
    for n, lists in passes.items():
        ev += [
            {"type": "charleston_pass", "seat": s, "pass": n, "tiles": t}
            for s, t in enumerate(lists)
        ]
    # pass 3 (first left): an passes on blind two of the three tiles binh passes to him
    ev += [
        {
            "type": "charleston_pass",
            "seat": 0,
            "pass": 3,
            "tiles": ["2m", {"tile": "S", "blind": True}, {"tile": "2p", "blind": True}],
        },
        {"type": "charleston_pass", "seat": 1, "pass": 3, "tiles": ["S", "S", "2p"]},
        {"type": "charleston_pass", "seat": 2, "pass": 3, "tiles": ["1s", "2s", "3s"]},
        {"type": "charleston_pass", "seat": 3, "pass": 3, "tiles": ["6m", "5m", "4m"]},
        {"type": "charleston_stop", "seat": 2},
        {"type": "discard", "seat": 0, "tile": "3m"},
        {"type": "draw", "seat": 1, "tile": "3m"},
        {"type": "discard", "seat": 1, "tile": "3m"},
        {"type": "draw", "seat": 2, "tile": "E"},
        {"type": "discard", "seat": 2, "tile": "E"},
        {"type": "pung", "seat": 0, "from": 2, "tile": "E", "with": ["E", "J"]},
        {"type": "discard", "seat": 0, "tile": "1m"},
        {"type": "draw", "seat": 1, "tile": "E"},
        {"type": "joker_exchange", "seat": 1, "tile": "E", "target": 0, "exposure": 0},
        {"type": "discard", "seat": 1, "tile": "7s"},
        {"type": "exhaustive_draw"},
    ]
    return {
        "format": "mjlog/1",
        "game_id": US_GAME,
        "hand_no": 1,
        "ruleset": "american",
        "players": list(PLAYERS),
        "dealer": 0,
        "started_at": "2026-03-01T18:30:00+07:00",
        "venue": "Hanoi",
        "options": {"card": "sample-original-1"},
        "start_hands": hands,
        "events": ev,
    }


def contributions(ids: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """(id, what it adds to T) as the chan engine records patterns (§7.1): the largest
    cước its điểm, every other instance its dịch, each gà its gà points."""
    cuoc = sorted((c for c in ids if not c.startswith("ga_")), key=lambda c: -DIEM[c][0])
    out = [(c, DIEM[c][0] if i == 0 else DIEM[c][1]) for i, c in enumerate(cuoc)]
    return tuple(out + [(g, GA_POINTS) for g in ids if g.startswith("ga_")])


def recorded_engine(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: object = None,
) -> HandReport:
    """A stand-in for the chan engine that takes the log's word (see the module doc)."""
    result = record.get("result") or {}
    winners = tuple(result.get("winners", ()))
    findings = tuple(
        Finding(
            i,
            ev["accused"],
            ev["code"],
            FindingClass.PLAYER_VIOLATION,
            f"reported by {record['players'][ev['seat']]}",
        )
        for i, ev in enumerate(record["events"])
        if ev["type"] == "announce" and ev.get("what") == "bao"
    )
    return HandReport(
        game_id=record["game_id"],
        hand_no=record["hand_no"],
        ruleset="chan",
        players=tuple(record["players"]),
        findings=findings,
        winners=winners,
        self_drawn=bool(winners),
        fan=result.get("fan"),
        raw_fan=result.get("fan"),
        patterns=contributions(result.get("patterns") or ()),
        liable=findings[0].seat if findings and winners else None,
        deltas=tuple(result["deltas"]),
        ended_by="win" if winners else "exhaustive_draw",
        dealer=record["dealer"],
        matches_recorded=True,
    )


@contextmanager
def chan_engine_stand_in() -> Iterator[None]:
    """The chan slot holds :func:`recorded_engine`; vn-160 and american are replayed as
    not supported whatever their engines' state, so the figures stay fixed."""
    saved = dict(engine.REGISTRY)
    engine.REGISTRY["chan"] = recorded_engine
    engine.REGISTRY.pop("vn-160", None)
    engine.REGISTRY.pop("american", None)
    try:
        yield
    finally:
        engine.REGISTRY.clear()
        engine.REGISTRY.update(saved)


def build(root: Path, *, replay: bool = True) -> Path:
    """Ingest both sittings into ``root`` and (with the stand-in engine) replay them."""
    path = root.parent / "chan-club.jsonl"
    enc = msgspec.json.Encoder()
    records = [*hk_hands(), vn160_hand(), american_hand(), *chan_hands()]
    path.write_bytes(b"".join(enc.encode(r) + b"\n" for r in records))
    summary = ingest([str(path)], root)
    assert not summary.quarantined, summary.messages
    if replay:
        with chan_engine_stand_in():
            replay_archive(root)
    return root


def build_with_the_chan_engine(root: Path) -> Path:
    """Three worked examples of rules/chan.md (X1 chíu ù = 9, X2 = 31, X3 xuông = 2, from
    tests/replay/test_chan_examples.py) ingested and replayed by the real chan engine, as
    `mjaudit ingest` and `mjaudit replay` would, each its own sitting."""
    from tests.replay.test_chan_examples import x1, x2, x3

    records = []
    for k, script in enumerate((x1, x2, x3), start=1):
        rec = script().record()
        rec.update(game_id=f"chan-worked-x{k}", hand_no=1)
        rec["started_at"] = f"2026-03-02T20:{10 * k:02d}:00+07:00"
        records.append(rec)
    path = root.parent / "chan-worked.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in records))
    summary = ingest([str(path)], root)
    assert not summary.quarantined, summary.messages
    replay_archive(root)
    return root
