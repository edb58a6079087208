"""sqlite.py - the native store: SqlStore on stdlib sqlite3 (WAL, synchronous=FULL), and flock ownership.

One database file per state directory (`games.sqlite3`), shared by every
process of this user; each game's owner holds an exclusive `fcntl.flock` on
`locks/<sessionId>.lock` next to it for as long as the game is loaded. The
kernel drops the lock when the holder dies (even by SIGKILL), so a crashed
owner never blocks a later resume. Taking the lock also raises the game's
owner epoch (table `owners`), and every journal write checks, inside its
own transaction, that the epoch is still the one this process wrote (the
SQL store's fence) and that its locked file is still the lock file (the
lease's `lock_gone`, checked before the write): an owner that lost its lock
unnoticed cannot append.

Each write is one short `BEGIN IMMEDIATE` transaction (the database's write
lock: writes of all processes are serialized, so no row locks are needed);
with WAL and `synchronous=FULL` it is on disk when `COMMIT` returns. The
schema version is `PRAGMA user_version`, migrated under that write lock.
sqlite3 is synchronous: the dialect's statements run at once inside the
store's coroutines. Native only (sqlite3, fcntl): never imported in the browser.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from .base import Lease, Ownership, StoreError
from .rows import dumps
from .sql import Dialect, Result, SqlStore, run_now

DATABASE_NAME = "games.sqlite3"
LOCKS_DIR = "locks"
BUSY_TIMEOUT_MS = 5000


def state_dir() -> Path:
    """$NNH_STATE_DIR, else ~/.local/share/nethack-webmcp; created if missing."""
    override = os.environ.get("NNH_STATE_DIR")
    path = Path(override) if override else Path.home() / ".local" / "share" / "nethack-webmcp"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


class SqliteDialect(Dialect):
    """One sqlite3 connection in autocommit mode; writes BEGIN IMMEDIATE."""

    name = "sqlite"
    integrity_error: ClassVar[type[Exception]] = sqlite3.IntegrityError
    error: ClassVar[type[Exception]] = sqlite3.Error
    version_query = "SELECT user_version AS v FROM pragma_user_version"

    def __init__(self, path: Path) -> None:
        self.where = str(path)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        try:
            self.db.row_factory = sqlite3.Row
            mode = self.db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{path}: WAL journal mode unavailable (got {mode})")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except BaseException:
            self.db.close()
            raise

    async def acquire(self) -> sqlite3.Connection:
        return self.db

    def release(self, db: Any) -> None:
        pass

    async def run(self, db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Result:
        cursor = db.execute(sql, tuple(params))
        rows = cursor.fetchall()
        return Result(rows, cursor.rowcount)

    def begin(self) -> str:
        return "BEGIN IMMEDIATE"

    def migration_prologue(self) -> list[str]:
        return []  # BEGIN IMMEDIATE holds the write lock: another opener waits, then sees the new version

    def set_version(self, version: int) -> tuple[str, tuple[Any, ...]]:
        return f"PRAGMA user_version={int(version)}", ()

    async def close(self) -> None:
        self.db.close()


class SqliteStore(SqlStore):
    durability = "sqlite-wal-fsync"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            dialect = SqliteDialect(self.path)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from exc
        super().__init__(dialect)
        try:
            run_now(self._migrate())
        except BaseException:
            run_now(self.close())
            raise

    @classmethod
    def in_state_dir(cls, directory: str | os.PathLike[str] | None = None) -> SqliteStore:
        return cls(Path(directory or state_dir()) / DATABASE_NAME)


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
