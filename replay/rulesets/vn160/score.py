"""``mjaudit score`` for vn-160: one win from notation, valued by the engine.

:func:`score_vn160` is the :data:`replay.scorecard.Scorer` of vn-160. The notation is the
Hong Kong one (:mod:`replay.hk.notation`) with the vn-160 codes: khung in the hand or in
a set (``8m8mBM``, ``[pung 4p4pBP]``), flowers and khung the winner declared in
``--flowers`` (``BT+`` = declared in the initial phase, dựng đầu). It builds the
:class:`VNWin` the replay loop builds and calls the engine's :func:`evaluate` and
:func:`settle`, so the phán and the payments are the replayer's.

Seats are seat winds (the dealer is East, rules §0). vn-160 has no liability rule, so
``--liable`` is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from mjaudit.parts.replay.rulesets.hk import notation
from mjaudit.parts.replay.rulesets.hk.hand import WIND_CODES
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.replay.rulesets.vn160.hand import chow_reading, stands_for
from mjaudit.parts.replay.rulesets.vn160.options import VNOptions, options_for
from mjaudit.parts.replay.rulesets.vn160.patterns import Structure, VNMeld, VNWin
from mjaudit.parts.replay.rulesets.vn160.scoring import (
    VNScore,
    con,
    evaluate,
    false_win_deltas,
    settle,
)
from mjaudit.parts.replay.rulesets.vn160.tiles import (
    CODES,
    INDEX,
    N_KINDS,
    is_flower,
    is_khung,
    is_rh,
    tile_limits,
)
from mjaudit.parts.schemas.tiles import VN160

#: Where the rules define each pattern id the engine reports.
_SECTIONS: Mapping[str, str] = {
    "khung_declared": "§5.3",
    "tong_hop_dau": "§5.3",
    "u_pe_pe": "§5.1, option allow_pe_pe",
    "bonus_deal_in": "§3.6",
    "three_blue_khung": "§3.6",
    "three_red_khung": "§3.6",
}
_KONGS = frozenset({MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG})
_START = "+"  # suffix of a --flowers code declared in the initial phase


def section(pattern: str) -> str:
    """``"vn-160 §5.1"``: where the rules define a pattern (§5.1 unless listed)."""
    return f"vn-160 {_SECTIONS.get(pattern, '§5.1')}"


def _tile(tok: notation.TileToken, opts: VNOptions, where: str = "hand") -> int:
    """A tile that may stand in the hand: a playing tile or a khung of a set in play."""
    t = INDEX[tok.code]
    if is_flower(t) or is_rh(t):
        raise NotationError(
            tok.code,
            "a playing tile or a khung; flowers and RH never stand in the hand: they go "
            "in --flowers",
            where=where,
            position=tok.position,
        )
    if not tile_limits(opts.khung_sets)[t]:
        raise NotationError(
            tok.code,
            f"a khung of the {opts.khung_sets} set(s) in play (option khung_sets)",
            where=where,
            position=tok.position,
        )
    return t


def _meld(m: notation.MeldToken, opts: VNOptions, seats: tuple[str, ...], winner: int) -> VNMeld:
    ts = [_tile(t, opts) for t in m.tiles]
    ru = opts.ru_domain
    natural = [t for t in ts if t < N_KINDS]
    kind = m.kind
    first: int | None = None
    if kind is MeldKind.CHOW:
        if len(ts) == 3:
            first = next((f for c in natural if (f := chow_reading(ts, c, ru)) is not None), None)
        expected = "a chow: three tiles reading as a run of one suit, e.g. [chow 2m3mBM]"
    else:
        size = 4 if kind in _KONGS else 3
        if len(ts) == 1 and natural:
            ts = ts * size
        if len(ts) == size and natural and all(stands_for(x, natural[0], ru) for x in ts):
            first = natural[0]
        expected = (
            f"a {kind.value.replace('_', ' ')}: one tile or {size} tiles of one kind, khung "
            "inside their domain, at least one natural (e.g. [pung 4p4pBP])"
        )
    if first is None:
        raise NotationError(m.text, expected, position=m.position)
    source = notation.meld_source(m, seats, winner)
    return VNMeld(Meld(kind, first, source), tuple(sorted(ts)))


def _declared(req: ScoreRequest, opts: VNOptions) -> tuple[tuple[int, bool], ...]:
    """``--flowers``: each declared flower or khung, with True when declared at the start."""
    out: list[tuple[int, bool]] = []
    for text in req.flowers:
        start = text.endswith(_START)
        code = text[:-1] if start else text
        found = notation.read_tiles(code, VN160, where="--flowers")
        t = INDEX[found[0].code] if len(found) == 1 else -1
        if not (is_flower(t) or is_khung(t)) or not tile_limits(opts.khung_sets)[t]:
            raise NotationError(
                text,
                "a declared flower f1-q4 or khung BT-RW in play, '+' after it when declared "
                "in the initial phase (BT+)",
                where="--flowers",
            )
        if start and not is_khung(t):
            raise NotationError(text, "'+' only after a khung (dựng đầu)", where="--flowers")
        if any(t == d for d, _ in out):
            raise NotationError(
                text, "each bonus tile once (there is one of each)", where="--flowers"
            )
        out.append((t, start))
    return tuple(out)


def _check_copies(ctx: VNWin, opts: VNOptions) -> None:
    c: Counter[int] = Counter(ctx.concealed)
    c[ctx.win_tile] += 1
    for m in ctx.melds:
        c.update(m.tiles)
    c.update(t for t, _ in ctx.declared)
    limits = tile_limits(opts.khung_sets)
    for t, n in sorted(c.items()):
        if n > limits[t]:
            raise NotationError(CODES[t], f"at most {limits[t]} of this tile, the hand has {n}")


def win_context(req: ScoreRequest, opts: VNOptions) -> tuple[VNWin, int, int | None]:
    """The :class:`VNWin` of the request, the winner's seat and the discarder's."""
    seats = WIND_CODES
    winner = notation.seat_of(req.seat, seats, "--seat")
    if req.dealer != "E":
        raise NotationError(
            req.dealer, "E: seats are seat winds and the dealer sits East", where="--dealer"
        )
    if req.liable is not None:
        raise NotationError(
            req.liable, "no --liable: vn-160 has no liability rule", where="--liable"
        )
    if req.robbing_kong and not opts.rob_kong:
        raise NotationError(
            "--robbing-kong",
            "option rob_kong=true (robbing a kong is off in vn-160, §3.2)",
            where="flags",
        )
    hand = notation.parse_hand(req.hand, VN160)
    if not opts.allow_bonus_discard:  # else the last tile may be a won-on flower (§3.6)
        for t in hand.tiles:  # what may stand in the hand first: a clearer error than a count
            _tile(t, opts)
    melds = tuple(_meld(m, opts, seats, winner) for m in hand.melds)
    before, win = notation.split_win(hand, req.win, VN160)
    source, discarder = notation.win_source(req, seats, winner)
    win_tile = INDEX[win.code]
    bonus_discard = source is not WinSource.SELF_DRAW and win_tile >= N_KINDS
    if bonus_discard and not opts.allow_bonus_discard:
        raise NotationError(
            win.code,
            "a playing tile: a discarded flower or khung is won on only with option "
            "allow_bonus_discard=true (§3.6)",
            where="hand" if req.win is None else "--win",
        )
    if not bonus_discard:
        win_tile = _tile(win, opts, "hand" if req.win is None else "--win")
    if req.kong_replacement and not any(m.kind in _KONGS for m in melds):
        raise NotationError(
            "--kong-replacement", "a kong among the sets in brackets", where="flags"
        )
    notation.check_first_turn(req, winner, discarder, len(melds))
    ctx = VNWin(
        concealed=tuple(sorted(_tile(t, opts) for t in before)),
        win_tile=win_tile,
        source=source,
        melds=melds,
        seat_number=winner + 1,
        declared=_declared(req, opts),
        heavenly=req.heavenly,
        earthly=req.earthly,
    )
    _check_copies(ctx, opts)
    return ctx, winner, discarder


def _reading(score: VNScore, melds: tuple[VNMeld, ...]) -> str:
    """The set split (declared sets in brackets, as written) and what each khung reads as."""
    r = score.reading

    chows, pungs = list(r.chows), list(r.pungs)
    parts = []
    for m in melds:
        (chows if m.is_chow else pungs).remove(m.tile)
        shown = "".join(CODES[t] for t in m.tiles) if m.khung else notation.set_text(m.tiles)
        src = f" <- {WIND_CODES[m.from_seat]}" if m.from_seat is not None else ""
        parts.append(f"[{notation.MELD_WORD[m.kind]} {shown}{src}]")
    if score.structure is Structure.THIRTEEN_ORPHANS:
        parts.append(f"thirteen orphans (pair {CODES[r.pair]})")
    elif score.structure is Structure.SEVEN_PAIRS:
        parts.append("seven pairs")
    else:
        parts += [notation.set_text([t, t + 1, t + 2]) for t in chows] + [
            notation.set_text([t] * 3) for t in pungs
        ]
        parts.append(notation.set_text([r.pair] * 2))
    text = " ".join(parts)
    if score.khung:
        text += "; " + ", ".join(f"{k} as {kind}" for k, kind in score.khung)
    return text


def score_vn160(ruleset: str, req: ScoreRequest) -> ScoreReport:
    """Value one vn-160 win from notation (:data:`replay.scorecard.Scorer`)."""
    opts = notation.typed_options(req.options, options_for)
    ctx, winner, discarder = win_context(req, opts)
    seats = WIND_CODES
    score = evaluate(ctx, opts)
    if score is None:
        reason = "the tiles form no winning structure (vn-160 §4, WIN_HAND_INCOMPLETE)"
        raise ValueError(notation.false_win(reason, seats, winner, false_win_deltas(winner, opts)))
    notes: list[str] = []
    if score.meets_min:
        deltas = settle(
            score.phan,
            winner,
            ctx.source,
            opts,
            discarder=discarder,
            dealer=0,
            bonus_deal_in=ctx.bonus_win,
        )
        small = con(score.phan, opts)
        notes.append(
            f"payments (vn-160 §6): {score.phan} phán = {score.mun} mủn; Con({score.phan}) = "
            f"{small}, Cái = {opts.cai_multiplier * small} (units; money = units × stake)"
        )
    else:
        deltas = false_win_deltas(winner, opts)
        notes.append(
            f"below min_phan {opts.min_phan} (WIN_BELOW_MIN): declaring it is a false win "
            "(vn-160 §7.1), so the payments are the false-win penalty"
        )
    if req.last_tile:
        notes.append("--last-tile: vn-160 has no pattern for the last tile; it changes nothing")
    return ScoreReport(
        ruleset=ruleset,
        unit="phán",
        patterns=notation.pattern_lines(score.patterns, score.instances, section),
        raw=score.phan,
        value=score.phan,
        cap=None,
        minimum=opts.min_phan,
        meets_minimum=score.meets_min,
        seats=seats,
        payments=tuple(notation.number(d) for d in deltas),
        reading=_reading(score, ctx.melds),
        roles=notation.roles(seats, winner, ctx.source, discarder),
        notes=tuple(notes),
    )
