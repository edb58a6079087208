"""test_mcp_stdio.py - `python -m nethack_webmcp.mcp` driven by the official MCP SDK client.

The whole path a desktop MCP client takes: list tools, create a game, move,
hit, answer a real decision, query a route, run a bounded explore leg,
quit - over stdio, against the real engine - and no driver outlives it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from nethack_webmcp.tools import declarations
from support.client import ROOT, require_driver
from support.processes import drivers
from support.tool_compat import BUDGET_BYTES, compact_size, problems

pytestmark = pytest.mark.asyncio


class Client:
    def __init__(self, session: ClientSession) -> None:
        self.session = session

    async def frame(self, tool: str, expect_error: bool = False, **arguments: Any) -> dict[str, Any]:
        result = await self.session.call_tool(tool, arguments)
        frame = result.structuredContent
        assert frame is not None and frame["version"] == 2
        assert result.isError is expect_error, frame.get("error")
        assert result.content and result.content[0].type == "text"
        return frame


def bound(frame: dict[str, Any]) -> dict[str, Any]:
    return {"sessionId": frame["basis"]["sessionId"], "viewId": frame["basis"]["viewId"]}


async def test_stdio_server_plays_a_game(tmp_path: Path) -> None:
    require_driver()
    before = drivers()
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nethack_webmcp.mcp"],
        cwd=str(ROOT),
        env={**os.environ, "NNH_STATE_DIR": str(tmp_path / "state")},
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        assert [t.name for t in listed.tools] == [d["name"] for d in declarations()]
        for tool, declared in zip(listed.tools, declarations(), strict=True):
            assert tool.inputSchema == declared["inputSchema"]
            assert tool.annotations is not None
            assert tool.annotations.readOnlyHint == declared["annotations"]["readOnlyHint"]
        # what the official client loaded is what every model API accepts, within budget
        loaded = [tool.model_dump(exclude_none=True) for tool in listed.tools]
        assert problems(loaded) == []
        assert compact_size(loaded) <= BUDGET_BYTES
        client = Client(session)

        frame = await client.frame(
            "session", action="create", seed=42, name="Ada", harness_name="pytest", model_name="none"
        )
        second = await client.frame("session", action="create", seed=43)
        assert second["basis"]["sessionId"] != frame["basis"]["sessionId"]
        assert len(drivers() - before) == 2, "one engine per game"

        # hit: the pet next to the hero, named by its mark
        hit = await client.frame(
            "interact", **bound(frame), action="attack", target={"symbol": "d", "scope": "adjacent"}
        )
        assert hit["outcome"]["submission"] == "accepted" and hit["events"]
        moved = await client.frame("travel", **bound(hit), mode="step", target={"direction": "west"})
        assert moved["outcome"]["positionChanged"] is True

        stale = await client.frame("travel", expect_error=True, **bound(hit), mode="step", target={"direction": "west"})
        assert stale["error"]["code"] == "staleView"

        kick = await client.frame("interact", **bound(moved), action="kick")
        decision = kick["decision"]
        assert kick["control"]["gate"] == "decision" and decision["kind"] == "direction"
        answered = await client.frame("respond", **decision["reply"]["arguments"], value="north")
        assert answered["outcome"]["submission"] == "accepted"

        route = await client.frame("plan", sessionId=frame["basis"]["sessionId"], query="route", to={"x": 52, "y": 4})
        assert route["result"]["kind"] == "route" and route["result"]["distance"]

        leg = await client.frame("travel", **bound(answered), mode="explore", maxActions=4)
        assert leg["result"]["kind"] == "leg" and 1 <= leg["outcome"]["actionsTaken"] <= 4

        with pytest.raises(McpError):
            await session.call_tool("teleport", {})

        ended = await client.frame("interact", **bound(leg), action="quit")
        while ended["decision"] is not None:
            confirm = ended["decision"]["prompt"] == "Really quit?"
            if ended["decision"]["kind"] == "confirmation":
                ended = await client.frame("respond", **ended["decision"]["reply"]["arguments"], value=confirm)
            else:
                ended = await client.frame("respond", **ended["decision"]["cancel"]["arguments"])
        assert ended["control"]["gate"] == "ended" and ended["scene"]["end"]["how"] == "quit"

        closed = await client.frame("session", action="close", sessionId=frame["basis"]["sessionId"])
        assert closed["result"]["action"] == "closed"
    # the server closed the remaining game's engine on shutdown
    for _ in range(50):
        if not drivers() - before:
            break
        await asyncio.sleep(0.1)
    assert not drivers() - before, "no driver outlives the MCP server"
