"""memory.py - the store and ownership kept in this process only (no durability).

Used by hosts that persist nothing (a test registry, a page before its
IndexedDB store is wired) and by the tests as the reference behaviour of
the interface. Values are deep-copied in and out, like a real store; a
write is a transaction like the others (TransactionalStore) whose changes
are undone when it fails. `peer()` is another process's view of the same
data (its own claims): what the fencing contract checks need.
"""

from __future__ import annotations

import contextlib
import copy
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from .base import Lease, Outcome, Ownership, StoreConflict
from .objects import (
    CLOSE_MARK,
    Checkpoint,
    CheckpointIndex,
    GameRecord,
    JournalEntry,
    SessionInfo,
    ToolReceipt,
    index_of,
    latest,
)
from .transaction import TransactionalStore

RECEIPT_LIMIT = 1000  # tool receipts kept per game; the oldest are forgotten first


class MemoryStore(TransactionalStore):
    durability = "memory"

    def __init__(self, receipt_limit: int = RECEIPT_LIMIT) -> None:
        self._sessions: dict[str, SessionInfo] = {}
        self._journal: dict[str, list[JournalEntry]] = {}
        self._receipts: dict[str, OrderedDict[str, ToolReceipt]] = {}
        self._records: dict[str, GameRecord] = {}
        self._control: dict[str, str] = {}
        self._owners: dict[str, int] = {}  # sessionId -> owner epoch
        self._checkpoints: dict[str, dict[int, Checkpoint]] = {}  # sessionId -> move -> checkpoint
        self._receipt_limit = receipt_limit

    def peer(self) -> MemoryStore:
        """The same data seen by another owner: shared tables, its own claims."""
        other = MemoryStore(self._receipt_limit)
        other.__dict__.update(
            {key: value for key, value in self.__dict__.items() if key not in ("_claims", "_receipt_limit")}
        )
        return other

    # ---- persisted engine checkpoints (derived data, never fenced) ----------------------

    async def put_checkpoint(self, checkpoint: Checkpoint) -> None:
        if checkpoint["sessionId"] not in self._sessions:
            raise StoreConflict(f"store checkpoint: no game {checkpoint['sessionId']}")  # the SQL foreign key
        self._checkpoints.setdefault(checkpoint["sessionId"], {})[checkpoint["move"]] = copy.deepcopy(checkpoint)

    async def checkpoint_index(self, session_id: str) -> list[CheckpointIndex]:
        kept = self._checkpoints.get(session_id, {})
        return [index_of(kept[move]) for move in sorted(kept)]

    async def get_checkpoint(self, session_id: str, move: int) -> Checkpoint | None:
        found = self._checkpoints.get(session_id, {}).get(move)
        return copy.deepcopy(found) if found is not None else None

    async def has_checkpoints(self) -> bool:
        return any(self._checkpoints.values())

    async def drop_checkpoints(self, session_id: str, moves: Sequence[int] | None = None) -> None:
        kept = self._checkpoints.get(session_id, {})
        for move in list(kept) if moves is None else moves:
            kept.pop(move, None)

    @contextlib.asynccontextmanager
    async def _transaction(self, what: str) -> AsyncIterator[_MemoryTx]:
        # nothing in a memory transaction awaits anything: no other write interleaves
        tx = _MemoryTx(self)
        try:
            yield tx
        except BaseException:
            for undo in reversed(tx.undo):
                undo()
            raise
        for book in self._receipts.values():
            while len(book) > self._receipt_limit:
                book.popitem(last=False)

    # ---- reads -------------------------------------------------------------------------

    async def get_session(self, session_id: str) -> SessionInfo | None:
        return copy.deepcopy(self._sessions.get(session_id))

    async def list_sessions(self) -> list[SessionInfo]:
        return sorted(
            (copy.deepcopy(s) for s in self._sessions.values()),
            key=lambda s: (s["startedAt"], s["sessionId"]),
            reverse=True,
        )

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        return [copy.deepcopy(e) for e in self._journal.get(session_id, ()) if e["seq"] > after_seq]

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        return [copy.deepcopy(e) for e in self._journal.get(session_id, ()) if e["operationId"] == operation_id]

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        book = self._receipts.get(session_id)
        return copy.deepcopy(book.get(request_id)) if book else None

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        kept = sorted(self._receipts.get(session_id, {}).values(), key=lambda r: (r["createdAt"], r["requestId"]))
        return [copy.deepcopy(r) for r in kept]

    async def latest_receipt(self, session_id: str) -> ToolReceipt | None:
        return copy.deepcopy(latest(list(self._receipts.get(session_id, {}).values())))

    async def recent_receipts(self, session_id: str, limit: int) -> list[ToolReceipt]:
        return (await self.receipts(session_id))[-limit:] if limit > 0 else []

    async def get_record(self, session_id: str) -> GameRecord | None:
        return copy.deepcopy(self._records.get(session_id))

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        ordered = sorted(self._records.values(), key=lambda r: (r["endedAt"], r["sessionId"]), reverse=True)
        return [copy.deepcopy(r) for r in ordered[:limit]]

    async def get_control_hash(self, session_id: str) -> str | None:
        return self._control.get(session_id)


class _MemoryTx:
    """One write's changes to a MemoryStore, each with its undo."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.undo: list[Callable[[], None]] = []

    def _put(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        missing = object()
        before = table.get(key, missing)
        table[key] = value
        self.undo.append(lambda: table.pop(key) if before is missing else table.__setitem__(key, before))

    def _game(self, session_id: str) -> None:
        # what a foreign key does in the SQL stores
        if session_id not in self.store._sessions:
            raise StoreConflict(f"no session {session_id!r}")

    async def lock_session(self, session_id: str) -> bool:
        return session_id in self.store._sessions

    async def insert_session(self, info: SessionInfo) -> None:
        self._put(self.store._sessions, info["sessionId"], copy.deepcopy(info))
        self._put(self.store._journal, info["sessionId"], [])

    async def set_session_fields(self, session_id: str, fields: dict[str, Any]) -> bool:
        info = self.store._sessions.get(session_id)
        if info is None:
            return False
        updated = {**info, **copy.deepcopy(fields)}
        if updated.get(CLOSE_MARK) is None:
            updated.pop(CLOSE_MARK, None)  # a cleared close mark is absent, as in the SQL stores
        self._put(self.store._sessions, session_id, updated)
        return True

    async def owner_epoch(self, session_id: str, lock_pid: int | None) -> tuple[int | None, bool]:
        return self.store._owners.get(session_id), True

    async def bump_epoch(self, session_id: str, holder: dict[str, Any], claimed_at: float) -> int:
        epoch = self.store._owners.get(session_id, 0) + 1
        self._put(self.store._owners, session_id, epoch)
        return epoch

    async def last_seq(self, session_id: str) -> int:
        entries = self.store._journal.get(session_id) or []
        return entries[-1]["seq"] if entries else 0

    async def insert_entry(self, entry: JournalEntry) -> None:
        self._game(entry["sessionId"])
        entries = self.store._journal[entry["sessionId"]]
        entries.append(copy.deepcopy(entry))
        self.undo.append(lambda: entries.remove(entries[-1]))

    async def settle_entry(self, outcome: Outcome) -> bool:
        entries = self.store._journal.get(outcome.session_id) or []
        if not 1 <= outcome.seq <= len(entries) or entries[outcome.seq - 1]["state"] != "reserved":
            return False
        before = entries[outcome.seq - 1]
        entries[outcome.seq - 1] = {
            **before,
            "state": outcome.state,
            "receipt": copy.deepcopy(outcome.receipt),
            "completedAt": outcome.completed_at,
        }
        self.undo.append(lambda: entries.__setitem__(outcome.seq - 1, before))
        return True

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        book = self.store._receipts.get(session_id)
        return copy.deepcopy(book.get(request_id)) if book else None

    async def insert_receipt(self, receipt: ToolReceipt) -> bool:
        self._game(receipt["sessionId"])
        book = self.store._receipts.setdefault(receipt["sessionId"], OrderedDict())
        if receipt["requestId"] in book:
            return False
        self._put(book, receipt["requestId"], copy.deepcopy(receipt))
        return True

    async def insert_record(self, record: GameRecord) -> bool:
        if record["sessionId"] in self.store._records:
            return False
        self._put(self.store._records, record["sessionId"], copy.deepcopy(record))
        return True

    async def insert_control_hash(self, session_id: str, token_hash: str) -> bool:
        if session_id in self.store._control:
            return False
        self._put(self.store._control, session_id, token_hash)
        return True


class _MemoryLease(Lease):
    def __init__(self, owner: MemoryOwnership, session_id: str) -> None:
        self._owner = owner
        self.session_id = session_id
        self._released = False

    async def release(self) -> None:
        if not self._released:
            self._released = True
            if self._owner._held.get(self.session_id) is self:
                del self._owner._held[self.session_id]
            if self.fence is not None and self._owner.store is not None:
                self._owner.store.release_claim(self.fence)


class MemoryOwnership(Ownership):
    """Ownership within one process: the held session IDs (and their claims,
    when bound to a store)."""

    def __init__(self) -> None:
        self._held: dict[str, _MemoryLease] = {}

    async def acquire(self, session_id: str) -> Lease | None:
        held = self._held.get(session_id)
        if held is not None and not held.lost:
            return None
        lease = _MemoryLease(self, session_id)
        self._held[session_id] = lease
        try:
            lease.fence = await self._claim(session_id, {"memory": True})
        except BaseException:
            del self._held[session_id]
            raise
        return lease
