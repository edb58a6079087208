"""test_render.py - the text a model reads when its client shows only text.

Pure checks on the renderer plus one real leg: JSON is never cut inside a
structure, capped lists say how much they left out, ways between levels
and altars are always listed, objects and features carry their squares,
and a leg is summarised instead of listing its steps.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from nethack_webmcp.projection.render import RESULT_CHARS, bounded_json, text
from support.client import Client, bound


def test_long_results_stay_whole_json_and_say_what_they_left_out() -> None:
    result = {
        "kind": "navigation-like",
        "frontiers": [{"x": x, "y": 5, "distance": x} for x in range(1, 80)],
        "doors": [{"x": x, "y": 9, "state": "closed"} for x in range(1, 40)],
    }
    rendered = bounded_json(result)
    assert len(rendered) <= RESULT_CHARS
    parsed = json.loads(rendered)  # whole JSON, never cut mid-structure
    assert parsed["frontiers"][-1] == f"+{79 - len(parsed['frontiers']) + 1} more"
    assert parsed["doors"][-1].endswith(" more")
    assert bounded_json({"kind": "x", "a": [1, 2]}) == '{"kind":"x","a":[1,2]}', "short results are untouched"
    frame = {"version": 2, "basis": None, "result": result}
    line = text(frame)
    assert line.startswith("result ") and json.loads(line[len("result ") :])


def scene_with(features: list[dict[str, Any]], objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "self": {"role": "Valkyrie", "position": {"x": 10, "y": 10}, "vitals": {}, "level": {}},
        "map": {"text": "", "legend": {}},
        "entities": [],
        "features": features,
        "objects": objects,
        "here": {"known": True, "items": []},
        "inventory": None,
    }


def test_stairs_and_altars_are_always_listed_and_caps_are_counted() -> None:
    doors = [{"kind": "closedDoor", "x": 11 + i, "y": 10, "distance": 1 + i} for i in range(12)]
    far = [{"kind": "stairsDown", "x": 70, "y": 18, "distance": 60}, {"kind": "altar", "x": 75, "y": 2, "distance": 65}]
    objects = [{"mark": "%", "shows": "object (food)", "x": 12 + i, "y": 11, "distance": 2 + i} for i in range(10)]
    rendered = text({"version": 2, "basis": None, "scene": scene_with(doors + far, objects)})
    features = next(line for line in rendered.splitlines() if line.startswith("features: "))
    assert "stairsDown 70,18" in features and "altar 75,2" in features
    # the scene lists at most 12 features (plus ways and altars): the text shows them all (issue 23)
    assert "closedDoor 22,10" in features and "more" not in features
    objects_line = next(line for line in rendered.splitlines() if line.startswith("objects: "))
    assert objects_line.startswith("objects: % food 12,11; % food 13,11") and "more" not in objects_line
    many = [{"mark": "%", "shows": "object (food)", "x": 12 + i, "y": 12, "distance": 2 + i} for i in range(14)]
    capped = text({"version": 2, "basis": None, "scene": scene_with(doors, many)})
    assert next(line for line in capped.splitlines() if line.startswith("objects: ")).endswith("; +2 more")


@pytest.mark.asyncio
async def test_a_leg_is_summarised_not_listed(agent: Client) -> None:
    created = await agent.create(seed=42)
    frame = await agent.call("travel", **bound(created), mode="explore")
    leg = frame["result"]
    assert leg["steps"], "the leg moved"
    rendered = text(frame)
    assert '"steps"' not in rendered
    start, end = leg["start"], leg["finalPosition"]
    assert (
        f"leg explore: {leg['stopReason']} after {leg['actionsTaken']} moves, "
        f"{start['x']},{start['y']} -> now {end['x']},{end['y']}"
    ) in rendered
    navigation = await agent.call("plan", sessionId=created["basis"]["sessionId"], query="navigation")
    shown = text(navigation)
    for door in navigation["result"]["doors"]:
        assert f"{door['x']},{door['y']} " in shown
