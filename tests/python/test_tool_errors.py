"""test_tool_errors.py - refusals are error frames and leave the engine untouched.

Each case checks the error code and that the engine's own revision (asked
directly, not our bookkeeping) did not change.
"""
from __future__ import annotations

from typing import Any

import pytest
from agent_support import Agent, bound

pytestmark = pytest.mark.asyncio


async def refused(agent: Agent, created: dict[str, Any], code: str, tool: str, **arguments: Any) -> dict[str, Any]:
    session = agent.games.get(created["basis"]["sessionId"])
    before = await agent.engine_revision(session)
    frame = await agent.call(tool, **arguments)
    assert frame.get("error", {}).get("code") == code, frame.get("error")
    assert frame["version"] == 2
    assert await agent.engine_revision(session) == before
    if frame["outcome"] is not None:
        assert frame["outcome"]["submission"] == "rejected" and frame["outcome"]["actionsTaken"] == 0
    return frame


async def test_stale_view(agent: Agent) -> None:
    created = await agent.create(seed=42)
    moved = await agent.call("travel", **bound(created), mode="step", target={"direction": "west"})
    assert moved["outcome"]["submission"] == "accepted"
    frame = await refused(agent, created, "staleView", "travel", **bound(created), mode="step",
                          target={"direction": "west"})
    assert frame["basis"]["viewId"] == moved["basis"]["viewId"], "the error frame shows the current view"
    assert frame["error"]["currentViewId"] == moved["basis"]["viewId"]


async def test_stale_revision(agent: Agent) -> None:
    created = await agent.create(seed=42)
    await refused(agent, created, "staleRevision", "interact", **bound(created), action="search",
                  expectedRevision=created["basis"]["revision"] + 5)
    kick = await agent.call("interact", **bound(created), action="kick")
    await refused(agent, created, "staleRevision", "respond", **kick["decision"]["reply"]["arguments"],
                  value="north", expectedRevision=created["basis"]["revision"])


async def test_ambiguous_symbol(agent: Agent) -> None:
    created = await agent.create(seed=42)  # two closed doors '+' on this level, walls all around
    frame = await refused(agent, created, "ambiguous", "interact", **bound(created), action="open",
                          target={"symbol": "+", "scope": "level"})
    assert {(c["x"], c["y"]) for c in frame["error"]["candidates"]} == {(48, 7), (53, 9)}
    frame = await refused(agent, created, "ambiguous", "interact", **bound(created), action="kick",
                          target={"symbol": "|", "scope": "adjacent"})
    assert all("direction" in c for c in frame["error"]["candidates"])
    await refused(agent, created, "notFound", "interact", **bound(created), action="attack",
                  target={"symbol": "Z", "scope": "level"})
    await refused(agent, created, "notAdjacent", "interact", **bound(created), action="attack",
                  target={"position": {"x": 53, "y": 9}})


async def test_wrong_decision_id(agent: Agent) -> None:
    created = await agent.create(seed=42)
    quit_frame = await agent.call("interact", **bound(created), action="quit")
    standing = quit_frame["decision"]["id"]
    wrong = {**quit_frame["decision"]["reply"]["arguments"], "decisionId": "decision-99"}
    frame = await refused(agent, created, "decisionMismatch", "respond", **wrong, value=True)
    assert frame["error"]["standingDecisionId"] == standing
    assert frame["decision"]["id"] == standing, "the question still stands"
    await refused(agent, created, "decisionMismatch", "respond", action="cancel",
                  sessionId=wrong["sessionId"], decisionId="decision-0")
    # gameplay cannot jump the queue either
    await refused(agent, created, "decisionStanding", "interact", **bound(quit_frame), action="search")


async def test_no_decision_and_invalid_arguments(agent: Agent) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    await refused(agent, created, "noDecision", "respond", action="answer", sessionId=sid,
                  decisionId="decision-1", value=True)
    frame = await refused(agent, created, "invalidArguments", "travel", **bound(created), mode="step",
                          target={"direction": "up"})
    assert "direction" in frame["error"]["message"]
    await refused(agent, created, "invalidArguments", "interact", **bound(created), action="dance")
    await refused(agent, created, "invalidArguments", "use", **bound(created), action="eat", itemId="item-4",
                  letter="d")


async def test_engine_rejection_passes_through(agent: Agent) -> None:
    created = await agent.create(seed=42)
    frame = await refused(agent, created, "unknownItem", "use", **bound(created), action="eat",
                          itemId="item-999")
    assert frame["outcome"]["submission"] == "rejected"


async def test_exact_retry_returns_the_original_receipt(agent: Agent) -> None:
    created = await agent.create(seed=42)
    args = {**bound(created), "mode": "step", "target": {"direction": "west"}, "requestId": "walk-1"}
    first = await agent.call("travel", **args)
    session = agent.games.get(created["basis"]["sessionId"])
    revision = await agent.engine_revision(session)
    again = await agent.call("travel", **args)
    assert again == first, "an exact retry gets the original frame, not a second step"
    assert await agent.engine_revision(session) == revision
    changed = {**args, "target": {"direction": "east"}}
    await refused(agent, created, "requestIdReused", "travel", **changed)


async def test_rejections_before_input_are_not_receipts(agent: Agent) -> None:
    created = await agent.create(seed=42)
    args = {**bound(created), "action": "search", "requestId": "s-1", "expectedRevision": 99}
    await refused(agent, created, "staleRevision", "interact", **args)
    fixed = {**args, "expectedRevision": created["basis"]["revision"]}
    frame = await agent.call("interact", **fixed)
    assert frame["outcome"]["submission"] == "accepted"


async def test_ended_game_refuses_input(agent: Agent) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("interact", **bound(created), action="quit")
    while frame["decision"] is not None:
        value = frame["decision"]["prompt"] == "Really quit?"
        if frame["decision"]["kind"] != "confirmation":
            frame = await agent.call("respond", **frame["decision"]["cancel"]["arguments"])
        else:
            frame = await agent.call("respond", **frame["decision"]["reply"]["arguments"], value=value)
    assert frame["control"]["gate"] == "ended"
    assert frame["scene"]["end"]["how"] == "quit"
    await refused(agent, created, "gameEnded", "interact", **bound(frame), action="search")
    observed = await agent.call("observe", sessionId=created["basis"]["sessionId"])
    assert observed["control"]["gate"] == "ended" and "error" not in observed


async def test_unknown_session(agent: Agent) -> None:
    frame = await agent.call("observe", sessionId="nope")
    assert frame["error"]["code"] == "unknownSession" and frame["basis"] is None


async def test_incompatible_character_is_an_error_frame(agent: Agent) -> None:
    frame = await agent.call("session", action="create", role="valkyrie", alignment="chaotic", race="dwarf")
    assert frame["error"]["code"] == "incompatibleCharacter" and frame["basis"] is None
    assert agent.games.sessions() == []
