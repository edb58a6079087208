"""test_store.py - the store interface's contract, on SQLite and on the in-memory reference.

The contract itself is store_contract.py (plain async checks, no pytest),
so that the browser's IndexedDB implementation runs the very same checks
inside the site's worker (tests/e2e/test_durable_store.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import cast

import pytest
import pytest_asyncio
import store_contract
from nethack_webmcp.store import (
    MemoryOwnership,
    MemoryStore,
    Store,
    StoreError,
)
from nethack_webmcp.store.sqlite import (
    MIGRATIONS,
    NATIVE_SCHEMA_VERSION,
    FileOwnership,
    SqliteStore,
)
from store_contract import info, record

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture(params=["sqlite", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store = SqliteStore(tmp_path / "games.sqlite3") if request.param == "sqlite" else MemoryStore()
    try:
        yield made
    finally:
        await made.close()


@pytest.mark.parametrize("check", store_contract.CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
async def test_contract(store: Store, check: Callable[[Store], Awaitable[None]]) -> None:
    await check(store)


@pytest.mark.parametrize(
    "check", store_contract.SERVICE_CHECKS, ids=lambda check: check.__name__.removeprefix("check_")
)
async def test_service_contract(store: Store, check: Callable[[Store], Awaitable[None]]) -> None:
    await check(store)


@pytest_asyncio.fixture
async def peer(store: Store) -> AsyncIterator[Store]:
    """A second store object on the same data: another process's view, with its own claims."""
    made: Store = SqliteStore(store.path) if isinstance(store, SqliteStore) else cast(MemoryStore, store).peer()
    try:
        yield made
    finally:
        await made.close()


@pytest.mark.parametrize("check", store_contract.FENCE_CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
async def test_fence_contract(store: Store, peer: Store, check: Callable[[Store, Store], Awaitable[None]]) -> None:
    await check(store, peer)


async def test_run_all_runs_every_check_with_peers(tmp_path: Path) -> None:
    """The runner the browser uses: every check, fence checks with a second store on the same data."""
    results = await store_contract.run_all(lambda name: SqliteStore(tmp_path / f"{name}.sqlite3"))
    assert [name for name, _ in results] == [
        check.__name__ for check in [*store_contract.CHECKS, *store_contract.FENCE_CHECKS]
    ]
    assert [error for _, error in results if error] == []


async def test_sqlite_schema_version_and_migrations(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = SqliteStore(path)
    assert first.schema_version == NATIVE_SCHEMA_VERSION
    await first.create_session(info())
    await first.close()
    again = SqliteStore(path)  # reopening migrates nothing and keeps the data
    assert again.schema_version == NATIVE_SCHEMA_VERSION and await again.get_session("g1") is not None
    await again.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.execute(f"PRAGMA user_version={NATIVE_SCHEMA_VERSION + 1}")
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


async def test_a_schema_1_database_migrates_and_its_games_count_as_chosen(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=WAL")
    for statement in MIGRATIONS[0]:
        raw.execute(statement)
    raw.execute("PRAGMA user_version=1")
    raw.commit()
    raw.close()
    store = SqliteStore(path)  # schema 1 -> the current one
    assert store.schema_version == NATIVE_SCHEMA_VERSION
    await store.create_session(info())  # written without a seed choice, as before schema 2
    assert "seedChoice" not in (await store.get_session("g1") or {})
    await store.put_record(record())  # a record written the old way: no seed fields
    assert await store.get_record("g1") == record()
    sealed = {**info("g2"), "seedChoice": "sealed"}
    await store.create_session(sealed)  # type: ignore[arg-type]
    stored = await store.get_session("g2")
    assert stored is not None and stored.get("seedChoice") == "sealed"
    await store.put_record({**record("g2"), "seed": 7, "seedChoice": "sealed"})
    kept = await store.get_record("g2")
    assert kept is not None and kept["seed"] == 7
    await store.close()


async def test_a_schema_2_database_keeps_its_records_through_the_rebuild(tmp_path: Path) -> None:
    """Schema 3 rebuilds game_records (SQLite cannot widen a CHECK): every row survives."""
    path = tmp_path / "games.sqlite3"
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=WAL")
    for statement in MIGRATIONS[0] + MIGRATIONS[1]:
        raw.execute(statement)
    old = {**record("a"), "seed": 3, "seedChoice": "chosen"}
    raw.execute(
        "INSERT INTO game_records (game_id, character_name, harness_name, model_name, started_at_s, "
        "ended_at_s, end_time_kind, end_reason, how, death, score, turns, last_depth, deepest_depth, seed, "
        "seed_choice) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        tuple(old.values()),
    )
    with pytest.raises(sqlite3.IntegrityError):  # schema 2 knows no limit end reasons
        raw.execute("UPDATE game_records SET end_reason = 'idle_timeout'")
    raw.execute("PRAGMA user_version=2")
    raw.commit()
    raw.close()
    store = SqliteStore(path)  # schema 2 -> 3
    assert store.schema_version == NATIVE_SCHEMA_VERSION
    assert await store.get_record("a") == old
    assert await store.put_record({**record("b"), "endReason": "idle_timeout"}) is True
    assert [r["sessionId"] for r in await store.recent_records()] == ["b", "a"]  # same end time: by ID
    await store.close()
