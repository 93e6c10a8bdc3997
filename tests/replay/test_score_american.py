"""``mjaudit score --ruleset american``: the worked examples of american.md §11 from notation.

Each A-example is written as the tiles of T (§5.3) and the flags a referee would give;
the value V and the payments asserted are the ones the rules file states. Exposures are
bracketed by size (``[kong 3p3p3pJ]``); the card is the shipped sample card (§6).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mjaudit.parts.replay.engine.registry import get
from mjaudit.parts.replay.engine.scorecard import NotationError, ScoreReport, ScoreRequest
from mjaudit.parts.replay.rulesets.american.card import SAMPLE_CARD_PATH
from typer.testing import CliRunner

from mjaudit.cli import app


def _score(hand: str, seat: str, **kw: object) -> ScoreReport:
    rules = get("american")
    assert rules is not None and rules.scorer is not None
    extras = {"card": SAMPLE_CARD_PATH} if "options" not in kw else {}
    request = ScoreRequest(hand=hand, seat=seat, extras=extras, **kw)  # type: ignore[arg-type]
    return rules.scorer("american", request)


def _pay(r: ScoreReport) -> dict[str, float]:
    return dict(zip(r.seats, r.payments, strict=True))


def test_a1_year_1_self_drawn_with_jokers() -> None:
    r = _score("f1 f2 J 2m P 3m [kong 3p3p3pJ] [pung 1s]", "S", win="1m", self_draw=True)
    assert [p.id for p in r.patterns] == ["YEAR-1"]
    assert r.value == 25 and r.unit == "points"
    assert _pay(r) == {"E": -50, "W": -50, "N": -50, "S": 150}
    assert "A=craks, B=dots, C=bams" in r.reading


def test_a2_like_1_on_a_discard() -> None:
    r = _score("[pung 7m] [kong 7p7p7p7p] 7s7s7s7sJ N", "W", win="N", from_seat="E")
    assert [p.id for p in r.patterns] == ["LIKE-1"] and r.value == 35
    assert _pay(r) == {"E": -70, "S": -35, "N": -35, "W": 140}


def test_a3_pairs_1_self_drawn_no_jokerless_bonus() -> None:
    r = _score("N N S S E E 1m 9m 1p 9p 1s f3 g4", "N", win="9s", self_draw=True)
    assert r.patterns[0].id == "PAIRS-1" and r.value == 50
    assert "not doubled" in r.patterns[0].note
    assert _pay(r) == {"E": -100, "S": -100, "W": -100, "N": 300}


def test_a4_odd_1_on_a_discard_jokerless() -> None:
    r = _score("[kong 9s] [pung 5m] 3s3s3s f1 f4 g1", "E", win="3s", from_seat="S")
    assert r.patterns[0].id == "ODD-1" and r.value == 50
    assert "25 doubled" in r.patterns[0].note
    assert _pay(r) == {"S": -100, "W": -50, "N": -50, "E": 200}


def test_a5_wind_2_concealed_on_a_discard_jokerless() -> None:
    r = _score("N N N C C C S S F F F f2 g3", "S", win="S", from_seat="W")
    assert r.patterns[0].id == "WIND-2" and r.value == 80
    assert _pay(r) == {"W": -160, "E": -80, "N": -80, "S": 320}


def test_a6_sextet_1_self_drawn() -> None:
    r = _score("[kong E E E J] [kong W] 4p4p4p4pJ", "W", win="J", self_draw=True)
    assert r.patterns[0].id == "SEXTET-1" and r.value == 60
    assert _pay(r) == {"E": -120, "S": -120, "N": -120, "W": 360}


def test_a7_joker_exchange_then_self_drawn() -> None:
    """After the exchange N holds J; the drawn 9m went to S's exposure (informational)."""
    r = _score("[pung 6m] 6p6p6p6p 6s6s6s6s N N J", "N", win="9m", self_draw=True)
    assert r.patterns[0].id == "LIKE-1" and r.value == 35
    assert _pay(r) == {"E": -70, "S": -70, "W": -70, "N": 210}


def test_a8_a_dead_hand_still_pays() -> None:
    """W wins ODD-1 jokerless on N's discard; E (dead) pays V like any loser."""
    r = _score("[kong 9s] [pung 5m] 3s3s3s f1 f4 g1", "W", win="3s", from_seat="N")
    assert r.value == 50
    assert _pay(r) == {"N": -100, "E": -50, "S": -50, "W": 200}


def test_a9_mahjong_in_error_pair_with_a_joker() -> None:
    with pytest.raises(ValueError, match="MAHJONG_IN_ERROR"):
        _score("[pung 5p] [kong 5s] 5m5m5m5m J N J", "S", self_draw=True)


def test_call_then_mahjong_is_a_discard_win_liable_seat_pays_2v() -> None:
    """§7.2 [D]: called N's discard for an exposure, then found Mahjong: N liable."""
    r = _score("[kong 9s] [pung 5m] 3s3s3s f1 f4 g1 3s", "E", liable="N")
    assert _pay(r) == {"N": -100, "S": -50, "W": -50, "E": 200}
    r = _score(
        "[kong 9s] [pung 5m] 3s3s3s f1 f4 g1 3s",
        "E",
        liable="N",
        options={"call_then_mahjong_liability": "self_draw", "card": "sample-original-1"},
    )
    assert _pay(r) == {"N": -100, "S": -100, "W": -100, "E": 300}


def test_options_point_value_and_jokerless_doubles() -> None:
    r = _score(
        "[kong 9s] [pung 5m] 3s3s3s f1 f4 g1 3s",
        "E",
        from_seat="S",
        options={"card": "sample-original-1", "point_value": "0.5", "jokerless_doubles": "false"},
    )
    assert r.value == 25 and _pay(r) == {"S": -25, "W": -12.5, "N": -12.5, "E": 50}


def test_concealed_hand_with_an_exposure_is_named() -> None:
    """§8.2 CONCEALED_HAND_CALL: WIND-2's tiles with an exposed pung cannot score WIND-2."""
    with pytest.raises(ValueError, match="WIND-2 would match but is concealed"):
        _score("[pung N] C C C S S F F F f2 g3 S", "S", from_seat="W")


@pytest.mark.parametrize(
    ("hand", "token", "flag"),
    [
        ("f1 f2 J 2m P 3m 1x [kong 3p3p3pJ] [pung 1s]", "1x", {}),  # unknown tile
        ("f1 f2 J 2m P 3m 1m [kong 3p3m3pJ] [pung 1s]", "[kong 3p3m3pJ]", {}),  # mixed tiles
        ("f1 f2 J 2m P 3m 1m [pung 3p3p3pJ] [pung 1s]", "[pung 3p3p3pJ]", {}),  # wrong size
        ("f1 f2 J 2m P 3m 1m [chow 3p3p3pJ] [pung 1s]", "chow", {}),  # not an exposure
        ("f1 f2 J 2m P 3m [kong 3p3p3pJ] [pung 1s]", "f1 f2 J 2m P 3m [kong 3p3p3pJ] [pung 1s]", {}),
        ("f1 f2 J 2m P 3m 1m [kong 3p3p3pJ [pung 1s]", "[kong 3p3p3pJ", {}),  # unclosed
    ],
)  # fmt: skip
def test_bad_notation_names_the_token(hand: str, token: str, flag: dict[str, object]) -> None:
    with pytest.raises(NotationError) as err:
        _score(hand, "S", self_draw=True, **flag)
    assert err.value.token == token
    assert repr(token) in str(err.value)


def test_wrong_count_says_how_many() -> None:
    with pytest.raises(NotationError, match=r"14 tiles .* not 13"):
        _score("f1 f2 J 2m P 3m [kong 3p3p3pJ] [pung 1s]", "S", self_draw=True)


def test_who_pays_must_be_said_and_the_card_too() -> None:
    with pytest.raises(NotationError, match=r"--from SEAT .* or --self-draw") as err:
        _score("N N N C C C S S F F F f2 g3 S", "S")
    assert err.value.where == "--from"
    with pytest.raises(NotationError, match="--card FILE") as err:
        _score("N N N C C C S S F F F f2 g3 S", "S", self_draw=True, options={})
    with pytest.raises(NotationError, match="registered card") as err:
        _score("N N N C C C S S F F F f2 g3 S", "S", self_draw=True, options={"card": "nope"})
    assert err.value.token == "nope"


def test_a_flag_american_has_no_use_for_is_refused() -> None:
    with pytest.raises(NotationError, match="flowers are tiles of the hand"):
        _score("N N N C C C S S F F F f2 g3 S", "S", self_draw=True, flowers=("f1",))


# --- through the command -------------------------------------------------------------


def _run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, ["score", "--ruleset", "american", *args])
    return res.exit_code, res.output


def test_cli_a5_text() -> None:
    code, out = _run(
        "--card", str(SAMPLE_CARD_PATH), "N N N C C C S S F F F f2 g3",
        "--win", "S", "--seat", "S", "--from", "W",
    )  # fmt: skip
    assert code == 0, out
    assert "WIND-2" in out and "points 80" in out and "+320" in out and "-160" in out


def test_cli_a1_json() -> None:
    code, out = _run(
        "--card", str(SAMPLE_CARD_PATH), "--format", "json", "--seat", "S", "--self-draw",
        "f1 f2 J 2m P 3m 1m", "[kong 3p3p3pJ]", "[pung 1s]",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["win"] is True and data["unit"] == "points"
    assert data["value"] == 25 and data["patterns"][0]["id"] == "YEAR-1"
    assert data["patterns"][0]["section"] == "american §7.1"
    assert data["payments"] == {"E": -50, "S": 150, "W": -50, "N": -50}


def test_cli_a9_not_a_win_exit_1_and_bad_tile_exit_2() -> None:
    code, out = _run(
        "--card", str(SAMPLE_CARD_PATH), "--seat", "S", "--self-draw",
        "[pung 5p] [kong 5s] 5m5m5m5m J N J",
    )  # fmt: skip
    assert code == 1 and "MAHJONG_IN_ERROR" in out
    code, out = _run("--card", str(SAMPLE_CARD_PATH), "--self-draw", "1m 2m 3q")
    assert code == 2


def test_cli_bad_card_file(tmp_path: Path) -> None:
    bad = tmp_path / "card.yaml"
    bad.write_text("format: mj-card/1\ncard_id: x\nhands: []\n")
    code, _ = _run("--card", str(bad), "--self-draw", "N N N C C C S S F F F f2 g3 S")
    assert code == 2


def test_card_match_is_the_same_matching() -> None:
    """The old command keeps its output, now through the scorer's :func:`evaluate`."""
    res = CliRunner().invoke(
        app,
        ["card", "match", str(SAMPLE_CARD_PATH), "N", "N", "N", "C", "C", "C", "S", "S", "S",
         "F", "F", "F", "f2", "g3"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "* WIND-2: V = 80 (jokerless, doubled)" in res.output
    assert "scores: WIND-2 V = 80 (0 joker(s))" in res.output
    bad = CliRunner().invoke(app, ["card", "match", str(SAMPLE_CARD_PATH), "N", "-x", "N N S"])
    assert bad.exit_code == 2


def test_roles_name_the_winner_and_who_pays_double() -> None:
    """The payments line says who is who (as the Hong Kong and vn-160 scorers do)."""
    on_discard = _score("[kong 9s] [pung 5m] 3s3s3s f1 f4 g1", "E", win="3s", from_seat="S")
    assert dict(zip(on_discard.seats, on_discard.roles, strict=True)) == {
        "E": "winner",
        "S": "discarder",
        "W": "",
        "N": "",
    }
    called = _score("[kong 9s] [pung 5m] 3s3s3s f1 f4 g1 3s", "E", liable="N")
    assert called.roles == ("winner", "", "", "liable")
    self_drawn = _score("N N S S E E 1m 9m 1p 9p 1s f3 g4", "N", win="9s", self_draw=True)
    assert self_drawn.roles == ("", "", "", "winner")
