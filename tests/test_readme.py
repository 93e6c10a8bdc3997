"""The README and docs/ stand on their own: every relative link resolves inside the
project, and nothing points at files a user of the project does not have (the README once
linked to ../shared/..., which only the authors had)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_inside_the_project(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, mailto:: not a file of ours
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{page.relative_to(ROOT)} links to {target}, which does not exist"
        assert ROOT in path.parents or path == ROOT, f"{target} is outside the project"


def test_the_readme_links_the_docs_index() -> None:
    assert "(docs/index.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
