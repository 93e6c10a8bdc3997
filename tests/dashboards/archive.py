"""A small archive for the dashboard tests: synthetic exhaustive draws (hk-mahjongo) and
one hand-built hk-classic sitting with wins, a deal-in, violations, a limit hand and a
recorded result that differs from the rules, ingested and replayed the ordinary way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
from mjaudit.parts.ingest.pipeline import ingest
from mjaudit.parts.replay.archive.update import replay_archive
from mjaudit.parts.replay.engine.findings import HandReport

from bench.synthlog import records as synthetic_records
from tests.replay.logbuilder import Hand

GAME = "lotus-2026-02-01-T1"
PLAYERS = ["ann", "bob", "cat", "dan"]
E, S, W, N = 0, 1, 2, 3
SYNTHETIC_HANDS = 48


def _hand(dealer: int, hand_no: int) -> Hand:
    b = Hand(dealer=dealer, hand_no=hand_no, game_id=GAME, players=list(PLAYERS))
    b.fields.update(
        started_at=f"2026-02-01T{19 + hand_no // 4:02d}:{(hand_no % 4) * 15:02d}:00+07:00",
        venue="Lotus Club",
        table="T1",
    )
    return b


def baseline() -> Hand:
    """Hand 1: every kind of action, then bob self-draws (2 fan). The replayer test looks
    at it event by event."""
    b = _hand(E, 1)
    b.hand(S, "1m2m N 9s9s9s 4m5m6m 2p2p 7s8s")
    b.hand(N, "f3")
    b.flower(N, "f3").replacement(N)
    b.discard(E, "3m").chow(S, E, "3m", "1m2m3m").discard(S, "N")
    b.draw(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E, "5p").pung(W, E, "5p").discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    b.draw(S, "9s").concealed_kong(S, "9s").replacement(S).discard(S)
    b.draw(W, "5p").added_kong(W, "5p").replacement(W).discard(W)
    b.draw(N).discard(N)
    b.draw(E).discard(E)
    b.draw(S, "6s").win(S, "6s")
    return b


def _quick_win(dealer: int, hand_no: int, winner: int) -> Hand:
    """``winner`` wins on the dealer's first discard (E); the dealer's own win is a
    heavenly hand (a limit hand)."""
    b = _hand(dealer, hand_no)
    if winner == dealer:
        b.hand(winner, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E E")
        return b.win(winner, "E")
    b.hand(winner, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    return b.discard(dealer, "E").win(winner, "E", dealer)


def _late_win(dealer: int, hand_no: int, winner: int) -> Hand:
    """A round of plain turns, then ``winner`` wins on the dealer's E (all chows)."""
    b = _hand(dealer, hand_no).hand(winner, "2m3m4m 5p6p7p 3s4s5s 7s8s9s E")
    b.discard(dealer).turns((dealer + 1) % 4, 3).draw(dealer).discard(dealer, "E")
    return b.win(winner, "E", dealer)


def _recorded(b: Hand, previous: HandReport | None, wrong_deltas: bool = False) -> HandReport:
    """Record the result the rules give (or wrong payments), and return the report."""
    rep = b.replay(previous=previous)
    deltas = list(rep.deltas or [0, 0, 0, 0])
    if wrong_deltas:
        deltas = [deltas[0] - 4, deltas[1] + 4, *deltas[2:]]
    b.result(rep.winners, rep.fan, list(rep.extras.get("instances", ())), deltas)
    return rep


def sitting() -> list[dict[str, Any]]:
    """Six hands of one hk-classic sitting, dealers rotating as the rules say."""
    hands: list[Hand] = []
    prev = None

    def add(b: Hand, **kw: bool) -> None:
        nonlocal prev
        prev = _recorded(b, prev, **kw)
        hands.append(b)

    add(baseline())  # 1: bob self-draws; the deal passes to bob
    add(_late_win(S, 2, W))  # 2: cat wins on bob's discard (bob deals in); cat deals next
    b = _hand(W, 3).discard(W).discard(E)  # 3: ann discards out of turn (dan's turn)
    add(b.draw(N).discard(N).abandon())  # abandoned: cat stays dealer
    b = _hand(W, 4).hand(N, "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s", exact=True)
    add(b.discard(W).draw(N, "6s").win(N, "6s"))  # 4: dan's false win; cat stays
    add(_quick_win(W, 5, W))  # 5: cat's heavenly hand; cat stays
    add(_quick_win(W, 6, N), wrong_deltas=True)  # 6: dan wins, the payments recorded wrong
    return [b.record() for b in hands]


def write_logs(folder: Path) -> Path:
    path = folder / "club.jsonl"
    enc = msgspec.json.Encoder()
    with open(path, "wb") as f:
        for rec in [*synthetic_records(SYNTHETIC_HANDS, seed=3), *sitting()]:
            f.write(enc.encode(rec) + b"\n")
    return path


def build(root: Path, *, replay: bool = True) -> Path:
    """Ingest (and replay) the logs into ``root``; return ``root``."""
    logs = write_logs(root.parent)
    ingest([str(logs)], root)
    if replay:
        replay_archive(root)
    return root
