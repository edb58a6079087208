"""test_pacing.py - a game that outruns its checkpoints waits for them (session/pacing.py).

A native host killed in the middle of play resumes by replaying the journal
entries after the newest persisted checkpoint. The checkpointer prices that
tail at its catch-ups' measured replay time per input, and an input waits
while the tail is over the budget, so the resume after a kill stays short
whatever the client's pace. Real wizard-mode games on the native engine, a
real SQLite store, the catch-up process with the Asyncify WebAssembly engine
under Node. A budget far below the hosts' makes the waits happen in a short
game.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.replay.catch_up_process import store_locator
from nethack_webmcp.replay.checkpointer import Checkpointer
from nethack_webmcp.replay.native_resume import native_restore_source
from nethack_webmcp.session import GameRegistry, pacing
from nethack_webmcp.store import StoreError
from nethack_webmcp.store.sqlite import SqliteStore
from test_catch_up_pace import need_asyncify, shut_down
from test_native_checkpoint_resume import PARAMS, play

pytestmark = pytest.mark.asyncio

BUDGET = 0.005  # seconds of replay (the hosts allow pacing.TAIL_BUDGET)


def tails_at_each_input(session: Any) -> list[tuple[float, float]]:
    """(tail in seconds, the price per input) the game's pace saw as each input was sent."""
    seen: list[tuple[float, float]] = []
    request = session.engine.request

    async def sending(message: dict[str, Any]) -> dict[str, Any]:
        pace = session.pace
        if pace is not None and pace.per_input and message.get("method") != "session.observe":
            seen.append((pace.tail(int(session.journal.seq) - 1), pace.per_input))
        return await request(message)

    session.engine.request = sending
    return seen


async def test_an_input_waits_while_a_resume_would_replay_more_than_the_budget(tmp_path: Path) -> None:
    """Every input is sent with the tail within the budget (the price it was checked at); inputs did
    wait, none until the limit; a host stopped at the end resumes from a checkpoint with at most the
    budget's inputs to replay, and the game is the one played."""
    need_asyncify()
    inputs = 0
    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, min_inputs=100, interval=0.02, locator=store_locator(store), tail_budget=BUDGET)
    follower.start()
    try:
        session = await games.create(dict(PARAMS, sessionId="paced"))
        tails = tails_at_each_input(session)
        while (session.pace is None or not session.pace.per_input) and inputs < 3000:  # the first catch-up
            await play(session, inputs, 20)
            inputs += 20
        pace = session.pace
        assert pace is not None and pace.per_input > 0, "the catch-ups priced the replay"
        await play(session, inputs, 600)
        inputs += 600
        assert tails, "inputs were sent under a measured price"
        over = [(tail, price) for tail, price in tails if tail > BUDGET + 1e-9]
        assert not over, f"inputs sent with the tail over the budget: {over[:5]}"
        assert pace.holds > 0, "with this budget some inputs had to wait for a checkpoint"
        assert not pace.stalled and pace.held_seconds < pacing.MAX_HOLD * pace.holds
        await session.observe()
        played_hash, last_price = session.last_state_hash, tails[-1][1]
    finally:
        await follower.stop()  # (no catch-up at its stop: the store holds what it held in play)
        await games.close_all()
        await store.close()

    store = SqliteStore(path)  # the restart
    restarted = GameRegistry(NativeEngine.start, store=store)
    restarted.restore_source = native_restore_source(store)
    try:
        resumed = await restarted.resume("paced")
        report = resumed.notes["resume"]
        assert report["fromCheckpoint"] > 0, report
        assert report["replayed"] == inputs - report["fromCheckpoint"], report
        # (the last input went with its tail within the budget at its price; the checkpoints only got newer)
        assert report["replayed"] <= math.floor(BUDGET / last_price) + 1, (report, last_price)
        await resumed.observe()
        assert resumed.last_state_hash == played_hash
    finally:
        await restarted.close_all()
        await store.close()


async def test_a_checkpointer_that_cannot_catch_up_holds_play_once_then_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catch-ups fail from a moment on: an input waits until the limit, then the game goes on
    unpaced (its play is never stopped by the checkpointer); a catch-up that works again paces it
    again. A game the checkpointer stops following is never held."""
    need_asyncify()
    monkeypatch.setattr(pacing, "MAX_HOLD", 0.3)
    store = SqliteStore(tmp_path / "games.sqlite3")
    games = GameRegistry(NativeEngine.start, store=store)
    follower = Checkpointer(games, min_inputs=100, interval=0.02, locator=store_locator(store), tail_budget=BUDGET)
    real_catch_up = follower._catch_up
    failing: list[bool] = []
    running: list[str] = []

    async def catch_up(session_id: str, given: Any = None) -> None:
        if failing:
            raise StoreError("the store is unreachable (injected)")
        running.append(session_id)
        try:
            await real_catch_up(session_id, given)
        finally:
            running.remove(session_id)

    monkeypatch.setattr(follower, "_catch_up", catch_up)
    follower.start()
    try:
        session = await games.create(dict(PARAMS, sessionId="stalled"))
        sent = 0

        async def play_on(count: int) -> None:
            nonlocal sent
            await play(session, sent, count)
            sent += count

        while session.pace is None or not session.pace.per_input:
            await play_on(20)
        pace = session.pace
        failing.append(True)
        while running:  # (a catch-up started before the fault ends well, and may let a wait go on)
            await asyncio.sleep(0.01)
        held = pace.held_seconds
        while not pace.stalled and sent < 3000:  # (until the tail is over the budget and a wait ran out)
            await play_on(20)
        assert pace.stalled, "the wait ran out"
        assert pace.held_seconds - held >= pacing.MAX_HOLD * 0.9, "it waited until the limit"
        holds = pace.holds
        await play_on(200)
        assert pace.holds == holds, "then the game went on unpaced"
        assert any("injected" in error for error in follower.errors), follower.errors

        failing.clear()
        resumed_at = sent
        while pace.stalled and sent < resumed_at + 3000:  # (its first catch-up replays the inputs since the fault)
            await play_on(20)
        assert not pace.stalled, "a catch-up that worked again paces the game again"

        await follower.stop()
        assert session.pace is pace and not pace.per_input, "released: no price, no wait"
        before = pace.holds
        await play_on(100)
        assert pace.holds == before
    finally:
        await shut_down(follower, games, store)
