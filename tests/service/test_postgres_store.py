"""test_postgres_store.py - the PostgreSQL store passes the very contract SQLite passes
(tests/durability/store_contract.py, fencing included), on a real server, plus its own
schema (migrated once, from schema 4 too) and advisory-lock ownership checks, the fence
against a cut ownership connection, and pooled connections the server ended
(pg_terminate_backend) replaced."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio
from nethack_webmcp.store import OwnershipLost, Store, StoreError
from nethack_webmcp.store.postgres import AdvisoryOwnership, PostgresDialect, PostgresStore, open_postgres
from nethack_webmcp.store.rows import RECORD_COLUMNS, SESSION_COLUMNS, record_values, session_values
from nethack_webmcp.store.schema import SQL_SCHEMA_VERSION, statements

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "durability"))
import store_contract
from store_contract import done, entry, info, record

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def store(database: str) -> AsyncIterator[PostgresStore]:
    made = await PostgresStore.connect(database)
    try:
        yield made
    finally:
        await made.close()


@pytest.mark.parametrize(
    "check",
    [*store_contract.CHECKS, *store_contract.SERVICE_CHECKS],
    ids=lambda check: check.__name__.removeprefix("check_"),
)
async def test_contract(store: Store, check: Callable[[Store], Awaitable[None]]) -> None:
    await check(store)


@pytest.mark.parametrize("check", store_contract.FENCE_CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
async def test_fence_contract(
    store: PostgresStore, database: str, check: Callable[[Store, Store], Awaitable[None]]
) -> None:
    peer = await PostgresStore.connect(database)  # another instance on the same database
    try:
        await check(store, peer)
    finally:
        await peer.close()


async def test_schema_is_migrated_once_and_a_newer_one_refused(database: str) -> None:
    first = await PostgresStore.connect(database)
    await first.create_session(info())
    second = await PostgresStore.connect(database)  # a second instance migrates nothing, keeps the data
    assert await second.schema_version() == SQL_SCHEMA_VERSION
    assert await second.get_session("g1") is not None
    await second.close()
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as raw:
        await raw.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (SQL_SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer"):
        await PostgresStore.connect(database)
    await first.close()


async def test_closed_store_fails_loudly(database: str) -> None:
    store = await PostgresStore.connect(database)
    await store.close()
    with pytest.raises(StoreError):
        await store.create_session(info())


async def test_advisory_ownership_is_exclusive_and_dies_with_its_connection(database: str) -> None:
    first, second = await AdvisoryOwnership.connect(database), await AdvisoryOwnership.connect(database)
    lease = await first.acquire("g1")
    assert lease is not None and not lease.lost
    assert await first.acquire("g1") is None, "a second loader through the same connection is refused"
    assert await second.acquire("g1") is None, "another instance is refused"
    holder = await second.holder("g1")
    assert holder is not None and holder["backendPid"] > 0
    other = await second.acquire("g2")
    assert other is not None
    await lease.release()
    await lease.release()  # idempotent
    again = await second.acquire("g1")
    assert again is not None
    # the owner's connection ends (its process died): PostgreSQL frees every lock it held
    await second.close()
    assert again.lost
    taken = None
    for _ in range(100):  # the server ends the closed connection's backend (and its locks) a moment later
        taken = await first.acquire("g1")
        if taken is not None:
            break
        await asyncio.sleep(0.05)
    assert taken is not None and await first.acquire("g2") is not None
    await first.close()


async def test_unreachable_database_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        await PostgresStore.connect(f"postgresql://nobody@/none?host={tmp_path}&port=1&connect_timeout=2")


async def terminate(database: str, backend_pid: int) -> None:
    """What a database restart, failover or network blip does to one connection."""
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as admin:
        await admin.execute("SELECT pg_terminate_backend(%s)", (backend_pid,))
    for _ in range(100):  # the backend (and its advisory locks) goes a moment later
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as admin:
            row = await (
                await admin.execute("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = %s", (backend_pid,))
            ).fetchone()
        if row is not None and row[0] == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"backend {backend_pid} is still there")


async def test_a_cut_ownership_connection_stops_appends_until_the_game_is_taken_again(database: str) -> None:
    store, owners = await open_postgres(database)
    try:
        lease = await owners.acquire("g1")
        assert lease is not None and lease.fence is not None and lease.fence.backend_pid is not None
        await store.create_session(info())
        await store.reserve(entry(1))
        await terminate(database, lease.fence.backend_pid)
        # nobody else has the game, but the lock is gone: the owner accepts no input
        with pytest.raises(OwnershipLost, match="lock"):
            await store.reserve(entry(2))
        assert lease.lost and [e["seq"] for e in await store.journal("g1")] == [1]
        # the next acquire opens the ownership connection again and claims the game anew
        again = await owners.acquire("g1")
        assert again is not None and again.fence is not None and again.fence.epoch == lease.fence.epoch + 1
        await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
        await store.reserve(entry(2))
        await lease.release()  # the old lease lets go late: the new lock and claim stay
        assert store.fence_of("g1") is again.fence and not again.lost
        await store.complete("g1", 2, state="completed", receipt=done(2), completed_at=202.0)
    finally:
        await owners.close()
        await store.close()


async def test_after_a_cut_connection_another_instance_takes_the_game_and_the_old_owner_writes_nothing(
    database: str,
) -> None:
    store_a, owners_a = await open_postgres(database)
    store_b, owners_b = await open_postgres(database)
    try:
        lease_a = await owners_a.acquire("g1")
        assert lease_a is not None and lease_a.fence is not None and lease_a.fence.backend_pid is not None
        await store_a.create_session(info())
        await store_a.reserve(entry(1))  # an input A is sending when its connection is cut
        assert await owners_b.acquire("g1") is None, "one owner while A's connection lives"
        await terminate(database, lease_a.fence.backend_pid)
        lease_b = await owners_b.acquire("g1")
        assert lease_b is not None
        with pytest.raises(OwnershipLost, match="another owner"):
            await store_a.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
        assert await owners_a.acquire("g1") is None, "A's reopened connection finds B's lock"
        await store_b.complete("g1", 1, state="notApplied", receipt={"reason": "gone"}, completed_at=202.0)
        await store_b.reserve(entry(2, operation="op-b"))
        entries = await store_b.journal("g1")
        assert [(e["seq"], e["state"]) for e in entries] == [(1, "notApplied"), (2, "reserved")]
        holder = await owners_a.holder("g1")
        assert holder is not None and holder["backendPid"] == lease_b.fence.backend_pid  # type: ignore[union-attr]
    finally:
        for closing in (owners_a, owners_b, store_a, store_b):
            await closing.close()


def pooled_pids(store: PostgresStore) -> list[int]:
    dialect = store.dialect
    assert isinstance(dialect, PostgresDialect)
    return sorted(connection.info.backend_pid for connection in dialect.open)


async def test_pooled_connections_the_server_ended_are_replaced(database: str) -> None:
    """A database restart or failover ends every pooled connection; the store's next
    calls (reads and writes) run on new ones, and the dead ones are not used again."""
    store = await PostgresStore.connect(database, pool_size=2)
    try:
        await store.create_session(info())
        before = pooled_pids(store)
        for pid in before:
            await terminate(database, pid)
        assert await store.get_session("g1") is not None  # the very next call works
        await store.reserve(entry(1))  # and the next write
        await store.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
        for _ in range(4):  # every connection in the pool is used again
            assert [e["state"] for e in await store.journal("g1")] == ["completed"]
        after = pooled_pids(store)
        assert len(after) == 2 and not set(after) & set(before), (before, after)
        await terminate(database, after[0])  # one of them ends: writes go on whichever is borrowed
        for seq in (2, 3, 4):
            await store.reserve(entry(seq, operation=f"op-{seq}"))
        assert [e["seq"] for e in await store.journal("g1")] == [1, 2, 3, 4]
    finally:
        await store.close()


async def test_a_schema_4_database_migrates_and_keeps_its_games(database: str) -> None:
    """A database as an instance of schema 4 left it, with a game in it: schema 5 adds
    the latest-receipt index, and the game reads back whole."""
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as raw:
        await raw.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)")
        for number in range(4):
            for statement in statements(number, "postgresql"):
                await raw.execute(statement)
            await raw.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (number + 1,))
        # the session row as schema 4 had it: without schema 6's close mark and schema 7's max level
        old_columns = [column for column in SESSION_COLUMNS if column not in ("closed_at_s", "max_level")]
        old_values = session_values(info())[: len(old_columns)]
        await raw.execute(
            f"INSERT INTO sessions ({', '.join(old_columns)}) VALUES ({', '.join('%s' for _ in old_columns)})",
            old_values,
        )
        old_record = [column for column in RECORD_COLUMNS.values() if column != "max_level"]  # schema 7's
        await raw.execute(
            f"INSERT INTO game_records ({', '.join(old_record)}) VALUES ({', '.join('%s' for _ in old_record)})",
            record_values(record())[: len(old_record)],
        )
        for request_id, created in (("walk-1", 5.0), ("walk-2", 4.0)):
            frame = f'{{"id": "{request_id}"}}'
            await raw.execute("INSERT INTO receipts VALUES ('g1', %s, NULL, %s, %s)", (request_id, frame, created))
    store = await PostgresStore.connect(database)  # schema 4 -> 5 -> 6 -> 7 -> 8
    try:
        assert await store.schema_version() == SQL_SCHEMA_VERSION == 8
        assert await store.get_session("g1") == info() and await store.get_record("g1") == record()
        await store.update_session("g1", {"closedAt": 9.5})  # schema 6: the close mark, kept and cleared
        closed = await store.get_session("g1")
        assert closed is not None and closed["closedAt"] == 9.5
        await store.update_session("g1", {"closedAt": None})
        assert await store.get_session("g1") == info()
        await store.update_session("g1", {"maxLevel": 3})  # schema 7: the highest level, kept
        assert await store.get_session("g1") == {**info(), "maxLevel": 3}
        assert await store.checkpoint_index("g1") == []  # schema 8: persisted engine checkpoints (BYTEA)
        await store.put_checkpoint(store_contract.checkpoint("g1", 0, bytes(range(256))))
        assert await store.get_checkpoint("g1", 0) == store_contract.checkpoint("g1", 0, bytes(range(256)))
        latest = await store.latest_receipt("g1")
        assert latest is not None and latest["frame"] == {"id": "walk-1"}
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as raw:
            row = await (
                await raw.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'receipts_latest_idx'")
            ).fetchone()
        assert row is not None and row[0] == 1
    finally:
        await store.close()
