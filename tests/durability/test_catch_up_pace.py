"""test_catch_up_pace.py - the checkpointer keeps close behind a game played without pause.

Two things make a host stopped in the middle of play resume with a short
tail (docs/REPLAY.md, "Who makes them"): a game held by a call at every look
gets its memory at the end of its next input (a *step point*,
session/idle_point.py) instead of the catch-up waiting for an idle moment
or folding every full response; and a catch-up goes on from the engine the
game's last catch-up left at its last move (persisted.KeptEngine) instead
of starting an engine and restoring the checkpoint. Real wizard-mode games
on the native engine, a real SQLite store, the Asyncify WebAssembly engine
under Node.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from nethack_webmcp.engine import wasm_node
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import snapshot
from nethack_webmcp.replay import checkpointer as checkpointer_module
from nethack_webmcp.replay import persisted
from nethack_webmcp.replay.checkpointer import Checkpointer
from nethack_webmcp.replay.native_resume import native_restore_source
from nethack_webmcp.session import GameRegistry
from nethack_webmcp.session.idle_point import take_step_point, wait_step_point
from nethack_webmcp.store.sqlite import SqliteStore
from support.wasm_builds import WASM_ENGINE
from test_native_checkpoint_resume import PARAMS, play

pytestmark = pytest.mark.asyncio


@pytest.fixture
def restores(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The moves of the checkpoints restored into an engine (persisted.restore) during the test."""
    restored: list[int] = []
    real_restore = persisted.restore

    async def counted(*args, **kwargs):
        restored.append(args[3])
        return await real_restore(*args, **kwargs)

    monkeypatch.setattr(persisted, "restore", counted)
    return restored


async def shut_down(follower: Checkpointer, games: GameRegistry, store: SqliteStore) -> None:
    """A test's host stopped: its checkpointer (and kept engines), games, spare engine and store."""
    await follower.stop()
    await games.close_all()
    await wasm_node.discard_spare()
    await store.close()


def need_asyncify() -> None:
    if not (WASM_ENGINE / "asyncify" / "nethack.wasm").is_file():
        pytest.fail(f"the Asyncify build is missing in {WASM_ENGINE}; run ./scripts/build")


async def test_a_game_played_without_pause_is_checkpointed_with_its_memory_at_a_step(tmp_path: Path) -> None:
    """No idle moment and no fold: every catch-up takes the memory the session left at the end of an
    input, the newest such checkpoint stays a catch-up's spacing behind, and the resume from it is
    exact (the same state and navigation memory as the game played straight)."""
    need_asyncify()
    inputs = 600
    straight_store = SqliteStore(tmp_path / "straight.sqlite3")
    straight = GameRegistry(NativeEngine.start, store=straight_store)
    game = await straight.create(dict(PARAMS, sessionId="step-points"))
    await play(game, 0, inputs)
    await game.observe()
    expected_hash, expected_memory = game.last_state_hash, snapshot.dump(game.state.tracker)
    await straight.close_all()
    await straight_store.close()

    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    # no idle rule: only a point taken while the game plays can give a catch-up its memory
    follower = Checkpointer(games, every=64, idle=3600, min_inputs=100, interval=0.02)
    follower.start()
    await wasm_node.ready()
    try:
        session = await games.create(dict(PARAMS, sessionId="step-points"))
        await play(session, 0, inputs)
        index = await store.checkpoint_index(session.session_id)
        with_memory = [entry["seq"] for entry in index if entry["meta"].get("navigationSha256")]
        assert follower.folded == 0, "no catch-up folded responses: each had a step point"
        assert follower.catch_ups >= 3, follower.catch_ups
        assert with_memory and with_memory[-1] >= inputs // 2, with_memory
        # an older live point's checkpoint is dropped once two newer ones are saved (off the grid
        # of every 128 inputs it only costs bytes); the grid stays whole for the seeks
        moves = [entry["move"] for entry in index]
        points = [entry["move"] for entry in index if entry["meta"].get("navigationSha256")]
        assert all(move % 128 == 0 for move in points[:-2]), points
        assert all(move in moves for move in range(0, points[-1], 128)), moves
    finally:
        await follower.stop()
        await games.close_all()
        await store.close()

    store = SqliteStore(path)  # the restart, from what the store held when play stopped
    restarted = GameRegistry(NativeEngine.start, store=store)
    restarted.restore_source = native_restore_source(store)
    try:
        resumed = await restarted.resume("step-points")
        report = resumed.notes["resume"]
        assert report["fromCheckpoint"] == with_memory[-1], report
        assert report["replayed"] == inputs - with_memory[-1], report
        await resumed.observe()
        assert resumed.last_state_hash == expected_hash
        assert snapshot.dump(resumed.state.tracker) == expected_memory, "the memory at the step point is exact"
        await restarted.close_all()
        # the newest point's checkpoint gone (refused, say): the point before it is there to resume from
        await store.drop_checkpoints("step-points", [points[-1]])
        again = await restarted.resume("step-points")
        assert again.notes["resume"]["fromCheckpoint"] == with_memory[-2] > 0, again.notes["resume"]
        await again.observe()
        assert again.last_state_hash == expected_hash
    finally:
        await restarted.close_all()
        await wasm_node.discard_spare()
        await store.close()


async def test_a_look_waits_for_the_next_input_of_a_game_played_without_pause(tmp_path: Path) -> None:
    """The step point is the memory at the end of the very next input, awaited by the look that asked
    (not left to a later look, inputs further on); with no input coming the wait ends empty at its
    limit, and the point is still given by the next input (for a later look to take)."""
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    try:
        session = await games.create(dict(PARAMS, sessionId="waited"))
        playing = asyncio.ensure_future(play(session, 0, 300))
        while session.journal.seq < 50:
            await asyncio.sleep(0.001)
        asked_at = int(session.journal.seq)
        point = await wait_step_point(session, 0, 1.0)
        assert point is not None and asked_at <= point.seq <= asked_at + 1, (asked_at, point)
        assert point.navigation, "the point carries the memory a checkpoint keeps"
        await playing

        started = time.monotonic()
        assert await wait_step_point(session, point.seq, 0.05) is None, "no input came"
        assert time.monotonic() - started >= 0.04  # (its limit, give or take the clock)
        seen = await play(session, 300, 1)
        given = take_step_point(session, point.seq)
        assert given is not None and given.seq == session.journal.seq, "the next input left the point asked for"
        assert given.navigation == seen[-1][1], "its memory is the tracker's after that input"
    finally:
        await games.close_all()
        await store.close()


async def test_a_catch_up_goes_on_from_the_engine_the_last_one_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restores: list[int]
) -> None:
    """The second catch-up restores nothing (the kept engine is at the last checkpoint); at most
    KEPT_ENGINES games keep one, and a game without one restores its checkpoint into the least
    recently used game's (a game from its creation takes a new engine); `stop` closes them; a
    one-off catch-up keeps none."""
    need_asyncify()
    monkeypatch.setattr(checkpointer_module, "KEPT_ENGINES", 1)
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, keep_engines=True)
    try:
        first = await games.create(dict(PARAMS, sessionId="kept-a"))
        await play(first, 0, 300)
        await follower.catch_up("kept-a")
        kept = follower._followed["kept-a"].kept
        assert kept is not None and kept.move == 300 and not kept.engine.closed
        await play(first, 300, 40)
        builder = await follower.catch_up("kept-a")
        assert builder is not None and builder.saved == [340]
        assert restores == [], "the kept engine was at move 300: nothing restored"
        again = follower._followed["kept-a"].kept
        assert again is not None and again.engine is kept.engine and again.move == 340

        second = await games.create(dict(PARAMS, sessionId="kept-b", seed=32))
        await play(second, 0, 300)
        await follower.catch_up("kept-b")  # from its creation: on an engine of its own
        other = follower._followed["kept-b"].kept
        assert other is not None and other.engine is not kept.engine
        assert kept.engine.closed, "one engine kept at most: the less recent game gave its up"
        await play(first, 340, 20)
        await follower.catch_up("kept-a")  # no engine of its own any more: kept-b's, restored
        assert restores == [340]
        kept_now = follower._followed["kept-a"].kept
        assert kept_now is not None and kept_now.engine is other.engine and not other.engine.closed
        assert follower._followed["kept-b"].kept is None
        await play(second, 300, 20)
        await follower.catch_up("kept-b")  # and back: kept-a's engine, kept-b's checkpoint restored
        assert restores == [340, 300]
        kept_now = follower._followed["kept-b"].kept
        await follower.stop()
        assert kept_now is not None and kept_now.engine.closed, "stop closes the kept engines"

        one_off = Checkpointer(games)
        await play(second, 320, 20)
        await one_off.catch_up("kept-b")
        assert one_off._followed["kept-b"].kept is None, "a one-off catch-up closes its engine"
    finally:
        await shut_down(follower, games, store)


async def test_a_kept_engine_not_at_this_journal_is_restored_not_gone_on_from(
    tmp_path: Path, restores: list[int]
) -> None:
    """A kept engine whose move no longer has the journal's digest there is not gone on from: the
    game's checkpoint is restored into it (a fresh instance in its Node process) and the catch-up
    replays from there - never on from a state of another journal."""
    need_asyncify()
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, keep_engines=True)
    try:
        session = await games.create(dict(PARAMS, sessionId="kept-stale"))
        await play(session, 0, 300)
        await follower.catch_up("kept-stale")
        followed = follower._followed["kept-stale"]
        kept = followed.kept
        assert kept is not None and restores == []
        kept.digest = "0" * 64  # as if made from a different journal
        await play(session, 300, 20)
        builder = await follower.catch_up("kept-stale")
        assert builder is not None and builder.saved == [320]
        assert restores == [300], "the checkpoint was restored, the kept state not gone on from"
        assert followed.kept is not None and followed.kept.engine is kept.engine and followed.kept.move == 320
    finally:
        await shut_down(follower, games, store)


async def test_a_stopped_checkpointer_ends_though_a_cancel_was_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`stop` ends the loop even when its cancel is dropped on the way, as Python 3.11's wait_for drops
    one that arrives as the awaited thing completes: the loop then went on looking, and the host's
    exit (or this suite, once) waited on it forever."""
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    looked: list[str] = []
    dropped: list[bool] = []

    async def look_dropping_a_cancel(session):  # what a wait_for in the look's path did, once
        looked.append(session.session_id)
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            if dropped:
                raise
            dropped.append(True)

    follower = Checkpointer(games, interval=0.001)
    monkeypatch.setattr(follower, "_look", look_dropping_a_cancel)
    loop_task = None
    try:
        await games.create(dict(PARAMS, sessionId="stopped"))
        follower.start()
        loop_task = follower._task
        while not looked:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.02)  # (in the middle of a look)
        # waited for without cancelling it: a lost cancel would lose a timeout's cancel the same way
        stopping = asyncio.ensure_future(follower.stop())
        done, _ = await asyncio.wait([stopping], timeout=5)
        assert done, "stop waited on a loop that went on"
        looks = len(looked)
        await asyncio.sleep(0.05)
        assert len(looked) == looks, "the loop still looks after stop"
        assert dropped, "the cancel reached a look"
    finally:
        if loop_task is not None and not loop_task.done():  # (a failed stop: this one is not dropped)
            loop_task.cancel()
            await asyncio.wait([loop_task])
        await games.close_all()
        await store.close()
