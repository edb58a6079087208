"""http.py - the HTTP service: Streamable-HTTP MCP at /mcp beside the spectator, in one app.

`python -m nethack_webmcp.mcp --http HOST:PORT` runs this instead of stdio.
The MCP SDK's StreamableHTTPSessionManager serves the same low-level
server (same eleven tools, same frames) in stateless JSON mode, in both
protocol eras: a request whose MCP-Protocol-Version header names 2026-07-28
is one self-contained exchange (no initialize, no Mcp-Session-Id; the SDK
checks its Mcp-Method/Mcp-Name headers against the body), any other is
served as the handshake era's stateless transport. Either way a game is
named by its sessionId in every call, never by a transport session, so an
agent can reconnect - to this instance or another sharing the database -
and go on. The spectator routes (watch/) answer every other path. The Edge
checks Host, Origin and body size before either. The SDK's own DNS-rebinding
check is left off: Edge already applies one rule set to the whole app.

A client that closes its connection before the answer cancels its call
(2026-07-28 says so; a handshake-era client that gives up means the same):
`_Endpoint` watches for the disconnect once the body is read and cancels
the request's handling, which the SDK turns into the cancellation of the
tool handler's task. A posted `notifications/cancelled` cannot name a call
of another stateless exchange, so the SDK acknowledges it (202) and drops it.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from ..eval.board_route import leaderboard_routes
from ..watch.app import build_app
from ..watch.board import Board
from .config import ServiceConfig
from .control import Control
from .edge import MCP_PATH, service_listener
from .metrics_route import metrics_route


class _Endpoint:
    """The SDK's request handler as an ASGI app (a Route with a class
    endpoint passes the raw scope; no /mcp -> /mcp/ redirect), cancelled
    when the client closes the connection before the response is complete."""

    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body_read = anyio.Event()
        disconnected = anyio.Event()
        responded = False

        async def receiving() -> Message:
            # after the body only the watcher below reads the connection; the app hears its verdict
            if body_read.is_set():
                await disconnected.wait()
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected.set()
            elif message["type"] == "http.request" and not message.get("more_body", False):
                body_read.set()
            return message

        async def sending(message: Message) -> None:
            nonlocal responded
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                responded = True
            await send(message)

        async with anyio.create_task_group() as tasks:

            async def watch() -> None:
                await body_read.wait()
                while (await receive())["type"] != "http.disconnect":
                    pass
                disconnected.set()
                if not responded:
                    tasks.cancel_scope.cancel()  # the client is gone: its call is cancelled

            tasks.start_soon(watch)
            await self.manager.handle_request(scope, receiving, sending)
            tasks.cancel_scope.cancel()


class HttpService:
    """The listener, the MCP transport, the spectator and the sweeper of one instance."""

    def __init__(self, server: Server, board: Board, control: Control, config: ServiceConfig, sock: Any) -> None:
        self.manager = StreamableHTTPSessionManager(
            app=server, stateless=True, json_response=True, max_request_body_size=config.max_body_bytes
        )
        mcp = Route(MCP_PATH, _Endpoint(self.manager), methods=["GET", "POST", "DELETE"])
        app = build_app(board, routes=[mcp, metrics_route(control.games, config), *leaderboard_routes()])
        self.listener = service_listener(app, config, sock)
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
                await asyncio.wait([sweeping])  # (a cancel of this task still propagates)
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
