"""base.py - the engine host interface shared by the native and WASM backends.

An engine hosts exactly one game (one driver process or one WebAssembly
instance). The driver handles one request at a time and answers each with
exactly one response, so the host serialises requests with a lock: two
concurrent callers can never interleave lines or read each other's reply.
Every host speaks the same JSON text (`codec`).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

JsonObject = dict[str, Any]
Check = Callable[[int, JsonObject], None]


class EngineError(Exception):
    """The transport failed: no reply, a malformed reply, or the engine died.

    After an EngineError the outcome of the request is unknown (the engine
    may or may not have taken the input), so callers must treat it as
    uncertain, never as a rejection."""


class EngineClosed(EngineError):
    """The engine was closed (or exited) before the request was sent."""


class Engine(ABC):
    """One hosted game. Subclasses implement `_exchange` and `_shutdown`."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    async def request(self, message: JsonObject) -> JsonObject:
        """Send one low-protocol request and return its response.

        Raises EngineClosed when the engine is closed, EngineError when the
        transport fails mid-request (the request's effect is then unknown)."""
        async with self._lock:
            if self._closed:
                raise EngineClosed("the engine is closed")
            return await self._exchange(message)

    async def pipeline(self, messages: Sequence[JsonObject], check: Check, *, window: int = 1) -> None:
        """Send many requests known in advance (a replay), calling
        `check(index, response)` for each response in order.

        Hosts that can keep up to `window` requests in flight override this;
        here they go one at a time. If `check` raises, the exception
        propagates (a host with requests in flight retires the engine first:
        their replies would be read as answers to later requests). Raises
        EngineClosed / EngineError like `request`."""
        async with self._lock:
            for index, message in enumerate(messages):
                if self._closed:
                    raise EngineClosed("the engine is closed")
                check(index, await self._exchange(message))

    async def close(self) -> None:
        """Retire the engine. Idempotent; does not quit the game."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._shutdown()

    @abstractmethod
    async def _exchange(self, message: JsonObject) -> JsonObject:
        """Write one request and read its one response (lock held)."""

    @abstractmethod
    async def _shutdown(self) -> None:
        """Release the engine's resources (lock held, called once)."""
