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

The lock also goes when only the connection ends while the instance lives
(a database restart, a failover, a proxy or network blip,
`pg_terminate_backend`), and nothing tells the instance. So taking a lock
also raises the game's owner epoch (table `owners`), and the journal writes
are fenced: `reserve` checks, in its own transaction, that the epoch is
still this instance's and that the ownership connection's backend still
holds the advisory lock (pg_locks); `complete` checks the epoch. An owner
whose lock went unnoticed accepts no input (`lostOwnership`), and once
another instance has taken the game, nothing the old owner sent can land.
The ownership connection is opened again on the next acquire.

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
import time
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
from .sqlite import CLAIM, NATIVE_SCHEMA_VERSION, OWNERS_TABLE, SESSION_FIELDS

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
    # 3 -> 4: owner epochs (fenced journal writes)
    [OWNERS_TABLE.format(real="DOUBLE PRECISION")],
]
assert len(MIGRATIONS) == NATIVE_SCHEMA_VERSION


def advisory_key(session_id: str) -> str:
    """The lock key's SQL source text: a 64-bit hash of the namespaced ID (computed by the server)."""
    return f"nethack:session:{session_id}"


#: the pg_locks rows (l) of a game's session-level advisory lock (its bigint key shows
#: as classid = high half, objid = low half, objsubid = 1) in this database; params: key, key
ADVISORY_LOCK = (
    "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid::bigint = (hashtextextended(%s, 0) >> 32) & 4294967295 "
    "AND l.objid::bigint = hashtextextended(%s, 0) & 4294967295"
)


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

    # ---- fencing ------------------------------------------------------------------------

    async def _bump_epoch(self, session_id: str, holder: dict[str, Any]) -> int:
        async with self._tx("claim game") as db:
            row = await (await db.execute(CLAIM.format(mark="%s"), (session_id, dumps(holder), time.time()))).fetchone()
        assert row is not None
        return int(row["epoch"])

    async def _fenced(self, db: psycopg.AsyncConnection[Any], session_id: str, *, lock: bool) -> None:
        """Inside a write transaction: refuse unless this store's claim on the
        game still holds - its epoch (the row is share-locked, so a claim by
        another instance waits for this transaction, or this one sees it), and
        with `lock` the advisory lock still held by the ownership connection."""
        fence = self.fence_of(session_id)
        if fence is None:
            return
        fence.precheck()
        key = advisory_key(session_id)
        row = await (
            await db.execute(
                f"SELECT epoch, EXISTS (SELECT 1 FROM pg_locks l WHERE {ADVISORY_LOCK} AND l.pid = %s) AS held "
                "FROM owners WHERE session_id = %s FOR SHARE OF owners",
                (key, key, fence.backend_pid, session_id),
            )
        ).fetchone()
        checks_lock = lock and fence.backend_pid is not None
        fence.verify(None if row is None else int(row["epoch"]), lock_held=not checks_lock or bool(row and row["held"]))

    async def reserve(self, entry: JournalEntry) -> None:
        async with self._tx("reserve journal entry") as db:
            # no input is accepted once the lock is gone, even before anyone else takes the game
            await self._fenced(db, entry["sessionId"], lock=True)
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
            # the epoch only: an input this owner sent is recorded unless another owner claimed the game
            await self._fenced(db, session_id, lock=False)
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


Connection = psycopg.AsyncConnection[dict[str, Any]]


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

    @property
    def lost(self) -> bool:
        # the locks live and die with the ownership connection
        return super().lost or self.lock_gone() is not None

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
            return await psycopg.AsyncConnection.connect(
                conninfo, autocommit=True, row_factory=dict_row, application_name=label[:63]
            )
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
                    return await (await self._db.execute(sql, params)).fetchone()
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
            "SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS got, pg_backend_pid() AS pid",
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
                unlock = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"
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
