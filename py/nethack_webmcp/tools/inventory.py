"""inventory.py - the `inventory` tool: the carried items, free.

Reads the latest observation: no input, no turn. `known:false` means the
inventory is not currently perceived (unknown is not empty).
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session
from .base import SESSION_ID, Tool, ToolContext, plain_schema, query

SCHEMA = plain_schema({"sessionId": SESSION_ID}, ("sessionId",))

DESCRIPTION = "Carried items (free): itemId, label, what you know, actions."


def result(session: Session) -> dict[str, Any]:
    observation = session.observation
    if not observation.get("inventoryKnown"):
        return {"kind": "inventory", "known": False}
    return {"kind": "inventory", "known": True, "items": observation.get("inventory", [])}


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await query(ctx, args, lambda session: frames.build(session, result=result(session), include_scene=False))


TOOL = Tool("inventory", DESCRIPTION, SCHEMA, True, handle)
