"""client.py - the one test client: calls tools the way an MCP client would, on live native games.

Used by tests/python (the `agent` fixture) and tests/durability alike, on a
GameRegistry over the real native engine and whatever real store the test
chose. Nothing here mocks the engine or the store.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine.native import DEFAULT_DRIVER
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.tools import BY_NAME, ToolContext

from support.driver import CREATED_AT, ROOT  # noqa: F401  (re-exported: the tool tests import them from here)


def stdio_command(state_dir: Path, *args: str) -> tuple[str, list[str], dict[str, str]]:
    """command, args and environment of a stdio MCP server (`python -m nethack_webmcp.mcp`)
    over the state directory `state_dir`, for any MCP client that starts one."""
    return sys.executable, ["-m", "nethack_webmcp.mcp", *args], {**os.environ, "NNH_STATE_DIR": str(state_dir)}


def require_driver() -> None:
    if not os.access(os.environ.get("NNH_DRIVER", DEFAULT_DRIVER), os.X_OK):
        pytest.fail(f"native driver missing at {DEFAULT_DRIVER}; build it with ./scripts/build")


class Client:
    """Calls tools the way an MCP client would, on one registry."""

    def __init__(self, games: GameRegistry) -> None:
        self.games = games
        self.ctx = ToolContext(games)

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        return await BY_NAME[tool].call(self.ctx, arguments)

    async def ok(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """A call that must succeed: its frame (the test fails on an error frame)."""
        frame = await self.call(tool, **arguments)
        assert "error" not in frame, frame.get("error")
        return frame

    async def create(self, **params: Any) -> dict[str, Any]:
        return await self.ok("session", action="create", **params)

    async def fixture_game(self, **params: Any) -> Session:
        """A game created through the registry with low-only fixture parameters
        (wizard mode, a fixed createdAt) that the tools never expose."""
        return await self.games.create({"name": "Ada", "createdAt": CREATED_AT, **params})

    async def engine_revision(self, session: Session) -> int:
        """The revision as the engine itself reports it (not our bookkeeping)."""
        response = await session.engine.request(
            {"version": 1, "method": "session.observe", "params": {"sessionId": session.session_id}}
        )
        return int(response["revision"])

    async def close(self) -> None:
        """Retire every game and close the store."""
        await self.games.close_all()
        await self.games.store.close()


def bound(frame: dict[str, Any]) -> dict[str, Any]:
    """sessionId and viewId of a frame, for the next mutation."""
    return {"sessionId": frame["basis"]["sessionId"], "viewId": frame["basis"]["viewId"]}
