"""observe.py - the `observe` tool: the current scene plus the full world.

Observing sends no input, spends no turn and consumes no events. With an
`operationId` it also returns that earlier operation's recorded evidence as
historical `result` data (never as the current scene, and with no
executable reply for any question it showed).
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session, SessionError
from .base import SESSION_ID, TOKEN, Tool, ToolContext, query, variant

SCHEMA = variant({"sessionId": SESSION_ID},
                 {"operationId": {**TOKEN, "description": "outcome.operationId of an earlier action, "
                                                          "to read its recorded evidence."}})

DESCRIPTION = """Look at a game without acting: no input, no game time. Returns the current scene \
with scene.world (every map row: marks, colors, kinds, terrain memory, features, visibility) and \
the recent messages. Use it to resynchronise, or after an uncertain outcome. With operationId it \
also returns what that earlier operation recorded (history, not the current state).
Example: {"sessionId":"…"}."""


def historical(session: Session, operation_id: str) -> dict[str, Any]:
    recorded = session.history.get(operation_id)
    if recorded is None:
        return {"kind": "operation", "operationId": operation_id, "found": False}
    entry: dict[str, Any] = {"kind": "operation", "operationId": operation_id, "found": True,
                             "basis": recorded["basis"], "outcome": recorded["outcome"],
                             "events": recorded["events"]}
    if recorded.get("error"):
        entry["error"] = recorded["error"]
    if recorded.get("decision"):
        question = recorded["decision"]
        entry["decision"] = {key: question[key] for key in ("id", "kind", "prompt") if key in question}
    return entry


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    async def build(session: Session) -> dict[str, Any]:
        error = None
        if not session.recovery_required:
            try:
                await session.observe()
            except SessionError as exc:
                error = exc.as_error()
        else:
            error = {"code": "recoveryRequired", "message": "the engine failed during an operation; "
                     "this is the last scene it reported and no input can be sent"}
        result: dict[str, Any] = {"kind": "observe",
                                  "recentMessages": session.observation.get("recentMessages", [])}
        if "operationId" in args:
            result["operation"] = historical(session, args["operationId"])
        return frames.build(session, result=result, error=error, include_world=True)
    return await query(ctx, args, build)


TOOL = Tool("observe", "Observe the game", DESCRIPTION, SCHEMA, True, handle)
