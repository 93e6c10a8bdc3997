"""Start the dashboard: ``mjaudit dashboard`` calls :func:`launch`.

The server runs Streamlit's own CLI in a child process, bound to 127.0.0.1 by default,
headless, with usage statistics off and no file watcher, so it never reaches out to the
network and never writes the data folder. The data folder reaches the app in the
``MJAUDIT_DATA`` environment variable.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "streamlit_app.py"
DATA_ENV = "MJAUDIT_DATA"  # how the data folder reaches the app (read by dashboards.ui)


def command(port: int = 8501, host: str = "127.0.0.1") -> list[str]:
    """The ``streamlit run`` command line with the offline, read-only server options."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(SCRIPT),
        "--server.headless",
        "true",
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
        "--server.runOnSave",
        "false",
        "--client.toolbarMode",
        "minimal",
        "--theme.base",
        "light",
    ]


def environment(data: Path) -> dict[str, str]:
    return {**os.environ, DATA_ENV: str(Path(data).absolute())}


def start(
    data: Path, port: int = 8501, host: str = "127.0.0.1", **popen: object
) -> subprocess.Popen[bytes]:
    """Start the server in the background (tests use this); the caller stops it."""
    return subprocess.Popen(command(port, host), env=environment(data), **popen)  # type: ignore[call-overload]


def launch(data: Path, port: int = 8501, host: str = "127.0.0.1") -> int:
    """Serve the dashboard over ``data`` until Ctrl-C; return the server's exit status."""
    print(f"mjaudit dashboard: http://{host}:{port}/ over {Path(data).absolute()} (Ctrl-C stops)")
    proc = start(data, port, host)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # `kill` stops the server too, not only Ctrl-C
    try:
        return proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0
