"""test_mcp_stdio.py - `python -m nethack_webmcp.mcp` driven by the official MCP SDK client.

The whole path a desktop MCP client takes: list tools, create a game, move,
hit, answer a real decision, query a route, run a bounded explore leg,
quit - over stdio, against the real engine - and no driver outlives it.
Played once per protocol era the server speaks: the 2026-07-28 revision (no
handshake; every request carries its version) and the 2025-11-25 handshake
(the SDK's "legacy" mode); "auto" must pick 2026-07-28.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from nethack_webmcp.tools import declarations, mcp_declarations
from support.client import ROOT, bound, require_driver, stdio_command
from support.processes import drivers
from support.tool_compat import BUDGET_BYTES, compact_size, problems

pytestmark = pytest.mark.asyncio


class Player:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def frame(self, tool: str, expect_error: bool = False, **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, arguments)
        frame = result.structured_content
        assert frame is not None and frame["version"] == 2
        assert result.is_error is expect_error, frame.get("error")
        assert result.content and result.content[0].type == "text"
        return frame


def server(state_dir: Path) -> StdioServerParameters:
    command, args, env = stdio_command(state_dir, "--no-spectator")
    return StdioServerParameters(command=command, args=args, cwd=str(ROOT), env=env)


@pytest.mark.parametrize(("mode", "era"), [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")])
async def test_stdio_server_plays_a_game(tmp_path: Path, mode: str, era: str) -> None:
    require_driver()
    before = drivers()
    async with Client(server(tmp_path / "state"), mode=mode) as client:
        assert client.protocol_version == era
        listed = await client.list_tools()
        # served verbatim: every field of every declaration, nothing added, nothing lost
        # the page's declarations, with MCP's untrusted-content marking in words (tools.mcp_declarations)
        assert [tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools] == mcp_declarations()
        # what the official client loaded is what every model API accepts, within budget
        loaded = [tool.model_dump(by_alias=True, exclude_none=True) for tool in listed.tools]
        assert problems(loaded) == []
        assert compact_size(loaded) <= BUDGET_BYTES
        if era == "2026-07-28":
            # the list is the same for everyone and fixed for the process: clients may cache and share it
            assert listed.ttl_ms == 3_600_000 and listed.cache_scope == "public"
        player = Player(client)

        frame = await player.frame(
            "session", action="create", seed=42, name="Ada", harness_name="pytest", model_name="none"
        )
        second = await player.frame("session", action="create", seed=43)
        assert second["basis"]["sessionId"] != frame["basis"]["sessionId"]
        assert len(drivers() - before) == 2, "one engine per game"

        # hit: the pet next to the hero, named by its mark
        hit = await player.frame(
            "interact", **bound(frame), action="attack", target={"symbol": "d", "scope": "adjacent"}
        )
        assert hit["outcome"]["submission"] == "accepted" and hit["events"]
        moved = await player.frame("travel", **bound(hit), mode="step", target={"direction": "west"})
        assert moved["outcome"]["positionChanged"] is True

        stale = await player.frame("travel", expect_error=True, **bound(hit), mode="step", target={"direction": "west"})
        assert stale["error"]["code"] == "staleView"

        kick = await player.frame("interact", **bound(moved), action="kick")
        decision = kick["decision"]
        assert kick["control"]["gate"] == "decision" and decision["kind"] == "direction"
        answered = await player.frame("respond", **decision["reply"]["arguments"], value="north")
        assert answered["outcome"]["submission"] == "accepted"

        route = await player.frame("plan", sessionId=frame["basis"]["sessionId"], query="route", to={"x": 52, "y": 4})
        assert route["result"]["kind"] == "route" and route["result"]["distance"]

        leg = await player.frame("travel", **bound(answered), mode="explore", maxActions=4)
        assert leg["result"]["kind"] == "leg" and 1 <= leg["outcome"]["actionsTaken"] <= 4

        with pytest.raises(MCPError):
            await client.call_tool("teleport", {})

        ended = await player.frame("session", **bound(leg), action="quit")
        while ended["decision"] is not None:
            confirm = ended["decision"]["prompt"] == "Really quit?"
            if ended["decision"]["kind"] == "confirmation":
                ended = await player.frame("respond", **ended["decision"]["reply"]["arguments"], value=confirm)
            else:
                ended = await player.frame("respond", **ended["decision"]["cancel"]["arguments"])
        assert ended["control"]["gate"] == "ended" and ended["scene"]["end"]["how"] == "quit"

        closed = await player.frame("session", action="close", sessionId=frame["basis"]["sessionId"])
        assert closed["result"]["action"] == "closed"
    # the server closed the remaining game's engine on shutdown
    for _ in range(50):
        if not drivers() - before:
            break
        await asyncio.sleep(0.1)
    assert not drivers() - before, "no driver outlives the MCP server"


async def test_auto_mode_finds_the_current_revision(tmp_path: Path) -> None:
    """An SDK client left to negotiate (server/discover first) settles on 2026-07-28, not the handshake."""
    require_driver()
    async with Client(server(tmp_path / "state"), mode="auto") as client:
        assert client.protocol_version == "2026-07-28"
        assert [tool.name for tool in (await client.list_tools()).tools] == [d["name"] for d in declarations()]


async def test_the_operation_deadline_option_reaches_the_tools(tmp_path: Path) -> None:
    """`--operation-deadline` is the servers' knob for seed 000 §5's response
    deadline: with a tiny one, an explore leg answers `running` at once and
    observe reports the operation once it is done."""
    require_driver()
    command, args, env = stdio_command(tmp_path / "state", "--no-spectator", "--operation-deadline", "0.0001")
    params = StdioServerParameters(command=command, args=args, cwd=str(ROOT), env=env)
    async with Client(params, mode="2026-07-28") as client:
        player = Player(client)
        created = await player.frame("session", action="create", seed=42)
        leg = await player.frame("travel", **bound(created), mode="explore", requestId="leg-1")
        assert leg["outcome"]["status"] == "running", leg["outcome"]
        operation = leg["outcome"]["operationId"]
        for _ in range(200):
            seen = await player.frame("observe", sessionId=created["basis"]["sessionId"], operationId=operation)
            if "running" not in seen["result"]:
                break
            await asyncio.sleep(0.05)
        evidence = seen["result"]["operation"]
        assert evidence["found"] is True and evidence["outcome"]["submission"] == "accepted", evidence
