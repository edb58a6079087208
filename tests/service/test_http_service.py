"""test_http_service.py - MCP over HTTP through the SDK's own client, on a real instance
(real engine, real PostgreSQL): the tools, play, control tokens, the spectator read,
and that a refused call changes nothing - in both protocol eras (2026-07-28, one
self-contained POST per request, and the 2025-11-25 handshake era, stateless)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from nethack_webmcp.mcp import declared_tools
from nethack_webmcp.tools import TOOLS
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio


async def journal_length(database: str, session_id: str) -> int:
    async with await psycopg.AsyncConnection.connect(database) as db:
        row = await (await db.execute("SELECT count(*) FROM journal WHERE session_id = %s", (session_id,))).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(("mode", "era"), [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
async def test_lists_the_tools_and_plays_with_its_token(database: str, tmp_path: Path, mode: str, era: str) -> None:
    with Instance.start(database, tmp_path) as instance:
        async with Agent(instance.mcp_url, mode=mode) as agent:
            assert agent.protocol_version == era
            assert await agent.tools() == [tool.name for tool in TOOLS]
            listed = {tool["name"]: tool for tool in await agent.listed()}
            assert list(listed.values()) == declared_tools(http=True), "the declarations, verbatim"
            assert "controlToken" in listed["interact"]["inputSchema"]["properties"]
            assert "controlToken" not in listed["help"]["inputSchema"]["properties"]

            created = await agent.call("session", {"action": "create", "seed": 11, "name": "Ada"})
            assert not created["isError"], created
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            assert len(token) >= 43 and created["result"]["watchUrl"] == f"{instance.url}/g/{game}"
            other = await agent.call("session", {"action": "create", "seed": 12})
            other_token = other["result"]["controlToken"]
            assert other_token != token
            view = created["basis"]["viewId"]

            acted = await agent.call(
                "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": token}
            )
            assert not acted["isError"] and acted["outcome"]["submission"] == "accepted", acted
            assert acted["basis"]["revision"] == 1
            view = acted["basis"]["viewId"]
            before = await journal_length(database, game)

            refused = [
                await agent.call("interact", {"sessionId": game, "viewId": view, "action": "search"}),
                await agent.call(
                    "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": other_token}
                ),
                await agent.call(
                    "interact",
                    {
                        "sessionId": game,
                        "viewId": view,
                        "action": "search",
                        "controlToken": token[:-1] + ("A" if token[-1] != "A" else "B"),
                    },
                ),
                await agent.call("session", {"action": "close", "sessionId": game}),
                await agent.call("observe", {"sessionId": game, "controlToken": other_token}),
            ]
            assert [frame["error"]["code"] for frame in refused] == [
                "controlTokenRequired",
                "forbidden",
                "forbidden",
                "controlTokenRequired",
                "forbidden",
            ]
            assert all(frame["isError"] for frame in refused)
            assert all(frame["outcome"]["submission"] == "rejected" for frame in refused[:4])
            assert await journal_length(database, game) == before, "a refused call sends nothing"

            # without a token a reading tool observes as a spectator would: the same state, nothing changed
            seen = await agent.call("observe", {"sessionId": game})
            assert not seen["isError"] and seen["basis"]["revision"] == 1 and seen["basis"]["viewId"] == view
            again = await agent.call(
                "interact", {"sessionId": game, "viewId": view, "action": "search", "controlToken": token}
            )
            assert again["outcome"]["submission"] == "accepted" and again["basis"]["revision"] == 2
        assert token not in instance.log() and other_token not in instance.log()


async def test_a_modern_request_is_one_exchange(database: str, tmp_path: Path) -> None:
    """2026-07-28 on the wire, without an SDK: one POST, no initialize and no Mcp-Session-Id;
    the Mcp-Method/Mcp-Name headers must agree with the body; tools/list carries its cache hint."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    headers = {"MCP-Protocol-Version": "2026-07-28", "Accept": "application/json, text/event-stream"}
    with Instance.start(database, tmp_path) as instance:
        async with httpx.AsyncClient(timeout=60) as http:

            async def post(method: str, params: dict[str, Any], **extra: str) -> httpx.Response:
                body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
                return await http.post(instance.mcp_url, json=body, headers={**headers, "Mcp-Method": method, **extra})

            found = await post("server/discover", {})
            assert found.status_code == 200 and "mcp-session-id" not in found.headers
            assert "2026-07-28" in found.json()["result"]["supportedVersions"]
            listed = (await post("tools/list", {})).json()["result"]
            assert listed["ttlMs"] == 3_600_000 and listed["cacheScope"] == "public"
            assert listed["tools"] == declared_tools(http=True)
            call = {"name": "session", "arguments": {"action": "create", "seed": 3}}
            created = (await post("tools/call", call, **{"Mcp-Name": "session"})).json()["result"]
            assert created["isError"] is False and created["structuredContent"]["basis"]["revision"] == 0
            mismatch = await post("tools/call", call, **{"Mcp-Name": "observe"})
            assert mismatch.status_code == 400 and "error" in mismatch.json()
