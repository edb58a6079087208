"""test_typescript_clients.py - the MCP TypeScript SDK as an independent client, in both eras.

tests/support/ts_client.mjs lists the tools, creates a game and takes three
steps (one stale step refused in between) with the TypeScript SDK 1.x client
(@modelcontextprotocol/sdk 1.32.2, the 2025-11-25 handshake) and with its 2.x
client (@modelcontextprotocol/client 2.3.1, pinned to 2026-07-28 with no
fallback), over stdio and over HTTP (a real instance on a real PostgreSQL).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.tools import TOOLS
from support.client import ROOT, require_driver
from support.inspector import run_with_node
from support.service_instance import Instance

V1 = "1.32.2"
CLIENTS = [("v1", "legacy", None), ("v2", "modern", "2026-07-28")]


def play(flavour: str, transport: str, target: str, client_dir: Path) -> dict[str, Any]:
    run = run_with_node(
        ["node", "tests/support/ts_client.mjs", flavour, transport, target],
        PYTHON=sys.executable,
        NNH_TS_CLIENT_DIR=str(client_dir),
    )
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def check(played: dict[str, Any], era: str, version: str | None) -> None:
    assert played["era"] == era
    if version is not None:
        assert played["protocolVersion"] == version
    assert played["tools"] == [tool.name for tool in TOOLS]
    assert played["revisions"] == [0, 1, 2, 3] and played["refused"] == "staleView"


def test_the_1x_sdk_is_the_pinned_one() -> None:
    manifest = ROOT / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
    assert json.loads(manifest.read_text())["version"] == V1, "npm ci (package.json) installs the TypeScript SDK"


@pytest.mark.parametrize(("flavour", "era", "version"), CLIENTS)
def test_over_stdio(flavour: str, era: str, version: str | None, ts_client_dir: Path, tmp_path: Path) -> None:
    require_driver()
    check(play(flavour, "stdio", str(tmp_path / "state"), ts_client_dir), era, version)


@pytest.mark.parametrize(("flavour", "era", "version"), CLIENTS)
def test_over_http(
    flavour: str, era: str, version: str | None, ts_client_dir: Path, database: str, tmp_path: Path
) -> None:
    with Instance.start(database, tmp_path / "state") as instance:
        check(play(flavour, "http", instance.mcp_url, ts_client_dir), era, version)
