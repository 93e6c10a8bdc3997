"""The history-dependent violations of chan.md §10.4-§10.6: what each player could have done.

One :class:`PlayerHistory` per seat remembers the declined eat opportunities (§10.1), the
discards, the chắn/cạ eats and the pending "remaining copy" of rules 4, 5, 8 and 9; the
replay feeds it every eat, discard and win and gets back the codes completed by that event.
Hands passed in are ``H(p)`` immediately **before** the event (§10.1). Pure bookkeeping: no
table state lives here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mjaudit.parts.replay.rulesets.chan.cards import CC, rank, same_rank_others, suit
from mjaudit.parts.replay.rulesets.chan.options import ChanOptions

Hit = tuple[str, str]  # (code, message)


@dataclass
class PlayerHistory:
    declined_chan: dict[str, int] = field(default_factory=dict)  # X -> event of the decline
    declined_ca: dict[int, int] = field(default_factory=dict)  # rank -> event of the decline
    discarded: Counter[str] = field(default_factory=Counter)
    xe_chan: set[str] = field(default_factory=set)  # rule 4: X discarded from >= 2 copies
    chan_eaten: set[str] = field(default_factory=set)  # rule 6
    tach_chan: set[str] = field(default_factory=set)  # rule 5: A split for a cạ eat
    tach_ca: set[str] = field(default_factory=set)  # rule 9: the remaining B
    xe_ca: list[tuple[str, frozenset[str]]] = field(default_factory=list)  # rule 8: (Y, Zs)
    ca_eat_ranks: dict[int, int] = field(default_factory=dict)  # rule 7: rank -> event
    whole_ca_ranks: dict[int, int] = field(default_factory=dict)  # rule 7: rank -> event
    rule7_done: bool = False
    doi_cho: frozenset[str] | None = None  # rule 10: WS before the pending cạ eat
    chi_rong_chance: int | None = None  # U_CHI_RONG: a discard that could change the wait
    bon_third: set[str] = field(default_factory=set)  # ăn bòn: 3rd eaten with a dealt copy
    an_bon: set[str] = field(default_factory=set)  # ăn bòn completed by eating the 4th


def decline(h: PlayerHistory, x: str, index: int, hand: Counter[str]) -> None:
    """Record a declined opportunity O on X (§10.1): could eat as chắn / as cạ."""
    if hand[x] >= 1:
        h.declined_chan.setdefault(x, index)
    if x != CC and any(hand[y] for y in same_rank_others(x)):
        h.declined_ca.setdefault(rank(x), index)


def _rule7_match(h: PlayerHistory, r: int, other: dict[int, int], opts: ChanOptions) -> bool:
    if h.rule7_done or not other:
        return False
    return opts.an_ca_danh_ca_scope == "any_rank" or r in other


def on_eat(
    h: PlayerHistory, x: str, a: str, hand: Counter[str], dealt: Counter[str], opts: ChanOptions
) -> list[Hit]:
    """Codes completed by p eating X with hand card A (rules 1, 2, 4, 5, 7, 8, 9)."""
    hits: list[Hit] = []
    is_ca = x != a
    rule1 = False
    if x in h.declined_chan:
        hits.append(
            ("BO_AN_CHAN", f"eats {x} after declining it as a chắn at #{h.declined_chan[x]}")
        )
        del h.declined_chan[x]
        rule1 = True
    elif opts.bo_an_chan_strict and is_ca and a in h.declined_chan:
        hits.append(
            ("BO_AN_CHAN", f"eats with {a} after declining {a} as a chắn at #{h.declined_chan[a]}")
        )
        del h.declined_chan[a]
        rule1 = True
    if is_ca and rank(x) in h.declined_ca and not rule1:
        at = h.declined_ca.pop(rank(x))
        hits.append(("AN_CHON_CA", f"cạ eat of rank {rank(x)} after declining a cạ of it at #{at}"))
    if not is_ca and x in h.xe_chan:
        hits.append(("XE_CHAN", f"chắn eat of {x} after discarding {x} from a chắn"))
        h.xe_chan.discard(x)
    elif is_ca and a in h.xe_chan:
        hits.append(("XE_CHAN", f"cạ eat with {a} after discarding {a} from a chắn"))
        h.xe_chan.discard(a)
    if a in h.tach_chan:
        hits.append(("TACH_CHAN_AN_CA", f"eats with {a}, the rest of a chắn split for a cạ eat"))
        h.tach_chan.discard(a)
    if is_ca:
        for y, zs in h.xe_ca:
            if a in zs and rank(y) == rank(a) and suit(y) != suit(a):
                hits.append(("XE_CA_AN_CA", f"cạ eat with {a} after tearing the cạ {y} {a}"))
                h.xe_ca.remove((y, zs))
                break
    if a in h.tach_ca:
        hits.append(("TACH_CA_AN_CA", f"eats with {a}, the rest of a cạ split for a cạ eat"))
        h.tach_ca.discard(a)
    if is_ca:
        if _rule7_match(h, rank(x), h.whole_ca_ranks, opts):
            hits.append(("AN_CA_DANH_CA", "cạ eat after discarding a whole cạ"))
            h.rule7_done = True
        h.ca_eat_ranks.setdefault(rank(x), 0)
        if hand[a] >= 2:
            h.tach_chan.add(a)
        elif hand[a] == 1:
            h.tach_ca.update(b for b in same_rank_others(a) if hand[b])
    else:
        h.chan_eaten.add(x)
        if dealt[x] == 2 and hand[x] == 2 and x not in h.bon_third:
            h.bon_third.add(x)  # ăn bòn: one dealt copy stays in hand
        elif x in h.bon_third and hand[x] == 1:
            h.an_bon.add(x)
    return hits


def on_discard(h: PlayerHistory, y: str, hand: Counter[str], opts: ChanOptions) -> list[Hit]:
    """Codes completed by p discarding Y (rules 1, 3, 5, 6, 7, 9) and the records of 4, 8."""
    hits: list[Hit] = []
    if y in h.declined_chan:
        hits.append(
            ("BO_AN_CHAN", f"discards {y} after declining it as a chắn at #{h.declined_chan[y]}")
        )
        del h.declined_chan[y]
    if h.discarded[y]:
        hits.append(("DANH_CA_CHAN", f"discards a second {y}"))
    if y in h.tach_chan:
        hits.append(("TACH_CHAN_AN_CA", f"discards {y}, the rest of a chắn split for a cạ eat"))
        h.tach_chan.discard(y)
    if y in h.chan_eaten:
        hits.append(("AN_CHAN_XE_CHAN", f"discards {y} after a chắn eat of {y}"))
        h.chan_eaten.discard(y)
    whole = any(h.discarded[b] for b in same_rank_others(y))
    if whole:
        if _rule7_match(h, rank(y), h.ca_eat_ranks, opts):
            hits.append(("AN_CA_DANH_CA", f"discards a whole cạ of rank {rank(y)} after a cạ eat"))
            h.rule7_done = True
        h.whole_ca_ranks.setdefault(rank(y), 0)
    if y in h.tach_ca:
        hits.append(("TACH_CA_AN_CA", f"discards {y}, the rest of a cạ split for a cạ eat"))
        h.tach_ca.discard(y)
    if hand[y] >= 2:
        h.xe_chan.add(y)
    zs = frozenset(z for z in same_rank_others(y) if hand[z])
    if zs:
        h.xe_ca.append((y, zs))
    h.discarded[y] += 1
    return hits


def on_win(h: PlayerHistory, w: str | None, hand: Counter[str]) -> list[Hit]:
    """Win parts (c) of rules 5 and 9: winning on the rank of a split chắn / cạ still held."""
    if w is None or w == CC:
        return []
    hits: list[Hit] = []
    for a in sorted(h.tach_chan):
        if rank(a) == rank(w) and hand[a]:
            hits.append(("TACH_CHAN_AN_CA", f"wins on {w} while holding {a} of a split chắn"))
    for b in sorted(h.tach_ca):
        if rank(b) == rank(w) and hand[b]:
            hits.append(("TACH_CA_AN_CA", f"wins on {w} while holding {b} of a split cạ"))
    return hits
