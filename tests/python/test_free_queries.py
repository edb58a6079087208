"""test_free_queries.py - discovery and queries: results, no input, no turn."""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.projection.world import rows as world_rows
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


async def free(agent: Client, created: dict[str, Any], tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a free query and check that the engine saw no input."""
    session = agent.games.get(created["basis"]["sessionId"])
    before = await agent.engine_revision(session)
    frame = await agent.call(tool, **arguments)
    assert "error" not in frame, frame["error"]
    assert frame["outcome"] is None and frame["events"] == []
    assert await agent.engine_revision(session) == before
    assert frame["basis"]["viewId"] == session.view_id
    return frame


async def test_square_discovery_offers_bound_attempts(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    frame = await free(agent, created, "interact", sessionId=sid, target={"direction": "west"})
    offers = frame["result"]
    assert offers["kind"] == "squareOffers" and offers["cell"]["terrain"]["type"] == "floor"
    step = next(a for a in offers["attempts"] if a["tool"] == "travel")
    assert step["arguments"]["viewId"] == created["basis"]["viewId"]
    moved = await agent.call(step["tool"], **step["arguments"])
    assert moved["outcome"]["positionChanged"] is True
    own = await free(agent, moved, "interact", sessionId=sid)
    assert own["result"]["cell"]["dx"] == 0 and own["result"]["general"]
    door = await free(agent, moved, "interact", sessionId=sid, target={"position": {"x": 53, "y": 9}})
    assert door["result"]["attempts"][0]["arguments"]["mode"] == "to"


async def test_item_discovery_and_its_offer(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await free(agent, created, "use", sessionId=created["basis"]["sessionId"])
    items = {entry["itemId"]: entry for entry in frame["result"]["items"]}
    ration = items["item-4"]
    eat = next(a for a in ration["attempts"] if a["arguments"]["action"] == "eat")
    assert all(a["arguments"]["action"] != "drop" for a in items["item-3"]["attempts"]), "worn armor"
    eaten = await agent.call(eat["tool"], **eat["arguments"])
    assert eaten["outcome"]["submission"] == "accepted" and eaten["outcome"]["turnsElapsed"] >= 1


async def test_plan_queries(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    route = (await free(agent, created, "plan", sessionId=sid, query="route", to={"x": 50, "y": 4}))["result"]
    assert route["kind"] == "route" and route["distance"] == len(route["steps"]) > 0
    assert all("direction" in step for step in route["steps"])
    nowhere = (await free(agent, created, "plan", sessionId=sid, query="route", to={"x": 10, "y": 10}))["result"]
    assert nowhere["distance"] is None and nowhere["why"] == "targetUnknown"
    navigation = (await free(agent, created, "plan", sessionId=sid, query="navigation"))["result"]
    assert navigation["kind"] == "navigation" and navigation["frontiers"]
    around = (await free(agent, created, "plan", sessionId=sid, query="neighborhood"))["result"]
    assert len(around["cells"]) == 81


async def test_lookup_inventory_equipment_observe(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    dog = (await free(agent, created, "lookup", sessionId=sid, symbol="d"))["result"]
    assert dog["meanings"] == ["little dog (tame)"] and dog["count"] == 1
    square = (await free(agent, created, "lookup", sessionId=sid, position={"x": 53, "y": 9}))["result"]
    assert square["terrain"] == "closedDoor" and square["mark"] == "+"
    unknown = (await free(agent, created, "lookup", sessionId=sid, position={"x": 5, "y": 5}))["result"]
    assert unknown["terrain"] == "unknown" and "shows" not in unknown
    inventory = (await free(agent, created, "inventory", sessionId=sid))["result"]
    assert inventory["known"] and len(inventory["items"]) == 4
    equipment = (await free(agent, created, "equipment", sessionId=sid))["result"]
    assert {s["slot"] for s in equipment["slots"]} == {"weapon", "alternateWeapon", "bodyArmor"}
    observed = await free(agent, created, "observe", sessionId=sid)
    assert len(world_rows(observed["scene"]["world"])) == 21
    assert observed["result"]["recentMessages"]


async def test_observe_operation_history(agent: Client) -> None:
    created = await agent.create(seed=42)
    moved = await agent.call("travel", **bound(created), mode="step", target={"direction": "west"})
    operation = moved["outcome"]["operationId"]
    observed = await free(agent, moved, "observe", sessionId=created["basis"]["sessionId"], operationId=operation)
    history = observed["result"]["operation"]
    assert history["found"] and history["outcome"] == moved["outcome"]
    assert "reply" not in history.get("decision", {})


async def test_help_needs_no_game(agent: Client) -> None:
    frame = await agent.call("help", topic="decisions")
    assert frame["basis"] is None and "respond" in frame["result"]["text"]
    assert "targets" in frame["result"]["topics"]


async def test_discovery_never_offers_a_route_onto_a_creature(agent: Client) -> None:
    frame = await agent.create(seed=3)  # a jackal comes into view within a few legs
    sid = frame["basis"]["sessionId"]
    hostile = None
    for _ in range(15):
        frame = await agent.call("travel", **bound(frame), mode="explore", maxActions=60, maxFrontiers=5)
        hostile = next(
            (e for e in frame["scene"]["entities"] if e.get("attitude") == "hostile" and e["distance"] > 1), None
        )
        if hostile or frame["control"]["gate"] != "ready":
            break
    assert hostile is not None, "seed 3 shows a hostile creature at a distance while exploring"
    where = {"x": hostile["x"], "y": hostile["y"]}
    offers = (await free(agent, frame, "interact", sessionId=sid, target={"position": where}))["result"]
    assert offers["cell"]["occupant"]["attitude"] == "hostile"
    assert not [a for a in offers["attempts"] if a["tool"] == "travel" and a["arguments"].get("mode") == "to"]
