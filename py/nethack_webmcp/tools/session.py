"""session.py - the `session` tool: create, list, resume, close and quit games.

Creation is not retry-idempotent (it starts a new game every time), so it
takes no requestId. Resume loads a stored game by pinned replay (any other
tool naming a stored game does that implicitly); it is also how an
observer takes ownership once the owning process has closed the game or
died. Closing retires the engine and gives up ownership; it does not quit
the game, which stays stored and resumable. Closed means closed, durably:
the close is marked in the store (SessionInfo closedAt), so every later
call naming the game - in this process, after a restart, on another HTTP
instance sharing the database, in a reloaded page - is refused
`sessionClosed` (the error names `session resume`) until `session resume`
loads it again and clears the mark; it is never reloaded behind the
caller's back. `list` shows it `closed`; spectators still watch it. A game whose operation is
still running cannot be closed (`busy`) until that operation is done.
`list` shows the games this host holds that the caller may drive or
watch (listing.py). `quit` ends a game for good, so it lives here and not
among interact's commands: session is the one tool marked destructive. It
keeps NetHack's own confirmation: quit sends the game's #quit, which asks
"Really quit?" (a confirmation decision); respond true ends the game, false
or cancel plays on.
Wizard mode is a test fixture of the low protocol and is deliberately not
offered here.
"""

from __future__ import annotations

from typing import Any

from ..engine.vocabulary import words as engine_words
from ..projection import frame as frames
from ..session import SessionError
from ..session import errors as session_errors
from . import listing
from .actions import Action, ActionTable
from .base import BINDING_FIELDS, Operation, Tool, ToolContext, mutate, table_tool
from .interact import TYPES, pickup_settings

ROLES = list(engine_words("roles"))
#: The engine counts these limits in UTF-8 bytes (JSON Schema's maxLength
#: counts characters, so it is only the outer bound; `_check_bytes` is exact).
BYTE_LIMITS = {"name": 31, "harness_name": 120, "model_name": 120}
CREATE_FIELDS: dict[str, Any] = {
    "name": {"type": "string", "maxLength": 31, "description": "1-31 UTF-8 bytes"},
    "role": {"type": "string", "enum": ROLES},
    "race": {"type": "string", "enum": list(engine_words("races"))},
    "gender": {"type": "string", "enum": list(engine_words("genders"))},
    "alignment": {"type": "string", "enum": list(engine_words("alignments"))},
    "seed": {
        "type": "integer",
        "minimum": 0,
        "maximum": 4294967295,
        "description": "same seed+inputs: same game",
    },
    "harness_name": {"type": "string", "maxLength": 120},
    "model_name": {"type": "string", "maxLength": 120},
    "autopickup": {**TYPES, "description": "pickup_types, e.g. $"},
}

TABLE = ActionTable(
    "action",
    (
        Action("create", "", optional=tuple(CREATE_FIELDS), binding="none"),
        Action("list", "games to drive or watch", binding="none"),
        Action("resume", "", binding="session"),
        Action("close", "", binding="session"),
        Action("quit", "asks first"),
    ),
    {**CREATE_FIELDS, **BINDING_FIELDS},
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
    if args["action"] == "list":
        return frames.build(None, result=await listing.result(ctx.games))
    if args["action"] == "quit":

        async def quit_game(operation: Operation) -> dict[str, Any]:
            await operation.step("game.quit")  # NetHack asks "Really quit?": respond decides
            return operation.frame()

        return await mutate(ctx, "session", args, quit_game)
    if args["action"] == "resume":
        session = await ctx.games.resume(args["sessionId"])
        await ctx.games.reopen(session)  # explicitly loaded again: every host may name it now
        return frames.resumed(session, ctx.games.store.durability)
    loaded = next((game for game in ctx.games.sessions() if game.session_id == args["sessionId"]), None)
    if loaded is not None and loaded.running is not None and not loaded.running.done:
        raise session_errors.busy(loaded.running.operation_id)
    session_id = await ctx.games.close(args["sessionId"])  # marked closed in the store first
    return frames.build(None, result={"kind": "session", "action": "closed", "sessionId": session_id})


TOOL: Tool = table_tool(
    "session",
    "Games of NetHack 3.6.7.",
    TABLE,
    False,
    handle,
    "Acting calls quote the basis (sessionId, viewId, revision); a retried requestId acts once.",
    destructive=True,
)
