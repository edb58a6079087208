"""mcp.py - the MCP server: `python -m nethack_webmcp.mcp` (stdio; --http for the service).

This module is the stdio server, the command line of both servers, and the
MCP server builder they share (`build_server`); `--http` hands that builder
to service/serve.py, which composes the HTTP service. What both are built
from (the native games, the tools' context) is hosting.py.

Serves the same eleven tool declarations as tools.json, verbatim, through
the official MCP SDK's (2.x) low-level server, in every protocol era the
SDK speaks: 2026-07-28 (no handshake: each request carries its version,
`server/discover` describes the server) and the handshake eras (2025-11-25
and older, `initialize` first). The client's first request picks the era of
a stdio connection; over HTTP each request names its own. Each call returns
the frame as `structuredContent` plus a compact text rendering. A frame
carrying an error is a tool error (`isError: true`, so a model can correct
itself); an unknown tool or a malformed request is a JSON-RPC protocol
error. Several games run at once, one native engine each, all closed when
the server shuts down. Games are durable: they live in the SQLite store of
the state directory ($NNH_STATE_DIR, else ~/.local/share/nethack-webmcp), so
a tool call naming a game of an earlier server process resumes it by pinned
replay; a game another live process owns is served read-only. This module,
stdio_transport and engine.native are the only ones that use
subprocess/stdio machinery; all are native-only.

Cancellation (`notifications/cancelled`, or a closed HTTP response stream)
reaches a call as the cancellation of its handler task, nothing more: the
SDK's dispatcher answers a cancelled request at most once (not at all on
stdio, as the spec asks), and what happens to the game is the session
layer's to decide (docs/DURABILITY.md).

Spectators: unless --no-spectator, a loopback HTTP listener (watch/, by
default 127.0.0.1:8765; --spectator-host/--spectator-port, port 0 = a free
one) serves a read-only spectator of these games, their records and a
state API in the same event loop. Its URL goes to stderr at start and
into the results of `session create` (the game's page) and `help`, so an
agent can tell its person where to watch.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

import anyio
from mcp import types
from mcp.server import ServerRequestContext
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from . import __version__
from .hosting import close_registry, open_registry, tool_context
from .projection.render import text
from .service.control import Control
from .service.edge import client_address
from .service.listing import http_fields
from .service.metrics import observe_call
from .service.options import add_service_options
from .tools import BY_NAME, ToolContext, mcp_declarations
from .tools.base import DEFAULT_OPERATION_DEADLINE
from .watch.board import Board

SERVER_NAME = "nethack-webmcp"
INSTRUCTIONS = (
    "Real NetHack 3.6.7. Call help first if unsure. Start with session {action:create}; "
    "act with the current basis.viewId; answer questions with respond using decision.reply."
)
# The tool list is fixed for the life of a process and the same for every caller,
# so 2026-07-28 clients may cache it (ttlMs/cacheScope on tools/list) and share it.
Request = ServerRequestContext[Any, Any]
T = TypeVar("T")
#: how long a cancelled handler waits for its tool to wind down before leaving it to finish alone
CANCEL_GRACE_SECONDS = 5.0
TOOLS_LIST_CACHE = CacheHint(ttl_ms=3_600_000, scope="public")


def declared_tools(http: bool = False) -> list[dict[str, Any]]:
    """The MCP declarations (Tool.mcp_declaration: the page's, with the
    untrusted-content marking in words); over HTTP each game tool's schema
    also declares the transport's `controlToken` (session: `controlTokens`
    too), taken off before the tool runs."""
    listed = []
    for declared in mcp_declarations():
        schema = declared["inputSchema"]
        if http and declared["name"] != "help":
            schema = {**schema, "properties": {**schema["properties"], **http_fields(declared["name"])}}
        listed.append({**declared, "inputSchema": schema})
    return listed


def tool_list(http: bool = False) -> list[types.Tool]:
    return [types.Tool.model_validate(declared) for declared in declared_tools(http)]


def is_error(frame: dict[str, Any]) -> bool:
    """A frame is a tool error when it reports an error and no accepted progress."""
    if "error" not in frame:
        return False
    outcome = frame.get("outcome")
    return outcome is None or outcome.get("submission") != "accepted"


def watch_url(frame: dict[str, Any], tool: str, base: str | None) -> str | None:
    """Where a person watches: the game's page for a created game, the
    spectator's root for help; None for other results (or no spectator)."""
    result = frame.get("result") or {}
    if base is None or "error" in frame:
        return None
    if tool == "session" and result.get("action") == "created":
        return f"{base}/g/{frame['basis']['sessionId']}"
    return f"{base}/" if tool == "help" else None


async def cancelled_once(work: Coroutine[Any, Any, T]) -> T:
    """Run a tool call as its own task; when the handler is cancelled, cancel that task once.

    The SDK cancels a handler with an anyio cancel scope, which is level-triggered:
    every await inside it raises again, so cleanup code that awaits (psycopg ending
    a query, a store rolling back) is cut off and can leave a pooled connection
    closed. The tools and the session layer are written for asyncio's cancellation:
    one CancelledError, after which they may await to clean up. So the handler
    waits for the task (shielded, bounded) and re-raises its own cancellation."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.cancel()
        with anyio.move_on_after(CANCEL_GRACE_SECONDS, shield=True):
            await asyncio.wait([task])
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        raise


def tool_result(frame: dict[str, Any], rendered: str) -> dict[str, Any]:
    """A call's result in its wire form (CallToolResult's JSON keys). Handed to
    the SDK as a dict, which its runner validates and dumps once for the
    protocol era; a CallToolResult model would be dumped once more before that
    (0.034 ms for a 17 KB observe frame, docs/BENCHMARKS.md). `resultType` is
    the 2026-07-28 era's (the model's default); the handshake eras' sieve drops it."""
    return {
        "resultType": "complete",
        "content": [{"type": "text", "text": rendered}],
        "structuredContent": frame,
        "isError": is_error(frame),
    }


def build_server(
    ctx: ToolContext, board: Board | None = None, spectator: str | None = None, control: Control | None = None
) -> Server:
    """The MCP server over `ctx`; `board` hears every frame (spectators),
    `spectator` is the listener's base URL reported to the agent; `control`
    (the HTTP service) admits each call: tokens, limits, deadlines."""
    http = control is not None
    tools = tool_list(http)
    schemas = {declared["name"]: declared["inputSchema"] for declared in declared_tools(http)}

    async def list_tools(_: Request, __: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def answer(request: Request, name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The frame of one call and its text rendering."""
        tool = BY_NAME.get(name)
        if tool is None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool {name!r}; tools: {', '.join(BY_NAME)}")
        client = ""
        if control is not None:
            scope = request.request.scope if request.request is not None else {}
            client = client_address(scope, control.config.trusted_proxies)
            refused, arguments = await control.admit(tool, arguments, client)
            if refused is not None:
                return refused, text(refused)
        frame = await tool.call(ctx, arguments)
        rendered = text(frame)
        if board is not None:
            board.observe(frame)
        url = watch_url(frame, tool.name, spectator)
        if url is not None:
            frame["result"]["watchUrl"] = url
            rendered += f"\nwatch it (read-only, for a person): {url}"
        if (
            control is not None
            and tool.name == "session"
            and "error" not in frame
            and (frame.get("result") or {}).get("action") == "created"  # (session quit has no result)
        ):
            # the token goes to the creator only: into a copy, after the board saw the frame
            frame = await control.issue(frame, client)
            if "error" in frame:
                rendered = text(frame)
            else:
                rendered += (
                    "\ncontrolToken (pass it as controlToken in every call that acts on this game; "
                    f"keep it secret): {frame['result']['controlToken']}"
                )
        return frame, rendered

    async def call_tool(request: Request, params: types.CallToolRequestParams) -> dict[str, Any]:
        started = time.monotonic()
        observed: dict[str, Any] | None = None
        try:
            frame, rendered = await cancelled_once(answer(request, params.name, dict(params.arguments or {})))
            observed = frame
            return tool_result(frame, rendered)
        finally:
            # once per call, however it ends: None for a raised (or cancelled) call
            observe_call(params.name, observed, time.monotonic() - started)

    # Our own checker is the one validator: the low-level server passes the
    # arguments through unvalidated, and the declared schemas are served verbatim.
    server: Server = Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        cache_hints={"tools/list": TOOLS_LIST_CACHE},
        # Mcp-Param-* headers (2026-07-28 HTTP) are checked against these without a tools/list round
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
    )
    # tools/call through the generic registration, whose handlers may return the wire dict
    server.add_request_handler("tools/call", types.CallToolRequestParams, call_tool)
    # No OpenTelemetry span per message: nothing here exports traces.
    server.middleware = []
    return server


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options; the environment gives their defaults
    (NNH_SPECTATOR_HOST, NNH_SPECTATOR_PORT, NNH_SPECTATOR=off), for MCP
    client configurations that set variables more easily than arguments."""
    import os

    from .watch.listener import DEFAULT_HOST, DEFAULT_PORT

    parser = argparse.ArgumentParser(
        prog="python -m nethack_webmcp.mcp",
        description="NetHack for agents: the stdio MCP server, with a read-only spectator over loopback HTTP.",
    )
    parser.add_argument(
        "--spectator-host",
        default=os.environ.get("NNH_SPECTATOR_HOST", DEFAULT_HOST),
        help=f"listen address (default {DEFAULT_HOST}; $NNH_SPECTATOR_HOST)",
    )
    parser.add_argument(
        "--spectator-port",
        type=int,
        default=int(os.environ.get("NNH_SPECTATOR_PORT", DEFAULT_PORT)),
        help=f"listen port (default {DEFAULT_PORT}; 0 picks a free one; $NNH_SPECTATOR_PORT)",
    )
    parser.add_argument(
        "--no-spectator",
        dest="spectator",
        action="store_false",
        default=os.environ.get("NNH_SPECTATOR", "on") != "off",
        help="serve no spectator, no HTTP listener ($NNH_SPECTATOR=off)",
    )
    parser.add_argument(
        "--game-clock",
        type=int,
        default=int(os.environ["NNH_GAME_CLOCK"]) if os.environ.get("NNH_GAME_CLOCK") else None,
        metavar="EPOCH",
        help="the date every new game starts at, in Unix seconds (default now; $NNH_GAME_CLOCK): "
        "NetHack's moon phase and night depend on it, so benchmarks pin it",
    )
    parser.add_argument(
        "--operation-deadline",
        type=float,
        default=float(os.environ.get("NNH_OPERATION_DEADLINE", DEFAULT_OPERATION_DEADLINE)),
        metavar="SECONDS",
        help=f"how long a tool call waits for its operation's boundary before it answers "
        f"outcome.status running with the operationId (default {DEFAULT_OPERATION_DEADLINE:g}; "
        "0 = no limit; $NNH_OPERATION_DEADLINE)",
    )
    add_service_options(parser)
    return parser.parse_args(argv)


async def serve(opts: argparse.Namespace | None = None) -> None:
    from .stdio_transport import stdio_transport

    opts = opts if opts is not None else options([])
    listen = None
    if opts.spectator:
        from .watch.listener import bind, is_loopback

        # bound before anything else: a port in use fails here, at once
        listen = bind(opts.spectator_host, opts.spectator_port)
        if not is_loopback(opts.spectator_host):
            print(
                f"nethack-webmcp: warning: the spectator listens on {opts.spectator_host}, not loopback",
                file=sys.stderr,
            )
    games = await open_registry(opts, 16)
    board = Board(games)
    listener = watching = None
    if listen is not None:
        from .watch.app import build_app
        from .watch.listener import Listener

        listener = Listener(build_app(board), listen)
        watching = asyncio.create_task(listener.serve())
        print(f"nethack-webmcp: watch the games at {listener.url}/", file=sys.stderr, flush=True)
    server = build_server(tool_context(games, opts), board, listener.url if listener else None)
    # Everything imported and built so far lives as long as the process: out of the
    # collector's sight, a full collection scans ~17k objects instead of ~100k (a
    # 20-30 ms pause now and then inside a tool call; docs/BENCHMARKS.md)
    gc.freeze()
    try:
        async with stdio_transport() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        board.close()  # open spectator streams end, so the listener stops at once
        if listener is not None and watching is not None:
            await listener.stop(watching)
        await close_registry(games)


def main(argv: list[str] | None = None) -> None:
    from .service.config import ConfigError
    from .service.serve import serve_http
    from .store import StoreError
    from .watch.listener import ListenError

    opts = options(argv)
    try:
        asyncio.run(serve_http(opts, build_server) if opts.http else serve(opts))
    except (ListenError, ConfigError, StoreError) as exc:
        print(f"nethack-webmcp: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
