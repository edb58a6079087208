"""test_sealed_seed.py - fair evaluation: a live game's seed stays sealed.

A game created without a seed is played through every agent-facing tool,
free and acting; no frame (structured or its text) names the seed or
carries a state hash that could confirm a twin game. Once the game has
ended, its record holds the seed and says it was sealed, and the session
tool shows it too. A seed the creator chose (a harness's) is no less
sealed: no frame names it until the end (the state hash stays, see
docs/DURABILITY.md), and a replay whose creation diverges names no seed.
The servers' every byte is searched in tests/service/test_seed_never_leaks.py.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from durable_support import registry
from nethack_webmcp.projection.render import text
from nethack_webmcp.store.sqlite import DATABASE_NAME
from support.client import Client, bound, require_driver
from support.every_tool import reading_calls
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
        for tool, arguments in reading_calls(frame["basis"]["viewId"]):
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


async def test_a_chosen_seed_is_sealed_too_until_the_end(tmp_path: Path) -> None:
    require_driver()
    seed = 3_141_592_653  # ten digits: no frame holds them by chance
    client = Client(registry(tmp_path))
    try:
        frames = [await client.call("session", action="create", seed=seed, harness_name="pytest")]
        sid = frames[0]["basis"]["sessionId"]
        assert frames[0]["result"]["session"]["seedChoice"] == "chosen"
        frames.append(await client.call("interact", **bound(frames[0]), action="search"))
        frames.append(await client.call("observe", sessionId=sid))
        await client.call("session", action="close", sessionId=sid)
        frames.append(await client.call("session", action="resume", sessionId=sid))
        for shown in frames:
            assert "seed" not in keys(shown) and str(seed) not in json.dumps(shown) + text(shown)
        await quit_game(client, frames[-1])
        record = await client.games.store.get_record(sid)
        assert record is not None and (record["seed"], record["seedChoice"]) == (seed, "chosen")
        assert (await client.ok("session", action="resume", sessionId=sid))["result"]["session"]["seed"] == seed
    finally:
        await client.close()


async def test_a_diverged_creation_names_no_seed(tmp_path: Path) -> None:
    """The replayDiverged error quotes the recorded creation: never its seed."""
    require_driver()
    seed = 2_718_281_828
    client = Client(registry(tmp_path))
    try:
        sid = (await client.ok("session", action="create", seed=seed))["basis"]["sessionId"]
        await client.call("session", action="close", sessionId=sid)
    finally:
        await client.close()
    database = sqlite3.connect(tmp_path / DATABASE_NAME)
    with database:  # the stored creation no longer matches what the engine makes of it
        database.execute(
            "UPDATE sessions SET metadata_json = json_set(metadata_json, '$.name', 'Zed') WHERE session_id = ?", (sid,)
        )
    database.close()
    client = Client(registry(tmp_path))
    try:
        refused = await client.call("session", action="resume", sessionId=sid)
        assert refused["error"]["code"] == "replayDiverged", refused
        assert str(seed) not in json.dumps(refused) + text(refused)
    finally:
        await client.close()
