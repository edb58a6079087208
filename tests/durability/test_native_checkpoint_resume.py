"""test_native_checkpoint_resume.py - after a restart a native game resumes from its persisted checkpoint.

A real wizard-mode game is played on the native engine with a real SQLite
store while the background checkpointer (replay/checkpointer.py) follows
it: its checkpoints (the Asyncify WebAssembly engine's state under Node,
with the navigation memory folded from full responses) land in the store.
The host then stops ten inputs later (a restart in the middle of play) and
a new registry on the same file resumes the game through the native
restore source (replay/native_resume.py): from the newest checkpoint, with
only those ten inputs replayed, on the WebAssembly engine. Every response
of the next inputs, the navigation memory after each and the state hash
equal those of the same game played without any interruption; a second
restart right after a catch-up replays nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine import wasm_node
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import snapshot
from nethack_webmcp.replay.catch_up_process import store_locator
from nethack_webmcp.replay.checkpointer import Checkpointer
from nethack_webmcp.replay.native_resume import native_restore_source
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.store.sqlite import SqliteStore
from support.wasm_builds import WASM_ENGINE

pytestmark = pytest.mark.asyncio

COMPASS = ["north", "east", "south", "west", "northeast", "southwest", "southeast", "northwest"]
BEFORE, TAIL, AFTER = 300, 10, 30
PARAMS = {"seed": 31, "name": "Resume", "createdAt": 1700000000, "wizard": True, "sessionId": "persisted-resume"}


async def play(session: Session, start: int, count: int) -> list[tuple[Any, bytes]]:
    """Inputs start..start+count-1 of the fixed walk; after each (response, navigation memory)."""
    seen = []
    for sent in range(start, start + count):
        request_id = f"w{sent}"
        if session.decision is not None:
            result = await session.step(
                "decision.cancel", {"decisionId": session.decision["id"]}, request_id=request_id
            )
        elif sent % 3 == 2:
            result = await session.step("game.search", {"turns": 1}, request_id=request_id)
        else:
            result = await session.step("game.move", {"direction": COMPASS[(sent * 3) % 8]}, request_id=request_id)
        seen.append((result.response, snapshot.dump(session.state.tracker)))
    return seen


@pytest.mark.parametrize("where", ["catch-up process", "in the host"])
async def test_a_restarted_host_resumes_from_the_checkpoint_and_the_game_is_the_same(
    tmp_path: Path, where: str
) -> None:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    straight_store = SqliteStore(tmp_path / "straight.sqlite3")
    straight_games = GameRegistry(NativeEngine.start, store=straight_store)
    session = await straight_games.create(dict(PARAMS))
    await play(session, 0, BEFORE + TAIL)
    expected = await play(session, BEFORE + TAIL, AFTER)
    await session.observe()
    expected_hash, observed_memory = session.last_state_hash, snapshot.dump(session.state.tracker)
    await straight_games.close_all()
    await straight_store.close()

    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    locator = store_locator(store) if where == "catch-up process" else None
    follower = Checkpointer(games, every=128, idle=0.2, min_inputs=100, interval=0.05, locator=locator)
    follower.start()
    session = await games.create(dict(PARAMS))
    session_id = session.session_id

    async def caught_up_to_end() -> list[Any]:
        for _ in range(600):  # the game is idle: the checkpointer catches up to its last input
            index = await store.checkpoint_index(session_id)
            if index and index[-1]["seq"] == session.journal.seq and index[-1]["meta"].get("navigationSha256"):
                return index
            await asyncio.sleep(0.1)
        pytest.fail(f"the checkpointer never caught up: {await store.checkpoint_index(session_id)}")

    # played without pause, the due catch-ups find the game held and fold (one may reach the end);
    # the few inputs after a pause are caught up by the idle rule, with the live session's memory
    # (session/idle_point.py)
    await play(session, 0, BEFORE - 5)
    await caught_up_to_end()
    folded = follower.folded
    await play(session, BEFORE - 5, 5)
    index = await caught_up_to_end()
    if locator is not None:
        assert follower._process is not None and follower._process.alive, "it ran in the catch-up process"
    await follower.stop()
    caught_up = index[-1]["seq"]
    assert follower.catch_ups >= 2 and [entry["move"] for entry in index][0] == 0
    assert follower.folded == folded, "the idle catch-up took the live memory"
    await play(session, BEFORE, TAIL)  # made after the last checkpoint: the resume replays them
    await games.close_all()
    await store.close()

    store = SqliteStore(path)  # the restart: a new process's store and registry, no engine left
    games = GameRegistry(NativeEngine.start, store=store)
    games.restore_source = native_restore_source(store)
    try:
        resumed = await games.resume(session_id)
        report = resumed.notes["resume"]
        assert report["fromCheckpoint"] == caught_up and report["replayed"] == TAIL, report
        assert isinstance(resumed.engine, wasm_node.NodeWasmEngine), "it plays on the WebAssembly engine"
        got = await play(resumed, BEFORE + TAIL, AFTER)
        for index_, (want, have) in enumerate(zip(expected, got, strict=True)):
            assert have[0] == want[0], f"response {BEFORE + TAIL + index_} differs after the resume"
            assert have[1] == want[1], f"the navigation memory differs after input {BEFORE + TAIL + index_}"
        await resumed.observe()
        assert resumed.last_state_hash == expected_hash is not None
        await games.close_all()
        # caught up at the end, a restart replays nothing
        follower = Checkpointer(games, every=1, idle=0, min_inputs=1)
        await follower.catch_up(session_id)
        games = GameRegistry(NativeEngine.start, store=store)
        games.restore_source = native_restore_source(store)
        again = await games.resume(session_id)
        assert again.notes["resume"]["replayed"] == 0
        await again.observe()  # (a resume observes at its end: the memory shows that observation)
        assert again.last_state_hash == expected_hash
        assert snapshot.dump(again.state.tracker) == observed_memory
    finally:
        await games.close_all()
        await wasm_node.discard_spare()
        await store.close()


async def test_a_game_closed_after_its_last_catch_up_is_caught_up_at_its_end(tmp_path: Path) -> None:
    """Inputs made after the last catch-up of a game the host then closes are checkpointed once
    more (in the catch-up process), so its resume after a restart replays nothing."""
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    # idle far away: only the closing catch-up can cover the last inputs
    follower = Checkpointer(games, every=10_000, idle=3600, min_inputs=100, interval=0.05, locator=store_locator(store))
    follower.start()
    try:
        session = await games.create(dict(PARAMS, sessionId="closed-catch-up"))
        await play(session, 0, 150)
        last = session.journal.seq
        await asyncio.sleep(0.2)  # seen by a look while it is live
        assert await store.checkpoint_index(session.session_id) == [], "not due while it plays"
        await games.close(session.session_id)
        for _ in range(600):
            index = await store.checkpoint_index(session.session_id)
            if index and index[-1]["seq"] == last:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail(f"no checkpoint at the closed game's last input: {index} {follower.errors}")
        assert index[-1]["meta"].get("navigationSha256"), "with its navigation memory"
    finally:
        await follower.stop()
        await games.close_all()
    restarted = GameRegistry(NativeEngine.start, store=store)
    restarted.restore_source = native_restore_source(store)
    try:
        again = await restarted.resume("closed-catch-up")
        assert again.notes["resume"]["replayed"] == 0
    finally:
        await restarted.close_all()
        await wasm_node.discard_spare()
        await store.close()


async def test_a_catch_up_process_that_cannot_run_leaves_the_catch_ups_to_the_host(tmp_path: Path) -> None:
    """A catch-up process that exits at once (here: its store cannot be opened) is reported, and the
    catch-ups go on in the host for a while instead of starting a process at every look."""
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    garbage = tmp_path / "not-a-database.sqlite3"
    garbage.write_bytes(b"this is not an SQLite database" * 100)
    broken = f"sqlite:{garbage}"
    follower = Checkpointer(games, every=10_000, idle=0.2, min_inputs=100, interval=0.05, locator=broken)
    follower.start()
    try:
        session = await games.create(dict(PARAMS, sessionId="process-fallback"))
        await play(session, 0, 120)
        for _ in range(600):
            index = await store.checkpoint_index(session.session_id)
            if index and index[-1]["seq"] == session.journal.seq:
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail(f"the host never caught up: {follower.errors}")
        assert any("catch-up process" in error for error in follower.errors), follower.errors
        assert follower._process is not None and not follower._process.alive
    finally:
        await follower.stop()
        await games.close_all()
        await wasm_node.discard_spare()
        await store.close()


async def test_a_live_point_behind_the_journal_leaves_the_game_due(tmp_path: Path) -> None:
    """A catch-up whose live point (the memory) is older than the journal it read keeps the memory at
    that point and counts the game caught up only to there: it is due again, so the inputs after
    the point get a later point's memory (else a resume would replay them for good)."""
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, every=10_000, idle=0, min_inputs=1)
    try:
        session = await games.create(dict(PARAMS, sessionId="point-behind"))
        await play(session, 0, 60)
        point = (session.journal.seq, snapshot.dump(session.state.tracker))
        await play(session, 60, 20)
        await follower.catch_up(session.session_id, point)
        index = {entry["move"]: entry for entry in await store.checkpoint_index(session.session_id)}
        with_memory = [move for move, entry in index.items() if entry["meta"].get("navigationSha256")]
        # the inputs after the point are the next catch-up's: their end is not checkpointed now
        assert with_memory == [60] and max(index) == 60, index.keys()
        assert follower.caught_up(session.session_id) == point[0]
        assert follower._due(follower._followed[session.session_id], session.journal.seq, 0.0)
    finally:
        await games.close_all()
        await wasm_node.discard_spare()
        await store.close()
