"""durability.py - one game's durable writes, with retry when the store fails.

Journal before effect: a gameplay/decision request is reserved here before
the engine sees it and completed (its receipt) after. Tool receipts (the
frames exact retries return) and the game record are written here too.
An acting tool call's steps are completed with `hold`: the completion is
kept until the next write of this game needs it (`settle_held`: before the
next input is reserved) or its operation's tool receipt is recorded, which
then goes into the same store transaction (one commit instead of two).
Either way it is durable before the caller sees a frame of that input. A
write that fails is kept, in order, as a retry: while any is pending the
session's gate is `storageFailed` (`fault` is the `storage` diagnostic),
until `flush` makes them all durable. A failed write may or may not have
happened, so every retry first verifies by reading back.

Ownership can be lost under a running game (a cut database connection, a
take-over): the store's fence refuses the journal write (`OwnershipLost`),
or the position this session reserves holds another writer's entry (a
different requestId). Either way this session stops for good (`lost`): it
writes nothing more to the journal, never adopts the other writer's entry
as its own, and its gate turns `lostOwnership`; the game is reloaded by
replay (recovery.py) by whoever owns it.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..store import (
    GameRecord,
    JournalEntry,
    OwnershipLost,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    ToolReceipt,
    payload_hash,
)
from ..store.base import EntryState, Outcome
from .errors import SessionError
from .records import make_record, track_depth

NOT_APPLIED = (
    "the engine that received this input is gone and the input died with it; "
    "the replay of the completed journal does not include it"
)

Write = Callable[[], Awaitable[None]]


@dataclass(frozen=True)
class Held:
    """A completed entry's write, kept to ride with the next write (Journal.complete with hold)."""

    seq: int
    request_id: str
    receipt: dict[str, Any]
    now: float
    fields: dict[str, Any] | None
    record: GameRecord | None


def lost_ownership(exc: OwnershipLost, *, sent: bool) -> dict[str, Any]:
    """The `lostOwnership` error of an input the fence stopped: before it was
    sent (nothing happened) or after (the journal will never record it, so
    the game's truth is that it was not applied)."""
    what = (
        "the input reached this process's engine, but its result cannot be recorded, so it does not count "
        "(the journal settles it as not applied)"
        if sent
        else "nothing was sent"
    )
    return {
        "code": "lostOwnership",
        "message": f"{what}: {exc}. Observe shows the game as its journal has it; "
        "whoever owns it now continues it (session resume takes it once nobody does)",
    }


def brief(entry: JournalEntry) -> dict[str, Any]:
    """A dangling reservation as diagnostics show it."""
    return {
        "seq": entry["seq"],
        "requestId": entry["requestId"],
        "operationId": entry["operationId"],
        "method": entry["method"],
        "reason": NOT_APPLIED,
    }


class Journal:
    """The durable writes of one game. `notes` is the session's one-shot
    diagnostics (shared): recovered storage and degraded records go there."""

    def __init__(self, store: Store, session_id: str, notes: dict[str, Any]) -> None:
        self.store = store
        self.session_id = session_id
        self.notes = notes
        self.seq = 0  # the last journal entry this session has settled
        self.fault: dict[str, Any] | None = None  # the `storage` diagnostic while writes are pending
        #: why this session found it no longer owns the game (for good), else None
        self.lost: str | None = None
        #: True when this session's engine took an input the journal will never record
        #: (its receipt was fenced out): following the new owner needs a fresh replay
        self.engine_ahead = False
        self._pending: list[Write] = []
        self._held: Held | None = None  # the last step's completion, not written yet (see the module)
        self._unsaved: dict[str, ToolReceipt] = {}  # tool receipts whose write failed (still answer retries)
        #: the held completion `reserve` found refused by the fence: (its requestId, why)
        self._refused: tuple[str, OwnershipLost] | None = None

    # ---- the engine journal ---------------------------------------------------------

    async def reserve(self, entry: JournalEntry) -> None:
        """Reserve the next entry before its input is sent. Raises
        OwnershipLost (nothing written, nothing to retry) when the game is no
        longer this session's, else StoreError (the failure is recorded for
        retry) when it could not be written."""
        seq = entry["seq"]
        if await self._reserve_with_held(entry):
            return
        held = self._held
        try:
            await self.settle_held()  # the previous input's completion first (normally settled already)
        except OwnershipLost as exc:
            if held is not None:  # that input does not count: its operation says so (take_refused)
                self._refused = (held.request_id, exc)
            raise
        if self.lost is not None:
            raise OwnershipLost(self.lost)
        try:
            await self.store.reserve(entry)
        except OwnershipLost as exc:
            raise self._lose(exc) from None
        except StoreConflict as exc:
            taken = await self._taken_by_another(entry)
            if taken is not None:
                raise self._lose(OwnershipLost(taken)) from exc
            self._fail("reserve", exc, lambda: self._verify_reservation(entry), seq=seq, requestId=entry["requestId"])
            raise
        except StoreError as exc:
            self._fail("reserve", exc, lambda: self._verify_reservation(entry), seq=seq, requestId=entry["requestId"])
            raise
        self.seq = seq

    async def _reserve_with_held(self, entry: JournalEntry) -> bool:
        """The held completion and this reservation in one transaction (a leg's
        inputs: one commit each, not two), where the store can: True when both
        were written. On any failure nothing was written (or, an unknown commit
        outcome, both, which the two-write path below verifies): the held
        completion stays held for it, whose own rules (the fence's epoch only)
        and failure handling then apply."""
        held = self._held
        if held is None or not self.joins_held():
            return False
        completing = Outcome(
            self.session_id, held.seq, "completed", held.receipt, held.now, dict(held.fields or {}), held.record
        )
        try:
            await self.store.reserve(entry, completing=completing)
        except StoreError:  # (OwnershipLost included) the separate writes decide
            return False
        self._held = None
        self.seq = entry["seq"]
        return True

    async def _taken_by_another(self, entry: JournalEntry) -> str | None:
        """Why the position `entry` was refused at belongs to another writer
        (an entry with another requestId is there), or None."""
        try:
            found = await self.store.journal(self.session_id, after_seq=entry["seq"] - 1)
        except StoreError:
            return None  # unknown: handled as a failed write, verified on retry
        if found and found[0]["seq"] == entry["seq"] and found[0]["requestId"] != entry["requestId"]:
            return (
                f"journal entry {entry['seq']} was written by another owner "
                f"(requestId {found[0]['requestId']!r}, not {entry['requestId']!r})"
            )
        return None

    def _lose(self, exc: OwnershipLost) -> OwnershipLost:
        """Stop for good: the game is not this session's to advance."""
        if self.lost is None:
            self.lost = str(exc)
            fence = self.store.fence_of(self.session_id)
            if fence is not None:
                fence.lose(self.lost)  # the lease reports it: the gate turns lostOwnership
            self.notes["ownership"] = {
                "status": "lost",
                "message": f"this process no longer owns the game ({self.lost}); nothing more is sent "
                "or journaled here, and the game is reloaded by replay",
            }
        return exc

    async def complete(
        self,
        seq: int,
        state: EntryState,
        receipt: dict[str, Any],
        now: float,
        fields: dict[str, Any] | None = None,
        record: GameRecord | None = None,
        *,
        hold: str | None = None,
    ) -> None:
        """Store the boundary an entry reached (and session progress with it).

        `hold` (the entry's requestId; completed entries only): keep the write
        for `settle_held` or `put_receipt` instead of committing it now."""
        if hold is not None and state == "completed" and self.lost is None:
            await self.settle_held()  # never two held: the older one is written first
            self._held = Held(seq, hold, receipt, now, fields, record)
            return

        write = self._completion(seq, state, receipt, now, fields, record)
        try:
            await write()
        except OwnershipLost as exc:
            # the engine took the input, but another owner claimed the game first:
            # the journal will never record it (the new owner settles it as not applied)
            self.engine_ahead = True
            raise self._lose(exc) from None
        except StoreError as exc:
            self._fail("receipt", exc, write, seq=seq)

    def _completion(
        self,
        seq: int,
        state: EntryState,
        receipt: dict[str, Any],
        now: float,
        fields: dict[str, Any] | None,
        record: GameRecord | None,
    ) -> Write:
        async def write() -> None:
            try:
                await self.store.complete(
                    self.session_id,
                    seq,
                    state=state,
                    receipt=receipt,
                    completed_at=now,
                    session_fields=fields,
                    record=record,
                )
            except StoreConflict:
                # an earlier attempt may have been written after all: verify
                entries = await self.store.journal(self.session_id, after_seq=seq - 1)
                if not entries or entries[0]["state"] != state or entries[0]["receipt"] != receipt:
                    raise

        return write

    def joins_held(self) -> bool:
        """Whether the next reservation writes a held completion with it (one commit)."""
        return self.store.reserves_with_completion and self.lost is None and not self._pending

    def take_refused(self, request_id: str) -> OwnershipLost | None:
        """Why that input's held completion was refused when the next input was
        reserved (the fence: that input does not count), once; None if it was not."""
        refused, self._refused = self._refused, None
        return refused[1] if refused is not None and refused[0] == request_id else None

    @property
    def holds_completion(self) -> bool:
        """Whether an input's completion is held (taken, not in the store yet)."""
        return self._held is not None

    def holding(self, request_id: str) -> bool:
        """Whether that input's completion is held (taken, not durable yet)."""
        return self._held is not None and self._held.request_id == request_id

    async def settle_held(self) -> None:
        """Write the held completion on its own, as `complete` would have.
        Raises OwnershipLost when the fence refuses it (that input is then
        never recorded); a StoreError is kept for retry (the gate closes)."""
        held, self._held = self._held, None
        if held is not None:
            await self.complete(held.seq, "completed", held.receipt, held.now, held.fields, held.record)

    async def _verify_reservation(self, entry: JournalEntry) -> None:
        """After a failed reserve: the entry may exist after all. It was never
        sent, so it is settled as not applied. An entry of another requestId
        at that position is another owner's: never adopted (OwnershipLost)."""
        seq = entry["seq"]
        entries = await self.store.journal(self.session_id, after_seq=seq - 1)
        if not entries:
            self.seq = seq - 1  # nothing was written
            return
        if entries[0]["requestId"] != entry["requestId"]:
            raise OwnershipLost(
                f"journal entry {seq} was written by another owner "
                f"(requestId {entries[0]['requestId']!r}, not {entry['requestId']!r})"
            )
        if entries[0]["state"] == "reserved":
            await self.store.complete(
                self.session_id,
                seq,
                state="notApplied",
                receipt={"reason": "the journal write failed, so it was never sent"},
                completed_at=time.time(),
            )
        self.seq = seq

    async def settle_dangling(self, entry: JournalEntry) -> None:
        """Mark a reservation whose engine died as not applied."""

        async def write() -> None:
            try:
                await self.store.complete(
                    self.session_id,
                    entry["seq"],
                    state="notApplied",
                    receipt={"reason": NOT_APPLIED},
                    completed_at=time.time(),
                )
            except StoreConflict:
                current = await self.store.journal(self.session_id, after_seq=entry["seq"] - 1)
                if not current or current[0]["state"] != "notApplied":
                    raise
            self.seq = entry["seq"]

        try:
            await write()
        except OwnershipLost as exc:
            raise self._lose(exc) from None
        except StoreError as exc:
            self._fail("notApplied", exc, write, seq=entry["seq"])

    async def ensure_record(
        self, info: SessionInfo, depth: Any, end: dict[str, Any] | None, entries: Sequence[JournalEntry]
    ) -> None:
        """A resumed ended game whose record was not written yet gets it now
        (the end time is the ending entry's receipt time)."""
        try:
            if await self.store.get_record(self.session_id) is not None:
                return
            completed = [e for e in entries if e["state"] == "completed"]
            ended_at = (completed[-1]["completedAt"] if completed else None) or info["startedAt"]
            track_depth(info, depth)
            info["status"], info["endedAt"] = "ended", info["endedAt"] or ended_at
            await self.store.update_session(
                self.session_id,
                {
                    "status": "ended",
                    "endedAt": info["endedAt"],
                    "lastDepth": info["lastDepth"],
                    "deepestDepth": info["deepestDepth"],
                },
            )
            await self.store.put_record(make_record(info, end, ended_at))
        except StoreError as exc:
            self.notes["storage"] = {"status": "degraded", "operation": "record", "message": str(exc)}

    # ---- tool receipts ----------------------------------------------------------------

    async def recorded(self, request_id: str, payload: Any) -> dict[str, Any] | None:
        """The original frame of an exact retry, or None for a new requestId.

        Raises `requestIdReused` for a different payload, `receiptMissing`
        when the operation reached the engine but its frame was never stored
        (a crash in between: observe, then use a new requestId)."""
        digest = payload_hash(payload)
        receipt = self._unsaved.get(request_id)
        entries: list[JournalEntry] = []
        if receipt is None:
            try:
                receipt = await self.store.get_receipt(self.session_id, request_id)
                if receipt is None:
                    entries = await self.store.operation_entries(self.session_id, request_id)
            except StoreError as exc:
                raise SessionError("storageFailed", f"the receipts cannot be read: {exc}") from exc
        if receipt is not None:
            if receipt["payloadHash"] != digest:
                raise SessionError(
                    "requestIdReused",
                    f"requestId {request_id!r} was already used for a different request; "
                    "use a new requestId for a new operation",
                    field="requestId",
                )
            return receipt["frame"]
        if any(entry["state"] == "completed" for entry in entries):
            raise SessionError(
                "receiptMissing",
                f"requestId {request_id!r} reached the engine but its result was not recorded "
                "(the server stopped in between); observe the game to see what happened and "
                "use a new requestId",
                field="requestId",
            )
        if any(entry["state"] == "reserved" for entry in entries):
            raise SessionError(
                "recoveryRequired",
                f"requestId {request_id!r} is still unverified; observe the game first",
                field="requestId",
            )
        return None

    async def put_receipt(
        self, operation_id: str, payload: Any | None, frame: dict[str, Any], *, call: dict[str, Any] | None = None
    ) -> None:
        """Store an operation's frame (the receipt an exact retry returns) and its tool call."""
        receipt = ToolReceipt(
            sessionId=self.session_id,
            requestId=operation_id,
            payloadHash=None if payload is None else payload_hash(payload),
            frame=frame,
            createdAt=time.time(),
        )
        if call is not None:
            receipt["call"] = call

        async def write() -> None:
            await self.store.put_receipt(receipt)
            self._unsaved.pop(operation_id, None)

        held, self._held = self._held, None
        if held is not None:
            await self._complete_with(held, receipt, write)
            return
        try:
            await write()
        except StoreError as exc:
            self._unsaved[operation_id] = receipt
            self._fail("toolReceipt", exc, write, requestId=operation_id)

    async def _complete_with(self, held: Held, receipt: ToolReceipt, write_receipt: Write) -> None:
        """The held completion and the tool receipt in one store transaction.
        OwnershipLost (neither written; that input never counts) is raised
        for the caller to report. Any other failure is one failed `receipt`
        write, kept for retry: the completion (verified if it happened after
        all), then the receipt (again is a no-op), each on its own."""
        try:
            await self.store.complete(
                self.session_id,
                held.seq,
                state="completed",
                receipt=held.receipt,
                completed_at=held.now,
                session_fields=held.fields,
                record=held.record,
                tool_receipt=receipt,
            )
            self._unsaved.pop(receipt["requestId"], None)
        except OwnershipLost as exc:
            self.engine_ahead = True
            raise self._lose(exc) from None
        except StoreError as exc:
            completion = self._completion(held.seq, "completed", held.receipt, held.now, held.fields, held.record)

            async def retry() -> None:
                await completion()
                await write_receipt()

            self._unsaved[receipt["requestId"]] = receipt  # retries are answered meanwhile
            self._fail("receipt", exc, retry, seq=held.seq, requestId=receipt["requestId"])

    async def stored_frame(self, operation_id: str) -> dict[str, Any] | None:
        """An earlier operation's stored frame (None when unknown or unreadable)."""
        receipt = self._unsaved.get(operation_id)
        if receipt is None:
            try:
                receipt = await self.store.get_receipt(self.session_id, operation_id)
            except StoreError:
                return None
        return receipt["frame"] if receipt else None

    # ---- failed writes ----------------------------------------------------------------

    @property
    def pending(self) -> bool:
        return bool(self._pending)

    def _fail(self, operation: str, exc: Exception, retry: Write, **facts: Any) -> None:
        self._pending.append(retry)
        self.fault = {
            "status": "failed",
            "code": "storageFailed",
            "operation": operation,
            "message": f"a {operation} write failed: {exc}; input is blocked until observe makes it durable",
            "durability": self.store.durability,
            "pendingWrites": len(self._pending),
            **facts,
        }

    async def flush(self) -> bool:
        """Retry the failed writes in order; clear the fault when all succeed.
        A journal write refused by the fence is dropped (the game is not this
        session's any more: `lost`); the others still go through."""
        while self._pending:
            try:
                await self._pending[0]()
            except OwnershipLost as exc:
                self._lose(exc)
                self._pending.pop(0)
                continue
            except StoreError as exc:
                assert self.fault is not None
                self.fault.update(
                    message=f"the {self.fault['operation']} write still fails: {exc}", pendingWrites=len(self._pending)
                )
                return False
            self._pending.pop(0)
        if self.fault is not None and self.lost is None:
            self.notes["storage"] = {
                "status": "recovered",
                "operation": self.fault["operation"],
                "message": "the failed writes are now durable; the gate is open",
            }
        self.fault = None
        return True
