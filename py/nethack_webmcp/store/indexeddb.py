"""indexeddb.py - the browser store: IndexedDB (strict durability) and Web Lock ownership.

Runs only inside Pyodide, in the site's core worker. The worker's
JavaScript (web/src/worker/idb-store.js) publishes `globalThis.nethackStorage`:

    nethackStorage.store                       the durable store (database
                                               "nethack-webmcp-journal")
    await store.call(op, argsJson)             one operation in one transaction
                                               -> '{"ok":true,"value":…}' or
                                                  '{"ok":false,"code":…,"message":…}'
    await nethackStorage.locks.acquire(id, steal)  a lease handle or null
    await nethackStorage.locks.holder(id)      the owner row as JSON text

Every write is one readwrite transaction with `durability: "strict"`,
resolved on `complete`; the schema version is the IndexedDB database
version, migrated by the helper's `onupgradeneeded` list (a newer database
is refused, a blocked upgrade is reported and retried by the next call).
Values cross as JSON text, so conversions happen once on each side and the
stored objects are exactly the interface's JSON dicts.

Ownership is the Web Lock `nethack:session:<id>`, held by the owning
worker while the game is loaded; `steal` takes a game over from a live
owner, whose lease turns `lost` (its lock request rejects with AbortError).
Every write about a game is fenced by the owner token recorded when its
lock was taken, so a stolen game's old owner cannot write even in a race;
the refusal is `OwnershipLost` (code lostOwnership), as in the native
stores. `claim` (the fencing contract checks) records a new owner and its
epoch without a Web Lock.

This module and engine/wasm.py are the only ones in the package that
import `js`/`pyodide`; the imports are inside the functions so that the
module can still be imported (not used) under CPython.
"""

from __future__ import annotations

import json
from typing import Any

from .base import (
    Fence,
    GameRecord,
    JournalEntry,
    Lease,
    Outcome,
    Ownership,
    OwnershipLost,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    ToolReceipt,
)

HOST_GLOBAL = "nethackStorage"


class IndexedDBError(StoreError):
    """A failed IndexedDB operation; `code` says how (quota, aborted, blocked,
    newer, closed, lostOwnership, failed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class IndexedDBOwnershipLost(IndexedDBError, OwnershipLost):
    """The fence refused a write: another owner's token is recorded for the game."""


def _host() -> Any:
    import js  # Pyodide only: the worker's global scope

    host = getattr(js, HOST_GLOBAL, None)
    if host is None:
        raise StoreError(
            f"the worker did not publish globalThis.{HOST_GLOBAL}; the IndexedDB store "
            "runs only inside the site's core worker"
        )
    return host


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _completion_args(o: Outcome) -> list[Any]:
    """The JS helper's `complete` arguments, in order."""
    return [
        o.session_id, o.seq, o.state, o.receipt, o.completed_at, o.session_fields or None, o.record, o.tool_receipt
    ]  # fmt: skip


class IndexedDBStore(Store):
    """The Store interface over IndexedDB. `database` names another database
    than the site's (tests); `extra_migrations` appends no-op migrations, as
    a newer site would (tests of upgrades)."""

    durability = "indexeddb-strict"
    reserves_with_completion = True

    def __init__(self, *, database: str | None = None, extra_migrations: int = 0) -> None:
        self._database = database
        self._extra = extra_migrations
        self._js: Any = None
        self._closed = False

    def _store(self) -> Any:
        if self._js is None:
            host = _host()
            self._js = (
                host.store
                if self._database is None and not self._extra
                else host.openStore(self._database or host.store.name, self._extra)
            )
        return self._js

    async def _call(self, op: str, *args: Any) -> Any:
        if self._closed:
            raise StoreError(f"{op}: the store is closed")
        from pyodide.ffi import JsException

        try:
            text = await self._store().call(op, _dumps(list(args)))
        except JsException as exc:  # the helper never rejects; this is a bug or a dead worker
            raise IndexedDBError("failed", f"IndexedDB {op}: {exc}") from exc
        reply = json.loads(str(text))
        if reply.get("ok"):
            return reply.get("value")
        code, message = reply.get("code", "failed"), reply.get("message", f"IndexedDB {op} failed")
        if code == "conflict":
            raise StoreConflict(message)
        if code == "lostOwnership":
            raise IndexedDBOwnershipLost(code, message)
        raise IndexedDBError(code, message)

    async def _bump_epoch(self, session_id: str, holder: dict[str, Any]) -> int:
        return int(await self._call("claimGame", session_id, holder))

    # ---- writes: the rules a call's arguments decide are Store's (base.py); the ones
    # checked inside the transaction (fence, seq, still reserved) are the JS helper's

    async def create_session(self, info: SessionInfo) -> None:
        await self._call("createSession", info)

    async def _update(self, session_id: str, fields: dict[str, Any]) -> None:
        await self._call("updateSession", session_id, fields)

    async def _append(self, entry: JournalEntry, fence: Fence | None, completing: Outcome | None = None) -> None:
        # the completion (complete's arguments) rides in the reservation's transaction
        await self._call("reserve", entry, None if completing is None else _completion_args(completing))

    async def _settle(self, outcome: Outcome, fence: Fence | None) -> bool:
        return bool(await self._call("complete", *_completion_args(outcome)))

    async def put_receipt(self, receipt: ToolReceipt) -> None:
        await self._call("putReceipt", receipt)

    async def put_record(self, record: GameRecord) -> bool:
        return bool(await self._call("putRecord", record))

    async def _import(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        await self._call("importGame", info, entries, receipts, record)

    # ---- reads --------------------------------------------------------------------------

    async def get_session(self, session_id: str) -> SessionInfo | None:
        return await self._call("getSession", session_id)

    async def list_sessions(self) -> list[SessionInfo]:
        return await self._call("listSessions")

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        return await self._call("journal", session_id, after_seq)

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        return await self._call("operationEntries", session_id, operation_id)

    # ---- tool receipts ------------------------------------------------------------------

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        return await self._call("getReceipt", session_id, request_id)

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        return await self._call("receipts", session_id)

    # ---- records -------------------------------------------------------------------------

    async def get_record(self, session_id: str) -> GameRecord | None:
        return await self._call("getRecord", session_id)

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        return await self._call("recentRecords", limit)

    # ---- the database itself ---------------------------------------------------------------

    async def schema(self) -> dict[str, Any]:
        """{name, version, stores, lastDurability} of the open database (diagnostics, tests)."""
        return await self._call("schema")

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._js is not None and (self._database is not None or self._extra):
                self._js.close()  # a database of its own; the site's store lives as long as the worker


class _WebLockLease(Lease):
    def __init__(self, session_id: str, handle: Any) -> None:
        self.session_id = session_id
        self._handle = handle

    @property
    def lost(self) -> bool:
        return bool(self._handle.lost)

    async def release(self) -> None:
        self._handle.release()


class WebLockOwnership(Ownership):
    """Web Lock `nethack:session:<id>` per game, held by the owning worker
    while the game is loaded. A game whose recorded owner's tab is gone (a
    reload in progress) is waited for briefly instead of being observed."""

    can_steal = True

    async def _acquire(self, session_id: str, steal: bool) -> Lease | None:
        from pyodide.ffi import JsException

        try:
            handle = await _host().locks.acquire(session_id, steal)
        except JsException as exc:
            raise IndexedDBError(
                getattr(exc, "code", None) or "failed", f"the game's Web Lock cannot be taken: {exc}"
            ) from exc
        if handle is None or type(handle).__name__ == "JsNull":  # JS null/undefined: someone else holds it
            return None
        return _WebLockLease(session_id, handle)

    async def acquire(self, session_id: str) -> Lease | None:
        return await self._acquire(session_id, False)

    async def steal(self, session_id: str) -> Lease:
        lease = await self._acquire(session_id, True)
        if lease is None:  # a steal is always granted
            raise IndexedDBError("failed", f"the Web Lock of game {session_id!r} could not be stolen")
        return lease

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        try:
            return json.loads(str(await _host().locks.holder(session_id)))
        except Exception:
            return None
