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
demand (`load`): pinned replay of its journal on a fresh engine, or of the
entries after the host's newest checkpoint when it has one that holds
(`restore_source`, checkpoint_resume.py). The
process that gets the game's ownership lease is its owner; any other gets
a read-only observer (gate `lostOwnership`) that follows the journal.

Capacity is claimed atomically: the check of every limit (games loaded
here, games per creator) and the claim of a slot happen with no await in
between, and a slot is claimed before the first await of a create or a
resume, so simultaneous calls can never overrun a limit (asyncio runs one
coroutine at a time in a process). A refusal carries `retryAfterSeconds`
(the host's hint, `retry_after`).

Hosts that limit games (the HTTP service) configure three more things:
`deadline` (the end reason a game is past, checked under the game's lock
on every path: `guard.GameLock`), `evict_ended` (a game that ended leaves
memory as its last call releases the lock; it is then read from its record
and receipts, never replayed for a reader), and the `CREATOR` and
`SPECTATING` context of each call (who creates; a token-less reader, for
whom nothing is ever loaded).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
import weakref
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Literal

from ..engine import Engine, EngineError
from ..engine.base import background_releases
from ..store import MemoryOwnership, MemoryStore, Ownership, SessionInfo, Store, StoreError, is_closed
from ..store.base import EndReason
from .checkpoint_resume import RestoreSource, resume_stored
from .errors import SessionError
from .guard import GameLock
from .records import limit_record
from .session import Session

EngineFactory = Callable[[], Awaitable[Engine]]
PROFILE = 1  # the only determinism profile a game can be resumed under
LIMIT_ENDS = ("idle_timeout", "time_limit")  # the HTTP service's limits: such a game never resumes
#: who the current call creates games for (the HTTP service: the client address); None = nobody counted
CREATOR: contextvars.ContextVar[str | None] = contextvars.ContextVar("creator", default=None)
#: True while a token-less (spectator) read runs: nothing is loaded, resumed or replayed for it
SPECTATING: contextvars.ContextVar[bool] = contextvars.ContextVar("spectating", default=False)
#: a host's deadlines: the end reason a game is past (idle_timeout | time_limit), or None
Deadline = Callable[[SessionInfo], "EndReason | None"]
#: a host's retry hint for a capacity refusal: seconds, for all games (None) or one creator's
RetryAfter = Callable[[str | None], float]
DEFAULT_RETRY_AFTER_S = 30.0


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
        self.ownership.bind(self.store)  # every take claims the game in the store: fenced journal writes
        self.identity = identity
        self.build = build
        self._sessions: dict[str, Session] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        # capacity: slots claimed by creates and resumes still under way, and by whom
        self._claimed = 0
        self._claimed_by: dict[str, int] = {}
        self.creators: dict[str, str] = {}  # loaded game -> who created it (CREATOR), counted per creator
        #: live games one creator may have loaded here (None: no such limit)
        self.games_per_creator: int | None = None
        self.deadline: Deadline | None = None
        self.retry_after: RetryAfter = lambda _creator: DEFAULT_RETRY_AFTER_S
        self.evict_ended = False
        self._ended_by: weakref.WeakKeyDictionary[Session, str] = weakref.WeakKeyDictionary()
        #: a host's checkpoints a resume may start from (checkpoint_resume.py); None: the whole journal
        self.restore_source: RestoreSource | None = None

    # ---- capacity -----------------------------------------------------------------------

    @property
    def max_games(self) -> int:
        return self._max_games

    def _refuse(self, code: str, message: str, creator: str | None) -> SessionError:
        hint = max(1, int(self.retry_after(creator) + 0.999))
        return SessionError(code, f"{message}; retry in about {hint} s", retryAfterSeconds=hint)

    @contextlib.contextmanager
    def _claim(self, *, replacing: str | None = None, creator: str | None = None) -> Iterator[None]:
        """Check every limit and claim a slot, atomically (no await in between);
        the slot is given back when the create or resume is over, loaded or not.
        Raises SessionError tooManyGames / tooManyGamesForClient."""
        loaded = len(self._sessions) - (1 if replacing in self._sessions else 0)
        if loaded + self._claimed >= self._max_games:
            raise self._refuse(
                "tooManyGames", f"at most {self._max_games} games run at once here; close one first", None
            )
        if creator is not None and self.games_per_creator is not None:
            mine = sum(1 for game, who in self.creators.items() if who == creator and game in self._sessions)
            if mine + self._claimed_by.get(creator, 0) >= self.games_per_creator:
                raise self._refuse(
                    "tooManyGamesForClient",
                    f"a client may have at most {self.games_per_creator} live games here; "
                    "close one (session close) or let one end",
                    creator,
                )
        self._claimed += 1
        if creator is not None:
            self._claimed_by[creator] = self._claimed_by.get(creator, 0) + 1
        try:
            yield
        finally:
            self._claimed -= 1
            if creator is not None:
                self._claimed_by[creator] -= 1
                if not self._claimed_by[creator]:
                    del self._claimed_by[creator]

    def _register(self, session: Session, creator: str | None = None) -> None:
        """Make a game loaded here; its lock checks the game on every path (guard.py)."""
        session.lock = GameLock(lambda: self._entered(session), lambda: self._leaving(session))  # type: ignore[assignment]
        self._sessions[session.session_id] = session
        if creator is not None:
            self.creators[session.session_id] = creator

    def _forget(self, session: Session) -> None:
        if self._sessions.get(session.session_id) is session:
            del self._sessions[session.session_id]
            self.creators.pop(session.session_id, None)

    def _refuse_spectator(self, session_id: str) -> None:
        if SPECTATING.get():
            raise SessionError(
                "notLoaded",
                f"game {session_id!r} is not being played in this server; a read without its "
                "controlToken never loads a game (observe shows its last recorded frame and record)",
                field="sessionId",
            )

    async def _engine(self) -> Engine:
        try:
            return await self._engine_factory()
        except EngineError as exc:
            raise SessionError("engineUnavailable", f"no engine could be started: {exc}") from exc

    async def create(self, params: dict[str, Any]) -> Session:
        """Start a new game on a new engine, owned and stored. Raises SessionError."""
        creator = CREATOR.get()
        with self._claim(creator=creator):
            session = await self._create(params)
            self._register(session, creator)
            return session

    async def _create(self, params: dict[str, Any]) -> Session:
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
        self._refuse_spectator(session_id)
        return await self.resume(session_id)

    async def resume(self, session_id: str, *, take_over: bool = False) -> Session:
        """Load a stored game by pinned replay; an observer retries for ownership.
        With `take_over` the game is taken from a live owner (browser Web Lock
        steal: the old owner's lease turns lost and it writes nothing more).

        Raises SessionError: unknownSession, engineMismatch, unsupportedProfile,
        replayDiverged, journalCorrupt, storageFailed, tooManyGames,
        takeoverUnsupported, gameEnded, notLoaded (a spectator's call)."""
        self._refuse_spectator(session_id)
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
            with self._claim(replacing=session_id):
                return await self._resume(session_id, info, existing, take_over)

    async def _resume(self, session_id: str, info: SessionInfo, existing: Session | None, take_over: bool) -> Session:
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
            reason = self.deadline(info) if self.deadline is not None and lease is not None else None
            if reason is not None:
                # past its deadline and nobody else owns it: it ends with its record, never replayed
                await self._write_end(info, reason, None)
                raise SessionError("gameEnded", _ended_message(session_id, reason))
            # read the journal only once ownership is settled: an owner's is complete
            session = await resume_stored(  # from the host's newest checkpoint when one holds
                self.restore_source,
                self._engine,
                info,
                lambda after_seq: self.store.journal(session_id, after_seq),
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
            self._forget(existing)
            await existing.close()
        self._register(session)
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
            raise SessionError("gameEnded", _ended_message(info["sessionId"], record["endReason"]))

    # ---- the lock's checks (guard.GameLock) ------------------------------------------------

    async def _entered(self, session: Session) -> None:
        """The caller holds the game's lock: refuse it if the game left while
        it waited, or end the game now if a deadline has passed."""
        reason = self._ended_by.get(session)
        if reason is not None:
            raise SessionError("gameEnded", _ended_message(session.session_id, reason))
        if self._sessions.get(session.session_id) is not session:
            raise SessionError(
                "sessionClosed",
                f"game {session.session_id} was closed while this call waited for it; nothing was sent. "
                "Call session {action: resume} with its sessionId to load it again",
                field="sessionId",
            )
        due = self.deadline(session.info) if self.deadline is not None and not session.lost_ownership else None
        if due is not None:
            await self._end_loaded(session, due)
            raise SessionError("gameEnded", _ended_message(session.session_id, due))

    async def _leaving(self, session: Session) -> None:
        """The caller is about to release the game's lock: a game that has
        ended, and whose end is durable, leaves memory now (evict_ended)."""
        if (
            self.evict_ended
            and session.state.ended
            and session.info["status"] == "ended"
            and not session.lost_ownership
            and not session.journal.pending
            and self._sessions.get(session.session_id) is session
        ):
            self._forget(session)
            await session.close()

    # ---- ending games by a limit ------------------------------------------------------------

    async def _write_end(
        self, info: SessionInfo, reason: str, turn: int | None, kind: Literal["observed", "recovery"] = "observed"
    ) -> bool:
        """The record (end_reason `reason`) and the ended status; the first record wins."""
        now = time.time()
        written = await self.store.put_record(limit_record(info, reason, turn, now, kind))
        await self.store.update_session(info["sessionId"], {"status": "ended", "endedAt": now, "updatedAt": now})
        info["status"], info["endedAt"] = "ended", now
        return written

    async def _end_loaded(self, session: Session, reason: str) -> None:
        """End a loaded game by a limit; the caller holds its lock."""
        info = session.info
        if info["status"] == "active":
            turn = session.observation.get("turn")
            await self._write_end(info, reason, turn if isinstance(turn, int) else None)
        self._ended_by[session] = reason
        self._forget(session)
        await session.close()

    async def end_by_limit(
        self, session_id: str, reason: str, *, kind: Literal["observed", "recovery"] = "observed"
    ) -> bool:
        """End a game by a limit (its record says `reason`): under the game's
        lock when it is loaded here (no call is mid-flight, none is admitted
        after), else under its ownership lease (nobody else has it loaded).
        False when it is not ended here: already ended, unknown, or owned by
        another live process (whose own sweep ends it). Raises StoreError."""
        session = self._sessions.get(session_id)
        if session is not None:
            if session.lost_ownership:
                return False
            async with _bare(session.lock):
                if self._sessions.get(session_id) is not session:
                    return False
                await self._end_loaded(session, reason)
            return True
        gate = self._loading.setdefault(session_id, asyncio.Lock())
        async with gate:
            if session_id in self._sessions:
                return False  # resumed meanwhile: its own lock decides next time
            lease = await self.ownership.acquire(session_id)
            if lease is None:
                return False
            try:
                info = await self.store.get_session(session_id)
                if info is None or info["status"] != "active":
                    return False
                await self._write_end(info, reason, None, kind)
                return True
            finally:
                await lease.release()

    async def end(self, session_id: str, finish: Callable[[], Awaitable[None]]) -> None:
        """Run `finish` (which writes the game's end) under the game's lock
        when it is loaded here, then retire it, so no call of the game is
        in flight while it ends and none is admitted after."""
        session = self._sessions.get(session_id)
        if session is None:
            await finish()
            return
        async with _bare(session.lock):
            await finish()
            self._forget(session)
            await session.close()

    def sessions(self) -> list[Session]:
        return list(self._sessions.values())

    async def close(self, session_id: str) -> str:
        """Close a game: mark it closed in the store (SessionInfo closedAt)
        while this process still owns it, then retire its engine and give up
        its ownership. It stays stored; every host refuses it `sessionClosed`
        until `reopen` (session resume) clears the mark. A stored game that is
        not loaded is marked under its ownership lease, never resumed to be
        closed; one owned by another live process or already closed is left
        as it is. An ended game is marked too (closed means closed; resume
        reads it again). Raises SessionError unknownSession,
        storageFailed (nothing changed: the game stays open and loaded)."""
        session = self._sessions.get(session_id)
        if session is None:
            await self._close_stored(session_id)
            return session_id
        async with _bare(session.lock):
            if not session.lost_ownership:  # an ended game too: closed means closed
                now = time.time()
                await self._mark(session_id, now)
                session.info["closedAt"] = now
            self._forget(session)
            await session.close()
        return session_id

    async def _close_stored(self, session_id: str) -> None:
        gate = self._loading.setdefault(session_id, asyncio.Lock())
        async with gate:
            stored = await self._stored(session_id)
            if stored is None:
                self.get(session_id)  # raises unknownSession
            if stored is None or is_closed(stored) or session_id in self._sessions:
                return
            try:
                lease = await self.ownership.acquire(session_id)
            except StoreError as exc:
                raise SessionError("storageFailed", f"the game's ownership lock cannot be taken: {exc}") from exc
            if lease is None:
                return  # another live process owns it: only its owner closes it
            try:
                await self._mark(session_id, time.time())
            finally:
                await lease.release()

    async def reopen(self, session: Session) -> None:
        """Clear a resumed game's close mark, durably (session resume); an
        observer leaves it to the owner. On a failed write the game is closed
        again here. Raises SessionError storageFailed."""
        if session.lost_ownership or not is_closed(session.info):
            return
        try:
            await self._mark(session.session_id, None)
        except SessionError:
            self._forget(session)
            await session.close()
            raise
        session.info.pop("closedAt", None)

    async def closed(self, session_id: str) -> bool:
        """Whether the store marks the game closed. A game this process owns
        answers from its info (read from the store when it was loaded, kept
        by close and reopen: only an owner writes the mark); any other reads
        the store. A store that cannot be read says nothing here (loading the
        game reports it). A closed game past a host deadline is not reported
        closed: loading it ends it (gameEnded), which resume could not undo."""
        loaded = self._sessions.get(session_id)
        if loaded is not None and not loaded.lost_ownership:
            return is_closed(loaded.info)
        try:
            stored = await self.store.get_session(session_id)
        except StoreError:
            return False
        if stored is None or not is_closed(stored):
            return False
        return self.deadline is None or stored["status"] != "active" or self.deadline(stored) is None

    async def _stored(self, session_id: str) -> SessionInfo | None:
        try:
            return await self.store.get_session(session_id)
        except StoreError as exc:
            raise SessionError("storageFailed", f"the game store cannot be read: {exc}") from exc

    async def _mark(self, session_id: str, closed_at: float | None) -> None:
        try:
            await self.store.update_session(session_id, {"closedAt": closed_at})
        except StoreError as exc:
            verb = "closed" if closed_at is not None else "reopened"
            raise SessionError(
                "storageFailed", f"game {session_id!r} cannot be marked {verb} in the store ({exc}); nothing changed"
            ) from exc

    async def close_all(self) -> None:
        for session in list(self._sessions.values()):
            self._forget(session)
            await session.close()
        await background_releases()  # engines of interrupted calls, released in the background


def _bare(lock: Any) -> Any:
    """A game's lock without its checks (a GameLock's bare lock, or the lock itself)."""
    return lock.unchecked() if isinstance(lock, GameLock) else lock


def _ended_message(session_id: str, reason: str) -> str:
    return f"game {session_id!r} ended by the service's limits ({reason}); its record stays readable"
