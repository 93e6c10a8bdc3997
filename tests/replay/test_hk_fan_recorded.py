"""The fan evaluator gives, on 3,000 random hands under seven option sets, exactly the
scores the evaluator before issue 24's rewrite gave (recorded by ``hk_fan_record.py`` in
``tests/data/hk-fan-outputs.json.gz``): every field of every ``evaluate`` and, for one
hand in ten, every reading ``evaluate_all`` lists, in order."""

from __future__ import annotations

import gzip
import json

from hk_fan_record import FIXTURE, decode_context, encode_score
from mjaudit.parts.replay.rulesets.hk import evaluate, evaluate_all, options_for


def test_evaluate_matches_the_recorded_scores() -> None:
    data = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    opts = [options_for(r, o) for r, o in data["option_sets"]]
    compared = listed = 0
    for row in data["cases"]:
        ctx = decode_context(row[0])
        for o, want in zip(opts, row[1], strict=True):
            assert encode_score(evaluate(ctx, o)) == want, (ctx, o.ruleset)
            compared += 1
        if len(row) > 2:
            for o, want_all in zip(opts, row[2], strict=True):
                assert [encode_score(s) for s in evaluate_all(ctx, o)] == want_all, ctx
                listed += len(want_all)
    assert compared == 3000 * 7 and listed > 2000
