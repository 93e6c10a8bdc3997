"""Win test and completion enumerator for a ``vn-160`` hand holding khung (jokers, rules §1.2).

A khung stands for one tile of its domain (§0 "Sets", §1.2). The 34 playing kinds fall into
five *groups*: characters, dots, bamboo, winds, dragons, and every khung domain is a union of
groups (``BT`` all five, ``BM``/``BP``/``BS`` one suit, ``RU`` the three suits or, with
``ru_domain = any_tile``, all five, ``RW`` winds, ``RD`` dragons). ``RH`` stands for a flower,
never forms a set (§1.2) and is ignored here. So instead of trying every substitution
(up to 34^k), the search runs in two small steps:

1. which *numbers* of khung each group can receive: a tiny DP over the khung held
   (:func:`_group_loads`, at most a few hundred 5-tuples for eight khung);
2. for one group's natural counts and a number ``j`` of wild tiles, every completed count
   vector of that group that splits into sets (plus the pair, when the group's total is
   2 mod 3): a rank-by-rank DP over "chows still open" (:func:`_group_fills`), cached, that
   only ever places a wild tile where a set needs it.

A completion is a 34-count tuple: the naturals plus the kinds the khung stand for. The
scorer picks the reading with the largest total phán (§4 "Joker assignment"), which is why
every distinct completion is returned rather than one.

Structures (§4): standard (4 − ``n_melds`` concealed sets and a pair), Thập Tam Thái Bảo
(no declared set) and, only with ``allow_pe_pe``, seven pairs of distinct kinds.

By default a khung never makes a fifth copy of a kind here (``max_copies = 4``, the tile
set holds four, §1.1). The rules set no such limit (§1.2: a khung stands for any tile of its
domain), so the scorer (:mod:`replay.vn160.scoring`) passes ``max_copies=None``; the capped
default is kept for quick callers such as the simulator's bots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, product

from mjaudit.parts.replay.rulesets.mahjong.counts import N_KINDS, ORPHANS

#: The five groups: (first kind, number of kinds, chows allowed).
_GROUPS: tuple[tuple[int, int, bool], ...] = (
    (0, 9, True),  # characters 1m..9m
    (9, 9, True),  # dots 1p..9p
    (18, 9, True),  # bamboo 1s..9s
    (27, 4, False),  # winds E S W N
    (31, 3, False),  # dragons C F P
)
_M, _P, _S, _W, _D = range(5)
_ALL = (_M, _P, _S, _W, _D)

#: Group indices each khung can stand in (§1.2); RH has none (it is a flower joker).
_DOMAINS: dict[str, tuple[int, ...]] = {
    "BT": _ALL,
    "BP": (_P,),
    "BS": (_S,),
    "BM": (_M,),
    "RH": (),
    "RU": (_M, _P, _S),
    "RD": (_D,),
    "RW": (_W,),
}
KHUNG_CODES: tuple[str, ...] = tuple(_DOMAINS)

_RU_DOMAINS = {"suit": (_M, _P, _S), "suit_tiles": (_M, _P, _S), "any_tile": _ALL}

Counts = tuple[int, ...]


def _base_code(code: str) -> str:
    """``BT2`` / ``RU3`` (option ``khung_sets``, §1.2) → ``BT`` / ``RU``."""
    base = code[:-1] if code[-1:] in "23" and len(code) == 3 else code
    if base not in _DOMAINS:
        raise ValueError(f"not a khung code: {code!r}")
    return base


def _groups_of(code: str, ru_domain: str) -> tuple[int, ...]:
    base = _base_code(code)
    if base == "RU":
        try:
            return _RU_DOMAINS[ru_domain]
        except KeyError:
            raise ValueError(f"unknown ru_domain {ru_domain!r}") from None
    return _DOMAINS[base]


def khung_domain(code: str, ru_domain: str = "suit") -> frozenset[int]:
    """The tile kinds (0..33) a khung may stand for; empty for ``RH`` (§1.2)."""
    out: set[int] = set()
    for g in _groups_of(code, ru_domain):
        first, size, _ = _GROUPS[g]
        out.update(range(first, first + size))
    return frozenset(out)


@cache
def _group_loads(domains: tuple[tuple[int, ...], ...]) -> frozenset[tuple[int, ...]]:
    """Every way to spread the khung over the five groups, as counts per group."""
    loads = {(0, 0, 0, 0, 0)}
    for dom in domains:
        loads = {tuple(n + (g == i) for i, n in enumerate(load)) for load in loads for g in dom}
    return frozenset(loads)


@cache
def _group_fills(naturals: Counts, wild: int, chows: bool, cap: int) -> frozenset[Counts]:
    """Completed counts of one group: ``naturals`` plus exactly ``wild`` tiles, all in sets.

    The group holds the pair iff its total is 2 mod 3 (1 mod 3 is impossible). The DP walks
    the ranks keeping the chows opened one and two ranks back; at each rank it chooses new
    chows (at most two: three equal chows read as three pungs), pungs and the pair, and the
    difference between the rank's total and its naturals is paid from the wild budget.
    """
    total = sum(naturals) + wild
    if total % 3 == 1:
        return frozenset()
    n = len(naturals)

    @cache
    def walk(r: int, open1: int, open2: int, pair: int, budget: int) -> frozenset[Counts]:
        # open1: chows started at r - 1, open2: started at r - 2; both cover rank r.
        if r == n:
            ok = open1 == 0 and open2 == 0 and pair == 0 and budget == 0
            return frozenset({()}) if ok else frozenset()
        need = naturals[r]
        top = min(need + budget, cap)
        out: set[Counts] = set()
        base = open1 + open2
        for new in range(3 if chows and r <= n - 3 else 1):
            for q in range(pair + 1):
                p = 0
                while True:
                    here = base + new + 2 * q + 3 * p
                    if here > top:
                        break
                    if here >= need:
                        rest = walk(r + 1, new, open1, pair - q, budget - (here - need))
                        out.update((here, *tail) for tail in rest)
                    p += 1
        return frozenset(out)

    return walk(0, 0, 0, 1 if total % 3 == 2 else 0, wild)


def _prepare(
    naturals: Sequence[int], khung: Iterable[str], n_melds: int, ru_domain: str
) -> tuple[Counts, tuple[tuple[int, ...], ...]] | None:
    """Validate; return (naturals, khung domains sorted) or None if the tile count is wrong."""
    nat = tuple(int(x) for x in naturals)
    if len(nat) != N_KINDS or min(nat) < 0:
        raise ValueError("naturals must be 34 non-negative counts")
    if not 0 <= n_melds <= 4:
        raise ValueError(f"n_melds must be 0..4, got {n_melds}")
    domains = tuple(sorted(d for d in (_groups_of(c, ru_domain) for c in khung) if d))
    if sum(nat) + len(domains) != 14 - 3 * n_melds:
        return None
    return nat, domains


def _split(nat: Counts) -> tuple[Counts, ...]:
    return tuple(nat[first : first + size] for first, size, _ in _GROUPS)


def _standard(
    nat: Counts, domains: tuple[tuple[int, ...], ...], cap: int, first_only: bool
) -> set[Counts]:
    parts = _split(nat)
    out: set[Counts] = set()
    for load in _group_loads(domains):
        pairs = 0
        options: list[frozenset[Counts]] = []
        for g, (part, wild) in enumerate(zip(parts, load, strict=True)):
            r = (sum(part) + wild) % 3
            if r == 1:
                break
            pairs += r == 2
            fills = _group_fills(part, wild, _GROUPS[g][2], cap)
            if not fills:
                break
            options.append(fills)
        else:
            if pairs != 1:
                continue
            for combo in product(*options):
                out.add(sum(combo, ()))
                if first_only:
                    return out
    return out


def _fits(needs: Sequence[int], domains: tuple[tuple[int, ...], ...]) -> bool:
    """True if the khung can be handed out so that group g receives exactly ``needs[g]``."""
    return tuple(needs) in _group_loads(domains)


def _group_need(kinds: Iterable[int]) -> list[int]:
    needs = [0] * 5
    for t in kinds:
        needs[next(g for g, (f, s, _) in enumerate(_GROUPS) if f <= t < f + s)] += 1
    return needs


def _thirteen_orphans(nat: Counts, domains: tuple[tuple[int, ...], ...]) -> set[Counts]:
    """§4 item 2: one of each of the 13 orphans plus a second of one, khung allowed."""
    if any(nat[t] for t in range(N_KINDS) if t not in ORPHANS):
        return set()
    if any(nat[t] > 2 for t in ORPHANS) or sum(nat[t] == 2 for t in ORPHANS) > 1:
        return set()
    missing = [t for t in ORPHANS if nat[t] == 0]
    has_double = any(nat[t] == 2 for t in ORPHANS)
    out: set[Counts] = set()
    for extra in [None] if has_double else ORPHANS:
        added = missing if extra is None else [*missing, extra]
        if len(added) == len(domains) and _fits(_group_need(added), domains):
            c = list(nat)
            for t in added:
                c[t] += 1
            out.add(tuple(c))
    return out


def _seven_pairs(nat: Counts, domains: tuple[tuple[int, ...], ...]) -> set[Counts]:
    """§4 item 3 (option ``allow_pe_pe``): seven pairs of distinct kinds, khung allowed."""
    if max(nat) > 2:
        return set()
    singles = _group_need(t for t in range(N_KINDS) if nat[t] == 1)
    out: set[Counts] = set()
    for load in _group_loads(domains):
        extra = [w - s for w, s in zip(load, singles, strict=True)]
        if any(e < 0 or e % 2 for e in extra):
            continue
        choices = []
        for g, e in enumerate(extra):
            first, size, _ = _GROUPS[g]
            free = [t for t in range(first, first + size) if nat[t] == 0]
            choices.append(list(combinations(free, e // 2)))
        for picks in product(*choices):
            c = [2 if n else 0 for n in nat]
            for group in picks:
                for t in group:
                    c[t] = 2
            if sum(c) == 14:
                out.add(tuple(c))
    return out


def _solve(
    naturals: Sequence[int],
    khung: Iterable[str],
    n_melds: int,
    ru_domain: str,
    allow_pe_pe: bool,
    max_copies: int | None,
    first_only: bool,
) -> set[Counts]:
    prepared = _prepare(naturals, khung, n_melds, ru_domain)
    if prepared is None:
        return set()
    nat, domains = prepared
    cap = 14 if max_copies is None else max_copies
    if max(nat) > cap:
        return set()
    out = _standard(nat, domains, cap, first_only)
    if out and first_only:
        return out
    if n_melds == 0:
        out |= _thirteen_orphans(nat, domains)
        if allow_pe_pe:
            out |= _seven_pairs(nat, domains)
    return out


def completions(
    naturals: Sequence[int],
    khung: Iterable[str],
    n_melds: int = 0,
    ru_domain: str = "suit",
    *,
    allow_pe_pe: bool = False,
    max_copies: int | None = 4,
) -> frozenset[Counts]:
    """Every distinct 34-count tuple the hand can become by reading its khung (§4).

    ``naturals`` is the 34-count of the concealed natural tiles, winning tile included;
    ``khung`` the khung codes held (``RH`` is ignored, set suffixes such as ``BT2`` are
    accepted); ``n_melds`` the declared sets. Each returned tuple is a §4 winning structure
    (standard, thirteen orphans, or seven pairs with ``allow_pe_pe``). Empty when the tile
    count is not 14 − 3·``n_melds`` or nothing fits. ``ru_domain`` is ``suit``/``suit_tiles``
    (default, §1.2 [D]) or ``any_tile``.
    """
    return frozenset(_solve(naturals, khung, n_melds, ru_domain, allow_pe_pe, max_copies, False))


def is_winning(
    naturals: Sequence[int],
    khung: Iterable[str],
    n_melds: int = 0,
    ru_domain: str = "suit",
    *,
    allow_pe_pe: bool = False,
    max_copies: int | None = 4,
) -> bool:
    """True if some reading of the khung makes a §4 winning structure (see :func:`completions`).

    Stops at the first standard completion found instead of listing them all.
    """
    return bool(_solve(naturals, khung, n_melds, ru_domain, allow_pe_pe, max_copies, True))
