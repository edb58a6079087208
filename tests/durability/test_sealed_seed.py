"""test_sealed_seed.py - fair evaluation: a seed the engine picked stays sealed.

A game created without a seed is played through every agent-facing tool,
free and acting; no frame (structured or its text) names the seed or
carries a state hash that could confirm a twin game. Once the game has
ended, its record holds the seed and says it was sealed, and the session
tool shows it too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from durable_support import registry
from nethack_webmcp.projection.render import text
from support.client import Client, bound, require_driver
from test_records import quit_game

pytestmark = pytest.mark.asyncio


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys(item)}
    return set()


async def test_a_sealed_seed_is_absent_from_every_agent_frame_and_in_the_record(tmp_path: Path) -> None:
    require_driver()
    client = Client(registry(tmp_path))
    frames: list[dict[str, Any]] = []

    async def call(tool: str, **arguments: Any) -> dict[str, Any]:
        frame = await client.call(tool, **arguments)
        frames.append(frame)
        return frame

    try:
        frame = await call("session", action="create", harness_name="pytest")
        sid = frame["basis"]["sessionId"]
        assert frame["result"]["session"]["seedChoice"] == "sealed"
        frame = await call("travel", **bound(frame), mode="explore", maxActions=20)
        frame = await call("interact", **bound(frame), action="search", turns=3)
        for tool, arguments in (
            ("observe", {}),
            ("plan", {"query": "navigation"}),
            ("inventory", {}),
            ("equipment", {}),
            ("lookup", {"symbol": "@"}),
            ("use", {}),
            ("interact", {"viewId": frame["basis"]["viewId"]}),
        ):
            await call(tool, sessionId=sid, **arguments)
        await call("session", action="close", sessionId=sid)
        frame = await call("session", action="resume", sessionId=sid)
        assert frame["result"]["session"]["seedChoice"] == "sealed"
        frame = await call("observe", sessionId=sid)
        stored = await client.games.store.get_session(sid)
        assert stored is not None
        seed = stored["create"]["seed"]  # the host's own knowledge

        for shown in frames:
            assert not keys(shown) & {"seed", "stateHash"}, shown.get("result")
            if seed >= 1000:  # a short number would match unrelated digits
                assert str(seed) not in json.dumps(shown) + text(shown)

        ended = await quit_game(client, frame)
        record = await client.games.store.get_record(sid)
        assert record is not None and (record["seed"], record["seedChoice"]) == (seed, "sealed")
        after = await client.ok("session", action="resume", sessionId=sid)
        assert ended["control"]["gate"] == "ended" and after["result"]["session"]["seed"] == seed
        assert "stateHash" in (await client.ok("observe", sessionId=sid))["result"]
    finally:
        await client.close()
