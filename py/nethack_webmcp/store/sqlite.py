"""sqlite.py - the native store: stdlib sqlite3 (WAL, synchronous=FULL) and flock ownership.

One database file per state directory (`games.sqlite3`), shared by every
process of this user; each game's owner holds an exclusive `fcntl.flock` on
`locks/<sessionId>.lock` next to it for as long as the game is loaded. The
kernel drops the lock when the holder dies (even by SIGKILL), so a crashed
owner never blocks a later resume. Taking the lock also raises the game's
owner epoch (table `owners`), and every journal write checks, inside its
own transaction, that the epoch is still the one this process wrote and
that its locked file is still the lock file (not deleted or replaced): an
owner that lost its lock unnoticed cannot append.

Each write is one short `BEGIN IMMEDIATE` transaction; with WAL and
`synchronous=FULL` it is on disk when `commit` returns. The schema version
is `PRAGMA user_version`; `MIGRATIONS[n]` takes a database from version n to
n+1, applied in order at open. A database newer than this program is
refused. Native only (sqlite3, fcntl): never imported in the browser.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .base import (
    SCHEMA_VERSION,
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

DATABASE_NAME = "games.sqlite3"
LOCKS_DIR = "locks"
BUSY_TIMEOUT_MS = 5000

#: the native stores' schema (SQLite and PostgreSQL): the shared one (base.SCHEMA_VERSION)
#: plus schema 3, the HTTP service's control-token hashes and limit end reasons, and
#: schema 4, the owner epochs that fence journal writes
NATIVE_SCHEMA_VERSION = SCHEMA_VERSION + 2

#: owner epochs, one row per game ever owned; no foreign key: a new game is
#: claimed (its lock taken) before its session row is written
OWNERS_TABLE = """CREATE TABLE owners (
    session_id TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL CHECK (epoch >= 1),
    holder_json TEXT NOT NULL,
    claimed_at_s {real} NOT NULL
)"""
#: one claim: the next epoch (1 for a game never owned), in one statement of both dialects
CLAIM = (
    "INSERT INTO owners (session_id, epoch, holder_json, claimed_at_s) VALUES ({mark}, 1, {mark}, {mark}) "
    "ON CONFLICT (session_id) DO UPDATE SET epoch = owners.epoch + 1, holder_json = excluded.holder_json, "
    "claimed_at_s = excluded.claimed_at_s RETURNING epoch"
)
MIGRATIONS: list[list[str]] = [
    # 0 -> 1: sessions, journal, tool receipts, game records
    [
        """CREATE TABLE sessions (
            session_id TEXT PRIMARY KEY,
            seed INTEGER NOT NULL,
            name TEXT NOT NULL,
            role TEXT NOT NULL,
            race TEXT NOT NULL,
            gender TEXT NOT NULL,
            alignment TEXT NOT NULL,
            created_at INTEGER NOT NULL,          -- the game's fixed clock (createdAt)
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            wizard INTEGER NOT NULL,
            profile INTEGER NOT NULL,
            engine_identity TEXT,
            view_nonce TEXT NOT NULL,
            create_json TEXT NOT NULL,            -- the exact low session.create params
            metadata_json TEXT NOT NULL,          -- the engine's reported session object
            created_summary_json TEXT NOT NULL,
            started_at_s REAL NOT NULL,           -- wall clock, Unix seconds UTC
            updated_at_s REAL NOT NULL,
            ended_at_s REAL,
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
            request_json TEXT NOT NULL,           -- the exact low request, without quiet
            reserved_at_s REAL NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('reserved', 'completed', 'rejected', 'notApplied')),
            receipt_json TEXT,
            completed_at_s REAL,
            PRIMARY KEY (session_id, seq),
            CHECK ((state = 'reserved') = (receipt_json IS NULL))
        ) WITHOUT ROWID""",
        "CREATE INDEX journal_operation_idx ON journal (session_id, operation_id)",
        """CREATE TABLE receipts (
            session_id TEXT NOT NULL REFERENCES sessions (session_id),
            request_id TEXT NOT NULL,
            payload_hash TEXT,
            frame_json TEXT NOT NULL,
            created_at_s REAL NOT NULL,
            PRIMARY KEY (session_id, request_id)
        ) WITHOUT ROWID""",
        """CREATE TABLE game_records (
            game_id TEXT PRIMARY KEY,
            character_name TEXT NOT NULL,
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            started_at_s INTEGER NOT NULL,
            ended_at_s INTEGER NOT NULL,
            end_time_kind TEXT NOT NULL CHECK (end_time_kind IN ('observed', 'recovery')),
            end_reason TEXT NOT NULL CHECK (end_reason IN ('ascended', 'escaped', 'died', 'quit', 'failed')),
            how TEXT,
            death TEXT,
            score INTEGER,
            turns INTEGER,
            last_depth INTEGER,
            deepest_depth INTEGER
        )""",
        "CREATE INDEX game_records_recent_idx ON game_records (ended_at_s DESC, game_id DESC)",
    ],
    # 1 -> 2: whether the seed was chosen or sealed; records carry the seed
    [
        "ALTER TABLE sessions ADD COLUMN seed_choice TEXT CHECK (seed_choice IN ('chosen', 'sealed'))",
        "ALTER TABLE game_records ADD COLUMN seed INTEGER",
        "ALTER TABLE game_records ADD COLUMN seed_choice TEXT CHECK (seed_choice IN ('chosen', 'sealed'))",
    ],
    # 2 -> 3: control-token hashes (the HTTP service), and the service limits' end
    # reasons; SQLite cannot alter a CHECK, so game_records is rebuilt
    [
        """CREATE TABLE control_tokens (
            session_id TEXT PRIMARY KEY REFERENCES sessions (session_id),
            token_hash TEXT NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE game_records_3 (
            game_id TEXT PRIMARY KEY,
            character_name TEXT NOT NULL,
            harness_name TEXT NOT NULL,
            model_name TEXT NOT NULL,
            started_at_s INTEGER NOT NULL,
            ended_at_s INTEGER NOT NULL,
            end_time_kind TEXT NOT NULL CHECK (end_time_kind IN ('observed', 'recovery')),
            end_reason TEXT NOT NULL CHECK (end_reason IN ('ascended', 'escaped', 'died', 'quit', 'failed',
                                                           'idle_timeout', 'time_limit')),
            how TEXT,
            death TEXT,
            score INTEGER,
            turns INTEGER,
            last_depth INTEGER,
            deepest_depth INTEGER,
            seed INTEGER,
            seed_choice TEXT CHECK (seed_choice IN ('chosen', 'sealed'))
        )""",
        (
            "INSERT INTO game_records_3 SELECT game_id, character_name, harness_name, model_name, started_at_s, "
            "ended_at_s, end_time_kind, end_reason, how, death, score, turns, last_depth, deepest_depth, seed, "
            "seed_choice FROM game_records"
        ),
        "DROP TABLE game_records",
        "ALTER TABLE game_records_3 RENAME TO game_records",
        "CREATE INDEX game_records_recent_idx ON game_records (ended_at_s DESC, game_id DESC)",
    ],
    # 3 -> 4: owner epochs (fenced journal writes)
    [OWNERS_TABLE.format(real="REAL") + " WITHOUT ROWID"],
]
assert len(MIGRATIONS) == NATIVE_SCHEMA_VERSION

SESSION_FIELDS = {
    "updatedAt": "updated_at_s",
    "endedAt": "ended_at_s",
    "status": "status",
    "lastDepth": "last_depth",
    "deepestDepth": "deepest_depth",
}


def state_dir() -> Path:
    """$NNH_STATE_DIR, else ~/.local/share/nethack-webmcp; created if missing."""
    override = os.environ.get("NNH_STATE_DIR")
    path = Path(override) if override else Path.home() / ".local" / "share" / "nethack-webmcp"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


class SqliteStore(Store):
    durability = "sqlite-wal-fsync"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
            self._db.row_factory = sqlite3.Row
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: WAL journal mode unavailable (got {mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._migrate()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from exc
        self._closed = False

    @classmethod
    def in_state_dir(cls, directory: str | os.PathLike[str] | None = None) -> SqliteStore:
        return cls(Path(directory or state_dir()) / DATABASE_NAME)

    # ---- plumbing ---------------------------------------------------------------

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > NATIVE_SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}, newer than this program's "
                f"{NATIVE_SCHEMA_VERSION}; use a newer nethack-webmcp"
            )
        while version < NATIVE_SCHEMA_VERSION:
            with self._tx():
                # re-read under the write lock: another process may have migrated
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                if version >= NATIVE_SCHEMA_VERSION:
                    break
                for statement in MIGRATIONS[version]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version={version + 1}")
            version += 1

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        if getattr(self, "_closed", False):
            raise StoreError(f"{what}: the store is closed")
        try:
            yield
        except StoreError:
            raise
        except sqlite3.IntegrityError as exc:
            raise StoreConflict(f"{what}: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{what}: {exc}") from exc

    @property
    def schema_version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # ---- sessions -------------------------------------------------------------------

    def _insert_session(self, db: sqlite3.Connection, info: SessionInfo) -> None:
        columns = ", ".join(SESSION_COLUMNS)
        marks = ",".join("?" for _ in SESSION_COLUMNS)
        db.execute(f"INSERT INTO sessions ({columns}) VALUES ({marks})", session_values(info))

    async def create_session(self, info: SessionInfo) -> None:
        with self._errors("create session"), self._tx() as db:
            self._insert_session(db, info)

    async def get_session(self, session_id: str) -> SessionInfo | None:
        with self._errors("read session"):
            row = self._db.execute("SELECT * FROM sessions WHERE session_id = ?", (session_id,)).fetchone()
        return session_from_row(row) if row else None

    async def list_sessions(self) -> list[SessionInfo]:
        with self._errors("list sessions"):
            rows = self._db.execute("SELECT * FROM sessions ORDER BY started_at_s DESC, session_id DESC")
            return [session_from_row(row) for row in rows]

    def _update_session(self, db: sqlite3.Connection, session_id: str, fields: dict[str, Any]) -> None:
        unknown = set(fields) - set(SESSION_FIELDS)
        if unknown:
            raise StoreError(f"cannot update session fields {sorted(unknown)}")
        if not fields:
            return
        assignments = ", ".join(f"{SESSION_FIELDS[key]} = ?" for key in fields)
        cursor = db.execute(f"UPDATE sessions SET {assignments} WHERE session_id = ?", (*fields.values(), session_id))
        if cursor.rowcount != 1:
            raise StoreConflict(f"no session {session_id!r}")

    async def update_session(self, session_id: str, fields: dict[str, Any]) -> None:
        with self._errors("update session"), self._tx() as db:
            self._update_session(db, session_id, fields)

    # ---- journal ------------------------------------------------------------------------

    @staticmethod
    def _insert_entry(db: sqlite3.Connection, entry: JournalEntry) -> None:
        db.execute(
            "INSERT INTO journal (session_id, seq, operation_id, request_id, method, request_json, "
            "reserved_at_s, state, receipt_json, completed_at_s) VALUES (?,?,?,?,?,?,?,?,?,?)",
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
        with self._errors("claim game"), self._tx() as db:
            rows = db.execute(CLAIM.format(mark="?"), (session_id, dumps(holder), time.time())).fetchall()
        return int(rows[0][0])

    def _fenced(self, db: sqlite3.Connection, session_id: str) -> None:
        """Inside a write transaction (BEGIN IMMEDIATE: claims are serialized
        with it): refuse unless this store's claim on the game still holds."""
        fence = self.fence_of(session_id)
        if fence is None:
            return
        fence.precheck()
        row = db.execute("SELECT epoch FROM owners WHERE session_id = ?", (session_id,)).fetchone()
        fence.verify(None if row is None else int(row[0]))

    async def reserve(self, entry: JournalEntry) -> None:
        with self._errors("reserve journal entry"), self._tx() as db:
            self._fenced(db, entry["sessionId"])
            last = (
                db.execute("SELECT max(seq) FROM journal WHERE session_id = ?", (entry["sessionId"],)).fetchone()[0]
                or 0
            )
            if entry["seq"] != last + 1:
                raise StoreConflict(f"journal seq {entry['seq']} of {entry['sessionId']!r} is not {last + 1}")
            if entry["state"] != "reserved" or entry["receipt"] is not None:
                raise StoreConflict("a reservation has state 'reserved' and no receipt")
            self._insert_entry(db, entry)

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
        with self._errors("complete journal entry"), self._tx() as db:
            self._fenced(db, session_id)
            cursor = db.execute(
                "UPDATE journal SET state = ?, receipt_json = ?, completed_at_s = ? "
                "WHERE session_id = ? AND seq = ? AND state = 'reserved'",
                (state, dumps(receipt), completed_at, session_id, seq),
            )
            if cursor.rowcount != 1:
                raise StoreConflict(f"journal entry {seq} of {session_id!r} is not reserved")
            if session_fields:
                self._update_session(db, session_id, session_fields)
            return self._insert_record(db, record) if record is not None else False

    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        with self._errors("read journal"):
            rows = self._db.execute(
                "SELECT * FROM journal WHERE session_id = ? AND seq > ? ORDER BY seq", (session_id, after_seq)
            )
            return [entry_from_row(session_id, row) for row in rows]

    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        with self._errors("read journal"):
            rows = self._db.execute(
                "SELECT * FROM journal WHERE session_id = ? AND operation_id = ? ORDER BY seq",
                (session_id, operation_id),
            )
            return [entry_from_row(session_id, row) for row in rows]

    # ---- tool receipts -------------------------------------------------------------------

    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None:
        with self._errors("read receipt"):
            row = self._db.execute(
                "SELECT * FROM receipts WHERE session_id = ? AND request_id = ?", (session_id, request_id)
            ).fetchone()
        return receipt_from_row(row) if row else None

    async def put_receipt(self, receipt: ToolReceipt) -> None:
        with self._errors("record receipt"), self._tx() as db:
            row = db.execute(
                "SELECT payload_hash FROM receipts WHERE session_id = ? AND request_id = ?",
                (receipt["sessionId"], receipt["requestId"]),
            ).fetchone()
            if row is not None:
                if row["payload_hash"] != receipt["payloadHash"]:
                    raise StoreConflict(f"requestId {receipt['requestId']!r} is recorded with another payload")
                return
            db.execute(
                "INSERT INTO receipts (session_id, request_id, payload_hash, frame_json, created_at_s) "
                "VALUES (?,?,?,?,?)",
                (
                    receipt["sessionId"],
                    receipt["requestId"],
                    receipt["payloadHash"],
                    dumps(receipt["frame"]),
                    receipt["createdAt"],
                ),
            )

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        with self._errors("read receipts"):
            rows = self._db.execute("SELECT * FROM receipts WHERE session_id = ? ORDER BY created_at_s", (session_id,))
            return [receipt_from_row(row) for row in rows]

    # ---- records -------------------------------------------------------------------------

    @staticmethod
    def _insert_record(db: sqlite3.Connection, record: GameRecord) -> bool:
        columns = ", ".join(RECORD_COLUMNS.values())
        marks = ", ".join("?" for _ in RECORD_COLUMNS)
        cursor = db.execute(
            f"INSERT OR IGNORE INTO game_records ({columns}) VALUES ({marks})",
            tuple(record.get(key) for key in RECORD_COLUMNS),
        )
        return cursor.rowcount == 1

    async def put_record(self, record: GameRecord) -> bool:
        with self._errors("record game"), self._tx() as db:
            return self._insert_record(db, record)

    async def get_record(self, session_id: str) -> GameRecord | None:
        with self._errors("read record"):
            row = self._db.execute("SELECT * FROM game_records WHERE game_id = ?", (session_id,)).fetchone()
        return record_from_row(row) if row else None

    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        with self._errors("read records"):
            rows = self._db.execute(
                "SELECT * FROM game_records ORDER BY ended_at_s DESC, game_id DESC LIMIT ?", (limit,)
            )
            return [record_from_row(row) for row in rows]

    # ---- exchange ------------------------------------------------------------------------

    async def import_game(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        with self._errors("import game"), self._tx() as db:
            self._insert_session(db, info)
            for expected, entry in enumerate(entries, start=1):
                if entry["seq"] != expected or entry["sessionId"] != info["sessionId"]:
                    raise StoreConflict(f"journal entry {entry['seq']} is out of order")
                self._insert_entry(db, entry)
            for receipt in receipts:
                db.execute(
                    "INSERT INTO receipts (session_id, request_id, payload_hash, frame_json, "
                    "created_at_s) VALUES (?,?,?,?,?)",
                    (
                        info["sessionId"],
                        receipt["requestId"],
                        receipt["payloadHash"],
                        dumps(receipt["frame"]),
                        receipt["createdAt"],
                    ),
                )
            if record is not None:
                self._insert_record(db, record)

    # ---- control tokens (hashes only) ------------------------------------------------------

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        with self._errors("record control token"), self._tx() as db:
            db.execute("INSERT INTO control_tokens (session_id, token_hash) VALUES (?, ?)", (session_id, token_hash))

    async def get_control_hash(self, session_id: str) -> str | None:
        with self._errors("read control token"):
            row = self._db.execute(
                "SELECT token_hash FROM control_tokens WHERE session_id = ?", (session_id,)
            ).fetchone()
        return row["token_hash"] if row else None

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._db.close()


# ---- ownership: one flock per game ---------------------------------------------------------


class _FileLease(Lease):
    def __init__(self, owner: FileOwnership, session_id: str, fd: int, path: Path) -> None:
        self.session_id = session_id
        self._owner = owner
        self._fd: int | None = fd
        self._path = path

    def lock_gone(self) -> str | None:
        """Why the flock no longer guards the game, if it does not: the locked
        file is no longer the lock file (deleted, or replaced), so another
        opener can lock the new one."""
        fd = self._fd
        if fd is None:
            return None  # released
        try:
            locked, current = os.fstat(fd), os.stat(self._path)
        except OSError:
            return f"its lock file {self._path} was deleted"
        if (locked.st_dev, locked.st_ino) != (current.st_dev, current.st_ino):
            return f"its lock file {self._path} was replaced"
        return None

    @property
    def lost(self) -> bool:
        return super().lost or self.lock_gone() is not None

    async def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            if self.fence is not None and self._owner.store is not None:
                self._owner.store.release_claim(self.fence)
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)


class FileOwnership(Ownership):
    """`locks/<sessionId>.lock` under the state directory, held with
    `flock(LOCK_EX | LOCK_NB)` by the process that has the game loaded.
    The file holds the owner's pid for diagnostics; it is never deleted
    (deleting a lock file races with a concurrent opener; if something else
    deletes it, the lease turns lost and the fence refuses its writes).
    Bound to the store (`bind`, done by GameRegistry), each acquire claims
    the game there (a new owner epoch)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)

    def _path(self, session_id: str) -> Path:
        if not session_id or "/" in session_id or session_id.startswith("."):
            raise StoreError(f"session ID {session_id!r} cannot name a lock file")
        return self.directory / f"{session_id}.lock"

    @classmethod
    def in_state_dir(cls, directory: str | os.PathLike[str] | None = None) -> FileOwnership:
        return cls(Path(directory or state_dir()) / LOCKS_DIR)

    async def acquire(self, session_id: str) -> Lease | None:
        path = self._path(session_id)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot open the lock file {path}: {exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        holder = {"pid": os.getpid(), "since": time.time()}
        lease = _FileLease(self, session_id, fd, path)
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, dumps(holder).encode(), 0)
            # the new owner epoch, before the caller reads the journal: from now on
            # any earlier owner's journal writes are refused
            lease.fence = await self._claim(session_id, holder)
        except BaseException:
            await lease.release()
            raise
        if lease.fence is not None:
            lease.fence.lock_gone = lease.lock_gone
        return lease

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        try:
            text = self._path(session_id).read_text()
            return json.loads(text) if text else None
        except (OSError, ValueError):
            return None
