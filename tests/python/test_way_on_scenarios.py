"""test_way_on_scenarios.py - `plan wayOn` on the real engine (issue 23 item 4).

Each test plays a real native game (seeded, or a wizard-mode fixture game
where the test needs a trap door or a boulder placed) through the tools and
checks one promise of docs/AGENT_PLAY.md, "The way on":

* a dead end is the first place to search on a level explored to its end,
  and the search turns made there (counted by the navigation memory) lower
  its score;
* a boulder blocking a corridor is offered as a push from the square before
  it, and following the offered calls moves the boulder and the hero on;
* a trap door found by searching is offered as a way down, and following
  the offered calls takes the hero down a level;
* a stuck level's options come in the documented order, each reachable,
  each with the call to make next, and the text carries every one.
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.navigation import way_on
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.projection.render import text
from nethack_webmcp.session import Session
from support.client import Client, bound

pytestmark = pytest.mark.asyncio

Frame = dict[str, Any]
ORDER = ("wayDown", "trapDoor", "frontier", "door", "push", "search", "wayUp")


async def low(session: Session, method: str, **params: Any) -> None:
    result = await session.step(method, params, request_id=f"fixture-{session.revision}")
    assert result.submission == "accepted", result.error


async def wizard(session: Session, command: str, answer: str) -> None:
    await low(session, "debug.wizard", command=command)
    assert session.decision is not None
    await low(session, "decision.answer", decisionId=session.decision["id"], answer={"kind": "text", "text": answer})


async def explored(agent: Client, seed: int) -> Frame:
    """A seeded Valkyrie's first level explored until nothing reachable is left."""
    frame = await agent.create(seed=seed, role="valkyrie")
    for _ in range(12):
        frame = await agent.call("travel", **bound(frame), mode="explore", maxActions=200)
        assert frame.get("decision") is None, frame["decision"]
        if frame["result"]["stopReason"] == "noFrontier":
            return frame
    raise AssertionError(f"seed {seed}: explore never ran out of frontiers")


async def planned(agent: Client, frame: Frame) -> dict[str, Any]:
    plan = await agent.ok("plan", sessionId=frame["basis"]["sessionId"], query="wayOn")
    assert plan["result"]["kind"] == "wayOn"
    return plan


async def follow(agent: Client, frame: Frame, call: dict[str, Any]) -> Frame:
    """Make an option's next call, bound to the current view."""
    return await agent.ok(call["tool"], **bound(frame), **call["arguments"])


def position(frame: Frame) -> tuple[int, int]:
    at = frame["scene"]["self"]["position"]
    return at["x"], at["y"]


async def test_a_dead_end_is_searched_first_and_searching_lowers_its_score(agent: Client) -> None:
    # Seed 7: the first level explored to its end leaves no door and no way down, only walls of rock.
    frame = await explored(agent, 7)
    result = (await planned(agent, frame))["result"]
    assert result["stuck"] is True
    first = result["options"][0]
    assert first["kind"] == "search" and first["spot"] == "deadEnd", result["options"]
    assert result["searchSpots"][0] == {key: first[key] for key in result["searchSpots"][0]}
    assert first["searched"] == 0 and "dead-end corridor" in first["reason"]
    spot = (first["x"], first["y"])
    # walk there as offered, then the offered search
    frame = await follow(agent, frame, first["next"])
    assert position(frame) == spot, frame["result"]
    # (the walk there may have shown more to explore: the frontier then comes first)
    again = next(o for o in (await planned(agent, frame))["result"]["options"] if o["kind"] == "search")
    assert (again["x"], again["y"]) == spot and again["distance"] == 0
    assert again["next"] == {"tool": "interact", "arguments": {"action": "search", "turns": again["turns"]}}
    turn = frame["basis"]["turn"]
    frame = await follow(agent, frame, again["next"])
    searched = frame["basis"]["turn"] - turn
    assert searched >= 1
    after = (await planned(agent, frame))["result"]
    spots = {(s["x"], s["y"]): s for s in after["searchSpots"]}
    if spot in spots:  # (a hidden corridor found there would have ended the dead end)
        assert spots[spot]["searched"] == searched
        assert spots[spot]["score"] < first["score"]
        assert f"searched {searched} turns" in spots[spot]["reason"]


async def test_a_trap_door_is_offered_as_a_way_down_and_the_offered_calls_take_it(agent: Client) -> None:
    session = await agent.fixture_game(seed=7, wizard=True, role="valkyrie")
    await low(session, "game.move", direction="east")
    await low(session, "game.move", direction="east")
    await wizard(session, "wish", "trap door")  # hidden under the hero
    frame = frames.build(session)
    trap_square = position(frame)
    frame = await agent.ok("travel", **bound(frame), mode="step", target={"direction": "west"})
    assert not (await planned(agent, frame))["result"]["trapDoors"]  # not found yet: never offered
    frame = await agent.ok("interact", **bound(frame), action="search", turns=30)
    assert any(e.get("text") == "You find a trap door." for e in frame["events"]), frame["events"]
    plan = await planned(agent, frame)
    result = plan["result"]
    trap = {"x": trap_square[0], "y": trap_square[1], "type": "trap door", "distance": 1}
    assert {key: result["trapDoors"][0][key] for key in trap} == trap
    option = next(o for o in result["options"] if o["kind"] == "trapDoor")
    assert result["options"][0] is option or result["options"][0]["kind"] == "wayDown"
    assert option["approach"] == {"x": position(frame)[0], "y": position(frame)[1]}
    assert option["next"] == {"tool": "travel", "arguments": {"mode": "step", "target": {"direction": "east"}}}
    rendered = text(plan)
    assert f"trapDoor {trap_square[0]},{trap_square[1]} d1" in rendered
    assert 'travel {"mode":"step","target":{"direction":"east"}}' in rendered
    depth = frame["scene"]["self"]["level"]["depth"]
    for _ in range(3):  # a seen trap door may be escaped: then the offer is the plunge (climb down) from on it
        frame = await follow(agent, frame, option["next"])
        if frame["scene"]["self"]["level"]["depth"] > depth:
            break
        option = next(o for o in (await planned(agent, frame))["result"]["options"] if o["kind"] == "trapDoor")
        assert option["distance"] == 0
        assert option["next"] == {"tool": "travel", "arguments": {"mode": "climb", "direction": "down"}}
    assert frame["scene"]["self"]["level"]["depth"] > depth


async def corridor_end(agent: Client, session: Session) -> tuple[int, int, str]:
    """Single explore moves until the hero stands in a corridor with the square ahead
    (in the direction of its last step) seen but not walked and the one beyond never seen."""
    frame = frames.build(session)
    for _ in range(400):
        before = position(frame)
        frame = await agent.ok("travel", **bound(frame), mode="explore", maxActions=1)
        here = position(frame)
        dx, dy = here[0] - before[0], here[1] - before[1]
        if abs(dx) + abs(dy) != 1:
            continue
        level = session.level()
        ahead, beyond = (here[0] + dx, here[1] + dy), (here[0] + 2 * dx, here[1] + 2 * dy)
        if (
            level.feature(*here) == "#"
            and level.feature(*ahead) == "#"
            and not level.was_visited(*ahead)
            and level.feature(*beyond) == " "
        ):
            name = {(0, -1): "north", (0, 1): "south", (1, 0): "east", (-1, 0): "west"}[(dx, dy)]
            return here[0], here[1], name
    raise AssertionError("no corridor run found")


async def test_a_boulder_in_a_corridor_is_offered_as_a_push_that_opens_it(agent: Client) -> None:
    session = await agent.fixture_game(seed=2, wizard=True, role="valkyrie")
    x, y, heading = await corridor_end(agent, session)
    await wizard(session, "wish", "boulder")  # too heavy to carry: it lands where the hero stands
    back = {"north": "south", "south": "north", "east": "west", "west": "east"}[heading]
    frame = await agent.ok("travel", **bound(frames.build(session)), mode="step", target={"direction": back})
    stand = position(frame)
    assert session.level().kind(x, y) == "B", "the boulder is not shown where it was wished"
    plan = await planned(agent, frame)
    push = plan["result"]["pushes"][0]
    assert push["boulder"] == {"x": x, "y": y} and (push["x"], push["y"]) == stand
    assert push["direction"] == heading and push["opens"] == "frontier" and push["distance"] == 0
    option = next(o for o in plan["result"]["options"] if o["kind"] == "push")
    assert option["next"] == {"tool": "travel", "arguments": {"mode": "step", "target": {"direction": heading}}}
    assert f"boulder {x},{y} from {stand[0]},{stand[1]} push {heading}" in text(plan)
    frame = await follow(agent, frame, option["next"])
    assert position(frame) == (x, y), frame["events"]
    dx, dy = x - stand[0], y - stand[1]
    assert session.level().kind(x + dx, y + dy) == "B"  # the boulder rolled on, the corridor is open behind


async def test_a_stuck_levels_way_on_lists_what_to_try_in_order_with_the_next_calls(agent: Client) -> None:
    # Seed 2: explored to its end, no way down seen, closed doors and dead ends left.
    frame = await explored(agent, 2)
    plan = await planned(agent, frame)
    result = plan["result"]
    assert result["stuck"] is True
    kinds = [option["kind"] for option in result["options"]]
    assert kinds == sorted(kinds, key=ORDER.index), kinds
    assert {"door", "search"} <= set(kinds) and not {"wayDown", "frontier"} & set(kinds)
    assert "wayUp" not in kinds  # Dlvl 1: up leaves the dungeon and ends the game
    hero = position(frame)
    rendered = text(plan)
    assert "stuck" in rendered.splitlines()[1]
    for rank, option in enumerate(result["options"], start=1):
        assert isinstance(option["distance"], int) and option["reason"]
        call = option["next"]
        assert call["tool"] in ("travel", "interact")
        if call["arguments"].get("mode") == "to":  # elsewhere: walk to the square to stand on
            to = call["arguments"]["to"]
            assert (to["x"], to["y"]) != hero
        assert f"{rank}. {option['kind']} {option['x']},{option['y']} d{option['distance']}" in rendered
    searches = [o for o in result["options"] if o["kind"] == "search"]
    assert [s["score"] for s in searches] == sorted((s["score"] for s in searches), reverse=True)
    # The plan is the package's one implementation, over the session's own view.
    session = agent.games.get(frame["basis"]["sessionId"])
    assert way_on(session.level(), depth=1, dungeon="The Dungeons of Doom") == result
