"""test_history.py - the desktop server's spectator (stdio MCP, SQLite store) shows a game's
history from its stored receipts: after a restart the same events as before it, first with
the game not loaded (404 notLive carries them; nothing is loaded), then once an agent resumed
it (its live state's history is the stored one, not only the calls this server heard)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio

CALLS = 12


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    frame = (await session.call_tool(tool, arguments)).structured_content
    assert frame is not None and "error" not in frame, frame
    return frame


async def state(base: str, game: str) -> tuple[int, dict[str, Any]]:
    status, _, body = await asyncio.to_thread(http, "GET", f"{base}/api/games/{game}/state")
    return status, json.loads(body)


def recorded(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Without the creation's events (revision 0: the create result is not a receipt)."""
    return [event for event in events if event["revision"] > 0]


async def test_history_after_a_restart_is_the_stored_one(tmp_path: Path) -> None:
    require_driver()
    async with watched_server(tmp_path / "state") as (session, base):
        frame = await call(session, "session", {"action": "create", "seed": 1_734_260_911})
        game = frame["basis"]["sessionId"]
        for _ in range(CALLS):
            arguments = {"sessionId": game, "viewId": frame["basis"]["viewId"], "action": "search"}
            frame = await call(session, "interact", arguments)
        status, before = await state(base, game)
        assert status == 200 and recorded(before["events"]), before
        assert before["events"][0]["revision"] == 0, "the creation's events, heard here"

    async with watched_server(tmp_path / "state") as (session, base):
        status, stored = await state(base, game)
        assert status == 404 and stored["error"] == "notLive", stored
        assert stored["events"] == recorded(before["events"]) and stored["revision"] == before["revision"]
        _, _, health = http("GET", f"{base}/health")
        assert json.loads(health)["games"] == 0, "no spectator request loads a game"
        resumed = await call(session, "observe", {"sessionId": game})
        assert resumed["basis"]["revision"] == before["revision"]
        status, shown = await state(base, game)
        assert status == 200 and shown["events"] == recorded(before["events"]), shown["events"]
