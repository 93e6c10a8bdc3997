"""Where a server keeps its state and what it accepts: one value, made by ``mjaudit serve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mjaudit.parts.service.service import Limits
from mjaudit.parts.service.sync import Sync

STATE = ".serve"  # inside the data folder: journal, issued tokens, admin token


@dataclass(frozen=True)
class ServeConfig:
    data: Path
    tokens_file: Path | None = None
    state: Path | None = None  # default: DATA/.serve
    limits: Limits = field(default_factory=Limits)
    max_body: int = 256 * 1024  # bytes of one request body (a header with a wall, a batch)
    commit_process: bool = True  # commit in a process of its own (False: a thread)
    sync: Sync = Sync.OS  # what the journal waits for before a post is answered

    @property
    def state_dir(self) -> Path:
        return self.state if self.state is not None else self.data / STATE

    @property
    def journal(self) -> Path:
        return self.state_dir / "journal.jsonl"

    @property
    def issued(self) -> Path:
        return self.state_dir / "issued-tokens.json"

    @property
    def admin_token_file(self) -> Path:
        """Written at start-up when no tokens file names an admin (mode 0600)."""
        return self.state_dir / "admin.token"
