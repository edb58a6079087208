"""nethack_webmcp - real NetHack for software agents.

The agent-facing layer over the semantic driver: engine hosts, sessions,
the DecisionFrame v2 projection, the eleven tools and the stdio MCP server.
Pure Python with no runtime dependencies, so the same package runs under
CPython and in Pyodide. Only `engine.native` and `mcp` import asyncio
subprocess/stdio machinery.
"""

__version__ = "0.1.0"
