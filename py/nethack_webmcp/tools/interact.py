"""interact.py - the `interact` tool: act on a square, or discover what you could do.

No command here ends the game by choice (quit is `session quit`), so the
tool is not marked destructive.

With `action` it sends exactly that one command. Without `action` it is a
free query (no input, no turn) returning the perceived facts of a square
and `attempts`: calls you could make there, bound to the current viewId.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session, SessionError
from . import offers, targets
from .actions import Action, ActionTable
from .base import (
    BINDING_FIELDS,
    Operation,
    Tool,
    ToolContext,
    mutate,
    query,
    table_tool,
)

DIRECTED = {"attack": "game.attack", "moveWithoutAttack": "game.moveWithoutAttack"}
DOOR_LIKE = {"open": "game.open", "close": "game.close", "kick": "game.kick", "chat": "game.chat"}
COUNTED = {"search": "game.search", "rest": "game.rest"}
PLAIN = {name: f"game.{name}" for name in ("wait", "pray", "pickup", "pay", "loot", "force", "enhance")}
METHODS = {**DIRECTED, **DOOR_LIKE, **COUNTED, **PLAIN}
TURNS = {"type": "integer", "minimum": 1, "maximum": 1000, "description": "default 1"}
#: pickup_types marks -> the low protocol's item type names
PICKUP_MARKS = {
    "$": "gold",
    "%": "food",
    "!": "potions",
    "?": "scrolls",
    ")": "weapons",
    "[": "armor",
    "=": "rings",
    '"': "amulets",
    "(": "tools",
    "+": "spellbooks",
    "/": "wands",
    "*": "gems",
    "`": "rocks",
    "0": "balls",
    "_": "chains",
}
TYPES = {"type": "string", "maxLength": 15, "description": "marks, e.g. $?!"}

TABLE = ActionTable(
    "action",
    (
        Action(None, "free: facts, offered calls", optional=("target",), binding="session"),
        Action("attack", "", required=("target",)),
        Action("moveWithoutAttack", "", required=("target",)),
        *(Action(name, "", optional=("target",)) for name in DOOR_LIKE),
        *(Action(name, "", optional=("turns",)) for name in COUNTED),
        *(Action(name, "") for name in PLAIN),
        Action("autopickup", "none: off", optional=("types",)),
    ),
    {**BINDING_FIELDS, "target": targets.SCHEMA, "turns": TURNS, "types": TYPES},
)


def pickup_settings(marks: str | None, field: str = "types") -> dict[str, Any]:
    """game.configurePickup's settings for `autopickup` (and the session
    tool's creation `autopickup`): the classes of the given marks (NetHack's
    pickup_types syntax) switched on, or off without marks; arrows always
    included, corpses and known-cursed items left. `field` names the
    argument in the typed error for a bad mark."""
    if marks is not None and (set(marks) - set(PICKUP_MARKS) or len(set(marks)) != len(marks)):
        raise SessionError("invalidArguments", f"{field}: distinct marks of {''.join(PICKUP_MARKS)}", field=field)
    names = [PICKUP_MARKS[mark] for mark in marks or "$"]
    return {
        "enabled": marks is not None,
        "itemTypes": names,
        "arrows": True,
        "leaveCorpses": True,
        "leaveKnownCursed": True,
    }


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if "action" not in args:

        def discover(session: Session) -> dict[str, Any]:
            where = targets.resolve(session.level(), args.get("target", {"direction": "self"}), allow_self=True)
            return frames.build(session, result=offers.square(session, where))

        return await query(ctx, args, discover)

    action = args["action"]
    if action == "autopickup":
        settings = pickup_settings(args.get("types"))

        async def configure(operation: Operation) -> dict[str, Any]:
            await operation.step("game.configurePickup", settings)
            return operation.frame()

        return await mutate(ctx, "interact", args, configure)

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
    "interact",
    "One command on an adjacent square or yourself.",
    TABLE,
    False,
    handle,
)
