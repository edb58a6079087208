"""transaction.py - the journal's rules that hold inside one write transaction, written once.

`TransactionalStore` is every Python-side store's writes (memory, SQLite,
PostgreSQL): each write is one transaction (`_transaction`), and the rules
it must check inside it are here, over the few reads and writes a
`StoreTx` offers - so a backend only does I/O:

- a reservation's seq is the game's last seq + 1, and the game exists;
- an entry is completed once: it must still be "reserved";
- a fenced write finds the game's owner epoch still its fence's, and the
  ownership lock still held where the database can see it (PostgreSQL's
  pg_locks); else it writes nothing and raises OwnershipLost;
- a receipt is recorded once: again with the same payload hash it is a
  no-op, with another a StoreConflict (alone, or inside the completion
  it rides with: then the completion is rolled back too);
- a record is inserted once; a control-token hash is kept once, for an
  existing game.

IndexedDB (store.indexeddb) cannot hold a transaction across a Python
await, so its JavaScript checks the same rules inside its own transaction.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from .base import Fence, Outcome, Store, StoreConflict
from .objects import GameRecord, JournalEntry, SessionInfo, ToolReceipt


class StoreTx(Protocol):
    """The reads and writes of one open write transaction."""

    async def lock_session(self, session_id: str) -> bool:
        """Whether the game exists; its row stays locked to the end of the
        transaction where the database locks rows (concurrent reservations
        of one game queue here)."""
        ...

    async def insert_session(self, info: SessionInfo) -> None: ...

    async def set_session_fields(self, session_id: str, fields: dict[str, Any]) -> bool:
        """Set checked fields (possibly none); False when there is no such game."""
        ...

    async def owner_epoch(self, session_id: str, lock_pid: int | None) -> tuple[int | None, bool]:
        """The game's owner epoch (None: no owner row; share-locked where the
        database locks rows, so a claim waits for this transaction), and with
        `lock_pid` whether that backend still holds the game's lock (True
        where the database cannot see locks)."""
        ...

    async def bump_epoch(self, session_id: str, holder: dict[str, Any], claimed_at: float) -> int: ...

    async def last_seq(self, session_id: str) -> int: ...

    async def insert_entry(self, entry: JournalEntry) -> None: ...

    async def settle_entry(self, outcome: Outcome) -> bool:
        """Close the entry if it is still reserved; False when it is not."""
        ...

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None: ...

    async def insert_receipt(self, receipt: ToolReceipt) -> bool:
        """False when the game has a receipt with this requestId already."""
        ...

    async def insert_record(self, record: GameRecord) -> bool:
        """False when the game has a record already."""
        ...

    async def insert_control_hash(self, session_id: str, token_hash: str) -> bool:
        """False when the game has one already."""
        ...


class TransactionalStore(Store):
    """A Store whose every write is one `_transaction` over a StoreTx."""

    reserves_with_completion = True

    @abstractmethod
    def _transaction(self, what: str) -> AbstractAsyncContextManager[StoreTx]:
        """One write transaction: committed when the block ends, rolled back
        (writing nothing) when it raises. Failures are StoreErrors naming `what`."""

    async def create_session(self, info: SessionInfo) -> None:
        async with self._transaction("create session") as tx:
            if await tx.lock_session(info["sessionId"]):
                raise StoreConflict(f"session {info['sessionId']!r} exists")
            await tx.insert_session(info)

    async def _update(self, session_id: str, fields: dict[str, Any]) -> None:
        async with self._transaction("update session") as tx:
            if not await tx.set_session_fields(session_id, fields):
                raise StoreConflict(f"no session {session_id!r}")

    @staticmethod
    async def _verify(tx: StoreTx, fence: Fence | None, *, lock: bool) -> None:
        if fence is not None:
            epoch, held = await tx.owner_epoch(fence.session_id, fence.backend_pid if lock else None)
            fence.verify(epoch, lock_held=held)

    async def _append(self, entry: JournalEntry, fence: Fence | None, completing: Outcome | None = None) -> None:
        session_id = entry["sessionId"]
        async with self._transaction("reserve journal entry") as tx:
            # no input is accepted once the lock is gone, even before anyone else takes the game
            await self._verify(tx, fence, lock=True)
            if not await tx.lock_session(session_id):
                raise StoreConflict(f"no session {session_id!r}")
            if completing is not None:
                await self._close(tx, completing)  # the previous input's completion: one commit for both
            last = await tx.last_seq(session_id)
            if entry["seq"] != last + 1:
                raise StoreConflict(f"journal seq {entry['seq']} of {session_id!r} is not {last + 1}")
            await tx.insert_entry(entry)

    async def _settle(self, outcome: Outcome, fence: Fence | None) -> bool:
        async with self._transaction("complete journal entry") as tx:
            # the epoch only: an input this owner sent is recorded unless another owner claimed the game
            await self._verify(tx, fence, lock=False)
            return await self._close(tx, outcome)

    async def _close(self, tx: StoreTx, outcome: Outcome) -> bool:
        """Close a still-reserved entry inside `tx` (with its fields, record, receipt)."""
        if not await tx.settle_entry(outcome):
            raise StoreConflict(f"journal entry {outcome.seq} of {outcome.session_id!r} is not reserved")
        if outcome.session_fields and not await tx.set_session_fields(outcome.session_id, outcome.session_fields):
            raise StoreConflict(f"no session {outcome.session_id!r}")
        written = await tx.insert_record(outcome.record) if outcome.record is not None else False
        if outcome.tool_receipt is not None:
            await self._record_receipt(tx, outcome.tool_receipt)  # one commit for both
        return written

    async def put_receipt(self, receipt: ToolReceipt) -> None:
        async with self._transaction("record receipt") as tx:
            await self._record_receipt(tx, receipt)

    @staticmethod
    async def _record_receipt(tx: StoreTx, receipt: ToolReceipt) -> None:
        """A receipt is recorded once: again with the same payload hash a no-op, with another a StoreConflict."""
        if await tx.insert_receipt(receipt):
            return
        kept = await tx.get_receipt(receipt["sessionId"], receipt["requestId"])
        if kept is None or kept["payloadHash"] != receipt["payloadHash"]:
            raise StoreConflict(f"requestId {receipt['requestId']!r} is recorded with another payload")

    async def put_record(self, record: GameRecord) -> bool:
        async with self._transaction("record game") as tx:
            return await tx.insert_record(record)

    async def _import(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        async with self._transaction("import game") as tx:
            if await tx.lock_session(info["sessionId"]):
                raise StoreConflict(f"session {info['sessionId']!r} exists")
            await tx.insert_session(info)
            for entry in entries:
                await tx.insert_entry(entry)
            for receipt in receipts:
                if not await tx.insert_receipt(receipt):
                    raise StoreConflict(f"receipt {receipt['requestId']!r} appears twice")
            if record is not None:
                await tx.insert_record(record)

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        async with self._transaction("record control token") as tx:
            if not await tx.lock_session(session_id):
                raise StoreConflict(f"no session {session_id!r}")
            if not await tx.insert_control_hash(session_id, token_hash):
                raise StoreConflict(f"session {session_id!r} has a control token already")

    async def _bump_epoch(self, session_id: str, holder: dict[str, Any]) -> int:
        async with self._transaction("claim game") as tx:
            return await tx.bump_epoch(session_id, holder, time.time())
