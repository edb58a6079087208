"""plan.py - the `plan` tool: free route, navigation and neighborhood queries.

Pure functions of the current perceived level (navigation package): no
input, no turn, no randomness. A result is a plan tied to basis.revision,
not a promise: re-plan after acting.
"""

from __future__ import annotations

from typing import Any

from ..navigation import navigation, neighborhood, route
from ..projection import frame as frames
from ..session import Session
from .base import POSITION, SESSION_ID, Tool, ToolContext, one_of, query, variant

SCHEMA = one_of(
    variant({"sessionId": SESSION_ID, "query": {"const": "route"}, "to": POSITION},
            description="The shortest known walking route to a square."),
    variant({"sessionId": SESSION_ID, "query": {"const": "navigation"}},
            description="Frontiers to explore, known ways down/up, and doors with approaches."),
    variant({"sessionId": SESSION_ID, "query": {"const": "neighborhood"}},
            description="The 9x9 perceived surroundings (81 cells) with movement intents."),
)

DESCRIPTION = """Plan for free (no input, no game time) over the perceived map of the current level.
route {"sessionId":"…","query":"route","to":{"x":40,"y":12}}: steps with directions, or \
distance null and why (targetOccupied, targetUnknown, closedDoor, disconnected). \
navigation {"query":"navigation"}: frontiers, waysDown, waysUp, doors. \
neighborhood {"query":"neighborhood"}: 81 cells around you. Policy knownWalking: \
only remembered walkable terrain, no closed doors, no creatures but pets, no known traps."""


def result(session: Session, args: dict[str, Any]) -> dict[str, Any]:
    level = session.level()
    if args["query"] == "route":
        return route(level, (args["to"]["x"], args["to"]["y"]))
    if args["query"] == "navigation":
        return navigation(level)
    return {"kind": "neighborhood", **neighborhood(level)}


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    return await query(ctx, args, lambda session: frames.build(session, result=result(session, args),
                                                               include_scene=False))


TOOL = Tool("plan", "Plan", DESCRIPTION, SCHEMA, True, handle)
