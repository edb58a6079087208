"""test_trust_scenarios.py - issue 23 on the real engine: navigation an agent can trust, and endings.

Each test plays a real native game (seeded, or a wizard-mode fixture game
for a trap or a monster where the test needs one) through the tools and
checks one promise of docs/AGENT_PLAY.md ("Legs", "The text content",
"Endings"):

* a trap is known, with its displayed type, in the very frame it fires in,
  and a leg from inside it stops `blocked` with why `trapped`;
* a diagonal the hero walked is connected (the tracker records it);
* the memory's visible layer is exact from acting responses alone: the
  driver resends a row whose visibility changed, so it equals what a full
  observe shows;
* a kicked-open (broken) door is a doorway that legs walk through;
* a squeeze NetHack refuses for the load says so (why `squeezeTooHeavy`),
  and the same step passes once the weight is dropped;
* quitting asks only NetHack's own questions (confirmations), and the end
  keeps every window NetHack showed (end.windows), text included.

(An attack that misses stops a leg: tests/navigation/test_navigator.py,
test_live_exploration_stops_for_a_new_creature_and_for_damage.)
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.projection.render import text
from nethack_webmcp.session import Session
from support.client import Client, bound

pytestmark = pytest.mark.asyncio

Frame = dict[str, Any]


async def low(session: Session, method: str, **params: Any) -> None:
    result = await session.step(method, params, request_id=f"fixture-{session.revision}")
    assert result.submission == "accepted", result.error


async def wizard(session: Session, command: str, answer: str) -> None:
    await low(session, "debug.wizard", command=command)
    assert session.decision is not None
    await low(session, "decision.answer", decisionId=session.decision["id"], answer={"kind": "text", "text": answer})


async def test_a_trap_is_known_with_its_type_in_the_frame_it_fires_and_a_leg_says_trapped(agent: Client) -> None:
    # a weak hero (a Wizard's strength) stays stuck in a web for several moves
    session = await agent.fixture_game(seed=7, wizard=True, role="wizard")
    await low(session, "game.move", direction="east")
    await low(session, "game.move", direction="east")
    await wizard(session, "wish", "web")  # an unseen web under the hero
    frame = frames.build(session)
    x, y = frame["scene"]["self"]["position"]["x"], frame["scene"]["self"]["position"]["y"]
    assert not [f for f in frame["scene"]["features"] if f["kind"] == "trap"]  # not found yet
    frame = await agent.call("travel", **bound(frame), mode="step", target={"direction": "west"})
    frame = await agent.call("travel", **bound(frame), mode="step", target={"direction": "east"})
    assert any("spider web" in e.get("text", "") for e in frame["events"]), frame["events"]
    # the frame where it fired: the trap, its type, underfoot, and the caught condition
    traps = [f for f in frame["scene"]["features"] if f["kind"] == "trap"]
    assert traps == [{"kind": "trap", "x": x, "y": y, "distance": 0, "trap": "web"}]
    assert frame["scene"]["here"]["trap"] == "web"
    assert "trapped" in frame["scene"]["self"]["vitals"]["condition"]
    rendered = text(frame)
    assert f"trap (web) {x},{y}" in rendered and "underfoot: web" in rendered
    # legs from inside the web: a failed move says why. (The kitten deals with the goblin
    # that is about first: its attacks would stop a leg before the web does.)
    frame = await agent.call("interact", **bound(frame), action="search", turns=8)
    assert "trapped" in frame["scene"]["self"]["vitals"]["condition"]
    stops = []
    for _ in range(6):
        leg = await agent.call("travel", **bound(frame), mode="to", to={"x": x - 2, "y": y})
        result = leg["result"]
        stops.append((result["stopReason"], result.get("why")))
        if result["stopReason"] == "blocked":
            assert result["why"] == "trapped", result
            assert "why trapped" in text(leg)
        frame = leg
        if "trapped" not in frame["scene"]["self"]["vitals"]["condition"]:
            break
    assert ("blocked", "trapped") in stops, stops


async def test_a_walked_diagonal_is_connected_and_the_visible_layer_is_exact(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = created
    diagonal = None
    for direction in ["west"] * 9 + ["southwest", "west", "west"]:
        before = frame["scene"]["self"]["position"]
        frame = await agent.call("travel", **bound(frame), mode="step", target={"direction": direction})
        assert "error" not in frame, frame["error"]
        if direction == "southwest":
            after = frame["scene"]["self"]["position"]
            diagonal = ((before["x"], before["y"]), (after["x"], after["y"]))
    session = agent.games.get(created["basis"]["sessionId"])
    assert session is not None and diagonal is not None
    view = session.level()
    assert diagonal[0][0] - diagonal[1][0] == 1 and diagonal[1][1] - diagonal[0][1] == 1
    assert view.walked == {tuple(sorted(diagonal))}
    assert view.walked_between(*diagonal)
    # the memory's visible layer, from acting responses alone, equals a full observe's
    observed = await agent.call("observe", sessionId=created["basis"]["sessionId"])
    assert "error" not in observed
    shown = session.level().observed
    assert shown is not None
    assert view.visibility == shown.visibility


async def test_a_kicked_open_door_is_a_doorway_legs_walk_through(agent: Client) -> None:
    # Seed 42's Barbarian: the first room's west door (closed) is ten squares west.
    frame = await agent.create(seed=42)
    for direction in ["west"] * 9 + ["southwest"]:
        frame = await agent.call("travel", **bound(frame), mode="step", target={"direction": direction})
    door = next(f for f in frame["scene"]["features"] if f["kind"] == "closedDoor" and f["distance"] == 1)
    broken = False
    for _ in range(30):
        frame = await agent.call("interact", **bound(frame), action="kick", target={"direction": "west"})
        heard = " ".join(e.get("text", "") for e in frame["events"])
        if "crashes open" in heard or "breaks open" in heard or "shatter" in heard:
            broken = True
            break
        if frame["decision"] is not None:
            frame = await agent.call("respond", **frame["decision"]["cancel"]["arguments"])
        if "door opens" in heard.lower():
            break
    assert broken, "the door never broke"
    session = agent.games.get(frame["basis"]["sessionId"])
    assert session is not None
    view = session.level()
    assert view.feature(door["x"], door["y"]) == "d"  # a doorway: no door in the frame
    beyond = (door["x"] - 1, door["y"])
    leg = await agent.call("travel", **bound(frame), mode="to", to={"x": door["x"], "y": door["y"]})
    assert leg["result"]["stopReason"] in ("arrived", "newCreature", "hpDropped", "attacked"), leg["result"]
    assert leg["result"].get("why") != "closedDoor"
    assert beyond  # the way on is the corridor past it


async def test_a_squeeze_refused_for_the_load_says_so_and_passes_once_lightened(agent: Client) -> None:
    # Seed 5's wizard-mode level: the corridor at 34,14 goes on at 35,15 past two rock corners.
    session = await agent.fixture_game(seed=5, wizard=True, role="caveman")
    await low(session, "debug.wizard", command="map")  # the corridors known, the rock around them not
    frame = frames.build(session)
    frame = await agent.call("travel", **bound(frame), mode="to", to={"x": 34, "y": 14}, maxActions=200)
    assert frame["result"]["stopReason"] == "arrived", frame["result"]
    await wizard(session, "wish", "heavy iron ball")  # 480 more: well past the 600 a squeeze allows
    frame = frames.build(session)
    leg = await agent.call("travel", **bound(frame), mode="to", to={"x": 35, "y": 15})
    result = leg["result"]
    assert (result["stopReason"], result["why"]) == ("blocked", "squeezeTooHeavy"), result
    assert result["message"] == "You are carrying too much to get through."
    assert "why squeezeTooHeavy" in text(leg)
    ball = next(item for item in leg["scene"]["inventory"] if "heavy iron ball" in item["label"])
    frame = await agent.call("use", **bound(leg), action="drop", itemId=ball["id"])
    assert "error" not in frame, frame["error"]
    leg = await agent.call("travel", **bound(frame), mode="to", to={"x": 35, "y": 15})
    assert leg["result"]["stopReason"] == "arrived", leg["result"]


async def test_quitting_asks_only_netHacks_questions_and_the_end_keeps_its_windows(agent: Client) -> None:
    frame = await agent.create(seed=3, role="valkyrie")
    frame = await agent.call("session", **bound(frame), action="quit")
    asked: list[tuple[str, str]] = []
    while frame["decision"] is not None:
        decision = frame["decision"]
        asked.append((decision["kind"], decision["prompt"]))
        frame = await agent.call("respond", **decision["reply"]["arguments"], value=True)
        assert "error" not in frame, frame["error"]
    assert frame["control"]["gate"] == "ended"
    assert {kind for kind, _ in asked} == {"confirmation"}, asked  # no "Weapons" pick-one menu
    assert ("confirmation", "Do you want your possessions identified?") in asked
    end = frame["scene"]["end"]
    windows = end["windows"]
    lines = [line for window in windows for line in window["lines"]]
    assert any("long sword" in line for line in lines), lines[:20]  # the possessions list
    assert any("attributes" in line.lower() for line in lines)  # enlightenment's title
    rendered = text(frame)
    assert "END " in rendered and all(f"| {line}" in rendered for line in lines)
