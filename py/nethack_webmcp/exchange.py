"""exchange.py - one game as one JSON document: export from a store, import by verified replay.

The document holds the stored game exactly (metadata, journal, tool
receipts, record) plus the state hash its journal replays to:

    {"format": "nethack-webmcp-game", "version": 1, "exportedAt": …,
     "session": SessionInfo, "journal": [JournalEntry…], "receipts": [ToolReceipt…],
     "record": GameRecord | null, "revision": n, "stateHash": "sha256 hex"}

Import refuses a document it cannot reproduce - other rules (another game
identity: a document moves between browser and native builds of the same
rules), an unsupported profile, a journal that does not replay to the recorded
boundaries or to the exported state hash, a sessionId already stored - and
writes nothing in that case. Host-neutral (store and engine factory are
injected): the CLI is `python -m nethack_webmcp.export`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

from .engine import Engine, EngineError
from .session.errors import SessionError
from .session.registry import PROFILE, check_identity
from .session.replay import replay
from .session.session import state_hash
from .store import JournalEntry, SessionInfo, Store, StoreConflict, StoreError

FORMAT = "nethack-webmcp-game"
VERSION = 1
EngineFactory = Callable[[], Awaitable[Engine]]


async def _replayed(
    info: SessionInfo, journal: Sequence[JournalEntry], engine_factory: EngineFactory
) -> tuple[int, str, int, int | None]:
    """(revision, state hash, replayed entries, game turn) of a journal on a fresh engine."""
    try:
        engine = await engine_factory()
    except EngineError as exc:
        raise SessionError("engineUnavailable", f"no engine could be started: {exc}") from exc
    try:
        result = await replay(engine, info, journal)
        turn = (result.observed.get("observation") or {}).get("turn")
        return (
            int(result.observed["revision"]),
            state_hash(result.observed),
            result.replayed,
            turn if isinstance(turn, int) else None,
        )
    finally:
        await engine.close()


async def export_game(store: Store, session_id: str, *, engine_factory: EngineFactory | None = None) -> dict[str, Any]:
    """The stored game as a document; with an engine factory, also the state
    hash its journal replays to (read-only: nothing is written)."""
    try:
        info = await store.get_session(session_id)
        if info is None:
            raise SessionError("unknownSession", f"no stored game has sessionId {session_id!r}")
        journal = await store.journal(session_id)
        receipts = await store.receipts(session_id)
        record = await store.get_record(session_id)
    except StoreError as exc:
        raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exportedAt": time.time(),
        "session": info,
        "journal": journal,
        "receipts": receipts,
        "record": record,
    }
    if engine_factory is not None:
        revision, digest, _, _ = await _replayed(info, journal, engine_factory)
        document.update(revision=revision, stateHash=digest)
    return document


async def import_game(
    store: Store, document: dict[str, Any], *, engine_factory: EngineFactory, identity: str | None
) -> dict[str, Any]:
    """Verify a document by replay, then store it. Returns {sessionId,
    revision, stateHash, replayed, turn, verified}. Raises SessionError saying why not."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SessionError("invalidDocument", f"not a {FORMAT} document")
    if document.get("version") != VERSION:
        raise SessionError("invalidDocument", f"document version {document.get('version')!r} is not {VERSION}")
    try:
        info = document["session"]
        journal = list(document["journal"])
        receipts = list(document.get("receipts") or [])
        record = document.get("record")
        session_id = info["sessionId"]
    except (KeyError, TypeError) as exc:
        raise SessionError("invalidDocument", f"the document lacks {exc}") from exc
    if not isinstance(info, dict):
        raise SessionError("invalidDocument", "the document's session is not an object")
    check_identity(info, identity)
    if info.get("profile") != PROFILE:
        raise SessionError("unsupportedProfile", f"determinism profile {info.get('profile')!r} cannot be replayed")
    try:
        if await store.get_session(session_id) is not None:
            raise SessionError("sessionExists", f"a game with sessionId {session_id!r} is already stored here")
    except StoreError as exc:
        raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc
    # the document's objects are checked by the replay itself: it must reproduce them
    revision, digest, replayed, turn = await _replayed(
        cast(SessionInfo, info), cast(list[JournalEntry], journal), engine_factory
    )
    expected = document.get("stateHash")
    if expected is not None and digest != expected:
        raise SessionError(
            "stateMismatch",
            f"the journal replays to state {digest}, the export says {expected}; not imported",
            expected=expected,
            got=digest,
        )
    try:
        await store.import_game(cast(SessionInfo, info), journal, receipts, record)
    except StoreConflict as exc:
        raise SessionError("invalidDocument", f"the document cannot be stored: {exc}") from exc
    except StoreError as exc:
        raise SessionError("storageFailed", f"the game could not be stored: {exc}") from exc
    return {
        "sessionId": session_id,
        "revision": revision,
        "stateHash": digest,
        "replayed": replayed,
        "turn": turn,
        "verified": expected is not None,
    }
