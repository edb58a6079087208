"""hosting.py - what both native MCP servers (stdio and HTTP) are built from.

The games of this process (a GameRegistry over native engines, kept in the
SQLite store of the state directory or in a shared PostgreSQL database) and
the tools' context with the command line's operation deadline. The stdio
server (mcp.py) and the HTTP service (service/serve.py) compose these; neither
has its own copy, so the two transports serve games kept the same way.
"""

from __future__ import annotations

import argparse

from .engine.native import NativeEngine, native_build_identity, native_identity
from .replay import checkpointer
from .session import GameRegistry
from .tools import ToolContext
from .tools.base import DEFAULT_OPERATION_DEADLINE


def native_registry(directory: str | None = None, max_games: int = 16) -> GameRegistry:
    """The native games of this process: SQLite store, flock ownership, the rules' identity."""
    from .store.sqlite import FileOwnership, SqliteStore, state_dir

    root = directory or state_dir()
    return GameRegistry(
        NativeEngine.start,
        max_games,
        store=SqliteStore.in_state_dir(root),
        ownership=FileOwnership.in_state_dir(root),
        identity=native_identity(),
        build=native_build_identity(),
    )


async def postgres_registry(url: str, max_games: int) -> GameRegistry:
    """The native games of this instance kept in a shared PostgreSQL database (advisory-lock ownership)."""
    from .store.postgres import open_postgres

    store, ownership = await open_postgres(url)
    return GameRegistry(
        NativeEngine.start,
        max_games,
        store=store,
        ownership=ownership,
        identity=native_identity(),
        build=native_build_identity(),
    )


async def open_registry(opts: argparse.Namespace, max_games: int) -> GameRegistry:
    """The games the command line names: PostgreSQL for --store URL, else the state directory's SQLite;
    every new game starts at --game-clock when one is given."""
    store_url = getattr(opts, "store", None)
    games = await postgres_registry(store_url, max_games) if store_url else native_registry(max_games=max_games)
    games.game_clock = getattr(opts, "game_clock", None)
    # persisted checkpoints: a resume after a restart starts from the newest one (docs/REPLAY.md)
    checkpointer.enable(games)
    return games


async def close_registry(games: GameRegistry) -> None:
    """A host's exit: its checkpointers stopped first (their children closed while the loop runs),
    then the games and the store."""
    await checkpointer.stop_all()
    await games.close_all()
    await games.store.close()


def tool_context(games: GameRegistry, opts: argparse.Namespace) -> ToolContext:
    """The tools' context with the command line's operation deadline (0 means none)."""
    deadline = getattr(opts, "operation_deadline", DEFAULT_OPERATION_DEADLINE)
    return ToolContext(games, operation_deadline=deadline if deadline > 0 else None)
