"""exported.py - what `python -m nethack_webmcp.tools.export` prints, parsed.

The export command is how the site build and other clients get the package's
declarations, vocabulary and frame schema; the tests run it as a real
subprocess (not an import) so they hold the command line itself."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from support.client import ROOT


def exported(*flags: str) -> Any:
    """The JSON the export command prints with these flags (none: the tool declarations)."""
    printed = subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.tools.export", *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(printed)
