"""mahjong-audit: ingest, replay and audit mahjong-family game logs."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("mahjong-audit")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
