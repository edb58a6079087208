"""restore_point.py - where a resume can start instead of the creation: a boundary plus its memory.

An exact resume needs two things at the journal entry it starts after: an
engine at that boundary (the host restores it from a checkpoint: a paused
fork, a WebAssembly memory snapshot) and the navigation memory every earlier
response was folded into (navigation/snapshot.py). A RestorePoint carries the
second and names the first; `Session.restore_from` replays only the entries
after it (session/replay.py `replay_from`).

A restore point is checked before it is used (`check`): it must name this
game, its seq must be an entry of this journal (or 0, the creation) and its
summary must be the boundary the journal recorded there. The engine's own
state is checked by the replay itself: every later input must reach its
recorded boundary and the final observation the journal's last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from ..navigation import snapshot
from ..navigation.level import WorldTracker
from ..store import JournalEntry, SessionInfo, Summary
from .errors import SessionError


@dataclass
class RestorePoint:
    seq: int  # the journal seq of the last entry already in the engine (0 = just created)
    summary: Summary  # the boundary the journal recorded at that entry
    memory: WorldTracker  # the navigation memory at that boundary (snapshot.load)
    created: dict[str, Any]  # the creation facts Session needs: {"sessionId", "session"} (creation_facts)
    # what the host says about how it found the point (checkpoints it refused first, the move):
    # the resume report's `checkpoint` (Session.notes["resume"])
    report: dict[str, Any] = field(default_factory=dict)


def creation_facts(info: SessionInfo) -> dict[str, Any]:
    """What Session takes from the creation response, as the store recorded it
    (the same for every restore point of one game)."""
    return {"sessionId": info["sessionId"], "session": dict(info["metadata"])}


def boundary_at(info: SessionInfo, entries: Sequence[JournalEntry], seq: int) -> Summary | None:
    """The boundary the journal recorded after entry `seq`: the receipt of the
    last completed entry at or before it (rejected ones changed nothing), the
    creation's at 0; None when `seq` is not an entry of this journal."""
    if seq == 0:
        return info["createdSummary"]
    if not any(entry["seq"] == seq and entry["state"] != "reserved" for entry in entries):
        return None
    reached = info["createdSummary"]
    for entry in entries:
        if entry["seq"] > seq:
            break
        if entry["state"] == "completed" and entry["receipt"] is not None:
            reached = cast(Summary, entry["receipt"])
    return reached


def point_of(
    info: SessionInfo, entries: Sequence[JournalEntry], seq: int, memory: bytes | WorldTracker
) -> RestorePoint:
    """The restore point after entry `seq` with that memory (a snapshot's
    bytes are loaded; a tracker is copied, so the live one goes on alone).
    Raises SessionError `checkpointRefused` when seq is not in the journal or
    the snapshot does not load."""
    summary = boundary_at(info, entries, seq)
    if summary is None:
        raise _refused(seq, f"the journal has no completed or refused entry {seq}")
    try:
        tracker = snapshot.load(memory if isinstance(memory, bytes) else snapshot.dump(memory))
    except ValueError as exc:
        raise _refused(seq, f"its navigation memory is refused: {exc}") from None
    return RestorePoint(seq=seq, summary=summary, memory=tracker, created=creation_facts(info))


def check(point: RestorePoint, info: SessionInfo, entries: Sequence[JournalEntry]) -> None:
    """Refuse a restore point that is not of this game and journal (SessionError `checkpointRefused`)."""
    if point.created != creation_facts(info):
        raise _refused(point.seq, "it was made for another game")
    recorded = boundary_at(info, entries, point.seq)
    if recorded is None:
        raise _refused(point.seq, f"the journal has no entry {point.seq}")
    if dict(point.summary) != dict(recorded):
        raise _refused(point.seq, "its boundary is not the one the journal recorded there")


def _refused(seq: int, why: str) -> SessionError:
    return SessionError(
        "checkpointRefused",
        f"the checkpoint at journal entry {seq} cannot be used: {why}; resume replays the journal instead",
        seq=seq,
    )
