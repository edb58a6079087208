"""render.py - a compact text rendering of a frame for MCP text content.

Structured content is the frame itself; many clients show a model only the
text, so this rendering carries what the next decision needs: the binding
(session, view, gate), what happened, the map with rulers and legend,
creatures, nearby features, underfoot, inventory, and the question with
how to answer it. It is derived from the frame only.
"""

from __future__ import annotations

import json
from typing import Any

FEATURES_SHOWN = 6
RESULT_CHARS = 3000


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _vitals(self_view: dict[str, Any]) -> str:
    v = self_view.get("vitals") or {}
    level = self_view.get("level") or {}
    parts = [f"HP {v.get('hp')}/{v.get('hpMax')}", f"Pw {v.get('energy')}/{v.get('energyMax')}",
             f"AC {v.get('ac')}", f"XL {v.get('level')}", f"{level.get('label')}",
             f"hunger {v.get('hunger')}", f"gold {v.get('gold')}"]
    if v.get("condition"):
        parts.append("condition " + ",".join(v["condition"]))
    return " | ".join(parts)


def _scene(scene: dict[str, Any]) -> list[str]:
    self_view = scene["self"]
    pos = self_view.get("position") or {}
    lines = [f"you ({self_view.get('role', '?')}) at x={pos.get('x')} y={pos.get('y')}: {_vitals(self_view)}",
             scene["map"]["text"],
             "legend: " + ", ".join(f"{k} {v}" for k, v in scene["map"]["legend"].items())]
    creatures = [f"{e['mark']} {e.get('appearance', e['kind'])}"
                 + (f" ({e['attitude']})" if e.get("attitude") else "")
                 + f" at {e['x']},{e['y']}" + (f" [{e['direction']}]" if e.get("direction") else "")
                 for e in scene["entities"]]
    if creatures:
        lines.append("creatures: " + "; ".join(creatures))
    features = [f"{f['kind']} {f['x']},{f['y']}" for f in scene["features"][:FEATURES_SHOWN]]
    if features:
        lines.append("features: " + "; ".join(features))
    here = scene["here"]
    if not here.get("known"):
        lines.append("here: cannot see the floor")
    elif here.get("items"):
        lines.append("here: " + "; ".join(f"{i['id']} {i['label']}" for i in here["items"]))
    if scene["inventory"] is not None:
        lines.append("inventory: " + "; ".join(f"{i['id']} {i['label']}" for i in scene["inventory"]))
    if scene.get("end"):
        lines.append("END " + _compact(scene["end"]))
    return lines


def _decision(decision: dict[str, Any]) -> list[str]:
    lines = [f"QUESTION {decision['id']} ({decision['kind']}): {decision['prompt']}"]
    for option in decision.get("options", ()):
        lines.append(f"  [{option['id']}] {option['name']}")
    for item in decision.get("suggestedItems", ()):
        lines.append(f"  suggested {item['itemId']} {item['label']}")
    if decision.get("cursor"):
        lines.append(f"  cursor at {decision['cursor']['x']},{decision['cursor']['y']}")
    lines.append("answer: respond " + _compact(decision["reply"]["arguments"])
                 + " with value matching " + _compact(decision["reply"]["valueSchema"]))
    if decision.get("cancel"):
        lines.append("cancel: respond " + _compact(decision["cancel"]["arguments"]))
    return lines


def text(frame: dict[str, Any]) -> str:
    lines: list[str] = []
    basis, control = frame.get("basis"), frame.get("control")
    if basis:
        lines.append(f"session {basis['sessionId']} viewId {basis['viewId']} revision {basis['revision']} "
                     f"turn {basis['turn']} gate {control['gate'] if control else '?'}")
    if frame.get("error"):
        error = frame["error"]
        lines.append(f"ERROR {error['code']}: {error['message']}")
        if error.get("candidates"):
            lines.append("candidates: " + _compact(error["candidates"]))
    outcome = frame.get("outcome")
    if outcome:
        lines.append(f"outcome {outcome['submission']}/{outcome['status']}: actions {outcome['actionsTaken']}, "
                     f"turns {outcome['turnsElapsed']}, moved {outcome['positionChanged']}")
    for event in frame.get("events") or ():
        if event.get("type") == "heard":
            lines.append(f"> {event['text']}")
        elif event.get("type") == "passage":
            lines.extend(f"| {line}" for line in event.get("lines", ()))
    if frame.get("scene"):
        lines.extend(_scene(frame["scene"]))
    if frame.get("decision"):
        lines.extend(_decision(frame["decision"]))
    if "result" in frame:
        result = frame["result"]
        if result.get("kind") == "help":
            lines.append(result["text"])
        else:
            rendered = _compact(result)
            lines.append("result " + (rendered if len(rendered) <= RESULT_CHARS
                                      else rendered[:RESULT_CHARS] + " …(see structuredContent)"))
    return "\n".join(lines)
