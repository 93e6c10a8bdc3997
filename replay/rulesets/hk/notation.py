"""The compact hand notation of ``mjaudit score`` for the mahjong code set (pure).

A referee writes a hand the way the rules files do: suited runs ``123m 456p 789s``,
honours with the log's own codes ``EEE`` / ``CC`` (winds E S W N, dragons C F P: the
codes of mjlog/1, so there is one notation to learn), single codes ``1m 2m 3m`` too, and
declared sets in brackets: ``[pung 5p5p5p]``, ``[chow 345s]``, ``[kong 7m]``,
``[ckong 4m]`` (concealed), ``[akong 9s]`` (added), each optionally ending with its
feeder ``<- S`` (or ``← S``) as the rules write it. vn-160 adds its codes (``f1`` …
``q4``, khung ``BT`` … ``RW3``) through its own :class:`schemas.tiles.TileSet`, so the
same reader serves it.

Everything here is ruleset-neutral: codes are checked against the tile set given, and a
bad token raises :class:`replay.scorecard.NotationError` with its column. What a tile
may be in a given preset (a bonus tile in the hand, a tile outside the 2-player set) is
the scorer's business.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from mjaudit.parts.replay.engine.notation import option_values
from mjaudit.parts.replay.engine.options import OptionError
from mjaudit.parts.replay.engine.scorecard import NotationError, PatternLine, ScoreRequest
from mjaudit.parts.replay.rulesets.hk.patterns import WinSource
from mjaudit.parts.replay.rulesets.mahjong.counts import EAST
from mjaudit.parts.replay.rulesets.mahjong.melds import MeldKind
from mjaudit.parts.schemas.tiles import KHUNG, PLAYING_TILES, TileSet, UnknownTile

T = TypeVar("T")

MELD_KINDS: Mapping[str, MeldKind] = {
    "chow": MeldKind.CHOW,
    "pung": MeldKind.PUNG,
    "kong": MeldKind.KONG,
    "ckong": MeldKind.CONCEALED_KONG,
    "concealed_kong": MeldKind.CONCEALED_KONG,
    "akong": MeldKind.ADDED_KONG,
    "added_kong": MeldKind.ADDED_KONG,
}
#: The word the notation (and a printed reading) uses for each kind of set.
MELD_WORD: Mapping[MeldKind, str] = {
    MeldKind.CHOW: "chow",
    MeldKind.PUNG: "pung",
    MeldKind.KONG: "kong",
    MeldKind.CONCEALED_KONG: "ckong",
    MeldKind.ADDED_KONG: "akong",
}
_KIND_LIST = "chow, pung, kong, ckong (concealed) or akong (added)"
_ARROWS = ("<-", "←")
_SUITS = "mps"
_KHUNG = frozenset(KHUNG)


@dataclass(frozen=True, slots=True)
class TileToken:
    """One tile as written: its canonical code and the 0-based column of its first char."""

    code: str
    position: int
    text: str


@dataclass(frozen=True, slots=True)
class MeldToken:
    """A bracketed declared set: kind, tiles as written, the feeder's seat letter if given."""

    kind: MeldKind
    tiles: tuple[TileToken, ...]
    source: str | None
    source_position: int | None
    text: str
    position: int


@dataclass(frozen=True, slots=True)
class HandNotation:
    """The concealed tiles in the order written (``written``: their words), and the sets."""

    tiles: tuple[TileToken, ...]
    melds: tuple[MeldToken, ...]
    written: str = ""


#: Letters other notations use for the dragons, answered with the log's codes.
_DRAGON_HINT = "; the dragons are C (red), F (green) and P (white), as in the logs"


def _code(text: str, position: int, tileset: TileSet, where: str) -> TileToken:
    try:
        return TileToken(tileset.normalize(text), position, text)
    except UnknownTile:
        hint = _DRAGON_HINT if text in ("R", "G", "D", "Wh") else ""
        raise NotationError(text, tileset.expected + hint, where=where, position=position) from None


def read_tiles(
    word: str, tileset: TileSet, *, where: str = "hand", offset: int = 0
) -> list[TileToken]:
    """The tiles of one word without spaces: ``123m``, ``5p5p5p``, ``EEE``, ``f1``, ``BM``, ``1z``.

    A run of digits takes the suit letter that follows (``z`` for the honour numbers);
    a lower-case bonus letter or an upper-case khung letter takes the characters of its
    code; any other character is one code (a wind, a dragon, a Unicode tile).
    """
    out: list[TileToken] = []
    i = 0
    while i < len(word):
        ch = word[i]
        at = offset + i
        if ch.isdigit():
            j = i
            while j < len(word) and word[j].isdigit():
                j += 1
            if j == len(word) or word[j] not in _SUITS + "z":
                raise NotationError(
                    word[i:j], "a suit letter m, p or s after the digits", where=where, position=at
                )
            out.extend(
                _code(f"{d}{word[j]}", offset + i + k, tileset, where)
                for k, d in enumerate(word[i:j])
            )
            i = j + 1
            continue
        if ch in "fgkq" and i + 1 < len(word) and word[i + 1].isdigit():  # f1 g2 k3 q4
            out.append(_code(word[i : i + 2], at, tileset, where))
            i += 2
            continue
        if word[i : i + 2] in _KHUNG:  # BT BP … RW, BT2
            n = 3 if i + 2 < len(word) and word[i + 2] in "23" else 2
            out.append(_code(word[i : i + n], at, tileset, where))
            i += n
            continue
        n = 2 if i + 1 < len(word) and word[i + 1] in "\ufe0e\ufe0f" else 1
        out.append(_code(word[i : i + n], at, tileset, where))
        i += n
    return out


def _words(text: str, start: int, end: int) -> list[tuple[str, int]]:
    """Whitespace-separated words of ``text[start:end]`` with their columns."""
    out: list[tuple[str, int]] = []
    i = start
    while i < end:
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < end and not text[j].isspace():
            j += 1
        out.append((text[i:j], i))
        i = j
    return out


def _meld(text: str, start: int, end: int, tileset: TileSet) -> MeldToken:
    """``[kind tiles <- S]`` between the brackets at ``start`` and ``end``."""
    whole = text[start : end + 1]
    words = _words(text, start + 1, end)
    if not words:
        raise NotationError(whole, f"a set: [kind tiles], kind one of {_KIND_LIST}", position=start)
    kind_word, kind_at = words[0]
    kind = MELD_KINDS.get(kind_word.lower())
    if kind is None:
        raise NotationError(kind_word, f"a set kind: {_KIND_LIST}", position=kind_at)
    source = source_at = None
    body = words[1:]
    for n, (w, at) in enumerate(body):
        arrow = next((a for a in _ARROWS if w.startswith(a)), None)
        if arrow is None:
            continue
        rest = [(w[len(arrow) :], at + len(arrow))] if w != arrow else []
        rest += body[n + 1 :]
        if len(rest) != 1 or not rest[0][0]:
            raise NotationError(w, "one seat letter after the arrow, e.g. <- S", position=at)
        source, source_at = rest[0]
        body = body[:n]
        break
    tiles = [t for w, at in body for t in read_tiles(w, tileset, offset=at)]
    if not tiles:
        raise NotationError(
            whole, f"the tiles of the {kind_word}, e.g. [pung 5p5p5p]", position=start
        )
    return MeldToken(kind, tuple(tiles), source, source_at, whole, start)


def parse_hand(text: str, tileset: TileSet) -> HandNotation:
    """Concealed tiles and ``[...]`` sets of a hand, each token checked against ``tileset``."""
    tiles: list[TileToken] = []
    melds: list[MeldToken] = []
    words: list[str] = []
    i = 0
    while i < len(text):
        open_at = text.find("[", i)
        close_at = text.find("]", i)
        if close_at != -1 and (open_at == -1 or close_at < open_at):
            raise NotationError("]", "a '[' before it", position=close_at)
        stop = len(text) if open_at == -1 else open_at
        for w, at in _words(text, i, stop):
            tiles.extend(read_tiles(w, tileset, offset=at))
            words.append(w)
        if open_at == -1:
            break
        close_at = text.find("]", open_at)
        nested = text.find("[", open_at + 1)
        if close_at == -1 or (nested != -1 and nested < close_at):
            raise NotationError(text[open_at:].split()[0], "a set closed by ']'", position=open_at)
        melds.append(_meld(text, open_at, close_at, tileset))
        i = close_at + 1
    if not tiles and not melds:
        raise NotationError(text, "the tiles of the hand, e.g. '123m 456p 789s EEE 5p5p'")
    return HandNotation(tuple(tiles), tuple(melds), " ".join(words))


def split_win(
    hand: HandNotation, win: str | None, tileset: TileSet
) -> tuple[tuple[TileToken, ...], TileToken]:
    """The concealed tiles before the win, and the winning tile.

    14 − 3 × sets written: the winning tile is among them (``--win`` names which, by
    default the last one written); 13 − 3 × sets: ``--win`` is the 14th tile.
    """
    full = 14 - 3 * len(hand.melds)
    written = list(hand.tiles)
    shown = hand.written or "(no concealed tile)"
    win_tok = None if win is None else _single(win, tileset, "--win")
    if len(written) == full - 1 and win_tok is not None:
        return tuple(written), win_tok
    if len(written) != full:
        sets = f" besides the {len(hand.melds)} set(s) in brackets" if hand.melds else ""
        extra = " (or one fewer and --win)" if win_tok is None else " with --win among them"
        if len(written) == full - 1:
            extra = "; the winning tile is missing: write it last or give --win"
        raise NotationError(
            shown,
            f"{full} concealed tiles{sets}{extra}, got {len(written)}",
            position=written[0].position if written else None,
        )
    if win_tok is None:
        return tuple(written[:-1]), written[-1]
    at = next((k for k in range(len(written) - 1, -1, -1) if written[k].code == win_tok.code), None)
    if at is None:
        raise NotationError(win, f"a tile of the hand ({shown})", where="--win")
    return tuple(written[:at] + written[at + 1 :]), written[at]


def _single(text: str, tileset: TileSet, where: str) -> TileToken:
    found = read_tiles(text.strip(), tileset, where=where)
    if len(found) != 1:
        raise NotationError(text, "one tile code, e.g. 5p or C", where=where)
    return found[0]


def seat_of(
    letter: str | None, seats: Sequence[str], where: str, position: int | None = None
) -> int:
    """The index of a seat letter among ``seats`` (E S W N, or the two 2-player seats)."""
    if letter is not None and letter in seats:
        return seats.index(letter)
    raise NotationError(
        str(letter), f"a seat letter: {' '.join(seats)}", where=where, position=position
    )


def meld_source(m: MeldToken, seats: Sequence[str], winner: int) -> int | None:
    """The seat that fed a set (``<- S``), None when none is written."""
    if m.source is None:
        return None
    if m.kind is MeldKind.CONCEALED_KONG:
        raise NotationError(
            m.source, "no feeder: a concealed kong is not claimed", position=m.source_position
        )
    source = seat_of(m.source, seats, "hand", m.source_position)
    if source == winner:
        raise NotationError(
            m.source, "another player's seat (the feeder of the set)", position=m.source_position
        )
    return source


def win_source(
    req: ScoreRequest, seats: Sequence[str], winner: int
) -> tuple[WinSource, int | None]:
    """How the winning tile came (``--self-draw``, ``--from``, ``--robbing-kong``) and from whom.

    A kong replacement and a heavenly hand are self-drawn; an earthly hand is won on the
    dealer's discard, so ``--from`` may be left out for it.
    """
    self_drawn = req.self_draw or req.kong_replacement or req.heavenly
    frm = req.from_seat
    if req.earthly and frm is None:
        frm = req.dealer
    if self_drawn and frm is not None:
        raise NotationError(frm, "no --from: the win is self-drawn", where="--from")
    if req.robbing_kong and self_drawn:
        raise NotationError(
            "--robbing-kong", "a win on another player's kong tile, not a self-draw", where="flags"
        )
    if self_drawn:
        return WinSource.SELF_DRAW, None
    if frm is None:
        what = "the konger's seat" if req.robbing_kong else "the discarder's seat"
        raise NotationError("(none)", f"{what} ({' '.join(seats)}), or --self-draw", where="--from")
    discarder = seat_of(frm, seats, "--from")
    if discarder == winner:
        raise NotationError(
            frm, "another player's seat: nobody wins on their own discard", where="--from"
        )
    return (WinSource.ROBBED_KONG if req.robbing_kong else WinSource.DISCARD), discarder


def roles(
    seats: Sequence[str],
    winner: int,
    source: WinSource,
    discarder: int | None,
    liable: int | None = None,
) -> tuple[str, ...]:
    """Who is who at the table for the payments line: dealer (seat 0), winner, discarder…"""
    out = []
    for s in range(len(seats)):
        names = ["dealer"] if s == 0 else []
        if s == winner:
            names.append("winner")
        if s == discarder:
            names.append("konger" if source is WinSource.ROBBED_KONG else "discarder")
        if s == liable:
            names.append("liable")
        out.append(", ".join(names))
    return tuple(out)


def option_error(message: str, options: Mapping[str, object]) -> NotationError:
    """An :class:`replay.options.OptionError` as a NotationError naming the ``K=V`` given."""
    name = next((k for k in sorted(options) if repr(k) in message), None)
    token = f"{name}={options[name]}" if name is not None else ", ".join(map(str, options))
    if message.startswith("unknown option") and " for " in message:
        expected = "an option of " + message.split(" for ", 1)[1]
    else:
        expected = message.split(": expected ", 1)[1] if ": expected " in message else message
    return NotationError(token, expected, where="--option")


def typed_options(options: Mapping[str, object], apply: Callable[[Mapping[str, object]], T]) -> T:
    """The ruleset's options (``apply``: its ``options_for``) with the ``--option`` values;
    a bad one is reported as a NotationError, the same words for every mahjong scorer."""
    typed = option_values(options)
    try:
        return apply(typed)
    except OptionError as exc:
        raise option_error(str(exc), typed) from None


def check_first_turn(req: ScoreRequest, winner: int, discarder: int | None, n_melds: int) -> None:
    """Refuse ``--heavenly`` / ``--earthly`` where no first-turn win can be (seat 0 deals):
    the rule is the same in every mahjong preset, so it is written once."""
    if req.heavenly and (winner != 0 or n_melds):
        raise NotationError("--heavenly", "the dealer (E), with no set declared", where="flags")
    if req.earthly and (winner == 0 or discarder != 0):
        raise NotationError(
            "--earthly", "a non-dealer winning on the dealer's (E) discard", where="flags"
        )


def number(x: float | int) -> int | float:
    """An amount as an int when it is whole (the engines mix ``2`` and ``2.0``)."""
    return int(x) if float(x).is_integer() else x


def pattern_lines(
    patterns: Sequence[tuple[str, int]], instances: Sequence[str], section: Callable[[str], str]
) -> tuple[PatternLine, ...]:
    """The engine's (id, value) patterns as report lines; ``2 × 1`` notes a repeated one."""
    counts = Counter(instances)
    return tuple(
        PatternLine(pid, value, section(pid), f"{counts[pid]} × {value // counts[pid]}")
        if counts[pid] > 1
        else PatternLine(pid, value, section(pid))
        for pid, value in patterns
    )


def false_win(reason: str, seats: Sequence[str], offender: int, penalty: Sequence[float]) -> str:
    """Why a written hand is no win, with the false-win penalty declaring it would cost."""
    paid = ", ".join(
        f"{s} {number(d):+}"
        for s, d in sorted(zip(seats, penalty, strict=True), key=lambda x: x[1])
    )
    return f"{reason}; declaring it is a false win, settled {paid} ({seats[offender]} pays)"


def set_text(tiles: Sequence[int]) -> str:
    """Playing tiles of one set as the notation writes them: ``234m``, ``55p``, ``CCC``."""
    if tiles[0] < EAST:
        return "".join(str(t % 9 + 1) for t in tiles) + _SUITS[tiles[0] // 9]
    return "".join(PLAYING_TILES[t] for t in tiles)
