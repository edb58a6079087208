"""registry.py - the games of one process, by sessionId.

The registry owns its sessions' engines: closing a game or the registry
retires them. The engine factory is injected so this module stays free of
subprocess machinery (the native MCP server passes NativeEngine.start; the
browser worker will pass the WASM host).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..engine import Engine, EngineError
from .errors import SessionError
from .session import Session

EngineFactory = Callable[[], Awaitable[Engine]]


class GameRegistry:
    def __init__(self, engine_factory: EngineFactory, max_games: int = 16) -> None:
        self._engine_factory = engine_factory
        self._max_games = max_games
        self._sessions: dict[str, Session] = {}

    async def create(self, params: dict[str, Any]) -> Session:
        """Start a new game on a new engine. Raises SessionError."""
        if len(self._sessions) >= self._max_games:
            raise SessionError("tooManyGames",
                               f"at most {self._max_games} games run at once; close one first")
        try:
            engine = await self._engine_factory()
        except EngineError as exc:
            raise SessionError("engineUnavailable", f"no engine could be started: {exc}") from exc
        session = await Session.create(engine, params)
        self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str) -> Session:
        try:
            return self._sessions[session_id]
        except KeyError:
            raise SessionError("unknownSession",
                               f"no open game has sessionId {session_id!r}; create one with the session tool",
                               field="sessionId") from None

    def sessions(self) -> list[Session]:
        return list(self._sessions.values())

    async def close(self, session_id: str) -> Session:
        session = self.get(session_id)
        async with session.lock:
            del self._sessions[session_id]
            await session.close()
        return session

    async def close_all(self) -> None:
        for session_id in list(self._sessions):
            session = self._sessions.pop(session_id)
            await session.close()
