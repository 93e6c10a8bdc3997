"""Comparing what the source recorded (``result``) with what the replay computed.

Every ruleset compares the same aspects (winners, the value, the patterns, the payments,
the penalties) in its own words ("fan", "phán", "value", "total"; "patterns", "hand",
"cước"), and reports all differences of a hand as one SCORE_MISMATCH finding on its last
event. The pieces are here once; each ruleset's ``_compare`` says which aspects
its rules compare and how it names them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mjaudit.parts.replay.engine.findings import HandFindings, points


def numbers(xs: Iterable[float]) -> list[int | float]:
    return [points(x) for x in xs]


def deltas_differ(recorded: Sequence[float], computed: Sequence[float]) -> bool:
    return len(recorded) != len(computed) or any(
        abs(a - b) > 1e-9 for a, b in zip(recorded, computed, strict=False)
    )


def deltas_diff(
    recorded: Sequence[float],
    computed: Sequence[float],
    shown: Callable[[Sequence[float]], list[Any]] = numbers,
) -> str | None:
    if not deltas_differ(recorded, computed):
        return None
    return f"deltas recorded {shown(recorded)}, computed {shown(computed)}"


def winners_diff(recorded: Iterable[int], computed: Sequence[int]) -> str | None:
    a = sorted(recorded)
    return None if a == list(computed) else f"winners recorded {a}, computed {list(computed)}"


def value_diff(label: str, recorded: Any, computed: Any) -> str | None:
    return None if recorded == computed else f"{label} recorded {recorded}, computed {computed}"


def multiset_diff(
    label: str, recorded: Iterable[str], computed: Iterable[str], word: str = "computed"
) -> str | None:
    """The two lists as multisets (sorted lists compare like Counters, and cheaper)."""
    a, b = sorted(recorded), sorted(computed)
    return None if a == b else f"{label} recorded {a}, {word} {b}"


def penalties_diff(
    recorded: Iterable[dict[str, Any]], computed: Iterable[tuple[int, str]]
) -> str | None:
    """The (seat, code) of each penalty, as multisets."""
    want = Counter((p["seat"], p["code"]) for p in recorded)
    got = Counter(computed)
    return None if want == got else f"penalties recorded {sorted(want)}, computed {sorted(got)}"


def last_event(record: dict[str, Any]) -> int | None:
    events = record.get("events")
    return len(events) - 1 if events else None


def mismatch(hand: HandFindings, code: str, diffs: Iterable[str | None]) -> bool:
    """One SCORE_MISMATCH finding ``code`` listing ``diffs`` (None: no difference) on the
    hand's last event; True when there is nothing to report."""
    found = [d for d in diffs if d is not None]
    if found:
        hand.audit(last_event(hand.record), None, code, "; ".join(found))
    return not found


def multiple_winners(hand: HandFindings, winners: Sequence[int], settles: str) -> None:
    """MULTIPLE_WINNERS: the log records more winners than the ruleset settles."""
    hand.audit(
        last_event(hand.record),
        None,
        "MULTIPLE_WINNERS",
        f"the log records {len(winners)} winners; {settles} settles only the head-bump winner",
    )
