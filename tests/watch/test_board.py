"""test_board.py - the spectator app in this process, on a real listener and real
games: malformed IDs never reach the store, the listener shares the event
loop, and the ten most recent records come in seed 002's order."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store import MemoryStore
from nethack_webmcp.store.base import GameRecord
from nethack_webmcp.store.sqlite import SqliteStore
from nethack_webmcp.watch.app import build_app
from nethack_webmcp.watch.board import Board
from nethack_webmcp.watch.listener import Listener, bind
from support.watched import http, require_driver, watched_server

pytestmark = pytest.mark.asyncio


class CountingStore(MemoryStore):
    """A real in-memory store that counts the reads spectators cause."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[str] = []

    async def get_session(self, session_id: str) -> Any:
        self.reads.append(session_id)
        return await super().get_session(session_id)

    async def get_record(self, session_id: str) -> Any:
        self.reads.append(session_id)
        return await super().get_record(session_id)


async def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(http, "GET", url, headers)


async def test_malformed_ids_never_reach_the_store(tmp_path: Path) -> None:
    require_driver()
    store = CountingStore()
    games = GameRegistry(NativeEngine.start, store=store)
    listener = Listener(build_app(Board(games), site_dir=tmp_path), bind("127.0.0.1", 0))
    serving = asyncio.create_task(listener.serve())  # this loop: the tests' own
    try:
        session = await games.create({"name": "Ada", "seed": 3})
        for edge in ("-a", "_a", "a.b"):  # valid IDs (engine IDs are URL-safe base64) that no game has
            assert (await get(f"{listener.url}/api/games/{edge}/state"))[0] == 404
        assert store.reads == ["-a", "-a", "_a", "_a", "a.b", "a.b"]
        store.reads.clear()
        status, headers, _ = await get(f"{listener.url}/api/games/{session.session_id}/state")
        assert status == 200 and store.reads == []  # a live game is served from memory
        for bad in ("a%20b", "x" * 97, "%3Cb%3E", "a%22b", "%2E%2E", "%00"):
            assert (await get(f"{listener.url}/api/games/{bad}/state"))[0] == 404, bad
            assert (await get(f"{listener.url}/g/{bad}"))[0] == 404, bad
        assert store.reads == []
        assert (await get(f"{listener.url}/api/games/unknown-1/state"))[0] == 404
        assert store.reads == ["unknown-1", "unknown-1"]
        page = (await get(f"{listener.url}/"))[2].decode()
        assert "spectator.js is missing" in page  # no bundle in this site directory: the page says so
    finally:
        await listener.stop(serving)
        await games.close_all()


def record(game: str, ended: int) -> GameRecord:
    return GameRecord(
        sessionId=game,
        characterName=f"<i>{game}</i>",
        harnessName="h",
        modelName="m",
        startedAt=ended - 100,
        endedAt=ended,
        endTimeKind="observed",
        endReason="died",
        how="died",
        death="killed by a jackal",
        score=ended,
        turns=10,
        lastDepth=2,
        deepestDepth=3,
        seed=ended % 1000,
        seedChoice="sealed",
    )


async def test_recent_lists_ten_completed_games_newest_first(tmp_path: Path) -> None:
    require_driver()
    state = tmp_path / "state"
    store = SqliteStore.in_state_dir(state)
    # twelve records; three end in the same second (the game ID breaks the tie, descending)
    ends = {f"g{n:02d}": 1_700_000_000 + n * 60 for n in range(12)}
    ends.update({"g03": ends["g09"], "g05": ends["g09"]})
    for game, ended in ends.items():
        assert await store.put_record(record(game, ended))
    await store.close()
    expected = sorted(ends, key=lambda game: (ends[game], game), reverse=True)[:10]
    async with watched_server(state) as (_, base):
        overview = json.loads((await get(f"{base}/api/recent"))[2])
        assert [game["gameId"] for game in overview["records"]] == expected
        first = overview["records"][0]
        assert first == {
            "gameId": "g11",
            "name": "<i>g11</i>",
            "harness": "h",
            "model": "m",
            "startedAt": (ends["g11"] - 100) * 1000,
            "endedAt": ends["g11"] * 1000,
            "updatedAt": ends["g11"] * 1000,
            "endTimeKind": "observed",
            "lifecycle": "ended",
            "endReason": "died",
            "how": "died",
            "death": "killed by a jackal",
            "score": ends["g11"],
            "turn": 10,
            "depth": 2,
            "deepest": 3,
            "seed": ends["g11"] % 1000,  # published with the record
            "seedChoice": "sealed",
        }
        status, _, body = await get(f"{base}/api/games/g00/state")  # completed, never live here
        assert status == 410 and json.loads(body)["record"]["gameId"] == "g00"
        assert (await get(f"{base}/g/g00"))[0] == 200  # its page: the record summary
