"""export.py - write the tool declarations, the DecisionFrame schema or the vocabulary as JSON.

    python -m nethack_webmcp.tools.export > tools.json
    python -m nethack_webmcp.tools.export --frame-schema > decision-frame.schema.json
    python -m nethack_webmcp.tools.export --vocabulary > vocabulary.json

All come from the Python declarations (registry.py, frame_schema.py, the
engine's vocabulary in engine/vocabulary.py and the adapter's words), so the
page and other languages read the same source the servers serve.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from ..engine.vocabulary import ENGINE
from . import error_codes, frame_schema
from .registry import declarations

USAGE = "usage: python -m nethack_webmcp.tools.export [--frame-schema | --vocabulary]"


def vocabulary() -> dict[str, Any]:
    """vocabulary.json: the engine's words (protocol.describe's vocabulary) and the adapter's."""
    adapter = {
        "statuses": [*frame_schema.ENGINE_STATUSES, *frame_schema.ADAPTER_STATUSES],
        "recoverableErrors": list(error_codes.RECOVERABLE),
    }
    return {"engine": ENGINE, "adapter": adapter}


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    documents: dict[tuple[str, ...], Callable[[], dict[str, Any]]] = {
        (): lambda: {"tools": declarations()},
        ("--frame-schema",): frame_schema.schema,
        ("--vocabulary",): vocabulary,
    }
    if tuple(args) not in documents:
        sys.exit(USAGE)
    document = documents[tuple(args)]()
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
