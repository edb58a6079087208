"""export.py - write the tool declarations as JSON: `python -m nethack_webmcp.tools.export > tools.json`."""

from __future__ import annotations

import json
import sys

from .registry import declarations


def main() -> None:
    json.dump({"tools": declarations()}, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
