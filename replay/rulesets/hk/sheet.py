"""Results-only hands from club score sheets (ruleset ``hk-sheet``).

There are no events to replay, so no legality is checked; the hand is settled again from
its sheet line (:func:`schemas.sheet.settle`) so that every statistic counts it like a
replayed hand, and a recorded result that disagrees with the sheet's own arithmetic is
reported. A false win (``f``) is a ``FALSE_WIN`` player violation, as in a full log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from mjaudit.parts.replay.engine.findings import Finding, FindingClass, HandReport
from mjaudit.parts.replay.engine.stepping import report_base
from mjaudit.parts.schemas.sheet import SheetError, SheetLine, settle


def replay_sheet(
    record: dict[str, Any],
    overrides: Mapping[str, object] | None = None,
    previous: HandReport | None = None,
    observer: object = None,
) -> HandReport:
    base = report_base(record)
    if "sheet" not in record:
        finding = Finding(
            None, None, "SHEET_MISSING", FindingClass.CORRUPT_LOG,
            "an hk-sheet hand needs its `sheet` line (the four entries and the options)",
        )  # fmt: skip
        return HandReport(**base, findings=(finding,), ended_by="corrupt")
    try:
        # a hand stored before a bound was added (e.g. B at most MAX_BASE) fails here
        line = msgspec.convert(record["sheet"], SheetLine)
    except msgspec.ValidationError as exc:
        finding = Finding(
            None, None, "SHEET_INVALID", FindingClass.CORRUPT_LOG,
            f"the `sheet` line is not a valid score-sheet line: {exc}",
        )  # fmt: skip
        return HandReport(**base, findings=(finding,), ended_by="corrupt")
    try:
        out = settle(line)
    except SheetError as exc:
        finding = Finding(None, None, exc.code, FindingClass.CORRUPT_LOG, str(exc))
        return HandReport(**base, findings=(finding,), ended_by="corrupt")
    names = record["players"]
    findings: list[Finding] = []
    if out.false_win is not None:
        findings.append(
            Finding(
                None, out.false_win, "FALSE_WIN", FindingClass.PLAYER_VIOLATION,
                f"{names[out.false_win]} declared a false win (score sheet 'f')",
            )
        )  # fmt: skip
    recorded = (record.get("result") or {}).get("deltas")
    matches = None
    if recorded is not None:
        matches = all(abs(a - b) < 1e-9 for a, b in zip(recorded, out.deltas, strict=True))
        if not matches:
            findings.append(
                Finding(
                    None, None, "RECORDED_RESULT_MISMATCH", FindingClass.SCORE_MISMATCH,
                    f"deltas recorded {recorded}, the sheet line settles to {list(out.deltas)}",
                )
            )  # fmt: skip
    ended = (
        "win"
        if out.winner is not None
        else "false_win"
        if out.false_win is not None
        else "exhaustive_draw"
    )
    return HandReport(
        **base,
        findings=tuple(findings),
        winners=() if out.winner is None else (out.winner,),
        self_drawn=out.self_drawn,
        discarder=out.discarder,
        fan=out.fan,
        raw_fan=out.fan,
        liable=out.liable,
        deltas=out.deltas,
        ended_by=ended,
        matches_recorded=matches,
    )
