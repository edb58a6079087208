"""registry.py - the games of one process, by sessionId, and their resumption.

The registry owns its sessions' engines: closing a game or the registry
retires them. The engine factory, the store, the ownership provider and
the engine's game identity are injected so this module stays free of host
machinery (the native MCP server passes NativeEngine.start, SqliteStore,
FileOwnership and the native identity; the browser worker passes the
WASM host, the IndexedDB store, Web Locks and identity.json's
gameIdentity). Without a store, games live in memory only.

The game identity names the rules (NetHack sources, driver, hooks patch,
options profile), not a binary: a game resumes on every build of the same
rules - native, JSPI, Asyncify - and the replay checks every recorded
boundary on the way. `build` (the running binary's own identity) is only
reported, in the resume diagnostics.

A game named by a tool call that is stored but not loaded is resumed on
demand (`load`): pinned replay of its journal on a fresh engine. The
process that gets the game's ownership lease is its owner; any other gets
a read-only observer (gate `lostOwnership`) that follows the journal.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import Engine, EngineError
from ..store import MemoryOwnership, MemoryStore, Ownership, Store, StoreError
from .errors import SessionError
from .session import Session

EngineFactory = Callable[[], Awaitable[Engine]]
PROFILE = 1  # the only determinism profile a game can be resumed under
LIMIT_ENDS = ("idle_timeout", "time_limit")  # the HTTP service's limits: such a game never resumes


def check_identity(info: Any, identity: str | None) -> None:
    """Refuse a stored game recorded under other rules than this engine's.

    Raises SessionError engineMismatch (with `recorded` and `current`)."""
    recorded = info.get("engineIdentity")
    if recorded != identity:
        raise SessionError(
            "engineMismatch",
            f"game {info.get('sessionId')!r} was recorded under the rules {recorded}; this engine "
            f"plays {identity} (another NetHack, driver, hooks patch or options profile), so "
            "its journal cannot be replayed here",
            recorded=recorded,
            current=identity,
        )


class GameRegistry:
    def __init__(
        self,
        engine_factory: EngineFactory,
        max_games: int = 16,
        *,
        store: Store | None = None,
        ownership: Ownership | None = None,
        identity: str | None = None,
        build: str | None = None,
        game_clock: int | None = None,
    ) -> None:
        self._engine_factory = engine_factory
        # NetHack reads the date (moon phase, Friday 13th, night) at creation:
        # a pinned clock makes a seed the same game on any day (benchmarks).
        self.game_clock = game_clock
        self._max_games = max_games
        self.store: Store = store if store is not None else MemoryStore()
        self.ownership: Ownership = ownership if ownership is not None else MemoryOwnership()
        self.identity = identity
        self.build = build
        self._sessions: dict[str, Session] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    def _room(self, replacing: str | None = None) -> None:
        loaded = len(self._sessions) - (1 if replacing in self._sessions else 0)
        if loaded >= self._max_games:
            raise SessionError("tooManyGames", f"at most {self._max_games} games run at once; close one first")

    async def _engine(self) -> Engine:
        try:
            return await self._engine_factory()
        except EngineError as exc:
            raise SessionError("engineUnavailable", f"no engine could be started: {exc}") from exc

    async def create(self, params: dict[str, Any]) -> Session:
        """Start a new game on a new engine, owned and stored. Raises SessionError."""
        self._room()
        if self.game_clock is not None:
            params = {**params, "createdAt": self.game_clock}
        engine = await self._engine()
        session = await Session.create(
            engine, params, store=self.store, identity=self.identity, engine_factory=self._engine_factory, persist=False
        )
        try:
            lease = await self.ownership.acquire(session.session_id)
        except BaseException as exc:
            await session.close()
            if isinstance(exc, StoreError):
                raise SessionError("storageFailed", f"the game's ownership lock cannot be taken: {exc}") from exc
            raise
        if lease is None:
            await session.close()
            raise SessionError("sessionExists", f"sessionId {session.session_id!r} is already in use")
        session.lease = lease
        await session.persist()  # on failure the engine is retired and the lease released
        self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str) -> Session:
        """A loaded game (no resumption)."""
        try:
            return self._sessions[session_id]
        except KeyError:
            raise SessionError(
                "unknownSession",
                f"no open game has sessionId {session_id!r}; create one with the session tool",
                field="sessionId",
            ) from None

    async def load(self, session_id: str) -> Session:
        """A loaded game, or the stored game resumed on demand."""
        session = self._sessions.get(session_id)
        if session is not None:
            return session
        return await self.resume(session_id)

    async def resume(self, session_id: str, *, take_over: bool = False) -> Session:
        """Load a stored game by pinned replay; an observer retries for ownership.
        With `take_over` the game is taken from a live owner (browser Web Lock
        steal: the old owner's lease turns lost and it writes nothing more).

        Raises SessionError: unknownSession, engineMismatch, unsupportedProfile,
        replayDiverged, journalCorrupt, storageFailed, tooManyGames,
        takeoverUnsupported."""
        gate = self._loading.setdefault(session_id, asyncio.Lock())
        async with gate:
            existing = self._sessions.get(session_id)
            if existing is not None and existing.gate != "lostOwnership":  # (reading the gate notices a lost lease)
                return existing
            try:
                info = await self.store.get_session(session_id)
            except StoreError as exc:
                raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc
            if info is None:
                raise SessionError(
                    "unknownSession",
                    f"no game has sessionId {session_id!r}; create one with the session tool",
                    field="sessionId",
                )
            check_identity(info, self.identity)
            await self._refuse_limit_ended(info)
            if info["profile"] != PROFILE:
                raise SessionError(
                    "unsupportedProfile",
                    f"game {session_id!r} has determinism profile {info['profile']}; only "
                    f"profile {PROFILE} games can be replayed",
                )
            self._room(replacing=session_id)
            try:
                lease = await (self.ownership.steal(session_id) if take_over else self.ownership.acquire(session_id))
            except NotImplementedError as exc:
                raise SessionError(
                    "takeoverUnsupported",
                    f"{exc}; the owner hands the game over by closing it (session close), then session resume takes it",
                ) from exc
            except StoreError as exc:
                raise SessionError("storageFailed", f"the game's ownership lock cannot be taken: {exc}") from exc
            if lease is None and existing is not None:
                return existing  # still owned elsewhere: keep following as an observer
            try:
                # read the journal only once ownership is settled: an owner's is complete
                entries = await self.store.journal(session_id)
                engine = await self._engine()
                session = await Session.restore(
                    engine,
                    info,
                    entries,
                    store=self.store,
                    engine_factory=self._engine_factory,
                    lease=lease,
                    owner=lease is not None,
                    build=self.build,
                )
            except StoreError as exc:
                if lease is not None:
                    await lease.release()
                raise SessionError("storageFailed", f"the journal cannot be read: {exc}") from exc
            except BaseException:
                if lease is not None:
                    await lease.release()
                raise
            if lease is None:
                session.holder = await self.ownership.holder(session_id)
            if existing is not None:
                await existing.close()
            self._sessions[session_id] = session
            return session

    async def _refuse_limit_ended(self, info: Any) -> None:
        """A game the service ended by a limit (idle time, lifetime) is over
        for good: replaying its journal would revive a game whose record says
        it ended. Raises SessionError gameEnded."""
        if info["status"] != "ended":
            return
        try:
            record = await self.store.get_record(info["sessionId"])
        except StoreError as exc:
            raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc
        if record is not None and record["endReason"] in LIMIT_ENDS:
            raise SessionError(
                "gameEnded",
                f"game {info['sessionId']!r} ended by the service's limits "
                f"({record['endReason']}); its record stays readable",
            )

    async def end(self, session_id: str, finish: Callable[[], Awaitable[None]]) -> None:
        """Run `finish` (which writes the game's end) under the game's lock
        when it is loaded here, then retire it, so no call of the game is
        in flight while it ends and none is admitted after."""
        session = self._sessions.get(session_id)
        if session is None:
            await finish()
            return
        async with session.lock:
            await finish()
            self._sessions.pop(session_id, None)
            await session.close()

    def sessions(self) -> list[Session]:
        return list(self._sessions.values())

    async def close(self, session_id: str) -> str:
        """Retire a loaded game's engine and give up its ownership; the game
        stays stored and can be resumed. Closing a stored game that is not
        loaded is a no-op (it is not resumed to be closed)."""
        session = self._sessions.get(session_id)
        if session is None:
            try:
                stored = await self.store.get_session(session_id)
            except StoreError as exc:
                raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc
            if stored is None:
                self.get(session_id)  # raises unknownSession
            return session_id
        async with session.lock:
            self._sessions.pop(session_id, None)
            await session.close()
        return session_id

    async def close_all(self) -> None:
        for session_id in list(self._sessions):
            session = self._sessions.pop(session_id)
            await session.close()
