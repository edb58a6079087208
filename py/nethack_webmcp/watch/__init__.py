"""watch - what a spectator sees of a game, and (natively) where it is served.

`snapshot` (pure) builds the read-only spectator snapshot of a loaded game;
the browser worker and the native server both use it. `board` (pure) keeps
the games a native server publishes. `app` and `listener` (native only:
starlette and uvicorn, which the `mcp` package brings) serve them over
loopback HTTP inside the stdio MCP server's event loop.
"""
