"""Shared by the ``mjaudit score`` tests: score a hand through the registry, as the command does."""

from __future__ import annotations

from typing import Any

from mjaudit.parts.replay.engine.registry import get
from mjaudit.parts.replay.engine.scorecard import ScoreReport, ScoreRequest


def score(ruleset: str, hand: str, **flags: Any) -> ScoreReport:
    """The ruleset's declared scorer on one request."""
    rules = get(ruleset)
    assert rules is not None and rules.scorer is not None
    return rules.scorer(ruleset, ScoreRequest(hand=hand, **flags))


def pays(report: ScoreReport) -> dict[str, int | float]:
    """Payments by seat letter."""
    return dict(zip(report.seats, report.payments, strict=True))


def pats(report: ScoreReport) -> dict[str, int | float]:
    """Pattern id -> value of the best reading."""
    return {p.id: p.value for p in report.patterns}
