"""test_catch_up_process.py - the checkpointer's catch-ups in a process of their own, on PostgreSQL.

A real wizard-mode game (native engine) is kept in a real PostgreSQL
database; the catch-up process (replay/catch_up_worker.py, started by
replay/catch_up_process.py as the native hosts do) opens the same database
by its URL, replays the journal on its own WebAssembly engine and stores
the checkpoints: up to the last input, the last one with the navigation
memory. A restarted registry resumes the game from it with nothing
replayed. A malformed request is answered with an error and changes
nothing; a game the store does not hold is answered with no checkpoint.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from nethack_webmcp.engine import wasm_node
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.replay.catch_up_process import CatchUpProcess, store_locator
from nethack_webmcp.replay.native_resume import native_restore_source
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.store.postgres import PostgresStore

from tests.support.postgres_server import PostgresServer
from tests.support.wandering_game import wandering_game
from tests.support.wasm_builds import WASM_ENGINE

INPUTS = 300


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with PostgresServer.start() as server:
        yield server


def test_the_catch_up_process_checkpoints_a_postgres_game_and_it_resumes_from_there(postgres: PostgresServer) -> None:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    game = asyncio.run(wandering_game(INPUTS, seed=41, name="Worker", stride=3, prefix="c"))
    url = postgres.create_database("catchup")
    asyncio.run(_check(game, url))


async def _check(game: dict, url: str) -> None:
    session_id = game["info"]["sessionId"]
    store = await PostgresStore.connect(url)
    process = None
    try:
        await store.import_game(game["info"], game["entries"], [], None)
        locator = store_locator(store)
        assert locator == url
        process = await CatchUpProcess.start(locator)
        bad = await process.catch_up(17)  # type: ignore[arg-type]
        assert "error" in bad and await store.checkpoint_index(session_id) == []
        missing = await process.catch_up("no-such-game")
        assert missing["seq"] is None
        reply = await process.catch_up(session_id)
        last_seq = game["entries"][-1]["seq"]
        assert reply["seq"] == last_seq and reply["saved"][-1] == INPUTS, reply
        index = await store.checkpoint_index(session_id)
        assert index[-1]["seq"] == last_seq and index[-1]["meta"].get("navigationSha256")
        again = await process.catch_up(session_id)  # caught up: nothing more to save
        assert again["seq"] == last_seq and again["saved"] in ([], [INPUTS]), again
        games = GameRegistry(NativeEngine.start, store=store)
        games.restore_source = native_restore_source(store)
        try:
            resumed = await games.resume(session_id)
            assert resumed.notes["resume"]["fromCheckpoint"] == last_seq
            assert resumed.notes["resume"]["replayed"] == 0
        finally:
            await games.close_all()
    finally:
        if process is not None:
            await process.close()
            assert not process.alive
        await wasm_node.discard_spare()
        await store.close()
