"""The export CLI reads a sessionId that begins with "-" as the sessionId, not as an option."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_a_session_id_beginning_with_a_dash_is_a_target(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.export", "--no-hash", "-6pI3hQF4N0yAF_G"],
        env={**os.environ, "NNH_STATE_DIR": str(tmp_path)}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "usage:" not in done.stderr, done.stderr
    assert json.loads(done.stderr)["error"]["code"] == "unknownSession"
