"""base.py - how a tool is declared, and the one path every call takes.

A tool is declared once (`Tool`): name, description written for a language
model, strict input schema, annotations and handler. Listing, validation,
the exported tools.json and the MCP server are all derived from it.

`call` validates arguments against the declared schema, runs the handler
and turns every SessionError into an error frame: this is the one place
rejections become frames. `mutate` is the common path of every gameplay
input: receipts first (an exact retry gets its original frame, even when
its view is stale by now), then view/revision/gate/decision admission,
then the operation under the session lock, then its durable receipt.
A game named by sessionId that is stored but not loaded is resumed first.
Every new frame of a game carries the session's diagnostics (storage,
ownership, recovery, resume); an exact retry's historical frame is
returned unchanged.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..projection import frame as frames
from ..projection.outcome import from_steps
from ..session import GameRegistry, Session, SessionError, StepResult
from . import schema as checker

Frame = dict[str, Any]
log = logging.getLogger(__name__)
# set by `mutate` when it returns a recorded receipt: that frame is history
# and gets no current diagnostics
_historical: contextvars.ContextVar[bool] = contextvars.ContextVar("historical", default=False)


@dataclass
class ToolContext:
    """What handlers may use: the games of this process."""

    games: GameRegistry


Handler = Callable[[ToolContext, dict[str, Any]], Awaitable[Frame]]


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    handler: Handler = field(repr=False)

    def declaration(self) -> dict[str, Any]:
        """The MCP/WebMCP tool declaration (what tools.json holds)."""
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.input_schema,
                "annotations": {"title": self.title, "readOnlyHint": self.read_only,
                                "destructiveHint": False, "openWorldHint": False}}

    async def call(self, ctx: ToolContext, arguments: dict[str, Any] | None) -> Frame:
        """Validate and run. Always returns a frame; errors are frames too."""
        arguments = arguments if arguments is not None else {}
        problems = checker.errors(self.input_schema, arguments)
        mutation = not self.read_only and _is_mutation(arguments)
        if problems:
            session = _session_if_any(ctx, arguments)
            exc = SessionError("invalidArguments", f"{self.name}: " + "; ".join(problems[:5]))
            return _diagnosed(session, frames.error_frame(session, exc, mutation=mutation, include_scene=False))
        token = _historical.set(False)
        try:
            frame = await self.handler(ctx, arguments)
            if _historical.get():
                return frame
            return _diagnosed(_session_if_any(ctx, arguments), frame)
        except SessionError as exc:
            session = _session_if_any(ctx, arguments)
            return _diagnosed(session, frames.error_frame(session, exc, mutation=mutation))
        except Exception:
            # A bug must not take the server down or leave the caller guessing;
            # an input may have been sent, so the outcome is not "rejected".
            log.exception("tool %s failed", self.name)
            exc = SessionError("internalError", f"{self.name} failed inside the adapter; observe the game "
                               "before acting again")
            session = _session_if_any(ctx, arguments)
            return _diagnosed(session, frames.error_frame(session, exc, mutation=False, include_scene=False))
        finally:
            _historical.reset(token)


def _diagnosed(session: Session | None, frame: Frame) -> Frame:
    """Add the session's current diagnostics to a new frame. A store write that
    failed after the frame was built (its receipt) still closes the gate the
    caller sees: storage diagnostics override the frame's gate, and a
    question is not offered while its storage state is unknown."""
    if session is None or frame.get("basis") is None:
        return frame
    found = session.diagnostics()
    if not found:
        return frame
    frame = {**frame, "diagnostics": {**found, **(frame.get("diagnostics") or {})}}
    if frame.get("control") is not None and frame["control"].get("gate") != session.gate:
        frame["control"] = {**frame["control"], "gate": session.gate}
        if session.gate != "decision":
            frame["decision"] = None
    return frame


def _session_if_any(ctx: ToolContext, arguments: dict[str, Any]) -> Session | None:
    session_id = arguments.get("sessionId")
    if not isinstance(session_id, str):
        return None
    try:
        return ctx.games.get(session_id)
    except SessionError:
        return None


def _is_mutation(arguments: dict[str, Any]) -> bool:
    return "viewId" in arguments or arguments.get("action") in ("answer", "cancel")


# ---- schema building blocks -------------------------------------------------------

TOKEN = {"type": "string", "minLength": 1, "maxLength": 96, "pattern": "^[A-Za-z0-9._:-]+$"}
SESSION_ID = {**TOKEN, "description": "The game's sessionId from session create."}
VIEW_ID = {**TOKEN, "description": "basis.viewId of the frame you decided on; a stale view is refused."}
REQUEST_ID = {**TOKEN, "description": "Optional idempotency key: retrying the exact same call returns "
                                      "the original result instead of acting twice."}
EXPECTED_REVISION = {"type": "integer", "minimum": 0,
                     "description": "Optional: basis.revision you decided on; refused if stale."}
COMPASS = ["north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
POSITION = {"type": "object", "properties": {"x": {"type": "integer", "minimum": 1, "maximum": 79},
                                             "y": {"type": "integer", "minimum": 0, "maximum": 20}},
            "required": ["x", "y"], "additionalProperties": False}


def variant(required: dict[str, Any], optional: dict[str, Any] | None = None, *,
            description: str | None = None) -> dict[str, Any]:
    """One strict `oneOf` variant."""
    schema: dict[str, Any] = {"type": "object", "properties": {**required, **(optional or {})},
                              "required": list(required), "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def mutation(required: dict[str, Any], optional: dict[str, Any] | None = None, *,
             description: str | None = None) -> dict[str, Any]:
    """A variant that sends input: bound to sessionId and the current viewId."""
    return variant({"sessionId": SESSION_ID, "viewId": VIEW_ID, **required},
                   {**(optional or {}), "requestId": REQUEST_ID, "expectedRevision": EXPECTED_REVISION},
                   description=description)


def one_of(*variants: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "oneOf": list(variants)}


# ---- the common path of inputs ------------------------------------------------------


class Operation:
    """The single inputs of one tool call, with request IDs derived from its ID."""

    def __init__(self, session: Session, operation_id: str) -> None:
        self.session = session
        self.id = operation_id
        self.steps: list[StepResult] = []

    async def step(self, method: str, params: dict[str, Any] | None = None) -> StepResult:
        result = await self.session.step(method, params, request_id=f"{self.id}.{len(self.steps) + 1}",
                                         operation_id=self.id)
        self.steps.append(result)
        return result

    def frame(self, *, status: str | None = None, result: dict[str, Any] | None = None,
              error: dict[str, Any] | None = None) -> Frame:
        """The frame of this operation: aggregate outcome and events; the
        engine's own rejection code when the last input was refused."""
        last = self.steps[-1] if self.steps else None
        if error is None and last is not None and last.submission != "accepted":
            error = dict(last.error or {"code": "rejected", "message": "the engine refused the input"})
        events = [event for step in self.steps for event in step.events]
        return frames.build(self.session, outcome=from_steps(self.steps, operation_id=self.id, status=status),
                            events=events, result=result, error=error)


Perform = Callable[[Operation], Awaitable[Frame]]


async def mutate(ctx: ToolContext, tool: str, arguments: dict[str, Any], perform: Perform, *,
                 continuation: bool = False) -> Frame:
    """Run one input-sending operation with receipts and admission."""
    session = await ctx.games.load(arguments["sessionId"])
    request_id = arguments.get("requestId")
    payload = {"tool": tool, **arguments}
    async with session.lock:
        if request_id is not None:
            recorded = await session.recorded(request_id, payload)
            if recorded is not None:
                _historical.set(True)
                return recorded
        session.admit(view_id=arguments.get("viewId"), expected_revision=arguments.get("expectedRevision"),
                      continuation=continuation, decision_id=arguments.get("decisionId"))
        operation = Operation(session, request_id or session.new_operation_id())
        frame = await perform(operation)
        if any(step.submission != "rejected" for step in operation.steps):
            await session.record(operation.id, payload if request_id is not None else None, frame)
        return frame


async def query(ctx: ToolContext, arguments: dict[str, Any],
                build: Callable[[Session], Frame | Awaitable[Frame]]) -> Frame:
    """Run a free query on a session's current view: no input, no turn."""
    session = await ctx.games.load(arguments["sessionId"])
    async with session.lock:
        built = build(session)
        if isinstance(built, dict):
            return built
        return await built
