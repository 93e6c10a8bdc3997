"""The ``mj-card/1`` card file: load, validate (american.md §5.1, §5.2, §5.4) and compile.

A card is user data (the real NMJL card is never shipped), so every rule of §5.4 is
checked and a bad file raises :class:`CardInvalid` naming the hand id and the token or
field at fault. Loading also *compiles* each hand: every binding (suit variables
injectively to suits × number variables in their domains, constraints holding, every
number in 1-9) is resolved once into a tuple of (kind, n) groups, so the matcher
(:mod:`replay.american.matcher`) works on count vectors only.

Cards are found by ``card_id`` through a small registry: the sample card shipped with the
package (§6) is always there; :func:`register_card` adds a user's file (what ``mjaudit
check --card FILE`` does, via :func:`load_and_register`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjaudit.parts.replay.rulesets.american.tiles import (
    COPIES,
    DRAGON_OF_SUIT,
    FLOWER,
    N_KINDS,
    WHITE,
    WIND0,
    name,
)

FORMAT = "mj-card/1"
SUITS = ("m", "p", "s")
SAMPLE_CARD_PATH = Path(__file__).with_name("cards") / "sample.yaml"
MAX_JOKERS = 8

_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
_NUM = re.compile(r"(?:([1-9])|\{([a-z])(?:([+-])([1-8]))?\})\.([ABC])\Z")
_DRAGON = re.compile(r"D\.([ABC])\Z")
_WINDS = ("E", "S", "W", "N")
_HAND_KEYS = frozenset(
    {
        "id",
        "category",
        "display",
        "concealed",
        "value",
        "vars",
        "constraints",
        "jokerless_bonus",
        "groups",
    }
)


class CardInvalid(ValueError):
    """A card file breaking §5.1/§5.2/§5.4; says which hand and which token or field."""

    code = "CARD_INVALID"

    def __init__(self, hand: str | None, where: str, message: str) -> None:
        self.hand = hand
        self.where = where
        self.detail = message
        at = f"hand {hand!r}, {where}" if hand is not None else where
        super().__init__(f"CARD_INVALID: {at}: {message}")


# --------------------------------------------------------------------------- tokens


@dataclass(frozen=True, slots=True)
class Token:
    """A parsed §5.2 token. ``kind`` is flower, zero, wind, dragon or number."""

    text: str
    kind: str
    wind: int = 0  # wind kind index, for kind == "wind"
    suitvar: str = ""  # A/B/C for dragon and number
    digit: int = 0  # literal number (0 when a variable is used)
    var: str = ""  # number variable
    offset: int = 0

    def resolve(self, suits: Mapping[str, int], values: Mapping[str, int]) -> int | None:
        """The tile kind under a binding; None if the number leaves 1-9."""
        k = self.kind
        if k == "flower":
            return FLOWER
        if k == "zero":
            return WHITE
        if k == "wind":
            return self.wind
        if k == "dragon":
            return DRAGON_OF_SUIT[suits[self.suitvar]]
        n = self.digit or values[self.var] + self.offset
        if not 1 <= n <= 9:
            return None
        return suits[self.suitvar] * 9 + n - 1


def parse_token(text: object, hand: str | None = None, where: str = "t") -> Token:
    """Parse one token of §5.2 or raise :class:`CardInvalid`."""
    if not isinstance(text, str):
        raise CardInvalid(
            hand,
            where,
            f"token {text!r} is not a string (quote it: YAML reads unquoted N, 0, y, n as "
            "booleans or numbers in some dialects)",
        )
    if text == "F":
        return Token(text, "flower")
    if text == "0":
        return Token(text, "zero")
    if text in _WINDS:
        return Token(text, "wind", wind=WIND0 + _WINDS.index(text))
    m = _DRAGON.match(text)
    if m:
        return Token(text, "dragon", suitvar=m.group(1))
    m = _NUM.match(text)
    if m:
        digit, var, sign, off, suitvar = m.groups()
        offset = 0 if off is None else (int(off) if sign == "+" else -int(off))
        return Token(
            text, "number", suitvar=suitvar, digit=int(digit or 0), var=var or "", offset=offset
        )
    raise CardInvalid(
        hand,
        where,
        f"token {text!r} does not parse (expected F, 0, E/S/W/N, D.A, 3.A, {{x}}.A or "
        "{x+1}.A with suit variable A, B or C)",
    )


# --------------------------------------------------------------------------- compiled card


@dataclass(frozen=True, slots=True)
class Binding:
    """One resolved binding of a hand: its groups as (kind, n), and their count vectors.

    ``small[t]`` is the number of naturals of kind t the singles and pairs need (jokers
    never go there), ``big[t]`` the slots of kind t in groups of 3-6 (naturals or jokers).
    """

    suits: tuple[tuple[str, str], ...]
    values: tuple[tuple[str, int], ...]
    groups: tuple[tuple[int, int], ...]
    small: tuple[int, ...]
    big: tuple[int, ...]

    def describe(self) -> str:
        parts = [f"{v}={SUITS_NAME[s]}" for v, s in self.suits]
        parts += [f"{v}={n}" for v, n in self.values]
        return ", ".join(parts)

    def group_slots(self) -> dict[tuple[int, int], int]:
        """How many groups of each (kind, n) with n >= 3: where exposures may go (§5.3 rule 3)."""
        out: dict[tuple[int, int], int] = {}
        for g in self.groups:
            if g[1] >= 3:
                out[g] = out.get(g, 0) + 1
        return out


SUITS_NAME = {"m": "craks", "p": "dots", "s": "bams"}


@dataclass(frozen=True)
class CardHand:
    id: str
    index: int
    concealed: bool
    value: int
    groups: tuple[tuple[Token, int], ...]
    jokerless_eligible: bool
    bindings: tuple[Binding, ...]
    category: str = ""
    display: str = ""
    variables: tuple[tuple[str, tuple[int, ...]], ...] = ()
    constraints: tuple[tuple[object, str, object], ...] = ()


@dataclass(frozen=True)
class Card:
    card_id: str
    hands: tuple[CardHand, ...]
    title: str = ""
    year: int | None = None
    source: str = ""
    by_id: Mapping[str, CardHand] = field(default_factory=dict, compare=False, repr=False)

    def hand(self, hand_id: str) -> CardHand:
        return self.by_id[hand_id]


# --------------------------------------------------------------------------- validation


def _need(obj: Mapping[str, Any], key: str, hand: str | None, where: str) -> Any:
    if key not in obj:
        raise CardInvalid(hand, where, f"the field {key!r} is required")
    return obj[key]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _domain(spec: object, hand: str, var: str) -> tuple[int, ...]:
    where = f"vars.{var}"
    if not isinstance(spec, Mapping):
        raise CardInvalid(hand, where, "a domain is {min: a, max: b} or {in: [...]}")
    keys = set(spec)
    if keys == {"in"}:
        values = spec["in"]
        if not isinstance(values, list) or not values or not all(_is_int(v) for v in values):
            raise CardInvalid(hand, where + ".in", "expected a non-empty list of integers")
        dom = tuple(dict.fromkeys(values))
    elif keys == {"min", "max"}:
        lo, hi = spec["min"], spec["max"]
        if not (_is_int(lo) and _is_int(hi)) or lo > hi:
            raise CardInvalid(
                hand, where, f"min {lo!r} and max {hi!r} must be integers, min <= max"
            )
        dom = tuple(range(lo, hi + 1))
    else:
        raise CardInvalid(hand, where, f"keys {sorted(map(str, keys))}: expected min/max or in")
    bad = [v for v in dom if not 1 <= v <= 9]
    if bad:
        raise CardInvalid(hand, where, f"values {bad} are outside 1-9")
    return dom


def _variables(raw: object, hand: str) -> dict[str, tuple[int, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise CardInvalid(hand, "vars", "expected a mapping of variable name to domain")
    out: dict[str, tuple[int, ...]] = {}
    for var, spec in raw.items():
        if not isinstance(var, str) or not re.fullmatch(r"[a-z]", var):
            raise CardInvalid(
                hand,
                f"vars.{var}",
                f"variable name {var!r} is not one lower-case letter (quote y and n in YAML)",
            )
        out[var] = _domain(spec, hand, var)
    return out


def _constraints(
    raw: object, hand: str, variables: Mapping[str, tuple[int, ...]]
) -> tuple[tuple[object, str, object], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise CardInvalid(hand, "constraints", "expected a list of [lhs, op, rhs]")
    out = []
    for i, c in enumerate(raw):
        where = f"constraints[{i}]"
        if not isinstance(c, list) or len(c) != 3:
            raise CardInvalid(hand, where, f"{c!r} is not [lhs, op, rhs]")
        lhs, op, rhs = c
        if op not in _OPS:
            raise CardInvalid(hand, where, f"operator {op!r} is not one of {' '.join(_OPS)}")
        for operand in (lhs, rhs):
            if _is_int(operand):
                continue
            if not isinstance(operand, str) or operand not in variables:
                raise CardInvalid(
                    hand, where, f"operand {operand!r} is not a declared variable or an integer"
                )
        out.append((lhs, op, rhs))
    return tuple(out)


def _groups(raw: object, hand: str) -> tuple[tuple[Token, int], ...]:
    if not isinstance(raw, list) or not raw:
        raise CardInvalid(hand, "groups", "expected a non-empty list of {t: token, n: size}")
    out = []
    for i, g in enumerate(raw):
        where = f"groups[{i}]"
        if not isinstance(g, Mapping) or set(g) != {"t", "n"}:
            raise CardInvalid(hand, where, f"{g!r}: a group is exactly {{t: token, n: size}}")
        n = g["n"]
        if not _is_int(n) or not 1 <= n <= 6:
            raise CardInvalid(hand, where + ".n", f"group size {n!r} is not an integer 1-6")
        out.append((parse_token(g["t"], hand, where + ".t"), n))
    total = sum(n for _, n in out)
    if total != 14:
        raise CardInvalid(hand, "groups", f"the group sizes total {total}, not 14")
    return tuple(out)


def _holds(constraints: tuple[tuple[object, str, object], ...], values: Mapping[str, int]) -> bool:
    for lhs, op, rhs in constraints:
        a = lhs if _is_int(lhs) else values[lhs]  # type: ignore[index]
        b = rhs if _is_int(rhs) else values[rhs]  # type: ignore[index]
        if not _OPS[op](a, b):  # type: ignore[arg-type]
            return False
    return True


def completable(small: tuple[int, ...] | list[int], big: tuple[int, ...] | list[int]) -> bool:
    """§5.4: the naturals of singles/pairs exist and the jokers needed are at most 8."""
    jokers = 0
    for t in range(N_KINDS):
        free = COPIES[t] - small[t]
        if free < 0:
            return False
        if big[t] > free:
            jokers += big[t] - free
    return jokers <= MAX_JOKERS


def compile_bindings(
    hand: str,
    groups: tuple[tuple[Token, int], ...],
    variables: Mapping[str, tuple[int, ...]],
    constraints: tuple[tuple[object, str, object], ...],
) -> tuple[tuple[Binding, ...], int]:
    """Every distinct completable binding, and how many valid bindings there were in all."""
    suit_vars = sorted({tok.suitvar for tok, _ in groups if tok.suitvar})
    used = {tok.var for tok, _ in groups if tok.var}
    used |= {x for c in constraints for x in (c[0], c[2]) if isinstance(x, str)}
    num_vars = sorted(used)
    for v in num_vars:
        if v not in variables:
            raise CardInvalid(hand, "vars", f"variable {v!r} is used but not declared")
    out: list[Binding] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    valid = 0
    for values_t in itertools.product(*(variables[v] for v in num_vars)):
        values = dict(zip(num_vars, values_t, strict=True))
        if not _holds(constraints, values):
            continue
        for perm in itertools.permutations(range(3), len(suit_vars)):
            suits = dict(zip(suit_vars, perm, strict=True))
            resolved = [(tok.resolve(suits, values), n) for tok, n in groups]
            if any(k is None for k, _ in resolved):
                continue
            valid += 1
            gs: tuple[tuple[int, int], ...] = tuple(resolved)  # type: ignore[arg-type]
            key = tuple(sorted(gs))
            if key in seen:
                continue
            small = [0] * N_KINDS
            big = [0] * N_KINDS
            for k, n in gs:
                (small if n <= 2 else big)[k] += n
            if not completable(small, big):
                continue
            seen.add(key)
            out.append(
                Binding(
                    suits=tuple((v, SUITS[s]) for v, s in suits.items()),
                    values=tuple(values.items()),
                    groups=gs,
                    small=tuple(small),
                    big=tuple(big),
                )
            )
    return tuple(out), valid


def _hand(raw: object, index: int) -> CardHand:
    if not isinstance(raw, Mapping):
        raise CardInvalid(None, f"hands[{index}]", "a hand is a mapping")
    hid = _need(raw, "id", None, f"hands[{index}]")
    if not isinstance(hid, str) or not hid:
        raise CardInvalid(None, f"hands[{index}].id", f"id {hid!r} is not a non-empty string")
    extra = set(raw) - _HAND_KEYS
    if extra:
        raise CardInvalid(hid, sorted(map(str, extra))[0], "unknown field")
    concealed = _need(raw, "concealed", hid, "concealed")
    if not isinstance(concealed, bool):
        raise CardInvalid(hid, "concealed", f"{concealed!r} is not true or false")
    value = _need(raw, "value", hid, "value")
    if not _is_int(value) or value <= 0:
        raise CardInvalid(hid, "value", f"{value!r} is not a positive integer")
    for key in ("category", "display"):
        if key in raw and not isinstance(raw[key], str):
            raise CardInvalid(hid, key, f"{raw[key]!r} is not a string")
    bonus = raw.get("jokerless_bonus", "auto")
    if not (bonus == "auto" or bonus is False):
        raise CardInvalid(hid, "jokerless_bonus", f"{bonus!r}: expected auto or false")
    variables = _variables(raw.get("vars"), hid)
    constraints = _constraints(raw.get("constraints"), hid, variables)
    groups = _groups(_need(raw, "groups", hid, "groups"), hid)
    for i, (tok, _) in enumerate(groups):
        if tok.var and tok.var not in variables:
            raise CardInvalid(
                hid,
                f"groups[{i}].t",
                f"token {tok.text!r} uses the undeclared variable {tok.var!r}",
            )
    bindings, valid = compile_bindings(hid, groups, variables, constraints)
    if valid == 0:
        raise CardInvalid(
            hid,
            "vars",
            "no binding satisfies the domains, the constraints and the 1-9 range of every number",
        )
    if not bindings:
        raise CardInvalid(
            hid,
            "groups",
            "cannot be completed with the 152-tile set under any binding (singles/pairs need "
            "more naturals than exist, or more than 8 jokers are needed)",
        )
    return CardHand(
        id=hid,
        index=index,
        concealed=concealed,
        value=value,
        groups=groups,
        jokerless_eligible=bonus == "auto" and any(n >= 3 for _, n in groups),
        bindings=bindings,
        category=raw.get("category", ""),
        display=raw.get("display", ""),
        variables=tuple(variables.items()),
        constraints=constraints,
    )


def card_from_obj(obj: object, source: str = "") -> Card:
    """Validate a decoded card document (§5.1) and compile it."""
    if not isinstance(obj, Mapping):
        raise CardInvalid(None, "document", "a card is a mapping with format, card_id, hands")
    fmt = obj.get("format")
    if fmt != FORMAT:
        raise CardInvalid(None, "format", f"{fmt!r} is not {FORMAT!r}")
    card_id = _need(obj, "card_id", None, "card_id")
    if not isinstance(card_id, str) or not card_id:
        raise CardInvalid(None, "card_id", f"{card_id!r} is not a non-empty string")
    year = obj.get("year")
    if year is not None and not _is_int(year):
        raise CardInvalid(None, "year", f"{year!r} is not an integer")
    title = obj.get("title", "")
    if not isinstance(title, str):
        raise CardInvalid(None, "title", f"{title!r} is not a string")
    raw_hands = _need(obj, "hands", None, "hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise CardInvalid(None, "hands", "expected a non-empty list of hands")
    hands: list[CardHand] = []
    by_id: dict[str, CardHand] = {}
    for i, raw in enumerate(raw_hands):
        h = _hand(raw, i)
        if h.id in by_id:
            raise CardInvalid(
                h.id, "id", f"duplicate hand id (hands[{by_id[h.id].index}] and hands[{i}])"
            )
        by_id[h.id] = h
        hands.append(h)
    return Card(card_id, tuple(hands), title, year, source, by_id)


def parse_card(text: str | bytes, source: str = "") -> Card:
    """Parse a YAML 1.2 (or JSON) card document."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    if isinstance(text, bytes):
        text = text.decode("utf-8")
    yaml = YAML(typ="safe", pure=True)
    try:
        obj = yaml.load(text)
    except (YAMLError, json.JSONDecodeError) as exc:
        raise CardInvalid(None, "document", f"not a YAML 1.2 / JSON document: {exc}") from None
    return card_from_obj(obj, source)


def load_card(path: str | Path) -> Card:
    """Load and validate a card file (``mj-card/1``, YAML or JSON)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise CardInvalid(None, "file", f"cannot read {p}: {exc.strerror}") from None
    return parse_card(data, str(p))


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Card] = {}


def sample_card() -> Card:
    """The original sample card of §6 (shipped for tests and the demo)."""
    card = _REGISTRY.get("sample-original-1")
    if card is None or card.source != str(SAMPLE_CARD_PATH):
        card = load_card(SAMPLE_CARD_PATH)
        _REGISTRY.setdefault(card.card_id, card)
    return card


def register_card(card: Card) -> None:
    """Make ``card`` findable by its ``card_id`` (a later registration replaces it)."""
    _REGISTRY[card.card_id] = card


_BY_FILE: dict[tuple[str, int, int], Card] = {}


def load_and_register(path: str | Path) -> Card:
    """Load, validate and register a card file; what ``check --card FILE`` calls.

    Cached by (path, mtime, size): the engine calls it for every hand of an archive.
    """
    p = Path(path)
    try:
        st = p.stat()
        key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    except OSError:
        key = None
    card = _BY_FILE.get(key) if key is not None else None
    if card is None:
        card = load_card(p)
        if key is not None:
            _BY_FILE[key] = card
    register_card(card)
    return card


# A data folder keeps its clubs' cards in ``cards/`` (``mjaudit card add``), so an archive
# replay (in any worker process) finds every card its american records name.
CARDS_DIR = "cards"
CARD_SUFFIXES = (".yaml", ".yml", ".json")


def card_files(root: str | Path) -> list[Path]:
    folder = Path(root) / CARDS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in CARD_SUFFIXES and p.is_file())


def cards_digest(root: str | Path) -> str:
    """A digest of the data folder's card files ("" without any): when a card changes,
    the american hands of the archive must be replayed again."""
    files = card_files(root)
    if not files:
        return ""
    h = hashlib.blake2b(digest_size=16)
    for p in files:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def register_folder(root: str | Path) -> list[Card]:
    """Load and register every card of the data folder's ``cards/`` (sorted by name)."""
    return [load_and_register(p) for p in card_files(root)]


def find_card(card_id: str) -> Card | None:
    """The registered card with this id (the shipped sample card included)."""
    if card_id not in _REGISTRY:
        sample_card()
    return _REGISTRY.get(card_id)


def describe_groups(b: Binding) -> str:
    """``FFF 2m P 3m 1m 3p×4 1s×3``-style rendering of a binding, for messages."""
    return " ".join(f"{name(k)}×{n}" if n > 1 else name(k) for k, n in b.groups)
