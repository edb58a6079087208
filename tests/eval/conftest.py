"""Fixtures of the eval tests: real suite runs of the harness CLI (real service, real engine, real agents)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from support.eval_runs import run_eval


@pytest.fixture(scope="session")
def secret_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("secret") / "suite-secret"
    path.write_text(secrets.token_hex(32))
    return path


@pytest.fixture(scope="session")
def smoke_runs(tmp_path_factory: pytest.TempPathFactory, secret_file: Path) -> dict[str, Any]:
    """The issue's two acceptance commands: autopilot and random, smoke suite, 3 games, 300 calls."""
    out = tmp_path_factory.mktemp("runs")
    runs: dict[str, Any] = {}
    for agent in ("autopilot", "random"):
        path = out / f"{agent}.json"
        done = run_eval(["--agent", agent, "--suite", "smoke", "--games", "3", "--max-calls", "300", "--out",
                         str(path)], secret_file)  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        runs[agent] = {"path": path, "results": json.loads(path.read_text()), "stderr": done.stderr}
    return runs
