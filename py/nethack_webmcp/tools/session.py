"""session.py - the `session` tool: create, resume and close games.

Creation is not retry-idempotent (it starts a new game every time), so it
takes no requestId. Resume loads a stored game by pinned replay (any other
tool naming a stored game does that implicitly); it is also how an
observer takes ownership once the owning process has closed the game or
died. Closing retires the engine and gives up ownership; it does not quit
the game, which stays stored and resumable. Closed means closed: in this
process every later call naming the game is refused `sessionClosed` (the
error names `session resume`) until `session resume` loads it again - it
is never reloaded behind the caller's back. A game whose operation is
still running cannot be closed (`busy`) until that operation is done.
Wizard mode is a test fixture of the low protocol and is deliberately not
offered here.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import SessionError
from ..session import errors as session_errors
from .actions import Action, ActionTable
from .base import BINDING_FIELDS, Tool, ToolContext, table_tool
from .interact import TYPES, pickup_settings

ROLES = [
    "archeologist",
    "barbarian",
    "caveman",
    "healer",
    "knight",
    "monk",
    "priest",
    "rogue",
    "ranger",
    "samurai",
    "tourist",
    "valkyrie",
    "wizard",
]
#: The engine counts these limits in UTF-8 bytes (JSON Schema's maxLength
#: counts characters, so it is only the outer bound; `_check_bytes` is exact).
BYTE_LIMITS = {"name": 31, "harness_name": 120, "model_name": 120}
CREATE_FIELDS: dict[str, Any] = {
    "name": {"type": "string", "minLength": 1, "maxLength": 31, "description": "1-31 UTF-8 bytes"},
    "role": {"type": "string", "enum": ROLES},
    "race": {"type": "string", "enum": ["human", "elf", "dwarf", "gnome", "orc"]},
    "gender": {"type": "string", "enum": ["male", "female"]},
    "alignment": {"type": "string", "enum": ["lawful", "neutral", "chaotic"]},
    "seed": {
        "type": "integer",
        "minimum": 0,
        "maximum": 4294967295,
        "description": "same seed + same inputs = same game",
    },
    "harness_name": {"type": "string", "maxLength": 120, "description": "label"},
    "model_name": {"type": "string", "maxLength": 120, "description": "label"},
    "autopickup": {**TYPES, "description": "pickup_types marks, e.g. $"},
}

TABLE = ActionTable(
    "action",
    (
        Action("create", "omitted choices fit the rest", optional=tuple(CREATE_FIELDS), binding="none"),
        Action("resume", "replay a stored game (any call naming one does)", binding="session"),
        Action("close", "retire the engine; the game stays resumable", binding="session"),
    ),
    {**CREATE_FIELDS, "sessionId": BINDING_FIELDS["sessionId"]},
)


def _check_bytes(args: dict[str, Any]) -> None:
    for key, limit in BYTE_LIMITS.items():
        if key in args and len(args[key].encode("utf-8")) > limit:
            raise SessionError(
                "invalidArguments",
                f"session: {key} is {len(args[key].encode('utf-8'))} bytes of UTF-8; at most {limit} bytes",
                field=key,
            )


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if args["action"] == "create":
        _check_bytes(args)
        params = {key: args[key] for key in CREATE_FIELDS if key in args and key != "autopickup"}
        if "autopickup" in args:  # the low session.create's automaticPickup, before the first turn
            params["automaticPickup"] = pickup_settings(args["autopickup"], "autopickup")
        session = await ctx.games.create(params)
        return frames.build(
            session,
            events=session.created_events,
            result={
                "kind": "session",
                "action": "created",
                "session": session.agent_metadata(),
                "durability": ctx.games.store.durability,
            },
        )
    if args["action"] == "resume":
        session = await ctx.games.resume(args["sessionId"])
        ctx.closed.discard(args["sessionId"])  # explicitly loaded again: calls may name it
        return frames.resumed(session, ctx.games.store.durability)
    loaded = next((game for game in ctx.games.sessions() if game.session_id == args["sessionId"]), None)
    if loaded is not None and loaded.running is not None and not loaded.running.done:
        raise session_errors.busy(loaded.running.operation_id)
    session_id = await ctx.games.close(args["sessionId"])
    ctx.closed.add(session_id)
    return frames.build(None, result={"kind": "session", "action": "closed", "sessionId": session_id})


TOOL: Tool = table_tool(
    "session",
    "Game session",
    "Real NetHack 3.6.7 games (several at once).",
    TABLE,
    False,
    handle,
    "Acting calls need sessionId+viewId; a retried requestId acts once.",
)
