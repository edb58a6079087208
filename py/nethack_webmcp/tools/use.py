"""use.py - the `use` tool: act with a carried item, or discover item actions.

Items are named by their opaque `itemId` only (never a letter or a name).
Omitting the itemId of eat/apply/read/drop lets the engine ask which item
(an item decision). Without `action` the call is a free query returning
per-item attempts from perceived categories.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session
from . import offers
from .base import (
    SESSION_ID,
    TOKEN,
    Operation,
    Tool,
    ToolContext,
    mutate,
    mutation,
    one_of,
    query,
    variant,
)

ITEM_ID = {**TOKEN, "description": "An itemId from scene.inventory (opaque, e.g. item-4)."}
METHODS = {"eat": "game.eat", "apply": "game.apply", "read": "game.read", "drop": "game.drop"}

SCHEMA = one_of(
    variant({"sessionId": SESSION_ID}, {"itemId": ITEM_ID},
            description="Discover: offered actions for every carried item (or one). Free: no input."),
    mutation({"action": {"type": "string", "enum": ["eat", "apply", "read"]}}, {"itemId": ITEM_ID},
             description="eat, apply or read an item; omit itemId to be asked."),
    mutation({"action": {"const": "drop"}},
             {"itemId": ITEM_ID, "quantity": {"type": "integer", "minimum": 1, "maximum": 2147483647,
                                              "description": "Drop only part of a stack (needs itemId)."}},
             description="drop an item, optionally part of a stack."),
)

DESCRIPTION = """Use a carried item: eat, apply, read or drop, one command per call. Needs sessionId, \
the current viewId and the item's itemId from scene.inventory (omit itemId and the engine asks \
which item: answer with respond). Omit action to discover offered item actions for free.
Examples: {"sessionId":"…","viewId":"…","action":"eat","itemId":"item-4"}; \
{"sessionId":"…","viewId":"…","action":"drop","itemId":"item-7","quantity":2}; {"sessionId":"…"}.
Offers come from perceived item classes: they promise neither success nor safety."""


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:
        def discover(session: Session) -> dict[str, Any]:
            return frames.build(session, result=offers.items(session, args.get("itemId")))
        return await query(ctx, args, discover)

    async def perform(operation: Operation) -> dict[str, Any]:
        params = {key: args[key] for key in ("itemId", "quantity") if key in args}
        await operation.step(METHODS[args["action"]], params)
        return operation.frame()
    return await mutate(ctx, "use", args, perform)


TOOL = Tool("use", "Use an item", DESCRIPTION, SCHEMA, False, handle)
