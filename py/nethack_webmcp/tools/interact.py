"""interact.py - the `interact` tool: act on a square, or discover what you could do.

With `action` it sends exactly that one command. Without `action` it is a
free query (no input, no turn) returning the perceived facts of a square
and `attempts`: calls you could make there, bound to the current viewId.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session, SessionError
from . import offers, targets
from .base import (
    SESSION_ID,
    Operation,
    Tool,
    ToolContext,
    mutate,
    mutation,
    one_of,
    query,
    variant,
)

DIRECTED = {"attack": "game.attack", "moveWithoutAttack": "game.moveWithoutAttack"}
DOOR_LIKE = {"open": "game.open", "close": "game.close", "kick": "game.kick"}
COUNTED = {"search": "game.search", "rest": "game.rest"}
PLAIN = {"wait": "game.wait", "pray": "game.pray", "pickup": "game.pickup", "quit": "game.quit"}
TURNS = {"type": "integer", "minimum": 1, "maximum": 1000,
         "description": "NetHack's count: one occupation of up to this many turns (default 1)."}
ADJACENT = "An adjacent square: {direction}, {position:{x,y}} or {symbol, scope}."

SCHEMA = one_of(
    variant({"sessionId": SESSION_ID},
            {"target": targets.schema(allow_self=True, description="The square to inspect (default: "
                                      "your own square, {direction:'self'}); any position.")},
            description="Discover: facts and offered attempts for a square. Free: no input, no turn."),
    mutation({"action": {"type": "string", "enum": list(DIRECTED)},
              "target": targets.schema(allow_self=False, description=ADJACENT)},
             description="attack forces a fight (F); moveWithoutAttack steps without fighting or pickup (m)."),
    mutation({"action": {"type": "string", "enum": list(DOOR_LIKE)}},
             {"target": targets.schema(allow_self=False, description=ADJACENT + " Omit it and the "
                                       "engine asks for a direction (a decision).")},
             description="open/close a door, or kick."),
    mutation({"action": {"type": "string", "enum": list(COUNTED)}}, {"turns": TURNS},
             description="search for hidden things, or rest; interrupted by the engine's own rules."),
    mutation({"action": {"type": "string", "enum": list(PLAIN)}},
             description="wait one turn; pray; pick up from the floor; quit (the engine asks to confirm)."),
)

DESCRIPTION = """Act on a square next to you or on yourself, one NetHack command per call: \
attack, moveWithoutAttack, open, close, kick, search, rest, wait, pray, pickup, quit.
Every action needs sessionId and the current viewId (basis.viewId); a stale viewId is refused \
without acting. Targets: {"direction":"east"}, {"position":{"x":12,"y":5}} (adjacent) or \
{"symbol":"d","scope":"adjacent"|"level"} (must match exactly one displayed mark, else notFound/ambiguous).
Omit action to discover a square for free: returns its perceived facts and attempts (ready-made calls).
Examples: {"sessionId":"…","viewId":"…","action":"attack","target":{"direction":"north"}}; \
{"sessionId":"…","viewId":"…","action":"search","turns":5}; {"sessionId":"…","target":{"direction":"east"}}.
If the engine asks a question, the frame's decision tells you how to answer with respond."""


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
        method = {**DIRECTED, **DOOR_LIKE, **COUNTED, **PLAIN}.get(action)
        if method is None:  # the schema's enums make this unreachable
            raise SessionError("invalidArguments", f"unknown action {action!r}")
        await operation.step(method, params)
        return operation.frame()
    return await mutate(ctx, "interact", args, perform)


TOOL = Tool("interact", "Interact", DESCRIPTION, SCHEMA, False, handle)
