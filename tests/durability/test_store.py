"""test_store.py - the store interface's contract, on SQLite and on the in-memory reference.

The browser's IndexedDB implementation must pass the same contract.
"""
from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from nethack_webmcp.store import (
    SCHEMA_VERSION,
    JournalEntry,
    MemoryOwnership,
    MemoryStore,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    ToolReceipt,
)
from nethack_webmcp.store.sqlite import FileOwnership, SqliteStore

pytestmark = pytest.mark.asyncio


def info(session_id: str = "g1", started: float = 100.0) -> SessionInfo:
    create = {"sessionId": session_id, "seed": 42, "name": "Ada", "role": "valkyrie", "race": "human",
              "gender": "female", "alignment": "neutral", "createdAt": 1700000000, "harness_name": "h",
              "model_name": "m", "wizard": False}
    return SessionInfo(sessionId=session_id, create=create, metadata={"seed": 42, "name": "Ada"},
                       createdSummary={"revision": 0, "decision": None, "ended": False, "end": None},
                       profile=1, engineIdentity="native-sha256:x", viewNonce="abc123", startedAt=started,
                       updatedAt=started, endedAt=None, status="active", lastDepth=1, deepestDepth=1)


def entry(seq: int, session_id: str = "g1", operation: str = "op-1") -> JournalEntry:
    request = {"version": 1, "method": "game.wait",
               "params": {"sessionId": session_id, "requestId": f"{operation}.{seq}", "expectedRevision": seq - 1}}
    return JournalEntry(sessionId=session_id, seq=seq, operationId=operation, requestId=f"{operation}.{seq}",
                        method="game.wait", request=request, reservedAt=200.0 + seq, state="reserved",
                        receipt=None, completedAt=None)


def record(session_id: str = "g1", ended: int = 500) -> dict[str, Any]:
    return {"sessionId": session_id, "characterName": "Ada", "harnessName": "h", "modelName": "m",
            "startedAt": 100, "endedAt": ended, "endTimeKind": "observed", "endReason": "quit", "how": "quit",
            "death": "quit", "score": 12, "turns": 30, "lastDepth": 2, "deepestDepth": 3}


@pytest_asyncio.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store = SqliteStore(tmp_path / "games.sqlite3") if request.param == "sqlite" else MemoryStore()
    try:
        yield made
    finally:
        await made.close()


async def test_sessions(store: Store) -> None:
    await store.create_session(info("g1", 100.0))
    await store.create_session(info("g2", 200.0))
    with pytest.raises(StoreConflict):
        await store.create_session(info("g1"))
    assert await store.get_session("g1") == info("g1", 100.0)
    assert await store.get_session("nope") is None
    assert [s["sessionId"] for s in await store.list_sessions()] == ["g2", "g1"]
    await store.update_session("g1", {"status": "ended", "endedAt": 300.0, "lastDepth": 4, "deepestDepth": 5})
    got = await store.get_session("g1")
    assert got is not None and (got["status"], got["endedAt"], got["lastDepth"], got["deepestDepth"]) == \
        ("ended", 300.0, 4, 5)


async def test_journal_is_dense_and_completed_once(store: Store) -> None:
    await store.create_session(info())
    with pytest.raises(StoreConflict):
        await store.reserve(entry(2))  # a gap
    await store.reserve(entry(1))
    with pytest.raises(StoreConflict):
        await store.reserve(entry(1))  # twice
    summary = {"revision": 1, "decision": None, "ended": False, "end": None}
    assert await store.complete("g1", 1, state="completed", receipt=summary, completed_at=201.5,
                                session_fields={"updatedAt": 201.5}) is False
    with pytest.raises(StoreConflict):
        await store.complete("g1", 1, state="completed", receipt=summary, completed_at=202.0)
    await store.reserve(entry(2, operation="op-2"))
    entries = await store.journal("g1")
    assert [(e["seq"], e["state"], e["receipt"]) for e in entries] == [(1, "completed", summary),
                                                                        (2, "reserved", None)]
    assert entries[0]["request"] == entry(1)["request"] and entries[0]["completedAt"] == 201.5
    assert [e["seq"] for e in await store.journal("g1", after_seq=1)] == [2]
    assert [e["seq"] for e in await store.operation_entries("g1", "op-2")] == [2]
    assert (await store.get_session("g1"))["updatedAt"] == 201.5  # type: ignore[index]


async def test_record_is_written_once_with_its_receipt(store: Store) -> None:
    await store.create_session(info())
    await store.reserve(entry(1))
    end = {"how": "quit", "score": 12}
    written = await store.complete("g1", 1, state="completed", receipt={"revision": 1, "decision": None,
                                                                         "ended": True, "end": end},
                                   completed_at=300.0, session_fields={"status": "ended", "endedAt": 300.0},
                                   record=record())  # type: ignore[arg-type]
    assert written is True
    assert await store.put_record(record(ended=999)) is False  # type: ignore[arg-type]
    assert await store.get_record("g1") == record()
    assert await store.recent_records() == [record()]


async def test_receipts(store: Store) -> None:
    await store.create_session(info())
    receipt = ToolReceipt(sessionId="g1", requestId="walk-1", payloadHash="aa", frame={"version": 2},
                          createdAt=1.0)
    await store.put_receipt(receipt)
    await store.put_receipt(receipt)  # identical: a no-op
    with pytest.raises(StoreConflict):
        await store.put_receipt({**receipt, "payloadHash": "bb"})  # type: ignore[typeddict-item]
    assert await store.get_receipt("g1", "walk-1") == receipt
    assert await store.get_receipt("g1", "walk-2") is None
    assert await store.receipts("g1") == [receipt]


async def test_import_is_atomic(store: Store) -> None:
    entries = [entry(1), entry(2)]
    entries[0] = {**entries[0], "state": "completed", "receipt": {"revision": 1}, "completedAt": 1.0}  # type: ignore[typeddict-item]
    await store.import_game(info(), entries, [], record())  # type: ignore[arg-type]
    assert [e["seq"] for e in await store.journal("g1")] == [1, 2]
    with pytest.raises(StoreConflict):
        await store.import_game(info(), entries, [], None)
    with pytest.raises(StoreConflict):
        await store.import_game(info("g2"), [entry(2, "g2")], [], None)  # out of order
    assert await store.get_session("g2") is None, "a refused import writes nothing"


async def test_sqlite_schema_version_and_migrations(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = SqliteStore(path)
    assert first.schema_version == SCHEMA_VERSION
    await first.create_session(info())
    await first.close()
    again = SqliteStore(path)  # reopening migrates nothing and keeps the data
    assert again.schema_version == SCHEMA_VERSION and await again.get_session("g1") is not None
    await again.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="newer"):
        SqliteStore(path)


async def test_closed_store_fails_loudly(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "games.sqlite3")
    await store.close()
    with pytest.raises(StoreError):
        await store.create_session(info())


async def test_file_ownership_is_exclusive(tmp_path: Path) -> None:
    first, second = FileOwnership(tmp_path / "locks"), FileOwnership(tmp_path / "locks")
    lease = await first.acquire("g1")
    assert lease is not None
    assert await second.acquire("g1") is None, "a second opener (even in one process) is refused"
    assert (await second.holder("g1"))["pid"] > 0  # type: ignore[index]
    other = await second.acquire("g2")
    assert other is not None
    await lease.release()
    await lease.release()
    again = await second.acquire("g1")
    assert again is not None
    await again.release()
    await other.release()


async def test_memory_ownership() -> None:
    owners = MemoryOwnership()
    lease = await owners.acquire("g1")
    assert lease is not None and await owners.acquire("g1") is None
    await lease.release()
    assert await owners.acquire("g1") is not None
