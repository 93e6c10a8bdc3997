"""Who may do what: one write token per table, read-only tokens for referee screens.

Tokens come from a TOML file the operator writes (``--tokens``)::

    admin = "…"                 # may issue tables' tokens (POST /admin/tables)
    referees = ["…"]            # read-only, every table
    [tables.table-1]
    write = "…"                 # this table's hands: open, post events, end
    read = ["…"]                # this table's referee screens

and from the admin call, whose tokens are kept (as hashes only) in the state folder, so
they survive a restart. The server holds and looks up only the SHA-256 digests of tokens.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgspec

TABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class Role(StrEnum):
    ADMIN = "admin"
    WRITE = "write"
    READ = "read"


@dataclass(frozen=True)
class Grant:
    """What one token allows: a role, on one table (None: every table)."""

    role: Role
    table: str | None

    def may_read(self, table: str) -> bool:
        return self.role is Role.ADMIN or self.table in (None, table)

    def may_write(self, table: str) -> bool:
        return self.role is Role.WRITE and self.table == table


class TokenFileError(ValueError):
    """The tokens file is unreadable or says something it should not."""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _table_name(name: str, where: str) -> str:
    if not TABLE_NAME.match(name):
        raise TokenFileError(
            f"{where}: table name {name!r}: expected letters, digits, '_', '.' or '-' "
            "(at most 64, starting with a letter or digit)"
        )
    return name


def _tokens(value: Any, where: str) -> list[str]:
    items = value if isinstance(value, list) else [value]
    for item in items:
        if not isinstance(item, str) or len(item) < 16:
            raise TokenFileError(f"{where}: expected a token of at least 16 characters")
    return items


def parse_tokens(text: str, source: str) -> dict[str, Grant]:
    """Digest -> grant, from the tokens file's text."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TokenFileError(f"{source}: not valid TOML ({exc})") from None
    grants: dict[str, Grant] = {}

    def add(token: str, grant: Grant, where: str) -> None:
        key = digest(token)
        if key in grants:
            raise TokenFileError(f"{source}: {where}: this token is already given another role")
        grants[key] = grant

    for name in doc:
        if name not in ("admin", "referees", "tables"):
            raise TokenFileError(
                f"{source}: unknown key {name!r} (expected admin, referees, tables)"
            )
    if "admin" in doc:
        for t in _tokens(doc["admin"], f"{source}: admin"):
            add(t, Grant(Role.ADMIN, None), "admin")
    for t in _tokens(doc.get("referees", []), f"{source}: referees") if "referees" in doc else []:
        add(t, Grant(Role.READ, None), "referees")
    tables = doc.get("tables", {})
    if not isinstance(tables, dict):
        raise TokenFileError(f"{source}: tables: expected a table per [tables.NAME]")
    for name, spec in tables.items():
        where = f"{source}: tables.{name}"
        _table_name(name, where)
        if not isinstance(spec, dict) or "write" not in spec:
            raise TokenFileError(f'{where}: expected a write token (write = "…")')
        unknown = set(spec) - {"write", "read"}
        if unknown:
            raise TokenFileError(
                f"{where}: unknown key {sorted(unknown)[0]!r} (expected write, read)"
            )
        for t in _tokens(spec["write"], f"{where}.write"):
            add(t, Grant(Role.WRITE, name), f"tables.{name}.write")
        for t in _tokens(spec.get("read", []), f"{where}.read") if "read" in spec else []:
            add(t, Grant(Role.READ, name), f"tables.{name}.read")
    return grants


@dataclass
class Tokens:
    """The grants in force: the file's and those the admin issued (persisted)."""

    issued_path: Path
    grants: dict[str, Grant] = field(default_factory=dict)
    issued: dict[str, Grant] = field(default_factory=dict)  # by the admin call

    @classmethod
    def load(cls, tokens_file: Path | None, issued_path: Path) -> Tokens:
        grants: dict[str, Grant] = {}
        if tokens_file is not None:
            try:
                text = tokens_file.read_text(encoding="utf-8")
            except OSError as exc:
                raise TokenFileError(f"{tokens_file}: {exc.strerror}") from None
            grants.update(parse_tokens(text, str(tokens_file)))
        issued: dict[str, Grant] = {}
        if issued_path.exists():
            for key, (role, table) in msgspec.json.decode(issued_path.read_bytes()).items():
                issued[key] = Grant(Role(role), table)
        return cls(issued_path, {**issued, **grants}, issued)

    def lookup(self, token: str | None) -> Grant | None:
        """The grant of ``token`` (None: no such token)."""
        if not token:
            return None
        # Keyed by the SHA-256 digest: a lookup's time says nothing about the tokens.
        return self.grants.get(digest(token))

    def tables(self) -> set[str]:
        return {g.table for g in self.grants.values() if g.table is not None}

    def issue(self, table: str) -> dict[str, str]:
        """New write and read tokens for ``table``; kept (hashed) in the state folder."""
        _table_name(table, "table")
        write, read = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        for token, role in ((write, Role.WRITE), (read, Role.READ)):
            self.grants[digest(token)] = self.issued[digest(token)] = Grant(role, table)
        self._save()
        return {"table": table, "write": write, "read": read}

    def _save(self) -> None:
        issued = {key: [g.role.value, g.table] for key, g in self.issued.items()}
        tmp = self.issued_path.with_name(f".{self.issued_path.name}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(msgspec.json.encode(issued, order="sorted"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.issued_path)
