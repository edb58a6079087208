"""registries.py - the native game registry the MCP server runs, on a test's own state directory
(real engines, the SQLite store, file ownership): for tests that drive the tools in process."""

from __future__ import annotations

from pathlib import Path

from nethack_webmcp.engine.native import NativeEngine, native_identity
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store import Store
from nethack_webmcp.store.sqlite import FileOwnership, SqliteStore


def registry(
    directory: Path, *, max_games: int = 16, store: Store | None = None, identity: str | None = None
) -> GameRegistry:
    """The native registry on `directory` (max_games: GameRegistry's own default unless a test caps it)."""
    return GameRegistry(
        NativeEngine.start,
        max_games,
        store=store or SqliteStore.in_state_dir(directory),
        ownership=FileOwnership.in_state_dir(directory),
        identity=identity or native_identity(),
    )
