"""interact.py - the `interact` tool: act on a square, or discover what you could do.

With `action` it sends exactly that one command. Without `action` it is a
free query (no input, no turn) returning the perceived facts of a square
and `attempts`: calls you could make there, bound to the current viewId.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session
from . import offers, targets
from .actions import Action, ActionTable
from .base import (
    ACTING,
    BINDING_FIELDS,
    Operation,
    Tool,
    ToolContext,
    mutate,
    query,
    table_tool,
)

DIRECTED = {"attack": "game.attack", "moveWithoutAttack": "game.moveWithoutAttack"}
DOOR_LIKE = {"open": "game.open", "close": "game.close", "kick": "game.kick"}
COUNTED = {"search": "game.search", "rest": "game.rest"}
PLAIN = {"wait": "game.wait", "pray": "game.pray", "pickup": "game.pickup", "quit": "game.quit"}
METHODS = {**DIRECTED, **DOOR_LIKE, **COUNTED, **PLAIN}
TURNS = {"type": "integer", "minimum": 1, "maximum": 1000, "description": "default 1"}

TABLE = ActionTable("action", (
    Action(None, "free: a square's facts and offered calls", optional=("target",),
           binding="session"),
    Action("attack", "fight (F)", required=("target",)),
    Action("moveWithoutAttack", "step, no fight or pickup (m)", required=("target",)),
    *(Action(name, "no target: the game asks", optional=("target",)) for name in DOOR_LIKE),
    *(Action(name, "", optional=("turns",)) for name in COUNTED),
    *(Action(name, "") for name in PLAIN),
), {**BINDING_FIELDS, "target": targets.SCHEMA, "turns": TURNS})


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:
        def discover(session: Session) -> dict[str, Any]:
            where = targets.resolve(session.level(), args.get("target", {"direction": "self"}),
                                    allow_self=True)
            return frames.build(session, result=offers.square(session, where))
        return await query(ctx, args, discover)

    action = args["action"]

    async def perform(operation: Operation) -> dict[str, Any]:
        params: dict[str, Any] = {}
        if "target" in args:
            where = targets.resolve(operation.session.level(), args["target"])
            params["direction"] = targets.adjacent(where)
        if "turns" in args:
            params["turns"] = args["turns"]
        await operation.step(METHODS[action], params)
        return operation.frame()
    return await mutate(ctx, "interact", args, perform)


TOOL: Tool = table_tool(
    "interact", "Interact", "One NetHack command on an adjacent square or yourself.", TABLE, False, handle,
    ACTING, "target: {direction}|{position:{x,y}}|{symbol,scope} (one matching mark).")
