"""use.py - the `use` tool: act with a carried item, or discover item actions.

Items are named by their opaque `itemId` only (never a letter or a name).
Omitting the itemId of eat/apply/read/drop lets the engine ask which item
(an item decision). Without `action` the call is a free query returning
per-item attempts from perceived categories.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session, SessionError
from . import offers
from .actions import Action, ActionTable
from .base import (
    ACTING,
    BINDING_FIELDS,
    TOKEN,
    Operation,
    Tool,
    ToolContext,
    mutate,
    query,
    table_tool,
)

ITEM_ID = {**TOKEN, "description": "itemId from scene.inventory"}
QUANTITY = {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "part of a stack"}
METHODS = {"eat": "game.eat", "apply": "game.apply", "read": "game.read", "drop": "game.drop"}

TABLE = ActionTable("action", (
    Action(None, "free: offered actions per carried item", optional=("itemId",), binding="session"),
    *(Action(name, "", optional=("itemId",)) for name in ("eat", "apply", "read")),
    Action("drop", "quantity needs itemId", optional=("itemId", "quantity")),
), {**BINDING_FIELDS, "itemId": ITEM_ID, "quantity": QUANTITY})


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:
        def discover(session: Session) -> dict[str, Any]:
            return frames.build(session, result=offers.items(session, args.get("itemId")))
        return await query(ctx, args, discover)

    if "quantity" in args and "itemId" not in args:
        raise SessionError("invalidArguments", "use: quantity needs itemId", field="quantity")

    async def perform(operation: Operation) -> dict[str, Any]:
        params = {key: args[key] for key in ("itemId", "quantity") if key in args}
        await operation.step(METHODS[args["action"]], params)
        return operation.frame()
    return await mutate(ctx, "use", args, perform)


TOOL: Tool = table_tool(
    "use", "Use an item", "Use a carried item: one NetHack command.", TABLE, False, handle, ACTING,
    "Without itemId the game asks which.")
