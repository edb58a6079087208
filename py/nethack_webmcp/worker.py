"""worker.py - the Python side of the browser's core worker.

The worker's JavaScript (web/src/worker/main.js) boots Pyodide, installs
this package and calls these functions; every value crossing the boundary
is JSON text, so conversions happen exactly once, here and in the worker:

    start(max, identity, build)  create the game registry: WASM engines, the
                               IndexedDB store, Web Lock ownership, the game
                               identity (identity.json's gameIdentity) and the
                               build the page picked (diagnostics)
    declarations()             the eleven tool declarations (tools.json's content)
    live_memory(id, dump)      the live game's journal entry and level now, with its navigation
                               memory (snapshot.py text) when `dump`: what the page's
                               background checkpointer (web/src/worker/follower.js)
                               stores with its checkpoint at that entry (no second fold)
    pace_progress(id, seq, n, ms)  the follower's checkpoints reach journal entry seq (its last n
                               inputs replayed with full responses in ms): the game is paced
                               by them (session/page_pacing.py); unpace(id) when it stops
    memory_fold()              a navigation memory a checkpointing page replay folds
                               its responses into (session/page_checkpoints.py); a
                               stored game resumes from the newest page checkpoint
                               that holds one (GameRegistry.restore_source)
    await call(name, args)     run one tool; returns the frame
    await open_game(id)        load a stored game (resume by pinned replay, or
                               observe it read-only when another tab owns it);
                               returns its observe frame. The game view calls
                               it when a person opens (or reloads) the game:
                               an explicit resume, so a close mark is cleared
    await take_over(id)        take a game from the tab that owns it (Web Lock
                               steal); returns the resumed frame. A page
                               control for people, deliberately not a tool.
    status()                   the loaded games: {id: {owner, gate}}
    spectate(sessionId)        the spectator snapshot of a loaded game, or null
    await stored(id)           the stored SessionInfo, or null
    await export_game(id)      the game as one exchange document (exchange.py)
    await import_game(text)    verify a document by replay and store it

`spectate` reads the session's latest known state only: it sends nothing
to the engine, so watching a game can never advance it.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

from . import exchange
from .engine.wasm import WasmEngine
from .projection import frame as frames
from .session import GameRegistry, SessionError, page_pacing
from .session.idle_point import idle_point
from .session.pacing import waiting_point
from .session.page_checkpoints import MemoryFold, page_restore_source
from .store import StoreError
from .tools import BY_NAME, ToolContext
from .tools import declarations as tool_declarations
from .watch.snapshot import owner as _owner
from .watch.snapshot import spectator_snapshot

_context: ToolContext | None = None


def start(max_games: int = 16, identity: str | None = None, build: str | None = None, durable: bool = True) -> None:
    """Create the registry. Idempotent. `durable`: the IndexedDB store and
    Web Lock ownership (else games live in this worker's memory only)."""
    global _context
    if _context is None:
        store = ownership = None
        if durable:
            from .store.indexeddb import IndexedDBStore, WebLockOwnership

            store, ownership = IndexedDBStore(), WebLockOwnership()
        games = GameRegistry(
            WasmEngine.start, max_games=max_games, store=store, ownership=ownership, identity=identity, build=build
        )
        if durable:  # a stored game resumes from its newest page checkpoint (session/page_checkpoints.py)
            games.restore_source = page_restore_source()
        _context = ToolContext(games)


def _games() -> GameRegistry:
    if _context is None:
        raise RuntimeError("worker.start() was not called")
    return _context.games


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def memory_fold() -> MemoryFold:
    """A navigation memory for one checkpointing page replay (web/src/worker/checkpoint-replay.js)."""
    return MemoryFold()


def live_memory(session_id: str, dump: bool = False) -> str:
    """{seq, level[, navigation]} of a game loaded here, owned and idle, or null.

    `seq` is its last settled journal entry and `navigation` its own tracker's
    snapshot there, read together (session/idle_point.py: null while a call or
    a step holds the game, when another tab owns it, its writes are failing or
    it ended)."""
    session = _loaded(session_id)
    point = None
    if session is not None and _owner(session):
        # an input waiting for this checkpointer holds nothing it needs (session/page_pacing.py)
        point = waiting_point(session) or idle_point(session, dump=dump)
    if point is None:
        return "null"
    found: dict[str, Any] = {"seq": point.seq, "level": point.level, "due": page_pacing.due(session)}
    if point.navigation is not None:
        found["navigation"] = point.navigation.decode("ascii")
    return _dump(found)


def _loaded(session_id: str) -> Any:
    return next((loaded for loaded in _games().sessions() if loaded.session_id == session_id), None)


def pace_progress(session_id: str, checkpointed: int, priced: int, priced_ms: float) -> None:
    """The page's follower checkpointed the game at journal entry `checkpointed` (its last `priced`
    inputs replayed with full responses in `priced_ms`): the game is paced by it (page_pacing.py)."""
    session = _loaded(session_id)
    if session is None or not _owner(session):
        return
    page_pacing.progress(session, checkpointed, priced, priced_ms / 1000, **page_pacing.follower_hooks(session_id))


def unpace(session_id: str) -> None:
    """The page's follower stopped following the game: nothing waits for it any more."""
    session = _loaded(session_id)
    if session is not None:
        page_pacing.release(session)


def declarations() -> str:
    return _dump(tool_declarations())


def _error(code: str, message: str, **extra: Any) -> str:
    frame = frames.error_frame(None, SessionError(code, message), mutation=False)
    frame["diagnostics"].update(extra)
    return _dump(frame)


async def call(name: str, arguments_json: str) -> str:
    """Run one tool call; always returns a frame (errors are frames too)."""
    tool = BY_NAME.get(name)
    if tool is None:
        return _error("unknownTool", f"no tool named {name!r}; tools: {', '.join(BY_NAME)}")
    try:
        arguments = json.loads(arguments_json) if arguments_json else {}
    except json.JSONDecodeError as exc:
        return _error("invalidArguments", f"{name}: arguments are not JSON: {exc}")
    if not isinstance(arguments, dict):
        return _error("invalidArguments", f"{name}: arguments must be a JSON object")
    assert _context is not None, "worker.start() was not called"
    try:
        frame = await tool.call(_context, arguments)
    except Exception as exc:
        return _error(
            "internalError", f"{name} failed inside the page's Python: {exc!r}", traceback=traceback.format_exc(limit=8)
        )
    return _dump(frame)


async def open_game(session_id: str) -> str:
    """Load a stored game for the page showing it, then observe it: a resume
    by pinned replay when it is not loaded, ownership taken when this worker
    only observed it and its owner has let go, read-only while another tab
    owns it; a refused resume is an error frame saying why."""
    games = _games()
    prefetch = getattr(games.restore_source, "prefetch", None)
    if prefetch is not None and session_id not in {loaded.session_id for loaded in games.sessions()}:
        prefetch(session_id)  # its newest checkpoint is read while the registry reads the game and takes it
    try:
        # a person opening the game's view resumes it explicitly: a close mark is cleared
        await games.reopen(await games.resume(session_id))
    except SessionError as exc:
        # why it could not be resumed (engineMismatch, replayDiverged, ...), as a frame: an
        # observe of a game still marked closed would only say sessionClosed
        return _dump(frames.error_frame(None, exc, mutation=False, include_scene=False))
    return await call("observe", _dump({"sessionId": session_id}))


async def take_over(session_id: str) -> str:
    """Take a game over from the tab that owns it: its Web Lock is stolen, the
    old owner's next call reports lostOwnership and it writes nothing more;
    this worker resumes the game by pinned replay. Returns the frame."""
    games = _games()
    try:
        session = await games.resume(session_id, take_over=True)
    except SessionError as exc:
        return _dump(frames.error_frame(None, exc, mutation=False))
    except Exception as exc:
        return _error(
            "internalError",
            f"take over failed inside the page's Python: {exc!r}",
            traceback=traceback.format_exc(limit=8),
        )
    return _dump(frames.diagnosed(session, frames.resumed(session, games.store.durability, taken_over=True)))


def status() -> str:
    """The games loaded in this worker: {sessionId: {owner, gate}}."""
    return _dump(
        {session.session_id: {"owner": _owner(session), "gate": session.gate} for session in _games().sessions()}
    )


async def stored(session_id: str) -> str:
    """The stored SessionInfo of a game, or null (also when the store fails)."""
    try:
        return _dump(await _games().store.get_session(session_id))
    except StoreError:
        return "null"


async def export_game(session_id: str) -> str:
    """The stored game as one exchange document (exchange.py's format, the
    same as `python -m nethack_webmcp.export`), with the state hash its
    journal replays to on a fresh engine. Errors: {"error": {code, message}}."""
    try:
        document = await exchange.export_game(_games().store, session_id, engine_factory=WasmEngine.start)
    except SessionError as exc:
        return _dump({"error": exc.as_error()})
    return _dump(document)


async def import_game(text: str) -> str:
    """Verify an exchange document by replay on this engine and store it.
    Returns {sessionId, revision, stateHash, replayed, verified} or
    {"error": {code, message, …}} saying why not (nothing is stored then)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        return _dump({"error": {"code": "invalidDocument", "message": f"the file is not JSON: {exc}"}})
    games = _games()
    try:
        result = await exchange.import_game(
            games.store, document, engine_factory=WasmEngine.start, identity=games.identity
        )
    except SessionError as exc:
        return _dump({"error": exc.as_error()})
    except Exception as exc:
        return _dump({"error": {"code": "invalidDocument", "message": f"the document cannot be imported: {exc!r}"}})
    return _dump(result)


def spectate(session_id: str) -> str:
    """The read-only snapshot a spectator renders (watch/snapshot.py):
    identity, state, map (marks and colours), decision, end. "null" for no
    such live game."""
    try:
        session = _games().get(session_id)
    except SessionError:
        return "null"
    return _dump(spectator_snapshot(session))


async def close_all() -> None:
    if _context is not None:
        await _context.games.close_all()
