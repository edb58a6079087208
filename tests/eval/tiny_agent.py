"""tiny_agent.py - a small real MCP client program, as `--agent-cmd` runs one: it reads its game from the
environment the harness sets, plays a few calls over Streamable HTTP with the MCP SDK, and writes every
byte of every result it received to received.bin in its working directory (the test searches it)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def main() -> None:
    config = json.loads(Path(os.environ["NNH_EVAL_MCP_CONFIG"]).read_text())
    url = config["mcpServers"]["nethack"]["url"]
    assert url == os.environ["NNH_EVAL_MCP_URL"]
    game = config["nethackGame"]
    binding = {"sessionId": game["sessionId"], "controlToken": game["controlToken"]}
    with Path("received.bin").open("wb") as received:
        await play(url, binding, received)


async def play(url: str, binding: dict[str, str], received: Any) -> None:
    async with httpx2.AsyncClient(timeout=120) as http, Client(streamable_http_client(url, http_client=http)) as client:
        own = await client.call_tool("session", {"action": "create", "seed": 7})  # refused: the game is given
        received.write(own.model_dump_json().encode())
        for _ in range(int(os.environ["NNH_EVAL_MAX_CALLS"]) + 3):  # past the budget on purpose
            result = await client.call_tool("observe", binding)
            received.write(result.model_dump_json().encode())
            frame = result.structured_content or {}
            if (frame.get("error") or {}).get("code") == "budgetExhausted":
                break
            view = (frame.get("basis") or {}).get("viewId")
            result = await client.call_tool("travel", {**binding, "mode": "explore", "viewId": view})
            received.write(result.model_dump_json().encode())


asyncio.run(main())
