"""test_cancel_storm_http.py - the cancel storm over HTTP (issue 22): 100 acting calls, each
cancelled at a random instant by the MCP SDK's own client, against a real instance on a
real PostgreSQL, in both ways an HTTP client gives up:

- 2025-11-25 (handshake era): the client POSTs `notifications/cancelled`. A
  stateless exchange cannot name another exchange's call, so the server
  acknowledges it (202) and the call runs to its end; its answer is dropped.
- 2026-07-28: the client closes the call's response stream. The server sees
  the disconnect and cancels the call's handler (service/http.py _Endpoint);
  the /metrics page counts those handlers as ended without a frame.
- a handshake-era client that closes its POST's connection (raw HTTP: the
  SDK's 1.x-style client keeps it open) is cancelled the same way.

Either way: the instance stays up, every retry with the same requestId is
accepted exactly one revision on and returns its receipt again, the journal
holds exactly one entry per input, nothing lands on the server's stderr,
and a fresh instance resumes (by replay) exactly the final state.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from support.cancel_storm import Call, resumable, storm
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio

ROUNDS = 100


async def journal_length(database: str, session_id: str) -> int:
    async with await psycopg.AsyncConnection.connect(database) as db:
        row = await (await db.execute("SELECT count(*) FROM journal WHERE session_id = %s", (session_id,))).fetchone()
    assert row is not None
    return int(row[0])


def handlers_ended_without_a_frame(instance: Instance) -> int:
    page = httpx.get(f"{instance.url}/metrics", timeout=30).text
    found = re.search(r'^nethack_webmcp_tool_errors_total\{tool="interact",code="raised"\} (\d+)$', page, re.M)
    return int(found.group(1)) if found else 0


@asynccontextmanager
async def client(url: str, mode: str) -> AsyncIterator[Call]:
    """The SDK's client in `mode`, or ("closing") raw handshake-era POSTs, one connection each."""
    if mode != "closing":
        async with Agent(url, mode=mode) as agent:
            yield agent.call
        return
    headers = {"MCP-Protocol-Version": "2025-11-25", "Accept": "application/json, text/event-stream"}

    async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        # its own connection, closed when this call is cancelled
        async with httpx.AsyncClient(timeout=60) as http:
            result = (await http.post(url, json=body, headers=headers)).json()["result"]
        return {**result["structuredContent"], "isError": result["isError"]}

    yield call


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28", "closing"])
async def test_cancel_storm_over_http(database: str, tmp_path: Path, mode: str) -> None:
    with Instance.start(database, tmp_path / "a") as instance:
        async with client(instance.mcp_url, mode) as call:
            created = await call("session", {"action": "create", "seed": 2024})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            played = await storm(call, created, rounds=ROUNDS, extra={"controlToken": token})
            print(f"cancel storm ({mode}): {played.cancelled} cancelled in flight, {played.answered} answered first")
            assert played.cancelled >= ROUNDS // 4, f"only {played.cancelled} calls were cancelled in flight"
            assert played.final["basis"]["revision"] == ROUNDS
            seen = await call("observe", {"sessionId": game, "controlToken": token})
            assert seen["basis"] == played.final["basis"]
        cancelled_handlers = handlers_ended_without_a_frame(instance)
        print(f"handlers cancelled by a closed stream ({mode}): {cancelled_handlers}")
    if mode == "legacy":
        assert cancelled_handlers == 0, "a posted notifications/cancelled names no call of this exchange"
    else:
        assert cancelled_handlers >= 1, "a closed response stream cancels the call's handler"
    assert "Traceback" not in instance.log(), instance.log()[-3000:]
    assert await journal_length(database, game) == ROUNDS, "each input journaled once"
    with Instance.start(database, tmp_path / "b") as fresh:
        async with client(fresh.mcp_url, mode) as call:
            resumed = await call("observe", {"sessionId": game, "controlToken": token})
    assert resumed["diagnostics"]["resume"]["revision"] == ROUNDS
    assert resumable(resumed) == resumable(seen)
