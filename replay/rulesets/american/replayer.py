"""Replay one American hand record into a :class:`HandReport` (record in, report out).

The card is found from ``overrides["card_file"]`` (a path: loaded, validated and
registered) or else by ``options.card`` in the card registry
(:func:`replay.american.card.find_card`; the shipped sample card is always there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.loop import FromMerged, HandRules, Overrides
from mjaudit.parts.replay.engine.recorded import (
    deltas_diff,
    mismatch,
    penalties_diff,
    value_diff,
    winners_diff,
)
from mjaudit.parts.replay.engine.rotation import Rotation, check_rotation
from mjaudit.parts.replay.rulesets.american.card import (
    Card,
    CardInvalid,
    find_card,
    load_and_register,
)
from mjaudit.parts.replay.rulesets.american.hand import AmericanHand
from mjaudit.parts.replay.rulesets.american.options import AmericanOptions, options_for

Observer = Callable[[int, AmericanHand], None]


def resolve_card(
    opts: AmericanOptions, overrides: Mapping[str, object] | None
) -> tuple[Card | None, str | None]:
    """The card for a record, or (None, why) for a CARD_INVALID finding (#2)."""
    path = (overrides or {}).get("card_file")
    if path is not None:
        try:
            card = load_and_register(str(path))
        except CardInvalid as exc:
            return None, f"card file {path}: {exc}"
        if opts.card is not None and opts.card != card.card_id:
            return (
                None,
                f"options.card is {opts.card!r} but the card file {path} is {card.card_id!r}",
            )
        return card, None
    if opts.card is None:
        return None, "options.card does not name the card (required, §9.1)"
    card = find_card(opts.card)
    if card is None:
        return None, f"no card {opts.card!r} is loaded (pass the card file: check --card FILE)"
    return card, None


def _hand(
    record: dict[str, Any],
    opts: AmericanOptions,
    previous: HandReport | None,
    overrides: Overrides,
) -> AmericanHand:
    card, why = resolve_card(opts, overrides)
    hand = AmericanHand(record, opts, card)
    hand.card_problem = why
    return hand


def _refuse(hand: AmericanHand) -> Finding | None:
    """#2 CARD_INVALID: no card to judge the hand by."""
    if hand.card is not None:
        return None
    return Finding(None, None, "CARD_INVALID", FindingClass.CORRUPT_LOG, hand.card_problem or "")


def _fields(
    hand: AmericanHand, base: dict[str, Any], previous: HandReport | None
) -> dict[str, Any]:
    deltas = hand.settlement()
    win = hand.win if not hand.stopped else None
    match = win.match if win is not None else None
    extras: dict[str, Any] = {
        "card_id": hand.card.card_id if hand.card is not None else None,
        "hand": match.hand.id if match else None,
        "jokerless": match.jokerless if match else None,
        "card_value": match.hand.value if match else None,
        "jokerless_bonus": match.bonus if match else None,
        "binding": match.binding.describe() if match else None,
        "category": match.hand.category if match else None,
        "initial_mahjong": win.initial if win else False,
        "dead": {str(s): c for s, c in sorted(hand.dead.items())},
        "penalties": [{"seat": s, "code": c, "deltas": d} for s, c, d in hand.penalties],
    }
    return dict(
        base,
        winners=(win.seat,) if win is not None else (),
        self_drawn=bool(win and win.self_drawn),
        discarder=win.discarder if win is not None and not win.self_drawn else None,
        fan=match.final if match else None,
        raw_fan=match.hand.value if match else None,
        patterns=((match.hand.id, match.final),) if match else (),
        liable=win.discarder if win is not None and not win.self_drawn else None,
        deltas=None if deltas is None else tuple(deltas),
        ended_by="corrupt" if hand.stopped else hand.ended_by,
        extras=extras,
    )


def _rotation(hand: AmericanHand, previous: HandReport | None) -> None:
    """#5 DEALER_ROTATION_MISMATCH: East passes right after every hand (§2.5)."""
    rules = Rotation(
        stays=lambda prev: False,
        missing="hand {n} is not in the archive: rotation not checked",
        dealer="the dealer is seat {dealer}, but East passes right every hand: expected seat {expected}",
    )
    check_rotation(hand, previous, rules)


def _compare(hand: AmericanHand, result: dict[str, Any], report: dict[str, Any]) -> bool:
    """#36 RESULT_MISMATCH: winners, fan (= V), patterns (= [hand id]), deltas, penalties."""
    diffs = [winners_diff(result.get("winners", []), report["winners"])]
    if result.get("fan") is not None and report["winners"]:
        diffs.append(value_diff("value", result["fan"], report["fan"]))
    if result.get("patterns") is not None and report["winners"]:
        computed = [p for p, _ in report["patterns"]]
        if list(result["patterns"]) != computed:  # one card hand, in order
            diffs.append(f"hand recorded {result['patterns']}, computed {computed}")
    if result.get("deltas") is not None and report["deltas"] is not None:
        diffs.append(deltas_diff(result["deltas"], report["deltas"]))
    if result.get("penalties"):
        computed_p = ((s, c) for s, c, _ in hand.penalties)
        diffs.append(penalties_diff(result["penalties"], computed_p))
    return mismatch(hand, "RESULT_MISMATCH", diffs)


RULES = HandRules(
    FromMerged(options_for),
    _hand,
    _fields,
    _compare,
    option_error="RECORD_INVALID",
    rotation=_rotation,
    refuse=_refuse,
)
replay_american = RULES.replay  # the registry's replay: the one loop on these rules
replay_to = RULES.replay_to  # the table after an event, for step-through
