"""test_inspector_http.py - an independent MCP client over HTTP: the MCP Inspector CLI
(tests/support/inspector.py) lists the tools (`--strict`) and plays a game on a running
service instance, each invocation a new HTTP client, the control token passed as an
argument - in both protocol eras (`--protocol-era legacy` and `modern`, 2026-07-28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.inspector import run_with_node
from support.service_instance import Instance


def cli(inspector: Path, home: Path, url: str, era: str, *args: str, refused: bool = False) -> dict[str, Any]:
    run = run_with_node(
        [str(inspector), "--cli", url, "--transport", "http", "--protocol-era", era, *args], HOME=str(home)
    )
    assert (run.returncode != 0) == refused, run.stdout + run.stderr  # the CLI exits non-zero on isError
    return json.loads(run.stdout)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_inspector_lists_and_plays_over_http(inspector: Path, database: str, tmp_path: Path, era: str) -> None:
    with Instance.start(database, tmp_path / "state") as instance:
        listed = cli(inspector, tmp_path, instance.mcp_url, era, "--method", "tools/list", "--strict")
        assert [tool["name"] for tool in listed["tools"]][:2] == ["session", "observe"]
        created = cli(
            inspector,
            tmp_path,
            instance.mcp_url,
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
        assert created["isError"] is False
        basis, token = created["structuredContent"]["basis"], created["structuredContent"]["result"]["controlToken"]
        step = [
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
        ]
        refused = cli(inspector, tmp_path, instance.mcp_url, era, *step, refused=True)
        assert refused["isError"] is True and refused["structuredContent"]["error"]["code"] == "controlTokenRequired"
        moved = cli(inspector, tmp_path, instance.mcp_url, era, *step, "--tool-arg", f"controlToken={token}")
        assert moved["isError"] is False
        assert moved["structuredContent"]["outcome"]["submission"] == "accepted"
        assert moved["structuredContent"]["basis"]["revision"] == basis["revision"] + 1
