"""test_mcp_items.py - the item verbs through the MCP server, in a normal game.

A desktop MCP client (the official SDK over stdio) plays a Wizard's first
turns: takes off and wears the cloak, puts a ring on a chosen hand, wields
bare-handed and back, quaffs a potion, zaps a wand and throws an item - each
one tool call, one real NetHack command, checked against the inventory
labels and messages NetHack produced. No wizard-mode fixture: the starting
kit of seed 2 (wand of sleep, ring of protection, potion of healing) is the
game's own.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from support.client import ROOT, require_driver

pytestmark = pytest.mark.asyncio


class Player:
    def __init__(self, session: ClientSession, frame: dict[str, Any]) -> None:
        self.session = session
        self.frame = frame

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """An acting call bound to the latest frame; returns the new frame."""
        bound = {"sessionId": self.frame["basis"]["sessionId"], "viewId": self.frame["basis"]["viewId"]}
        result = await self.session.call_tool(tool, {**bound, **arguments})
        frame = result.structured_content
        assert frame is not None and not result.is_error, frame and frame.get("error")
        assert frame["outcome"]["submission"] == "accepted", frame["outcome"]
        self.frame = frame
        return frame

    async def free(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.session.call_tool(tool, {"sessionId": self.frame["basis"]["sessionId"], **arguments})
        assert result.structured_content is not None and not result.is_error
        return result.structured_content

    async def label(self, item_id: str) -> str | None:
        inventory = (await self.free("inventory"))["result"]["items"]
        return next((entry["label"] for entry in inventory if entry["id"] == item_id), None)


def heard(frame: dict[str, Any]) -> list[str]:
    return [event["text"] for event in frame["events"] if event.get("type") == "heard"]


@contextlib.asynccontextmanager
async def wizard_game(tmp_path: Path) -> AsyncIterator[tuple[ClientSession, Player]]:
    """The stdio MCP server playing seed 2's Wizard (its own starting kit, no fixture)."""
    require_driver()
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "nethack_webmcp.mcp"],
        cwd=str(ROOT),
        env={**os.environ, "NNH_STATE_DIR": str(tmp_path / "state")},
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        created = await session.call_tool("session", {"action": "create", "seed": 2, "role": "wizard"})
        assert created.structured_content is not None
        yield session, Player(session, created.structured_content)


async def test_wear_wield_quaff_zap_and_throw_through_the_tools(tmp_path: Path) -> None:
    async with wizard_game(tmp_path) as (session, player):
        inventory = {entry["id"]: entry for entry in (await player.free("inventory"))["result"]["items"]}
        assert inventory["item-3"]["label"] == "a wand of sleep (0:7)"
        assert inventory["item-3"]["known"]["identity"] == "wand of sleep"  # starting kit is known
        assert "zap" in inventory["item-3"]["actions"]

        # free discovery offers the new verbs, bound and ready to call
        offers = (await player.free("use"))["result"]
        attempts = {
            (a["tool"], a["arguments"]["action"], a["arguments"].get("itemId"))
            for entry in offers["items"]
            for a in entry["attempts"]
        }
        assert {
            ("use", "drink", "item-8"),
            ("use", "zap", "item-3"),
            ("equipment", "takeoff", "item-2"),
            ("equipment", "puton", "item-4"),
        } <= attempts

        frame = await player.call("equipment", action="takeoff", itemId="item-2")
        assert "You were wearing an uncursed +0 cloak of magic resistance." in heard(frame)
        frame = await player.call("equipment", action="wear", itemId="item-2")
        assert frame["outcome"]["turnsElapsed"] >= 1
        assert (await player.label("item-2") or "").endswith("(being worn)")

        frame = await player.call("equipment", action="puton", itemId="item-4", slot="leftRing")
        assert (await player.label("item-4") or "").endswith("(on left hand)")

        frame = await player.call("equipment", action="wield", hands=True)
        assert "You are empty handed." in heard(frame)
        frame = await player.call("equipment", action="wield", itemId="item-1")
        assert (await player.label("item-1") or "").endswith("(weapon in hands)")
        slots = (await player.free("equipment"))["result"]["slots"]
        assert {"slot": "weapon", "itemId": "item-1"} in [{k: s[k] for k in ("slot", "itemId")} for s in slots]

        frame = await player.call("use", action="drink", itemId="item-8")
        assert frame["outcome"]["turnsElapsed"] >= 1
        assert await player.label("item-8") is None  # quaffed: gone

        frame = await player.call("use", action="zap", itemId="item-3", direction="east")
        assert frame["outcome"]["turnsElapsed"] >= 1
        assert re.search(r"\(0:6\)$", await player.label("item-3") or ""), "one charge used"

        frame = await player.call("use", action="throw", itemId="item-14", direction="west")
        assert frame["outcome"]["turnsElapsed"] >= 1
        assert await player.label("item-14") is None  # the blindfold left the pack

        # a bad request is an error frame and sends nothing
        result = await session.call_tool(
            "equipment",
            {
                "sessionId": frame["basis"]["sessionId"],
                "viewId": frame["basis"]["viewId"],
                "action": "wield",
                "itemId": "item-1",
                "hands": True,
            },
        )
        assert result.is_error and result.structured_content is not None
        assert result.structured_content["error"]["code"] == "invalidArguments"
        assert (await player.free("observe"))["basis"]["revision"] == frame["basis"]["revision"]
