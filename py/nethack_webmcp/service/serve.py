"""serve.py - the HTTP service composed: `python -m nethack_webmcp.mcp --http HOST:PORT`.

Binds the listener first (a port in use fails at once), opens the games
(PostgreSQL for --store, else SQLite), and serves MCP at /mcp beside the
spectator until SIGINT/SIGTERM, then closes every game and the store.
The MCP server itself is the one the stdio server uses: the entry point
(mcp.py) hands its builder in, so this package never imports the module
that imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections.abc import Callable

from mcp.server.lowlevel import Server

from ..hosting import close_registry, open_registry, tool_context
from ..tools import ToolContext
from ..watch.board import Board
from ..watch.listener import bind
from .config import parse_listen
from .control import Control
from .http import HttpService, announce
from .options import service_config

#: builds the MCP server over the tools' context, the board, the spectator's base URL and the admission
ServerBuilder = Callable[[ToolContext, Board, str, Control], Server]


async def serve_http(opts: argparse.Namespace, build_server: ServerBuilder) -> None:
    """The HTTP service (--http): MCP at /mcp and the spectator in one app, until SIGINT/SIGTERM."""
    config = service_config(opts)
    host, port = parse_listen(opts.http)
    sock = bind(host, port)
    games = await open_registry(opts, config.max_games)
    board = Board(games)
    control = Control(games, config)
    base = config.public_url
    if base is None:
        bound_host, bound_port = sock.getsockname()[:2]
        base = f"http://[{bound_host}]:{bound_port}" if ":" in bound_host else f"http://{bound_host}:{bound_port}"
    service = HttpService(build_server(tool_context(games, opts), board, base, control), board, control, config, sock)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, service.stop)
    announce(service)
    try:
        await service.run()
    finally:
        await close_registry(games)
