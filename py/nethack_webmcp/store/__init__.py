"""store - durable games: one interface (base), implementations per host.

    base      Store / Ownership interfaces, the JSON objects, errors
    memory    in-process (no durability): tests, hosts without persistence
    sqlite    native: SQLite (WAL, synchronous=FULL) + flock ownership
    indexeddb browser: IndexedDB (strict durability) + Web Locks through a JS helper

Only `base` and `memory` are imported here; `sqlite` uses native-only
modules and `indexeddb` browser-only ones: hosts import them explicitly.
"""

from .base import (
    SCHEMA_VERSION,
    Fence,
    GameRecord,
    JournalEntry,
    Lease,
    Ownership,
    OwnershipLost,
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    Summary,
    ToolReceipt,
    canonical,
    payload_hash,
)
from .memory import MemoryOwnership, MemoryStore

__all__ = [
    "SCHEMA_VERSION",
    "Fence",
    "GameRecord",
    "JournalEntry",
    "Lease",
    "MemoryOwnership",
    "MemoryStore",
    "Ownership",
    "OwnershipLost",
    "SessionInfo",
    "Store",
    "StoreConflict",
    "StoreError",
    "Summary",
    "ToolReceipt",
    "canonical",
    "payload_hash",
]
