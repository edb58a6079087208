"""test_text_completeness.py - the text content carries what docs/AGENT_PLAY.md says it carries.

Most MCP clients show a model only the text. Over a corpus of real frames
(frame_corpus.py: every tool, legs, every decision kind, refusals, a quit
and a death to the ended game), every fact on the list in AGENT_PLAY.md
"The text content" must appear in the frame's text rendering whenever the
frame's structure has it. Each check names the fact; a frame that drops
one fails the test with the frame's label.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from frame_corpus import collect
from nethack_webmcp.projection.render import text
from support.client import Client

Frame = dict[str, Any]
SEEDS = ((3, "valkyrie"), (11, "wizard"))


def at(entry: dict[str, Any]) -> str:
    return f"{entry['x']},{entry['y']}"


def _binding(frame: Frame) -> Iterator[str]:
    if frame.get("basis"):
        basis = frame["basis"]
        yield f"viewId {basis['viewId']} revision {basis['revision']} turn {basis['turn']}"
        yield f"gate {frame['control']['gate']}"


def _error(frame: Frame) -> Iterator[str]:
    error = frame.get("error")
    if error:
        yield f"ERROR {error['code']}: {error['message']}"
        for candidate in error.get("candidates") or ():
            if isinstance(candidate, dict) and "x" in candidate:
                yield at(candidate)


def _events(frame: Frame) -> Iterator[str]:
    for event in frame.get("events") or ():
        if event["type"] == "heard":
            yield event["text"]
        elif event["type"] == "passage":
            yield from (line for line in event["lines"] if line.strip())
        elif event["type"] == "attacked":
            yield f"attacked ({event['by']})"
        elif event["type"] == "creatureDied" and "x" in event:
            yield f"died at {at(event)}"


def _scene(frame: Frame) -> Iterator[str]:
    scene = frame.get("scene")
    if not scene:
        return
    me = scene["self"]
    yield f"at {at(me['position'])}"
    vitals = me["vitals"]
    yield f"HP {vitals['hp']}/{vitals['hpMax']}"
    if me["level"].get("dungeon"):
        yield me["level"]["dungeon"]  # the branch
    yield scene["map"]["text"]
    for entity in scene["entities"]:
        yield f"at {at(entity)}"
    for item in scene.get("objects") or ():
        yield at(item)
    for feature in scene["features"]:
        yield f"{feature['kind']}{' (' + feature['trap'] + ')' if feature.get('trap') else ''} {at(feature)}"
    for item in (scene["here"].get("items") or ()) if scene["here"].get("known") else ():
        yield f"{item['id']} {item['label']}"
    for item in scene["inventory"] or ():
        yield f"{item['id']} {item['label']}"
    end = scene.get("end")
    if end:
        yield f'"how":"{end["how"]}"'
        for window in end.get("windows") or ():
            yield from (f"| {line}" for line in window["lines"])


def _decision(frame: Frame) -> Iterator[str]:
    decision = frame.get("decision")
    if decision:
        yield f"QUESTION {decision['id']} ({decision['kind']}): {decision['prompt']}"
        for option in decision.get("options", ()):
            yield f"[{option['id']}] {option['name']}"
        yield '"decisionId":"' + decision["id"] + '"'


def _result(frame: Frame) -> Iterator[str]:
    result = frame.get("result")
    if not result:
        return
    kind = result["kind"]
    if kind == "leg":
        yield f"{result['stopReason']} after {result['actionsTaken']} moves"
        if result.get("why"):
            yield f"why {result['why']}"
        if result.get("message"):
            yield result["message"]
        for door in result.get("closedDoors", ()):
            yield from _door(door)
        for entry in (*result.get("deadEnds", ()), *result.get("searchSpots", ())):
            yield at(entry)
        if result.get("blockedBy"):
            yield f"blocked by a creature at {at(result['blockedBy'])}"
    elif kind == "navigation":
        for door in result["doors"]:
            yield from _door(door)
        for entry in (*result["deadEnds"], *result["searchSpots"]):
            yield at(entry)
        for way in (*result["waysDown"], *result["waysUp"]):
            yield at(way)
    elif kind == "wayOn":
        if result.get("blockedBy"):
            yield f"blocked by a creature at {at(result['blockedBy'])}"
        for option in result["options"]:
            yield f"{option['kind']} {at(option)}"
            yield option["reason"]
            yield json.dumps(option["next"]["arguments"], separators=(",", ":"))
        for spot in result["searchSpots"]:
            yield f"{at(spot)} d{spot['distance']}"
            yield f"score {spot['score']}"
            yield f"searched {spot['searched']}"
        for push in result["pushes"]:
            yield f"boulder {at(push['boulder'])} from {at(push)} push {push['direction']}"
        for trap in result["trapDoors"]:
            yield f"{trap['type']} {at(trap)}"
    elif kind == "inventory" and result.get("known"):
        for item in result["items"]:
            yield f"{item['id']} {item['letter']} - {item['label']}"
    elif kind == "neighborhood" and result.get("cells"):
        adjacent = next(line for line in text(frame).splitlines() if line.startswith("adjacent: "))
        cells = [c for c in result["cells"] if max(abs(c["dx"]), abs(c["dy"])) == 1]
        for cell in cells:
            assert at(cell) in adjacent, f"adjacent square {at(cell)} missing from {adjacent!r}"
        yield "adjacent: "
    elif kind == "route" and result.get("distance") is not None:
        yield " ".join(step["direction"] for step in result["steps"])


def _door(door: dict[str, Any]) -> Iterator[str]:
    yield at(door)
    if "approach" in door:
        yield f"from {at(door['approach'])} push {door['direction']}"


def _resume(frame: Frame) -> Iterator[str]:
    resume = (frame.get("diagnostics") or {}).get("resume")
    if isinstance(resume, dict) and "replayed" in resume:
        yield f"resumed by replay: {resume['replayed']} inputs"


#: The facts the text carries (docs/AGENT_PLAY.md, "The text content"), each read from the structure.
FACTS: dict[str, Callable[[Frame], Iterator[str]]] = {
    "binding": _binding,
    "error": _error,
    "events": _events,
    "scene": _scene,
    "decision": _decision,
    "result": _result,
    "resume": _resume,
}


def missing(frame: Frame, render: Callable[[Frame], str] = text) -> dict[str, list[str]]:
    rendered = render(frame)
    found: dict[str, list[str]] = {}
    for name, facts in FACTS.items():
        absent = [fact.replace("?", "") for fact in facts(frame) if fact not in rendered]
        if absent:
            found[name] = absent[:3]
    return found


@pytest.mark.asyncio
async def test_every_frame_of_the_corpus_carries_its_facts_in_text(agent: Client) -> None:
    corpus = await collect(agent, SEEDS)
    assert len(corpus) > 100
    dropped = {label: found for label, frame in corpus if (found := missing(frame))}
    assert not dropped, dropped
    # the corpus exercises what the list names: not a few easy frames
    kinds = {frame["result"]["kind"] for _, frame in corpus if frame.get("result")}
    assert {"leg", "navigation", "inventory", "neighborhood", "route", "wayOn"} <= kinds
    assert any(frame["scene"] and frame["scene"].get("end", {}).get("windows") for _, frame in corpus)
    assert any(frame.get("error", {}) and frame["error"]["code"] == "staleView" for _, frame in corpus)


def test_a_frame_that_drops_a_fact_fails() -> None:
    """The check itself can fail: a rendering that leaves out a leg's advice is caught."""
    frame: Frame = {
        "version": 2,
        "basis": None,
        "result": {
            "kind": "leg",
            "mode": "explore",
            "stopReason": "noFrontier",
            "actionsTaken": 0,
            "finalPosition": {"x": 3, "y": 3},
            "deadEnds": [{"x": 9, "y": 4, "distance": 6}],
            "searchSpots": [],
        },
    }
    assert missing(frame) == {}
    without_advice = missing(frame, lambda f: text(f).split("\ndeadEnds")[0])
    assert without_advice == {"result": ["9,4"]}
    frame["result"]["closedDoors"] = [{"x": 5, "y": 5}]
    frame["result"]["deadEnds"].append({"x": 11, "y": 12, "distance": 7})
    assert missing(frame) == {}
    rendered = text(frame)
    assert "9,4" in rendered and "11,12" in rendered and "closedDoors: 5,5" in rendered
    frame["error"] = {"code": "ambiguous", "message": "2 squares show 'd'", "candidates": [{"x": 4, "y": 4}]}
    assert "4,4" in text(frame)
    frame["scene"] = None
    frame["events"] = [{"type": "heard", "text": "The gnome lord hits!"}, {"type": "attacked", "by": "melee"}]
    assert missing(frame) == {}


def test_a_way_on_text_that_drops_an_option_or_its_call_fails() -> None:
    """A plan wayOn text must carry every option with its next call's exact arguments."""
    option = {
        "kind": "search",
        "x": 20,
        "y": 3,
        "distance": 0,
        "spot": "deadEnd",
        "undiscovered": 120,
        "searched": 5,
        "score": 111,
        "turns": 15,
        "reason": "a dead-end corridor facing 120 undiscovered squares, searched 5 turns",
        "next": {"tool": "interact", "arguments": {"action": "search", "turns": 15}},
    }
    spot = {key: value for key, value in option.items() if key not in ("kind", "next")}
    frame: Frame = {
        "version": 2,
        "basis": None,
        "result": {
            "kind": "wayOn",
            "stuck": True,
            "options": [option],
            "searchSpots": [spot],
            "pushes": [],
            "trapDoors": [],
        },
    }
    assert missing(frame) == {}
    assert missing(frame, lambda f: text(f).replace('{"action":"search","turns":15}', "")) == {
        "result": ['{"action":"search","turns":15}']
    }
