"""postgres.py - the shared store: PostgreSQL (psycopg 3) and advisory-lock ownership.

Several server processes, on one machine or many, share one database: any
of them can take any game, because a game resumes by replaying its journal.
`PostgresStore` keeps the same tables and the same semantics as the SQLite
store (the same contract tests run on both); `AdvisoryOwnership` plays the
role flock plays natively: the owner of a game holds the session-level
advisory lock `pg_try_advisory_lock(key(sessionId))` on its ownership
connection. PostgreSQL drops the lock when that connection ends - the owner
closing the game, or dying (even by SIGKILL: the kernel closes its socket) -
so a crashed instance never blocks another from resuming its games.

Each write is one transaction (PostgreSQL commits durably with its default
`synchronous_commit=on`). A store holds a few connections (POOL_SIZE); each
transaction borrows one for its duration (psycopg serializes statements on
a connection, not transactions), so the games of one process commit side by
side rather than queueing behind one another's fsync. Schema versions are rows of
`schema_migrations`, applied under a transaction-level advisory lock so
instances starting together migrate once. Native only: never imported in
the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from psycopg.rows import dict_row

from .base import (
    EntryState,
    GameRecord,
    JournalEntry,
    Lease,
    Ownership,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    ToolReceipt,
)
from .rows import (
    RECORD_COLUMNS,
    SESSION_COLUMNS,
    dumps,
    entry_from_row,
    receipt_from_row,
    record_from_row,
    session_from_row,
    session_values,
)
from .sqlite import NATIVE_SCHEMA_VERSION, SESSION_FIELDS

# the transaction-level advisory lock that serializes migrations (an arbitrary constant)
MIGRATION_LOCK = 0x4E4E_4D49_4752
POOL_SIZE = 4  # connections per store: concurrent transactions of one process
END_REASONS = "('ascended', 'escaped', 'died', 'quit', 'failed', 'idle_timeout', 'time_limit')"

MIGRATIONS: list[list[str]] = [
    # 0 -> 1: sessions, journal, tool receipts, game records (as SQLite's schema 1)
    [
        """CREATE TABLE sessions (
            session_id TEXT PRIMARY KEY,
            seed BIGINT NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            race TEXT NOT NULL,
            gender TEXT NOT NULL,
            alignment TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            wizard BOOLEAN NOT NULL,
            profile INTEGER NOT NULL,
            engine_identity TEXT,
            view_nonce TEXT NOT NULL,
            create_json TEXT NOT NULL,            -- exact JSON text, as SQLite keeps it (not jsonb: key order)
            metadata_json TEXT NOT NULL,
            created_summary_json TEXT NOT NULL,
            started_at_s DOUBLE PRECISION NOT NULL,
            updated_at_s DOUBLE PRECISION NOT NULL,
            ended_at_s DOUBLE PRECISION,
            status TEXT NOT NULL CHECK (status IN ('active', 'ended')),
            last_depth INTEGER,
            deepest_depth INTEGER
        )""",
        """CREATE TABLE journal (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            seq INTEGER NOT NULL CHECK (seq >= 1),
            operation_id TEXT NOT NULL,
            request_id TEXT NOT NULL,
            method TEXT NOT NULL,
            request_json TEXT NOT NULL,
            reserved_at_s DOUBLE PRECISION NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('reserved', 'completed', 'rejected', 'notApplied')),
            receipt_json TEXT,
            completed_at_s DOUBLE PRECISION,
            PRIMARY KEY (session_id, seq),
            CHECK ((state = 'reserved') = (receipt_json IS NULL))
        )""",
        "CREATE INDEX journal_operation_idx ON journal (session_id, operation_id)",
        """CREATE TABLE receipts (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            request_id TEXT NOT NULL,
            payload_hash TEXT,
            frame_json TEXT NOT NULL,
            created_at_s DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (session_id, request_id)
        )""",
        f"""CREATE TABLE game_records (
            game_id TEXT PRIMARY KEY,
            character_name TEXT NOT NULL,
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            started_at_s DOUBLE PRECISION NOT NULL,
            ended_at_s DOUBLE PRECISION NOT NULL,
            end_time_kind TEXT NOT NULL CHECK (end_time_kind IN ('observed', 'recovery')),
            end_reason TEXT NOT NULL CHECK (end_reason IN {END_REASONS}),
            how TEXT,
            death TEXT,
            score BIGINT,
            turns BIGINT,
            last_depth INTEGER,
            deepest_depth INTEGER
        )""",
        "CREATE INDEX game_records_recent_idx ON game_records (ended_at_s DESC, game_id DESC)",
    ],
    # 1 -> 2: chosen or sealed seeds; records carry the seed
    [
        "ALTER TABLE sessions ADD COLUMN seed_choice TEXT CHECK (seed_choice IN ('chosen', 'sealed'))",
        "ALTER TABLE game_records ADD COLUMN seed BIGINT",
        "ALTER TABLE game_records ADD COLUMN seed_choice TEXT CHECK (seed_choice IN ('chosen', 'sealed'))",
    ],
    # 2 -> 3: control-token hashes (the HTTP service; never the token itself)
    [
        """CREATE TABLE control_tokens (
            session_id TEXT PRIMARY KEY REFERENCES sessions (session_id),
            token_hash TEXT NOT NULL
        )""",
    ],
]
assert len(MIGRATIONS) == NATIVE_SCHEMA_VERSION


def advisory_key(session_id: str) -> str:
    """The lock key's SQL source text: a 64-bit hash of the namespaced ID (computed by the server)."""
    return f"nethack:session:{session_id}"


class PostgresStore(Store):
    durability = "postgresql-commit"

    def __init__(self, conninfo: str, connections: list[psycopg.AsyncConnection[dict[str, Any]]]) -> None:
        self.conninfo = conninfo
        self._connections = connections
        self._free: asyncio.Queue[psycopg.AsyncConnection[dict[str, Any]]] = asyncio.Queue()
        for connection in connections:
            self._free.put_nowait(connection)
        self._closed = False

    @classmethod
    async def connect(cls, conninfo: str, pool_size: int = POOL_SIZE) -> PostgresStore:
        """Open the database and migrate it. Raises StoreError."""
        connections: list[psycopg.AsyncConnection[dict[str, Any]]] = []
        try:
            for _ in range(pool_size):
                connections.append(
                    await psycopg.AsyncConnection.connect(
                        conninfo, autocommit=True, row_factory=dict_row, application_name="nethack-webmcp"
                    )
                )
            store = cls(conninfo, connections)
            await store._migrate()
        except BaseException as exc:
            for connection in connections:
                await connection.close()
            if isinstance(exc, psycopg.Error):
                raise StoreError(f"cannot connect to the game database: {exc}") from exc
            raise
        return store

    # ---- plumbing -------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _tx(self, what: str) -> AsyncIterator[psycopg.AsyncConnection[dict[str, Any]]]:
        """One transaction on a borrowed connection, errors typed like SQLite's."""
        if self._closed:
            raise StoreError(f"{what}: the store is closed")
        db = await self._free.get()
        try:
            async with db.transaction():
                yield db
        except StoreError:
            raise
        except psycopg.errors.IntegrityError as exc:
            raise StoreConflict(f"{what}: {exc}") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{what}: {exc}") from exc
        finally:
            self._free.put_nowait(db)

    async def _migrate(self) -> None:
        async with self._tx("migrate") as db:
            await db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)")
            row = await (await db.execute("SELECT coalesce(max(version), 0) AS v FROM schema_migrations")).fetchone()
            version = int(row["v"]) if row else 0
            if version > NATIVE_SCHEMA_VERSION:
                raise StoreError(
                    f"the game database has schema version {version}, newer than this program's "
                    f"{NATIVE_SCHEMA_VERSION}; use a newer nethack-webmcp"
                )
            for number in range(version, NATIVE_SCHEMA_VERSION):
                for statement in MIGRATIONS[number]:
                    await db.execute(statement)  # constant DDL
                await db.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (number + 1,))

    async def schema_version(self) -> int:
        async with self._tx("read schema version") as db:
            row = await (await db.execute("SELECT max(version) AS v FROM schema_migrations")).fetchone()
        return int(row["v"]) if row else 0

    # ---- sessions ---------------------------------------------------------------------

    @staticmethod
    async def _insert_session(db: psycopg.AsyncConnection[Any], info: SessionInfo) -> None:
        columns = ", ".join(SESSION_COLUMNS)
        marks = ",".join("%s" for _ in SESSION_COLUMNS)
        await db.execute(f"INSERT INTO sessions ({columns}) VALUES ({marks})", session_values(info))

    async def create_session(self, info: SessionInfo) -> None:
        async with self._tx("create session") as db:
            await self._insert_session(db, info)

    async def get_session(self, session_id: str) -> SessionInfo | None:
        async with self._tx("read session") as db:
            row = await (await db.execute("SELECT * FROM sessions WHERE session_id = %s", (session_id,))).fetchone()
        return session_from_row(row) if row else None

    async def list_sessions(self) -> list[SessionInfo]:
        async with self._tx("list sessions") as db:
            rows = await (
                await db.execute("SELECT * FROM sessions ORDER BY started_at_s DESC, session_id DESC")
            ).fetchall()
        return [session_from_row(row) for row in rows]

    @staticmethod
    async def _update_session(db: psycopg.AsyncConnection[Any], session_id: str, fields: dict[str, Any]) -> None:
        unknown = set(fields) - set(SESSION_FIELDS)
        if unknown:
            raise StoreError(f"cannot update session fields {sorted(unknown)}")
        if not fields:
            return
        assignments = ", ".join(f"{SESSION_FIELDS[key]} = %s" for key in fields)  # names from a fixed table
        cursor = await db.execute(
            f"UPDATE sessions SET {assignments} WHERE session_id = %s",
            (*fields.values(), session_id),
        )
        if cursor.rowcount != 1:
            raise StoreConflict(f"no session {session_id!r}")

    async def update_session(self, session_id: str, fields: dict[str, Any]) -> None:
        async with self._tx("update session") as db:
            await self._update_session(db, session_id, fields)

    # ---- journal --------------------------------------------------------------------------

    @staticmethod
    async def _insert_entry(db: psycopg.AsyncConnection[Any], entry: JournalEntry) -> None:
        await db.execute(
            "INSERT INTO journal (session_id, seq, operation_id, request_id, method, request_json, "
            "reserved_at_s, state, receipt_json, completed_at_s) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (
                entry["sessionId"],
                entry["seq"],
                entry["operationId"],
                entry["requestId"],
                entry["method"],
                dumps(entry["request"]),
                entry["reservedAt"],
                entry["state"],
                None if entry["receipt"] is None else dumps(entry["receipt"]),
                entry["completedAt"],
            ),
        )

    async def reserve(self, entry: JournalEntry) -> None:
        async with self._tx("reserve journal entry") as db:
            # the session row lock orders concurrent reservations of one game (any instance)
            await db.execute("SELECT 1 FROM sessions WHERE session_id = %s FOR UPDATE", (entry["sessionId"],))
            row = await (
                await db.execute(
                    "SELECT coalesce(max(seq), 0) AS last FROM journal WHERE session_id = %s", (entry["sessionId"],)
                )
            ).fetchone()
            last = int(row["last"]) if row else 0
            if entry["seq"] != last + 1:
                raise StoreConflict(f"journal seq {entry['seq']} of {entry['sessionId']!r} is not {last + 1}")
            if entry["state"] != "reserved" or entry["receipt"] is not None:
                raise StoreConflict("a reservation has state 'reserved' and no receipt")
            await self._insert_entry(db, entry)

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
        if state == "reserved":
            raise StoreConflict("complete needs a final state")
        async with self._tx("complete journal entry") as db:
            cursor = await db.execute(
                "UPDATE journal SET state = %s, receipt_json = %s, completed_at_s = %s "
                "WHERE session_id = %s AND seq = %s AND state = 'reserved'",
                (state, dumps(receipt), completed_at, session_id, seq),
            )
            if cursor.rowcount != 1:
                raise StoreConflict(f"journal entry {seq} of {session_id!r} is not reserved")
            if session_fields:
                await self._update_session(db, session_id, session_fields)
            return await self._insert_record(db, record) if record is not None else False

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        async with self._tx("read journal") as db:
            rows = await (
                await db.execute(
                    "SELECT * FROM journal WHERE session_id = %s AND seq > %s ORDER BY seq", (session_id, after_seq)
                )
            ).fetchall()
        return [entry_from_row(session_id, row) for row in rows]

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        async with self._tx("read journal") as db:
            rows = await (
                await db.execute(
                    "SELECT * FROM journal WHERE session_id = %s AND operation_id = %s ORDER BY seq",
                    (session_id, operation_id),
                )
            ).fetchall()
        return [entry_from_row(session_id, row) for row in rows]

    # ---- tool receipts ------------------------------------------------------------------

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        async with self._tx("read receipt") as db:
            row = await (
                await db.execute(
                    "SELECT * FROM receipts WHERE session_id = %s AND request_id = %s", (session_id, request_id)
                )
            ).fetchone()
        return receipt_from_row(row) if row else None

    async def put_receipt(self, receipt: ToolReceipt) -> None:
        async with self._tx("record receipt") as db:
            cursor = await db.execute(
                "INSERT INTO receipts (session_id, request_id, payload_hash, frame_json, created_at_s) "
                "VALUES (%s,%s,%s,%s,%s) ON CONFLICT (session_id, request_id) DO NOTHING",
                (
                    receipt["sessionId"],
                    receipt["requestId"],
                    receipt["payloadHash"],
                    dumps(receipt["frame"]),
                    receipt["createdAt"],
                ),
            )
            if cursor.rowcount == 1:
                return
            row = await (
                await db.execute(
                    "SELECT payload_hash FROM receipts WHERE session_id = %s AND request_id = %s",
                    (receipt["sessionId"], receipt["requestId"]),
                )
            ).fetchone()
            if row is None or row["payload_hash"] != receipt["payloadHash"]:
                raise StoreConflict(f"requestId {receipt['requestId']!r} is recorded with another payload")

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        async with self._tx("read receipts") as db:
            rows = await (
                await db.execute("SELECT * FROM receipts WHERE session_id = %s ORDER BY created_at_s", (session_id,))
            ).fetchall()
        return [receipt_from_row(row) for row in rows]

    # ---- records ----------------------------------------------------------------------------

    @staticmethod
    async def _insert_record(db: psycopg.AsyncConnection[Any], record: GameRecord) -> bool:
        columns = ", ".join(RECORD_COLUMNS.values())
        marks = ", ".join("%s" for _ in RECORD_COLUMNS)
        cursor = await db.execute(
            f"INSERT INTO game_records ({columns}) VALUES ({marks}) ON CONFLICT (game_id) DO NOTHING",
            tuple(record.get(key) for key in RECORD_COLUMNS),
        )
        return cursor.rowcount == 1

    async def put_record(self, record: GameRecord) -> bool:
        async with self._tx("record game") as db:
            return await self._insert_record(db, record)

    async def get_record(self, session_id: str) -> GameRecord | None:
        async with self._tx("read record") as db:
            row = await (await db.execute("SELECT * FROM game_records WHERE game_id = %s", (session_id,))).fetchone()
        return record_from_row(row) if row else None

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        async with self._tx("read records") as db:
            rows = await (
                await db.execute("SELECT * FROM game_records ORDER BY ended_at_s DESC, game_id DESC LIMIT %s", (limit,))
            ).fetchall()
        return [record_from_row(row) for row in rows]

    # ---- control tokens (hashes only) ----------------------------------------------------

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        async with self._tx("record control token") as db:
            await db.execute(
                "INSERT INTO control_tokens (session_id, token_hash) VALUES (%s, %s)", (session_id, token_hash)
            )

    async def get_control_hash(self, session_id: str) -> str | None:
        async with self._tx("read control token") as db:
            row = await (
                await db.execute("SELECT token_hash FROM control_tokens WHERE session_id = %s", (session_id,))
            ).fetchone()
        return row["token_hash"] if row else None

    # ---- exchange ---------------------------------------------------------------------------

    async def import_game(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        async with self._tx("import game") as db:
            await self._insert_session(db, info)
            for expected, entry in enumerate(entries, start=1):
                if entry["seq"] != expected or entry["sessionId"] != info["sessionId"]:
                    raise StoreConflict(f"journal entry {entry['seq']} is out of order")
                await self._insert_entry(db, entry)
            for receipt in receipts:
                await db.execute(
                    "INSERT INTO receipts (session_id, request_id, payload_hash, frame_json, "
                    "created_at_s) VALUES (%s,%s,%s,%s,%s)",
                    (
                        info["sessionId"],
                        receipt["requestId"],
                        receipt["payloadHash"],
                        dumps(receipt["frame"]),
                        receipt["createdAt"],
                    ),
                )
            if record is not None:
                await self._insert_record(db, record)

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            for connection in self._connections:
                await connection.close()


# ---- ownership: one advisory lock per game, on one connection per process ---------------


class _AdvisoryLease(Lease):
    def __init__(self, owner: AdvisoryOwnership, session_id: str) -> None:
        self.session_id = session_id
        self._owner: AdvisoryOwnership | None = owner

    @property
    def lost(self) -> bool:
        # the locks live and die with the ownership connection
        return self._owner is not None and self._owner.broken

    async def release(self) -> None:
        owner, self._owner = self._owner, None
        if owner is not None:
            await owner._release(self.session_id)


class AdvisoryOwnership(Ownership):
    """Session-level advisory locks, all held on this object's one connection.

    PostgreSQL's advisory locks are re-entrant per connection, so the held
    set refuses a second acquire through the same connection (two loaders
    in one process are two owners too). The holder's diagnostics come from
    pg_locks + pg_stat_activity (its backend pid and application name)."""

    def __init__(self, connection: psycopg.AsyncConnection[dict[str, Any]]) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._held: set[str] = set()

    @classmethod
    async def connect(cls, conninfo: str, name: str | None = None) -> AdvisoryOwnership:
        label = name or f"nethack-webmcp owner pid {os.getpid()}"
        try:
            connection = await psycopg.AsyncConnection.connect(
                conninfo, autocommit=True, row_factory=dict_row, application_name=label[:63]
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the game database for ownership: {exc}") from exc
        return cls(connection)

    @property
    def broken(self) -> bool:
        return self._db.closed or self._db.broken

    async def _query(self, sql: str, params: tuple[Any, ...]) -> dict[str, Any] | None:
        async with self._lock:
            try:
                return await (await self._db.execute(sql, params)).fetchone()
            except psycopg.Error as exc:
                raise StoreError(f"ownership lock query failed: {exc}") from exc

    async def acquire(self, session_id: str) -> Lease | None:
        if session_id in self._held:
            return None
        row = await self._query(
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS got", (advisory_key(session_id),)
        )
        if not (row and row["got"]):
            return None
        self._held.add(session_id)
        return _AdvisoryLease(self, session_id)

    async def _release(self, session_id: str) -> None:
        if session_id in self._held:
            self._held.discard(session_id)
            if not self.broken:
                await self._query("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (advisory_key(session_id),))

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        try:
            row = await self._query(
                "SELECT a.pid, a.application_name, extract(epoch FROM a.backend_start) AS since "
                "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
                "AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = "
                "hashtextextended(%s, 0) LIMIT 1",
                (advisory_key(session_id),),
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
    """The store and ownership of one server process on `conninfo`."""
    store = await PostgresStore.connect(conninfo)
    try:
        ownership = await AdvisoryOwnership.connect(conninfo)
    except BaseException:
        await store.close()
        raise
    return store, ownership
