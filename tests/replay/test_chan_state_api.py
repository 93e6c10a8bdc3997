"""The chắn state's simulator API agrees with the replay: an eat that eat_options says is
clean replays clean, and the codes it lists are the ones the replay reports."""

from __future__ import annotations

from mjaudit.parts.replay.engine.run import replay_hand
from mjaudit.parts.replay.rulesets.chan.replayer import replay_to
from test_checklist_chan_errors import _tach_ca, _xe_ca


def _options_at(record: dict, at: int, seat: int) -> dict[str, tuple[str, ...]]:
    state = replay_to(record, at)
    return {opt.with_: opt.codes for opt in state.eat_options(seat)}


def _reported_at(record: dict, index: int) -> set[str]:
    return {f.code for f in replay_hand(record).findings if f.event_index == index}


def test_eat_options_lists_rule_8_xe_ca_an_ca() -> None:
    rec = _xe_ca("6n", "6s").record()
    options = _options_at(rec, 10, 1)  # after s1 draws 6n (#10), before the eat (#11)
    assert "XE_CA_AN_CA" in options["6s"]
    assert "XE_CA_AN_CA" in _reported_at(rec, 11)


def test_eat_options_lists_rule_9_tach_ca_an_ca() -> None:
    rec = _tach_ca("2v", "2v", "4s").record()
    options = _options_at(rec, 10, 1)
    assert "TACH_CA_AN_CA" in options["2v"]
    assert "TACH_CA_AN_CA" in _reported_at(rec, 11)


def test_eat_options_clean_eat_lists_nothing() -> None:
    rec = _xe_ca("4n", "4n").record()
    assert _options_at(rec, 10, 1)["4n"] == ()
