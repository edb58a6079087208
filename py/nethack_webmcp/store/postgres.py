"""postgres.py - the shared store: SqlStore on PostgreSQL (psycopg 3), and advisory-lock ownership.

Several server processes, on one machine or many, share one database: any
of them can take any game, because a game resumes by replaying its journal.
`PostgresStore` is the same SqlStore as SQLite's (the same tables, the same
statements, the same contract tests) over `PostgresDialect`;
`AdvisoryOwnership` plays the role flock plays natively: the owner of a game
holds the session-level advisory lock `pg_try_advisory_lock(key(sessionId))`
on its ownership connection. PostgreSQL drops the lock when that connection
ends - the owner closing the game, or dying (even by SIGKILL: the kernel
closes its socket) - so a crashed instance never blocks another from
resuming its games.

The lock also goes when only the connection ends while the instance lives
(a database restart, a failover, a proxy or network blip,
`pg_terminate_backend`), and nothing tells the instance. So taking a lock
also raises the game's owner epoch (table `owners`), and the journal writes
are fenced: `reserve` checks, in its own transaction, that the epoch is
still this instance's and that the ownership connection's backend still
holds the advisory lock (pg_locks: the dialect's `owner_query`); `complete`
checks the epoch. An owner whose lock went unnoticed accepts no input
(`lostOwnership`), and once another instance has taken the game, nothing the
old owner sent can land. The ownership connection is opened again on the
next acquire.

Each write is one transaction (PostgreSQL commits durably with its default
`synchronous_commit=on`); rows a write depends on are locked (`FOR UPDATE`
on the game's session row orders concurrent reservations of one game, `FOR
SHARE` on its owner row makes a claim wait for the write, or the write see
the claim). A store holds a few connections (POOL_SIZE); each transaction
borrows one for its duration, so the games of one process commit side by
side rather than queueing behind one another's fsync. A pooled connection
that has died (the server restarted, `pg_terminate_backend`) is replaced:
when it is borrowed if it is known closed, and when a call's first
statement finds it dead (nothing was done yet, so the statement runs again
on the new one). Schema versions are rows of `schema_migrations`, applied
under a transaction-level advisory lock so instances starting together
migrate once. Native only: never imported in the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

import psycopg
from psycopg.rows import dict_row

from .base import Lease, Ownership, StoreError
from .sql import Dialect, Result, SqlStore

# the transaction-level advisory lock that serializes migrations (an arbitrary constant)
MIGRATION_LOCK = 0x4E4E_4D49_4752
POOL_SIZE = 4  # connections per store: concurrent transactions of one process
APPLICATION = "nethack-webmcp"

Connection = psycopg.AsyncConnection[dict[str, Any]]


def advisory_key(session_id: str) -> str:
    """The lock key's SQL source text: a 64-bit hash of the namespaced ID (computed by the server)."""
    return f"nethack:session:{session_id}"


#: the pg_locks rows (l) of a game's session-level advisory lock (its bigint key shows
#: as classid = high half, objid = low half, objsubid = 1) in this database; params: key, key
ADVISORY_LOCK = (
    "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid::bigint = (hashtextextended(?, 0) >> 32) & 4294967295 "
    "AND l.objid::bigint = hashtextextended(?, 0) & 4294967295"
)


@lru_cache(maxsize=256)
def pyformat(sql: str) -> str:
    """`?` placeholders as psycopg's `%s` (the statements hold no literal ? or %)."""
    assert "%" not in sql, sql
    return sql.replace("?", "%s")


def dead(db: Connection) -> bool:
    return db.closed or db.broken


async def connect(conninfo: str, label: str = APPLICATION) -> Connection:
    return await psycopg.AsyncConnection.connect(
        conninfo, autocommit=True, row_factory=dict_row, application_name=label[:63]
    )


class PostgresDialect(Dialect):
    """A pool of autocommit connections; writes BEGIN on a borrowed one."""

    name = "postgresql"
    row_lock = " FOR UPDATE"
    share_lock = " FOR SHARE OF owners"
    integrity_error: ClassVar[type[Exception]] = psycopg.errors.IntegrityError
    error: ClassVar[type[Exception]] = psycopg.Error
    version_query = "SELECT coalesce(max(version), 0) AS v FROM schema_migrations"

    def __init__(self, conninfo: str, connections: list[Connection]) -> None:
        self.conninfo = conninfo
        self.open = set(connections)  # every connection this pool made and has not closed
        self._free: asyncio.Queue[Connection] = asyncio.Queue()
        for connection in connections:
            self._free.put_nowait(connection)

    async def _replace(self, db: Connection) -> Connection:
        """A new connection in the place of a dead one (the old one is closed and forgotten)."""
        self.open.discard(db)
        with contextlib.suppress(psycopg.Error):
            await db.close()
        fresh = await connect(self.conninfo)
        self.open.add(fresh)
        return fresh

    async def acquire(self) -> Connection:
        db = await self._free.get()
        if dead(db):
            try:
                db = await self._replace(db)
            except BaseException:
                self._free.put_nowait(db)  # still dead: the next borrower tries again
                raise
        return db

    def release(self, db: Any) -> None:
        self._free.put_nowait(db)

    async def run(self, db: Connection, sql: str, params: Sequence[Any]) -> Result:
        cursor = await db.execute(pyformat(sql), tuple(params))
        rows = await cursor.fetchall() if cursor.description is not None else []
        return Result(rows, cursor.rowcount)

    async def recover(self, db: Any, failure: Exception) -> Connection | None:
        # a connection the server ended shows only when used: psycopg then marks it broken
        return await self._replace(db) if isinstance(failure, psycopg.OperationalError) and dead(db) else None

    def begin(self) -> str:
        return "BEGIN"

    def migration_prologue(self) -> list[str]:
        return [
            f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})",
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
        ]

    def set_version(self, version: int) -> tuple[str, tuple[Any, ...]]:
        return "INSERT INTO schema_migrations (version) VALUES (?)", (version,)

    def owner_query(self, session_id: str, lock_pid: int | None) -> tuple[str, tuple[Any, ...]]:
        if lock_pid is None:
            return "SELECT epoch, TRUE AS held FROM owners WHERE session_id = ?", (session_id,)
        key = advisory_key(session_id)
        held = f"EXISTS (SELECT 1 FROM pg_locks l WHERE {ADVISORY_LOCK} AND l.pid = ?)"
        return f"SELECT epoch, {held} AS held FROM owners WHERE session_id = ?", (key, key, lock_pid, session_id)

    async def close(self) -> None:
        for connection in list(self.open):
            with contextlib.suppress(psycopg.Error):
                await connection.close()
        self.open.clear()


class PostgresStore(SqlStore):
    durability = "postgresql-commit"

    def __init__(self, conninfo: str, connections: list[Connection]) -> None:
        self.conninfo = conninfo
        super().__init__(PostgresDialect(conninfo, connections))

    @classmethod
    async def connect(cls, conninfo: str, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Open the database and migrate it. Raises StoreError."""
        connections: list[Connection] = []
        try:
            for _ in range(pool_size):
                connections.append(await connect(conninfo))
            store = cls(conninfo, connections)
            await store._migrate()
        except BaseException as exc:
            for connection in connections:
                await connection.close()
            if isinstance(exc, psycopg.Error):
                raise StoreError(f"cannot connect to the game database: {exc}") from exc
            raise
        return store


# ---- ownership: one advisory lock per game, on one connection per process ---------------


class _AdvisoryLease(Lease):
    def __init__(self, owner: AdvisoryOwnership, session_id: str, connection: Connection) -> None:
        self.session_id = session_id
        self._owner: AdvisoryOwnership | None = owner
        self.connection: Connection | None = connection  # the one whose session holds the lock

    def lock_gone(self) -> str | None:
        db = self.connection
        if db is None:
            return None  # released
        if db.closed or db.broken:
            return "its ownership connection to PostgreSQL ended, and the advisory lock with it"
        return None

    async def release(self) -> None:
        owner, self._owner = self._owner, None
        if owner is not None:
            await owner._release(self)


class AdvisoryOwnership(Ownership):
    """Session-level advisory locks, all held on this object's one connection.

    PostgreSQL's advisory locks are re-entrant per connection, so the held
    set refuses a second acquire through the same connection (two loaders
    in one process are two owners too). A connection that ended is opened
    again by the next acquire; the leases taken on it are lost. Bound to the
    store (`open_postgres`, GameRegistry), each acquire claims the game
    there (a new owner epoch) with this connection's backend pid, which the
    store's fenced writes look for in pg_locks. The holder's diagnostics
    come from pg_locks + pg_stat_activity (its backend pid and application
    name)."""

    def __init__(self, connection: Connection, conninfo: str | None = None, label: str | None = None) -> None:
        self._db = connection
        self._conninfo = conninfo  # to open the connection again after it ended (None: never)
        self._label = label
        self._lock = asyncio.Lock()
        self._held: dict[str, _AdvisoryLease] = {}

    @staticmethod
    async def _open(conninfo: str, label: str) -> Connection:
        try:
            return await connect(conninfo, label)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the game database for ownership: {exc}") from exc

    @classmethod
    async def connect(cls, conninfo: str, name: str | None = None) -> AdvisoryOwnership:
        label = name or f"nethack-webmcp owner pid {os.getpid()}"
        return cls(await cls._open(conninfo, label), conninfo, label)

    @property
    def broken(self) -> bool:
        return self._db.closed or self._db.broken

    async def _query(self, sql: str, params: tuple[Any, ...], *, reopen: bool = False) -> dict[str, Any] | None:
        """One statement on the ownership connection; with `reopen`, a
        connection found ended is opened again (once) and the statement rerun."""
        async with self._lock:
            for attempt in (1, 2):
                if self.broken and reopen and self._conninfo is not None:
                    with contextlib.suppress(psycopg.Error):
                        await self._db.close()
                    self._db = await self._open(self._conninfo, self._label or "nethack-webmcp owner")
                try:
                    return await (await self._db.execute(pyformat(sql), params)).fetchone()
                except psycopg.Error as exc:
                    if attempt == 1 and reopen and self.broken:
                        continue  # the connection had ended unnoticed: open it again
                    raise StoreError(f"ownership lock query failed: {exc}") from exc
        raise AssertionError("unreachable")

    async def acquire(self, session_id: str) -> Lease | None:
        held = self._held.get(session_id)
        if held is not None:
            if not held.lost:
                return None
            await held.release()  # a lost lease: forget it, then try for the game afresh
        row = await self._query(
            "SELECT pg_try_advisory_lock(hashtextextended(?, 0)) AS got, pg_backend_pid() AS pid",
            (advisory_key(session_id),),
            reopen=True,
        )
        if not (row and row["got"]):
            return None
        lease = _AdvisoryLease(self, session_id, self._db)
        self._held[session_id] = lease
        try:
            # the new owner epoch, before the caller reads the journal: from now on
            # any earlier owner's journal writes are refused
            lease.fence = await self._claim(
                session_id, {"backendPid": row["pid"], "application": self._label, "pid": os.getpid()}
            )
        except BaseException:
            await lease.release()
            raise
        if lease.fence is not None:
            lease.fence.backend_pid = int(row["pid"])
            lease.fence.lock_gone = lease.lock_gone
        return lease

    async def _release(self, lease: _AdvisoryLease) -> None:
        if self._held.get(lease.session_id) is lease:
            del self._held[lease.session_id]
        if lease.fence is not None and self.store is not None:
            self.store.release_claim(lease.fence)
        connection, lease.connection = lease.connection, None
        if connection is self._db and not self.broken:
            try:
                unlock = "SELECT pg_advisory_unlock(hashtextextended(?, 0))"
                await self._query(unlock, (advisory_key(lease.session_id),))
            except StoreError:
                if not self.broken:
                    raise
                # the connection ended as we let go: the lock went with it

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        key = advisory_key(session_id)
        try:
            row = await self._query(
                "SELECT a.pid, a.application_name, extract(epoch FROM a.backend_start) AS since "
                f"FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE {ADVISORY_LOCK} LIMIT 1",
                (key, key),
                reopen=True,
            )
        except StoreError:
            return None
        if row is None:
            return None
        return {"backendPid": row["pid"], "application": row["application_name"], "since": float(row["since"])}

    async def close(self) -> None:
        self._held.clear()
        await self._db.close()


async def open_postgres(conninfo: str) -> tuple[PostgresStore, AdvisoryOwnership]:
    """The store and ownership of one server process on `conninfo` (the
    ownership bound to the store: its takes are claims, its games fenced)."""
    store = await PostgresStore.connect(conninfo)
    try:
        ownership = await AdvisoryOwnership.connect(conninfo)
    except BaseException:
        await store.close()
        raise
    ownership.bind(store)
    return store, ownership
