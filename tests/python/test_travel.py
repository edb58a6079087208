"""test_travel.py - single movement commands and bounded navigation legs."""

from __future__ import annotations

import pytest
from nethack_webmcp.projection import frame as frames
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


async def test_explore_leg_is_bounded_and_aggregated(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("travel", **bound(created), mode="explore", maxActions=3, maxFrontiers=5)
    assert "error" not in frame, frame["error"]
    leg, outcome = frame["result"], frame["outcome"]
    assert leg["kind"] == "leg" and leg["mode"] == "explore"
    assert 1 <= outcome["actionsTaken"] == leg["actionsTaken"] <= 3
    assert outcome["turnsElapsed"] >= outcome["actionsTaken"]
    assert frame["basis"]["revision"] == created["basis"]["revision"] + outcome["actionsTaken"]
    assert leg["stopReason"]


async def test_to_leg_arrives_on_a_known_square(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("travel", **bound(created), mode="to", to={"x": 52, "y": 4})
    assert frame["result"]["stopReason"] in ("arrived", "newCreature"), frame["result"]
    if frame["result"]["stopReason"] == "arrived":
        assert frame["scene"]["self"]["position"] == {"x": 52, "y": 4}
        assert frame["outcome"]["status"] == "completed"


async def test_zero_action_leg_sends_nothing(agent: Client) -> None:
    created = await agent.create(seed=42)
    session = agent.games.get(created["basis"]["sessionId"])
    frame = await agent.call("travel", **bound(created), mode="descend")
    assert frame["result"]["stopReason"] == "noWayDown"
    assert frame["outcome"]["actionsTaken"] == 0 and frame["outcome"]["turnsElapsed"] == 0
    assert frame["events"] == [] and await agent.engine_revision(session) == created["basis"]["revision"]


async def test_run_and_climb(agent: Client) -> None:
    created = await agent.create(seed=42)  # the hero starts on the up staircase
    up = await agent.call("travel", **bound(created), mode="climb", direction="up")
    assert up["decision"]["kind"] == "confirmation", "leaving the dungeon is a real question"
    declined = await agent.call("respond", **up["decision"]["reply"]["arguments"], value=False)
    assert declined["control"]["gate"] == "ready"
    ran = await agent.call("travel", **bound(declined), mode="run", direction="west", runMode="untilInteresting")
    assert ran["outcome"]["submission"] == "accepted" and ran["outcome"]["positionChanged"]


async def test_descend_leg_then_climb_down(agent: Client) -> None:
    session = await agent.fixture_game(seed=7, wizard=True, role="valkyrie")
    # fixture: magic mapping shows the '>' at (48,16) in a room behind closed
    # doors; teleport into that room, two squares from the stairs
    for command in ("map", "teleport"):
        step = await session.step("debug.wizard", {"command": command}, request_id=f"fixture-{command}")
        assert step.submission == "accepted"
    frame = frames.build(session)
    assert frame["decision"]["kind"] == "position"
    frame = await agent.call("respond", **frame["decision"]["reply"]["arguments"], value={"x": 50, "y": 17})
    assert frame["scene"]["self"]["position"] == {"x": 50, "y": 17}
    frame = await agent.call("travel", **bound(frame), mode="descend")
    assert frame["result"]["stopReason"] == "atWayDown", frame["result"]
    assert frame["result"]["steps"][-1]["x"] == 48 and frame["outcome"]["actionsTaken"] == 2
    climb = frame["result"]["next"]
    below = await agent.call(climb["tool"], **climb["arguments"])
    assert below["scene"]["self"]["level"]["depth"] == 2
    assert below["outcome"]["positionChanged"] is True
