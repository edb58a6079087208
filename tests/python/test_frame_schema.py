"""test_frame_schema.py - real frames validate against the published DecisionFrame schema.

The schema (nethack_webmcp/tools/frame_schema.py) is checked with a real
JSON Schema validator (`jsonschema`, draft 2020-12; installed with the MCP
SDK the tests use) against a corpus of frames from real native games
(frame_corpus.py: every tool, legs, every decision kind, refusals, a call
past its deadline, a quit and a death to the ended game) and from the recorded driver fixtures. It
must also refuse drift: a frame with an unknown member or a word outside a
vocabulary fails. The engine's own words are held to `protocol.describe`,
and what `help` and the exporter publish is the same schema.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from frame_corpus import collect
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the test extras
from nethack_webmcp.projection import frame as frames
from nethack_webmcp.tools import BY_NAME, ToolContext, frame_schema
from nethack_webmcp.tools.equipment import SLOT_ORDER
from nethack_webmcp.tools.interact import PICKUP_MARKS
from nethack_webmcp.tools.registry import declarations
from replay import replay
from support.client import Client
from support.described import described
from support.exported import exported

pytestmark = pytest.mark.asyncio

Frame = dict[str, Any]
#: (seed, role): three characters, one of them a spellcaster (the spell menu)
SEEDS = ((3, "valkyrie"), (11, "wizard"), (5, "samurai"))
FIXTURES = ("walk", *(f"decision_{kind}" for kind in frame_schema.DECISION_KINDS))


def validator() -> Draft202012Validator:
    schema = frame_schema.schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def problems(frame: Frame) -> list[str]:
    return [f"{error.json_path}: {error.message[:200]}" for error in validator().iter_errors(frame)]


async def fixture_frames() -> list[tuple[str, Frame]]:
    """Frames projected from recorded real driver responses (no engine needed)."""
    found = []
    for name in FIXTURES:
        session = await replay(name)
        found.append((name, frames.build(session)))
        found.append((f"{name} world", frames.build(session, include_world=True)))
    return found


async def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(frame_schema.schema())
    assert frame_schema.schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


async def test_a_corpus_of_real_frames_validates(agent: Client) -> None:
    corpus = await collect(agent, SEEDS) + await fixture_frames()
    check = validator()
    invalid = {label: [e.message[:200] for e in check.iter_errors(frame)][:3] for label, frame in corpus}
    assert not {label: found for label, found in invalid.items() if found}

    # the corpus covers what the schema describes: not a few easy frames
    assert len(corpus) > 150
    kinds = {frame["decision"]["kind"] for _, frame in corpus if frame["decision"]}
    assert kinds == set(frame_schema.DECISION_KINDS)
    gates = {frame["control"]["gate"] for _, frame in corpus if frame["control"]}
    assert {"ready", "decision", "ended"} <= gates
    assert {frame["scene"]["end"]["how"] for _, frame in corpus if frame["scene"] and "end" in frame["scene"]} == {
        "quit",
        "died",
    }
    codes = {frame["error"]["code"] for _, frame in corpus if "error" in frame}
    expected = {"invalidArguments", "staleView", "notFound", "noDecision", "decisionMismatch", "invalidValue"}
    assert expected | {"decisionStanding", "unknownSession", "gameEnded", "sessionClosed", "busy"} <= codes
    statuses = {frame["outcome"]["status"] for _, frame in corpus if frame["outcome"]}
    assert {"completed", "decision", "ended", "rejected", "stopped", "running"} <= statuses
    results = {frame["result"]["kind"] for _, frame in corpus if "result" in frame}
    assert results == set(frame_schema.RESULT_KINDS)
    events = {event["type"] for _, frame in corpus for event in frame["events"]}
    assert {"heard", "passage", "creatureDied"} <= events
    assert any(frame["basis"] is None for _, frame in corpus), "sessionless frames (help, refused creation)"
    assert any(frame["scene"] and "world" in frame["scene"] for _, frame in corpus)
    assert any(frame["diagnostics"] for _, frame in corpus), "a resumed game's diagnostics"

    # every question's valueSchema is itself a JSON Schema
    for _, frame in corpus:
        if frame["decision"]:
            Draft202012Validator.check_schema(frame["decision"]["reply"]["valueSchema"])


def unknown_member(where: Callable[[Frame], Frame]) -> Callable[[Frame], None]:
    def mutate(frame: Frame) -> None:
        where(frame)["surprise"] = 1

    return mutate


def set_word(where: Callable[[Frame], Frame], key: str, value: Any) -> Callable[[Frame], None]:
    def mutate(frame: Frame) -> None:
        where(frame)[key] = value

    return mutate


MUTATIONS: dict[str, Callable[[Frame], None]] = {
    "unknown top-level member": unknown_member(lambda f: f),
    "legacy observation field": set_word(lambda f: f, "observation", {}),
    "unknown basis member": unknown_member(lambda f: f["basis"]),
    "unknown scene member": unknown_member(lambda f: f["scene"]),
    "unknown self member": unknown_member(lambda f: f["scene"]["self"]),
    "unknown vitals member": unknown_member(lambda f: f["scene"]["self"]["vitals"]),
    "unknown nearby member": unknown_member(lambda f: f["scene"]["nearby"][0]),
    "unknown map member": unknown_member(lambda f: f["scene"]["map"]),
    "unknown decision member": unknown_member(lambda f: f["decision"]),
    "unknown reply member": unknown_member(lambda f: f["decision"]["reply"]),
    "unknown diagnostics report": set_word(lambda f: f["diagnostics"], "mystery", {}),
    "version 3": set_word(lambda f: f, "version", 3),
    "gate outside the vocabulary": set_word(lambda f: f["control"], "gate", "open"),
    "terrain outside the vocabulary": set_word(lambda f: f["scene"]["nearby"][0], "terrain", "lawn"),
    "direction outside the compass": set_word(lambda f: f["scene"]["nearby"][0], "direction", "up-left"),
    "decision kind outside the vocabulary": set_word(lambda f: f["decision"], "kind", "menu"),
    "reply to another tool": set_word(lambda f: f["decision"]["reply"], "tool", "interact"),
    "hunger outside the vocabulary": set_word(lambda f: f["scene"]["self"]["vitals"], "hunger", "peckish"),
    "perception outside the vocabulary": set_word(lambda f: f["scene"]["perception"], "map", "fresh"),
    "scene kind delta": set_word(lambda f: f["scene"], "kind", "delta"),
    "inventory unknown as a string": set_word(lambda f: f["scene"], "inventory", "unknown"),
    "square off the map": set_word(lambda f: f["scene"]["self"], "position", {"x": 0, "y": 3}),
    "event type outside the vocabulary": set_word(lambda f: f, "events", [{"type": "smelled", "text": "x"}]),
    "heard event with a stray member": set_word(lambda f: f, "events", [{"type": "heard", "text": "x", "loud": 1}]),
    "outcome status outside the vocabulary": set_word(
        lambda f: f,
        "outcome",
        {
            "submission": "accepted",
            "status": "fine",
            "actionsTaken": 1,
            "turnsElapsed": 1,
            "positionChanged": False,
            "sceneChanged": False,
        },
    ),
    "result without a kind": set_word(lambda f: f, "result", {"data": 1}),
    "missing diagnostics": lambda f: f.pop("diagnostics"),
    "missing perception": lambda f: f["scene"].pop("perception"),
}


@pytest.mark.parametrize("mutation", MUTATIONS)
async def test_drift_fails_validation(mutation: str) -> None:
    """A real frame passes; the same frame with one drifted member fails."""
    session = await replay("decision_item")
    frame = frames.build(session)
    assert problems(frame) == []
    drifted = copy.deepcopy(frame)
    MUTATIONS[mutation](drifted)
    assert problems(drifted), f"{mutation}: the schema accepted it"


async def test_engine_words_are_the_drivers_own() -> None:
    """The words the schema lists for the engine equal protocol.describe's."""
    description = await described()
    capabilities = description["capabilities"]
    assert tuple(capabilities["statuses"]) == frame_schema.ENGINE_STATUSES
    assert tuple(capabilities["events"]) == frame_schema.EVENT_TYPES
    params = {m["name"]: {p["name"]: p for p in m["params"]} for m in description["methods"]}
    assert set(params["game.configurePickup"]["itemTypes"]["values"]) == set(PICKUP_MARKS.values())
    assert set(params["game.equip"]["slot"]["values"]) <= set(SLOT_ORDER)


async def test_help_publishes_the_schema() -> None:
    frame = await BY_NAME["help"].call(ToolContext(games=None), {"topic": "frame"})  # type: ignore[arg-type]
    assert "error" not in frame and problems(frame) == []
    assert frame["result"]["schema"] == frame_schema.schema()
    assert frame_schema.compact() in frame["result"]["text"], "the text channel carries it too"
    assert exported("--frame-schema") == frame_schema.schema()


async def test_no_tool_declares_an_output_schema() -> None:
    """docs/DECISIONS.md: every tool returns the same frame, and even a bare
    envelope schema per tool is over the 1 KB the issue allows."""
    assert not [d["name"] for d in declarations() if "outputSchema" in d]
    per_tool = len(json.dumps(frame_schema.schema(), separators=(",", ":")))
    assert per_tool * len(declarations()) > 1024
