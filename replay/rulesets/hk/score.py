"""``mjaudit score`` for the Hong Kong presets: one win from notation, valued by the engine.

:func:`score_hk` is the :data:`replay.scorecard.Scorer` of hk-classic, hk-mahjongo and
hk-mahjongo-2p. It reads the notation (:mod:`replay.hk.notation`), builds the same
:class:`WinContext` the replay loop builds for a declared win, and calls the engine's
:func:`evaluate` and :func:`settle` (or :func:`false_win_deltas` for a win below the
minimum), so the figures are the replayer's, never a second scorer's.

Seats are seat winds: the dealer is East (the 2-player seats are ``two_player_seats``).
Who is liable (nine-tile warning, last five tiles, Pao) depends on the play before the
win, which no notation holds, so ``--liable SEAT`` names that player.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from mjaudit.parts.replay.rulesets.hk.hand import LIMITS, TILE_SETS, WIND_CODES
from mjaudit.parts.replay.rulesets.hk.notation import (
    MELD_WORD,
    MeldToken,
    check_first_turn,
    false_win,
    meld_source,
    number,
    parse_hand,
    pattern_lines,
    roles,
    seat_of,
    set_text,
    split_win,
    typed_options,
    win_source,
)
from mjaudit.parts.replay.rulesets.hk.options import HKOptions, options_for
from mjaudit.parts.replay.rulesets.hk.patterns import WinContext
from mjaudit.parts.replay.rulesets.hk.scoring import (
    HandScore,
    base_points,
    discard_amount,
    evaluate,
    false_win_deltas,
    golden_amount,
    self_draw_amount,
    settle,
)
from mjaudit.parts.replay.rulesets.mahjong.counts import FIRST_BONUS
from mjaudit.parts.replay.rulesets.mahjong.decompose import Structure
from mjaudit.parts.replay.rulesets.mahjong.melds import Meld, MeldKind
from mjaudit.parts.schemas.tiles import MAHJONG, UnknownTile

#: Fan-table row of each pattern id (rules §5.3 of each file; option rows name the option).
_CLASSIC_ROWS: Mapping[str, str] = MappingProxyType(
    {
        "chicken_hand": "§5.3 #1",
        "all_chows": "§5.3 #2",
        "self_draw": "§5.3 #3",
        "concealed_self_draw": "§5.3 #4",
        "concealed_on_discard": "§5.3 #4, option concealed_on_discard_fan",
        "fully_claimed": "§5.3 #5",
        "seat_flower": "§5.3 #6",
        "no_flowers": "§5.3 #7",
        "flower_set": "§5.3 #8",
        "prevailing_wind_pung": "§5.3 #9",
        "seat_wind_pung": "§5.3 #10",
        "dragon_pung": "§5.3 #11",
        "win_on_kong_replacement": "§5.3 #12",
        "robbing_the_kong": "§5.3 #13",
        "last_tile_draw": "§5.3 #14",
        "last_discard": "§5.3 #14, option last_discard_fan",
        "all_pungs": "§5.3 #15",
        "half_flush": "§5.3 #16",
        "little_three_dragons": "§5.3 #17",
        "big_three_dragons": "§5.3 #18",
        "little_four_winds": "§5.3 #19",
        "full_flush": "§5.3 #20",
        "all_honours": "§5.3 #21",
        "big_four_winds": "§5.3 #22",
        "four_concealed_pungs": "§5.3 #23",
        "thirteen_orphans": "§5.3 #24",
        "heavenly_hand": "§5.3 #25",
        "earthly_hand": "§5.3 #26",
        "single_wait": "§5.3 #27",
    }
)
_MAHJONGO_ROWS: Mapping[str, str] = MappingProxyType(
    {
        "all_chows": "§5.3 #1",
        "concealed_hand": "§5.3 #2",
        "self_draw": "§5.3 #3",
        "dragon_pung": "§5.3 #4",
        "seat_wind_pung": "§5.3 #5",
        "prevailing_wind_pung": "§5.3 #6",
        "terminals_honours_pungs": "§5.3 #7",
        "robbing_the_kong": "§5.3 #8",
        "win_on_kong_replacement": "§5.3 #9",
        "last_tile_draw": "§5.3 #10",
        "last_discard": "§9, option last_discard_fan",
        "half_flush": "§5.3 #11",
        "all_pungs": "§5.3 #12",
        "little_three_dragons": "§5.3 #13",
        "big_three_dragons": "§5.3 #14",
        "full_flush": "§5.3 #15",
        "all_honours": "§5.3 #16",
        "little_four_winds": "§5.3 #17",
        "big_four_winds": "§5.3 #18",
        "four_concealed_pungs": "§5.3 #19",
        "four_kongs": "§5.3 #20",
        "all_terminals": "§5.3 #21",
        "heavenly_hand": "§5.3 #22",
        "earthly_hand": "§5.3 #23",
        "thirteen_orphans": "§5.3 #24",
        "consecutive_kong_win": "§5.3 #25",
        "nine_gates": "§5.3 #26",
    }
)
#: The rules file each preset is written in, and its fan-table rows.
RULES_FILE: Mapping[str, tuple[str, Mapping[str, str]]] = MappingProxyType(
    {
        "hk-classic": ("hk-classic", _CLASSIC_ROWS),
        "hk-mahjongo": ("hk-mahjongo", _MAHJONGO_ROWS),
        "hk-mahjongo-2p": ("hk-mahjongo", _MAHJONGO_ROWS),
    }
)

_KONGS = frozenset({MeldKind.KONG, MeldKind.CONCEALED_KONG, MeldKind.ADDED_KONG})


def section(ruleset: str, pattern: str) -> str:
    """``"hk-classic §5.3 #17"``: where the rules define a pattern."""
    name, rows = RULES_FILE[ruleset]
    return f"{name} {rows[pattern]}"


def seat_letters(opts: HKOptions) -> tuple[str, ...]:
    """The seat letters in seat order: E S W N, or the two 2-player seats (dealer first)."""
    return WIND_CODES if opts.n_players == 4 else tuple(opts.two_player_seats)


def _tile(code: str, position: int, ruleset: str, where: str = "hand") -> int:
    t = MAHJONG.index[code]
    if t >= FIRST_BONUS:
        expected = "a playing tile; bonus tiles go in --flowers"
        if ruleset != "hk-classic":
            expected = f"a playing tile ({ruleset} has no bonus tiles)"
        raise NotationError(code, expected, where=where, position=position)
    if t not in TILE_SETS[ruleset]:
        raise NotationError(
            code,
            f"a tile of the {ruleset} set (characters and bamboo keep only 1 and 9)",
            where=where,
            position=position,
        )
    return t


def _meld(m: MeldToken, ruleset: str, seats: tuple[str, ...], winner: int) -> Meld:
    ts = [_tile(t.code, t.position, ruleset) for t in m.tiles]
    kind = m.kind
    if kind is MeldKind.CHOW:
        ts.sort()
        first = ts[0]
        ok = len(ts) == 3 and first < 27 and first % 9 <= 6 and ts == [first, first + 1, first + 2]
        if not ok:
            raise NotationError(
                m.text,
                "a chow: three consecutive tiles of one suit, e.g. [chow 345s]",
                position=m.position,
            )
    else:
        size = 4 if kind in _KONGS else 3
        if len(set(ts)) != 1 or len(ts) not in (1, size):
            raise NotationError(
                m.text,
                f"a {kind.value.replace('_', ' ')}: one tile or {size} identical tiles, "
                f"e.g. [{'pung 5p5p5p' if size == 3 else 'kong 7m'}]",
                position=m.position,
            )
        first = ts[0]
    source = meld_source(m, seats, winner)
    return Meld(kind, first, source)


def _flowers(req: ScoreRequest, ruleset: str) -> tuple[int, ...]:
    if not req.flowers:
        return ()
    if ruleset != "hk-classic":
        raise NotationError(
            ",".join(req.flowers),
            f"nothing: {ruleset} plays without bonus tiles",
            where="--flowers",
        )
    out: list[int] = []
    for text in req.flowers:
        try:
            t = MAHJONG.index[MAHJONG.normalize(text)]
        except UnknownTile:
            t = -1
        if t < FIRST_BONUS:
            raise NotationError(text, "a bonus tile f1-f4 or g1-g4", where="--flowers")
        if t in out:
            raise NotationError(
                text, "each bonus tile once (there is one of each)", where="--flowers"
            )
        out.append(t)
    return tuple(out)


def _check_copies(
    concealed: tuple[int, ...], win: int, melds: tuple[Meld, ...], ruleset: str
) -> None:
    c: Counter[int] = Counter(concealed)
    c[win] += 1
    for m in melds:
        c.update(m.tiles)
    limits = LIMITS[ruleset]
    for t, n in sorted(c.items()):
        if n > limits[t]:
            raise NotationError(
                MAHJONG.codes[t], f"at most {limits[t]} copies of a tile, this hand has {n}"
            )


def win_context(
    ruleset: str, req: ScoreRequest, opts: HKOptions
) -> tuple[WinContext, int, int | None]:
    """The :class:`WinContext` of the request, the winner's seat and the discarder's."""
    seats = seat_letters(opts)
    winner = seat_of(req.seat, seats, "--seat")
    if req.dealer != seats[0]:
        raise NotationError(
            req.dealer,
            f"{seats[0]}: seats are seat winds and the dealer sits East",
            where="--dealer",
        )
    if req.round not in WIND_CODES:
        raise NotationError(req.round, "a prevailing wind: E S W N", where="--round")
    hand = parse_hand(req.hand, MAHJONG)
    for t in hand.tiles:  # the preset's tile set first: a clearer error than a count
        _tile(t.code, t.position, ruleset)
    melds = tuple(_meld(m, ruleset, seats, winner) for m in hand.melds)
    before, win = split_win(hand, req.win, MAHJONG)
    concealed = tuple(sorted(_tile(t.code, t.position, ruleset) for t in before))
    win_tile = _tile(win.code, win.position, ruleset, "hand" if req.win is None else "--win")
    _check_copies(concealed, win_tile, melds, ruleset)
    source, discarder = win_source(req, seats, winner)
    n_kongs = sum(m.is_kong for m in melds)
    chain = 0
    if req.kong_replacement:
        chain = int(req.extras.get("kong_chain") or 1)
        if not n_kongs:
            raise NotationError(
                "--kong-replacement",
                "a kong among the sets in brackets ([kong 7m], [ckong 7m])",
                where="flags",
            )
        if not 1 <= chain <= n_kongs:
            raise NotationError(
                str(chain),
                f"1 to {n_kongs}: no more than the kongs in brackets",
                where="--kong-chain",
            )
    check_first_turn(req, winner, discarder, len(melds))
    seat_wind = WIND_CODES.index(seats[winner])
    ctx = WinContext(
        concealed=concealed,
        win_tile=win_tile,
        source=source,
        melds=melds,
        seat_wind=seat_wind,
        prevailing_wind=WIND_CODES.index(req.round),
        flowers=_flowers(req, ruleset),
        kong_replacement_chain=chain,
        last_tile=req.last_tile,
        heavenly=req.heavenly,
        earthly=req.earthly,
    )
    return ctx, winner, discarder


def _reading(score: HandScore, melds: tuple[Meld, ...], seats: tuple[str, ...]) -> str:
    """The split the fan was counted on, in the notation (sets in brackets first)."""
    dec = score.decomposition
    parts = []
    for m in melds:
        src = f" <- {seats[m.from_seat]}" if m.from_seat is not None else ""
        parts.append(f"[{MELD_WORD[m.kind]} {set_text(m.tiles)}{src}]")
    if dec.structure is Structure.THIRTEEN_ORPHANS:
        return " ".join([*parts, f"thirteen orphans (pair {MAHJONG.codes[dec.pair]})"])
    parts += [set_text([t, t + 1, t + 2]) for t in dec.chows]
    parts += [set_text([t] * 3) for t in dec.pungs]
    parts.append(set_text([dec.pair] * 2))
    return " ".join(parts)


def _payment_note(fan: int, ruleset: str, opts: HKOptions) -> str:
    if opts.n_players == 2:
        return f"payments (hk-mahjongo §6.2, 2p): the opponent pays G({fan}) = {number(golden_amount(fan, opts))}"
    if opts.is_classic:
        return f"payments (hk-classic §6.2): P({fan}) = {number(base_points(fan, opts))}"
    d, s = number(discard_amount(fan, opts)), number(self_draw_amount(fan, opts))
    return f"payments (hk-mahjongo §6.2): D({fan}) = {d}, S({fan}) = {s}"


def _liability_note(
    seats: tuple[str, ...], liable: int, discarder: int | None, opts: HKOptions
) -> str:
    """Who pays under a liability, in the words of the option that decided it."""
    where = "hk-classic §6.2" if opts.is_classic else "hk-mahjongo §7.2"
    who = seats[liable]
    if discarder is None or discarder == liable:
        return f"{who} is liable and pays the whole win ({where})"
    rule = opts.pao_on_other_discard
    if rule == "liable_pays_all":
        return f"{who} is liable and pays the whole win, not the discarder ({where})"
    if rule == "split_half":
        return f"{who} (liable) and {seats[discarder]} (discarder) pay half each ({where})"
    return f"{who} is liable, but on another player's discard the discarder pays ({where})"


def score_hk(ruleset: str, req: ScoreRequest) -> ScoreReport:
    """Value one Hong Kong win from notation (:data:`replay.scorecard.Scorer`)."""
    opts = typed_options(req.options, lambda o: options_for(ruleset, o))
    ctx, winner, discarder = win_context(ruleset, req, opts)
    seats = seat_letters(opts)
    liable = None if req.liable is None else seat_of(req.liable, seats, "--liable")
    if liable is not None and opts.n_players == 2:
        raise NotationError(
            req.liable or "",
            "no --liable: with two players the opponent pays in every case",
            where="--liable",
        )
    if liable is not None and liable == winner:
        raise NotationError(req.liable or "", "a loser's seat, not the winner's", where="--liable")
    score = evaluate(ctx, opts)
    file_name = RULES_FILE[ruleset][0]
    if score is None:
        reason = f"the tiles form no winning structure ({file_name} §4, WIN_HAND_INCOMPLETE)"
        raise ValueError(false_win(reason, seats, winner, false_win_deltas(winner, opts)))
    lines = pattern_lines(score.patterns, score.instances, lambda pid: section(ruleset, pid))
    notes: list[str] = []
    if score.meets_min_fan:
        deltas = settle(
            score.fan, winner, ctx.source, opts, discarder=discarder, dealer=0, liable=liable
        )
        notes.append(_payment_note(score.fan, ruleset, opts))
        if liable is not None:
            notes.append(_liability_note(seats, liable, discarder, opts))
    else:
        deltas = false_win_deltas(winner, opts)
        notes.append(
            f"below the minimum of {opts.min_fan} fan (WIN_BELOW_MIN_FAN): declaring it is a false win "
            f"({file_name} §7.1), so the payments are the false-win penalty"
        )
    if score.min_fan_basis != score.fan:
        notes.append(
            f"the minimum is checked on {score.min_fan_basis} fan (bonus-tile fan left out)"
        )
    return ScoreReport(
        ruleset=ruleset,
        unit="fan",
        patterns=lines,
        raw=score.raw_fan,
        value=score.fan,
        cap=opts.fan_cap,
        minimum=opts.min_fan,
        meets_minimum=score.meets_min_fan,
        seats=seats,
        payments=tuple(number(d) for d in deltas),
        reading=_reading(score, ctx.melds, seats),
        roles=roles(seats, winner, ctx.source, discarder, liable),
        notes=tuple(notes),
    )
