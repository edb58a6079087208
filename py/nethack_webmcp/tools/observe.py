"""observe.py - the `observe` tool: the current scene plus the full world.

Observing sends no input, spends no turn and consumes no events. It is
also where recovery happens (there is no recover tool): pending store
writes are retried, an engine that failed mid-input is replaced by a
fresh one that replays the completed journal (the dangling input is
recorded as not applied, never resent), and an observer catches up with
the owner's journal. `result.knowledge` is what the player knows beyond
the map (the spell menu, #enhance, #overview, #conduct, achievements).
`result.stateHash` is the sha256 of the engine's full
observe response. With an `operationId` it also returns that earlier
operation's recorded evidence as historical `result` data (never as the
current scene, and with no executable reply for any question it showed).

While an acting operation runs (its caller's deadline passed), observe
answers at once from the last boundary the session reached - gate `busy`,
`result.running` its operationId, no engine request, no recovery - and
`operation.status: "running"` for that operationId; once it is done the
same call returns its recorded frame's evidence.
"""

from __future__ import annotations

from typing import Any

from ..projection import frame as frames
from ..session import Session, SessionError
from ..session.operations import RunningOperation
from .base import SESSION_ID, TOKEN, Tool, ToolContext, plain_schema, query

SCHEMA = plain_schema(
    {"sessionId": SESSION_ID, "operationId": TOKEN},  # outcome.operationId
    ("sessionId",),
)

DESCRIPTION = (
    "Look (free): scene with every map row, messages, knowledge. Resync here after an uncertain "
    "outcome; operationId: that action's record."
)


async def historical(session: Session, operation_id: str) -> dict[str, Any]:
    running = session.running
    if running is not None and running.operation_id == operation_id and not running.done:
        return {"kind": "operation", "operationId": operation_id, "found": True, "status": "running"}
    recorded = await session.historical(operation_id)
    if recorded is None:
        return {"kind": "operation", "operationId": operation_id, "found": False}
    entry: dict[str, Any] = {
        "kind": "operation",
        "operationId": operation_id,
        "found": True,
        "basis": recorded["basis"],
        "outcome": recorded["outcome"],
        "events": recorded["events"],
    }
    if recorded.get("error"):
        entry["error"] = recorded["error"]
    if recorded.get("decision"):
        question = recorded["decision"]
        entry["decision"] = {key: question[key] for key in ("id", "kind", "prompt") if key in question}
    return entry


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    async def build(session: Session) -> dict[str, Any]:
        error = None
        fresh = False
        try:
            await session.verify()  # recovery by replay, pending writes, or following the owner
        except SessionError as exc:
            error = exc.as_error()
        if not session.recovery_required:
            try:
                await session.observe()
                fresh = True
            except SessionError as exc:
                error = error or exc.as_error()
        elif error is None:
            error = {
                "code": "recoveryRequired",
                "message": "the engine failed during an operation; "
                "this is the last scene it reported and no input can be sent",
            }
        result: dict[str, Any] = {"kind": "observe", "recentMessages": session.observation.get("recentMessages", [])}
        if session.observation.get("knowledge") is not None:
            result["knowledge"] = session.observation["knowledge"]
        # A state hash identifies the exact game state, so it could confirm a
        # twin game forked from a guessed seed: sealed games show none until the end.
        if fresh and session.last_state_hash and not session.sealed:
            result["stateHash"] = session.last_state_hash
        if "operationId" in args:
            result["operation"] = await historical(session, args["operationId"])
        return frames.build(session, result=result, error=error, include_world=True)

    async def while_busy(session: Session, running: RunningOperation) -> dict[str, Any]:
        # the engine is the operation's until its boundary: show the last one reached
        result: dict[str, Any] = {
            "kind": "observe",
            "running": running.operation_id,
            "recentMessages": session.observation.get("recentMessages", []),
        }
        if "operationId" in args:
            result["operation"] = await historical(session, args["operationId"])
        return frames.build(session, result=result, include_world=True)

    return await query(ctx, args, build, while_busy=while_busy)


TOOL = Tool("observe", DESCRIPTION, SCHEMA, True, handle)
