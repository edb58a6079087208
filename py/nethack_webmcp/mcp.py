"""mcp.py - the stdio MCP server: `python -m nethack_webmcp.mcp`.

Serves the same eleven tool declarations as tools.json, verbatim, through
the official MCP SDK's low-level server. Each call returns the frame as
`structuredContent` plus a compact text rendering. A frame carrying an
error is a tool error (`isError: true`, so a model can correct itself);
an unknown tool or a malformed request is a JSON-RPC protocol error.
Several games run at once, one native engine each, all closed when the
server shuts down. Games are durable: they live in the SQLite store of the
state directory ($NNH_STATE_DIR, else ~/.local/share/nethack-webmcp), so a
tool call naming a game of an earlier server process resumes it by pinned
replay; a game another live process owns is served read-only. This module
and engine.native are the only ones that use subprocess/stdio machinery;
both are native-only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import McpError

from . import __version__
from .engine.native import NativeEngine, native_build_identity, native_identity
from .projection.render import text
from .session import GameRegistry
from .tools import BY_NAME, TOOLS, ToolContext

SERVER_NAME = "nethack-webmcp"
INSTRUCTIONS = ("Real NetHack 3.6.7. Call help first if unsure. Start with session {action:create}; "
                "act with the current basis.viewId; answer questions with respond using decision.reply.")


def tool_list() -> list[types.Tool]:
    listed = []
    for tool in TOOLS:
        declared = tool.declaration()
        listed.append(types.Tool(name=declared["name"], title=declared["title"],
                                 description=declared["description"], inputSchema=declared["inputSchema"],
                                 annotations=types.ToolAnnotations(**declared["annotations"])))
    return listed


def is_error(frame: dict[str, Any]) -> bool:
    """A frame is a tool error when it reports an error and no accepted progress."""
    if "error" not in frame:
        return False
    outcome = frame.get("outcome")
    return outcome is None or outcome.get("submission") != "accepted"


def build_server(ctx: ToolContext) -> Server:
    server: Server = Server(SERVER_NAME, version=__version__, instructions=INSTRUCTIONS)

    async def list_tools(_: types.ListToolsRequest) -> types.ServerResult:
        return types.ServerResult(types.ListToolsResult(tools=tool_list()))

    async def call_tool(request: types.CallToolRequest) -> types.ServerResult:
        tool = BY_NAME.get(request.params.name)
        if tool is None:
            raise McpError(types.ErrorData(code=types.INVALID_PARAMS,
                                           message=f"unknown tool {request.params.name!r}; "
                                                   f"tools: {', '.join(BY_NAME)}"))
        frame = await tool.call(ctx, request.params.arguments or {})
        return types.ServerResult(types.CallToolResult(
            content=[types.TextContent(type="text", text=text(frame))],
            structuredContent=frame, isError=is_error(frame)))

    # Registered directly (not through the decorators) so the declared
    # schemas are served verbatim and our own checker is the one validator.
    server.request_handlers[types.ListToolsRequest] = list_tools
    server.request_handlers[types.CallToolRequest] = call_tool
    return server


def native_registry(directory: str | None = None) -> GameRegistry:
    """The native games of this process: SQLite store, flock ownership, the rules' identity."""
    from .store.sqlite import FileOwnership, SqliteStore, state_dir

    root = directory or state_dir()
    return GameRegistry(NativeEngine.start, store=SqliteStore.in_state_dir(root),
                        ownership=FileOwnership.in_state_dir(root), identity=native_identity(),
                        build=native_build_identity())


async def serve() -> None:
    games = native_registry()
    server = build_server(ToolContext(games))
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        await games.close_all()
        await games.store.close()


def main() -> None:
    asyncio.run(serve())


if __name__ == "__main__":
    main()
