"""plan.py - the `plan` tool: free route, navigation, neighborhood and way-on queries.

Pure functions of the current perceived level (navigation package): no
input, no turn, no randomness. A result is a plan tied to basis.revision,
not a promise: re-plan after acting.
"""

from __future__ import annotations

from typing import Any

from ..navigation import navigation, neighborhood, route, way_on
from ..projection import frame as frames
from ..session import Session
from .actions import Action, ActionTable
from .base import POSITION, SESSION_ID, Tool, ToolContext, query, table_tool

TABLE = ActionTable(
    "query",
    (
        Action("route", "", required=("to",), binding="session"),
        Action("navigation", "frontiers, stairs, doors", binding="session"),
        Action("neighborhood", "9x9 around you", binding="session"),
        Action("wayOn", "stuck? what to try, in order", binding="session"),
    ),
    {"sessionId": SESSION_ID, "to": POSITION},
)


def result(session: Session, args: dict[str, Any]) -> dict[str, Any]:
    level = session.level()
    if args["query"] == "route":
        return route(level, (args["to"]["x"], args["to"]["y"]))
    if args["query"] == "navigation":
        return navigation(level)
    if args["query"] == "wayOn":
        observation = session.state.observation
        return way_on(level, depth=observation.get("depth"), dungeon=observation.get("dungeon"))
    return {"kind": "neighborhood", **neighborhood(level)}


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await query(
        ctx, args, lambda session: frames.build(session, result=result(session, args), include_scene=False)
    )


TOOL: Tool = table_tool(
    "plan",
    "Free plans over this level's seen map.",
    TABLE,
    True,
    handle,
)
