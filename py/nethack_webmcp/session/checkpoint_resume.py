"""checkpoint_resume.py - resume a stored game from the host's newest checkpoint, else from its creation.

A host that keeps checkpoints (the page: IndexedDB records with the engine's
state and the navigation memory; natively: persisted checkpoints) gives the
registry a `RestoreSource`: asked with the stored game and its journal, it
answers an engine already at a restore point's boundary and the point
(restore_point.py), or None when it has none for this game. The session is
then resumed by `Session.restore_from` - only the entries after the point
are replayed.

When the host's point does not hold - refused (checkpointRefused: not this
journal's), the engine not where it says or the tail not reproducing
(replayDiverged), the engine failing - the game is resumed by the whole
journal as before and the resume report says why (`resume.checkpoint`), so
a bad checkpoint costs time, never the game. Journal faults (journalCorrupt)
are not the checkpoint's: they are raised as the whole replay would.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..engine import Engine
from ..store import JournalEntry, Lease, SessionInfo, Store
from .errors import SessionError
from .recovery import EngineFactory
from .restore_point import RestorePoint
from .session import Session

#: the host's checkpoints: (stored game, its journal) -> (an engine at the point's boundary, the point) or None
RestoreSource = Callable[[SessionInfo, Sequence[JournalEntry]], Awaitable[tuple[Engine, RestorePoint] | None]]
#: what a refused point may fail with and still leave the whole journal to try
FALLBACK_CODES = ("checkpointRefused", "replayDiverged", "engineFailed", "replayFailed")


JournalReader = Callable[[int], Awaitable[list[JournalEntry]]]


async def read_for_resume(
    source: RestoreSource | None, info: SessionInfo, read: JournalReader
) -> tuple[list[JournalEntry], bool]:
    """The journal a resume needs: only from the source's newest checkpoint's
    entry on when the source names one (`newest_seq`), else all of it.
    Returns (entries, whether that is a tail)."""
    newest = getattr(source, "newest_seq", None)
    seq = await newest(info) if newest is not None else None
    if seq:
        tail = await read(seq - 1)
        if tail and tail[0]["seq"] == seq:
            return tail, True
    return await read(0), False


async def resume_stored(
    source: RestoreSource | None,
    new_engine: Callable[[], Awaitable[Engine]],
    info: SessionInfo,
    read: JournalReader,
    *,
    store: Store,
    engine_factory: EngineFactory | None,
    lease: Lease | None,
    owner: bool,
    build: str | None,
) -> Session:
    """The stored game resumed: from the source's point when it holds, else by the whole journal.

    `read(after_seq)` reads the journal; with a source that names its newest
    checkpoint's entry only the tail is read, and all of it only when that
    checkpoint does not hold (then the source is asked again with the whole
    journal, so an older checkpoint can still be used)."""
    options: dict[str, Any] = {
        "store": store,
        "engine_factory": engine_factory,
        "lease": lease,
        "owner": owner,
        "build": build,
    }
    entries, tail = await read_for_resume(source, info, read)
    refused: list[dict[str, Any]] = []
    while source is not None:
        found = None
        try:
            found = await source(info, entries)
        except SessionError as exc:  # the host had checkpoints and refused every one
            refused = list(exc.details.get("refused") or [{"code": exc.code, "message": exc.message}])
        if found is not None:
            engine, point = found
            try:
                return await Session.restore_from(engine, info, entries, point=point, **options)
            except SessionError as exc:
                if exc.code not in FALLBACK_CODES:
                    raise
                refused = [
                    *point.report.get("refused", ()),
                    {"code": exc.code, "message": exc.message, "seq": point.seq},
                ]
        if not tail:
            break
        entries, tail = await read(0), False  # the newest did not hold: an older one may, with the whole journal
    if tail:
        entries = await read(0)
    session = await Session.restore(await new_engine(), info, entries, **options)
    if refused:
        # said in the resume report: this resume replayed the whole journal, and why
        session.notes["resume"]["checkpoint"] = {"refused": refused, "fellBackTo": "the whole journal"}
    return session
