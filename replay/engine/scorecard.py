"""Valuing one winning hand without a log: the contract of ``mjaudit score``.

A referee at the table asks "what is this hand worth, and who pays what?". Each ruleset
folder that can answer declares a :data:`Scorer` on its :class:`replay.ruleset.Ruleset`
(``scorer=``); the command parses nothing itself. A scorer reads the compact notation of
its own game (tiles, melds, khung codes, a card), builds the same context the replay
engine builds for a declared win and calls the engine's own scoring, so there is one
scorer per ruleset, never a second one.

Bad notation raises :class:`NotationError` naming the token, where it stands and what
was expected; the command prints it and exits 2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Number = int | float


class NotationError(ValueError):
    """A token of the hand notation (or of a flag) that cannot be read.

    ``where`` names the flag or "hand"; ``position`` is the token's 0-based character
    offset in that text (None when the whole value is wrong).
    """

    def __init__(
        self, token: str, expected: str, *, where: str = "hand", position: int | None = None
    ) -> None:
        self.token = token
        self.expected = expected
        self.where = where
        self.position = position
        at = f" at column {position + 1}" if position is not None else ""
        super().__init__(f"{where}: {token!r}{at}: expected {expected}")


@dataclass(frozen=True)
class ScoreRequest:
    """What the user said about the win, ruleset-neutral; a scorer uses what its game has.

    Seats and winds are the letters E S W N (2-player: E W). ``win`` is the winning tile
    (or card) code; ``from_seat`` None with ``self_draw`` False means the scorer asks for
    one of them. ``heavenly`` / ``earthly`` say the timing of a dealer's first-turn win
    and of a win on the dealer's first discard, which no notation shows. ``extras`` are
    flags only one game has (american ``card`` files, hk-mahjongo ``kong_chain``, …).
    """

    hand: str
    win: str | None = None
    seat: str = "E"
    from_seat: str | None = None
    round: str = "E"
    dealer: str = "E"
    flowers: tuple[str, ...] = ()
    self_draw: bool = False
    last_tile: bool = False
    robbing_kong: bool = False
    kong_replacement: bool = False
    heavenly: bool = False
    earthly: bool = False
    liable: str | None = None
    options: Mapping[str, object] = field(default_factory=dict)
    extras: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class PatternLine:
    """One scoring pattern of the best reading: its id, value, unit and rules section."""

    id: str
    value: Number
    section: str  # e.g. "hk-classic §5.3"
    note: str = ""


@dataclass(frozen=True)
class ScoreReport:
    """The value of one win in the ruleset's own unit, and the payments of each seat.

    ``unit`` is the ruleset's own word ("fan", "phán", "points", "điểm"); statistics never
    mix units. ``payments`` are per-seat deltas in seat order (``seats``), summing to 0
    (a self-draw, a discard win and Pao differ only in who pays). ``reading`` says how the
    hand was read (the decomposition, the khung assignment, the card hand). ``roles``, when
    given, says per seat (same order) who is who: "winner", "dealer, discarder", "liable".
    """

    ruleset: str
    unit: str
    patterns: tuple[PatternLine, ...]
    raw: Number
    value: Number  # after the cap
    cap: Number | None
    minimum: Number | None
    meets_minimum: bool
    seats: tuple[str, ...]
    payments: tuple[Number, ...]
    reading: str = ""
    notes: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        """Plain data for ``--format json`` (field names are the contract)."""
        return {
            "ruleset": self.ruleset,
            "unit": self.unit,
            "patterns": [
                {"id": p.id, "value": p.value, "section": p.section, "note": p.note}
                for p in self.patterns
            ],
            "raw": self.raw,
            "value": self.value,
            "cap": self.cap,
            "minimum": self.minimum,
            "meets_minimum": self.meets_minimum,
            "payments": dict(zip(self.seats, self.payments, strict=True)),
            "reading": self.reading,
            "notes": list(self.notes),
            "roles": {s: r for s, r in zip(self.seats, self.roles, strict=False) if r},
        }


def roles_of(n: int, *marks: tuple[int | None, str]) -> tuple[str, ...]:
    """:attr:`ScoreReport.roles` of ``n`` seats: each seat's names among ``marks``
    (``(seat, name)``; a None seat names nobody), comma-joined, in the order given."""
    return tuple(", ".join(name for seat, name in marks if seat == s) for s in range(n))


Scorer = Callable[[str, ScoreRequest], ScoreReport]
"""``(ruleset_id, request) -> report``; raises :class:`NotationError` on bad input and
``ValueError`` for a hand that is not a win (the message says why)."""
