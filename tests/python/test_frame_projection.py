"""test_frame_projection.py - DecisionFrame v2 from recorded real driver responses.

The fixtures were recorded from the native driver (record_fixtures.py) and
are replayed through a Session, so these tests check the projection alone.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.projection.outcome import from_steps
from nethack_webmcp.projection.world import rows as world_rows
from nethack_webmcp.tools import schema as checker
from replay import replay

pytestmark = pytest.mark.asyncio

FRAME_KEYS = {"version", "basis", "control", "outcome", "scene", "decision", "events", "diagnostics"}
SCENE_KEYS = {
    "kind",
    "self",
    "nearby",
    "entities",
    "features",
    "objects",
    "map",
    "inventory",
    "here",
    "automaticPickup",
    "perception",
}
KINDS = ["confirmation", "choice", "text", "direction", "item", "position"]

# value examples that each kind's valueSchema must accept, and ones it must refuse
GOOD_VALUES: dict[str, list[Any]] = {
    "confirmation": [True, False],
    "choice": [[0], ["2 apples"], [0, 1]],
    "text": ["Elbereth"],
    "direction": ["north", "self", "down"],
    "item": [{"itemId": "item-4"}],
    "position": [{"x": 40, "y": 12}, "finish", "help", "west"],
}
BAD_VALUES: dict[str, list[Any]] = {
    "confirmation": ["yes", 1],
    "choice": [[], [7], "0"],
    "text": [3, "x" * 129],
    "direction": ["up-left", 4],
    "item": ["item-4", {"itemId": "item-4", "quantity": 2}, "hands"],
    "position": [{"x": 0, "y": 3}, {"x": 3}, "stay"],
}


def size(frame: dict[str, Any]) -> int:
    return len(json.dumps(frame, separators=(",", ":")))


def map_rows(frame: dict[str, Any]) -> dict[int, str]:
    """y -> the row's drawn marks, indexed by x, from scene.map.text."""
    view = frame["scene"]["map"]
    lines = view["text"].split("\n")
    x0 = view["bounds"]["x0"]
    rows = {}
    for line in lines[2:]:
        y = int(line[:2])
        rows[y] = " " * x0 + line[3:]
    return rows


@pytest.mark.parametrize("kind", KINDS)
async def test_standing_decision_carries_its_reply(kind: str) -> None:
    session = await replay(f"decision_{kind}")
    frame = frames.build(session)
    low = session.decision
    assert low is not None
    assert frame["control"] == {"gate": "decision"}
    decision = frame["decision"]
    assert decision["id"] == low["id"] and decision["kind"] == kind and decision["prompt"] == low["prompt"]
    assert decision["reply"]["tool"] == "respond"
    assert decision["reply"]["arguments"] == {
        "action": "answer",
        "sessionId": session.session_id,
        "decisionId": low["id"],
    }
    assert decision["cancel"] == {
        "tool": "respond",
        "arguments": {"action": "cancel", "sessionId": session.session_id, "decisionId": low["id"]},
    }
    schema = decision["reply"]["valueSchema"]
    assert not checker.unsupported_keywords(schema)
    for value in GOOD_VALUES[kind]:
        assert not checker.errors(schema, value), (kind, value)
    for value in BAD_VALUES[kind]:
        assert checker.errors(schema, value), (kind, value)


async def test_kind_specific_decision_fields() -> None:
    choice = frames.build(await replay("decision_choice"))["decision"]
    assert choice["select"] == "any"
    assert [(o["id"], o["name"]) for o in choice["options"]] == [(0, "a +0 dagger"), (1, "2 apples")]
    assert choice["reply"]["valueSchema"]["maxItems"] == 2
    item = frames.build(await replay("decision_item"))["decision"]
    assert item["suggestedItems"] == [{"itemId": "item-4", "label": "an uncursed food ration"}]
    assert "suggested" not in item
    position = frames.build(await replay("decision_position"))["decision"]
    assert position["mode"] == "select" and position["cursor"] == {"x": 50, "y": 5}
    text = frames.build(await replay("decision_text"))["decision"]
    assert text["reply"]["valueSchema"] == {"type": "string", "maxLength": 128}


async def test_frame_envelope_has_no_legacy_fields() -> None:
    session = await replay("walk")
    frame = frames.build(session)
    assert set(frame) == FRAME_KEYS
    assert frame["version"] == 2
    assert set(frame["scene"]) == SCENE_KEYS
    basis = frame["basis"]
    assert basis == {
        "sessionId": "fixture-walk",
        "revision": session.revision,
        "viewId": session.view_id,
        "levelId": "d0-l1",
        "turn": session.observation["turn"],
    }
    assert frame["scene"]["automaticPickup"] == {"enabled": False}
    assert frame["scene"]["perception"] == {
        "map": "current",
        "inventory": "current",
        "equipment": "current",
        "here": "current",
    }
    for legacy in ("state", "observation", "messages", "context", "reply"):
        assert legacy not in frame


async def test_map_text_rulers_symbols_and_legend_agree() -> None:
    session = await replay("walk")
    frame = frames.build(session)
    view = frame["scene"]["map"]
    lines = view["text"].split("\n")
    xs = range(view["bounds"]["x0"], view["bounds"]["x1"] + 1)
    assert lines[0] == "   " + "".join(str(x // 10) for x in xs)
    assert lines[1] == "   " + "".join(str(x % 10) for x in xs)
    rows = map_rows(frame)
    assert sorted(rows) == list(range(view["bounds"]["y0"], view["bounds"]["y1"] + 1))
    level = session.level()
    for y, row in rows.items():
        for x in xs:
            drawn = row[x] if x < len(row) else " "
            assert drawn == level.mark(x, y), (x, y)  # exactly the display, blank stays blank
    hero = view["hero"]
    assert rows[hero["y"]][hero["x"]] == "@"
    for mark, positions in view["symbols"].items():
        for x, y in positions:
            assert rows[y][x] == mark
    shown = {ch for row in rows.values() for ch in row if ch != " "}
    assert set(view["legend"]) == shown, "the legend explains exactly the marks shown"
    assert view["legend"]["@"] == "you"


async def test_unknown_terrain_is_never_floor() -> None:
    session = await replay("walk")
    frame = frames.build(session)
    level = session.level()
    for cell in frame["scene"]["nearby"]:
        if level.feature(cell["x"], cell["y"]) == " " and not level.was_visited(cell["x"], cell["y"]):
            assert cell["terrain"] == "unknown" and cell["walkable"] is None, cell
    here = frame["scene"]["here"]
    if level.feature(*level.hero) == " ":
        assert "terrain" not in here


async def test_scene_lists_entities_features_and_inventory() -> None:
    seen: list[dict[str, Any]] = []

    def with_the_dog_in_view(session: Any, result: Any) -> None:
        if session.observation.get("entities"):
            seen.append(frames.build(session)["scene"])

    session = await replay("walk", with_the_dog_in_view)
    kinds = {(e["kind"], e.get("appearance")) for e in seen[-1]["entities"]}
    assert ("ally", "little dog") in kinds
    scene = frames.build(session)["scene"]
    for entity in scene["entities"]:
        assert entity["distance"] >= 1
        if entity["distance"] == 1:
            assert entity["direction"]
    assert any((f["kind"], f["x"], f["y"]) == ("stairsUp", 59, 6) for f in scene["features"])
    distances = [f["distance"] for f in scene["features"]]
    assert distances == sorted(distances)
    assert [i["id"] for i in scene["inventory"]] == ["item-1", "item-2", "item-3", "item-4"]
    assert scene["self"]["role"] == "Barbarian" and scene["self"]["vitals"]["hpMax"] > 0
    assert len(scene["nearby"]) == 8


async def test_routine_frames_are_compact() -> None:
    sizes: list[int] = []

    def each(session: Any, result: Any) -> None:
        frame = frames.build(session, outcome=from_steps([result], operation_id="op"), events=result.events)
        sizes.append(size(frame))

    await replay("walk", each)
    assert len(sizes) >= 20
    assert statistics.median(sizes) <= 6 * 1024, sizes


async def test_observe_frame_adds_the_full_world_only() -> None:
    session = await replay("walk")
    routine = frames.build(session)
    observed = frames.build(session, include_world=True)
    assert "world" not in routine["scene"]
    world = observed["scene"]["world"]
    assert world["encoding"] == "spans-v1"  # only the rows that show anything, each its span
    full = world_rows(world)
    assert [row["y"] for row in full] == list(range(21))
    assert all(
        len(row[layer]) == 80
        for row in full
        for layer in ("marks", "colors", "kinds", "terrain", "features", "visible")
    )
