"""sql.py - the one SQL store: every statement once, over a small dialect.

`SqlStore` is the Store on the tables of schema.py, for SQLite (sqlite.py,
the native store) and PostgreSQL (postgres.py, the HTTP service's shared
store). The statements are written once, with `?` placeholders; the journal's
rules are TransactionalStore's (transaction.py); what differs between the
databases is a `Dialect`:

    placeholders    `?` (sqlite3) or `%s` (psycopg), rewritten by `run`
    transactions    how a write begins (SQLite: BEGIN IMMEDIATE, the database's
                    write lock; PostgreSQL: BEGIN), on which connection
                    (SQLite: its one; PostgreSQL: one borrowed from a pool, a
                    dead one replaced), and whether a failed first statement
                    may be retried on a fresh connection (`recover`)
    row locking     the suffix that keeps a read row locked to the end of the
                    write (PostgreSQL's FOR UPDATE / FOR SHARE; SQLite's write
                    lock covers the whole database already)
    lock visibility whether a write can see the ownership lock (PostgreSQL's
                    pg_locks: `lock_held`) or only the owner epoch (SQLite)
    migrations      where the schema version is kept and how concurrent
                    openers migrate once
    execution       sqlite3 is synchronous: its `run` is a coroutine that never
                    suspends, so a whole SQLite transaction runs without letting
                    another in, and `run_now` can drive the store's coroutines
                    where a caller cannot await (SqliteStore's constructor);
                    psycopg's is awaited

Failures are typed once (`_errors`): the driver's integrity error is a
StoreConflict, any other database error a StoreError, each naming what failed.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Iterator, Sequence
from typing import Any, ClassVar, NamedTuple, TypeVar

from .base import Outcome, StoreConflict, StoreError
from .objects import Checkpoint, CheckpointIndex, GameRecord, JournalEntry, SessionInfo, ToolReceipt
from .rows import (
    ENTRY_COLUMNS,
    RECEIPT_COLUMNS,
    RECORD_COLUMNS,
    SESSION_COLUMNS,
    SESSION_FIELD_COLUMNS,
    Row,
    dumps,
    entry_from_row,
    entry_values,
    loads,
    receipt_from_row,
    receipt_values,
    record_from_row,
    record_values,
    session_from_row,
    session_values,
)
from .schema import SQL_SCHEMA_VERSION, DialectName, statements
from .transaction import TransactionalStore

T = TypeVar("T")


class Result(NamedTuple):
    rows: Sequence[Row]
    rowcount: int


def insert(table: str, columns: Sequence[str], conflict: str | None = None) -> str:
    """INSERT of one row; with `conflict` (the key's columns) a row that exists is left alone."""
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
    return f"{sql} ON CONFLICT ({conflict}) DO NOTHING" if conflict else sql


INSERT_SESSION = insert("sessions", SESSION_COLUMNS)
INSERT_ENTRY = insert("journal", ENTRY_COLUMNS)
INSERT_RECEIPT = insert("receipts", RECEIPT_COLUMNS, "session_id, request_id")
INSERT_RECORD = insert("game_records", tuple(RECORD_COLUMNS.values()), "game_id")
INSERT_CONTROL_HASH = insert("control_tokens", ("session_id", "token_hash"), "session_id")
#: one claim: the next epoch (1 for a game never owned), in one statement of both dialects
CLAIM = (
    "INSERT INTO owners (session_id, epoch, holder_json, claimed_at_s) VALUES (?, 1, ?, ?) "
    "ON CONFLICT (session_id) DO UPDATE SET epoch = owners.epoch + 1, holder_json = excluded.holder_json, "
    "claimed_at_s = excluded.claimed_at_s RETURNING epoch"
)
SETTLE = (
    "UPDATE journal SET state = ?, receipt_json = ?, completed_at_s = ? "
    "WHERE session_id = ? AND seq = ? AND state = 'reserved'"
)
CHECKPOINT_INDEX_COLUMNS = "session_id, move, seq, digest, engine, sha256, meta_json, created_at_s"
PUT_CHECKPOINT = (
    f"INSERT INTO checkpoints ({CHECKPOINT_INDEX_COLUMNS}, state, navigation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (session_id, move) DO UPDATE SET seq = excluded.seq, digest = excluded.digest, "
    "engine = excluded.engine, sha256 = excluded.sha256, meta_json = excluded.meta_json, "
    "created_at_s = excluded.created_at_s, state = excluded.state, navigation = excluded.navigation"
)
RECEIPTS_IN_ORDER = "SELECT * FROM receipts WHERE session_id = ? ORDER BY created_at_s, request_id"
LATEST_RECEIPT = "SELECT * FROM receipts WHERE session_id = ? ORDER BY created_at_s DESC, request_id DESC LIMIT 1"
RECENT_RECEIPTS = (  # the last N, newest first inside (the LIMIT), oldest first outside
    "SELECT * FROM (SELECT * FROM receipts WHERE session_id = ? "
    "ORDER BY created_at_s DESC, request_id DESC LIMIT ?) AS recent ORDER BY created_at_s, request_id"
)


class Dialect(ABC):
    """What one database does its own way (see the module doc). `Connection`
    is the driver's; the store only passes it back to the dialect."""

    name: ClassVar[DialectName]
    #: suffixes of a SELECT in a write: the row stays locked for update / shared
    row_lock: ClassVar[str] = ""
    share_lock: ClassVar[str] = ""
    #: the driver's exceptions: constraint violations, and every database error
    integrity_error: ClassVar[type[Exception]]
    error: ClassVar[type[Exception]]
    #: the schema version, as a one-row query with column `v`
    version_query: ClassVar[str]
    where: str = "the game database"  # for messages

    @abstractmethod
    async def acquire(self) -> Any:
        """A connection for one transaction or read (a dead pooled one is replaced first)."""

    @abstractmethod
    def release(self, db: Any) -> None: ...

    @abstractmethod
    async def run(self, db: Any, sql: str, params: Sequence[Any]) -> Result:
        """One statement (`?` placeholders) and all its rows."""

    async def recover(self, db: Any, failure: Exception) -> Any | None:
        """A fresh connection to run a failed *first* statement again on (the
        connection had died unnoticed: nothing was done), or None: the failure stands."""
        return None

    @abstractmethod
    def begin(self) -> str:
        """The statement that opens a write transaction."""

    @abstractmethod
    def migration_prologue(self) -> list[str]:
        """Statements that open a migration (serialize openers, create the version's keeping)."""

    @abstractmethod
    def set_version(self, version: int) -> tuple[str, tuple[Any, ...]]: ...

    def owner_query(self, session_id: str, lock_pid: int | None) -> tuple[str, tuple[Any, ...]]:
        """The game's owner row as (epoch, held): whether backend `lock_pid`
        still holds the game's lock, always true where the database cannot see it."""
        return "SELECT epoch, 1 AS held FROM owners WHERE session_id = ?", (session_id,)

    @abstractmethod
    async def close(self) -> None: ...


class SqlTx:
    """One open write transaction: TransactionalStore's StoreTx in SQL."""

    def __init__(self, dialect: Dialect, db: Any) -> None:
        self.dialect, self.db = dialect, db

    async def run(self, sql: str, *params: Any) -> Result:
        return await self.dialect.run(self.db, sql, params)

    async def one(self, sql: str, *params: Any) -> Row | None:
        rows = (await self.run(sql, *params)).rows
        return rows[0] if rows else None

    async def lock_session(self, session_id: str) -> bool:
        sql = f"SELECT 1 AS found FROM sessions WHERE session_id = ?{self.dialect.row_lock}"
        return await self.one(sql, session_id) is not None

    async def insert_session(self, info: SessionInfo) -> None:
        await self.run(INSERT_SESSION, *session_values(info))

    async def set_session_fields(self, session_id: str, fields: dict[str, Any]) -> bool:
        if not fields:
            return await self.lock_session(session_id)
        assignments = ", ".join(f"{SESSION_FIELD_COLUMNS[key]} = ?" for key in fields)  # names from a fixed table
        result = await self.run(f"UPDATE sessions SET {assignments} WHERE session_id = ?", *fields.values(), session_id)
        return result.rowcount == 1

    async def owner_epoch(self, session_id: str, lock_pid: int | None) -> tuple[int | None, bool]:
        sql, params = self.dialect.owner_query(session_id, lock_pid)
        row = await self.one(sql + self.dialect.share_lock, *params)
        return (None, True) if row is None else (int(row["epoch"]), bool(row["held"]))

    async def bump_epoch(self, session_id: str, holder: dict[str, Any], claimed_at: float) -> int:
        row = await self.one(CLAIM, session_id, dumps(holder), claimed_at)
        assert row is not None  # RETURNING always answers
        return int(row["epoch"])

    async def last_seq(self, session_id: str) -> int:
        row = await self.one("SELECT coalesce(max(seq), 0) AS last FROM journal WHERE session_id = ?", session_id)
        return int(row["last"]) if row else 0

    async def insert_entry(self, entry: JournalEntry) -> None:
        await self.run(INSERT_ENTRY, *entry_values(entry))

    async def settle_entry(self, outcome: Outcome) -> bool:
        o = outcome
        result = await self.run(SETTLE, o.state, dumps(o.receipt), o.completed_at, o.session_id, o.seq)
        return result.rowcount == 1

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        row = await self.one("SELECT * FROM receipts WHERE session_id = ? AND request_id = ?", session_id, request_id)
        return receipt_from_row(row) if row else None

    async def insert_receipt(self, receipt: ToolReceipt) -> bool:
        return (await self.run(INSERT_RECEIPT, *receipt_values(receipt))).rowcount == 1

    async def insert_record(self, record: GameRecord) -> bool:
        return (await self.run(INSERT_RECORD, *record_values(record))).rowcount == 1

    async def insert_control_hash(self, session_id: str, token_hash: str) -> bool:
        return (await self.run(INSERT_CONTROL_HASH, session_id, token_hash)).rowcount == 1


class SqlStore(TransactionalStore):
    """The Store over one SQL database. Subclasses open the dialect."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._closed = False

    # ---- plumbing -------------------------------------------------------------------

    @contextlib.contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        if self._closed:
            raise StoreError(f"{what}: the store is closed")
        try:
            yield
        except StoreError:
            raise
        except self.dialect.integrity_error as exc:
            raise StoreConflict(f"{what}: {exc}") from exc
        except self.dialect.error as exc:
            raise StoreError(f"{what}: {exc}") from exc

    async def _first(self, db: Any, sql: str, params: Sequence[Any]) -> tuple[Any, Result]:
        """The first statement on a borrowed connection, once more on a fresh
        one if the dialect finds the connection had died; (connection, result)."""
        try:
            return db, await self.dialect.run(db, sql, params)
        except self.dialect.error as exc:
            fresh = await self.dialect.recover(db, exc)
            if fresh is None:
                raise
            return fresh, await self.dialect.run(fresh, sql, params)

    @contextlib.asynccontextmanager
    async def _transaction(self, what: str) -> AsyncIterator[SqlTx]:
        with self._errors(what):
            db = await self.dialect.acquire()
            try:
                db, _ = await self._first(db, self.dialect.begin(), ())
                try:
                    yield SqlTx(self.dialect, db)
                    await self.dialect.run(db, "COMMIT", ())
                except BaseException:
                    with contextlib.suppress(Exception):
                        await self.dialect.run(db, "ROLLBACK", ())
                    raise
            finally:
                self.dialect.release(db)

    async def _read(self, what: str, sql: str, *params: Any) -> Sequence[Row]:
        """One read statement outside any transaction (it sees committed data)."""
        with self._errors(what):
            db = await self.dialect.acquire()
            try:
                db, result = await self._first(db, sql, params)
            finally:
                self.dialect.release(db)
        return result.rows

    async def _migrate(self) -> None:
        """Bring the database to SQL_SCHEMA_VERSION (refusing a newer one), in one transaction."""
        async with self._transaction("migrate") as tx:
            for statement in self.dialect.migration_prologue():
                await tx.run(statement)
            row = await tx.one(self.dialect.version_query)
            version = int(row["v"]) if row else 0
            if version > SQL_SCHEMA_VERSION:
                raise StoreError(
                    f"{self.dialect.where} has schema version {version}, newer than this program's "
                    f"{SQL_SCHEMA_VERSION}; use a newer nethack-webmcp"
                )
            for number in range(version, SQL_SCHEMA_VERSION):
                for statement in statements(number, self.dialect.name):
                    await tx.run(statement)  # constant DDL
                await tx.run(*_flat(self.dialect.set_version(number + 1)))

    async def schema_version(self) -> int:
        rows = await self._read("read schema version", self.dialect.version_query)
        return int(rows[0]["v"]) if rows else 0

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.dialect.close()

    # ---- reads ------------------------------------------------------------------------

    async def get_session(self, session_id: str) -> SessionInfo | None:
        rows = await self._read("read session", "SELECT * FROM sessions WHERE session_id = ?", session_id)
        return session_from_row(rows[0]) if rows else None

    async def list_sessions(self) -> list[SessionInfo]:
        rows = await self._read("list sessions", "SELECT * FROM sessions ORDER BY started_at_s DESC, session_id DESC")
        return [session_from_row(row) for row in rows]

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        sql = "SELECT * FROM journal WHERE session_id = ? AND seq > ? ORDER BY seq"
        return [entry_from_row(session_id, row) for row in await self._read("read journal", sql, session_id, after_seq)]

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        sql = "SELECT * FROM journal WHERE session_id = ? AND operation_id = ? ORDER BY seq"
        rows = await self._read("read journal", sql, session_id, operation_id)
        return [entry_from_row(session_id, row) for row in rows]

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        sql = "SELECT * FROM receipts WHERE session_id = ? AND request_id = ?"
        rows = await self._read("read receipt", sql, session_id, request_id)
        return receipt_from_row(rows[0]) if rows else None

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        return [receipt_from_row(row) for row in await self._read("read receipts", RECEIPTS_IN_ORDER, session_id)]

    async def latest_receipt(self, session_id: str) -> ToolReceipt | None:
        rows = await self._read("read the latest receipt", LATEST_RECEIPT, session_id)
        return receipt_from_row(rows[0]) if rows else None

    async def recent_receipts(self, session_id: str, limit: int) -> list[ToolReceipt]:
        if limit <= 0:
            return []
        rows = await self._read("read recent receipts", RECENT_RECEIPTS, session_id, limit)
        return [receipt_from_row(row) for row in rows]

    async def get_record(self, session_id: str) -> GameRecord | None:
        rows = await self._read("read record", "SELECT * FROM game_records WHERE game_id = ?", session_id)
        return record_from_row(rows[0]) if rows else None

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        sql = "SELECT * FROM game_records ORDER BY ended_at_s DESC, game_id DESC LIMIT ?"
        return [record_from_row(row) for row in await self._read("read records", sql, limit)]

    async def get_control_hash(self, session_id: str) -> str | None:
        sql = "SELECT token_hash FROM control_tokens WHERE session_id = ?"
        rows = await self._read("read control token", sql, session_id)
        return str(rows[0]["token_hash"]) if rows else None

    # ---- persisted engine checkpoints (derived data, never fenced) ----------------------

    async def put_checkpoint(self, checkpoint: Checkpoint) -> None:
        async with self._transaction("store checkpoint") as tx:
            await tx.run(
                PUT_CHECKPOINT,
                checkpoint["sessionId"],
                checkpoint["move"],
                checkpoint["seq"],
                checkpoint["digest"],
                checkpoint["engine"],
                checkpoint["sha256"],
                dumps(checkpoint["meta"]),
                checkpoint["createdAt"],
                bytes(checkpoint["state"]),
                None if checkpoint["navigation"] is None else bytes(checkpoint["navigation"]),
            )

    async def checkpoint_index(self, session_id: str) -> list[CheckpointIndex]:
        sql = f"SELECT {CHECKPOINT_INDEX_COLUMNS} FROM checkpoints WHERE session_id = ? ORDER BY move"
        return [_checkpoint_index(row) for row in await self._read("read checkpoints", sql, session_id)]

    async def get_checkpoint(self, session_id: str, move: int) -> Checkpoint | None:
        sql = "SELECT * FROM checkpoints WHERE session_id = ? AND move = ?"
        rows = await self._read("read checkpoint", sql, session_id, move)
        if not rows:
            return None
        row = rows[0]
        navigation = row["navigation"]
        return {
            **_checkpoint_index(row),
            "state": bytes(row["state"]),
            "navigation": None if navigation is None else bytes(navigation),
        }

    async def has_checkpoints(self) -> bool:
        return bool(await self._read("read checkpoints", "SELECT 1 AS kept FROM checkpoints LIMIT 1"))

    async def drop_checkpoints(self, session_id: str, moves: Sequence[int] | None = None) -> None:
        async with self._transaction("drop checkpoints") as tx:
            if moves is None:
                await tx.run("DELETE FROM checkpoints WHERE session_id = ?", session_id)
            else:
                for move in moves:
                    await tx.run("DELETE FROM checkpoints WHERE session_id = ? AND move = ?", session_id, move)


def _checkpoint_index(row: Row) -> CheckpointIndex:
    return {
        "sessionId": str(row["session_id"]),
        "move": int(row["move"]),
        "seq": int(row["seq"]),
        "digest": str(row["digest"]),
        "engine": str(row["engine"]),
        "sha256": str(row["sha256"]),
        "meta": loads(row["meta_json"]),
        "createdAt": float(row["created_at_s"]),
    }


def _flat(statement: tuple[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    sql, params = statement
    return (sql, *params)


def run_now(awaitable: Awaitable[T]) -> T:
    """The result of a coroutine that never suspends (a SQLite store's): for
    callers that cannot await. Raises if it does suspend (a bug: it would
    need an event loop)."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return done.value
    steps.close()
    raise RuntimeError("a synchronous store operation suspended")
