"""The strict fast path of parse_record gives exactly what the general path gives."""

from __future__ import annotations

import msgspec
import pytest
from mjaudit.parts.replay.sim import simulate
from mjaudit.parts.schemas.records import RecordError, _parse_strict, parse_object, parse_record

from bench.synthlog import records as synth_records


def _cases() -> list[dict]:
    sims = [r for r, _ in simulate("hk-classic", games=1, seed=4)][:6]
    sims += [r for r, _ in simulate("hk-mahjongo-2p", games=1, seed=4)][:4]
    return sims + list(synth_records(3, seed=8))


@pytest.mark.parametrize("rec", _cases(), ids=lambda r: f"{r['ruleset']}-{r['hand_no']}")
def test_fast_and_general_paths_agree(rec: dict) -> None:
    raw = msgspec.json.encode(rec)
    fast = _parse_strict(raw)
    assert fast is not None  # canonical records take the fast path
    general = parse_object(msgspec.json.decode(raw))
    assert (fast.record, fast.content_hash) == (general.record, general.content_hash)


def test_aliases_and_unknown_fields_take_the_general_path() -> None:
    rec = next(synth_records(1, seed=8))
    rec["events"][0]["tile"] = "\U0001f004"  # the red dragon, as a Unicode tile
    rec["note"] = "kept in extra"
    raw = msgspec.json.encode(rec)
    assert _parse_strict(raw) is None
    parsed = parse_record(raw)
    assert parsed.record["events"][0]["tile"] == "C"
    assert parsed.record["note"] == "kept in extra"


def test_record_level_errors_are_still_reported_on_the_fast_path() -> None:
    rec = next(synth_records(1, seed=8))
    rec["result"]["deltas"] = [1, -1]
    with pytest.raises(RecordError) as err:
        parse_record(msgspec.json.encode(rec))
    assert (err.value.code, err.value.path) == ("INVALID_VALUE", "$.result.deltas")
