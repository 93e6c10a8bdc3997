"""mahjong-audit: ingest, replay and audit mahjong-family game logs.

The Python API (see :mod:`mjaudit.api`): :func:`read_log`, :func:`replay_hand`,
:func:`open`, :func:`ingest`, :func:`replay`. The parts of the product, the repository's
folders, are importable as ``mjaudit.parts.<folder>`` (``mjaudit.parts.replay.rulesets.hk.scoring``).
"""

from mjaudit.compiled import install as _install_compiled

_install_compiled()  # before any engine module is imported: MJAUDIT_PURE_PYTHON, stale .so

from mjaudit.api import Archive, BadRecord, ingest, open, read_log, replay, replay_hand  # noqa: E402


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata when first asked for: ``import
    mjaudit`` (the Python API) then does not import ``importlib.metadata`` (0.015 s)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    global __version__
    try:
        __version__ = version("mahjong-audit")
    except PackageNotFoundError:  # running from a source tree that is not installed
        __version__ = "0.0.0+source"
    return __version__


__all__ = [
    "Archive",
    "BadRecord",
    "__version__",
    "ingest",
    "open",
    "read_log",
    "replay",
    "replay_hand",
]
