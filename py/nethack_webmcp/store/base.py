"""base.py - the one store interface: sessions, journal, receipts, records, ownership.

Everything a game needs to survive its host lives behind `Store` (durable
data) and `Ownership` (who may advance a game). Natively the implementation
is SQLite plus `fcntl.flock` (`store.sqlite`); in the browser it is
IndexedDB plus Web Locks through the core worker's JS (`store.indexeddb`,
web/src/worker/idb-store.js and game-locks.js);
`store.memory` keeps everything in the process (tests, hosts without
persistence). All methods are async so the browser implementation can
await JS promises; the values crossing the interface are plain JSON-shaped
dicts (camelCase keys) so they map one to one onto IndexedDB objects.

Write semantics every implementation must keep:

- every write is atomic and durable when it returns (SQLite: one
  transaction, WAL, synchronous=FULL; IndexedDB: one readwrite transaction
  with `durability: "strict"`, resolved on `complete`);
- a failed write raises `StoreError` and may or may not have happened;
  callers treat it as unknown and verify by reading back;
- the journal is dense per session: `reserve` accepts only `seq = last + 1`.

Objects (TypedDicts below, all JSON):

    SessionInfo   one game: concrete creation parameters, engine identity,
                  view nonce, wall-clock times, status, depth tracking
    JournalEntry  one low request sent (or about to be sent) to the engine:
                  reserved first, then completed / rejected / notApplied
    ToolReceipt   one tool operation's frame by requestId (or operationId),
                  with the canonical payload hash, for exact retries/history
    GameRecord    seed 002's record of a finished game, written once
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from typing import Any, Literal, NotRequired, TypedDict

SCHEMA_VERSION = 2  # the browser store's (IndexedDB); the native stores' is sqlite.NATIVE_SCHEMA_VERSION

EntryState = Literal["reserved", "completed", "rejected", "notApplied"]
SessionStatus = Literal["active", "ended"]
#: the service's limits end games too: "idle_timeout" (no authorized agent call for
#: the configured idle time), "time_limit" (the configured lifetime passed)
EndReason = Literal["ascended", "escaped", "died", "quit", "failed", "idle_timeout", "time_limit"]
#: "chosen": the creator passed the seed; "sealed": the engine picked it and no
#: agent-facing frame discloses it (nor a state hash) until the game has ended.
SeedChoice = Literal["chosen", "sealed"]


class StoreError(Exception):
    """A store operation failed. For a write, whether it happened is unknown."""


class StoreConflict(StoreError):
    """A write would break an invariant (duplicate session, journal gap,
    a receipt already recorded with another payload). Nothing was written."""


class Summary(TypedDict):
    """The boundary a request reached: what a replay must reach again."""

    revision: int
    decision: dict[str, Any] | None  # {id, kind, prompt}
    ended: bool
    end: dict[str, Any] | None


class SessionInfo(TypedDict):
    sessionId: str
    create: dict[str, Any]  # the exact low session.create params a resume sends
    metadata: dict[str, Any]  # the engine's reported `session` object, verified on resume
    createdSummary: Summary
    profile: int
    engineIdentity: str | None
    viewNonce: str
    startedAt: float  # wall clock (Unix seconds UTC) when creation was accepted
    updatedAt: float
    endedAt: float | None
    status: SessionStatus
    lastDepth: int | None
    deepestDepth: int | None
    seedChoice: NotRequired[SeedChoice]  # absent in games stored before schema 2: chosen


class JournalEntry(TypedDict):
    sessionId: str
    seq: int  # 1, 2, 3, ... dense per session
    operationId: str  # the tool operation this input belongs to (its requestId when given)
    requestId: str  # the low requestId sent to the engine
    method: str
    request: dict[str, Any]  # the exact low request, without `quiet`
    reservedAt: float
    state: EntryState
    receipt: dict[str, Any] | None  # completed: Summary; rejected: {error}; notApplied: {reason}
    completedAt: float | None


class ToolReceipt(TypedDict):
    sessionId: str
    requestId: str  # the caller's requestId, or the generated operationId
    payloadHash: str | None  # sha256 of the canonical payload; None when the caller gave no requestId
    frame: dict[str, Any]
    createdAt: float


class GameRecord(TypedDict):
    sessionId: str
    characterName: str
    harnessName: str
    modelName: str
    startedAt: float
    endedAt: float
    endTimeKind: Literal["observed", "recovery"]
    endReason: EndReason
    how: str | None  # NetHack's own `how`
    death: str | None
    score: int | None
    turns: int | None
    lastDepth: int | None
    deepestDepth: int | None
    seed: NotRequired[int | None]  # shown once the game has ended, sealed or not
    seedChoice: NotRequired[SeedChoice | None]


def canonical(payload: Any) -> str:
    """Canonical JSON: key order and spacing do not matter."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def payload_hash(payload: Any) -> str:
    return hashlib.sha256(canonical(payload).encode("utf-8")).hexdigest()


class Store(ABC):
    """Durable game data. One instance per process (per database)."""

    #: what `protocol.describe`-style capabilities report: "sqlite-wal-fsync",
    #: "indexeddb-strict", "memory" (no durability)
    durability: str = "memory"

    # ---- sessions ------------------------------------------------------------------

    @abstractmethod
    async def create_session(self, info: SessionInfo) -> None:
        """Insert a new game. StoreConflict when the sessionId exists."""

    @abstractmethod
    async def get_session(self, session_id: str) -> SessionInfo | None: ...

    @abstractmethod
    async def list_sessions(self) -> list[SessionInfo]:
        """Every stored game, newest first."""

    @abstractmethod
    async def update_session(self, session_id: str, fields: dict[str, Any]) -> None:
        """Set some SessionInfo fields (updatedAt, status, depths, endedAt)."""

    # ---- journal ---------------------------------------------------------------------

    @abstractmethod
    async def reserve(self, entry: JournalEntry) -> None:
        """Record a request *before* the engine sees it (state "reserved").
        StoreConflict unless entry.seq is the session's last seq + 1."""

    @abstractmethod
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
        """Close a reservation, atomically with optional session field updates
        and an optional game record (inserted only if none exists yet).
        Returns True when `record` was written by this call.
        StoreConflict when the entry is not "reserved"."""

    @abstractmethod
    async def journal(self, session_id: str, after_seq: int = 0) -> list[JournalEntry]:
        """Entries with seq > after_seq, in order."""

    @abstractmethod
    async def operation_entries(self, session_id: str, operation_id: str) -> list[JournalEntry]:
        """The journal entries of one tool operation, in order."""

    # ---- tool receipts ------------------------------------------------------------

    @abstractmethod
    async def get_receipt(self, session_id: str, request_id: str) -> ToolReceipt | None: ...

    @abstractmethod
    async def put_receipt(self, receipt: ToolReceipt) -> None:
        """Record an operation's frame. Writing the identical receipt again is a
        no-op; a different payload hash under the same requestId is StoreConflict."""

    # ---- records ----------------------------------------------------------------------

    @abstractmethod
    async def put_record(self, record: GameRecord) -> bool:
        """Insert a finished game's record once; False when one exists already."""

    @abstractmethod
    async def get_record(self, session_id: str) -> GameRecord | None: ...

    @abstractmethod
    async def recent_records(self, limit: int = 10) -> list[GameRecord]:
        """The latest finished games, by endedAt then sessionId, newest first."""

    # ---- exchange -------------------------------------------------------------------

    @abstractmethod
    async def import_game(
        self, info: SessionInfo, entries: list[JournalEntry], receipts: list[ToolReceipt], record: GameRecord | None
    ) -> None:
        """Insert a whole exported game in one transaction. StoreConflict when
        the sessionId exists."""

    async def receipts(self, session_id: str) -> list[ToolReceipt]:
        """Every tool receipt of a game (export). Optional: default none."""
        return []

    # ---- control tokens (the HTTP service) ------------------------------------------

    async def put_control_hash(self, session_id: str, token_hash: str) -> None:
        """Keep the hash of a game's control token (never the token), once per
        game: StoreConflict when one is kept already. Optional: stores of hosts
        without an HTTP service (the browser) keep none."""
        raise StoreError("this store keeps no control tokens")

    async def get_control_hash(self, session_id: str) -> str | None:
        """The hash kept for a game's control token, if any."""
        return None

    async def close(self) -> None:  # noqa: B027  (optional: a store may hold nothing to release)
        """Release the store's resources. Idempotent."""


class Lease(ABC):
    """Exclusive ownership of one game, held while it is loaded."""

    session_id: str

    @property
    def lost(self) -> bool:
        """True when another owner took the game over (browser Web Lock steal)."""
        return False

    @abstractmethod
    async def release(self) -> None:
        """Give the game up. Idempotent."""


class Ownership(ABC):
    """Who may advance which game. Natively a per-session file lock, in the
    browser the Web Lock `nethack:session:<id>`."""

    @abstractmethod
    async def acquire(self, session_id: str) -> Lease | None:
        """Take the game if nobody holds it; None when another owner does."""

    async def steal(self, session_id: str) -> Lease:
        """Take the game over from a live owner, whose lease turns `lost`
        (browser: Web Lock `steal`). Hosts whose locks cannot be stolen
        (flock) raise NotImplementedError: there the owner hands over by closing."""
        raise NotImplementedError("this host cannot take a game over from a live owner")

    async def holder(self, session_id: str) -> dict[str, Any] | None:
        """What is known about the current holder (for diagnostics), if anything."""
        return None
