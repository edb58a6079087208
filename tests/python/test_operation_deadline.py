"""test_operation_deadline.py - a call waits at most the operation deadline; the operation goes on.

Real native engine. With a tiny `ToolContext.operation_deadline` (0.001 s)
an explore leg - many inputs, each a real engine exchange - outlives its
call: the call answers `outcome.status: "running"` with the operationId,
the leg runs on to its end, other acting calls (and the game's close) are
refused `busy` without a journal entry, a free query that needs the game
is refused `busy` after waiting the deadline, observe reports the leg as
running and then its recorded evidence, and a retry of the same requestId
waits for the same operation (never sends its inputs again).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from nethack_webmcp.projection.render import text
from nethack_webmcp.tools import ToolContext
from nethack_webmcp.tools.base import DEFAULT_OPERATION_DEADLINE
from support.client import Client

SEED = 77
TINY = 0.001


async def until_done(agent: Client, game: str, operation_id: str) -> dict[str, Any]:
    """Observe with operationId until the operation's evidence is recorded."""
    for _ in range(2000):
        looked = await agent.ok("observe", sessionId=game, operationId=operation_id)
        operation = looked["result"]["operation"]
        if operation.get("status") != "running":
            return looked
        await asyncio.sleep(0.005)
    raise AssertionError(f"operation {operation_id} never finished")


async def running_leg(agent: Client, request_id: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A game and the `running` frame of an explore leg that outlived its call."""
    created = await agent.create(seed=SEED, role="valkyrie")
    game = created["basis"]["sessionId"]
    frame = await agent.call(
        "travel", sessionId=game, viewId=created["basis"]["viewId"], mode="explore", requestId=request_id
    )
    return game, created, frame


def test_the_default_deadline_is_ten_seconds(agent: Client) -> None:
    assert DEFAULT_OPERATION_DEADLINE == 10.0
    assert agent.ctx.operation_deadline == 10.0


@pytest.mark.asyncio
async def test_a_leg_past_the_deadline_runs_on_and_observe_reports_it(agent: Client) -> None:
    agent.ctx = ToolContext(agent.games, operation_deadline=TINY)
    game, created, frame = await running_leg(agent, "leg-1")
    assert frame["outcome"]["status"] == "running", frame.get("error")
    assert frame["outcome"]["operationId"] == "leg-1"
    assert frame["outcome"]["submission"] in ("pending", "accepted")
    assert "error" not in frame and frame["control"]["gate"] == "busy" and frame["decision"] is None
    assert "RUNNING operation leg-1: observe with this operationId" in text(frame)

    # meanwhile: another acting call is refused, sends nothing, journals nothing
    refused = await agent.call("interact", sessionId=game, viewId=frame["basis"]["viewId"], action="search")
    assert refused["error"]["code"] == "busy" and refused["error"]["operationId"] == "leg-1", refused
    assert refused["outcome"]["submission"] == "rejected"
    intruder = await agent.call(
        "interact", sessionId=game, viewId=frame["basis"]["viewId"], action="search", requestId="intruder"
    )
    assert intruder["error"]["code"] == "busy"
    closing = await agent.call("session", action="close", sessionId=game)
    assert closing["error"]["code"] == "busy"
    # observe answers at once from the last boundary reached, naming the running operation
    looked = await agent.ok("observe", sessionId=game, operationId="leg-1")
    assert looked["result"]["running"] == "leg-1" and looked["control"]["gate"] == "busy"
    assert looked["result"]["operation"] == {
        "kind": "operation",
        "operationId": "leg-1",
        "found": True,
        "status": "running",
    }

    done = await until_done(agent, game, "leg-1")
    evidence = done["result"]["operation"]
    assert evidence["found"] is True and evidence["outcome"]["submission"] == "accepted", evidence
    moves = evidence["outcome"]["actionsTaken"]
    assert moves > 1, "an explore leg of several inputs"
    assert done["control"]["gate"] != "busy" and "running" not in done["result"]
    session = agent.games.get(game)
    # every input of the leg exactly once; the busy calls left no trace
    entries = await agent.games.store.journal(game)
    assert [entry["operationId"] for entry in entries] == ["leg-1"] * moves
    assert all(entry["state"] == "completed" for entry in entries)
    assert session.revision == created["basis"]["revision"] + moves == await agent.engine_revision(session)
    assert await agent.games.store.get_receipt(game, "intruder") is None

    # a retry returns the receipt (nothing is sent again)
    retried = await agent.call(
        "travel", sessionId=game, viewId=created["basis"]["viewId"], mode="explore", requestId="leg-1"
    )
    assert retried["outcome"] == evidence["outcome"] and retried["basis"] == evidence["basis"]
    assert session.revision == created["basis"]["revision"] + moves
    agent.ctx.operation_deadline = None  # (a tiny deadline could answer this search `running` too)
    after = await agent.ok("interact", sessionId=game, viewId=done["basis"]["viewId"], action="search")
    assert after["basis"]["revision"] == session.revision == created["basis"]["revision"] + moves + 1


@pytest.mark.asyncio
async def test_a_retry_while_running_waits_for_the_same_operation(agent: Client) -> None:
    agent.ctx = ToolContext(agent.games, operation_deadline=TINY)
    game, created, frame = await running_leg(agent, "leg-2")
    assert frame["outcome"]["status"] == "running"
    arguments = {"sessionId": game, "viewId": created["basis"]["viewId"], "mode": "explore", "requestId": "leg-2"}
    again = await agent.call("travel", **arguments)
    assert "error" not in again and again["outcome"]["operationId"] == "leg-2", again
    other = await agent.call("travel", **{**arguments, "mode": "descend"})
    assert other["error"]["code"] == "requestIdReused"
    # a free query that needs the game waits up to the deadline, then is refused
    planned = await agent.call("plan", sessionId=game, query="navigation")
    if "error" in planned:
        assert planned["error"]["code"] == "busy" and planned["error"]["operationId"] == "leg-2"
    else:
        assert agent.games.get(game).running is None, "answered only once the leg was done"
    agent.ctx.operation_deadline = None  # now wait for the boundary, however long
    final = await agent.call("travel", **arguments)
    assert final["outcome"]["submission"] == "accepted" and final["outcome"]["status"] != "running"
    entries = await agent.games.store.journal(game)
    assert len(entries) == final["outcome"]["actionsTaken"], "the retries sent nothing"
    assert final["basis"]["revision"] == created["basis"]["revision"] + len(entries)


@pytest.mark.asyncio
async def test_a_refused_operation_past_its_deadline_is_reported_by_observe(agent: Client) -> None:
    agent.ctx = ToolContext(agent.games, operation_deadline=0)
    created = await agent.create(seed=SEED)
    game = created["basis"]["sessionId"]
    stale = await agent.call("interact", sessionId=game, viewId="v999-nonsense", action="search", requestId="late")
    if stale["outcome"]["status"] == "running":  # the deadline passed before admission ran
        done = await until_done(agent, game, "late")
        assert done["result"]["operation"]["error"]["code"] == "staleView"
    else:
        assert stale["error"]["code"] == "staleView"
    assert await agent.games.store.journal(game) == []
