"""http.py - the HTTP service: Streamable-HTTP MCP at /mcp beside the spectator, in one app.

`python -m nethack_webmcp.mcp --http HOST:PORT` runs this instead of stdio.
The MCP SDK's StreamableHTTPSessionManager serves the same low-level
server (same eleven tools, same frames) in stateless JSON mode: a game is
named by its sessionId in every call, never by a transport session, so an
agent can reconnect - to this instance or another sharing the database -
and go on. The spectator routes (watch/) answer every other path. The Edge
checks Host, Origin and body size before either. The SDK's own DNS-rebinding
check is left off: Edge already applies one rule set to the whole app.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any

from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ..watch.app import build_app
from ..watch.board import Board
from ..watch.listener import Listener
from .config import ServiceConfig
from .control import Control
from .edge import MCP_PATH, Edge, default_hosts


class _Endpoint:
    """The SDK's request handler as an ASGI app (a Route with a class
    endpoint passes the raw scope; no /mcp -> /mcp/ redirect)."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.manager.handle_request(scope, receive, send)


class HttpService:
    """The listener, the MCP transport, the spectator and the sweeper of one instance."""

    def __init__(self, server: Server, board: Board, control: Control, config: ServiceConfig, sock: Any) -> None:
        self.manager = StreamableHTTPSessionManager(app=server, stateless=True, json_response=True)
        host, port = sock.getsockname()[:2]
        hosts = config.allowed_hosts or default_hosts(host, port)
        origins = config.allowed_origins or tuple(f"http://{name}" for name in hosts)
        app = build_app(board, routes=[Route(MCP_PATH, _Endpoint(self.manager), methods=["GET", "POST", "DELETE"])])
        self.listener = Listener(Edge(app, hosts=hosts, origins=origins, max_body_bytes=config.max_body_bytes), sock)
        self.board = board
        self.control = control

    @property
    def url(self) -> str:
        return self.listener.url

    async def run(self, ready: asyncio.Event | None = None) -> None:
        """Serve until cancelled (SIGINT/SIGTERM end the process's loop)."""
        async with self.manager.run():
            serving = asyncio.create_task(self.listener.serve())
            sweeping = asyncio.create_task(self.control.sweeping())
            if ready is not None:
                ready.set()
            try:
                await serving
            finally:
                sweeping.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeping
                self.board.close()
                if not serving.done():
                    await self.listener.stop(serving)

    def stop(self) -> None:
        self.listener.server.should_exit = True


def announce(service: HttpService) -> None:
    print(
        f"nethack-webmcp: MCP over HTTP at {service.url}{MCP_PATH}; watch the games at {service.url}/",
        file=sys.stderr,
        flush=True,
    )
