"""Write the published JSON Schema: ``python -m mjaudit.parts.schemas.generate`` (a test checks it is fresh)."""

from __future__ import annotations

import json
from pathlib import Path

from mjaudit.parts.schemas.mjlog import json_schema

SCHEMA_PATH = Path(__file__).with_name("mjlog-1.schema.json")


def render() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
