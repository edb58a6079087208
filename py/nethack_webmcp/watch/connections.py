"""connections.py - the listener's connection guard: a request-head deadline and a connection cap.

uvicorn's h11 protocol has a keep-alive timeout between requests but no
deadline for the request head itself, so a slow-loris client (a byte of
header now and then) holds a connection for ever, and enough of them hold
every connection. `guarded_protocol` returns an H11Protocol subclass that:

- gives every request head `header_timeout_s` from its connection's start,
  or from the first byte of a kept-alive connection's next request; past
  it the client gets a bare 408 and the connection is closed;
- answers a connection opened past `max_connections` with 503
  `tooManyConnections` and `Retry-After` (once its request head is in, so
  the client reads the answer instead of a reset), then closes it - so the
  refusal costs one head, bounded by the same deadline.

`open_connections()` is the number of connections open now (a gauge).
Refusals go by reason to the counter `count_refusals_with` names: the HTTP
service's metrics register theirs, as they register the gauge, so this
lower layer never imports the service.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import h11
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .json_response import send_json

_open = 0
_refusal_counter: Callable[[str], None] | None = None  # the service's metrics, once they registered


def _timeout_response() -> bytes:
    body = json.dumps({"error": "requestTimeout", "message": "the request head did not arrive in time"}).encode()
    head = (
        b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    return head + body


TIMEOUT_RESPONSE = _timeout_response()


def open_connections() -> int:
    """Connections the guarded listeners of this process hold open now."""
    return _open


def count_refusals_with(counter: Callable[[str], None]) -> None:
    """Count every refusal of this process's guarded listeners with `counter` (by reason)."""
    global _refusal_counter
    _refusal_counter = counter


def _count(reason: str) -> None:
    if _refusal_counter is not None:
        _refusal_counter(reason)


def over_capacity_app(retry_after_s: int) -> Callable[[Scope, Receive, Send], Any]:
    """An ASGI app answering 503 tooManyConnections and closing the connection (no body read)."""
    body = json.dumps(
        {"error": "tooManyConnections", "message": "the server has too many connections open; retry later"}
    ).encode()

    async def refuse(scope: Scope, receive: Receive, send: Send) -> None:
        _count("tooManyConnections")
        await send_json(send, 503, body, (b"retry-after", str(retry_after_s).encode()), (b"connection", b"close"))

    return refuse


def guarded_protocol(*, header_timeout_s: float, max_connections: int, retry_after_s: int) -> type[H11Protocol]:
    """An H11Protocol class with a request-head deadline and a connection cap."""

    class Guarded(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _counted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            global _open
            super().connection_made(transport)
            _open += 1
            self._counted = True
            if len(self.connections) > max_connections:
                self.app = over_capacity_app(retry_after_s)  # answered once its head is in
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            global _open
            self._disarm()
            if self._counted:
                _open -= 1
                self._counted = False
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.is_closing():
                self._disarm()
            elif self.conn.their_state is h11.IDLE:
                self._arm()  # a head under way (or the next one on a kept-alive connection): its deadline runs
            else:
                self._disarm()  # the head is in; the body has the edge's own deadline

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(header_timeout_s, self._expired)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self) -> None:
            self._header_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a response is still being written: that request's head did arrive
            _count("headerTimeout")
            self.transport.write(TIMEOUT_RESPONSE)
            self.transport.close()

    return Guarded
