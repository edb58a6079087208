"""guard.py - a game's lock that checks, once held, that the game may still be used.

Every path that uses a game holds its lock (`tools.base.mutate` and `query`,
the registry's close and end), so the checks that decide whether a call may
go on belong where the lock is taken, not before it: a call can wait for the
lock behind a long operation, and while it waits the game can pass a
deadline, be ended by the sweeper or be closed. `GameLock` is an
asyncio lock with two hooks the registry supplies:

- `entered` runs as soon as the lock is held and may refuse (SessionError):
  the game left the registry while the caller waited (closed or ended), or a
  deadline has passed - then the game is ended right there, under the lock,
  and the caller gets `gameEnded`;
- `leaving` runs just before the lock is released: a game that ended during
  the call leaves memory there (the HTTP service's registry).

`unchecked()` is the bare lock, for the registry's own closing and ending
(they must not end the game they are about to end).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any

Hook = Callable[[], Awaitable[None]]


class GameLock:
    def __init__(self, entered: Hook, leaving: Hook) -> None:
        self._lock = asyncio.Lock()
        self._entered = entered
        self._leaving = leaving

    def locked(self) -> bool:
        return self._lock.locked()

    def unchecked(self) -> asyncio.Lock:
        return self._lock

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        try:
            await self._entered()
        except BaseException:
            self._lock.release()
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> Any:
        try:
            await self._leaving()
        finally:
            self._lock.release()
        return None
