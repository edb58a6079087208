"""test_postgres_store.py - the PostgreSQL store passes the very contract SQLite passes
(tests/durability/store_contract.py), on a real server, plus its own schema and
advisory-lock ownership checks."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import psycopg
import pytest
import pytest_asyncio
from nethack_webmcp.store import Store, StoreError
from nethack_webmcp.store.postgres import AdvisoryOwnership, PostgresStore
from nethack_webmcp.store.sqlite import NATIVE_SCHEMA_VERSION

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "durability"))
import store_contract
from store_contract import info

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


async def test_schema_is_migrated_once_and_a_newer_one_refused(database: str) -> None:
    first = await PostgresStore.connect(database)
    await first.create_session(info())
    second = await PostgresStore.connect(database)  # a second instance migrates nothing, keeps the data
    assert await second.schema_version() == NATIVE_SCHEMA_VERSION
    assert await second.get_session("g1") is not None
    await second.close()
    async with await psycopg.AsyncConnection.connect(database, autocommit=True) as raw:
        await raw.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (NATIVE_SCHEMA_VERSION + 1,))
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
