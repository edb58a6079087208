"""test_mcp_knowledge.py - spells, engraving, the encyclopedia and knowledge through the
MCP server, in a normal game.

A desktop MCP client (the official SDK over stdio) plays a Wizard (seed 2, no
wizard-mode fixture): reads what the player knows (result.knowledge), casts
force bolt by name and pays its energy, engraves Elbereth with a finger,
chats, looks "newt" up in NetHack's encyclopedia without changing the game,
and has its bad requests refused with nothing sent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from test_mcp_items import heard, wizard_game

pytestmark = pytest.mark.asyncio


async def refused(session: ClientSession, frame: dict[str, Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """An error frame with nothing sent: the revision is unchanged afterwards."""
    result = await session.call_tool(
        tool, {"sessionId": frame["basis"]["sessionId"], "viewId": frame["basis"]["viewId"], **arguments}
    )
    assert result.is_error and result.structured_content is not None, result
    refusal = result.structured_content
    assert refusal["outcome"]["submission"] == "rejected", refusal["outcome"]
    observed = await session.call_tool("observe", {"sessionId": frame["basis"]["sessionId"]})
    assert observed.structured_content is not None
    assert observed.structured_content["basis"]["revision"] == frame["basis"]["revision"]
    return refusal["error"]


async def test_cast_engrave_chat_and_lookup_through_the_tools(tmp_path: Path) -> None:
    async with wizard_game(tmp_path) as (session, player):
        observed = await player.free("observe")
        known = observed["result"]["knowledge"]
        assert [spell["name"] for spell in known["spells"]][0] == "force bolt"
        assert {"name": "attack spells", "rank": "Basic", "advance": "practice"} in known["skills"]
        # unidentified books and unknown spells never leak into the list
        assert len(known["spells"]) == 2

        # the encyclopedia is free: same revision, view and engine state afterwards
        lore = (await player.free("lookup", name="newt"))["result"]
        assert lore["kind"] == "lore" and lore["found"] and any("Eye of newt" in line for line in lore["lines"])
        assert (await player.free("lookup", name="qwzx"))["result"] == {
            "kind": "lore",
            "name": "qwzx",
            "found": False,
            "lines": [],
        }
        again = await player.free("observe")
        assert again["result"]["stateHash"] == observed["result"]["stateHash"]
        assert again["basis"] == observed["basis"]

        energy = player.frame["scene"]["self"]["vitals"]["energy"]
        frame = await player.call("use", action="cast", text="force bolt", direction="north")
        assert frame["outcome"]["turnsElapsed"] == 1
        assert frame["scene"]["self"]["vitals"]["energy"] == energy - 5

        frame = await player.call("use", action="engrave", hands=True, text="Elbereth")
        assert "You write in the dust with your fingertip." in heard(frame)

        frame = await player.call("interact", action="pay")
        assert "There appears to be no shopkeeper here to receive your payment." in heard(frame)

        # automatic pickup: NetHack's pickup_types marks switch it on, none switch it off
        assert frame["scene"]["automaticPickup"]["enabled"] is False
        frame = await player.call("interact", action="autopickup", types="$?")
        assert frame["outcome"]["turnsElapsed"] == 0
        assert frame["scene"]["automaticPickup"] == {
            "enabled": True,
            "itemTypes": ["gold", "scrolls"],
            "arrows": True,
            "leaveCorpses": True,
            "leaveKnownCursed": True,
        }
        frame = await player.call("interact", action="autopickup")
        assert frame["scene"]["automaticPickup"]["enabled"] is False
        assert (await refused(session, frame, "interact", action="autopickup", types="$$"))[
            "code"
        ] == "invalidArguments"

        assert (await refused(session, frame, "use", action="cast", text="fireball"))["code"] == "unknownSpell"
        assert (await refused(session, frame, "interact", action="loot"))["code"] == "noContainer"
        error = await refused(session, frame, "use", action="engrave", hands=True, text="E" * 129)
        assert error["code"] == "invalidArguments"
