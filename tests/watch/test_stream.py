"""test_stream.py - a game's state as server-sent events: the current state at
once, the next one after a call, `gone` when the game is closed, and the
state route's answers (410/404) for a game that is not loaded."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio


async def next_event(lines: AsyncIterator[str]) -> dict[str, str]:
    """The next event's fields (comments and retry lines skipped)."""
    event: dict[str, str] = {}
    async for line in lines:
        if not line:
            if "data" in event:
                return event
            event = {}
            continue
        field, _, value = line.partition(":")
        if field:
            event[field] = value.removeprefix(" ")
    raise AssertionError("the stream ended")


async def test_events_follow_a_game_until_it_is_closed(tmp_path: Path) -> None:
    require_driver()
    async with watched_server(tmp_path / "state") as (session, base):
        frame = (await session.call_tool("session", {"action": "create", "seed": 11})).structured_content
        assert frame is not None
        game = frame["basis"]["sessionId"]
        url = f"{base}/api/games/{game}/events"
        head = http("HEAD", url)
        assert head[0] == 200 and head[2] == b"" and head[1]["content-type"].startswith("text/event-stream")
        async with httpx.AsyncClient(timeout=10) as client, client.stream("GET", url) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            assert not [name for name in response.headers if name.lower().startswith("access-control-")]
            lines = response.aiter_lines()
            async with asyncio.timeout(5):
                first = await next_event(lines)
            state: dict[str, Any] = json.loads(first["data"])
            assert first["id"] == f'"{game}/{frame["basis"]["revision"]}"'
            assert state["revision"] == frame["basis"]["revision"]
            assert state == json.loads(http("GET", f"{base}/api/games/{game}/state")[2])  # the same state

            basis = frame["basis"]
            moved = (
                await session.call_tool("interact", {"sessionId": game, "viewId": basis["viewId"], "action": "search"})
            ).structured_content
            assert moved is not None
            async with asyncio.timeout(2):
                pushed = await next_event(lines)
            assert json.loads(pushed["data"])["revision"] == moved["basis"]["revision"]

            await session.call_tool("session", {"action": "close", "sessionId": game})
            async with asyncio.timeout(3):
                gone = await next_event(lines)
            assert gone["event"] == "gone"
        # not loaded any more, not completed: the state route's 404, said once
        status, _, body = http("GET", url)
        assert status == 404 and json.loads(body)["error"] == "notLive"
        assert http("GET", f"{base}/api/games/a%20b/events")[0] == 404
        assert http("POST", url)[0] == 405
