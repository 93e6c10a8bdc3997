"""DuckDB connections as the project opens them: with DuckDB's progress bar turned off.

DuckDB's Python client turns its progress bar on when it takes the process for an
interactive one (a notebook, a REPL, ``python -c``: a ``__main__`` without a file) and
then draws it on standard output, also when that is a pipe, for any query longer than
two seconds. The 10M scale bench runs each stage with ``python -c``; at 10M hands the
replay plan's query took longer, and ``100% ▕██…▏`` landed after the stage's JSON line
(the bench lost its replay figures). Every connection in the project is opened here, so
none draws one wherever it runs; the bar cannot be turned off in ``duckdb.connect``'s
config (it is not a global option), hence the ``SET``.
"""

from __future__ import annotations

from collections.abc import Mapping

import duckdb


def connect(
    database: str = ":memory:",
    *,
    read_only: bool = False,
    config: Mapping[str, str | int | bool] | None = None,
) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect(database, read_only, config)`` that prints nothing to stdout."""
    con = duckdb.connect(database, read_only=read_only, config=dict(config or {}))
    try:
        con.execute("SET enable_progress_bar = false")
    except BaseException:
        con.close()
        raise
    return con
