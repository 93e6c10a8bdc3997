"""Command help that reflows: docstrings are wrapped for the source, not for the terminal.

Typer keeps a docstring's single line breaks, so a paragraph wrapped at 90 columns in the
source is wrapped again by an 80-column terminal (ragged lines) and never uses a wide one.
:func:`reflow_app` joins the lines of each prose paragraph once all commands exist; lists
and indented blocks keep their lines.
"""

from __future__ import annotations

import inspect
import re

import typer

_KEEP = re.compile(r"^(\s+|[-*] |\d+[.)] )")


def reflow(text: str) -> str:
    """Join the lines of each prose paragraph; a paragraph with list items or indented
    lines is kept as written."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    out = []
    for para in paragraphs:
        lines = para.split("\n")
        if any(_KEEP.match(line) for line in lines[1:]) or _KEEP.match(lines[0]):
            out.append(para)
        else:
            out.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(out)


def reflow_app(app: typer.Typer) -> None:
    """Reflow the help of every command of ``app`` and of its sub-apps, in place."""
    for info in app.registered_commands:
        doc = info.help or inspect.getdoc(info.callback)
        if doc:
            info.help = reflow(doc)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            reflow_app(group.typer_instance)
