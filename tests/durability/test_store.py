"""test_store.py - the store interface's contract, on SQLite and on the in-memory reference;
SQLite's schema migrations from every older version.

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
    StoreConflict,
    StoreError,
)
from nethack_webmcp.store.schema import SQL_SCHEMA_VERSION, statements
from nethack_webmcp.store.sqlite import FileOwnership, SqliteStore
from store_contract import done, entry, info, record

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
    assert await first.schema_version() == SQL_SCHEMA_VERSION
    await first.create_session(info())
    await first.close()
    again = SqliteStore(path)  # reopening migrates nothing and keeps the data
    assert await again.schema_version() == SQL_SCHEMA_VERSION and await again.get_session("g1") is not None
    await again.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.execute(f"PRAGMA user_version={SQL_SCHEMA_VERSION + 1}")
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
    for statement in statements(0, "sqlite"):
        raw.execute(statement)
    raw.execute("PRAGMA user_version=1")
    raw.commit()
    raw.close()
    store = SqliteStore(path)  # schema 1 -> the current one
    assert await store.schema_version() == SQL_SCHEMA_VERSION
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
    for statement in statements(0, "sqlite") + statements(1, "sqlite"):
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
    assert await store.schema_version() == SQL_SCHEMA_VERSION
    assert await store.get_record("a") == old
    assert await store.put_record({**record("b"), "endReason": "idle_timeout"}) is True
    assert [r["sessionId"] for r in await store.recent_records()] == ["b", "a"]  # same end time: by ID
    await store.close()


def schema_at(path: Path, version: int) -> sqlite3.Connection:
    """A database as a program of schema `version` left it (WAL, user_version)."""
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("PRAGMA foreign_keys=ON")
    for number in range(version):
        for statement in statements(number, "sqlite"):
            raw.execute(statement)
    raw.execute(f"PRAGMA user_version={version}")
    raw.commit()
    return raw


def copy_rows(raw: sqlite3.Connection, tables: tuple[str, ...]) -> None:
    """Copy the attached scratch database's rows into an older schema's tables (its columns only)."""
    for table in tables:
        columns = ", ".join(row[1] for row in raw.execute(f"PRAGMA main.table_info({table})"))
        raw.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM scratch.{table}")


async def one_game_at(tmp_path: Path, path: Path, version: int) -> sqlite3.Connection:
    """`path` at schema `version` holding one game's session and journal rows, as a program of
    that schema wrote them (made by today's store in a scratch database, then copied column by
    column); the scratch database stays attached for the caller's own rows."""
    old = SqliteStore(tmp_path / "scratch.sqlite3")
    await old.create_session(info())
    await old.reserve(entry(1))
    await old.complete("g1", 1, state="completed", receipt=done(1), completed_at=201.0)
    await old.close()
    raw = schema_at(path, version)
    raw.execute("ATTACH DATABASE ? AS scratch", (str(tmp_path / "scratch.sqlite3"),))
    copy_rows(raw, ("sessions", "journal"))
    return raw


async def test_a_schema_4_database_migrates_and_its_games_go_on(tmp_path: Path) -> None:
    """Schema 5 adds the latest-receipt index: a game written under schema 4 keeps its
    journal, receipts and owner epoch, and goes on (fenced) under the new one."""
    path = tmp_path / "games.sqlite3"
    raw = await one_game_at(tmp_path, path, 4)
    for request_id, created in (("walk-1", 5.0), ("walk-2", 7.0), ("walk-0", 6.0)):
        raw.execute(
            "INSERT INTO receipts VALUES ('g1', ?, NULL, ?, ?)", (request_id, f'{{"id":"{request_id}"}}', created)
        )
    raw.execute("INSERT INTO owners VALUES ('g1', 3, '{}', 1.0)")
    raw.commit()
    indexes = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "receipts_latest_idx" not in indexes
    raw.close()
    store = SqliteStore(path)  # schema 4 -> 5
    assert await store.schema_version() == SQL_SCHEMA_VERSION
    assert [e["state"] for e in await store.journal("g1")] == ["completed"]
    latest = await store.latest_receipt("g1")
    assert latest is not None and latest["frame"] == {"id": "walk-2"}
    assert [r["requestId"] for r in await store.receipts("g1")] == ["walk-1", "walk-0", "walk-2"]
    fence = await store.claim("g1")
    assert fence is not None and fence.epoch == 4, "the owner epoch goes on from the stored one"
    await store.reserve(entry(2, operation="op-2"))
    await store.close()
    with sqlite3.connect(path) as raw:
        plan = " ".join(
            str(row[-1])
            for row in raw.execute(
                "EXPLAIN QUERY PLAN SELECT * FROM receipts WHERE session_id = 'g1' "
                "ORDER BY created_at_s DESC, request_id DESC LIMIT 1"
            )
        )
    assert "receipts_latest_idx" in plan and "TEMP B-TREE" not in plan, plan


async def test_a_failed_write_writes_nothing_on_the_memory_store_too() -> None:
    """The memory store's writes are transactions like the others: a refused
    complete (its session fields name no game any more) leaves the entry reserved."""
    store = MemoryStore()
    await store.create_session(info())
    await store.reserve(entry(1))
    del store._sessions["g1"]  # the game's row is gone (what a foreign key would catch)
    with pytest.raises(StoreConflict):
        await store.complete(
            "g1", 1, state="completed", receipt=done(1), completed_at=2.0, session_fields={"updatedAt": 2.0}
        )
    assert [(e["state"], e["receipt"]) for e in await store.journal("g1")] == [("reserved", None)]


async def test_a_schema_5_database_migrates_and_its_games_are_open(tmp_path: Path) -> None:
    """Schema 6 adds the close mark (sessions.closed_at_s): every game stored
    under schema 5 is open (no mark), can be closed and reopened durably, and
    its journal goes on; a schema 5 program would refuse the database now."""
    path = tmp_path / "games.sqlite3"
    raw = await one_game_at(tmp_path, path, 5)
    raw.commit()
    assert "closed_at_s" not in {row[1] for row in raw.execute("PRAGMA main.table_info(sessions)")}
    raw.close()
    store = SqliteStore(path)  # schema 5 -> 6
    assert await store.schema_version() == SQL_SCHEMA_VERSION
    opened = await store.get_session("g1")
    assert opened == info() and "closedAt" not in opened, "a game from before schema 6 is open"
    await store.update_session("g1", {"closedAt": 300.5})
    await store.close()
    again = SqliteStore(path)  # another process on the same file sees the mark
    closed = await again.get_session("g1")
    assert closed is not None and closed["closedAt"] == 300.5
    await again.update_session("g1", {"closedAt": None})
    reopened = await again.get_session("g1")
    assert reopened == info()
    await again.reserve(entry(2, operation="op-2"))
    assert [e["seq"] for e in await again.journal("g1")] == [1, 2]
    await again.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SQL_SCHEMA_VERSION


async def test_a_schema_6_database_migrates_and_keeps_the_highest_level(tmp_path: Path) -> None:
    """Schema 7 adds the highest experience level (sessions.max_level, game_records.max_level):
    a game and a record stored under schema 6 read back without one (NULL is absent, not 0),
    the game's maximum is then set and kept across processes, and a new record keeps its own."""
    scratch = SqliteStore(tmp_path / "scratch.sqlite3")
    await scratch.put_record(record("old"))
    await scratch.close()
    path = tmp_path / "games.sqlite3"
    raw = await one_game_at(tmp_path, path, 6)
    copy_rows(raw, ("game_records",))
    raw.commit()
    assert "max_level" not in {row[1] for row in raw.execute("PRAGMA main.table_info(game_records)")}
    raw.close()
    store = SqliteStore(path)  # schema 6 -> 7
    assert await store.schema_version() == SQL_SCHEMA_VERSION
    assert await store.get_session("g1") == info(), "a game from before schema 7 has no maxLevel"
    assert await store.get_record("old") == record("old")
    await store.update_session("g1", {"maxLevel": 4})
    assert await store.put_record({**record("new"), "maxLevel": 4}) is True
    await store.close()
    again = SqliteStore(path)  # another process on the same file
    assert await again.get_session("g1") == {**info(), "maxLevel": 4}
    new = await again.get_record("new")
    assert new is not None and new["maxLevel"] == 4
    await again.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SQL_SCHEMA_VERSION


async def test_a_schema_7_database_migrates_and_keeps_checkpoints(tmp_path: Path) -> None:
    """Schema 8 adds the persisted engine checkpoints (derived data beside the journal): a game
    stored under schema 7 reads back unchanged with none, then keeps them across processes, and
    its journal goes on."""
    path = tmp_path / "games.sqlite3"
    raw = await one_game_at(tmp_path, path, 7)
    raw.commit()
    assert "checkpoints" not in {row[0] for row in raw.execute("SELECT name FROM main.sqlite_master")}
    raw.close()
    store = SqliteStore(path)  # schema 7 -> 8
    assert await store.schema_version() == SQL_SCHEMA_VERSION == 8
    assert await store.get_session("g1") == info() and await store.checkpoint_index("g1") == []
    await store.put_checkpoint(store_contract.checkpoint("g1", 1, b"\x00\x01", b"nav"))
    await store.close()
    again = SqliteStore(path)  # another process on the same file
    assert await again.get_checkpoint("g1", 1) == store_contract.checkpoint("g1", 1, b"\x00\x01", b"nav")
    await again.reserve(entry(2, operation="op-2"))
    assert [e["seq"] for e in await again.journal("g1")] == [1, 2]
    await again.close()
