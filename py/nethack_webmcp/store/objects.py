"""objects.py - the JSON objects every store keeps, and how a payload is hashed.

    SessionInfo   one game: concrete creation parameters, engine identity,
                  view nonce, wall-clock times, status, depth tracking
    JournalEntry  one low request sent (or about to be sent) to the engine:
                  reserved first, then completed / rejected / notApplied
    ToolReceipt   one tool operation's frame by requestId (or operationId),
                  with the canonical payload hash, for exact retries/history,
                  and the tool call that made it (tool and arguments)
    GameRecord    seed 002's record of a finished game, written once
    Checkpoint    a persisted engine checkpoint at one move of a game (derived
                  data: every one is rebuilt by a verified replay of the journal)

All are plain JSON-shaped dicts (camelCase keys), so they map one to one
onto IndexedDB objects and onto the SQL stores' rows (rows.py).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal, NotRequired, TypedDict

SCHEMA_VERSION = 3  # the browser store's (IndexedDB); the SQL stores' is schema.SQL_SCHEMA_VERSION

EntryState = Literal["reserved", "completed", "rejected", "notApplied"]
SessionStatus = Literal["active", "ended"]
#: the service's limits end games too: "idle_timeout" (no authorized agent call for
#: the configured idle time), "time_limit" (the configured lifetime passed)
EndReason = Literal["ascended", "escaped", "died", "quit", "failed", "idle_timeout", "time_limit"]
#: "chosen": the creator passed the seed; "sealed": the engine picked it and no
#: agent-facing frame discloses it (nor a state hash) until the game has ended.
SeedChoice = Literal["chosen", "sealed"]

#: the SessionInfo fields `update_session` (and `complete`'s session_fields) may set
UPDATABLE_SESSION_FIELDS = ("updatedAt", "endedAt", "status", "lastDepth", "deepestDepth", "closedAt", "maxLevel")
#: the close mark: set (a time) by `session close`, cleared (None: the field is absent
#: again) by `session resume`; every store reads a cleared mark as absent
CLOSE_MARK = "closedAt"


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
    #: when `session close` closed the game (wall clock); absent while it is open
    #: (and in games stored before SQL schema 6 / IndexedDB version 3)
    closedAt: NotRequired[float]
    #: the highest experience level the hero has reached (never lowered: a level drain leaves it);
    #: absent in games stored before SQL schema 7 until their next acting call raises or sets it
    maxLevel: NotRequired[int]


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
    #: the tool call that made it, {tool, arguments} (nothing secret: tools/calls.py);
    #: absent from receipts stored before it, and from receipts of no tool call
    call: NotRequired[dict[str, Any]]


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
    maxLevel: NotRequired[int]  # the highest experience level reached; absent from records stored before it


def is_closed(info: SessionInfo) -> bool:
    """True when `session close` closed the game and no `session resume` has opened it since."""
    return info.get(CLOSE_MARK) is not None


def canonical(payload: Any) -> str:
    """Canonical JSON: key order and spacing do not matter."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def payload_hash(payload: Any) -> str:
    return hashlib.sha256(canonical(payload).encode("utf-8")).hexdigest()


def latest(receipts: list[ToolReceipt]) -> ToolReceipt | None:
    """The latest of some receipts: the greatest createdAt, then requestId
    (the order every store's `latest_receipt` answers in)."""
    return max(receipts, key=lambda receipt: (receipt["createdAt"], receipt["requestId"]), default=None)


class CheckpointIndex(TypedDict):
    """What a stored checkpoint claims, without its bytes (what a reader
    checks before fetching any: `Store.checkpoint_index`)."""

    sessionId: str
    move: int  # the game after its `move`-th completed journal input
    seq: int  # the journal seq of that input (0: the creation)
    digest: str  # the journal's hash chain digest at `move` (replay/digest.py)
    engine: str  # the engine build and base the state restores on ("asyncify:<sha256> <base sha256>")
    sha256: str  # of `state`
    meta: dict[str, Any]  # the rest of what the engine's record claims (format, summary, navigation sha256)
    createdAt: float


class Checkpoint(CheckpointIndex):
    state: bytes  # the engine's compressed state (web/src/worker/checkpoints.js)
    navigation: bytes | None  # the host's navigation memory at `move` (navigation/snapshot.py), if kept


def index_of(checkpoint: Checkpoint) -> CheckpointIndex:
    """What a checkpoint claims, without its bytes (a copy)."""
    return {
        "sessionId": checkpoint["sessionId"],
        "move": checkpoint["move"],
        "seq": checkpoint["seq"],
        "digest": checkpoint["digest"],
        "engine": checkpoint["engine"],
        "sha256": checkpoint["sha256"],
        "meta": json.loads(json.dumps(checkpoint["meta"])),
        "createdAt": checkpoint["createdAt"],
    }
