"""base.py - the one store interface: sessions, journal, receipts, records, ownership.

Everything a game needs to survive its host lives behind `Store` (durable
data) and `Ownership` (who may advance a game). Natively the store is SQLite
(`store.sqlite`), in the HTTP service PostgreSQL (`store.postgres`), both one
`SqlStore` (`store.sql`) over a dialect; in the browser it is IndexedDB
through the core worker's JS (`store.indexeddb`, web/src/worker/idb-store.js);
`store.memory` keeps everything in the process (tests, hosts without
persistence). All methods are async so the browser implementation can await
JS promises; the values crossing the interface are the JSON objects of
`store.objects`.

The journal's rules are written once. The ones a call's arguments alone
decide are the template methods here (`reserve`, `complete`,
`update_session`, `import_game`): a reservation is "reserved" with no
receipt, `complete` needs a final state, only UPDATABLE_SESSION_FIELDS are
updated, an import is dense; with the fence's bookkeeping (a claim known
lost is refused before any I/O, a refusal marks it lost). The ones that
must be checked inside the write's transaction ("seq is last + 1", "the
entry is still reserved", "the owner epoch is still this claim's") are
`store.transaction.TransactionalStore`'s, for every Python-side store
(memory, SQLite, PostgreSQL); IndexedDB's transactions cannot span a Python
await, so idb-store.js checks those inside its own transaction.

Write semantics every implementation must keep:

- every write is atomic and durable when it returns (SQLite: one
  transaction, WAL, synchronous=FULL; PostgreSQL: one transaction,
  synchronous_commit on; IndexedDB: one readwrite transaction with
  `durability: "strict"`, resolved on `complete`);
- a failed write raises `StoreError` and may or may not have happened;
  callers treat it as unknown and verify by reading back;
- the journal is dense per session: `reserve` accepts only `seq = last + 1`;
- journal writes are fenced: once this store object holds a `Fence` for a
  game (`claim`, taken by the ownership right after its lock), `reserve` and
  `complete` check inside their own transaction that the game's owner epoch
  is still this fence's (and, where the store can see it, that the lock the
  fence rests on is still held); otherwise they write nothing and raise
  `OwnershipLost`. A game nobody claimed through this store is not fenced.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .objects import (
    UPDATABLE_SESSION_FIELDS,
    Checkpoint,
    CheckpointIndex,
    EntryState,
    GameRecord,
    JournalEntry,
    SessionInfo,
    ToolReceipt,
    latest,
)
from .objects import EndReason as EndReason  # re-exported: the older import path of the objects


class StoreError(Exception):
    """A store operation failed. For a write, whether it happened is unknown."""


class StoreConflict(StoreError):
    """A write would break an invariant (duplicate session, journal gap,
    a receipt already recorded with another payload). Nothing was written."""


class OwnershipLost(StoreError):
    """A journal write refused by its fence: another owner claimed the game
    since this process did, or the lock the claim rests on is gone. Nothing
    was written, and retrying cannot help: the game is not this process's to
    advance any more (it is reloaded by replay, by whoever owns it)."""


@dataclass(eq=False)
class Fence:
    """This process's claim on one game: the owner epoch its ownership wrote
    when it took the game's lock. Every later take-over writes a higher
    epoch, so a write that finds another epoch in its own transaction knows
    the game was taken over, however late the old owner hears of it.

    `lock_gone` is the ownership's own check that the lock is still held
    where the process can see it (a flock on a file that is still the lock
    file; a live ownership connection): a reason when it is not.
    `backend_pid` is PostgreSQL's: the ownership connection's server
    process, whose advisory lock the append transaction looks for."""

    session_id: str
    epoch: int
    lock_gone: Callable[[], str | None] | None = None
    backend_pid: int | None = None
    lost: str | None = field(default=None)  # why the claim was found lost; None while it holds

    def lose(self, reason: str) -> OwnershipLost:
        """Mark the claim lost (for good: the lease reports it) and the error to raise."""
        if self.lost is None:
            self.lost = reason
        return OwnershipLost(f"game {self.session_id!r}: {self.lost}; this process writes nothing more for it")

    def precheck(self) -> None:
        """Before a fenced write's transaction reads anything: raise when the
        claim is known lost already (here or by the ownership's own check)."""
        if self.lost is None and self.lock_gone is not None:
            reason = self.lock_gone()
            if reason is not None:
                raise self.lose(reason)
        if self.lost is not None:
            raise self.lose(self.lost)

    def verify(self, stored_epoch: int | None, *, lock_held: bool = True) -> None:
        """Inside the write's transaction: the stored owner epoch must still be
        this claim's, and the lock (where the store can see it) still held."""
        if stored_epoch != self.epoch:
            raise self.lose(
                f"another owner claimed it (owner epoch {stored_epoch}, this process holds {self.epoch})"
                if stored_epoch is not None
                else "its owner record is gone"
            )
        if not lock_held:
            raise self.lose("the ownership lock this process held is gone (its connection ended)")


@dataclass(frozen=True)
class Outcome:
    """How one reserved journal entry ends (`Store.complete`'s arguments)."""

    session_id: str
    seq: int
    state: EntryState
    receipt: dict[str, Any]
    completed_at: float
    session_fields: dict[str, Any]  # set with it, atomically (may be empty)
    record: GameRecord | None  # inserted with it, unless one exists already
    #: the operation's tool receipt, recorded with it (put_receipt's rules): an
    #: acting call's last completion and its receipt are one transaction
    tool_receipt: ToolReceipt | None = None


def check_session_fields(fields: dict[str, Any]) -> None:
    unknown = set(fields) - set(UPDATABLE_SESSION_FIELDS)
    if unknown:
        raise StoreError(f"cannot update session fields {sorted(unknown)}")


class Store(ABC):
    """Durable game data. One instance per process (per database)."""

    #: what `protocol.describe`-style capabilities report: "sqlite-wal-fsync",
    #: "postgresql-commit", "indexeddb-strict", "memory" (no durability)
    durability: str = "memory"
    #: whether `reserve` can write the previous entry's completion in its own
    #: transaction (`completing`); a store that cannot (a wrapper) gets two writes
    reserves_with_completion: bool = False

    # ---- sessions ------------------------------------------------------------------

    @abstractmethod
    async def create_session(self, info: SessionInfo) -> None:
        """Insert a new game. StoreConflict when the sessionId exists."""

    @abstractmethod
    async def get_session(self, session_id: str) -> SessionInfo | None: ...

    @abstractmethod
    async def list_sessions(self) -> list[SessionInfo]:
        """Every stored game, newest first."""

    async def update_session(self, session_id: str, fields: dict[str, Any]) -> None:
        """Set some SessionInfo fields (UPDATABLE_SESSION_FIELDS); StoreError
        for any other, StoreConflict when there is no such game."""
        check_session_fields(fields)
        await self._update(session_id, fields)

    # ---- journal ---------------------------------------------------------------------

    async def reserve(self, entry: JournalEntry, *, completing: Outcome | None = None) -> None:
        """Record a request *before* the engine sees it (state "reserved").
        StoreConflict unless entry.seq is the session's last seq + 1.

        `completing` (stores with `reserves_with_completion`): an earlier
        reserved entry of the same game closed in the same transaction, first,
        by `complete`'s rules (an input's held completion and the next input's
        reservation: one commit). Both are written or neither."""
        if entry["state"] != "reserved" or entry["receipt"] is not None:
            raise StoreConflict("a reservation has state 'reserved' and no receipt")
        if completing is not None:
            if not self.reserves_with_completion:
                raise StoreError("this store writes a completion on its own (Store.complete)")
            if completing.session_id != entry["sessionId"] or completing.seq >= entry["seq"]:
                raise StoreConflict("a reservation carries the completion of an earlier entry of its own game only")
            self.check_outcome(completing)
        async with self._fenced(entry["sessionId"]) as fence:
            await self._append(entry, fence, completing)

    @staticmethod
    def check_outcome(outcome: Outcome) -> None:
        """complete's argument rules (StoreConflict / StoreError when broken)."""
        if outcome.state == "reserved":
            raise StoreConflict("complete needs a final state")
        if outcome.tool_receipt is not None and outcome.tool_receipt["sessionId"] != outcome.session_id:
            raise StoreConflict("a completion carries a receipt of its own game only")
        check_session_fields(outcome.session_fields)

    async def complete(
        self,
        session_id: str,
        seq: int,
        *,
        state: EntryState,
        receipt: dict[str, Any],
        completed_at: float,
        session_fields: dict[str, Any] | None = None,
        record: GameRecord | None = None,
        tool_receipt: ToolReceipt | None = None,
    ) -> bool:
        """Close a reservation, atomically with optional session field updates,
        an optional game record (inserted only if none exists yet) and an
        optional tool receipt of the same game (as `put_receipt` records it:
        the same one again is a no-op, another payload under its requestId a
        StoreConflict that writes nothing). Returns True when `record` was
        written by this call. StoreConflict when the entry is not "reserved"."""
        outcome = Outcome(
            session_id, seq, state, receipt, completed_at, dict(session_fields or {}), record, tool_receipt
        )
        self.check_outcome(outcome)
        async with self._fenced(session_id) as fence:
            return await self._settle(outcome, fence)

    @abstractmethod
    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        """Entries with seq > after_seq, in order."""

    @abstractmethod
    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        """The journal entries of one tool operation, in order."""

    # ---- tool receipts ------------------------------------------------------------

    @abstractmethod
    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None: ...

    @abstractmethod
    async def put_receipt(self, receipt: ToolReceipt) -> None:
        """Record an operation's frame. Writing the identical receipt again is a
        no-op; a different payload hash under the same requestId is StoreConflict."""

    @abstractmethod
    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        """Every tool receipt of a game (export), oldest first."""

    async def latest_receipt(self, session_id: str) -> ToolReceipt | None:
        """The game's latest receipt (greatest createdAt, then requestId), or
        None: what a read that loads no game shows. Stores that can, read only it."""
        return latest(await self.receipts(session_id))

    async def recent_receipts(self, session_id: str, limit: int) -> list[ToolReceipt]:
        """The game's last `limit` receipts (by createdAt, then requestId),
        oldest first: a loaded-nowhere game's recent history, for spectators.
        Stores that can, read only those rows."""
        return (await self.receipts(session_id))[-limit:] if limit > 0 else []

    # ---- records ----------------------------------------------------------------------

    @abstractmethod
    async def put_record(self, record: GameRecord) -> bool:
        """Insert a finished game's record once; False when one exists already."""

    @abstractmethod
    async def get_record(self, session_id: str) -> GameRecord | None: ...

    @abstractmethod
    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        """The latest finished games, by endedAt then sessionId, newest first."""

    # ---- exchange -------------------------------------------------------------------

    async def import_game(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        """Insert a whole exported game in one transaction. StoreConflict when
        the sessionId exists or the journal is not 1, 2, 3, ... of this game."""
        for expected, entry in enumerate(entries, start=1):
            if entry["seq"] != expected or entry["sessionId"] != info["sessionId"]:
                raise StoreConflict(f"journal entry {entry['seq']} is out of order")
        await self._import(info, entries, [{**r, "sessionId": info["sessionId"]} for r in receipts], record)

    # ---- control tokens (the HTTP service) ------------------------------------------

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        """Keep the hash of a game's control token (never the token), once per
        game: StoreConflict when one is kept already. Optional: stores of hosts
        without an HTTP service (the browser) keep none."""
        raise StoreError("this store keeps no control tokens")

    async def get_control_hash(self, session_id: str) -> str | None:
        """The hash kept for a game's control token, if any."""
        return None

    # ---- persisted engine checkpoints (derived data: docs/REPLAY.md) ---------------------
    # Not journal data: never fenced, exported or imported; a lost or refused
    # one is rebuilt by a verified replay. Optional: the browser keeps its own
    # (web/src/worker/checkpoint-store.js), so its store keeps none.

    async def put_checkpoint(self, checkpoint: Checkpoint) -> None:
        """Keep `checkpoint`, replacing one kept at the same (game, move)."""
        raise StoreError("this store keeps no checkpoints")

    async def checkpoint_index(self, session_id: str) -> list[CheckpointIndex]:
        """What every checkpoint kept for a game claims (no bytes), by move."""
        return []

    async def get_checkpoint(self, session_id: str, move: int) -> Checkpoint | None:
        """The checkpoint kept at (game, move), bytes and all."""
        return None

    async def has_checkpoints(self) -> bool:
        """Whether any game has a checkpoint kept (a host at boot: is a resume likely to use one)."""
        return False

    async def drop_checkpoints(self, session_id: str, moves: Sequence[int] | None = None) -> None:  # noqa: B027
        """Forget a game's checkpoints at `moves` (all of them when None)."""

    async def close(self) -> None:  # noqa: B027  (optional: a store may hold nothing to release)
        """Release the store's resources. Idempotent."""

    # ---- the writes behind the templates: one atomic write each -------------------------
    # Not abstract: a store that wraps another (the tests' fault injection)
    # overrides the public methods instead and never reaches these.

    async def _update(self, session_id: str, fields: dict[str, Any]) -> None:
        """Set checked fields of an existing game (StoreConflict: no such game)."""
        raise NotImplementedError

    async def _append(self, entry: JournalEntry, fence: Fence | None, completing: Outcome | None = None) -> None:
        """Insert a checked reservation: inside the write, `fence` (if any) still
        holds and entry.seq is the last + 1 (else OwnershipLost / StoreConflict);
        `completing` (checked) is settled first in the same write, as `_settle` would."""
        raise NotImplementedError

    async def _settle(self, outcome: Outcome, fence: Fence | None) -> bool:
        """Close a reserved entry: inside the write, `fence` still holds (its
        epoch) and the entry is still reserved; True when the record was written."""
        raise NotImplementedError

    async def _import(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        """Insert a checked export (dense journal, receipts of this game)."""
        raise NotImplementedError

    # ---- fencing: who may append to a game's journal --------------------------------

    @contextlib.asynccontextmanager
    async def _fenced(self, session_id: str) -> AsyncIterator[Fence | None]:
        """Around a journal write: its fence (if this store claimed the game),
        refused at once when known lost; a refusal inside the write marks it lost."""
        fence = self.fence_of(session_id)
        if fence is not None:
            fence.precheck()
        try:
            yield fence
        except OwnershipLost as exc:
            if fence is not None:
                fence.lose(str(exc))
            raise

    async def _bump_epoch(self, session_id: str, holder: dict[str, Any]) -> int | None:
        """Raise the game's owner epoch by one in one durable write (creating
        its owner record at 1); the new epoch. `holder` is diagnostics. A store
        that keeps no owner epochs returns None (its games are not fenced)."""
        return None

    async def claim(self, session_id: str, holder: dict[str, Any] | None = None) -> Fence | None:
        """Record a new owner of `session_id` (call right after taking its
        lock, before reading its journal) and fence this store object's journal
        writes about it with the new epoch; None when this store keeps no
        epochs. Raises StoreError."""
        epoch = await self._bump_epoch(session_id, holder or {})
        if epoch is None:
            return None
        fence = Fence(session_id, epoch)
        self._fences()[session_id] = fence
        return fence

    def release_claim(self, fence: Fence) -> None:
        """Stop fencing with `fence` (its lease was released); a newer claim stays."""
        fences = self._fences()
        if fences.get(fence.session_id) is fence:
            del fences[fence.session_id]

    def fence_of(self, session_id: str) -> Fence | None:
        """The claim this store object fences `session_id`'s journal writes with, if any."""
        return self._fences().get(session_id)

    def _fences(self) -> dict[str, Fence]:
        # per store object (one process's view), created on first use: stores have no common __init__
        fences: dict[str, Fence] = vars(self).setdefault("_claims", {})
        return fences


class Lease(ABC):
    """Exclusive ownership of one game, held while it is loaded."""

    session_id: str
    fence: Fence | None = None  # the store claim taken with the lock (when the ownership is bound to a store)

    def lock_gone(self) -> str | None:
        """Why the lock this lease rests on no longer guards the game, where
        the process can see it (a deleted lock file, an ended ownership
        connection); None while it holds, once released, or where it cannot tell."""
        return None

    @property
    def lost(self) -> bool:
        """True when the game is no longer this process's: another owner took
        it over (browser Web Lock steal), a fenced write found another owner's
        epoch, or the lock is known gone."""
        if self.lock_gone() is not None:
            return True
        fence = self.fence
        if fence is None:
            return False
        if fence.lost is None and fence.lock_gone is not None:
            reason = fence.lock_gone()
            if reason is not None:
                fence.lose(reason)
        return fence.lost is not None

    @abstractmethod
    async def release(self) -> None:
        """Give the game up. Idempotent."""


class Ownership(ABC):
    """Who may advance which game. Natively a per-session file lock, in the
    browser the Web Lock `nethack:session:<id>`, in the service a PostgreSQL
    advisory lock.

    A lock alone cannot stop an owner that has lost it without noticing (a
    cut database connection, a deleted lock file): bound to the store
    (`bind`), every acquire also claims the game in the store (a new owner
    epoch), and the store refuses the old owner's journal writes."""

    store: Store | None = None

    def bind(self, store: Store) -> None:
        """Claim every game this ownership takes in `store` (fenced journal writes)."""
        self.store = store

    async def _claim(self, session_id: str, holder: dict[str, Any]) -> Fence | None:
        return await self.store.claim(session_id, holder) if self.store is not None else None

    @abstractmethod
    async def acquire(self, session_id: str) -> Lease | None:
        """Take the game if nobody holds it; None when another owner does."""

    async def steal(self, session_id: str) -> Lease:
        """Take the game over from a live owner, whose lease turns `lost`
        (browser: Web Lock `steal`). Hosts whose locks cannot be stolen
        (flock) raise NotImplementedError: there the owner hands over by closing."""
        raise NotImplementedError("this host cannot take a game over from a live owner")

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        """What is known about the current holder (for diagnostics), if anything."""
        return None
