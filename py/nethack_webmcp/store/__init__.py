"""store - durable games: one interface (base), implementations per host.

    objects     the JSON objects a store keeps (SessionInfo, JournalEntry, ...)
    base        Store / Ownership interfaces, errors, the fence; the journal's
                argument rules as Store's template methods
    transaction the rules checked inside a write's transaction, over StoreTx
                (every Python-side store: memory, SQL)
    memory      in-process (no durability): tests, hosts without persistence
    sql         the one SQL store over a dialect; schema (its migrations), rows
                (row <-> object)
    sqlite      native: the SQL store on SQLite (WAL, synchronous=FULL) + flock ownership
    postgres    the HTTP service: the SQL store on PostgreSQL + advisory-lock ownership
    indexeddb   browser: IndexedDB (strict durability) + Web Locks through a JS helper

Only `base` and `memory` are imported here; `sqlite` and `postgres` use
native-only modules and `indexeddb` browser-only ones: hosts import them
explicitly.
"""

from .base import Fence, Lease, Outcome, Ownership, OwnershipLost, Store, StoreConflict, StoreError
from .memory import MemoryOwnership, MemoryStore
from .objects import (
    SCHEMA_VERSION,
    Checkpoint,
    CheckpointIndex,
    GameRecord,
    JournalEntry,
    SessionInfo,
    Summary,
    ToolReceipt,
    canonical,
    is_closed,
    payload_hash,
)

__all__ = [
    "SCHEMA_VERSION",
    "Checkpoint",
    "CheckpointIndex",
    "Fence",
    "GameRecord",
    "JournalEntry",
    "Lease",
    "MemoryOwnership",
    "MemoryStore",
    "Ownership",
    "Outcome",
    "OwnershipLost",
    "SessionInfo",
    "Store",
    "StoreConflict",
    "StoreError",
    "Summary",
    "ToolReceipt",
    "canonical",
    "is_closed",
    "payload_hash",
]
