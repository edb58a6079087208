"""test_deadlines.py - deadlines are decided under the game's lock on every path; a game left
unfinished across a restart ends with a record once its idle deadline passes; killed engines
leave no runtime directory behind.

The lock tests drive the tools over a real registry (real engines, SQLite store, file
locks) with a host deadline that passes while a call waits for the game's lock, as it
would behind a long operation. The abandoned-game tests run real HTTP instances on
PostgreSQL and SIGKILL one mid-game.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine import rundirs
from nethack_webmcp.engine.native import NativeEngine, native_identity
from nethack_webmcp.session import GameRegistry, Session
from nethack_webmcp.store.sqlite import FileOwnership
from nethack_webmcp.tools import BY_NAME, ToolContext
from support.client import require_driver
from support.game_records import stored_end
from support.registries import registry as native_registry
from support.service_instance import Agent, Instance

pytestmark = pytest.mark.asyncio


def registry(state: Path) -> GameRegistry:
    return native_registry(state, max_games=4)


async def created_game(games: GameRegistry) -> tuple[dict[str, Any], Session]:
    frame = await BY_NAME["session"].call(ToolContext(games), {"action": "create", "seed": 3})
    assert "error" not in frame, frame
    return frame, games.get(frame["basis"]["sessionId"])


async def wait_behind_the_lock(session: Session, call: Any, deadline: dict[str, str | None], reason: str) -> Any:
    """Start `call` while the game's lock is held; the deadline passes while it waits."""
    async with session.lock.unchecked():  # type: ignore[attr-defined]
        waiting = asyncio.create_task(call)
        await asyncio.sleep(0.2)
        assert not waiting.done()
        deadline["reason"] = reason
    return await waiting


async def test_a_call_waiting_for_the_lock_when_the_lifetime_passes_sends_nothing(tmp_path: Path) -> None:
    require_driver()
    games = registry(tmp_path)
    deadline: dict[str, str | None] = {"reason": None}
    games.deadline = lambda _info: deadline["reason"]  # type: ignore[assignment,return-value]
    try:
        created, session = await created_game(games)
        game = session.session_id
        search = BY_NAME["interact"].call(
            ToolContext(games),
            {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "search", "requestId": "late"},
        )
        frame = await wait_behind_the_lock(session, search, deadline, "time_limit")
        assert frame["error"]["code"] == "gameEnded", frame
        assert frame["outcome"]["submission"] == "rejected"
        assert await games.store.journal(game) == []  # nothing was journaled, so nothing was sent
        record = await games.store.get_record(game)
        assert record is not None and record["endReason"] == "time_limit"
        assert (await games.store.get_session(game))["status"] == "ended"  # type: ignore[index]
        assert games.sessions() == [] and session.engine.closed
        # and it stays over: a resume is refused, nothing is replayed
        again = await BY_NAME["observe"].call(ToolContext(games), {"sessionId": game})
        assert again["error"]["code"] == "gameEnded", again
    finally:
        await games.close_all()
        await games.store.close()


async def test_a_read_waiting_for_the_lock_when_the_idle_time_passes_ends_the_game(tmp_path: Path) -> None:
    require_driver()
    games = registry(tmp_path)
    deadline: dict[str, str | None] = {"reason": None}
    games.deadline = lambda _info: deadline["reason"]  # type: ignore[assignment,return-value]
    try:
        _, session = await created_game(games)
        look = BY_NAME["observe"].call(ToolContext(games), {"sessionId": session.session_id})
        frame = await wait_behind_the_lock(session, look, deadline, "idle_timeout")
        assert frame["error"]["code"] == "gameEnded", frame
        record = await games.store.get_record(session.session_id)
        assert record is not None and record["endReason"] == "idle_timeout" and record["endTimeKind"] == "observed"
        assert games.sessions() == []
    finally:
        await games.close_all()
        await games.store.close()


async def test_a_stored_game_past_its_deadline_is_ended_not_replayed(tmp_path: Path) -> None:
    require_driver()
    games = registry(tmp_path)
    try:
        created, session = await created_game(games)
        game = session.session_id
        await BY_NAME["interact"].call(
            ToolContext(games), {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "search"}
        )
        await games.close(game)
        started = []
        later = GameRegistry(
            lambda: started.append(1) or NativeEngine.start(),  # type: ignore[func-returns-value]
            4,
            store=games.store,
            ownership=FileOwnership.in_state_dir(tmp_path),
            identity=native_identity(),
        )
        later.deadline = lambda _info: "idle_timeout"
        frame = await BY_NAME["observe"].call(ToolContext(later), {"sessionId": game})
        assert frame["error"]["code"] == "gameEnded", frame
        assert started == [] and later.sessions() == []  # no engine, no replay
        record = await games.store.get_record(game)
        assert record is not None and record["endReason"] == "idle_timeout"
    finally:
        await games.close_all()
        await games.store.close()


# ---- games abandoned across a restart (real service, PostgreSQL) ---------------------------


async def until_recorded(database: str, game: str, timeout: float = 20.0) -> tuple[str, str, str] | None:
    deadline = time.monotonic() + timeout
    while (found := await stored_end(database, game)) is None and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
    return found


async def test_a_game_abandoned_by_a_killed_instance_ends_with_a_recovery_record(database: str, tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    env = {"TMPDIR": str(run)}
    with Instance.start(database, tmp_path, "--idle-timeout", "2", env=env) as first:
        async with Agent(first.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 6})
            game, token = created["basis"]["sessionId"], created["result"]["controlToken"]
            await agent.call(
                "interact",
                {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "search", "controlToken": token},
            )
        first_pid = first.pid
        assert list(run.glob(f"{rundirs.PREFIX}{first_pid}-*")), "the engine's runtime directory"
        first.kill()  # mid-game: nothing is ended, nothing cleaned up
    assert await stored_end(database, game) is None
    await asyncio.sleep(2.2)  # its idle deadline passes while no instance runs
    with Instance.start(database, tmp_path, "--idle-timeout", "2", "--sweep-interval", "0.5", env=env) as second:
        assert await until_recorded(database, game) == ("idle_timeout", "recovery", "ended")
        async with Agent(second.mcp_url) as agent:
            late = await agent.call(
                "interact",
                {"sessionId": game, "viewId": created["basis"]["viewId"], "action": "search", "controlToken": token},
            )
            assert late["isError"] and late["error"]["code"] == "gameEnded", late
            seen = await agent.call("observe", {"sessionId": game})
            assert seen["result"]["record"]["endReason"] == "idle_timeout"
            assert seen["result"]["record"]["endTimeKind"] == "recovery"
            # the next engine start removes the dead instance's runtime directories
            fresh = await agent.call("session", {"action": "create", "seed": 7})
            assert not fresh["isError"], fresh
        assert not list(run.glob(f"{rundirs.PREFIX}{first_pid}-*"))


async def test_the_sweep_leaves_a_game_another_live_instance_owns(database: str, tmp_path: Path) -> None:
    """Stored times say idle (no input for a while), but its owner lives: only the owner ends it."""
    with Instance.start(database, tmp_path, "--idle-timeout", "600") as owner:
        async with Agent(owner.mcp_url) as agent:
            created = await agent.call("session", {"action": "create", "seed": 8})
            game = created["basis"]["sessionId"]
            with Instance.start(database, tmp_path, "--idle-timeout", "1", "--sweep-interval", "0.3"):
                await asyncio.sleep(2.5)  # several sweeps past the other instance's idle time
                assert await stored_end(database, game) is None
            kept = await agent.call("observe", {"sessionId": game, "controlToken": created["result"]["controlToken"]})
            assert not kept["isError"], kept


# ---- killed engines' runtime directories -------------------------------------------------


async def test_a_killed_engine_leaves_no_runtime_directory(tmp_path: Path) -> None:
    require_driver()
    engine = await NativeEngine.start()
    response = await engine.request(
        {"version": 1, "method": "session.create", "params": {"sessionId": "rundir", "seed": 1}}
    )
    assert "error" not in response, response
    directory = engine._rundir
    assert directory is not None and any(directory.iterdir())  # the driver's playground is inside
    os.kill(engine.pid, signal.SIGKILL)  # it cannot remove its playground itself
    await asyncio.sleep(0.2)
    with pytest.raises(Exception):  # noqa: B017 (which engine error does not matter here)
        await engine.request({"version": 1, "method": "session.observe", "params": {"sessionId": "rundir"}})
    await engine.close()
    assert not directory.exists()


async def test_a_dead_hosts_runtime_directories_are_swept(tmp_path: Path) -> None:
    dead = tmp_path / f"{rundirs.PREFIX}999999999-abc"
    (dead / "nnh-XXXX").mkdir(parents=True)
    (dead / "nnh-XXXX" / "level0").write_text("x")
    alive = tmp_path / f"{rundirs.PREFIX}{os.getppid()}-abc"
    alive.mkdir()
    other = tmp_path / "nnh-unrelated"
    other.mkdir()
    assert rundirs.sweep_orphans(tmp_path) == [dead]
    assert not dead.exists() and alive.exists() and other.exists()
