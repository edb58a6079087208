"""rows.py - one mapping between the SQL store's rows and the Store's JSON objects.

SQLite and PostgreSQL keep the same tables with the same column names
(schema.py), so a row becomes a SessionInfo, JournalEntry, ToolReceipt or
GameRecord, and back, the same way in both; JSON columns are text written
compactly (not jsonb: the exact text, key order included, is what is kept).
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from .objects import GameRecord, JournalEntry, SessionInfo, ToolReceipt

RECORD_COLUMNS = {
    "sessionId": "game_id",
    "characterName": "character_name",
    "harnessName": "harness_name",
    "modelName": "model_name",
    "startedAt": "started_at_s",
    "endedAt": "ended_at_s",
    "endTimeKind": "end_time_kind",
    "endReason": "end_reason",
    "how": "how",
    "death": "death",
    "score": "score",
    "turns": "turns",
    "lastDepth": "last_depth",
    "deepestDepth": "deepest_depth",
    "seed": "seed",
    "seedChoice": "seed_choice",
    "maxLevel": "max_level",
}
#: absent from records written before schema 2 (the seed fields) or schema 7 (maxLevel)
OPTIONAL_RECORD_FIELDS = {"seed", "seedChoice", "maxLevel"}


SESSION_COLUMNS = (
    "session_id", "seed", "name", "role", "race", "gender", "alignment", "created_at",
    "harness_name", "model_name", "wizard", "profile", "engine_identity", "view_nonce", "create_json",
    "metadata_json", "created_summary_json", "started_at_s", "updated_at_s", "ended_at_s", "status",
    "last_depth", "deepest_depth", "seed_choice", "closed_at_s", "max_level",
)  # fmt: skip
ENTRY_COLUMNS = (
    "session_id", "seq", "operation_id", "request_id", "method", "request_json",
    "reserved_at_s", "state", "receipt_json", "completed_at_s",
)  # fmt: skip
RECEIPT_COLUMNS = ("session_id", "request_id", "payload_hash", "frame_json", "created_at_s")
#: a receipt's tool call is kept inside its frame's JSON under this key (no column: receipts
#: stored before it simply lack the key); no frame has it (the frame is closed: tools/frame_schema.py)
CALL_KEY = "@call"
#: the updatable SessionInfo fields' columns
SESSION_FIELD_COLUMNS = {
    "updatedAt": "updated_at_s",
    "endedAt": "ended_at_s",
    "status": "status",
    "lastDepth": "last_depth",
    "deepestDepth": "deepest_depth",
    "closedAt": "closed_at_s",
    "maxLevel": "max_level",
}


class Row(Protocol):
    """A result row read by column name (sqlite3.Row, psycopg's dict rows)."""

    def __getitem__(self, key: str, /) -> Any: ...


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def whole(value: Any) -> Any:
    """A time as SQLite's INTEGER affinity returns it: whole floats as ints
    (PostgreSQL keeps a DOUBLE a float), so both stores return equal records."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def session_values(info: SessionInfo) -> tuple[Any, ...]:
    """A new session's row, in SESSION_COLUMNS order (wizard as a bool:
    sqlite3 stores it as 0/1, PostgreSQL as BOOLEAN)."""
    create = info["create"]
    return (
        info["sessionId"],
        create["seed"],
        create["name"],
        create["role"],
        create["race"],
        create["gender"],
        create["alignment"],
        create["createdAt"],
        create.get("harness_name", ""),
        create.get("model_name", ""),
        bool(create.get("wizard")),
        info["profile"],
        info["engineIdentity"],
        info["viewNonce"],
        dumps(create),
        dumps(info["metadata"]),
        dumps(info["createdSummary"]),
        info["startedAt"],
        info["updatedAt"],
        info["endedAt"],
        info["status"],
        info["lastDepth"],
        info["deepestDepth"],
        info.get("seedChoice"),
        info.get("closedAt"),
        info.get("maxLevel"),
    )


def entry_values(entry: JournalEntry) -> tuple[Any, ...]:
    """A journal entry's row, in ENTRY_COLUMNS order."""
    return (
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
    )


def receipt_values(receipt: ToolReceipt) -> tuple[Any, ...]:
    """A receipt's row, in RECEIPT_COLUMNS order."""
    return (
        receipt["sessionId"],
        receipt["requestId"],
        receipt["payloadHash"],
        dumps({**receipt["frame"], CALL_KEY: receipt["call"]} if "call" in receipt else receipt["frame"]),
        receipt["createdAt"],
    )


def record_values(record: GameRecord) -> tuple[Any, ...]:
    """A record's row, in RECORD_COLUMNS order (absent optional fields are NULL)."""
    return tuple(record.get(key) for key in RECORD_COLUMNS)


def session_from_row(row: Row) -> SessionInfo:
    info = SessionInfo(
        sessionId=row["session_id"],
        create=loads(row["create_json"]),
        metadata=loads(row["metadata_json"]),
        createdSummary=loads(row["created_summary_json"]),
        profile=row["profile"],
        engineIdentity=row["engine_identity"],
        viewNonce=row["view_nonce"],
        startedAt=row["started_at_s"],
        updatedAt=row["updated_at_s"],
        endedAt=row["ended_at_s"],
        status=row["status"],
        lastDepth=row["last_depth"],
        deepestDepth=row["deepest_depth"],
    )
    if row["seed_choice"] is not None:
        info["seedChoice"] = row["seed_choice"]
    if row["closed_at_s"] is not None:  # a cleared (or never set) close mark is absent
        info["closedAt"] = row["closed_at_s"]
    if row["max_level"] is not None:  # NULL in games stored before schema 7
        info["maxLevel"] = row["max_level"]
    return info


def entry_from_row(session_id: str, row: Row) -> JournalEntry:
    return JournalEntry(
        sessionId=session_id,
        seq=row["seq"],
        operationId=row["operation_id"],
        requestId=row["request_id"],
        method=row["method"],
        request=loads(row["request_json"]),
        reservedAt=row["reserved_at_s"],
        state=row["state"],
        receipt=loads(row["receipt_json"]),
        completedAt=row["completed_at_s"],
    )


def receipt_from_row(row: Row) -> ToolReceipt:
    frame = loads(row["frame_json"])
    call = frame.pop(CALL_KEY, None)
    receipt = ToolReceipt(
        sessionId=row["session_id"],
        requestId=row["request_id"],
        payloadHash=row["payload_hash"],
        frame=frame,
        createdAt=row["created_at_s"],
    )
    if call is not None:
        receipt["call"] = call
    return receipt


def record_from_row(row: Row) -> GameRecord:
    record = {
        key: whole(row[column]) if key in ("startedAt", "endedAt") else row[column]
        for key, column in RECORD_COLUMNS.items()
        if row[column] is not None or key not in OPTIONAL_RECORD_FIELDS
    }
    return GameRecord(**record)  # type: ignore[typeddict-item]
