"""test_cancel_storm.py - the cancel storm over stdio (issue 22): 100 acting calls, each cancelled
at a random instant by a real MCP client, against the real stdio server and engine.

The SDK client sends `notifications/cancelled` for every call it gives up
on; the server's dispatcher turns that into the cancellation of the call's
handler task and never answers the call (nor twice). The session layer runs
an input once it is journaled to its boundary and records its receipt
(docs/DURABILITY.md). So: the server stays up, every retry with the same
requestId is accepted exactly one revision on and returns its receipt
again, nothing lands on the server's stderr, and a restarted server
resumes (by replaying the journal) exactly the final state. Played in both
protocol eras.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from support.cancel_storm import resumable, storm
from support.client import ROOT, require_driver, stdio_command

pytestmark = pytest.mark.asyncio

ROUNDS = 100


@contextlib.asynccontextmanager
async def connected(state_dir: Path, mode: str, errlog: Any) -> AsyncIterator[Client]:
    command, args, env = stdio_command(state_dir, "--no-spectator")
    params = StdioServerParameters(command=command, args=args, cwd=str(ROOT), env=env)
    async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
        yield client


def caller(client: Client) -> Any:
    async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await client.call_tool(tool, arguments)
        assert result.structured_content is not None
        return {**result.structured_content, "isError": result.is_error}

    return call


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
async def test_cancel_storm_over_stdio(tmp_path: Path, mode: str) -> None:
    require_driver()
    state, log = tmp_path / "state", tmp_path / "server.log"
    with log.open("w") as errlog:
        async with connected(state, mode, errlog) as client:
            call = caller(client)
            created = await call("session", {"action": "create", "seed": 2024})
            played = await storm(call, created, rounds=ROUNDS)
            print(f"cancel storm ({mode}): {played.cancelled} cancelled in flight, {played.answered} answered first")
            assert played.cancelled >= ROUNDS // 4, f"only {played.cancelled} calls were cancelled in flight"
            assert played.final["basis"]["revision"] == ROUNDS
            # still serving: a free query answers at once with the final state
            seen = await call("observe", {"sessionId": created["basis"]["sessionId"]})
            assert seen["basis"] == played.final["basis"]
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    with log.open("a") as errlog:
        async with connected(state, mode, errlog) as client:
            resumed = await caller(client)("observe", {"sessionId": created["basis"]["sessionId"]})
    assert resumed["diagnostics"]["resume"]["revision"] == ROUNDS
    assert resumable(resumed) == resumable(seen)
