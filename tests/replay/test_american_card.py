"""american.md §5.1/§5.2/§5.4: the mj-card/1 loader. One test per validation rule: each bad
card raises CardInvalid naming the hand and the token or field at fault. Also the sample
card of §6, the YAML 1.2 reading, and the ``mjaudit card`` sub-commands."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import typer
from mjaudit.parts.replay.rulesets.american.card import (
    SAMPLE_CARD_PATH,
    CardInvalid,
    card_from_obj,
    find_card,
    parse_card,
    sample_card,
)
from typer.testing import CliRunner

from mjaudit.card_cli import card_app, load_card_for_check

GOOD_HAND: dict[str, Any] = {
    "id": "H-1",
    "category": "any_like_number",
    "concealed": False,
    "value": 30,
    "vars": {"x": {"min": 1, "max": 9}},
    "groups": [
        {"t": "{x}.A", "n": 3},
        {"t": "{x}.B", "n": 4},
        {"t": "{x}.C", "n": 5},
        {"t": "N", "n": 2},
    ],
}


def _card(**hand_changes: Any) -> dict[str, Any]:
    hand = copy.deepcopy(GOOD_HAND)
    for k, v in hand_changes.items():
        if v is None:
            hand.pop(k, None)
        else:
            hand[k] = v
    return {"format": "mj-card/1", "card_id": "t-1", "hands": [hand]}


def _invalid(obj: Any, hand: str | None, where: str, words: str) -> CardInvalid:
    with pytest.raises(CardInvalid) as info:
        card_from_obj(obj)
    err = info.value
    assert (err.hand, err.where) == (hand, where), str(err)
    assert words in str(err)
    assert str(err).startswith("CARD_INVALID")
    return err


def _groups(*groups: tuple[Any, Any]) -> list[dict[str, Any]]:
    return [{"t": t, "n": n} for t, n in groups]


# --- the good cases ----------------------------------------------------------------------


def test_valid_hand_loads() -> None:
    card = card_from_obj(_card())
    (h,) = card.hands
    assert (h.id, h.value, h.concealed, h.jokerless_eligible) == ("H-1", 30, False, True)
    assert len(h.bindings) == 6 * 9  # 6 injective suit maps x 9 values


def test_sample_card_section_6_loads_with_its_bindings() -> None:
    card = sample_card()
    assert card.card_id == "sample-original-1"
    assert [h.id for h in card.hands] == [
        "YEAR-1", "YEAR-2", "RUN-1", "LIKE-1", "QUINT-1",
        "SEXTET-1", "WIND-1", "WIND-2", "PAIRS-1", "ODD-1",
    ]  # fmt: skip
    got = {h.id: len(h.bindings) for h in card.hands}
    # RUN-1: x = 1..6 x 3 suits; ODD-1: 10 (x < y) x 5 z x 6 suit maps; WIND-1: one multiset
    assert got["RUN-1"] == 18 and got["ODD-1"] == 300 and got["WIND-1"] == 1
    assert got["YEAR-2"] == 3  # A/B swapped gives the same tiles: kept once
    assert card.hand("PAIRS-1").jokerless_eligible is False
    assert find_card("sample-original-1") is not None


def test_yaml_12_reads_unquoted_N_and_y_as_strings() -> None:
    text = """
format: mj-card/1
card_id: yaml-12
hands:
  - id: H
    concealed: false
    value: 25
    vars: {y: {in: [1, 3]}, x: {in: [5, 7]}}
    constraints: [[y, "<", x]]
    groups:
      - {t: N, n: 2}
      - {t: "{y}.A", n: 4}
      - {t: "{x}.A", n: 4}
      - {t: F, n: 4}
"""
    card = parse_card(text)
    assert card.hands[0].bindings[0].values == (("x", 5), ("y", 1))


def test_json_document_is_accepted() -> None:
    card = parse_card(json.dumps(_card()))
    assert card.card_id == "t-1"


def test_jokerless_bonus_false_makes_the_hand_ineligible() -> None:
    assert card_from_obj(_card(jokerless_bonus=False)).hands[0].jokerless_eligible is False


# --- §5.1 document and fields ---------------------------------------------------------------


def test_CARD_INVALID_format() -> None:
    obj = _card()
    obj["format"] = "mj-card/2"
    _invalid(obj, None, "format", "mj-card/2")


def test_CARD_INVALID_card_id_missing() -> None:
    obj = _card()
    del obj["card_id"]
    _invalid(obj, None, "card_id", "required")


def test_CARD_INVALID_no_hands() -> None:
    obj = _card()
    obj["hands"] = []
    _invalid(obj, None, "hands", "non-empty")


def test_CARD_INVALID_hand_id_missing() -> None:
    _invalid(_card(id=None), None, "hands[0]", "'id' is required")


def test_CARD_INVALID_duplicate_hand_id() -> None:
    obj = _card()
    obj["hands"].append(copy.deepcopy(GOOD_HAND))
    _invalid(obj, "H-1", "id", "duplicate hand id")


def test_CARD_INVALID_unknown_hand_field() -> None:
    _invalid(_card(valeu=30), "H-1", "valeu", "unknown field")


def test_CARD_INVALID_concealed_not_bool() -> None:
    _invalid(_card(concealed="yes"), "H-1", "concealed", "true or false")


def test_CARD_INVALID_value_not_positive_int() -> None:
    _invalid(_card(value="30"), "H-1", "value", "positive integer")
    _invalid(_card(value=0), "H-1", "value", "positive integer")


def test_CARD_INVALID_jokerless_bonus() -> None:
    _invalid(_card(jokerless_bonus=True), "H-1", "jokerless_bonus", "auto or false")


def test_CARD_INVALID_yaml_syntax() -> None:
    with pytest.raises(CardInvalid) as info:
        parse_card("format: mj-card/1\nhands: [\n")
    assert info.value.where == "document"


def test_CARD_INVALID_yaml_duplicate_key() -> None:
    with pytest.raises(CardInvalid) as info:
        parse_card("format: mj-card/1\nformat: mj-card/1\ncard_id: x\nhands: []\n")
    assert info.value.where == "document"


# --- §5.2 tokens and variables --------------------------------------------------------------


@pytest.mark.parametrize("token", ["G", "D.D", "10.A", "3.a", "{xy}.A", "{x+9}.A", "{X}.A", "3A"])
def test_CARD_INVALID_token_does_not_parse(token: str) -> None:
    groups = _groups((token, 3), ("{x}.B", 4), ("{x}.C", 5), ("N", 2))
    err = _invalid(_card(groups=groups), "H-1", "groups[0].t", "does not parse")
    assert repr(token) in str(err)


def test_CARD_INVALID_token_not_a_string_unquoted_zero() -> None:
    """YAML reads an unquoted 0 as a number: the card must quote it."""
    text = json.dumps(_card()).replace('"N"', "0")
    with pytest.raises(CardInvalid) as info:
        parse_card(text)
    assert (info.value.hand, info.value.where) == ("H-1", "groups[3].t")
    assert "quote it" in str(info.value)


def test_CARD_INVALID_variable_not_declared() -> None:
    groups = _groups(("{x}.A", 3), ("{z}.B", 4), ("{x}.C", 5), ("N", 2))
    _invalid(_card(groups=groups), "H-1", "groups[1].t", "undeclared variable 'z'")


def test_CARD_INVALID_variable_name() -> None:
    _invalid(_card(vars={"xx": {"min": 1, "max": 9}}), "H-1", "vars.xx", "one lower-case letter")


def test_CARD_INVALID_domain_shape() -> None:
    _invalid(_card(vars={"x": {"from": 1}}), "H-1", "vars.x", "expected min/max or in")
    _invalid(_card(vars={"x": {"min": 5, "max": 2}}), "H-1", "vars.x", "min <= max")
    _invalid(_card(vars={"x": {"in": []}}), "H-1", "vars.x.in", "non-empty list")


def test_CARD_INVALID_domain_outside_1_9() -> None:
    _invalid(_card(vars={"x": {"min": 0, "max": 9}}), "H-1", "vars.x", "outside 1-9")


def test_CARD_INVALID_constraint_operator() -> None:
    _invalid(_card(constraints=[["x", "=<", 5]]), "H-1", "constraints[0]", "operator '=<'")


def test_CARD_INVALID_constraint_operand_undeclared() -> None:
    _invalid(_card(constraints=[["x", "<", "y"]]), "H-1", "constraints[0]", "operand 'y'")


def test_CARD_INVALID_constraint_shape() -> None:
    _invalid(_card(constraints=[["x", "<"]]), "H-1", "constraints[0]", "[lhs, op, rhs]")


# --- §5.4 sizes and completability ---------------------------------------------------------


def test_CARD_INVALID_group_size_out_of_range() -> None:
    groups = _groups(("{x}.A", 7), ("{x}.B", 4), ("{x}.C", 1), ("N", 2))
    _invalid(_card(groups=groups), "H-1", "groups[0].n", "not an integer 1-6")


def test_CARD_INVALID_group_fields() -> None:
    groups = [{"t": "N", "n": 2, "joker": True}, *_groups(("{x}.A", 4), ("{x}.B", 4), ("F", 4))]
    _invalid(_card(groups=groups), "H-1", "groups[0]", "exactly {t: token, n: size}")


def test_CARD_INVALID_sizes_do_not_total_14() -> None:
    groups = _groups(("{x}.A", 3), ("{x}.B", 4), ("{x}.C", 5), ("N", 1))
    _invalid(_card(groups=groups), "H-1", "groups", "total 13, not 14")


def test_CARD_INVALID_no_binding_in_range() -> None:
    """{x+3} leaves 1-9 for every x in 7..9: the hand can never be made."""
    groups = _groups(("{x}.A", 3), ("{x+3}.B", 4), ("{x}.C", 5), ("N", 2))
    _invalid(_card(groups=groups, vars={"x": {"min": 7, "max": 9}}), "H-1", "vars", "no binding")


def test_CARD_INVALID_no_binding_satisfies_constraints() -> None:
    _invalid(_card(constraints=[["x", ">", 9]]), "H-1", "vars", "no binding")


def test_CARD_INVALID_singles_and_pairs_need_more_naturals_than_exist() -> None:
    """Three pairs of N need 6 natural Ns (jokers never go in pairs): the set has 4."""
    groups = _groups(("N", 2), ("N", 2), ("N", 2), ("{x}.A", 4), ("{x}.B", 4))
    _invalid(_card(groups=groups), "H-1", "groups", "152-tile set")


def test_CARD_INVALID_more_than_8_jokers_needed() -> None:
    """Two sextets and a pair of the same tile: 12 slots, 2 free naturals, 10 jokers."""
    groups = _groups(("1.A", 6), ("1.A", 6), ("1.A", 2))
    _invalid(_card(groups=groups, vars=None), "H-1", "groups", "more than 8 jokers")


def test_eight_jokers_is_still_completable() -> None:
    groups = _groups(("1.A", 6), ("1.A", 6), ("2.A", 2))
    card = card_from_obj(_card(groups=groups, vars=None))
    assert len(card.hands[0].bindings) == 3


# --- the CLI --------------------------------------------------------------------------------


def _app() -> typer.Typer:
    app = typer.Typer()
    app.add_typer(card_app, name="card")
    return app


def test_cli_card_validate(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(_app(), ["card", "validate", str(SAMPLE_CARD_PATH)])
    assert ok.exit_code == 0 and "sample-original-1" in ok.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(json.dumps(_card(value=-1)))
    res = runner.invoke(_app(), ["card", "validate", str(bad)])
    assert res.exit_code == 1


def test_cli_card_match_year_1() -> None:
    """A1's tiles: YEAR-1, V = 25."""
    res = CliRunner().invoke(
        _app(),
        ["card", "match", str(SAMPLE_CARD_PATH), "f1", "f2", "J", "2m", "P", "3m", "1m",
         "-x", "3p 3p 3p J", "-x", "1s 1s 1s"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "scores: YEAR-1 V = 25" in res.output


def test_cli_card_match_none() -> None:
    res = CliRunner().invoke(
        _app(),
        [
            "card",
            "match",
            str(SAMPLE_CARD_PATH),
            *["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p", "5p"],
        ],
    )
    assert res.exit_code == 1 and "no card hand matches" in res.output


def test_load_card_for_check_registers_the_card(tmp_path: Path) -> None:
    obj = _card()
    obj["card_id"] = "club-card-2031"
    path = tmp_path / "club.json"
    path.write_text(json.dumps(obj))
    assert load_card_for_check(path).card_id == "club-card-2031"
    assert find_card("club-card-2031") is not None
