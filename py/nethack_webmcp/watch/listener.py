"""listener.py - the spectator's loopback HTTP listener, run by uvicorn in the caller's event loop.

The socket is bound by `bind` before anything else starts, so a port in use
is a prompt `ListenError` naming the address and what to do, not a hang or
a log line from inside the server (and binding the listening socket
ourselves leaves no race between a check and the bind). Port 0 picks a
free port; `url` is the bound address. `serve` runs uvicorn on that socket
in the current event loop until `stop`; uvicorn's signal handling is left
out, because the stdio MCP server owns the process's lifetime.

uvicorn's own proxy-header handling is off: by default it rewrites the
client address from `X-Forwarded-For` for any loopback peer, which let one
client pose as many (service.edge.client_address reads that header, and
only from a configured --trusted-proxy). Connections are guarded by
connections.py: a request-head deadline and a connection cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import uvicorn
from starlette.types import ASGIApp

from .connections import guarded_protocol

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
SHUTDOWN_GRACE_S = 2.0


@dataclass(frozen=True)
class ListenerLimits:
    """What one connection may cost: a request-head deadline and a cap on open connections."""

    #: a request head not whole this long after its first byte (or the connection's start): 408, closed
    header_timeout_s: float = 10.0
    #: connections past this get 503 tooManyConnections with Retry-After: spectators stay bounded
    max_connections: int = 1024
    #: the Retry-After (seconds) on a capacity refusal
    retry_after_s: int = 5


class ListenError(Exception):
    """The listener cannot bind its address; the message says what to do."""


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port. Raises ListenError."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # not SO_REUSEPORT: a live listener still refuses us
        sock.bind(address)
        sock.listen(128)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ListenError(
                f"cannot listen on {host}:{port}: the port is in use (another server?). "
                "Pass --spectator-port 0 for a free port, another port, or --no-spectator"
            ) from exc
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    return sock


class _Server(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield  # the MCP server owns signals and shutdown


class Listener:
    def __init__(self, app: ASGIApp, sock: socket.socket, limits: ListenerLimits | None = None) -> None:
        self.sock = sock
        limits = limits if limits is not None else ListenerLimits()
        protocol = guarded_protocol(
            header_timeout_s=limits.header_timeout_s,
            max_connections=limits.max_connections,
            retry_after_s=limits.retry_after_s,
        )
        config = uvicorn.Config(
            app,
            lifespan="off",
            log_config=None,
            access_log=False,
            server_header=False,
            date_header=False,
            http=protocol,
            ws="none",
            proxy_headers=False,  # the client is the TCP peer unless service.edge trusts a proxy
            limit_concurrency=None,  # the guarded protocol caps connections, with a Retry-After
        )
        self.server = _Server(config)

    @property
    def url(self) -> str:
        host, port = self.sock.getsockname()[:2]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    async def serve(self) -> None:
        await self.server.serve(sockets=[self.sock])

    async def stop(self, task: asyncio.Task[None]) -> None:
        """Stop serving (open connections get SHUTDOWN_GRACE_S) and wait."""
        self.server.should_exit = True
        try:
            async with asyncio.timeout(SHUTDOWN_GRACE_S):
                await asyncio.shield(task)
        except TimeoutError:
            self.server.force_exit = True
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                async with asyncio.timeout(SHUTDOWN_GRACE_S):
                    await task
        except Exception as exc:
            print(f"nethack-webmcp: the spectator stopped with an error: {exc!r}", file=sys.stderr)
        finally:
            self.sock.close()
