"""The tokens file: what it may say, and what `mjaudit serve` says of a bad one."""

from __future__ import annotations

from pathlib import Path

import pytest
from mjaudit.parts.service.auth import Role, TokenFileError, parse_tokens
from typer.testing import CliRunner

from mjaudit.cli import app
from tests.service.conftest import ADMIN, TOKENS, WRITE


def test_the_tokens_file_gives_each_token_its_role_and_table() -> None:
    grants = parse_tokens(TOKENS, "tokens.toml")
    roles = sorted((g.role.value, g.table or "*") for g in grants.values())
    assert roles == [
        ("admin", "*"),
        ("read", "*"),
        ("read", "t1"),
        ("write", "t1"),
        ("write", "t2"),
    ]
    assert {g.role for g in grants.values()} == set(Role)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("admin = [", "not valid TOML"),
        ('admins = "x"', "unknown key 'admins'"),
        ('admin = "short"', "at least 16 characters"),
        ('[tables.t1]\nread = ["a-read-token-of-t1"]', "expected a write token"),
        ('[tables."bad name"]\nwrite = "a-write-token-of-it"', "table name 'bad name'"),
        (f'admin = "{ADMIN}"\n[tables.t1]\nwrite = "{ADMIN}"', "already given another role"),
    ],
)
def test_a_bad_tokens_file_is_refused_saying_why(text: str, says: str) -> None:
    with pytest.raises(TokenFileError, match=says):
        parse_tokens(text, "tokens.toml")


def test_serve_refuses_to_start_on_a_bad_tokens_file(tmp_path: Path) -> None:
    bad = tmp_path / "tokens.toml"
    bad.write_text(f'[tables.t1]\nwrite = "{WRITE["t1"][:5]}"\n')
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "d"), "--tokens", str(bad)])
    assert result.exit_code == 2
    assert (
        "tokens.toml: tables.t1.write: expected a token of at least 16 characters" in result.output
    )
