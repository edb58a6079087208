"""base.py - the engine host interface shared by the native and WASM backends.

An engine hosts exactly one game (one driver process or one WebAssembly
instance). The driver handles one request at a time and answers each with
exactly one response, so the host serialises requests with a lock: two
concurrent callers can never interleave lines or read each other's reply.
Every host speaks the same JSON text (`codec`).

An exchange, once begun, is never abandoned halfway: `request` runs it as
its own task, so a caller that is cancelled (a client pressed Stop) stops
waiting while the exchange still reads its reply - else that reply would be
read as the answer to the next request. A host whose exchange is
interrupted anyway (its task cancelled, e.g. at shutdown) retires the
engine rather than reuse a pipe whose next line belongs to another request.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

JsonObject = dict[str, Any]
Check = Callable[[int, JsonObject], None]


_shutdowns: set[asyncio.Future[None]] = set()  # background releases (`_abandon`), kept referenced


def _drop_result(task: asyncio.Future[Any]) -> None:
    """Nobody awaits this task any more: read its outcome so none is 'never retrieved'."""
    with contextlib.suppress(BaseException):
        task.result()


async def background_releases() -> None:
    """Wait for the engines `_abandon` is still releasing. A host about to exit awaits this: a
    release cut off when the event loop closes leaves its process unreaped ("Event loop is closed")."""
    while _shutdowns:
        await asyncio.gather(*list(_shutdowns), return_exceptions=True)


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
        transport fails mid-request (the request's effect is then unknown).
        Cancelling the caller does not cancel the exchange (see the module)."""
        exchange = asyncio.ensure_future(self._locked_exchange(message))
        try:
            return await asyncio.shield(exchange)
        except asyncio.CancelledError:
            exchange.add_done_callback(_drop_result)
            raise

    async def _locked_exchange(self, message: JsonObject) -> JsonObject:
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

    def _abandon(self) -> None:
        """An exchange was interrupted mid-way: mark the engine closed now
        and release it in the background (the interrupted task may not
        await any more)."""
        if self._closed:
            return
        self._closed = True
        shutdown = asyncio.ensure_future(self._shutdown())
        _shutdowns.add(shutdown)
        shutdown.add_done_callback(_shutdowns.discard)
        shutdown.add_done_callback(_drop_result)

    @abstractmethod
    async def _exchange(self, message: JsonObject) -> JsonObject:
        """Write one request and read its one response (lock held)."""

    @abstractmethod
    async def _shutdown(self) -> None:
        """Release the engine's resources (lock held, called once)."""
