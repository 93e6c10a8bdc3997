"""Score the auditor against planted labels: recall and precision of its findings.

A label is *found* when the replay of its hand reports the same code at the same event
index (and, for FALSE_WIN, the same reason). Precision is judged on the serious classes
(PLAYER_VIOLATION, CORRUPT_LOG, SCORE_MISMATCH): a serious finding in a hand with no
label is a false alarm; so, more strictly, is a serious finding that no label names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mjaudit.parts.replay.engine.findings import SERIOUS, Finding, HandReport

Key = tuple[str, int]


@dataclass(frozen=True)
class Accuracy:
    hands: int
    planted_hands: int
    labels: int
    found: int
    missed: tuple[dict[str, Any], ...]
    serious_in_unplanted: tuple[tuple[Key, Finding], ...]
    unlabelled_serious: tuple[tuple[Key, Finding], ...]
    by_code: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # code -> (found, all)
    planted_flagged: int = 0  # planted hands with at least one serious finding
    labelled_serious: int = 0  # serious findings that a label names

    @property
    def recall(self) -> float:
        return self.found / self.labels if self.labels else 1.0

    @property
    def precision(self) -> float:
        """Share of hands with a serious finding that were planted (the brief's measure)."""
        flagged = self.planted_flagged + len({k for k, _ in self.serious_in_unplanted})
        return self.planted_flagged / flagged if flagged else 1.0

    @property
    def strict_precision(self) -> float:
        """Share of serious findings that a label names."""
        total = self.labelled_serious + len(self.unlabelled_serious)
        return self.labelled_serious / total if total else 1.0


def _matches(f: Finding, label: Mapping[str, Any]) -> bool:
    return (
        f.event_index == label["event_index"]
        and f.code == label["code"]
        and (label.get("reason") is None or f.reason == label["reason"])
    )


def score(reports: Iterable[HandReport], labels: Iterable[Mapping[str, Any]]) -> Accuracy:
    by_hand: dict[Key, list[Mapping[str, Any]]] = {}
    for lab in labels:
        by_hand.setdefault((lab["game_id"], lab["hand_no"]), []).append(lab)
    hands = found = n_labels = planted_flagged = labelled_serious = 0
    missed: list[dict[str, Any]] = []
    unplanted: list[tuple[Key, Finding]] = []
    unlabelled: list[tuple[Key, Finding]] = []
    per_code: Counter[str] = Counter()
    per_code_found: Counter[str] = Counter()
    replayed: set[Key] = set()
    for rep in reports:
        hands += 1
        key = (rep.game_id, rep.hand_no)
        replayed.add(key)
        mine = by_hand.get(key, [])
        serious = [f for f in rep.findings if f.cls in SERIOUS]
        for lab in mine:
            n_labels += 1
            per_code[lab["code"]] += 1
            if any(_matches(f, lab) for f in rep.findings):
                found += 1
                per_code_found[lab["code"]] += 1
            else:
                missed.append(dict(lab))
        if not mine:
            unplanted.extend((key, f) for f in serious)
            continue
        if serious:
            planted_flagged += 1
        for f in serious:
            if any(_matches(f, lab) for lab in mine):
                labelled_serious += 1
            else:
                unlabelled.append((key, f))
    for key in sorted(set(by_hand) - replayed):  # a labelled hand the replay never reported
        for lab in by_hand[key]:
            n_labels += 1
            per_code[lab["code"]] += 1
            missed.append(dict(lab))
    return Accuracy(
        hands=hands,
        planted_hands=len(by_hand),
        labels=n_labels,
        found=found,
        missed=tuple(missed),
        serious_in_unplanted=tuple(unplanted),
        unlabelled_serious=tuple(unlabelled),
        by_code={c: (per_code_found[c], per_code[c]) for c in sorted(per_code)},
        planted_flagged=planted_flagged,
        labelled_serious=labelled_serious,
    )
