"""frame_schema.py - the JSON Schema (draft 2020-12) of the DecisionFrame v2 every tool returns.

One source: the schema is built here from the vocabularies the projection,
navigation, session and tools themselves use (geometry, terrain types,
glyph kinds, the gate, submissions, stop reasons, equipment slots, pickup
types, the decision kinds' value schemas' words) and from the engine's own
vocabulary (engine/vocabulary.py, protocol.describe's), so a new word in
one of them is a new word here. `help {"topic":"frame"}` returns it and the build
exports it (`python -m nethack_webmcp.tools.export --frame-schema`, the
site's decision-frame.schema.json). tests/python/test_frame_schema.py
validates a corpus of frames from real games against it with a real JSON
Schema validator; tests/python/test_vocabulary_copies.py holds the engine's
vocabulary to `protocol.describe`.

Closed where the frame's shape is closed (every object the projection
builds: additionalProperties false), open where the content is another
layer's query data: `result` is typed by its `kind` only, `error` carries
per-code details, diagnostics' reports are objects, the end's knowledge is
the engine's. Words the engine writes (statuses, events, decision kinds,
hunger, burden, how a game ended, item categories, attitudes) are the
engine vocabulary's lists, never typed here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any, Final, get_args

from ..engine.vocabulary import words as engine_words
from ..geometry import COMPASS_NAMES, MAP_ROWS, MAP_WIDTH, POSITION_BOUNDS
from ..navigation import STOP_REASONS
from ..navigation.level import _OCCUPANT_KINDS
from ..navigation.terrain import _HAZARDS, TERRAIN_TYPES, Freshness
from ..projection import frame as frames
from ..projection import world as world_encoding
from ..projection.vocabulary import POINT_FEATURES
from ..session.gate import Gate
from ..session.session import Submission
from . import listing
from .equipment import SLOT_ORDER
from .interact import PICKUP_MARKS

SCHEMA_ID: Final = "urn:nethack-webmcp:decision-frame:2"

#: The engine's outcome statuses.
ENGINE_STATUSES: Final = engine_words("statuses")
#: Statuses the adapter adds: refused before input, an uncertain step,
#: an operation past its deadline, a leg that stopped short of its goal.
ADAPTER_STATUSES: Final = ("rejected", "unknown", "running", "stopped")
#: An operation past its deadline whose inputs are not known taken yet (tools/base.running_frame).
PENDING: Final = "pending"
#: Event types.
EVENT_TYPES: Final = engine_words("events")
#: What an attacked event says attacked the hero.
ATTACKS: Final = engine_words("attackKinds")
#: Decision kinds, each with its own value schema (projection/decision.value_schema).
DECISION_KINDS: Final = engine_words("decisionKinds")
#: `result.kind` of each tool's query data.
RESULT_KINDS: Final = (
    "session",
    "observe",
    "help",
    "inventory",
    "equipment",
    "squareOffers",
    "itemOffers",
    "route",
    "navigation",
    "neighborhood",
    "wayOn",
    "lore",
    "lookup",
    "leg",
    "sessions",
)
#: `diagnostics` reports (session.diagnostics, durability, recovery, resume).
DIAGNOSTICS: Final = ("storage", "ownership", "recovery", "resume")
#: Perceived attitude, disclosed only for a visible, undisguised creature.
ATTITUDES: Final = engine_words("attitudes")
#: neighborhood movement intents and the one proven restriction (navigation/neighborhood.py).
INTENTS: Final = ("attack", "displaceAlly", "possiblePush", "openDoor", "step")
BLOCKED_REASONS: Final = ("intactDoorDiagonal",)
#: The driver's vitals, endings and item categories.
HUNGER: Final = engine_words("hunger")
BURDEN: Final = engine_words("burden")
ENDINGS: Final = engine_words("endReasons")
CATEGORIES: Final = engine_words("itemCategories")
#: `scene.perception` freshness: the terrain words plus the last scene of a lost engine.
PERCEPTION: Final = ("current", "unknown", "lastKnown")


# ---- building blocks ---------------------------------------------------------


def closed(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with exactly these members: the required ones always, the optional ones when known."""
    schema: dict[str, Any] = {"type": "object", "properties": {**required, **(optional or {})}}
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def words(values: Iterable[str]) -> dict[str, Any]:
    """A string from a vocabulary, each word once, in the vocabulary's order."""
    return {"type": "string", "enum": list(dict.fromkeys(values))}


def array(items: dict[str, Any], **limits: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **limits}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


INTEGER: Final = {"type": "integer"}
COUNT: Final = {"type": "integer", "minimum": 0}
STRING: Final = {"type": "string"}
BOOLEAN: Final = {"type": "boolean"}
OBJECT: Final = {"type": "object"}
MARK: Final = {"type": "string", "minLength": 1, "maxLength": 1}


def definitions() -> dict[str, Any]:
    """Shapes used in more than one place."""
    terrain = [*TERRAIN_TYPES.values(), "unknown"]
    return {
        # tools/base.ID_RULE: every opaque ID the adapter mints or passes on
        "token": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,96}$"},
        "position": closed(
            {
                axis: {"type": "integer", "minimum": low, "maximum": high}
                for axis, (low, high) in POSITION_BOUNDS.items()
            }
        ),
        "direction": words(COMPASS_NAMES),
        "terrain": words(terrain),
        "attitude": words(ATTITUDES),
        "occupantKind": words(_OCCUPANT_KINDS.values()),
        "category": words(CATEGORIES),
        "call": closed({"tool": STRING, "arguments": OBJECT}),
    }


# ---- the parts of a frame ----------------------------------------------------------


def basis() -> dict[str, Any]:
    return closed(
        {
            "sessionId": ref("token"),
            "revision": COUNT,
            "viewId": ref("token"),
            "levelId": nullable(STRING),
            "turn": nullable(COUNT),
        }
    )


def outcome() -> dict[str, Any]:
    return closed(
        {
            "submission": words([*get_args(Submission), PENDING]),
            "status": words([*ENGINE_STATUSES, *ADAPTER_STATUSES]),
            "actionsTaken": COUNT,
            "turnsElapsed": COUNT,
            "positionChanged": BOOLEAN,
            "sceneChanged": BOOLEAN,
        },
        {"operationId": ref("token")},
    )


def vitals() -> dict[str, Any]:
    numbers = ("hp", "hpMax", "energy", "energyMax", "ac", "level", "experience", "gold")
    attributes = ("dexterity", "constitution", "intelligence", "wisdom", "charisma")
    return closed(
        {
            **dict.fromkeys(numbers, INTEGER),
            "strength": STRING,  # "18/50" as the status line shows it
            **dict.fromkeys(attributes, INTEGER),
            "alignment": words(engine_words("alignments")),
            "hunger": words(HUNGER),
            "hungerLabel": STRING,
            "burden": words(BURDEN),
            "burdenLabel": STRING,
            "condition": array(STRING, uniqueItems=True),
        }
    )


def self_view() -> dict[str, Any]:
    identity = dict.fromkeys(("name", "role", "race", "gender", "alignment"), STRING)
    level = closed(
        {"id": nullable(STRING), "dungeon": nullable(STRING), "depth": nullable(INTEGER), "label": nullable(STRING)}
    )
    return closed({"position": nullable(ref("position")), "level": level, "vitals": nullable(vitals())}, identity)


def nearby_cell() -> dict[str, Any]:
    occupant = closed(
        {"kind": ref("occupantKind"), "mark": STRING}, {"appearance": STRING, "attitude": ref("attitude")}
    )
    shown_object = closed({"mark": STRING}, {"kind": words(["boulder", "statue"])})
    stale: list[str] = [word for word in get_args(Freshness) if word != "current"]  # current is omitted
    return closed(
        {"x": INTEGER, "y": INTEGER},
        {
            "direction": ref("direction"),
            "inBounds": {"const": False},  # present only off the map
            "terrain": ref("terrain"),
            "freshness": words(stale),
            "walkable": {"type": ["boolean", "null"]},
            "occupant": occupant,
            "objects": array(shown_object, minItems=1),
            "hazards": array(words(dict.fromkeys(_HAZARDS.values())), minItems=1, uniqueItems=True),
            "intent": words(INTENTS),
            "requiresSqueeze": {"const": True},
            "blocked": words(BLOCKED_REASONS),
        },
    )


def entity() -> dict[str, Any]:
    return closed(
        {"x": INTEGER, "y": INTEGER, "kind": ref("occupantKind"), "mark": STRING, "distance": COUNT},
        {"appearance": STRING, "attitude": ref("attitude"), "direction": ref("direction")},
    )


def feature() -> dict[str, Any]:
    return closed(
        {
            "kind": words(TERRAIN_TYPES[code] for code in TERRAIN_TYPES if code in POINT_FEATURES),
            "x": INTEGER,
            "y": INTEGER,
            "distance": COUNT,
        },
        {"orientation": words(["vertical", "horizontal"]), "remembered": {"const": True}, "trap": STRING},
    )


def shown_object() -> dict[str, Any]:
    return closed({"mark": MARK, "shows": STRING, "x": INTEGER, "y": INTEGER, "distance": COUNT})


def map_view() -> dict[str, Any]:
    x_bound = {"type": "integer", "minimum": POSITION_BOUNDS["x"][0], "maximum": POSITION_BOUNDS["x"][1]}
    y_bound = {"type": "integer", "minimum": POSITION_BOUNDS["y"][0], "maximum": POSITION_BOUNDS["y"][1]}
    square = {"type": "array", "prefixItems": [x_bound, y_bound], "items": False, "minItems": 2}
    marks = {"minLength": 1, "maxLength": 1}
    return closed(
        {
            "text": STRING,
            "bounds": closed({"x0": x_bound, "x1": x_bound, "y0": y_bound, "y1": y_bound}),
            "hero": ref("position"),
            "legend": {"type": "object", "propertyNames": marks, "additionalProperties": STRING},
            "symbols": {"type": "object", "propertyNames": marks, "additionalProperties": array(square, minItems=1)},
        },
        {"symbolsTruncated": {"type": "object", "propertyNames": marks, "additionalProperties": COUNT}},
    )


def carried_item() -> dict[str, Any]:
    return closed(
        {"id": ref("token"), "letter": MARK, "label": STRING, "quantity": COUNT, "category": ref("category")},
        {"equipmentSlots": array(words(SLOT_ORDER), uniqueItems=True)},
    )


def here() -> dict[str, Any]:
    floor_item = closed({"id": ref("token"), "label": STRING, "quantity": COUNT, "category": ref("category")})
    return closed({"known": BOOLEAN}, {"items": array(floor_item), "terrain": ref("terrain"), "trap": STRING})


def automatic_pickup() -> dict[str, Any]:
    patterns = array({"type": "string", "minLength": 1, "maxLength": 64}, maxItems=16)
    return closed(
        {"enabled": BOOLEAN},
        {
            "itemTypes": array(words(PICKUP_MARKS.values()), uniqueItems=True),
            "arrows": BOOLEAN,
            "leaveCorpses": BOOLEAN,
            "leaveKnownCursed": BOOLEAN,
            "lootPatterns": patterns,
            "ignorePatterns": patterns,
        },
    )


def end() -> dict[str, Any]:
    knowledge = closed(
        {},
        {
            "spells": array(OBJECT),
            "skills": array(OBJECT),
            "levels": array(OBJECT),
            "conduct": OBJECT,
            "achievements": {"type": ["array", "object"]},
        },
    )
    return closed(
        {"how": words(ENDINGS), "depth": INTEGER, "deepest": INTEGER, "knowledge": knowledge},
        {"score": INTEGER, "turn": INTEGER, "death": STRING, "windows": array(closed({"lines": array(STRING)}))},
    )


def world() -> dict[str, Any]:
    """spans-v1 (projection/world.py): per row that shows anything, its span x0.. of
    equal-length layer strings; every other cell is the layer's `blank`."""
    cells = {"type": "string", "minLength": 1, "maxLength": MAP_WIDTH}
    span = closed(
        {
            "y": {"type": "integer", "minimum": 0, "maximum": MAP_ROWS - 1},
            "x0": {"type": "integer", "minimum": 0, "maximum": MAP_WIDTH - 1},
            **dict.fromkeys(world_encoding.LAYERS, cells),
        }
    )
    blank = closed(
        {layer: {"const": cell} for layer, cell in world_encoding.BLANK.items()},
    )
    return closed(
        {
            "levelId": STRING,
            "encoding": {"const": world_encoding.ENCODING},
            "blank": blank,
            "rows": array(span, maxItems=MAP_ROWS),
        }
    )


def scene() -> dict[str, Any]:
    perception = closed(dict.fromkeys(("map", "inventory", "equipment", "here"), words(PERCEPTION)))
    return closed(
        {
            "kind": {"const": "snapshot"},
            "self": self_view(),
            "nearby": array(nearby_cell(), maxItems=8),
            "entities": array(entity()),
            "features": array(feature()),
            "objects": array(shown_object()),
            "map": map_view(),
            "inventory": nullable(array(carried_item())),  # null: not known, never "empty"
            "here": here(),
            "automaticPickup": automatic_pickup(),
            "perception": perception,
        },
        {"end": end(), "world": world()},
    )


def decision() -> dict[str, Any]:
    """The engine's question (obs_build.c nnh_decision_write) plus the projection's reply syntax."""
    bound = {"sessionId": ref("token"), "decisionId": ref("token")}
    reply = closed(
        {
            "tool": {"const": "respond"},
            "arguments": closed({"action": {"const": "answer"}, **bound}),
            "valueSchema": OBJECT,  # a JSON Schema of `value` for this question
        }
    )
    cancel = closed({"tool": {"const": "respond"}, "arguments": closed({"action": {"const": "cancel"}, **bound})})
    option = closed({"id": INTEGER, "name": STRING}, {"group": STRING, "preselected": {"const": True}})
    suggested = closed({"itemId": ref("token"), "label": STRING})
    return closed(
        {
            "id": ref("token"),
            "kind": words(DECISION_KINDS),
            "prompt": STRING,
            "cancellable": BOOLEAN,
            "reply": reply,
        },
        {
            "cancel": cancel,
            "default": MARK,  # confirmation
            "select": words(engine_words("choiceSelect")),  # choice
            "options": array(option),
            "maxBytes": {"type": "integer", "minimum": 1},  # text
            "purpose": words(["key"]),
            "suggestedItems": array(suggested),  # item, with the inventory known
            "suggested": array(ref("token")),  # item, with the inventory unknown
            "hands": BOOLEAN,
            "counted": BOOLEAN,
            "mode": words(["select", "browse"]),  # position
            "cursor": ref("position"),
        },
    )


def event() -> dict[str, Any]:
    at = {"at": ref("position")}  # a leg's message: the square it came from
    seen = {"levelId": STRING, "x": INTEGER, "y": INTEGER, "turn": INTEGER}
    heard, passage, died, saved, attacked = EVENT_TYPES
    return {
        "anyOf": [
            closed({"type": {"const": heard}, "text": STRING}, at),
            closed({"type": {"const": passage}, "lines": array(STRING)}, at),
            closed({"type": {"const": died}, **seen}, {"appearance": STRING}),
            closed({"type": {"const": saved}}, {"who": {"const": "hero"}, **seen, "appearance": STRING}),
            closed({"type": {"const": attacked}, "by": words(ATTACKS)}, at),
        ]
    }


def listed_game() -> dict[str, Any]:
    """One `session list` entry (tools/listing.py): closed, so no seed can ride along."""
    return closed(
        {
            "sessionId": ref("token"),
            "state": words([*get_args(Gate), *listing.STATES]),
            "access": words(listing.ACCESS),
            "dlvl": nullable(INTEGER),
            "turn": nullable(COUNT),
            "name": STRING,
            "role": nullable(STRING),
        }
    )


def result() -> dict[str, Any]:
    """Query data, one shape per tool (see each tool's docs); typed here by kind
    (a leg's stopReason, a session list's entries)."""
    leg = {
        "if": {"properties": {"kind": {"const": "leg"}}},
        "then": {"properties": {"stopReason": words(STOP_REASONS)}},
    }
    sessions = {
        "if": {"properties": {"kind": {"const": "sessions"}}},
        "then": {"required": ["games", "more"], "properties": {"games": array(listed_game()), "more": COUNT}},
    }
    return {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": words(RESULT_KINDS)},
        "allOf": [leg, sessions],
    }


def error() -> dict[str, Any]:
    """`code` is a word; the message reads for a person; other members are the code's own details."""
    return {
        "type": "object",
        "required": ["code", "message"],
        "properties": {"code": {"type": "string", "pattern": "^[a-z][A-Za-z]*$"}, "message": STRING, "field": STRING},
    }


@cache
def schema() -> dict[str, Any]:
    """The DecisionFrame v2 schema (built once; callers must not change it)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "DecisionFrame",
        "description": "What every nethack-webmcp tool returns (also MCP structuredContent).",
        "$defs": definitions(),
        **closed(
            {
                "version": {"const": frames.VERSION},
                "basis": nullable(basis()),
                "control": nullable(closed({"gate": words(get_args(Gate))})),
                "outcome": nullable(outcome()),
                "scene": nullable(scene()),
                "decision": nullable(decision()),
                "events": array(event()),
                "diagnostics": closed({}, dict.fromkeys(DIAGNOSTICS, OBJECT)),
            },
            {"result": result(), "error": error()},
        ),
    }


def compact() -> str:
    """The schema as compact JSON (what `help` and the build publish)."""
    return json.dumps(schema(), separators=(",", ":"), ensure_ascii=False)
