"""``python -m mjaudit.parts.dashboards [--data DIR] [--port P] [--host H]``: the same as
``mjaudit dashboard``, for use before the CLI command is wired."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mjaudit.parts.dashboards.app import launch


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m mjaudit.parts.dashboards", description=__doc__)
    ap.add_argument("--data", type=Path, default=Path("mjdata"))
    ap.add_argument("--port", type=int, default=8501)
    ap.add_argument("--host", default="127.0.0.1")
    args = ap.parse_args()
    sys.exit(launch(args.data, args.port, args.host))


if __name__ == "__main__":
    main()
