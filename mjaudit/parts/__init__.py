"""The parts of mahjong-audit, as the repository's top-level folders hold them.

``ingest/`` reads and writes tables, ``replay/`` owns the rules engine, ``dashboards/`` only
reads, ``schemas/`` defines the log format and the tables, ``service/`` is the live audit
service (``mjaudit serve``). The wheel puts them inside this
package (``mjaudit/parts/replay/...``), so the installed distribution has one top-level
import, ``mjaudit``; from a source tree (an editable install, ``make test``) this package
finds them in the folders themselves. They live here, not at ``mjaudit.replay``, because
``mjaudit.ingest`` and ``mjaudit.replay`` are the API's functions.
"""

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_TREE = _HERE.parent.parent
if not (_HERE / "replay").is_dir() and (_TREE / "replay" / "__init__.py").is_file():
    __path__.append(str(_TREE))
