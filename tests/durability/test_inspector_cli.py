"""test_inspector_cli.py - an independent MCP client: the MCP Inspector CLI.

The Inspector itself (pinned, installed once) is tests/support/inspector.py. Each CLI
invocation starts a new `python -m nethack_webmcp.mcp` and talks to it over
stdio, so the second call below only works because the server resumes the
game from SQLite. Each test runs in both protocol eras the Inspector speaks
(`--protocol-era legacy`: the initialize handshake; `modern`: 2026-07-28).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.inspector import run_with_node

ERAS = pytest.mark.parametrize("era", ["legacy", "modern"])


def cli(inspector: Path, home: Path, state_dir: Path, era: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_with_node(
        [
            str(inspector),
            "--cli",
            "--protocol-era",
            era,
            "-e",
            f"NNH_STATE_DIR={state_dir}",
            "-e",
            "NNH_SPECTATOR_PORT=0",
            sys.executable,
            "-m",
            "nethack_webmcp.mcp",
            *args,
        ],
        unset=("NNH_STATE_DIR",),
        HOME=str(home),
    )


def quiet(stderr: str) -> bool:
    """Nothing on stderr but the server's announcement of its spectator URL."""
    return [line for line in stderr.splitlines() if not line.startswith("nethack-webmcp: watch the games at ")] == []


def result(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert run.returncode == 0, run.stdout + run.stderr
    assert quiet(run.stderr)
    reply = json.loads(run.stdout)
    assert reply["isError"] is False, reply
    return reply["structuredContent"]


@ERAS
def test_tools_list_is_strictly_clean(inspector: Path, tmp_path: Path, era: str) -> None:
    run = cli(inspector, tmp_path, tmp_path / "state", era, "--method", "tools/list", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert quiet(run.stderr)
    assert [tool["name"] for tool in json.loads(run.stdout)["tools"]][:2] == ["session", "observe"]


@ERAS
def test_two_invocations_play_one_stored_game(inspector: Path, tmp_path: Path, era: str) -> None:
    state_dir = tmp_path / "state"
    created = result(
        cli(
            inspector,
            tmp_path,
            state_dir,
            era,
            "--method",
            "tools/call",
            "--tool-name",
            "session",
            "--tool-arg",
            "action=create",
            "--tool-arg",
            "seed=42",
        )
    )
    basis = created["basis"]
    assert (state_dir / "games.sqlite3").exists()
    moved = result(
        cli(
            inspector,
            tmp_path,
            state_dir,
            era,
            "--method",
            "tools/call",
            "--tool-name",
            "travel",
            "--tool-arg",
            f"sessionId={basis['sessionId']}",
            "--tool-arg",
            f"viewId={basis['viewId']}",
            "--tool-arg",
            "mode=step",
            "--tool-arg",
            'target={"direction":"east"}',
        )
    )
    assert moved["outcome"]["submission"] == "accepted"
    assert moved["basis"]["sessionId"] == basis["sessionId"]
    assert moved["basis"]["revision"] == basis["revision"] + 1
    assert moved["diagnostics"]["resume"]["revision"] == basis["revision"]
