"""``mjaudit score --ruleset american``: one Mahjong valued against a card, without a log.

The notation is the player's 14 tiles (american.md §5.3: concealed tiles, the called tile
included, plus the exposures), in the log's codes (§1: ``1m``…``9s``, ``E S W N``,
``C F P``, flowers ``f1``…``g4`` or ``FL``, jokers ``J``), with each exposure in brackets
named by its size (§4.3): ``[pung 1s]``, ``[kong 3p3p3pJ]``, ``[quint 7s7s7s7sJ]``,
``[sextet …]``; a bracket without a word takes its size from its tiles. The card is
``--card FILE`` or the id of a registered card (``-o card=sample-original-1``). The
engine's own matcher (:func:`replay.american.matcher.match_all`) finds the card hands,
and :func:`replay.american.scoring.settle` the payments; ``mjaudit card match`` calls
:func:`evaluate` too, so there is one code path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mjaudit.parts.replay.engine.notation import (
    NotationError,
    Piece,
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
from mjaudit.parts.replay.rulesets.american.card import (
    Card,
    CardInvalid,
    describe_groups,
    find_card,
    load_card,
)
from mjaudit.parts.replay.rulesets.american.matcher import (
    ExposureShape,
    Match,
    best_match,
    match_all,
)
from mjaudit.parts.replay.rulesets.american.options import (
    OPTION_NAMES,
    AmericanOptions,
    options_for,
)
from mjaudit.parts.replay.rulesets.american.scoring import settle
from mjaudit.parts.replay.rulesets.american.tiles import JOKER_KIND, counts, kind

SEATS = ("E", "S", "W", "N")  # §0: E=1 … N=4; play passes E -> S -> W -> N
SIZES = {"pung": 3, "kong": 4, "quint": 5, "sextet": 6}  # §4.3, the log's call types
_CODE = re.compile(r"(?P<run>[1-9]+)(?P<suit>[mps])|[fg][1-4]|FL|[ESWNCFPJ]")
_TILES = "a tile code (1m-9m, 1p-9p, 1s-9s, E S W N, C F P, f1-f4, g1-g4, FL, J)"
#: Where the rules value a card hand: every card hand's line cites it (and the rules page).
CARD_HAND_SECTION = "american §7.1"


@dataclass(frozen=True)
class AmericanHand:
    """T of §5.3 as codes: the concealed tiles and the exposures (each its tiles)."""

    concealed: tuple[str, ...]
    exposures: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return len(self.concealed) + sum(len(e) for e in self.exposures)

    def shapes(self) -> list[ExposureShape]:
        out = []
        for e in self.exposures:
            natural = next(c for c in e if c != "J")
            out.append(ExposureShape(kind(natural), len(e), e.count("J")))
        return out


def _exposure(piece: Piece) -> tuple[str, ...]:
    """§4.3: 3-6 identical naturals and jokers, at least one natural; ``[kong 7m]`` is 7m×4."""
    tiles = piece_codes(piece, _CODE, _TILES)
    if piece.word is not None and piece.word not in SIZES:
        raise NotationError(
            piece.word,
            "an exposure named pung, kong, quint or sextet",
            position=piece.position + 1,
        )
    size = SIZES.get(piece.word or "", len(tiles))
    if len(tiles) == 1 and tiles[0] != "J" and piece.word is not None:
        tiles = tiles * size
    naturals = {kind(c) for c in tiles if c != "J"}
    if len(naturals) != 1:
        raise NotationError(
            piece.text,
            "an exposure of identical tiles and jokers with at least one natural (§4.3)",
            position=piece.position,
        )
    if len(tiles) != size or not 3 <= size <= 6:
        want = f"{size} tiles for a {piece.word}" if piece.word else "3 to 6 tiles"
        raise NotationError(piece.text, f"{want}, not {len(tiles)}", position=piece.position)
    return tuple(tiles)


def parse_hand(text: str, win: str | None = None) -> AmericanHand:
    """The 14 tiles of T; ``win`` (the called or drawn tile) is added when 13 are written."""
    concealed: list[str] = []
    exposures: list[tuple[str, ...]] = []
    for piece in pieces(text):
        if piece.bracket:
            exposures.append(_exposure(piece))
        else:
            concealed += piece_codes(piece, _CODE, _TILES)
    hand = AmericanHand(tuple(concealed), tuple(exposures))
    if win is not None:
        w = _one_tile(win, "--win")
        if hand.size == 13:  # with 14 written it is informational (a self-draw, §5.3)
            hand = AmericanHand((*hand.concealed, w), hand.exposures)
    if hand.size != 14:
        raise NotationError(text, f"14 tiles (§5.3: concealed + exposures), not {hand.size}")
    return hand


def _one_tile(text: str, where: str) -> str:
    """Exactly one tile code (a flag's value)."""
    found = re.fullmatch(r"[1-9][mps]|[fg][1-4]|FL|[ESWNCFPJ]", text.strip())
    if found is None:
        raise NotationError(text, _TILES, where=where)
    return found.group()


@dataclass(frozen=True)
class Evaluation:
    """Every card hand T matches (card order) and the one that scores (§5.5)."""

    card: Card
    hand: AmericanHand
    matches: tuple[Match, ...]
    best: Match | None
    jokers: int
    concealed_only: tuple[Match, ...]  # §8.2 CONCEALED_HAND_CALL: C hands but for rule 4


def evaluate(card: Card, hand: AmericanHand, *, jokerless_doubles: bool = True) -> Evaluation:
    """§5.3-§5.5 with the engine's matcher; ties go to the hand listed first."""
    concealed = counts(hand.concealed)
    shapes = hand.shapes()
    found = match_all(card, concealed, shapes, jokerless_doubles=jokerless_doubles)
    best = best_match(card, concealed, shapes, jokerless_doubles=jokerless_doubles)
    rule4: tuple[Match, ...] = ()
    if shapes:
        rule4 = tuple(
            m
            for m in match_all(
                card, concealed, shapes, jokerless_doubles=jokerless_doubles, ignore_rule4=True
            )
            if m.hand.concealed
        )
    jokers = concealed[JOKER_KIND] + sum(s.jokers for s in shapes)
    return Evaluation(card, hand, tuple(found), best, jokers, rule4)


def _card(request: ScoreRequest, opts: AmericanOptions) -> Card:
    path = request.extras.get("card")
    if isinstance(path, str | Path):
        try:
            return load_card(path)
        except CardInvalid as exc:
            raise NotationError(
                str(path), f"a valid mj-card/1 file ({exc})", where="--card"
            ) from None
    if opts.card is not None:
        card = find_card(opts.card)
        if card is None:
            raise NotationError(
                opts.card,
                "the card_id of a registered card (sample-original-1), or use --card FILE",
                where="--option card",
            )
        return card
    raise NotationError(
        "",
        "--card FILE (the mj-card/1 card to score against), or -o card=sample-original-1 "
        "for the shipped sample card",
        where="--card",
    )


def _seat(text: str, where: str) -> int:
    if text not in SEATS:
        raise NotationError(text, "a seat E, S, W or N", where=where)
    return SEATS.index(text)


def _payer(request: ScoreRequest, winner: int, opts: AmericanOptions) -> tuple[int | None, str]:
    """The discarder liable for the win (None: self-drawn), and how it was decided."""
    if request.liable is not None:
        if request.from_seat is not None or request.self_draw:
            raise NotationError(
                request.liable,
                "--liable alone: the seat whose discard the winner called for an exposure "
                "before finding Mahjong (§7.2), without --from or --self-draw",
                where="--liable",
            )
        liable = _seat(request.liable, "--liable")
        if liable == winner:
            raise NotationError(request.liable, "a seat other than the winner's", where="--liable")
        if opts.call_then_mahjong_liability == "self_draw":
            return None, (
                f"won after calling {SEATS[liable]}'s discard for an exposure: paid as "
                "self-drawn (option call_then_mahjong_liability = self_draw, §7.2)"
            )
        return liable, (
            f"won after calling {SEATS[liable]}'s discard for an exposure: a discard win, "
            f"{SEATS[liable]} liable (§7.2 [D])"
        )
    if request.self_draw:
        if request.from_seat is not None:
            raise NotationError(
                request.from_seat, "--from or --self-draw, not both", where="--from"
            )
        return None, "self-drawn: 2V from each (§7.2)"
    if request.from_seat is None:
        raise NotationError(
            "", "--from SEAT (the discarder) or --self-draw, to know who pays", where="--from"
        )
    frm = _seat(request.from_seat, "--from")
    if frm == winner:
        raise NotationError(request.from_seat, "a seat other than the winner's", where="--from")
    return frm, f"on {SEATS[frm]}'s discard: {SEATS[frm]} pays 2V, the others V (§7.2)"


def _bonus_note(m: Match, jokers: int) -> str:
    """Why V is or is not the card value doubled (§7.1 jokerless bonus)."""
    if m.bonus:
        return f"jokerless: {m.hand.value} doubled (§7.1)"
    if not m.jokerless:
        return f"{jokers} joker(s): not doubled"
    if not m.hand.jokerless_eligible:
        return "jokerless, but no group of 3+: not doubled (§7.1)"
    return "jokerless: not doubled (option jokerless_doubles = false)"


def score(ruleset_id: str, request: ScoreRequest) -> ScoreReport:
    """The :data:`~replay.scorecard.Scorer` of ``american``: V (§7.1) and who pays (§7.2)."""
    opts = read_options(request.options, OPTION_NAMES, options_for, "american")
    refuse_mahjong_flags(
        request,
        "flowers are tiles of the hand (write f1-g4 among the tiles); no kong replacement, "
        "robbing or last-tile rule changes a value (§7)",
    )
    card = _card(request, opts)
    hand = parse_hand(request.hand, request.win)
    winner = _seat(request.seat, "--seat")
    discarder, how = _payer(request, winner, opts)
    ev = evaluate(card, hand, jokerless_doubles=opts.jokerless_doubles)
    rule4 = [m.hand.id for m in ev.concealed_only]
    if ev.best is None:
        extra = (
            f"; {', '.join(rule4)} would match but is concealed and the hand has exposures "
            "(CONCEALED_HAND_CALL, §8.2)"
            if rule4
            else ""
        )
        raise ValueError(
            f"no hand of card {card.card_id} matches these 14 tiles (§5.3){extra}: declaring "
            "Mahjong is MAHJONG_IN_ERROR (§8.1), the hand is dead and nobody is paid"
        )
    best = ev.best
    h = best.hand
    line = PatternLine(
        h.id,
        best.final,
        CARD_HAND_SECTION,
        f"{'C' if h.concealed else 'X'} {h.display}; {_bonus_note(best, ev.jokers)}",
    )
    deltas = settle(best.final, winner, discarder, opts.point_value)
    notes = [how]
    others = [m for m in ev.matches if m.hand.id != h.id]
    if others:
        notes.append(
            "also matches "
            + ", ".join(f"{m.hand.id} (V = {m.final})" for m in others)
            + ": the largest V scores, ties to the hand listed first (§5.5)"
        )
    if rule4:
        notes.append(
            f"{', '.join(rule4)} would match but is concealed and the hand has exposures: "
            "CONCEALED_HAND_CALL (§8.2), it cannot score"
        )
    reading = (
        f"{h.id} of card {card.card_id}: {best.binding.describe() or 'no variables'}; "
        f"{describe_groups(best.binding)}"
    )
    return ScoreReport(
        ruleset=ruleset_id,
        unit="points",
        patterns=(line,),
        raw=best.final,
        value=best.final,
        cap=None,
        minimum=None,
        meets_minimum=True,
        seats=SEATS,
        payments=tuple(int(x) if float(x).is_integer() else x for x in deltas),
        reading=reading,
        notes=tuple(notes),
        # who pays 2V: the discarder, or the seat whose discard was called (--liable)
        roles=roles_of(
            len(SEATS),
            (winner, "winner"),
            (discarder, "discarder" if request.liable is None else "liable"),
        ),
    )


def matches_text(ev: Evaluation) -> Sequence[str]:
    """The lines of ``mjaudit card match`` (kept as they were before ``score`` existed)."""
    lines = []
    for m in ev.matches:
        mark = "*" if ev.best is not None and m.hand.id == ev.best.hand.id else " "
        bonus = " (jokerless, doubled)" if m.bonus else ""
        lines.append(
            f"{mark} {m.hand.id}: V = {m.final}{bonus}; {m.binding.describe() or 'no variables'}; "
            f"{describe_groups(m.binding)}"
        )
    if ev.best is not None:
        lines.append(f"scores: {ev.best.hand.id} V = {ev.best.final} ({ev.jokers} joker(s))")
    return lines
