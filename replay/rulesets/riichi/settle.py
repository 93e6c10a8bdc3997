"""Who pays whom at the end of a riichi hand, and the counters the next hand starts with.

A win: the discarder pays a ron, everyone pays a tsumo (the dealer double); the first
winner from the discarder (head-bump order) also takes the honba (300 a counter, 100 from
each player on a tsumo) and every riichi stick on the table; in a double ron each winner
is paid their own value. Pao: the player who fed the third dragon set (daisangen) or the
fourth wind set (daisuushii) pays the whole of a tsumo, half of a ron. An exhaustive draw:
3,000 points from the players not tenpai to those tenpai, or, when a player made nagashi
mangan, a mangan tsumo to them instead. An abortive draw pays nothing. Every riichi
declared this hand costs its 1,000-point stick. The dealer stays after a dealer win, a
draw with the dealer tenpai and an abortive draw; the honba then goes up (after a draw
too) and comes back to 0 after a non-dealer win; the sticks stay on the table until a win.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjaudit.parts.replay.rulesets.mahjong.melds import WinSource

PAO_YAKUMAN = frozenset({"daisangen", "daisuushi"})


@dataclass(frozen=True)
class Settlement:
    deltas: tuple[int, ...]
    dealer_stays: bool
    next_honba: int
    next_sticks: int
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    liable: int | None = None


def settle(hand) -> Settlement | None:  # type: ignore[no-untyped-def]
    """The hand's settlement; None when it is not settled (a false win, an abandon)."""
    n = 4
    deltas = [-1000 * k for k in hand.sticks_put]
    honba, dealer = hand.honba, hand.dealer
    table_sticks = hand.sticks + sum(hand.sticks_put)
    if hand.ended_by == "win":
        wins = hand.settled
        anchor = wins[0].discarder
        if anchor is not None:
            wins = sorted(wins, key=lambda c: (c.seat - anchor) % n)
        liable = None
        for i, c in enumerate(wins):
            score = c.score
            head = i == 0
            pao = hand.pao.get(c.seat)
            if pao is not None and not PAO_YAKUMAN & set(score.yakuman):
                pao = None
            if pao is not None:
                liable = pao
            bonus = 300 * honba if head else 0
            if c.source is WinSource.SELF_DRAW:
                payers = {
                    s: (score.main if s == dealer or c.seat == dealer else score.additional)
                    for s in range(n)
                    if s != c.seat
                }
                if pao is not None:
                    payers = {pao: sum(payers.values())}
                    payers[pao] += bonus
                else:
                    for s in payers:
                        payers[s] += bonus // 3
            else:
                if pao is not None and pao != c.discarder:
                    payers = {pao: score.main // 2, c.discarder: score.main // 2 + bonus}
                else:
                    payers = {c.discarder: score.main + bonus}
            for s, amount in payers.items():
                deltas[s] -= amount
                deltas[c.seat] += amount
            if head:
                deltas[c.seat] += 1000 * table_sticks
        stays = dealer in {c.seat for c in wins}
        return Settlement(tuple(deltas), stays, honba + 1 if stays else 0, 0, liable=liable)
    if hand.ended_by == "exhaustive_draw":
        tenpai = hand.tenpai()
        nagashi = hand.nagashi()
        if nagashi:
            for s in nagashi:
                for p in range(n):
                    if p != s:
                        amount = 4000 if s == dealer or p == dealer else 2000
                        deltas[p] -= amount
                        deltas[s] += amount
        elif 0 < len(tenpai) < n:
            for s in range(n):
                deltas[s] += 3000 // len(tenpai) if s in tenpai else -3000 // (n - len(tenpai))
        stays = dealer in tenpai
        return Settlement(
            tuple(deltas), stays, honba + 1, table_sticks, tuple(tenpai), tuple(nagashi)
        )
    if hand.ended_by == "abortive_draw":
        return Settlement(tuple(deltas), True, honba + 1, table_sticks)
    return None
