"""session.py - one game: its engine, revision, view binding, gate and receipts.

The session is the only writer of a game's engine. It keeps the latest
observation (with the world rows merged by the navigation WorldTracker,
because gameplay responses carry only changed rows), the standing decision
and the end, and it checks everything that can be checked locally before
any input is sent: view binding, expected revision, the control gate and
the exact decision ID. A rejected check sends nothing, so the engine's
revision is unchanged.

`lock` serialises whole operations (a navigation leg is many inputs): tool
handlers hold it from admission to the recorded receipt.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine import Engine, EngineClosed, EngineError
from ..navigation.level import LevelView, WorldTracker
from .errors import SessionError
from .gate import Gate, gate_of, require_open
from .receipts import ReceiptBook

LOW_VERSION = 1
HISTORY_LIMIT = 200  # operations whose evidence observe(operationId) can still show
Submission = Literal["accepted", "rejected", "uncertain"]


@dataclass(frozen=True)
class Snapshot:
    """The facts an outcome compares before and after an input."""

    revision: int
    level_id: str
    position: tuple[int, int]
    turn: int
    scene: str  # digest of the perceived level, entities and position


@dataclass
class StepResult:
    """One low request: how it was admitted and what it produced."""

    submission: Submission
    method: str
    request_id: str
    before: Snapshot
    after: Snapshot
    response: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    @property
    def status(self) -> str:
        if self.response is not None:
            return str(self.response["outcome"]["status"])
        return "unknown" if self.submission == "uncertain" else "rejected"

    @property
    def turns_elapsed(self) -> int:
        return int(self.response["outcome"]["turnsElapsed"]) if self.response else 0

    @property
    def events(self) -> list[dict[str, Any]]:
        return list(self.response.get("events") or ()) if self.response else []


@dataclass
class SessionState:
    """The latest known state of the game (the world lives in the tracker)."""

    revision: int
    observation: dict[str, Any]
    decision: dict[str, Any] | None
    ended: bool
    end: dict[str, Any] | None
    tracker: WorldTracker = field(default_factory=WorldTracker)


class Session:
    """One live game. Create with `await Session.create(engine, params)`."""

    def __init__(self, engine: Engine, created: dict[str, Any]) -> None:
        self.engine = engine
        self.session_id: str = created["sessionId"]
        self.metadata: dict[str, Any] = dict(created.get("session") or {})
        self.receipts = ReceiptBook()
        self.history: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.lock = asyncio.Lock()
        self.recovery_required = False
        self.lost_ownership = False
        self.closed = False
        # The view nonce makes view IDs opaque and unguessable across games
        # and server restarts; the revision makes them change with input.
        self._nonce = secrets.token_hex(3)
        self._operations = 0
        self.state = SessionState(revision=0, observation={}, decision=None, ended=False, end=None)
        self._apply(created)
        self.created_events: list[dict[str, Any]] = list(created.get("events") or ())

    # ---- lifecycle -------------------------------------------------------------

    @classmethod
    async def create(cls, engine: Engine, params: dict[str, Any]) -> Session:
        """Start a game on a fresh engine. On failure the engine is closed and
        SessionError (the engine's own code) is raised."""
        try:
            created = await engine.request({"version": LOW_VERSION, "method": "session.create",
                                            "params": params})
        except EngineError as exc:
            await engine.close()
            raise SessionError("engineFailed", f"the engine could not start a game: {exc}") from exc
        if "error" in created:
            await engine.close()
            error = created["error"]
            raise SessionError(error.get("code", "createFailed"), error.get("message", "creation failed"),
                               field=error.get("field"))
        return cls(engine, created)

    async def close(self) -> None:
        """Retire the engine (the game is not quit). Idempotent."""
        if self.closed:
            return
        self.closed = True
        if not self.engine.closed:
            try:
                await self.engine.request({"version": LOW_VERSION, "method": "session.close",
                                           "params": {"sessionId": self.session_id}})
            except EngineError:
                pass  # already gone: closing is still complete
        await self.engine.close()

    # ---- derived state ---------------------------------------------------------

    @property
    def revision(self) -> int:
        return self.state.revision

    @property
    def view_id(self) -> str:
        return f"v{self.state.revision}-{self._nonce}"

    @property
    def gate(self) -> Gate:
        return gate_of(lost_ownership=self.lost_ownership, recovery_required=self.recovery_required,
                       ended=self.state.ended, decision_standing=self.state.decision is not None)

    @property
    def observation(self) -> dict[str, Any]:
        return self.state.observation

    @property
    def decision(self) -> dict[str, Any] | None:
        return self.state.decision

    def level(self) -> LevelView:
        return self.state.tracker.view()

    def snapshot(self) -> Snapshot:
        obs = self.state.observation
        level = self.level()
        digest = hashlib.blake2s(digest_size=8)
        digest.update(level.level_id.encode())
        for row in level.marks:
            digest.update(row.encode())
        digest.update(repr(sorted((k, sorted(v.items())) for k, v in level.entities.items())).encode())
        return Snapshot(revision=self.state.revision, level_id=level.level_id, position=level.hero,
                        turn=int(obs.get("turn", 0)), scene=digest.hexdigest())

    def new_operation_id(self) -> str:
        """A fresh operation ID for callers that supplied no requestId."""
        self._operations += 1
        return f"op-{self._operations}-{self._nonce}"

    def remember(self, operation_id: str, frame: dict[str, Any]) -> None:
        """Keep an operation's frame as historical evidence (bounded)."""
        self.history[operation_id] = frame
        while len(self.history) > HISTORY_LIMIT:
            self.history.popitem(last=False)

    # ---- admission (local checks, no input) -------------------------------------

    def admit(self, *, view_id: str | None, expected_revision: int | None = None,
              continuation: bool = False, decision_id: str | None = None) -> None:
        """Raise SessionError unless an input may be sent now.

        Mutations bind to the view they were decided on: a stale viewId or
        expectedRevision is refused, never silently retargeted. Answers
        bind to the exact standing decision ID instead."""
        if view_id is not None and view_id != self.view_id:
            raise SessionError("staleView",
                               f"viewId {view_id!r} is not the current view ({self.view_id}); "
                               "look at the returned scene and decide again", field="viewId",
                               currentViewId=self.view_id)
        if expected_revision is not None and expected_revision != self.state.revision:
            raise SessionError("staleRevision",
                               f"expectedRevision {expected_revision} is not the current revision "
                               f"{self.state.revision}", field="expectedRevision",
                               currentRevision=self.state.revision)
        require_open(self.gate, continuation=continuation)
        if continuation:
            standing = self.state.decision
            assert standing is not None  # require_open checked the gate
            if decision_id != standing["id"]:
                raise SessionError("decisionMismatch",
                                   f"decisionId {decision_id!r} is not the standing decision "
                                   f"({standing['id']}); answer the question you were shown",
                                   field="decisionId", standingDecisionId=standing["id"])

    # ---- engine input -----------------------------------------------------------

    async def step(self, method: str, params: dict[str, Any] | None = None, *,
                   request_id: str) -> StepResult:
        """Send one gameplay or decision request at the current revision.

        Engine rejections return submission "rejected" (no input was taken);
        a transport failure returns "uncertain" and requires recovery,
        because the engine may have taken the input before failing."""
        before = self.snapshot()
        body = {"sessionId": self.session_id, "requestId": request_id,
                "expectedRevision": self.state.revision, **(params or {})}
        message = {"version": LOW_VERSION, "method": method, "params": body}
        try:
            response = await self.engine.request(message)
        except EngineClosed as exc:
            self.recovery_required = True
            return StepResult("rejected", method, request_id, before, before,
                              error={"code": "engineClosed", "message": str(exc)})
        except EngineError as exc:
            self.recovery_required = True
            return StepResult("uncertain", method, request_id, before, before,
                              error={"code": "engineFailed", "message": str(exc)})
        if "error" in response:
            if response.get("revision", self.state.revision) != self.state.revision:
                await self.observe()  # our bookkeeping drifted: resynchronise
            return StepResult("rejected", method, request_id, before, before, error=response["error"])
        self._apply(response)
        return StepResult("accepted", method, request_id, before, self.snapshot(), response=response)

    async def observe(self) -> dict[str, Any]:
        """The engine's current observation with the full world; no input.

        Raises SessionError when the engine is gone."""
        try:
            response = await self.engine.request({"version": LOW_VERSION, "method": "session.observe",
                                                  "params": {"sessionId": self.session_id}})
        except EngineError as exc:
            self.recovery_required = True
            raise SessionError("engineClosed", f"the engine is gone; the game cannot be observed: {exc}") \
                from exc
        if "error" in response:
            error = response["error"]
            raise SessionError(error.get("code", "observeFailed"), error.get("message", ""))
        self._apply(response)
        return response

    def _apply(self, response: dict[str, Any]) -> None:
        observation = dict(response.get("observation") or {})
        self.state.tracker.apply(observation)
        observation.pop("world", None)  # merged into the tracker
        self.state.revision = int(response["revision"])
        self.state.observation = observation
        self.state.decision = response.get("decision")
        self.state.ended = bool(response.get("ended"))
        self.state.end = response.get("end")
