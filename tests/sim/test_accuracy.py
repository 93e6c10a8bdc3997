"""The auditor against the simulator: every planted break found, no false alarm.

About 2,300 hands of the three Hong Kong rulesets are simulated with violations planted
in a fifth of them (``conftest.planted``) and replayed game by game with
``replay_games``. Recall must be 100% (same hand, same event index, same code, same
FALSE_WIN reason) and no serious finding may appear in a hand nothing was planted in.
"""

from __future__ import annotations

from collections import Counter

from mjaudit.parts.replay.sim.accuracy import score


def _describe(acc) -> str:  # type: ignore[no-untyped-def]
    lines = [f"missed {len(acc.missed)} of {acc.labels} labels"]
    lines += [str(m) for m in acc.missed[:10]]
    lines += [
        f"unplanted {k}: {f.code} @{f.event_index} {f.message}"
        for k, f in acc.serious_in_unplanted[:10]
    ]
    lines += [
        f"unlabelled {k}: {f.code} @{f.event_index} {f.message}"
        for k, f in acc.unlabelled_serious[:10]
    ]
    return "\n".join(lines)


def test_enough_hands_of_each_ruleset(planted) -> None:  # type: ignore[no-untyped-def]
    assert len(planted.records) >= 2000
    per = Counter(r["ruleset"] for r in planted.records)
    assert set(per) == {"hk-classic", "hk-mahjongo", "hk-mahjongo-2p"}
    assert min(per.values()) >= 400


def test_recall_is_total(planted) -> None:  # type: ignore[no-untyped-def]
    acc = score(planted.reports, planted.labels)
    assert acc.labels >= 300
    assert acc.recall == 1.0, _describe(acc)


def test_no_serious_finding_in_unplanted_hands(planted) -> None:  # type: ignore[no-untyped-def]
    acc = score(planted.reports, planted.labels)
    assert not acc.serious_in_unplanted, _describe(acc)
    assert acc.precision == 1.0


def test_every_serious_finding_is_labelled(planted) -> None:  # type: ignore[no-untyped-def]
    """Stricter: in planted hands too, the engine reports nothing the plant did not intend."""
    acc = score(planted.reports, planted.labels)
    assert not acc.unlabelled_serious, _describe(acc)


def test_every_kind_of_break_is_planted(planted) -> None:  # type: ignore[no-untyped-def]
    codes = Counter(lab["code"] for lab in planted.labels)
    reasons = Counter(lab.get("reason") for lab in planted.labels if lab["code"] == "FALSE_WIN")
    for code in (
        "FALSE_WIN", "DISCARD_OUT_OF_TURN", "SHORT_HAND", "DOUBLE_DRAW", "LONG_HAND",
        "KONG_WITHOUT_REPLACEMENT", "CHOW_NOT_FROM_LEFT", "RECORDED_RESULT_MISMATCH",
        "PAO_ASSIGNED", "NINE_TILE_LIABILITY",
    ):  # fmt: skip
        assert codes[code] >= 1, (code, codes)
    for reason in ("WIN_HAND_INCOMPLETE", "WIN_BELOW_MIN_FAN", "WIN_BY_DEAD_HAND"):
        assert reasons[reason] >= 1, (reason, reasons)
    info = {lab["code"] for lab in planted.labels if lab["class"] == "INFO"}
    assert info == {"PAO_ASSIGNED", "NINE_TILE_LIABILITY"}
    rulesets = {
        lab["code"]: {r["ruleset"] for r in planted.records if r["game_id"] == lab["game_id"]}
        for lab in planted.labels
        if lab["class"] == "INFO"
    }
    assert rulesets["PAO_ASSIGNED"] == {"hk-mahjongo"}
    assert rulesets["NINE_TILE_LIABILITY"] == {"hk-classic"}


def test_labels_stay_out_of_the_log(planted) -> None:  # type: ignore[no-untyped-def]
    for rec in planted.records[:200]:
        assert "labels" not in rec and "violation" not in rec
        assert all(set(ev) <= {"type", "seat", "tile", "tiles", "from", "robbed_kong", "claim"}
                   for ev in rec["events"])  # fmt: skip
