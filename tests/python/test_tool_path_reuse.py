"""test_tool_path_reuse.py - what a call reuses from the last one is what it would have computed.

The tool path (docs/BENCHMARKS.md, "The stdio tool path") keeps five things
between calls instead of deriving them again: the state hash of an observe
response equal to the last one, the `scene.map` of a picture already drawn
(projection.mapview) and the view-only parts of a scene of a view already
drawn (projection.scene.drawn_from), a step's `before` snapshot when nothing was applied
since the last `after` (session.snapshot), and an observe's picture when it
is the merged memory's own view (navigation.level.WorldTracker). Each is
checked here against the same value computed from scratch, on live native
games.
"""

from __future__ import annotations

from typing import Any

import pytest
from nethack_webmcp.navigation.level import LevelView
from nethack_webmcp.projection import mapview, scene
from nethack_webmcp.session.session import state_hash
from support.client import Client, bound

pytestmark = pytest.mark.asyncio


def drawn_afresh(level: LevelView) -> dict[str, Any]:
    """scene.map computed without the picture cache."""
    occupied = mapview._occupied(level)
    return mapview._render.__wrapped__(
        level.marks, level.terrain_marks, level.kinds, level.features, level.hero, occupied
    )


def view_parts_afresh(level: LevelView) -> dict[str, Any]:
    """The scene's view-only parts computed without scene.drawn_from's cache."""
    return {
        "nearby": scene.nearby(level),
        "entities": scene.entities(level),
        "features": scene.features(level),
        "objects": scene.objects(level),
        "map": drawn_afresh(level),
    }


def view_parts(frame: dict[str, Any]) -> dict[str, Any]:
    return {key: frame["scene"][key] for key in ("nearby", "entities", "features", "objects", "map")}


async def engine_state_hash(agent: Client, session_id: str) -> str:
    session = agent.games.get(session_id)
    response = await session.engine.request(
        {"version": 1, "method": "session.observe", "params": {"sessionId": session_id}}
    )
    return state_hash(response)


async def test_repeated_observe_keeps_the_hash_of_an_equal_response(agent: Client) -> None:
    created = await agent.create(seed=42)
    sid = created["basis"]["sessionId"]
    first = await agent.ok("observe", sessionId=sid)
    second = await agent.ok("observe", sessionId=sid)
    assert first["result"]["stateHash"] == second["result"]["stateHash"] == await engine_state_hash(agent, sid)
    observed = agent.games.get(sid).level().observed  # what an observe frame shows
    assert observed is not None
    assert second["scene"]["map"] == first["scene"]["map"] == drawn_afresh(observed)

    searched = await agent.ok("interact", **bound(second), action="search")
    assert searched["outcome"]["submission"] == "accepted"
    third = await agent.ok("observe", sessionId=sid)
    assert third["result"]["stateHash"] != first["result"]["stateHash"]
    assert third["result"]["stateHash"] == await engine_state_hash(agent, sid)


async def test_every_frame_view_parts_equal_a_fresh_drawing(agent: Client) -> None:
    created = await agent.create(seed=7)
    sid = created["basis"]["sessionId"]
    frame = created
    compass = ["west", "north", "east", "south"]
    shortcuts = 0
    for number in range(24):
        if frame.get("decision"):
            frame = await agent.ok("respond", **frame["decision"]["cancel"]["arguments"])
        elif number % 4 == 3:
            frame = await agent.ok("observe", sessionId=sid)
            tracker = agent.games.get(sid).state.tracker
            level = tracker.view()
            assert level.observed is not None and tracker._observed is not None
            # the observe's picture, kept or built, is the one built from its own rows
            memory = tracker._levels[level.level_id]
            assert level.observed == tracker._observed_view(memory, tracker._observed)
            shortcuts += level.observed is tracker._memory_view
            assert view_parts(frame) == view_parts_afresh(level.observed)
            continue
        elif number % 2:
            frame = await agent.call("travel", **bound(frame), mode="explore")
        else:
            frame = await agent.call("travel", **bound(frame), mode="step", target={"direction": compass[number % 4]})
        assert view_parts(frame) == view_parts_afresh(agent.games.get(sid).level())
    assert shortcuts > 0  # the memory's own view was shown without building another


async def test_a_step_before_snapshot_is_the_last_after_recomputed(agent: Client) -> None:
    created = await agent.create(seed=42)
    session = agent.games.get(created["basis"]["sessionId"])
    kept = session.snapshot()
    assert session.snapshot() is kept  # nothing applied: the same facts, not digested again
    session._snapshot = None
    assert session.snapshot() == kept  # recomputed from scratch: equal

    searched = await agent.ok("interact", **bound(created), action="search")
    after = session.snapshot()
    assert after.revision == searched["basis"]["revision"] != kept.revision
    session._snapshot = None
    assert session.snapshot() == after


async def test_a_view_changed_only_in_turn_reuses_the_last_drawing(agent: Client) -> None:
    """A search that moved nothing draws what the last frame drew (scene.same_picture):
    every frame's parts still equal a fresh drawing, and the reuse is taken."""
    created = await agent.create(seed=42)
    frame = created
    reused = 0
    previous: LevelView | None = None
    for _ in range(60):
        if frame.get("decision"):
            frame = await agent.ok("respond", **frame["decision"]["cancel"]["arguments"])
            continue
        frame = await agent.ok("interact", **bound(frame), action="search")
        level = agent.games.get(created["basis"]["sessionId"]).level()
        assert view_parts(frame) == view_parts_afresh(level)
        if previous is not None and previous is not level and scene.same_picture(previous, level):
            assert previous.turn != level.turn  # a new view, a later turn, the same picture
            assert scene.drawn_from(level) is scene.drawn_from(previous)
            reused += 1
        previous = level
    assert reused > 0
