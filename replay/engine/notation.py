"""Reading the compact hand notation of ``mjaudit score``: pieces, brackets and codes.

Every game writes a hand the same way: codes separated by spaces (or commas), several
codes run together (``3p3p3pJ``, ``7n7n7n``, a digit run such as ``111s``), and groups on
the table in brackets, optionally named by a lower-case word: ``[pung 5p5p5p]``,
``[kong 7m]``, ``[chiu 7n]``. What the codes and the words mean is the game's own
business (``replay/rulesets/<family>/score.py``); this module only splits the text and keeps the
column of every token, so a :class:`~replay.scorecard.NotationError` can point at it.
A scorer takes that error from here too, with the rest of its notation kit.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TypeVar

from mjaudit.parts.replay.engine.options import OptionError
from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreRequest

T = TypeVar("T")

_WORD = re.compile(r"[a-z][a-z_]*\Z")
_CHUNK = re.compile(r"[^\s,\[\]]+")


@dataclass(frozen=True, slots=True)
class Chunk:
    """One space-separated piece of text and its 0-based column in the hand text."""

    text: str
    position: int


@dataclass(frozen=True, slots=True)
class Piece:
    """A loose chunk of codes, or one bracket ``[word chunk chunk …]``.

    ``word`` is the bracket's leading lower-case word (None when it has none or for a
    loose chunk); ``chunks`` are the code chunks; ``position`` the column of the chunk
    or of the opening bracket; ``text`` what the user wrote, for messages.
    """

    text: str
    position: int
    bracket: bool
    word: str | None
    chunks: tuple[Chunk, ...]


def pieces(text: str, where: str = "hand") -> list[Piece]:
    """Split ``text`` into loose chunks and brackets; a stray or unclosed bracket is an error."""
    out: list[Piece] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
        elif ch == "]":
            raise NotationError("]", "a ']' only after an opening '['", where=where, position=i)
        elif ch == "[":
            close = text.find("]", i + 1)
            inner_open = text.find("[", i + 1)
            if close < 0 or 0 <= inner_open < close:
                end = inner_open if inner_open >= 0 else len(text)
                raise NotationError(
                    text[i:end].rstrip(),
                    "a bracket closed by ']' before the next '['",
                    where=where,
                    position=i,
                )
            chunks = [
                Chunk(m.group(), i + 1 + m.start()) for m in _CHUNK.finditer(text[i + 1 : close])
            ]
            word = None
            if chunks and _WORD.match(chunks[0].text):
                word = chunks.pop(0).text
            out.append(Piece(text[i : close + 1], i, True, word, tuple(chunks)))
            i = close + 1
        else:
            m = _CHUNK.match(text, i)
            assert m is not None  # ch is neither space, comma nor bracket
            out.append(Piece(m.group(), i, False, None, (Chunk(m.group(), i),)))
            i = m.end()
    return out


def codes(
    chunk: Chunk, code: re.Pattern[str], expected: str, where: str = "hand"
) -> list[tuple[str, int]]:
    """The codes run together in ``chunk`` with their columns.

    ``code`` matches one code, or a digit run and a suit letter (groups ``run`` and
    ``suit``: ``111s`` is ``1s 1s 1s``). The first text that is no code is the error's
    token.
    """
    out: list[tuple[str, int]] = []
    i = 0
    text = chunk.text
    while i < len(text):
        m = code.match(text, i)
        if m is None:
            raise NotationError(text[i:], expected, where=where, position=chunk.position + i)
        run = m.groupdict().get("run")
        if run is not None:
            out += [(d + m.group("suit"), chunk.position + i + k) for k, d in enumerate(run)]
        else:
            out.append((m.group(), chunk.position + i))
        i = m.end()
    return out


def piece_codes(piece: Piece, code: re.Pattern[str], expected: str) -> list[str]:
    """Every code of ``piece`` in order, columns dropped: what a scorer reads off a loose
    chunk (one chunk) or a bracket (its chunks after the word)."""
    return [c for chunk in piece.chunks for c, _ in codes(chunk, code, expected)]


def option_values(options: Mapping[str, object]) -> dict[str, object]:
    """``--option`` values arrive as text: read JSON (true, 2, lists) as ``check`` does."""
    out: dict[str, object] = {}
    for key, value in options.items():
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                value = json.loads(value)
        out[key] = value
    return out


def read_options(
    options: Mapping[str, object],
    known: Collection[str],
    apply: Callable[[Mapping[str, object]], T],
    ruleset: str,
    also: Collection[str] = (),
) -> T:
    """The ruleset's typed options from ``--option`` pairs; an error names the pair.

    ``apply`` is the ruleset's ``options_for``; ``also`` are the scorer's own keys (listed
    in the message for an unknown key, handled by the caller).
    """
    values = option_values(options)
    for key in sorted(values):
        if key not in known:
            names = ", ".join(sorted({*known, *also}))
            raise NotationError(key, f"an option of {ruleset} ({names})", where="--option")
        try:
            apply({key: values[key]})
        except OptionError as exc:
            why = str(exc).partition("expected ")[2].rpartition("; got")[0] or str(exc)
            raise NotationError(f"{key}={options[key]}", why, where="--option") from None
    return apply(values)


def refuse_mahjong_flags(request: ScoreRequest, why: str) -> None:
    """A flag of the Hong Kong-style games that this game has no use for is an error, not
    silently ignored (``why`` says what the game has instead)."""
    for flag, used in (
        ("--flowers", bool(request.flowers)),
        ("--last-tile", request.last_tile),
        ("--robbing-kong", request.robbing_kong),
        ("--kong-replacement", request.kong_replacement),
    ):
        if used:
            raise NotationError(flag, f"no {flag} in this game: {why}", where=flag)
