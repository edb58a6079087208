"""test_cancel_storm_http.py - the cancel storm over HTTP (issue 22): 100 acting calls, each
cancelled at a random instant by the MCP SDK's own client, against a real instance on a
real PostgreSQL, in both ways an HTTP client gives up:

- 2025-11-25 (handshake era): the client POSTs `notifications/cancelled`. A
  stateless exchange cannot name another exchange's call, so the server
  acknowledges it (202) and the call runs to its end; its answer is dropped.
- 2026-07-28: the client closes the call's response stream. The server sees
  the disconnect and cancels the call's handler (service/http.py _Endpoint);
  the /metrics page counts those handlers as ended without a frame.

Either way: the instance stays up, every retry with the same requestId is
accepted exactly one revision on and returns its receipt again, the journal
holds exactly one entry per input, nothing lands on the server's stderr,
and a fresh instance resumes (by replay) exactly the final state.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from support.cancel_storm import resumable, storm
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


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_cancel_storm_over_http(database: str, tmp_path: Path, mode: str) -> None:
    with Instance.start(database, tmp_path / "a") as instance:
        async with Agent(instance.mcp_url, mode=mode) as agent:

            async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
                return await agent.call(tool, arguments)

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
    if mode == "2026-07-28":
        assert cancelled_handlers >= 1, "a closed response stream cancels the call's handler"
    else:
        assert cancelled_handlers == 0, "a posted notifications/cancelled names no call of this exchange"
    assert "Traceback" not in instance.log(), instance.log()[-3000:]
    assert await journal_length(database, game) == ROUNDS, "each input journaled once"
    with Instance.start(database, tmp_path / "b") as fresh:
        async with Agent(fresh.mcp_url, mode=mode) as agent:
            resumed = await agent.call("observe", {"sessionId": game, "controlToken": token})
    assert resumed["diagnostics"]["resume"]["revision"] == ROUNDS
    assert resumable(resumed) == resumable(seen)
