"""base.py - how a tool is declared, and the one path every call takes.

A tool is declared once (`Tool`): name, description written for a language
model, strict input schema, annotations and handler. Listing, validation,
the exported tools.json and the MCP server are all derived from it. Tools
with several actions declare an `ActionTable` (actions.py): their schema
is its flat object and their per-action fields are checked here.

`call` validates arguments against the declared schema and the action
table, runs the handler
and turns every SessionError into an error frame: this is the one place
rejections become frames. `mutate` is the common path of every gameplay
input: receipts first (an exact retry gets its original frame, even when
its view is stale by now), then view/revision/gate/decision admission,
then the operation under the session lock, then its durable receipt.
All of that runs as a session-owned task (session/operations.py): the
caller waits at most `ToolContext.operation_deadline` seconds for it and
then gets a `running` frame with the operationId (the operation goes on;
observe reports it), and a cancelled caller only stops waiting. While it
runs, other acting calls of that game are refused `busy` (nothing sent,
nothing journaled), a retry of its requestId waits for it again, and free
queries wait up to the deadline for it. A game `session close` closed is
refused (`sessionClosed`, naming `session resume`) until it is resumed: the
close mark is the store's (GameRegistry.closed), so every process and host
on that store refuses it, after a restart too.
A game named by sessionId that is stored but not loaded is resumed first.
Every new frame of a game carries the session's diagnostics (storage,
ownership, recovery, resume); an exact retry's historical frame is
returned unchanged.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..geometry import POSITION_BOUNDS
from ..projection import frame as frames
from ..projection.outcome import from_steps, rejected
from ..session import GameRegistry, Session, SessionError, StepResult, operations
from ..session import errors as session_errors
from ..session.durability import lost_ownership
from ..session.operations import Finished, RunningOperation
from ..store import OwnershipLost, payload_hash
from . import schema as checker
from .actions import ActionTable
from .calls import recorded_call

Frame = dict[str, Any]
log = logging.getLogger(__name__)
#: WebMCP's annotation for results that carry third-party text
UNTRUSTED_HINT = "untrustedContentHint"
# set by `mutate` when it returns a recorded receipt: that frame is history
# and gets no current diagnostics
_historical: contextvars.ContextVar[bool] = contextvars.ContextVar("historical", default=False)


#: seconds a tool call waits for its operation's boundary (seed 000 §5's 10 s
#: response deadline); the MCP servers take it as --operation-deadline
DEFAULT_OPERATION_DEADLINE = 10.0


@dataclass
class ToolContext:
    """What handlers may use: the games of this process, and how long a call
    waits for its operation (`operation_deadline` seconds, None: no limit;
    then it answers `running`)."""

    games: GameRegistry
    operation_deadline: float | None = DEFAULT_OPERATION_DEADLINE

    async def require_not_closed(self, session_id: str) -> None:
        """Refuse a game the store marks closed (until session resume): sessionClosed."""
        if await self.games.closed(session_id):
            raise session_errors.closed(session_id)


Handler = Callable[[ToolContext, dict[str, Any]], Awaitable[Frame]]


@dataclass(frozen=True)
class Tool:
    """One tool. Its annotations describe the whole tool (every action):
    `read_only` (no action sends input or changes a game), `destructive`
    (some action can end a game by choice: only session's quit), and
    `untrusted` (results can carry game text: character, monster and object
    names people chose, messages, engravings). Nothing reaches outside this
    host, so openWorldHint is false everywhere; the free tools are idempotent."""

    name: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    handler: Handler = field(repr=False)
    actions: ActionTable | None = None
    destructive: bool = False
    untrusted: bool = True

    def annotations(self) -> dict[str, bool]:
        """MCP's hints plus WebMCP's untrustedContentHint (MCP has no such
        field yet: its SDK drops it, and each description says it instead).
        A hint is listed where it differs from its default (MCP's and WebMCP's
        readOnlyHint false, MCP's destructiveHint true, idempotentHint false,
        openWorldHint true; WebMCP's untrustedContentHint false): every tool
        lists all five, explicitly or by default. destructiveHint means
        nothing on a read-only tool (MCP), so it is said on acting tools only."""
        hints: dict[str, bool] = {}
        if self.read_only:
            hints.update(readOnlyHint=True, idempotentHint=True)
        elif not self.destructive:
            hints["destructiveHint"] = False
        hints["openWorldHint"] = False
        if self.untrusted:
            hints[UNTRUSTED_HINT] = True
        return hints

    def declaration(self) -> dict[str, Any]:
        """The WebMCP tool declaration (what tools.json holds). No title:
        clients show the name, and tools/list is budgeted (docs/DECISIONS.md)."""
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": self.annotations(),
        }

    def mcp_declaration(self, note: str | None = None) -> dict[str, Any]:
        """The MCP declaration: the same without untrustedContentHint (MCP has
        no such annotation yet; its SDK drops the member); `note` ends the
        description (registry.mcp_declarations: the marking in words)."""
        declared = self.declaration()
        hints = {key: value for key, value in declared["annotations"].items() if key != UNTRUSTED_HINT}
        if note is not None:
            declared["description"] = f"{self.description}\n{note}"
        return {**declared, "annotations": hints}

    async def call(self, ctx: ToolContext, arguments: dict[str, Any] | None) -> Frame:
        """Validate and run. Always returns a frame; errors are frames too.
        Every error frame of an acting tool carries a `rejected` outcome
        (nothing was sent), so a caller reads one shape for every refusal;
        read-only tools never have an outcome."""
        arguments = arguments if arguments is not None else {}
        problems = checker.errors(self.input_schema, arguments)
        if not problems:
            problems = _token_problems(arguments) + _position_problems(arguments) + _text_problems(arguments)
        if not problems and self.actions is not None:
            problems = self.actions.check(arguments)
        mutation = not self.read_only
        if problems:
            session = _session_if_any(ctx, arguments)
            exc = SessionError("invalidArguments", f"{self.name}: " + "; ".join(problems[:6]))
            return frames.diagnosed(session, frames.error_frame(session, exc, mutation=mutation, include_scene=False))
        token = _historical.set(False)
        try:
            frame = await self.handler(ctx, arguments)
            if _historical.get():
                return frame
            return frames.diagnosed(_session_if_any(ctx, arguments), frame)
        except SessionError as exc:
            session = _session_if_any(ctx, arguments)
            return frames.diagnosed(session, frames.error_frame(session, exc, mutation=mutation))
        except Exception:
            # A bug must not take the server down or leave the caller guessing;
            # an input may have been sent, so the outcome is not "rejected".
            log.exception("tool %s failed", self.name)
            failure = SessionError(
                "internalError", f"{self.name} failed inside the adapter; observe the game before acting again"
            )
            session = _session_if_any(ctx, arguments)
            return frames.diagnosed(session, frames.error_frame(session, failure, mutation=False, include_scene=False))
        finally:
            _historical.reset(token)


def _token_problems(arguments: dict[str, Any]) -> list[str]:
    """Every ID argument is 1-96 characters of A-Z a-z 0-9 . _ : -."""
    return [
        f"{name} must be 1-96 characters of A-Z a-z 0-9 . _ : -"
        for name, value in arguments.items()
        if name in ID_FIELDS and isinstance(value, str) and not ID_RULE.fullmatch(value)
    ]


def _nested(arguments: dict[str, Any], where: str) -> Any:
    """arguments["a"]["b"] for "a.b", or None."""
    value: Any = arguments
    for name in where.split("."):
        value = value.get(name) if isinstance(value, dict) else None
    return value


def _position_problems(arguments: dict[str, Any]) -> list[str]:
    """Positions (`to`, `position`, `target.position`) give x and y, on the map."""
    found = {where: _nested(arguments, where) for where in ("to", "position", "target.position")}
    return [
        f"{where} needs {axis!r}" if axis not in square else f"{where}.{axis} must be {low} to {high}"
        for where, square in found.items()
        if isinstance(square, dict)
        for axis, (low, high) in POSITION_BOUNDS.items()
        if axis not in square or not low <= square[axis] <= high
    ]


def _text_problems(arguments: dict[str, Any]) -> list[str]:
    """A mark (`symbol`, `target.symbol`) is exactly one character; names and texts are not empty."""
    marks = [
        f"{where} must be one character"
        for where in MARK_FIELDS
        if isinstance(_nested(arguments, where), str) and len(_nested(arguments, where)) != 1
    ]
    return marks + [f"{name} is too short" for name in NONEMPTY_FIELDS if arguments.get(name) == ""]


def _session_if_any(ctx: ToolContext, arguments: dict[str, Any]) -> Session | None:
    session_id = arguments.get("sessionId")
    if not isinstance(session_id, str):
        return None
    try:
        return ctx.games.get(session_id)
    except SessionError:
        return None


# ---- field schemas shared by the tools -------------------------------------------

#: Opaque IDs. Their schema says only "string": the rule is the same for
#: every ID, so `Tool.call` checks it once for these names instead of
#: tools/list repeating a pattern twenty times.
TOKEN = {"type": "string"}
ID_FIELDS = frozenset({"sessionId", "viewId", "requestId", "decisionId", "itemId", "operationId"})
ID_RULE = re.compile(r"[A-Za-z0-9._:-]{1,96}")
#: The binding fields carry no description of their own: the names are the
#: frame's (basis.sessionId, basis.viewId, basis.revision), and session's
#: description says once what they bind and that a retried requestId acts
#: once (tools/list is budgeted: six tools used to repeat the same words).
SESSION_ID = TOKEN
VIEW_ID = TOKEN
REQUEST_ID = TOKEN
#: (a negative revision is refused as any other stale one: staleRevision)
EXPECTED_REVISION = {"type": "integer"}
#: A map square. Its bounds (geometry.POSITION_BOUNDS) are the map's rulers; like
#: the ID rule they, and that both x and y are given, are checked once in
#: `Tool.call` (`_position_problems`) rather than repeated in every position
#: of tools/list.
POSITION = {
    "type": "object",
    "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}},
    "additionalProperties": False,
}
#: One displayed mark; that it is one character is checked in `Tool.call`
#: (`_text_problems`), like the ID rule.
MARK = {"type": "string", "description": "one shown mark"}
MARK_FIELDS = ("symbol", "target.symbol")
#: Texts that are never empty (a character name, an engraving or spell, an
#: encyclopedia entry): checked in `Tool.call` too, not in every schema.
NONEMPTY_FIELDS = ("name", "text")
#: the binding fields of actions.BINDINGS, declared once for every tool
BINDING_FIELDS: dict[str, dict[str, Any]] = {
    "sessionId": SESSION_ID,
    "viewId": VIEW_ID,
    "requestId": REQUEST_ID,
    "expectedRevision": EXPECTED_REVISION,
}


def table_tool(
    name: str,
    purpose: str,
    table: ActionTable,
    read_only: bool,
    handler: Handler,
    *notes: str,
    destructive: bool = False,
) -> Tool:
    """A tool whose schema and description come from its action table:
    the purpose, one line per action, then notes (each a short line)."""
    description = "\n".join([purpose, *table.lines(), *notes])
    return Tool(name, description, table.schema(), read_only, handler, table, destructive)


def plain_schema(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The flat schema of a tool with a single form."""
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = list(required)
    return schema


# ---- the common path of inputs ------------------------------------------------------


class Operation:
    """The single inputs of one tool call, with request IDs derived from its ID."""

    def __init__(self, session: Session, operation_id: str) -> None:
        self.session = session
        self.id = operation_id
        self.steps: list[StepResult] = []
        self.tagged: set[int] = set()  # steps whose messages carry the square they came from

    async def step(self, method: str, params: dict[str, Any] | None = None, *, tag_square: bool = False) -> StepResult:
        """Send one input. With tag_square (the moves of a leg), the step's
        messages are tagged `at` the hero's square after it, so "You see
        here ..." from a square the leg passed is not read as the current one.

        Each accepted input's completion is held (session.durability): the
        next input's reservation writes it in the same commit (or first, on
        its own, where the store cannot), the operation's receipt takes it
        along. When the fence refuses it, that input does not count: it
        becomes the operation's last, rejected step, and nothing more is sent."""
        journal = self.session.journal
        if self.steps and not journal.joins_held() and not await self.settled():
            return self.steps[-1]
        result = await self.session.step(
            method, params, request_id=f"{self.id}.{len(self.steps) + 1}", operation_id=self.id, hold=True
        )
        if self.steps:
            last = self.steps[-1].request_id
            refused = journal.take_refused(last)
            if refused is not None:  # the last input's completion was refused: this one was never sent
                self.unrecorded(refused)
                return self.steps[-1]
            if journal.holding(last) and not await self.settled():  # refused before its reservation (the gate)
                return self.steps[-1]
        if tag_square:
            self.tagged.add(len(self.steps))
        self.steps.append(result)
        return result

    async def settled(self) -> bool:
        """Write the last input's held completion; False when the fence refused it."""
        try:
            await self.session.journal.settle_held()
        except OwnershipLost as exc:
            self.unrecorded(exc)
            return False
        return True

    def unrecorded(self, exc: OwnershipLost) -> None:
        """The last input reached the engine, but the journal will never record it:
        it did not happen (as when the fence refuses its completion in Session.step)."""
        last = self.steps[-1]
        self.steps[-1] = StepResult(
            "rejected", last.method, last.request_id, last.before, last.before, error=lost_ownership(exc, sent=True)
        )

    def durable_steps(self) -> list[StepResult]:
        """The steps whose journal entries are written (a held completion is not yet)."""
        return [step for step in self.steps if not self.session.journal.holding(step.request_id)]

    def events(self) -> list[dict[str, Any]]:
        """Every step's events in order; a tagged step's messages with `at`."""
        found: list[dict[str, Any]] = []
        for index, step in enumerate(self.steps):
            x, y = step.after.position
            for event in step.events:
                if index in self.tagged and event.get("type") in ("heard", "passage"):
                    event = {**event, "at": {"x": x, "y": y}}
                found.append(event)
        return found

    def frame(
        self, *, status: str | None = None, result: dict[str, Any] | None = None, error: dict[str, Any] | None = None
    ) -> Frame:
        """The frame of this operation: aggregate outcome and events; the
        engine's own rejection code when the last input was refused."""
        last = self.steps[-1] if self.steps else None
        if error is None and last is not None and last.submission != "accepted":
            error = dict(last.error or {"code": "rejected", "message": "the engine refused the input"})
        return frames.build(
            self.session,
            outcome=from_steps(self.steps, operation_id=self.id, status=status),
            events=self.events(),
            result=result,
            error=error,
        )


Perform = Callable[[Operation], Awaitable[Frame]]


async def mutate(
    ctx: ToolContext, tool: str, arguments: dict[str, Any], perform: Perform, *, continuation: bool = False
) -> Frame:
    """Run one input-sending operation with receipts and admission, as a
    session-owned task the caller waits for (see the module)."""
    await ctx.require_not_closed(arguments["sessionId"])
    session = await ctx.games.load(arguments["sessionId"])
    request_id = arguments.get("requestId")
    payload = {"tool": tool, **arguments}
    digest = payload_hash(payload) if request_id is not None else None
    running = session.running
    if running is not None and not running.done:
        if request_id is None or running.request_id != request_id:
            raise session_errors.busy(running.operation_id)
        if running.payload_hash != digest:
            raise SessionError(
                "requestIdReused",
                f"requestId {request_id!r} is running for a different request; use a new requestId",
                field="requestId",
            )
        return await _wait_for(ctx, session, running)  # an exact retry: wait for the same operation again
    operation_id = request_id or session.new_operation_id()

    async def work() -> Finished:
        try:
            async with session.lock:  # its entry may refuse too (a deadline passed, the game left)
                if request_id is not None:
                    recorded = await session.recorded(request_id, payload)
                    if recorded is not None:
                        return Finished(recorded, historical=True)
                return await admitted()
        except SessionError as exc:  # refused before any input (receipts, lock, admission)
            return Finished(frames.error_frame(session, exc, mutation=True))

    async def admitted() -> Finished:
        operation = Operation(session, operation_id)
        try:
            session.admit(
                view_id=arguments.get("viewId"),
                expected_revision=arguments.get("expectedRevision"),
                continuation=continuation,
                decision_id=arguments.get("decisionId"),
            )
            started.progress = operation
            frame = await perform(operation)
        except SessionError as exc:
            if not operation.steps:
                frame = frames.error_frame(session, exc, mutation=True)
                session.remember(operation_id, frame)  # observe(operationId) reports the refusal
                return Finished(frame)
            frame = operation.frame(error=exc.as_error())  # refused after some input: still a receipt
        except BaseException:
            with contextlib.suppress(OwnershipLost):  # (then that input is not recorded: the gate says so)
                await session.journal.settle_held()  # an input the engine took is journaled all the same
            raise
        if any(step.submission != "rejected" for step in operation.steps):
            call = recorded_call(tool, arguments)
            try:
                # the last input's held completion and this receipt: one store transaction
                await session.record(operation.id, payload if request_id is not None else None, frame, call=call)
            except OwnershipLost as exc:
                operation.unrecorded(exc)
                frame = operation.frame()
                if any(step.submission != "rejected" for step in operation.steps):
                    await session.record(operation.id, payload if request_id is not None else None, frame, call=call)
                else:
                    session.remember(operation.id, frame)
        else:
            session.remember(operation.id, frame)
        return Finished(frame)

    started = session.start_operation(operation_id, request_id, digest, work)
    return await _wait_for(ctx, session, started)


async def _wait_for(ctx: ToolContext, session: Session, running: RunningOperation) -> Frame:
    """The operation's frame, or a `running` frame once the deadline passes."""
    finished = await operations.wait(running, ctx.operation_deadline)
    if finished is None:
        return running_frame(session, running)
    if finished.historical:
        _historical.set(True)
    return finished.frame


def running_frame(session: Session, running: RunningOperation) -> Frame:
    """What a caller gets when the deadline passes: the operation's ID and the
    latest scene; submission `pending` until an input of it is known taken."""
    operation = running.progress
    durable = operation.durable_steps() if isinstance(operation, Operation) else []
    if durable:  # (an input whose completion is held is not reported taken yet)
        outcome = from_steps(durable, operation_id=running.operation_id, status="running")
    else:
        outcome = {**rejected(), "submission": "pending", "status": "running", "operationId": running.operation_id}
    return frames.build(session, outcome=outcome)


async def query(
    ctx: ToolContext,
    arguments: dict[str, Any],
    build: Callable[[Session], Frame | Awaitable[Frame]],
    *,
    while_busy: Callable[[Session, RunningOperation], Frame | Awaitable[Frame]] | None = None,
) -> Frame:
    """Run a free query on a session's current view: no input, no turn.

    While an acting operation runs, `while_busy` answers without the lock
    (observe: the last boundary reached); other queries wait up to the
    operation deadline for it, then are refused `busy`."""
    await ctx.require_not_closed(arguments["sessionId"])
    session = await ctx.games.load(arguments["sessionId"])
    running = session.running
    if running is not None and session.busy:
        if while_busy is not None:
            return await _settled(while_busy(session, running))
        if not await operations.until_done(running, ctx.operation_deadline):
            raise session_errors.busy(running.operation_id)
    async with session.lock:
        return await _settled(build(session))


async def _settled(built: Frame | Awaitable[Frame]) -> Frame:
    return built if isinstance(built, dict) else await built
