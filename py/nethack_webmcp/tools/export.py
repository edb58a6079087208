"""export.py - write the tool declarations, or the DecisionFrame schema, as JSON.

    python -m nethack_webmcp.tools.export > tools.json
    python -m nethack_webmcp.tools.export --frame-schema > decision-frame.schema.json

Both come from the Python declarations (registry.py, frame_schema.py), so the
page and other languages read the same source the servers serve.
"""

from __future__ import annotations

import json
import sys

from . import frame_schema
from .registry import declarations


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--frame-schema"]):
        sys.exit("usage: python -m nethack_webmcp.tools.export [--frame-schema]")
    document = frame_schema.schema() if args else {"tools": declarations()}
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
