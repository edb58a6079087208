"""test_persisted_checkpoints.py - the native service's checkpoints outlive a restart (docs/REPLAY.md).

A real wizard-mode game (native engine) is stored in a real SQLite file and
a real PostgreSQL database. The first timeline opened on it replays the
journal on forks and builds the persisted checkpoints in the background (the
Asyncify WebAssembly build under Node, engine/wasm_node.py); after a
"restart" (a new store object, a new event loop, no forks left) the timeline
opens on the stored checkpoints with no replay of the journal, and its seeks
equal a brand-new native engine replayed from scratch (the whole
observation). A checkpoint whose bytes were changed in the database is
refused when used (named), the seek is still exact, and it is stored again;
checkpoints made on another engine (stale) are not used and are rebuilt.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine import wasm_node
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.replay import Timeline
from nethack_webmcp.replay.persisted_timeline import PersistedTimeline
from nethack_webmcp.session import replay as journal_replay
from nethack_webmcp.store import Store
from nethack_webmcp.store.postgres import PostgresStore
from nethack_webmcp.store.sqlite import SqliteStore

from tests.support.postgres_server import PostgresServer
from tests.support.wandering_game import wandering_game
from tests.support.wasm_builds import WASM_ENGINE

INPUTS = 420


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    return asyncio.run(wandering_game(INPUTS, seed=23, name="Persist", stride=3, prefix="p"))


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    with PostgresServer.start() as server:
        yield server


async def fresh_observe(game: dict[str, Any], move: int) -> dict[str, Any]:
    """The oracle: a brand-new native engine, the first `move` inputs replayed from scratch."""
    todo = journal_replay.plan(game["entries"])[0][:move]
    engine = await NativeEngine.start()
    try:
        await engine.request({"version": 1, "method": "session.create", "params": game["info"]["create"]})
        for entry in todo:
            await engine.request(journal_replay.quiet(entry["request"]))
        return await journal_replay.observe(engine, game["info"]["sessionId"])
    finally:
        await engine.close()


async def first_open(store: Store, game: dict[str, Any]) -> None:
    """The first open ever: forks, and the persisted set built in the background."""
    await store.import_game(game["info"], game["entries"], [], None)
    timeline = await Timeline.open(game["info"], game["entries"], store=store)
    try:
        assert not isinstance(timeline, PersistedTimeline) and timeline.persisting is not None
        builder = await timeline.persisting
        assert builder.saved[0] == 0 and builder.saved[-1] == INPUTS, builder.saved
        assert all(b - a <= 128 for a, b in zip(builder.saved, builder.saved[1:], strict=False)), builder.saved
    finally:
        await timeline.close()
        await wasm_node.discard_spare()
        await store.close()


async def restarted_seeks(store: Store, game: dict[str, Any], moves: list[int]) -> PersistedTimeline:
    timeline = await Timeline.open(game["info"], game["entries"], store=store)
    assert isinstance(timeline, PersistedTimeline), "a restarted server opens on the stored checkpoints"
    for move in moves:
        seen = await timeline.seek(move)
        expected = await fresh_observe(game, move)
        assert seen["observation"] == expected["observation"], move
        assert journal_replay.summary_of(seen) == timeline.summary_at(move)
    return timeline


def moves_to_check() -> list[int]:
    return [*random.Random(9).sample(range(INPUTS + 1), 6), 0, INPUTS]


def run_restart(open_store: Callable[[], Awaitable[Store]], game: dict[str, Any]) -> None:
    asyncio.run(_first(open_store, game))

    async def restarted() -> None:  # a new process: a new loop, a new store object, no fork left
        store = await open_store()
        try:
            timeline = await restarted_seeks(store, game, moves_to_check())
            await timeline.close()
        finally:
            await wasm_node.discard_spare()
            await store.close()

    asyncio.run(restarted())


async def _first(open_store: Callable[[], Awaitable[Store]], game: dict[str, Any]) -> None:
    await first_open(await open_store(), game)


def test_sqlite_restart_seeks_on_stored_checkpoints_equal_a_fresh_replay(game: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def open_store() -> Store:
        return SqliteStore(path)

    run_restart(open_store, game)


def test_postgres_restart_seeks_on_stored_checkpoints_equal_a_fresh_replay(
    game: dict[str, Any], postgres: PostgresServer
) -> None:
    url = postgres.create_database("persisted")

    async def open_store() -> Store:
        return await PostgresStore.connect(url)

    run_restart(open_store, game)


def test_a_tampered_checkpoint_is_refused_and_rebuilt_and_a_stale_set_rebuilt(
    game: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "games.sqlite3"
    session_id = game["info"]["sessionId"]

    async def open_store() -> Store:
        return SqliteStore(path)

    asyncio.run(_first(open_store, game))
    with sqlite3.connect(path) as raw:
        moves = [row[0] for row in raw.execute("SELECT move FROM checkpoints ORDER BY move")]
        victim = moves[2]
        (state,) = raw.execute(
            "SELECT state FROM checkpoints WHERE session_id = ? AND move = ?", (session_id, victim)
        ).fetchone()
        changed = bytearray(state)
        changed[len(changed) // 2] ^= 1
        raw.execute(
            "UPDATE checkpoints SET state = ? WHERE session_id = ? AND move = ?", (bytes(changed), session_id, victim)
        )

    async def tampered() -> None:
        store = await open_store()
        try:
            timeline = await restarted_seeks(store, game, [victim + 3, victim + 1])
            assert [(r["move"], r["code"]) for r in timeline.refusals] == [(victim, "checkpointTampered")]
            assert str(victim) in timeline.refusals[0]["message"]
            await timeline.close()
            stored = await store.get_checkpoint(session_id, victim)
            assert stored is not None and stored["state"] != bytes(changed), "the refused checkpoint is stored again"
            again = await restarted_seeks(store, game, [victim])  # and it is used (and verified) again
            assert again.refusals == []
            await again.close()
        finally:
            await wasm_node.discard_spare()
            await store.close()

    asyncio.run(tampered())
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE checkpoints SET engine = 'asyncify:other base' WHERE session_id = ?", (session_id,))

    async def stale() -> None:
        store = await open_store()
        try:
            timeline = await Timeline.open(game["info"], game["entries"], store=store)
            assert not isinstance(timeline, PersistedTimeline), "stale checkpoints are not used"
            assert timeline.persisting is not None
            await timeline.persisting
            await timeline.close()
            engines = {entry["engine"] for entry in await store.checkpoint_index(session_id)}
            assert len(engines) == 1 and "asyncify:other base" not in engines, engines
            rebuilt = await restarted_seeks(store, game, [INPUTS // 2])
            assert rebuilt.refusals == []
            await rebuilt.close()
        finally:
            await wasm_node.discard_spare()
            await store.close()

    asyncio.run(stale())


def test_the_node_engine_answers_like_the_native_one_and_refuses_a_changed_record(game: dict[str, Any]) -> None:
    """engine/wasm_node.py: the same responses as the native driver for the game's inputs (full ones),
    a record saved at a boundary restores exactly, and a record with a byte changed, or claimed for
    another journal, is refused with its code while the engine stays where it was."""
    todo = journal_replay.plan(game["entries"])[0][:60]
    create = {"version": 1, "method": "session.create", "params": game["info"]["create"]}
    observe = {"version": 1, "method": "session.observe", "params": {"sessionId": game["info"]["sessionId"]}}

    async def run() -> None:
        native, node = await NativeEngine.start(deltas=False), await wasm_node.NodeWasmEngine.start()
        try:
            for request in [create, *(entry["request"] for entry in todo), observe]:
                assert await node.request(request) == await native.request(request), request
            record = await node.save(60, "digest-60", None)
            for entry in todo[:5]:
                await node.request(journal_replay.quiet(entry["request"]))  # the game moves on ...
            await node.restore(record, "digest-60")  # ... and is put back at move 60
            assert await node.request(observe) == await native.request(observe)
            changed = bytearray(record["bytes"])
            changed[len(changed) // 2] ^= 1
            for bad, digest, code in (
                ({**record, "bytes": bytes(changed)}, "digest-60", "checkpointTampered"),
                (record, "another-journal", "journalChanged"),
                ({**record, "baseHash": "another"}, "digest-60", "checkpointStale"),
            ):
                with pytest.raises(wasm_node.CheckpointRejected) as refused:
                    await node.restore(bad, digest)
                assert refused.value.code == code and "move 60" in refused.value.message
            assert await node.request(observe) == await native.request(observe), "a refusal changes nothing"
        finally:
            await native.close()
            await node.close()

    asyncio.run(run())


def test_a_last_restore_starts_no_spare_instance(game: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A resumed game's engine never restores again: its restore (`last`) starts no spare instance
    beside the game's first requests; any other restore starts one for the next."""
    monkeypatch.setenv("NNH_HOST_TRACE", "1")  # the host says on stderr each time it starts an instance
    todo = journal_replay.plan(game["entries"])[0][:20]
    create = {"version": 1, "method": "session.create", "params": game["info"]["create"]}
    observe = {"version": 1, "method": "session.observe", "params": {"sessionId": game["info"]["sessionId"]}}

    async def starts(node: wasm_node.NodeWasmEngine, settle: float) -> int:
        await node.request(observe)
        await asyncio.sleep(settle)  # a spare is started on a timer, after the answer
        return sum("instance started" in line for line in node._stderr)

    async def run() -> None:
        node = await wasm_node.NodeWasmEngine.start()
        try:
            for request in [create, *(entry["request"] for entry in todo)]:
                await node.request(request)
            record = await node.save(20, "digest-20", None)
            before = await starts(node, 3.0)  # the boot's instances and its spare, all started
            await node.restore(record, "digest-20", last=True)
            assert await starts(node, 1.0) == before, "a last restore started a spare"
            await node.restore(record, "digest-20")
            for _ in range(50):
                if await starts(node, 0.2) > before:
                    break
            else:
                raise AssertionError("a restore started no spare for the next one")
        finally:
            await node.close()

    asyncio.run(run())
