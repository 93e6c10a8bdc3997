"""The tables the rules commands print (Rich): ``mjaudit card validate``'s card and
``mjaudit score``'s scored win, so those commands only parse, call and print.

Kept apart from :mod:`dashboards.terminal`, which needs polars and DuckDB, so that these
quick commands load neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from mjaudit.parts.replay.engine.scorecard import ScoreReport
    from mjaudit.parts.replay.rulesets.american.card import Card


def card_table(card: Card) -> Table:
    """A valid card's hands: id, concealed (C) or exposed (X), value, groups, bindings."""
    table = Table(title=f"{card.card_id}: {len(card.hands)} hands, valid")
    for col in ("hand", "C/X", "value", "groups", "bindings"):
        table.add_column(col)
    for h in card.hands:
        table.add_row(
            h.id,
            "C" if h.concealed else "X",
            str(h.value),
            h.display or " ".join(f"{t.text}×{n}" for t, n in h.groups),
            str(len(h.bindings)),
        )
    return table


def score_lines(report: ScoreReport) -> list[Any]:
    """What ``mjaudit score`` prints of a win, in order: its reading, the patterns and
    what each scores, the total (and cap), the minimum's verdict, the payments, notes."""
    unit = report.unit
    lines: list[Any] = []
    if report.reading:
        lines.append(f"reading: {escape(report.reading)}")
    table = Table("pattern", unit, "rules", "note", title=f"{report.ruleset}")
    for p in report.patterns:
        table.add_row(escape(p.id), f"{p.value:g}", escape(p.section), escape(p.note))
    lines.append(table)
    cap = f" (cap {report.cap:g})" if report.cap is not None else ""
    lines.append(f"raw {unit} {report.raw:g}; {unit} {report.value:g}{cap}")
    if report.minimum is not None:
        verdict = "met" if report.meets_minimum else "NOT met: not a valid win"
        lines.append(f"minimum {report.minimum:g} {unit}: {verdict}")
    roles = report.roles or ("",) * len(report.seats)
    pay = Table("seat", "payment", *(["role"] if report.roles else []), title="payments")
    for s, amount, role in zip(report.seats, report.payments, roles, strict=True):
        pay.add_row(s, f"{amount:+g}" if amount else "0", *([role] if report.roles else []))
    lines.append(pay)
    lines.extend(f"note: {escape(note)}" for note in report.notes)
    return lines
