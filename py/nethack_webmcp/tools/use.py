"""use.py - the `use` tool: act with a carried item, or discover item actions.

Items are named by their opaque `itemId` only (never a letter or a name).
Omitting the itemId lets the engine ask which item (an item decision).
zap, throw and fire take an optional aim: a compass direction, self, up or
down; omitted, the engine asks. Without `action` the call is a free query
returning per-item attempts from the engine's own item actions.
"""

from __future__ import annotations

from typing import Any

from ..geometry import AIMS
from ..projection import frame as frames
from ..session import Session, SessionError
from . import offers
from .actions import Action, ActionTable
from .base import (
    BINDING_FIELDS,
    TOKEN,
    Operation,
    Tool,
    ToolContext,
    mutate,
    query,
    table_tool,
)

ITEM_ID = {**TOKEN, "description": "scene.inventory id"}
QUANTITY = {"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "part of a stack"}
AIM = {"type": "string", "enum": list(AIMS)}
PLAIN = ("eat", "apply", "read", "drink", "dip", "rub", "invoke", "offer")
AIMED = ("zap", "throw")
METHODS = {name: f"game.{name}" for name in (*PLAIN, *AIMED, "drop", "fire", "engrave", "cast")}
TEXT = {"type": "string", "maxLength": 128, "description": "engraving; spell name"}

TABLE = ActionTable(
    "action",
    (
        Action(None, "free: offered calls", optional=("itemId",), binding="session"),
        *(Action(name, "", optional=("itemId",)) for name in PLAIN),
        Action("drop", "", optional=("itemId", "quantity")),
        *(Action(name, "", optional=("itemId", "direction")) for name in AIMED),
        Action("fire", "quiver", optional=("direction",)),
        Action("engrave", "hands: fingers", optional=("itemId", "hands", "text")),
        Action("cast", "", optional=("text", "direction")),
    ),
    {
        **BINDING_FIELDS,
        "itemId": ITEM_ID,
        "quantity": QUANTITY,
        "direction": AIM,
        "hands": {"type": "boolean"},
        "text": TEXT,
    },
)


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:

        def discover(session: Session) -> dict[str, Any]:
            return frames.build(session, result=offers.items(session, args.get("itemId")))

        return await query(ctx, args, discover)

    if "quantity" in args and "itemId" not in args:
        raise SessionError("invalidArguments", "use: quantity needs itemId", field="quantity")

    async def perform(operation: Operation) -> dict[str, Any]:
        params: dict[str, Any] = {
            key: args[key] for key in ("itemId", "quantity", "direction", "hands", "text") if key in args
        }
        if args["action"] == "cast" and "text" in params:
            params["spell"] = params.pop("text")
        await operation.step(METHODS[args["action"]], params)
        return operation.frame()

    return await mutate(ctx, "use", args, perform)


TOOL: Tool = table_tool(
    "use",
    "One command with a carried item; without itemId or direction the game asks.",
    TABLE,
    False,
    handle,
)
