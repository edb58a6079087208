"""eval_runs.py - run the benchmark harness CLI as a user would, and derive suite seeds independently of it."""

from __future__ import annotations

import hashlib
import hmac
import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def run_eval(
    args: list[str], secret_file: Path, timeout: float = 600, extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    secret = ["--suite-secret-file", str(secret_file)]  # the board subcommand plays nothing: no secret
    environment = {k: v for k, v in os.environ.items() if k != "NNH_EVAL_SECRET"} | (extra_env or {})
    return subprocess.run(
        [sys.executable, "-m", "nethack_webmcp.eval", *args, *([] if args[:1] == ["board"] else secret)],
        cwd=REPOSITORY, env=environment, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def expected_seed(secret: bytes, suite: str, version: int, index: int) -> int:
    """The suite seed derived here independently of the harness (docs/EVALUATION.md, Suites)."""
    digest = hmac.new(secret, f"{suite}/v{version}/{index}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big")
