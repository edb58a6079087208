"""memory.py - the store and ownership kept in this process only (no durability).

Used by hosts that persist nothing (a test registry, a page before its
IndexedDB store is wired) and by the tests as the reference behaviour of
the interface. Values are deep-copied in and out, like a real store.
`peer()` is another process's view of the same data (its own claims):
what the fencing contract checks need.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any

from .base import (
    EntryState,
    GameRecord,
    JournalEntry,
    Lease,
    Ownership,
    SessionInfo,
    Store,
    StoreConflict,
    ToolReceipt,
)

RECEIPT_LIMIT = 1000  # tool receipts kept per game; the oldest are forgotten first


class MemoryStore(Store):
    durability = "memory"

    def __init__(self, receipt_limit: int = RECEIPT_LIMIT) -> None:
        self._sessions: dict[str, SessionInfo] = {}
        self._journal: dict[str, list[JournalEntry]] = {}
        self._receipts: dict[str, OrderedDict[str, ToolReceipt]] = {}
        self._records: dict[str, GameRecord] = {}
        self._control: dict[str, str] = {}
        self._owners: dict[str, int] = {}  # sessionId -> owner epoch
        self._receipt_limit = receipt_limit

    def peer(self) -> MemoryStore:
        """The same data seen by another owner: shared tables, its own claims."""
        other = MemoryStore(self._receipt_limit)
        other.__dict__.update(
            {key: value for key, value in self.__dict__.items() if key not in ("_claims", "_receipt_limit")}
        )
        return other

    async def _bump_epoch(self, session_id: str, holder: dict[str, Any]) -> int:
        self._owners[session_id] = self._owners.get(session_id, 0) + 1
        return self._owners[session_id]

    def _fenced(self, session_id: str) -> None:
        fence = self.fence_of(session_id)
        if fence is not None:
            fence.precheck()
            fence.verify(self._owners.get(session_id))

    async def create_session(self, info: SessionInfo) -> None:
        if info["sessionId"] in self._sessions:
            raise StoreConflict(f"session {info['sessionId']!r} exists")
        self._sessions[info["sessionId"]] = copy.deepcopy(info)
        self._journal[info["sessionId"]] = []

    async def get_session(self, session_id: str) -> SessionInfo | None:
        return copy.deepcopy(self._sessions.get(session_id))

    async def list_sessions(self) -> list[SessionInfo]:
        return sorted(
            (copy.deepcopy(s) for s in self._sessions.values()),
            key=lambda s: (s["startedAt"], s["sessionId"]),
            reverse=True,
        )

    async def update_session(self, session_id: str, fields: dict[str, Any]) -> None:
        info = self._sessions.get(session_id)
        if info is None:
            raise StoreConflict(f"no session {session_id!r}")
        info.update(copy.deepcopy(fields))  # type: ignore[typeddict-item]

    async def reserve(self, entry: JournalEntry) -> None:
        self._fenced(entry["sessionId"])
        entries = self._journal.get(entry["sessionId"])
        if entries is None:
            raise StoreConflict(f"no session {entry['sessionId']!r}")
        last = entries[-1]["seq"] if entries else 0
        if entry["seq"] != last + 1:
            raise StoreConflict(f"journal seq {entry['seq']} is not {last + 1}")
        entries.append(copy.deepcopy(entry))

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
    ) -> bool:
        self._fenced(session_id)
        entries = self._journal.get(session_id) or []
        if not 1 <= seq <= len(entries) or entries[seq - 1]["state"] != "reserved":
            raise StoreConflict(f"journal entry {seq} of {session_id!r} is not reserved")
        entry = entries[seq - 1]
        entry["state"], entry["receipt"], entry["completedAt"] = state, copy.deepcopy(receipt), completed_at
        if session_fields:
            await self.update_session(session_id, session_fields)
        if record is not None:
            return await self.put_record(record)
        return False

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        return [copy.deepcopy(e) for e in self._journal.get(session_id, ()) if e["seq"] > after_seq]

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        return [copy.deepcopy(e) for e in self._journal.get(session_id, ()) if e["operationId"] == operation_id]

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        receipts: dict[str, ToolReceipt] = self._receipts.get(session_id, {})
        return copy.deepcopy(receipts.get(request_id))

    async def put_receipt(self, receipt: ToolReceipt) -> None:
        book = self._receipts.setdefault(receipt["sessionId"], OrderedDict())
        existing = book.get(receipt["requestId"])
        if existing is not None:
            if existing["payloadHash"] != receipt["payloadHash"]:
                raise StoreConflict(f"requestId {receipt['requestId']!r} is recorded with another payload")
            return
        book[receipt["requestId"]] = copy.deepcopy(receipt)
        while len(book) > self._receipt_limit:
            book.popitem(last=False)

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        return [copy.deepcopy(r) for r in self._receipts.get(session_id, {}).values()]

    async def put_record(self, record: GameRecord) -> bool:
        if record["sessionId"] in self._records:
            return False
        self._records[record["sessionId"]] = copy.deepcopy(record)
        return True

    async def get_record(self, session_id: str) -> GameRecord | None:
        return copy.deepcopy(self._records.get(session_id))

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        ordered = sorted(self._records.values(), key=lambda r: (r["endedAt"], r["sessionId"]), reverse=True)
        return [copy.deepcopy(r) for r in ordered[:limit]]

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        if session_id not in self._sessions:
            raise StoreConflict(f"no session {session_id!r}")
        if session_id in self._control:
            raise StoreConflict(f"session {session_id!r} has a control token already")
        self._control[session_id] = token_hash

    async def get_control_hash(self, session_id: str) -> str | None:
        return self._control.get(session_id)

    async def import_game(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        if info["sessionId"] in self._sessions:
            raise StoreConflict(f"session {info['sessionId']!r} exists")
        for expected, entry in enumerate(entries, start=1):
            if entry["seq"] != expected or entry["sessionId"] != info["sessionId"]:
                raise StoreConflict(f"journal entry {entry['seq']} is out of order")
        self._sessions[info["sessionId"]] = copy.deepcopy(info)
        self._journal[info["sessionId"]] = [copy.deepcopy(e) for e in entries]
        book = self._receipts.setdefault(info["sessionId"], OrderedDict())
        for receipt in receipts:
            book[receipt["requestId"]] = copy.deepcopy(receipt)
        if record is not None:
            self._records.setdefault(info["sessionId"], copy.deepcopy(record))


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
