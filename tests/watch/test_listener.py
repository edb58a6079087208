"""test_listener.py - the listener's address: a port in use fails fast and says
what to do; --no-spectator serves nothing; port 0 picks a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from support.watched import ROOT, require_driver


def test_a_port_in_use_fails_at_once_with_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        started = time.monotonic()
        # stdin stays open (a client that never speaks): the failure must not wait for it
        server = subprocess.Popen(
            [sys.executable, "-m", "nethack_webmcp.mcp", "--spectator-port", str(port)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "NNH_STATE_DIR": str(tmp_path / "state")},
        )
        try:
            _, stderr = server.communicate(timeout=10)
        finally:
            server.kill()
        elapsed = time.monotonic() - started
    assert server.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in stderr.decode()
    assert "--spectator-port 0" in stderr.decode() and "--no-spectator" in stderr.decode()
    assert elapsed < 5, elapsed


@pytest.mark.asyncio
async def test_no_spectator_serves_nothing(tmp_path: Path) -> None:
    require_driver()
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nethack_webmcp.mcp", "--no-spectator"],
        cwd=str(ROOT),
        env={**os.environ, "NNH_STATE_DIR": str(tmp_path / "state")},
    )
    with tempfile.TemporaryFile("w+") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            helped = (await session.call_tool("help", {})).structured_content
            assert helped is not None
            assert "watchUrl" not in helped["result"]
            created = (await session.call_tool("session", {"action": "create", "seed": 1})).structured_content
            assert created is not None
            assert "watchUrl" not in created["result"] and "watch it" not in str(created)
        errlog.seek(0)
        assert "watch the games" not in errlog.read()
