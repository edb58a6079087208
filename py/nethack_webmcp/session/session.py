"""session.py - one game: its engine, revision, view binding, gate, journal and receipts.

The session is the only writer of a game's engine, and the coordinator of
its parts: `durability.Journal` writes the journal, receipts and record (and
retries failed writes), `recovery` verifies a blocked game, `records` builds
what the store keeps. It keeps the latest
observation (with the world rows merged by the navigation WorldTracker,
because gameplay responses carry only changed rows), the standing decision
and the end, and it checks everything that can be checked locally before
any input is sent: view binding, expected revision, the control gate and
the exact decision ID. A rejected check sends nothing, so the engine's
revision is unchanged.

Journal before effect: every gameplay/decision request is reserved in the
store *before* the engine sees it and its receipt (the boundary it reached)
is stored *after*. A failed store write blocks the gate (`recoveryRequired`
with a `storage` diagnostic) until `verify` makes it durable; an engine
failure between reservation and receipt blocks it until `verify` has
replayed the completed journal on a fresh engine and marked the dangling
reservation as not applied (`recovery`). Input is never sent again on
anyone's behalf.

`lock` serialises whole operations (a navigation leg is many inputs): tool
handlers hold it from admission to the recorded receipt.

Cancellation never splits an input from its record: an acting operation
runs as a session-owned task (`start_operation`, `operations.py`) that its
callers only wait for, and each `step` - reservation, engine exchange,
receipt, state update - runs to its end even when whoever awaits it is
cancelled. While an operation runs, other callers see gate `busy`.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..engine import Engine, EngineClosed, EngineError
from ..navigation.level import LevelView, WorldTracker
from ..store import (
    JournalEntry,
    Lease,
    MemoryStore,
    OwnershipLost,
    SessionInfo,
    Store,
    StoreError,
    Summary,
    canonical,
)
from . import operations
from .durability import Journal, brief, lost_ownership
from .errors import SessionError
from .errors import closed as closed_error
from .gate import Gate, gate_of, require_open
from .idle_point import IdlePoint, after_step
from .operations import Finished, RunningOperation
from .pacing import Pace, paced
from .records import end_reason, make_record, new_info, progress, track_depth, track_level
from .recovery import EngineFactory, Recovery
from .replay import ReplayResult, replay, replay_from, summary_of
from .restore_point import RestorePoint

__all__ = ["Session", "SessionState", "Snapshot", "StepResult", "end_reason", "make_record", "state_hash"]

LOW_VERSION = 1
HISTORY_LIMIT = 200  # operation frames kept in memory for observe(operationId); older ones come from the store
Submission = Literal["accepted", "rejected", "uncertain"]


def state_hash(observe_response: dict[str, Any]) -> str:
    """sha256 of a full `session.observe` response (canonical JSON)."""
    return hashlib.sha256(canonical(observe_response).encode("utf-8")).hexdigest()


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
    """One live game. Create with `await Session.create(engine, params)` or
    resume with `await Session.restore(engine, info, journal, store=...)`."""

    def __init__(
        self,
        engine: Engine,
        created: dict[str, Any],
        *,
        store: Store | None = None,
        info: SessionInfo | None = None,
        identity: str | None = None,
        engine_factory: EngineFactory | None = None,
    ) -> None:
        self.engine = engine
        self.session_id: str = created["sessionId"]
        self.metadata: dict[str, Any] = dict(created.get("session") or {})
        self.store: Store = store if store is not None else MemoryStore()
        self.engine_factory = engine_factory
        self.lease: Lease | None = None
        self.history: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.lock = asyncio.Lock()
        self._step_lock = asyncio.Lock()  # one journaled input at a time, also after a cancelled caller
        self.running: RunningOperation | None = None  # the acting operation in flight (`start_operation`)
        # a checkpointer's request for the memory at the end of the next input, and that point (idle_point.py)
        self.step_point_wanted = False
        self.step_point: IdlePoint | None = None
        self.step_point_ready = asyncio.Event()  # set when a step leaves the point asked for (idle_point.py)
        # the checkpointer following this game holds an input while a resume would replay too long (pacing.py)
        self.pace: Pace | None = None
        self.lost_ownership = False
        self.closed = False
        self.notes: dict[str, Any] = {}  # one-shot diagnostics for the next frame
        self.journal = Journal(self.store, self.session_id, self.notes)
        self.last_state_hash: str | None = None
        self._hashed: dict[str, Any] | None = None  # the observe response last_state_hash is of
        self._snapshot: tuple[LevelView, dict[str, Any], int, Snapshot] | None = None  # (see snapshot)
        self.holder: dict[str, Any] | None = None  # what is known about the owner, for an observer
        self._operations = 0
        self._op_nonce = secrets.token_hex(3)
        self.info: SessionInfo = info if info is not None else new_info(created, identity)
        self.recovery = Recovery(
            session_id=self.session_id,
            info=self.info,
            store=self.store,
            journal=self.journal,
            notes=self.notes,
            engine_factory=engine_factory,
            install=self.replace_engine,
        )
        # The view nonce makes view IDs opaque and unguessable across games;
        # it is stored, so a resumed game keeps its viewIds.
        self._nonce = self.info["viewNonce"]
        self.state = SessionState(revision=0, observation={}, decision=None, ended=False, end=None)
        self._apply(created)
        self.created_events: list[dict[str, Any]] = list(created.get("events") or ())

    # ---- lifecycle -------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        engine: Engine,
        params: dict[str, Any],
        *,
        store: Store | None = None,
        identity: str | None = None,
        engine_factory: EngineFactory | None = None,
        persist: bool = True,
    ) -> Session:
        """Start a game on a fresh engine. On failure the engine is closed and
        SessionError (the engine's own code) is raised. With `persist` the
        game is stored before this returns (else call `persist()`)."""
        try:
            created = await engine.request({"version": LOW_VERSION, "method": "session.create", "params": params})
        except EngineError as exc:
            await engine.close()
            raise SessionError("engineFailed", f"the engine could not start a game: {exc}") from exc
        if "error" in created:
            await engine.close()
            error = created["error"]
            raise SessionError(
                error.get("code", "createFailed"), error.get("message", "creation failed"), field=error.get("field")
            )
        session = cls(engine, created, store=store, identity=identity, engine_factory=engine_factory)
        if "automaticPickup" in params:  # replay re-creates the game with the same settings
            session.info["create"]["automaticPickup"] = params["automaticPickup"]
        session.info["seedChoice"] = "chosen" if "seed" in params else "sealed"
        session._track_depth()
        if persist:
            await session.persist()
        return session

    async def persist(self) -> None:
        """Store the new game. On failure the engine is retired and the game
        does not exist (creation is not retry-idempotent: nothing to keep)."""
        try:
            await self.store.create_session(self.info)
        except StoreError as exc:
            await self.close()
            raise SessionError(
                "storageFailed",
                f"the new game could not be stored, so it was not started: {exc}",
                durability=self.store.durability,
            ) from exc

    @classmethod
    async def restore(
        cls,
        engine: Engine,
        info: SessionInfo,
        entries: Sequence[JournalEntry],
        *,
        store: Store,
        engine_factory: EngineFactory | None = None,
        lease: Lease | None = None,
        owner: bool = True,
        build: str | None = None,
    ) -> Session:
        """Resume a stored game on a fresh engine by pinned replay.

        A trailing reservation without a receipt keeps an owner's gate at
        recoveryRequired until observe records it as not applied; an observer
        (owner=False) writes nothing. Raises SessionError (the engine is
        closed) when the replay cannot reproduce the journal."""
        try:
            result = await replay(engine, info, entries)
        except BaseException:
            await engine.close()
            raise
        return await cls._resumed(
            engine,
            info,
            entries,
            result,
            store=store,
            engine_factory=engine_factory,
            lease=lease,
            owner=owner,
            build=build,
        )

    @classmethod
    async def restore_from(
        cls,
        engine: Engine,
        info: SessionInfo,
        entries: Sequence[JournalEntry],
        *,
        point: RestorePoint,
        store: Store,
        engine_factory: EngineFactory | None = None,
        lease: Lease | None = None,
        owner: bool = True,
        build: str | None = None,
    ) -> Session:
        """Resume a stored game from a restore point: `engine` is already at
        the boundary after entry `point.seq` (the host restored it from a
        checkpoint) and `point.memory` is the navigation memory there; only
        the entries after it are replayed (replay.replay_from). The resumed
        game is the one `restore` gives, frame for frame
        (tests/durability/test_restore_point.py); `notes["resume"]` says
        `fromCheckpoint: seq` beside `replayed`.

        Raises SessionError (the engine is closed): checkpointRefused for a
        point not of this journal, replayDiverged when the engine or the
        journal does not reproduce - the caller then resumes with `restore`."""
        try:
            result = await replay_from(engine, info, entries, point=point)
        except BaseException:
            await engine.close()
            raise
        session = await cls._resumed(
            engine,
            info,
            entries,
            result,
            store=store,
            engine_factory=engine_factory,
            lease=lease,
            owner=owner,
            build=build,
        )
        session.notes["resume"]["fromCheckpoint"] = point.seq
        if point.report:
            session.notes["resume"]["checkpoint"] = dict(point.report)
        return session

    @classmethod
    async def _resumed(
        cls,
        engine: Engine,
        info: SessionInfo,
        entries: Sequence[JournalEntry],
        result: ReplayResult,
        *,
        store: Store,
        engine_factory: EngineFactory | None,
        lease: Lease | None,
        owner: bool,
        build: str | None,
    ) -> Session:
        """The session a replay (whole or from a restore point) brought back."""
        assert result.created is not None
        session = cls(engine, result.created, store=store, info=info, engine_factory=engine_factory)
        session.lease = lease
        session.lost_ownership = not owner
        session.state.tracker = result.memory  # every replayed observation folded in (exact resume)
        session._apply(result.observed)
        session._hash_observed(result.observed)
        session.journal.seq = result.last_seq
        session.recovery.replayed = result.replayed
        report: dict[str, Any] = {
            "replayed": result.replayed,
            "skipped": result.skipped,
            "revision": session.revision,
            "seconds": round(result.seconds, 3),
            "engineIdentity": info["engineIdentity"],
        }
        if build is not None:
            report["engineBuild"] = build  # which binary replayed it: diagnostics
        if result.dangling is not None:
            report["unverified"] = [brief(result.dangling)]
            if owner:
                session.recovery.unverified = result.dangling  # recoveryRequired until observe verifies
        session.notes["resume"] = report
        if owner and session.state.ended:
            await session.journal.ensure_record(
                session.info, session.state.observation.get("depth"), session.state.end, entries
            )
        return session

    async def close(self) -> None:
        """Retire the engine (the game is not quit) and give up ownership. Idempotent.
        A running operation is first let reach its boundary (its receipt recorded)."""
        if self.closed:
            return
        self.closed = True
        running = self.running
        if running is not None and running.waits_for_others and running.progress is not None:
            # admitted (it holds the lock and may have sent input): let it finish;
            # one not admitted yet finds the session closed and sends nothing
            await operations.until_done(running, None)
        if not self.engine.closed:
            try:
                await self.engine.request(
                    {"version": LOW_VERSION, "method": "session.close", "params": {"sessionId": self.session_id}}
                )
            except EngineError:
                pass  # already gone: closing is still complete
        await self.engine.close()
        if self.lease is not None:
            await self.lease.release()

    # ---- derived state ---------------------------------------------------------

    @property
    def revision(self) -> int:
        return self.state.revision

    @property
    def view_id(self) -> str:
        return f"v{self.state.revision}-{self._nonce}"

    @property
    def recovery_required(self) -> bool:
        """True while the engine failed during an input and observe must replay first."""
        return self.recovery.required

    @property
    def unverified(self) -> JournalEntry | None:
        """A resume's reservation without a receipt, until observe records it as not applied."""
        return self.recovery.unverified

    @property
    def stepping(self) -> bool:
        """True while a journaled input is on its way (reserved, sent, being completed)."""
        return self._step_lock.locked()

    @property
    def busy(self) -> bool:
        """True while an acting operation runs and the caller is not part of it."""
        return self.running is not None and self.running.waits_for_others

    @property
    def gate(self) -> Gate:
        if (self.lease is not None and self.lease.lost) or self.journal.lost is not None:
            self.lost_ownership = True  # for good: the game is reloaded by replay
        return gate_of(
            lost_ownership=self.lost_ownership,
            recovery_required=self.recovery.blocked,
            ended=self.state.ended,
            decision_standing=self.state.decision is not None,
            storage_failed=self.journal.fault is not None,
            busy=self.busy,
        )

    def start_operation(
        self,
        operation_id: str,
        request_id: str | None,
        payload_hash: str | None,
        work: Callable[[], Awaitable[Finished]],
    ) -> RunningOperation:
        """Run an acting operation as a task this session owns (see operations.py);
        callers wait for it with `operations.wait`. One at a time."""
        assert self.running is None or self.running.done, "one operation at a time: check `running` first"
        self.running = operations.start(operation_id, request_id, payload_hash, work, self._operation_done)
        return self.running

    def _operation_done(self, running: RunningOperation) -> None:
        if self.running is running:
            self.running = None

    @property
    def sealed(self) -> bool:
        """True while the engine picked the seed and the game is live: its
        state hash is withheld too (games stored before schema 2 were chosen)."""
        return self.info.get("seedChoice") == "sealed" and not self.state.ended

    @property
    def seed_hidden(self) -> bool:
        """True while the game is live: then no tool result, spectator view or
        public record shows its seed, whoever picked it (a harness's chosen
        seed is as secret as the engine's); the record publishes it at the end."""
        return not self.state.ended

    def agent_metadata(self) -> dict[str, Any]:
        """The game's creation facts as everything outside the host shows them
        (tool results, the spectator snapshot): a live game's seed is left out."""
        shown = {key: value for key, value in self.metadata.items() if not (self.seed_hidden and key == "seed")}
        shown["seedChoice"] = self.info.get("seedChoice", "chosen")
        return shown

    @property
    def observation(self) -> dict[str, Any]:
        return self.state.observation

    @property
    def decision(self) -> dict[str, Any] | None:
        return self.state.decision

    def summary(self) -> Summary:
        return summary_of(
            {
                "revision": self.state.revision,
                "decision": self.state.decision,
                "ended": self.state.ended,
                "end": self.state.end,
            }
        )

    def level(self) -> LevelView:
        return self.state.tracker.view()

    def snapshot(self) -> Snapshot:
        """The facts an outcome compares. A step's `before` is the previous
        step's `after` when nothing was applied in between (the same view,
        observation and revision): that one is reused, not digested again."""
        obs = self.state.observation
        level = self.level()
        kept = self._snapshot
        if kept is not None and kept[0] is level and kept[1] is obs and kept[2] == self.state.revision:
            return kept[3]
        digest = hashlib.blake2s(digest_size=8)
        digest.update(level.level_id.encode())
        for row in level.marks:
            digest.update(row.encode())
        digest.update(repr(sorted((k, sorted(v.items())) for k, v in level.entities.items())).encode())
        snapshot = Snapshot(
            revision=self.state.revision,
            level_id=level.level_id,
            position=level.hero,
            turn=int(obs.get("turn", 0)),
            scene=digest.hexdigest(),
        )
        self._snapshot = (level, obs, self.state.revision, snapshot)
        return snapshot

    def new_operation_id(self) -> str:
        """A fresh operation ID for callers that supplied no requestId
        (unique across processes: the nonce is per session object)."""
        self._operations += 1
        return f"op-{self._operations}-{self._op_nonce}"

    def remember(self, operation_id: str, frame: dict[str, Any]) -> None:
        """Keep an operation's frame as historical evidence (bounded; the store keeps all)."""
        self.history[operation_id] = frame
        while len(self.history) > HISTORY_LIMIT:
            self.history.popitem(last=False)

    def diagnostics(self, *, consume: bool = True) -> dict[str, Any]:
        """What the next frame reports besides the game: storage faults,
        ownership, required recovery, and one-shot resume/recovery reports."""
        found: dict[str, Any] = dict(self.notes)
        if consume:
            self.notes.clear()
        if self.journal.fault is not None:
            found["storage"] = dict(self.journal.fault)
        if self.lost_ownership:
            found["ownership"] = {
                "status": "observer",
                "holder": self.holder,
                "message": "another process owns this game; this view follows its journal "
                "read-only (session resume takes it over once the owner is gone)",
                **found.get("ownership", {}),
            }
        required = self.recovery.diagnostic()
        if required is not None:
            found["recovery"] = required
        return found

    # ---- admission (local checks, no input) -------------------------------------

    def admit(
        self,
        *,
        view_id: str | None,
        expected_revision: int | None = None,
        continuation: bool = False,
        decision_id: str | None = None,
    ) -> None:
        """Raise SessionError unless an input may be sent now.

        Mutations bind to the view they were decided on: a stale viewId or
        expectedRevision is refused, never silently retargeted. Answers
        bind to the exact standing decision ID instead."""
        if self.closed:
            raise closed_error(self.session_id)
        if view_id is not None and view_id != self.view_id:
            raise SessionError(
                "staleView",
                f"viewId {view_id!r} is not the current view ({self.view_id}); "
                "look at the returned scene and decide again",
                field="viewId",
                currentViewId=self.view_id,
            )
        if expected_revision is not None and expected_revision != self.state.revision:
            raise SessionError(
                "staleRevision",
                f"expectedRevision {expected_revision} is not the current revision {self.state.revision}",
                field="expectedRevision",
                currentRevision=self.state.revision,
            )
        require_open(self.gate, continuation=continuation, storage_failed=self.journal.fault is not None)
        if continuation:
            standing = self.state.decision
            assert standing is not None  # require_open checked the gate
            if decision_id != standing["id"]:
                raise SessionError(
                    "decisionMismatch",
                    f"decisionId {decision_id!r} is not the standing decision "
                    f"({standing['id']}); answer the question you were shown",
                    field="decisionId",
                    standingDecisionId=standing["id"],
                )

    # ---- tool receipts ------------------------------------------------------------

    async def recorded(self, request_id: str, payload: Any) -> dict[str, Any] | None:
        """The original frame of an exact retry, or None for a new requestId
        (see `Journal.recorded` for the refusals)."""
        return await self.journal.recorded(request_id, payload)

    async def record(
        self, operation_id: str, payload: Any | None, frame: dict[str, Any], *, call: dict[str, Any] | None = None
    ) -> None:
        """Store an operation's frame (the receipt an exact retry returns) and
        the tool call that made it (`{tool, arguments}`, nothing secret: tools/calls.py)."""
        self.remember(operation_id, frame)
        await self.journal.put_receipt(operation_id, payload, frame, call=call)

    async def historical(self, operation_id: str) -> dict[str, Any] | None:
        """An earlier operation's frame: memory first, then the store."""
        frame = self.history.get(operation_id)
        if frame is not None:
            return frame
        return await self.journal.stored_frame(operation_id)

    # ---- engine input -----------------------------------------------------------

    async def step(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        request_id: str,
        operation_id: str | None = None,
        hold: bool = False,
    ) -> StepResult:
        """Journal, then send one gameplay or decision request at the current revision.

        Engine rejections return submission "rejected" (no input was taken);
        a transport failure returns "uncertain" and requires recovery,
        because the engine may have taken the input before failing.
        `hold`: an accepted input's completion waits for the operation's
        receipt or next input (Journal.complete's hold; tools/base.Operation).

        The step runs to its end (receipt and state included) even when the
        caller is cancelled; the next step waits for it."""
        return await operations.finish(self._step_in_turn(method, params, request_id, operation_id, hold))

    async def _step_in_turn(
        self, method: str, params: dict[str, Any] | None, request_id: str, operation_id: str | None, hold: bool
    ) -> StepResult:
        async with self._step_lock:
            await paced(self)  # (under the step lock: no other input of the game is in flight meanwhile)
            return await self._step(method, params, request_id=request_id, operation_id=operation_id, hold=hold)

    async def _step(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        request_id: str,
        operation_id: str | None = None,
        hold: bool = False,
    ) -> StepResult:
        before = self.snapshot()
        if self.gate in ("recoveryRequired", "lostOwnership"):
            return StepResult(
                "rejected",
                method,
                request_id,
                before,
                before,
                error={"code": self.gate, "message": "no input can be sent now"},
            )
        body = {
            "sessionId": self.session_id,
            "requestId": request_id,
            "expectedRevision": self.state.revision,
            **(params or {}),
        }
        message = {"version": LOW_VERSION, "method": method, "params": body}
        seq = self.journal.seq + 1
        entry = JournalEntry(
            sessionId=self.session_id,
            seq=seq,
            operationId=operation_id or request_id.rsplit(".", 1)[0],
            requestId=request_id,
            method=method,
            request=message,
            reservedAt=time.time(),
            state="reserved",
            receipt=None,
            completedAt=None,
        )
        try:
            await self.journal.reserve(entry)
        except OwnershipLost as exc:  # the fence: another owner has the game, or the lock is gone
            return StepResult("rejected", method, request_id, before, before, error=lost_ownership(exc, sent=False))
        except StoreError as exc:
            return StepResult(
                "rejected",
                method,
                request_id,
                before,
                before,
                error={
                    "code": "storageFailed",
                    "message": f"the input was not sent: its journal entry could not be written ({exc})",
                },
            )
        try:
            response = await self.engine.request(message)
        except EngineClosed as exc:
            self.recovery.required = True
            return StepResult(
                "rejected", method, request_id, before, before, error={"code": "engineClosed", "message": str(exc)}
            )
        except EngineError as exc:
            self.recovery.required = True
            return StepResult(
                "uncertain", method, request_id, before, before, error={"code": "engineFailed", "message": str(exc)}
            )
        now = time.time()
        try:
            if "error" in response:
                await self.journal.complete(seq, "rejected", {"error": response["error"]}, now)
                if response.get("revision", self.state.revision) != self.state.revision:
                    await self.observe()  # our bookkeeping drifted: resynchronise
                return StepResult("rejected", method, request_id, before, before, error=response["error"])
            self._apply(response, searching=method == "game.search")
            level = (self.state.observation.get("vitals") or {}).get("level")
            fields, record = progress(
                self.info, self.state.observation.get("depth"), self.state.ended, self.state.end, now, level=level
            )
            await self.journal.complete(
                seq, "completed", dict(summary_of(response)), now, fields, record, hold=request_id if hold else None
            )
            after_step(self)
        except OwnershipLost as exc:  # another owner claimed the game meanwhile: this input does not count
            return StepResult("rejected", method, request_id, before, before, error=lost_ownership(exc, sent=True))
        return StepResult("accepted", method, request_id, before, self.snapshot(), response=response)

    async def observe(self) -> dict[str, Any]:
        """The engine's current observation with the full world; no input.

        Raises SessionError when the engine is gone."""
        try:
            response = await self.engine.request(
                {"version": LOW_VERSION, "method": "session.observe", "params": {"sessionId": self.session_id}}
            )
        except EngineError as exc:
            self.recovery.required = True
            raise SessionError("engineClosed", f"the engine is gone; the game cannot be observed: {exc}") from exc
        if "error" in response:
            error = response["error"]
            raise SessionError(error.get("code", "observeFailed"), error.get("message", ""))
        self._apply(response)
        self._hash_observed(response)
        return response

    def _hash_observed(self, response: dict[str, Any]) -> None:
        """last_state_hash of a full observe response. An observe of a game
        nothing happened to since the last one gets the same response: its
        hash is kept rather than the response serialised and hashed again
        (the cheap fields are compared first, the whole response only then)."""
        last = self._hashed
        if not (
            last is not None
            and last.get("revision") == response.get("revision")
            and (last.get("observation") or {}).get("turn") == (response.get("observation") or {}).get("turn")
            and last == response
        ):
            self.last_state_hash = state_hash(response)
        self._hashed = response

    async def lookup(self, name: str) -> dict[str, Any]:
        """The encyclopedia entry for a typed name, from the engine's own
        data.base (`session.lookup`): no input, no journal entry, no turn, no
        revision change, no random draw. A failed reply retires the engine
        (recovery replays the journal), so a late reply cannot be mistaken
        for the next gameplay response.

        Raises SessionError when the engine is gone or refuses the name."""
        try:
            response = await self.engine.request(
                {
                    "version": LOW_VERSION,
                    "method": "session.lookup",
                    "params": {"sessionId": self.session_id, "name": name},
                }
            )
        except EngineError as exc:
            self.recovery.required = True
            raise SessionError("engineClosed", f"the engine is gone; nothing can be looked up: {exc}") from exc
        if "error" in response:
            error = response["error"]
            raise SessionError(error.get("code", "lookupFailed"), error.get("message", ""), field=error.get("field"))
        return {key: response[key] for key in ("kind", "name", "found", "lines")}

    def _apply(self, response: dict[str, Any], *, searching: bool = False) -> None:
        observation = dict(response.get("observation") or {})
        folding = time.perf_counter()
        self.state.tracker.apply(observation, searching=searching)  # searching: counted per square
        if self.pace is not None:  # (a resume's replay folds the same: its price, pacing.py)
            self.pace.folded(time.perf_counter() - folding)
        observation.pop("world", None)  # merged into the tracker
        self.state.revision = int(response["revision"])
        self.state.observation = observation
        self.state.decision = response.get("decision")
        self.state.ended = bool(response.get("ended"))
        self.state.end = response.get("end")

    async def replace_engine(self, engine: Engine, observed: dict[str, Any]) -> None:
        """Continue on a fresh engine that a replay brought to `observed` (recovery)."""
        old, self.engine = self.engine, engine
        await old.close()
        self._apply(observed)
        self._hash_observed(observed)

    # ---- durability ---------------------------------------------------------------

    def _track_depth(self) -> None:
        track_depth(self.info, self.state.observation.get("depth"))
        track_level(self.info, (self.state.observation.get("vitals") or {}).get("level"))

    async def flush_storage(self) -> bool:
        """Retry the failed writes in order; reopen the gate when all succeed."""
        return await self.journal.flush()

    async def verify(self) -> None:
        """What observe does before looking (see `Recovery.verify`).
        Raises SessionError when the game cannot be verified (input stays blocked)."""
        following = self.gate == "lostOwnership"  # (reading the gate notices a lost lease)
        await self.recovery.verify(
            following=following, engine=self.engine, summary=self.summary(), memory=self.state.tracker
        )
