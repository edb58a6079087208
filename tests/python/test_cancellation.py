"""test_cancellation.py - a cancelled caller never splits an input from its record.

Real native engines, a real SQLite store. Callers are cancelled with
`task.cancel()` at random instants - before their call starts, while it
waits for the engine, mid-read - the way an MCP client's Stop (or a
transport dropping its stream) cancels the handler of a call:

- engine level: every reply after a cancelled exchange still answers its
  own request (the pipe never runs one reply behind);
- session level: cancelled `Session.step` callers leave the journal, the
  session and the engine in step, and the journal replays to the same state;
  every cancelled acting call's retry (same requestId)
  returns its receipt, the revision advanced exactly once per accepted
  input, and the journal replays to the final state (a fresh registry
  resumes the game and shows the same frame);
- a cancelled free query just ends and changes nothing.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.engine import EngineClosed
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.session import Session, state_hash
from nethack_webmcp.store import MemoryStore
from support.client import CREATED_AT, Client, require_driver
from support.registries import registry

SEED = 2024
CALLS = 100


def instant(rng: random.Random) -> float | int:
    """A random moment to cancel at: a number of event-loop turns (an int: 0 is
    before the call first runs; 2-6 land while the engine is writing or
    reading) or a short real delay in seconds (a float)."""
    return rng.choice((0, 1, 2, 3, 4, 5, 6, 0.0003, 0.001, 0.003))


async def pause(moment: float | int) -> None:
    if isinstance(moment, int):
        for _ in range(moment):
            await asyncio.sleep(0)
    else:
        await asyncio.sleep(moment)


async def cancel_after(work: asyncio.Task[Any], moment: float | int) -> bool:
    """Cancel `work` at `moment` (see `instant`). True when it was still
    running (the cancel reached it)."""
    await pause(moment)
    reached = not work.done()
    work.cancel()
    try:
        await work
    except asyncio.CancelledError:
        pass
    return reached


@pytest.mark.asyncio
async def test_engine_replies_stay_in_step_after_cancelled_exchanges() -> None:
    require_driver()
    engine = await NativeEngine.start()
    rng = random.Random(7)
    try:
        created = await engine.request(
            {"version": 1, "method": "session.create", "params": {"seed": SEED, "createdAt": CREATED_AT}}
        )
        session_id = created["sessionId"]
        observe = {"version": 1, "method": "session.observe", "params": {"sessionId": session_id}}
        revision = int(created["revision"])
        in_flight = 0
        for index in range(CALLS):
            params = {"sessionId": session_id, "requestId": f"s{index}", "expectedRevision": revision, "turns": 20}
            search = {"version": 1, "method": "game.search", "params": params}
            task = asyncio.ensure_future(engine.request(search))
            await pause(instant(rng))
            in_flight += engine._lock.locked() and not task.done()  # cancelled during the exchange
            await cancel_after(task, 0)
            # The next request gets its own reply: an observe, never the search's.
            looked = await engine.request(observe)
            assert "observation" in looked and looked["sessionId"] == session_id, looked
            assert "outcome" not in looked, "an observe answered with a gameplay reply: the pipe is a reply behind"
            assert int(looked["revision"]) in (revision, revision + 1)
            revision = int(looked["revision"])
            lookup = await engine.request(
                {"version": 1, "method": "session.lookup", "params": {"sessionId": session_id, "name": "newt"}}
            )
            assert lookup.get("kind") == "lookup" or "found" in lookup, lookup
        assert not engine.closed, "cancelled callers never cost the engine"
        assert in_flight >= CALLS // 4, f"only {in_flight} of {CALLS} cancels landed mid-exchange"
    finally:
        await engine.close()


@pytest.mark.asyncio
async def test_cancel_storm_every_retry_returns_its_receipt_and_resumes(tmp_path: Path) -> None:
    require_driver()
    rng = random.Random(22)
    games = registry(tmp_path)
    client = Client(games)
    try:
        created = await client.create(name="Ada", seed=SEED, role="valkyrie")
        game = created["basis"]["sessionId"]
        start_revision = created["basis"]["revision"]
        reached = 0
        view = created["basis"]["viewId"]
        for index in range(CALLS):
            request_id = f"storm-{index}"
            arguments = {"sessionId": game, "viewId": view, "action": "search", "requestId": request_id}
            call = asyncio.ensure_future(client.call("interact", **arguments))
            reached += await cancel_after(call, instant(rng))
            retried = await client.call("interact", **arguments)
            assert retried["outcome"]["submission"] == "accepted", retried.get("error")
            assert retried["outcome"]["operationId"] == request_id
            again = await client.call("interact", **arguments)
            assert again["basis"] == retried["basis"] and again["outcome"] == retried["outcome"]
            receipt = await games.store.get_receipt(game, request_id)
            assert receipt is not None and receipt["frame"]["basis"] == retried["basis"]
            view = retried["basis"]["viewId"]
        session = games.get(game)
        # exactly one input per requestId: the engine's own revision and the journal agree
        assert await client.engine_revision(session) == start_revision + CALLS
        assert session.revision == start_revision + CALLS
        entries = await games.store.journal(game)
        completed = [entry for entry in entries if entry["state"] == "completed"]
        assert len(completed) == CALLS and len({entry["operationId"] for entry in completed}) == CALLS
        assert all(entry["state"] == "completed" for entry in entries)
        assert reached >= CALLS // 2, f"only {reached} of {CALLS} cancels reached a running call"
        final = await client.ok("observe", sessionId=game)
    finally:
        await client.close()

    fresh_games = registry(tmp_path)
    fresh = Client(fresh_games)
    try:
        resumed = await fresh.ok("observe", sessionId=game)
        assert resumed["basis"]["revision"] == final["basis"]["revision"]
        assert resumed["scene"]["map"] == final["scene"]["map"]
        assert resumed["result"]["stateHash"] == final["result"]["stateHash"]
        # and a retry in the new process still returns the receipt
        old = await fresh.call(
            "interact", sessionId=game, viewId=created["basis"]["viewId"], action="search", requestId="storm-0"
        )
        assert old["outcome"]["operationId"] == "storm-0" and old["basis"]["revision"] == start_revision + 1
    finally:
        await fresh.close()


@pytest.mark.asyncio
async def test_a_cancelled_free_query_just_ends(agent: Client) -> None:
    created = await agent.create(seed=SEED)
    game = created["basis"]["sessionId"]
    rng = random.Random(3)
    for _ in range(20):
        task = asyncio.ensure_future(agent.call("observe", sessionId=game))
        await cancel_after(task, instant(rng))
        plan = asyncio.ensure_future(agent.call("plan", sessionId=game, query="navigation"))
        await cancel_after(plan, instant(rng))
    looked = await agent.ok("observe", sessionId=game)
    assert looked["basis"]["revision"] == created["basis"]["revision"], "a query never acts"
    session = agent.games.get(game)
    assert not session.engine.closed and session.gate == "ready"
    stepped = await agent.ok("interact", sessionId=game, viewId=looked["basis"]["viewId"], action="search")
    assert stepped["basis"]["revision"] == created["basis"]["revision"] + 1


@pytest.mark.asyncio
async def test_an_exchange_interrupted_mid_read_retires_the_engine() -> None:
    """The exchange's own task cancelled (as when the event loop shuts down and
    cancels every task): its reply is still coming, so the engine is retired
    rather than reused - the next request is refused, never answered with
    the interrupted request's reply - and the driver process is reaped."""
    require_driver()
    engine = await NativeEngine.start()
    created = await engine.request(
        {"version": 1, "method": "session.create", "params": {"seed": SEED, "createdAt": CREATED_AT}}
    )
    params = {"sessionId": created["sessionId"], "requestId": "cut", "expectedRevision": created["revision"]}
    caller = asyncio.ensure_future(engine.request({"version": 1, "method": "game.search", "params": params}))
    exchanges: list[asyncio.Task[Any]] = []
    for _ in range(50):
        await asyncio.sleep(0)
        exchanges = [
            t for t in asyncio.all_tasks() if getattr(t.get_coro(), "__qualname__", "").endswith("_locked_exchange")
        ]
        if exchanges and engine._lock.locked():
            break
    assert exchanges, "the exchange runs as its own task"
    exchanges[0].cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert engine.closed
    with pytest.raises(EngineClosed):
        await engine.request({"version": 1, "method": "session.observe", "params": {"sessionId": params["sessionId"]}})
    for _ in range(100):
        if engine._process.returncode is not None:
            break
        await asyncio.sleep(0.02)
    assert engine._process.returncode is not None, "the retired driver is reaped"


@pytest.mark.asyncio
async def test_cancelled_steps_keep_journal_and_engine_in_step() -> None:
    """Session.step callers cancelled at random instants: every step that was
    reserved completes (receipt and state), the session's revision is the
    engine's, one revision per completed entry, and the journal replays on a
    fresh engine to the same state."""
    require_driver()
    rng = random.Random(11)
    store = MemoryStore()
    session = await Session.create(await NativeEngine.start(), {"seed": SEED, "createdAt": CREATED_AT}, store=store)
    restored: Session | None = None
    try:
        start = session.revision
        for index in range(CALLS):
            step = asyncio.ensure_future(session.step("game.search", {"turns": 3}, request_id=f"step-{index}.1"))
            await cancel_after(step, instant(rng))
        await session.step("game.search", {}, request_id="last.1")  # waits for any step still finishing
        entries = await store.journal(session.session_id)
        assert all(entry["state"] == "completed" for entry in entries)
        assert session.revision == start + len(entries)
        assert len(entries) > CALLS // 2, f"only {len(entries) - 1} of {CALLS} cancelled steps had been sent"
        final = await session.observe()
        assert int(final["revision"]) == session.revision, "our bookkeeping is the engine's"
        info = await store.get_session(session.session_id)
        assert info is not None
        restored = await Session.restore(await NativeEngine.start(), info, entries, store=store)
        assert state_hash(await restored.observe()) == state_hash(final)
    finally:
        await session.close()
        if restored is not None:
            await restored.close()


@pytest.mark.asyncio
async def test_a_cancel_that_lands_as_the_reply_arrives_still_cancels() -> None:
    """A caller cancelled in the event-loop turn its reply is read in ends cancelled, never with the
    reply: Python 3.11's asyncio.wait_for dropped such a cancel (the checkpointer's stop then waited
    forever on a loop that went on), so the engines read under asyncio.timeout. Every turn from the
    reply's arrival on is tried, on a fresh driver each time (a cancel mid-exchange retires it)."""
    require_driver()
    reached = 0
    for turns in range(10):
        engine = await NativeEngine.start()
        try:
            created = await engine.request(
                {"version": 1, "method": "session.create", "params": {"seed": SEED, "createdAt": CREATED_AT}}
            )
            observe = {"version": 1, "method": "session.observe", "params": {"sessionId": created["sessionId"]}}
            task = asyncio.ensure_future(engine.pipeline([observe], lambda _k, _reply: None))
            await asyncio.sleep(0)  # the request written; the driver answers while this thread sleeps
            time.sleep(0.05)
            for _ in range(turns):
                await asyncio.sleep(0)
            if task.done():
                continue
            reached += 1
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        finally:
            await engine.close()
    assert reached >= 3, f"only {reached} cancels reached a running exchange"
