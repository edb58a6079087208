"""service - the multi-game HTTP service: many agents over Streamable-HTTP MCP.

    config    ServiceConfig: the limits and the listener's Host/Origin rules, validated at start
    tokens    control tokens: minted, hashed for the store, compared in constant time
    edge      the HTTP edge (ASGI): Host/Origin validation, request size, no caching of /mcp
    control   each tool call's admission: tokens, spectator reads, limits, idle and lifetime ends
    http      the app: the SDK's Streamable-HTTP transport at /mcp beside the spectator, served
    serve     the service composed for `mcp --http`: listener, games, board, admission, the given MCP server

The stdio server (mcp.py) needs none of this: one local user, no token.
"""
