"""What "written" means before the service answers a post (``mjaudit serve --sync``).

Its own module, without the service's imports, so the command line can offer the choice
without loading the server.
"""

from __future__ import annotations

import enum


class Sync(enum.StrEnum):
    """What "written" means before a post is answered."""

    DISK = "disk"  # fsync'd: survives a power cut
    OS = "os"  # in the operating system's cache: survives the server's death; fsync'd within 1 s
