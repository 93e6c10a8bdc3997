"""``mjaudit score --ruleset chan``: one Chắn win valued in điểm, without a log.

Notation (chan.md §1.1 codes, as in the log): the winner's concealed cards, codes apart
or run together (``7n7n7n 3v3v CCCC``), the winning card last (or ``--win``), and the
pairs on the mat (E, §2) in brackets:

* ``[5v5v]`` or ``[eat 4n4s]``: a pair made by eating (a chắn or a cạ);
* ``[bon 6v6v]``: the chắn of an ăn bòn (dealt two, ate the third with one, §7.2);
* ``[chiu 7n]``: a quad taken by chíu (counts for ``co_chiu``);
* ``[khai CC]``: an exposed thiên khai quad.

Who won how: ``--self-draw`` (the winner drew it: chì) or ``--from SEAT`` (the seat that
drew it, or for a chíu ù the owner of the cửa); ``-o via=chiu`` (chíu ù), ``-o via=deal``
(thiên ù, the dealer's 20 cards), ``-o via=discard`` (ù on a discarded card: ``U_LAO``).
What the cards cannot show: ``-o thong=true`` (won the previous hand validly),
``-o first_draw=true`` (địa ù), ``-o thien_khai=CC`` (identities dealt all four),
``-o treo_tranh=true`` (the winner's treo tranh or trái vỉ, §9 case C); ``--liable SEAT``
is a player caught for an error 1-9 (§9 case B: pays for everyone). The spoken list is
``-o cuoc=chiu_u,bach_thu,tom:2,leo`` (``xuong`` or empty for xuông); without it the
hand's best declaration (§7.6) is scored. Every other ``-o`` is a §12 option.

The engine's own rules do the rest: :mod:`replay.chan.combos` (10 pairs, bạch thủ),
:func:`replay.chan.cuoc.detect` and :func:`~replay.chan.cuoc.score` (cước, gà, §7.1),
:mod:`replay.chan.declaration` (xướng sai) and :func:`replay.chan.settlement.settle`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from mjaudit.parts.replay.engine.notation import (
    NotationError,
    Piece,
    option_values,
    piece_codes,
    pieces,
    read_options,
    refuse_mahjong_flags,
)
from mjaudit.parts.replay.engine.scorecard import (
    PatternLine,
    ScoreReport,
    ScoreRequest,
    roles_of,
)
from mjaudit.parts.replay.rulesets.chan.cards import (
    CARDS,
    CC,
    count_red,
    is_chan,
    is_pair,
    leo_count,
    tom_count,
)
from mjaudit.parts.replay.rulesets.chan.combos import (
    Exposed,
    arrange,
    is_bach_thu,
    is_bach_thu_chi,
    is_win,
    max_chan,
    plus,
)
from mjaudit.parts.replay.rulesets.chan.cuoc import (
    Score,
    WinFacts,
    auto_value,
    detect,
    score,
    table_for,
    valid_declarations,
)
from mjaudit.parts.replay.rulesets.chan.declaration import Declaration, valid_part, wrong_reasons
from mjaudit.parts.replay.rulesets.chan.options import OPTION_NAMES, ChanOptions, options_for
from mjaudit.parts.replay.rulesets.chan.settlement import Outcome, settle

_CODE = re.compile(r"(?P<run>[2-9]+)(?P<suit>[vns])|CC")
_CARDS = "a card code (2v-9v, 2n-9n, 2s-9s or CC)"
_WORDS = ("eat", "bon", "chiu", "khai")
_VIAS = ("stock", "chiu", "deal", "discard")
# Facts of the win the cards cannot show, given as -o KEY=VALUE (not §12 options).
_FACTS = ("cuoc", "via", "thong", "first_draw", "thien_khai", "treo_tranh")
_SEAT_LETTERS = ("E", "S", "W", "N")


@dataclass(frozen=True)
class ChanHand:
    """The winner's cards: concealed (the winning card apart), the mat, the ăn bòn chắn."""

    concealed: Counter[str]
    w: str | None
    exposed: tuple[Exposed, ...]
    bon: frozenset[str]

    @property
    def k(self) -> Counter[str]:
        """The 20 cards K of §7.2."""
        out = Counter(self.concealed) if self.w is None else plus(self.concealed, self.w)
        for e in self.exposed:
            out.update(e.cards)
        return out


def _bracket(piece: Piece) -> Exposed:
    word = piece.word or "eat"
    if word not in _WORDS:
        raise NotationError(
            word,
            "a group on the mat: [eat …], [bon …], [chiu X] or [khai X]",
            position=piece.position + 1,
        )
    cards = tuple(piece_codes(piece, _CODE, _CARDS))
    if word in ("chiu", "khai"):
        if len(cards) == 1:
            cards *= 4
        if len(cards) != 4 or len(set(cards)) != 1:
            raise NotationError(
                piece.text, f"[{word} X]: four copies of one card", position=piece.position
            )
        return Exposed(cards, word, cards[0])
    if len(cards) != 2 or not is_pair(*cards) or (word == "bon" and not is_chan(*cards)):
        want = "a chắn (two copies)" if word == "bon" else "a chắn or a cạ (two cards of one rank)"
        raise NotationError(piece.text, f"{want} (§1.4)", position=piece.position)
    return Exposed(cards, "eat")


def parse_hand(text: str, win: str | None, deal: bool) -> ChanHand:
    """The cards of the notation, counted: 19 + the winning card (20 dealt for thiên ù)."""
    loose: list[str] = []
    exposed: list[Exposed] = []
    bon: set[str] = set()
    for piece in pieces(text):
        if piece.bracket:
            e = _bracket(piece)
            exposed.append(e)
            if piece.word == "bon":
                bon.add(e.cards[0])
        else:
            loose += piece_codes(piece, _CODE, _CARDS)
    w: str | None = None
    if not deal:
        if win is not None:
            w = win.strip()
            if w not in CARDS:
                raise NotationError(win, _CARDS, where="--win")
        elif loose:
            w = loose.pop()
    hand = ChanHand(Counter(loose), w, tuple(exposed), frozenset(bon))
    k = hand.k
    total = sum(k.values())
    if total != 20:
        what = "the dealer's 20 dealt cards" if deal else "20 cards: 19 and the winning card"
        raise NotationError(text, f"{what} (§4.1), not {total}")
    over = [c for c in CARDS if k[c] > 4]
    if over:
        raise NotationError(over[0], f"at most 4 copies of a card (§1.1), not {k[over[0]]}")
    return hand


def _seat(text: str, n: int, where: str) -> int:
    """``s1``, ``1`` or the seat letters E S W N (seats 0-3 in turn order)."""
    t = text.strip().upper()
    if t in _SEAT_LETTERS[:n]:
        return _SEAT_LETTERS.index(t)
    if t.removeprefix("S").isdigit() and int(t.removeprefix("S")) < n:
        return int(t.removeprefix("S"))
    raise NotationError(text, f"a seat s0-s{n - 1} (or E S W N)", where=where)


def _declared(text: object, opts: ChanOptions) -> Counter[str]:
    """``chiu_u,bach_thu,tom:2``: ids with counts; an id outside the table is an error."""
    known = table_for(opts)
    out: Counter[str] = Counter()
    items = text if isinstance(text, list) else re.split(r"[,\s]+", str(text).strip())
    for item in map(str, items):
        if not item:
            continue
        cid, _, n = item.partition(":")
        if cid not in known:
            raise NotationError(
                cid, "a cước id of §7.3: " + ", ".join(known), where="--option cuoc"
            )
        if n and not (n.isdigit() and int(n) >= 1):
            raise NotationError(item, "id or id:count with a count >= 1", where="--option cuoc")
        out[cid] += int(n) if n else 1
    return out


def _flag(facts: Mapping[str, object], key: str) -> bool | None:
    value = facts.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise NotationError(str(value), "true or false", where=f"--option {key}")


@dataclass(frozen=True)
class _Win:
    """How the card was won, from the flags."""

    seat: int
    via: str
    chi: bool
    liable: int | None


def _how(request: ScoreRequest, facts: Mapping[str, object], n: int) -> _Win:
    via = str(facts.get("via", "stock"))
    if via not in _VIAS:
        raise NotationError(via, "stock, chiu, deal or discard", where="--option via")
    seat = _seat(request.seat, n, "--seat")
    if via == "deal":
        if _seat(request.dealer, n, "--dealer") != seat:
            raise NotationError(
                request.seat, "the dealer's seat: thiên ù is the dealer's", where="--seat"
            )
    elif request.self_draw == (request.from_seat is not None):
        raise NotationError(
            request.from_seat or "",
            "--self-draw (the winner drew the card: chì) or --from SEAT (who drew it, or the "
            "cửa a chíu ù took it from), one of them",
            where="--from",
        )
    elif request.from_seat is not None and _seat(request.from_seat, n, "--from") == seat:
        raise NotationError(request.from_seat, "another seat (or --self-draw)", where="--from")
    liable = None if request.liable is None else _seat(request.liable, n, "--liable")
    if liable == seat:
        raise NotationError(
            request.liable or "", "a seat other than the winner's", where="--liable"
        )
    return _Win(seat, via, request.self_draw and via != "deal", liable)


def _facts(hand: ChanHand, how: _Win, facts: Mapping[str, object], opts: ChanOptions) -> WinFacts:
    """:class:`WinFacts` as the replay gathers them, from the notation instead of a history."""
    k = hand.k
    khai = {e.eaten for e in hand.exposed if e.how == "khai"}
    dealt4 = {c for c in re.split(r"[,\s]+", str(facts.get("thien_khai") or "")) if c}
    unknown = sorted(dealt4 - set(CARDS))
    if unknown:
        raise NotationError(unknown[0], _CARDS, where="--option thien_khai")
    thien_khai = sum(
        1
        for c in CARDS
        if (c in dealt4 or c in khai)
        and k[c] == 4
        and (not opts.thien_khai_must_expose or c in khai)
    )
    an_bon = {
        x
        for x in hand.bon
        if sum(1 for e in hand.exposed if e.how == "eat" and e.cards == (x, x)) >= 2
    }
    w, conc = hand.w, hand.concealed
    bt = btc = False
    if w is not None and how.via != "deal":
        bt = is_bach_thu(conc, hand.exposed, w)
        btc = is_bach_thu_chi(conc, hand.exposed, w)
    first = bool(_flag(facts, "first_draw"))
    return WinFacts(
        k=k,
        w=w,
        via="stock" if how.via == "discard" else how.via,
        chi=how.chi,
        dia_u=first and (how.chi or how.via == "chiu"),
        thong=_flag(facts, "thong"),
        thien_khai=thien_khai,
        an_bon=len(an_bon),
        u_bon=w is not None and w in hand.bon and conc[w] == 1 and w not in an_bon,
        chiu=sum(1 for e in hand.exposed if e.how == "chiu"),
        bach_thu=bt,
        bach_thu_chi=btc,
        eaten_chan_5v=any(e.how == "eat" and e.cards == ("5v", "5v") for e in hand.exposed),
        max_chan=max_chan(plus(conc, w) if w else conc, hand.exposed),
    )


def _reading(hand: ChanHand, facts: WinFacts, opts: ChanOptions) -> str:
    conc = plus(hand.concealed, hand.w) if hand.w else hand.concealed
    a = arrange(conc)
    mat = [e.cards for e in hand.exposed]
    chan = [p for e in mat for p in zip(e[::2], e[1::2], strict=True) if p[0] == p[1]] + list(
        a.chan
    )
    ca = [(e[0], e[1]) for e in mat if len(e) == 2 and e[0] != e[1]] + list(a.ca)
    wait = (
        "bạch thủ chi"
        if facts.bach_thu_chi
        else "bạch thủ"
        if facts.bach_thu
        else "thiên ù"
        if facts.via == "deal"
        else "wide"
    )
    k = facts.k

    def pairs(ps: list[tuple[str, str]]) -> str:
        return ", ".join(f"{x} {y}" if x == CC else x + y for x, y in ps) or "-"

    return (
        f"chắn {pairs(chan)} ({len(chan)}); cạ {pairs(ca)} ({len(ca)}); wait {wait}; "
        f"red {count_red(k, opts.red_cards)}, tôm {tom_count(k)}, lèo {leo_count(k)}"
    )


def section(line_id: str, table: Mapping[str, object]) -> str:
    """Where the rules define a line of the score (the docs' rules page cites the same):
    xuông §7.1, a cước of ``table`` §7.3, anything else (a gà) §7.5."""
    if line_id == "xuong":
        return "chan §7.1"
    return "chan §7.3" if line_id in table else "chan §7.5"


def _patterns(s: Score, opts: ChanOptions) -> tuple[PatternLine, ...]:
    table = table_for(opts)
    out = []
    for i, (cid, pts) in enumerate(s.parts):
        if cid in table:
            c = table[cid]
            role = (
                "nothing else declared"
                if cid == "xuong"
                else ("điểm, the largest" if i == 0 else "dịch")
            )
            out.append(PatternLine(cid, pts, section(cid, table), f"{c.name}: {role}"))
        else:
            note = f"gà: {opts.ga_points} điểm"
            out.append(PatternLine(cid, pts, section(cid, table), note))
    return tuple(out)


def _best(present: Counter[str], opts: ChanOptions) -> Counter[str]:
    """The declaration worth ``auto_value`` (§7.6): every cước present, hoa/cá or chì+bạch thủ."""
    return max(valid_declarations(present), key=lambda d: score(d, opts).total)


def _case_text(case: str, auto: int, opts: ChanOptions, n: int) -> str:
    """What §9 case ``case`` makes each seat pay, in words (the amounts are the payments)."""
    return {
        "A": "each other player pays T to the winner",
        "B": f"the caught player (--liable) alone pays {n - 1} × T; the others pay 0",
        "C": "the winner's treo tranh or trái vỉ: the win scores 0, nobody pays",
        "D": "the win is void: the winner pays the declared total to each payee; a caught "
        f"player (--liable) also pays the hand's true value {auto} to each payee",
        "E": f"the win is void: the winner pays {opts.intentional_penalty} to each other player",
        "F": f"the win is void: the winner pays {opts.penalty_4_11} to each other player",
    }.get(case, case)


def score_chan(ruleset_id: str, request: ScoreRequest) -> ScoreReport:
    """The :data:`~replay.scorecard.Scorer` of ``chan``: T in điểm (§7.1) and §9 payments."""
    given = option_values(request.options)
    facts = {k: v for k, v in given.items() if k in _FACTS}
    rules = {k: v for k, v in request.options.items() if k not in _FACTS}
    opts = read_options(rules, OPTION_NAMES, options_for, "chan", also=_FACTS)
    refuse_mahjong_flags(request, "chắn is a card game (no flowers, kongs or wall)")
    n = opts.players
    how = _how(request, facts, n)
    hand = parse_hand(request.hand, request.win, how.via == "deal")
    if how.via == "chiu" and hand.w is not None and hand.concealed[hand.w] < 3:
        raise ValueError(
            f"a chíu ù on {hand.w} needs its 3 other copies in hand (U_LAO, §10.6: the "
            f"winner pays {opts.intentional_penalty} to each other player)"
        )
    if not is_win(plus(hand.concealed, hand.w) if hand.w else hand.concealed, hand.exposed):
        raise ValueError(
            "the 20 cards are not 10 pairs with at least 6 chắn (§4.1): declaring it is U_LAO "
            f"(§10.6), the winner pays {opts.intentional_penalty} to each other player"
        )
    wf = _facts(hand, how, facts, opts)
    present = detect(wf, opts)
    auto = auto_value(present, opts)
    notes: list[str] = []
    unverifiable = [e.id for e in opts.extra_cuoc]
    if "cuoc" in facts:
        decl = Declaration(_declared(facts["cuoc"], opts))
        if wf.thong is None and decl.cuoc["thong"]:
            unverifiable.append("thong")
            notes.append("thông declared without -o thong=true|false: accepted (THONG_UNVERIFIED)")
    else:
        decl = Declaration(_best(present, opts))
        notes.append(f"no -o cuoc=…: the best declaration is scored (§7.6, auto_value {auto})")
    declared = score(decl.cuoc, opts)
    reasons = wrong_reasons(decl, present, opts, unverifiable)
    void: str | None = None
    minimum = opts.min_points_4_11 if opts.mode_4_11 else None
    if how.via == "discard":
        void = "U_LAO"
        notes.append("won on a card discarded from a hand, not by chíu: U_LAO (§10.6, §9 case E)")
    elif minimum is not None and declared.total < minimum:
        void = "U_4_11_THIEU_DIEM"
        notes.append(f"Ù 4-11: declared {declared.total} < {minimum} (§10.8, §9 case F)")
    elif reasons:
        void = "XUONG_SAI"
        notes.append("XUONG_SAI (§10.7, §9 case D): " + "; ".join(reasons))
    zero = bool(_flag(facts, "treo_tranh"))
    outcome = Outcome(
        "win",
        winner=how.seat,
        t_decl=declared.total,
        auto_value=auto,
        valid_value=score(valid_part(decl, present), opts).total,
        void=void,
        zero=zero,
        caught=() if how.liable is None else (how.liable,),
    )
    st = settle(outcome, n, opts)
    notes.append(f"§9 case {st.case}: {_case_text(st.case, auto, opts, n)}")
    present_text = ", ".join(f"{c}×{k}" if k > 1 else c for c, k in sorted(present.items()))
    notes.append(f"cước in the hand: {present_text or 'none (xuông)'}")
    return ScoreReport(
        ruleset=ruleset_id,
        unit="điểm",
        patterns=_patterns(declared, opts),
        raw=declared.total,
        value=0 if st.case == "C" else declared.total,
        cap=None,
        minimum=minimum,
        meets_minimum=void is None,
        seats=tuple(f"s{i}" for i in range(n)),
        payments=tuple(int(x) if float(x).is_integer() else x for x in st.deltas),
        reading=_reading(hand, wf, opts),
        notes=tuple(notes),
        roles=roles_of(
            n,
            (how.seat if how.via == "deal" else None, "dealer"),  # thiên ù: the dealer's
            (how.seat, "winner"),
            (how.liable, "liable"),
        ),
    )
