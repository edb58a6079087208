"""records.py - what the store keeps about a game: its SessionInfo and, once it ends, its GameRecord.

Pure builders over JSON-shaped dicts (no engine, no store): the Session
calls them when a game is created, when a receipt carries progress (depth,
the end) and when a resumed ended game still lacks its record.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from ..store import GameRecord, SessionInfo
from ..store.base import EndReason
from .replay import summary_of

END_REASONS: dict[str, EndReason] = {"ascended": "ascended", "escaped": "escaped", "quit": "quit", "panicked": "failed"}


def end_reason(how: str | None) -> EndReason:
    """seed 002's end_reason from NetHack's `how`: every death kind is `died`,
    a panic is `failed`."""
    return END_REASONS.get(how or "", "died" if how else "failed")


def creation_params(created: dict[str, Any]) -> dict[str, Any]:
    """The concrete low session.create params that re-create this game."""
    meta = created["session"]
    return {
        "sessionId": created["sessionId"],
        "seed": int(meta["seed"]),
        "name": meta["name"],
        "role": str(meta["role"]).lower(),
        "race": str(meta["race"]).lower(),
        "gender": str(meta["gender"]).lower(),
        "alignment": str(meta["alignment"]).lower(),
        "createdAt": int(meta["createdAt"]),
        "harness_name": meta.get("harness_name", ""),
        "model_name": meta.get("model_name", ""),
        "wizard": bool(meta.get("wizard")),
    }


def new_info(created: dict[str, Any], identity: str | None) -> SessionInfo:
    """The stored facts of a game the engine has just created."""
    now = time.time()
    return SessionInfo(
        sessionId=created["sessionId"],
        create=creation_params(created),
        metadata=dict(created.get("session") or {}),
        createdSummary=summary_of(created),
        profile=int((created.get("session") or {}).get("profile", 0)),
        engineIdentity=identity,
        viewNonce=secrets.token_hex(3),
        startedAt=now,
        updatedAt=now,
        endedAt=None,
        status="ended" if created.get("ended") else "active",
        lastDepth=None,
        deepestDepth=None,
    )


def track_depth(info: SessionInfo, depth: Any) -> dict[str, Any]:
    """Update the info's depth tracking from an observation's depth; the changed fields (to store)."""
    if not isinstance(depth, int) or depth == info["lastDepth"]:
        return {}
    deepest = max(depth, info["deepestDepth"] or depth)
    info["lastDepth"], info["deepestDepth"] = depth, deepest
    return {"lastDepth": depth, "deepestDepth": deepest}


#: The highest experience level reached, a stored session field (SQL schema 7) copied to the record. It is
#: only ever raised: a level drain lowers `vitals.level`, never the maximum; a resumed game goes on from
#: the stored value (a game stored before schema 7 counts from its first acting call after the upgrade).
MAX_LEVEL = "maxLevel"


def track_level(info: SessionInfo, level: Any) -> dict[str, Any]:
    """Raise the info's highest experience level from an observation's `vitals.level`; the changed
    field (to store), empty when the level is not above the maximum."""
    if not isinstance(level, int) or level <= (info.get("maxLevel") or 0):
        return {}
    info["maxLevel"] = level
    return {MAX_LEVEL: level}


def progress(
    info: SessionInfo, depth: Any, ended: bool, end: dict[str, Any] | None, now: float, level: Any = None
) -> tuple[dict[str, Any], GameRecord | None]:
    """Session fields (and the record, the first time the game is seen ended) to store with a receipt."""
    fields: dict[str, Any] = {"updatedAt": now, **track_depth(info, depth), **track_level(info, level)}
    record = None
    if ended and info["status"] != "ended":
        fields.update(status="ended", endedAt=now)
        info["status"], info["endedAt"] = "ended", now
        record = make_record(info, end, now)
    info["updatedAt"] = now
    return fields, record


def make_record(info: SessionInfo, end: dict[str, Any] | None, ended_at: float) -> GameRecord:
    """seed 002's record of a finished game."""
    end = end or {}
    meta = info["metadata"]
    deepest = [d for d in (end.get("deepest"), info["deepestDepth"]) if isinstance(d, int)]
    last = end.get("depth") if isinstance(end.get("depth"), int) else info["lastDepth"]
    record = GameRecord(
        sessionId=info["sessionId"],
        characterName=str(meta.get("name", "")),
        harnessName=str(meta.get("harness_name", "")),
        modelName=str(meta.get("model_name", "")),
        startedAt=int(info["startedAt"]),
        endedAt=int(ended_at),
        endTimeKind="observed",
        endReason=end_reason(end.get("how")),
        how=end.get("how"),
        death=end.get("death"),
        score=end.get("score"),
        turns=end.get("turn"),
        lastDepth=last,
        deepestDepth=max(deepest) if deepest else None,
        seed=info["create"].get("seed"),
        seedChoice=info.get("seedChoice", "chosen"),
    )
    max_level = info.get("maxLevel")
    if isinstance(max_level, int):
        record["maxLevel"] = max_level  # the highest experience level reached
    return record


def limit_record(
    info: SessionInfo, reason: str, turn: int | None, ended_at: float, kind: str = "observed"
) -> GameRecord:
    """The record of a game a host's limit ended (`idle_timeout`, `time_limit`).
    `kind` "recovery": nobody was playing it when it ended - it was left
    unfinished across a restart and found past its idle deadline by a sweep,
    so its end time is the sweep's, not an observed moment of play."""
    record = make_record(info, {"turn": turn} if turn is not None else None, ended_at)
    record["endReason"] = reason  # type: ignore[typeddict-item]
    record["endTimeKind"] = kind  # type: ignore[typeddict-item]
    return record
