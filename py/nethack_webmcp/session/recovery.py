"""recovery.py - how a session that cannot take input verifies the game before observe looks.

Three situations, all ending with the gate open again or a SessionError:
the engine failed during an input (replay the completed journal on a fresh
engine and settle the dangling reservation as not applied); a resume found
a reservation without a receipt (the resume already replayed; settle it);
another process owns the game (follow its completed journal read-only).
Failed store writes are retried after either. Input is never sent again on
anyone's behalf.

A session that lost ownership while it ran (the store's fence refused its
journal write) follows the new owner like any observer; if its engine took
an input that the journal will never record, it is first reloaded by replay
of the journal on a fresh engine, so it shows the game as the journal has
it, never its own unrecorded move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import EngineError
from ..store import OwnershipLost, StoreError
from .durability import brief
from .errors import SessionError
from .replay import apply_entries, replay

if TYPE_CHECKING:
    from .session import Session


async def verify(session: Session) -> None:
    """Make failed writes durable, replay after an engine failure, or
    (read-only) follow the owner's journal. Raises SessionError when the
    game cannot be verified (input stays blocked)."""
    try:
        await _verify(session)
    except OwnershipLost as exc:  # a settling write found the game taken: from now on an observer
        raise SessionError("lostOwnership", f"the game cannot be verified here: {exc}") from exc


async def _verify(session: Session) -> None:
    if session.gate == "lostOwnership":  # (reading the gate notices a lost lease)
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
    if session.journal.engine_ahead:
        await _reload(session)
        return
    after = session.journal.seq
    try:
        entries = await session.store.journal(session.session_id, after_seq=after)
    except StoreError as exc:
        raise SessionError("storageFailed", f"the journal cannot be read: {exc}") from exc
    if not entries:
        return
    _, replayed, last_seq, _ = await apply_entries(
        session.engine, entries, after_seq=after, start_summary=session.summary(), memory=session.state.tracker
    )
    session.journal.seq = last_seq
    if replayed:
        session.notes["ownership"] = {"followed": replayed}


async def _reload(session: Session) -> None:
    """Replay the whole journal on a fresh engine (read-only): the session's
    own engine took an input the journal does not have."""
    if session.engine_factory is None:
        raise SessionError(
            "recoveryRequired",
            "this process lost the game and cannot start an engine to reload it; resume it in a new session host",
        )
    try:
        entries = await session.store.journal(session.session_id)
    except StoreError as exc:
        raise SessionError("storageFailed", f"the journal cannot be read: {exc}") from exc
    try:
        engine = await session.engine_factory()
    except EngineError as exc:
        raise SessionError("engineUnavailable", f"no engine could be started to reload the game: {exc}") from exc
    try:
        result = await replay(engine, session.info, entries)
    except BaseException:
        await engine.close()
        raise
    await session.replace_engine(engine, result.observed)
    session.journal.seq = result.last_seq
    session.journal.engine_ahead = False
    session.notes["ownership"] = {
        "status": "reloaded",
        "replayed": result.replayed,
        "revision": session.revision,
        "message": "this process lost the game with an input in flight; it was reloaded by replay "
        "of the journal, which does not include that input",
    }
