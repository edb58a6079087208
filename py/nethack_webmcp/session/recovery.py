"""recovery.py - how a session that cannot take input verifies the game before observe looks.

Three situations, all ending with the gate open again or a SessionError:
the engine failed during an input (replay the completed journal on a fresh
engine and settle the dangling reservation as not applied); a resume found
a reservation without a receipt (the resume already replayed; settle it);
another process owns the game (follow its completed journal read-only).
Failed store writes are retried after either. Input is never sent again on
anyone's behalf.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import EngineError
from ..store import StoreError
from .durability import brief
from .errors import SessionError
from .replay import apply_entries, replay

if TYPE_CHECKING:
    from .session import Session


async def verify(session: Session) -> None:
    """Make failed writes durable, replay after an engine failure, or
    (read-only) follow the owner's journal. Raises SessionError when the
    game cannot be verified (input stays blocked)."""
    if session.lost_ownership:
        await _follow(session)
        return
    if session.recovery_required:
        await _recover_engine(session)
    elif session.unverified is not None:
        # the resume already replayed the completed journal on a fresh engine
        # and reached its recorded boundary; the dangling input is not in it
        entry, session.unverified = session.unverified, None
        session.notes["recovery"] = {
            "status": "verified",
            "replayed": session.replayed,
            "revision": session.revision,
            "notApplied": [brief(entry)],
        }
        await session.journal.settle_dangling(entry)
    if session.journal.pending:
        await session.journal.flush()


async def _recover_engine(session: Session) -> None:
    if session.engine_factory is None:
        raise SessionError(
            "recoveryRequired",
            "the engine failed and this host cannot start another one; resume the game in a new session host",
        )
    try:
        entries = await session.store.journal(session.session_id)
    except StoreError as exc:
        raise SessionError("storageFailed", f"the journal cannot be read for recovery: {exc}") from exc
    try:
        engine = await session.engine_factory()
    except EngineError as exc:
        raise SessionError("engineUnavailable", f"no engine could be started for recovery: {exc}") from exc
    try:
        result = await replay(engine, session.info, entries)
    except BaseException:
        await engine.close()
        raise
    await session.replace_engine(engine, result.observed)
    session.journal.seq = result.last_seq
    session.recovery_required = False
    report: dict[str, Any] = {
        "status": "verified",
        "replayed": result.replayed,
        "revision": session.revision,
        "seconds": round(result.seconds, 3),
        "notApplied": [],
    }
    if result.dangling is not None:
        report["notApplied"].append(brief(result.dangling))
        await session.journal.settle_dangling(result.dangling)
    session.notes["recovery"] = report


async def _follow(session: Session) -> None:
    """An observer catches up with the owner's completed entries."""
    after = session.journal.seq
    try:
        entries = await session.store.journal(session.session_id, after_seq=after)
    except StoreError as exc:
        raise SessionError("storageFailed", f"the journal cannot be read: {exc}") from exc
    if not entries:
        return
    _, replayed, last_seq, _ = await apply_entries(
        session.engine, entries, after_seq=after, start_summary=session.summary()
    )
    session.journal.seq = last_seq
    if replayed:
        session.notes["ownership"] = {"followed": replayed}
