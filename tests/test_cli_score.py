"""``mjaudit score`` through the command line: flags, text and json output, exit statuses.

The hands are worked examples of the rules files (hk-classic C4, hk-mahjongo M2 and M4,
vn-160 V3 and V7), so the figures asserted are the rules files' own.
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mjaudit.cli import app

runner = CliRunner()

C4 = ["[pung CCC <- E] [pung FFF <- W] 1s2s3s 7p7p P P 7p"]
C4_FLAGS = ["--seat", "N", "--round", "S", "--from", "S", "--flowers", "g2"]


def test_text_output_lists_patterns_sections_fan_and_payments() -> None:
    res = runner.invoke(app, ["score", "--ruleset", "hk-classic", *C4, *C4_FLAGS])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "reading: [pung CCC <- E] [pung FFF <- W] 123s 777p PP" in out
    assert "little_three_dragons" in out and "hk-classic §5.3 #17" in out
    assert "raw fan 5; fan 5 (cap 8)" in out
    assert "minimum 0 fan: met" in out
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") >= 3}
    assert "-48" in lines["S"] and "discarder" in lines["S"]
    assert "+96" in lines["N"] and "winner" in lines["N"]
    assert "-24" in lines["E"] and "-24" in lines["W"]


def test_json_output() -> None:
    res = runner.invoke(
        app,
        [
            "score",
            "--ruleset",
            "vn-160",
            "[pung CCC <- S] [pung FFF <- E] 9s9s9s 2p2p2p P P",
            "--seat",
            "W",
            "--from",
            "N",
            "--flowers",
            "f3,q1",
            "--format",
            "json",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["win"] is True and data["ruleset"] == "vn-160" and data["unit"] == "phán"
    assert data["value"] == 11 and data["raw"] == 11 and data["meets_minimum"] is True
    assert {p["id"]: (p["value"], p["section"]) for p in data["patterns"]} == {
        "tui_tui": (4, "vn-160 §5.1"),
        "tieu_tam_nguyen": (6, "vn-160 §5.1"),
        "seat_flower": (1, "vn-160 §5.1"),
    }
    assert data["payments"] == {"E": -64, "S": -64, "W": 256, "N": -128}
    assert data["roles"] == {"E": "dealer", "W": "winner", "N": "discarder"}


def test_liable_and_options_flags() -> None:
    hand = "[pung CCC <- S] [pung FFF <- W] [pung PPP <- N] 7m8m 5p5p 9m"
    args = ["score", "--ruleset", "hk-mahjongo", hand, "--from", "W", "--liable", "N"]
    res = runner.invoke(app, [*args, "-o", "pao_on_other_discard=split_half", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["payments"] == {"E": 128, "S": 0, "W": -64, "N": -64}


def test_heavenly_flag() -> None:
    res = runner.invoke(
        app,
        ["score", "--ruleset", "vn-160", "1s2s3s 4s5s6s 7s8s9s 2p3p4p 5p5p", "--heavenly"],
    )
    assert res.exit_code == 0, res.output
    assert "thien_u" in res.output and "+768" in res.output


def test_bad_notation_names_the_token_and_exits_2() -> None:
    res = runner.invoke(app, ["score", "123m 456p 789s RRR 5p", "--win", "5p", "--from", "W"])
    assert res.exit_code == 2
    assert "'R' at column 16" in res.output
    assert "C (red)" in res.output
    res = runner.invoke(app, ["score", "[pong 5p] 123m 789s EEE 4p4p", "--from", "W"])
    assert res.exit_code == 2 and "'pong' at column 2" in res.output
    res = runner.invoke(app, ["score", "123m 456p 789s EEE 5p5p", "--self-draw", "-o", "fan_cap=7"])
    assert res.exit_code == 2 and "--option: 'fan_cap=7'" in res.output


def test_below_the_minimum_exits_1() -> None:
    hand = "2m3m4m 5p6p7p 3s4s5s 6s7s 9m9m 8s"
    res = runner.invoke(
        app, ["score", "--ruleset", "hk-mahjongo", hand, "--seat", "W", "--from", "N"]
    )
    assert res.exit_code == 1
    assert "minimum 3 fan: NOT met" in res.output
    assert "false-win penalty" in res.output


def test_not_a_win_exits_1_with_the_reason() -> None:
    args = ["score", "1m2m3m 4m5m6m 7p8p9p 2s3s 5s5s 6s", "--seat", "S", "--self-draw"]
    res = runner.invoke(app, [*args, "--format", "json"])
    assert res.exit_code == 1
    data = json.loads(res.output)
    assert data["win"] is False and "WIN_HAND_INCOMPLETE" in data["reason"]
    assert "S -192" in data["reason"]
