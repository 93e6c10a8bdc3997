"""DuckDB connections print nothing on stdout (its progress bar broke the 10M bench's JSON)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from mjaudit.parts.ingest import duck

ROOT = Path(__file__).resolve().parents[2]
BAR = "SELECT current_setting('enable_progress_bar')"


def test_plain_duckdb_draws_its_progress_bar_on_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    """The bar goes to stdout, where a command's output is (``progress_bar_time`` set to 0
    turns it on and draws it at once instead of after two seconds)."""
    con = duckdb.connect(":memory:")
    con.execute("SET progress_bar_time = 0")
    assert con.execute("SELECT sum(i * j) FROM range(2000000) t(i), range(20) s(j)").fetchone()
    con.close()
    assert "%" in capfd.readouterr().out


def test_under_python_c_duckdb_turns_the_bar_on_and_duck_connect_off() -> None:
    """The bench's case: a stage run with ``python -c`` (DuckDB takes it for interactive)."""
    code = (
        "import duckdb\n"
        "from mjaudit.parts.ingest import duck\n"
        f"print(duckdb.connect().execute({BAR!r}).fetchone()[0],"
        f" duck.connect().execute({BAR!r}).fetchone()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "False"]


def test_duck_connect_turns_the_bar_off_for_every_kind_of_database(tmp_path: Path) -> None:
    db = str(tmp_path / "db.duckdb")
    opens = (
        lambda: duck.connect(),
        lambda: duck.connect(db, config={"threads": 1}),
        lambda: duck.connect(db, read_only=True),  # the file the line above made
    )
    for open_db in opens:
        con = open_db()
        assert con.execute(BAR).fetchone() == (False,)
        con.close()


def test_project_code_opens_duckdb_only_through_duck_connect() -> None:
    """A new ``duckdb.connect`` call elsewhere would bring the bar back to a command's output."""
    callers = []
    for folder in ("ingest", "replay", "dashboards", "service", "mjaudit", "schemas"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "ingest" / "duck.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("connect", "sql", "query", "execute")
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "duckdb"
                ):
                    callers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert callers == []
