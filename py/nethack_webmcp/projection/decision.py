"""decision.py - the standing decision with its executable `reply` and `cancel`.

The low decision is kept field for field; the projection adds the MCP
syntax to continue it: `reply` names the respond tool, its bound arguments
(the exact decision ID) and the JSON schema of `value` for this question's
kind; `cancel` is present when the question is cancellable. Nothing is ever
answered or defaulted here.
"""

from __future__ import annotations

from typing import Any

from ..geometry import AIMS, COMPASS_NAMES, POSITION_BOUNDS

DIRECTION_VALUES = AIMS
POSITION_WORDS = ("finish", "help", *COMPASS_NAMES)
POSITION_SCHEMA = {
    "type": "object",
    "properties": {
        axis: {"type": "integer", "minimum": low, "maximum": high} for axis, (low, high) in POSITION_BOUNDS.items()
    },
    "required": ["x", "y"],
    "additionalProperties": False,
}


def value_schema(decision: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema `respond` checks `value` against for this decision."""
    kind = decision["kind"]
    if kind == "confirmation":
        return {"type": "boolean"}
    if kind == "choice":
        one = decision.get("select") == "one"
        ids = [option["id"] for option in decision.get("options", ())]
        option = {
            "anyOf": [{"type": "integer", "enum": ids}, {"type": "string", "description": "an option name, if unique"}]
        }
        listed = {
            "type": "array",
            "minItems": 1,
            "maxItems": 1 if one else max(1, len(ids)),
            "uniqueItems": True,
            "items": option,
        }
        # A single choice also takes the bare option: one call, no list to build.
        return {"anyOf": [option, listed]} if one else listed
    if kind == "text":
        return {"type": "string", "maxLength": int(decision.get("maxBytes", 128))}
    if kind == "direction":
        return {"type": "string", "enum": list(DIRECTION_VALUES)}
    if kind == "item":
        properties: dict[str, Any] = {"itemId": {"type": "string"}}
        if decision.get("counted") is not False:  # the engine takes counts only when counted
            properties["quantity"] = {"type": "integer", "minimum": 1}
        item = {"type": "object", "properties": properties, "required": ["itemId"], "additionalProperties": False}
        if decision.get("hands"):
            return {"anyOf": [item, {"const": "hands"}]}
        return item
    if kind == "position":
        return {"anyOf": [POSITION_SCHEMA, {"type": "string", "enum": list(POSITION_WORDS)}]}
    return {"not": {}}  # an unknown kind is never answerable by guesswork


def project(
    decision: dict[str, Any] | None, session_id: str, inventory: list[dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The frame's `decision`: the low decision plus `reply` and `cancel`."""
    if decision is None:
        return None
    projected = dict(decision)
    if decision["kind"] == "item" and inventory is not None:
        labels = {item["id"]: item["label"] for item in inventory}
        projected["suggestedItems"] = [{"itemId": i, "label": labels.get(i, "")} for i in decision.get("suggested", ())]
        projected.pop("suggested", None)
    bound = {"sessionId": session_id, "decisionId": decision["id"]}
    projected["reply"] = {
        "tool": "respond",
        "arguments": {"action": "answer", **bound},
        "valueSchema": value_schema(decision),
    }
    if decision.get("cancellable"):
        projected["cancel"] = {"tool": "respond", "arguments": {"action": "cancel", **bound}}
    return projected
