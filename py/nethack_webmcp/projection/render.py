"""render.py - a compact text rendering of a frame for MCP text content.

Structured content is the frame itself; many clients show a model only the
text, so this rendering carries what the next decision needs: the binding
(session, view, gate), what happened, the map with rulers and legend,
creatures, objects and features with their squares, underfoot, inventory,
and the question with how to answer it. It is derived from the frame only.

Lists are capped, never silently: a capped list ends with "+N more", ways
between levels and altars are always listed, and JSON is never cut inside
a structure (a result too long for the text is shown with shorter lists,
each saying how many entries it left out, the whole in structuredContent).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

FEATURES_SHOWN = 6
OBJECTS_SHOWN = 8
RESULT_CHARS = 2000
LIST_CAPS = (12, 6, 3, 1)  # tried in turn until a result fits RESULT_CHARS
ALWAYS_SHOWN = {"stairsUp", "stairsDown", "ladderUp", "ladderDown", "altar"}


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _capped(parts: list[str], shown: int) -> str:
    text = "; ".join(parts[:shown])
    return text + (f"; +{len(parts) - shown} more" if len(parts) > shown else "")


def _at(item: dict[str, Any]) -> str:
    return f"{item['x']},{item['y']}"


def _vitals(self_view: dict[str, Any]) -> str:
    v = self_view.get("vitals") or {}
    level = self_view.get("level") or {}
    parts = [
        f"HP {v.get('hp')}/{v.get('hpMax')}",
        f"Pw {v.get('energy')}/{v.get('energyMax')}",
        f"AC {v.get('ac')}",
        f"XL {v.get('level')}",
        f"{level.get('label')}",
        f"hunger {v.get('hunger')}",
        f"gold {v.get('gold')}",
    ]
    if v.get("condition"):
        parts.append("condition " + ",".join(v["condition"]))
    return " | ".join(parts)


#: Area marks whose meaning the help's map topic gives once; the text legend
#: lists a mark only when it means something else too (an open door's `|`).
AREA_MEANINGS = {
    "wall",
    "floor",
    "corridor",
    "doorway",
    "floor; doorway",
    "doorway; floor",
    "you",
    "dark part of a room",
}


def _legend(legend: dict[str, str]) -> str:
    shown = [
        f"{mark} {meaning.replace('object (', '').replace(')', '') if meaning.startswith('object (') else meaning}"
        for mark, meaning in legend.items()
        if meaning not in AREA_MEANINGS
    ]
    return ", ".join(shown)


def _features(features: list[dict[str, Any]]) -> str:
    """The nearest few, then every way between levels and altar, then +N more."""
    shown = [f for rank, f in enumerate(features) if rank < FEATURES_SHOWN or f["kind"] in ALWAYS_SHOWN]
    text = "; ".join(f"{f['kind']} {_at(f)}" for f in shown)
    left = len(features) - len(shown)
    return text + (f"; +{left} more" if left else "")


def _scene(scene: dict[str, Any]) -> list[str]:
    self_view = scene["self"]
    pos = self_view.get("position") or {}
    lines = [
        f"you ({self_view.get('role', '?')}) at {pos.get('x')},{pos.get('y')}: {_vitals(self_view)}",
        scene["map"]["text"],
        "legend: " + _legend(scene["map"]["legend"]),
    ]
    creatures = [
        f"{e['mark']} {e.get('appearance', e['kind'])}"
        + (f" ({e['attitude']})" if e.get("attitude") else "")
        + f" at {_at(e)}"
        + (f" [{e['direction']}]" if e.get("direction") else "")
        for e in scene["entities"]
    ]
    if creatures:
        lines.append("creatures: " + "; ".join(creatures))
    objects = [
        f"{o['mark']} {o['shows'].removeprefix('object (').removesuffix(')')} {_at(o)}"
        for o in scene.get("objects") or ()
    ]
    if objects:
        lines.append("objects: " + _capped(objects, OBJECTS_SHOWN))
    if scene["features"]:
        lines.append("features: " + _features(scene["features"]))
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
        lines.append(f"  cursor at {_at(decision['cursor'])}")
    lines.append(
        "answer: respond "
        + _compact(decision["reply"]["arguments"])
        + " with value matching "
        + _compact(decision["reply"]["valueSchema"])
    )
    if decision.get("cancel"):
        lines.append("cancel: respond " + _compact(decision["cancel"]["arguments"]))
    return lines


def _event(event: dict[str, Any]) -> list[str]:
    where = f"[at {_at(event['at'])}] " if event.get("at") else ""
    if event.get("type") == "heard":
        return [f"> {where}{event['text']}"]
    if event.get("type") == "passage":
        return [f"| {where if i == 0 else ''}{line}" for i, line in enumerate(event.get("lines", ()))]
    if event.get("type") in ("creatureDied", "lifeSaved") and "x" in event:
        what = event.get("appearance", "a creature")
        return [f"* {what} {'died' if event['type'] == 'creatureDied' else 'was life-saved'} at {_at(event)}"]
    if event.get("type") == "lifeSaved":
        return ["* your life was saved"]
    return []


# ---- results ----------------------------------------------------------------------


def _creature(creature: dict[str, Any]) -> str:
    return f"{creature.get('mark', '?')} {creature.get('appearance', creature.get('kind', ''))}" + (
        f" ({creature['attitude']})" if creature.get("attitude") else ""
    )


def _leg(result: dict[str, Any]) -> str:
    """Where a leg went and why it stopped; the step list stays structured."""
    start, end = result.get("start"), result["finalPosition"]
    text = (
        f"leg {result['mode']}: {result['stopReason']} after {result['actionsTaken']} moves, "
        + (f"{_at(start)} -> " if start else "")
        + f"now {_at(end)}"
    )
    if result.get("target"):
        text += f", target {_at(result['target'])}"
    if result.get("why"):
        text += f", why {result['why']}"
    if "frontiersHandled" in result:
        text += f", frontiers {result['frontiersHandled']}"
    if result.get("sighted"):
        text += "; sighted " + "; ".join(f"{_creature(c)} at {_at(c)}" for c in result["sighted"])
    if result.get("creaturesSeen"):
        text += "; creatures seen " + _capped([_creature(c) + " last at " + _at(c) for c in result["creaturesSeen"]], 6)
    if result.get("error"):
        text += f"; error {result['error']}"
    if result.get("next"):
        text += "\nnext: " + result["next"]["tool"] + " " + _compact(result["next"]["arguments"])
    return text


def _way(entry: dict[str, Any]) -> str:
    distance = entry.get("distance")
    step = f" first {entry['firstStep']}" if entry.get("firstStep") else ""
    return f"{_at(entry)} " + (f"d{distance}{step}" if distance is not None else "unreachable")


def _navigation(result: dict[str, Any]) -> str:
    def section(name: str, entries: list[str]) -> str:
        return f"{name} ({len(entries)}): " + (_capped(entries, 12) if entries else "none")

    doors = [
        f"{_way(d)} {d.get('state', '')}"
        + (f" lock {d['lock']['state']}" if d.get("lock", {}).get("state") not in (None, "unknown") else "")
        + (f" from {_at(d['approach'])}" if d.get("approach") else "")
        for d in result.get("doors", ())
    ]
    return "\n".join(
        [
            "navigation (policy " + str(result.get("policy")) + ")",
            section("waysDown", [f"{w.get('type', '')} {_way(w)}" for w in result.get("waysDown", ())]),
            section("waysUp", [f"{w.get('type', '')} {_way(w)}" for w in result.get("waysUp", ())]),
            section("frontiers", [_way(f) for f in result.get("frontiers", ())]),
            section("doors", doors),
        ]
    )


def _session(result: dict[str, Any]) -> str:
    session = result.get("session") or {}
    shown = {key: session[key] for key in ("name", "role", "race", "gender", "alignment", "seed") if key in session}
    return f"session {result['action']}: " + _compact(shown or {"sessionId": result.get("sessionId")})


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "help": lambda result: str(result["text"]),
    "leg": _leg,
    "navigation": _navigation,
    "session": _session,
}


def _shortened(value: Any, cap: int) -> Any:
    """value with every list cut to cap entries, the cut said in a last entry."""
    if isinstance(value, dict):
        return {key: _shortened(item, cap) for key, item in value.items()}
    if isinstance(value, list):
        kept = [_shortened(item, cap) for item in value[:cap]]
        return kept + ([f"+{len(value) - cap} more"] if len(value) > cap else [])
    return value


def bounded_json(value: Any, limit: int = RESULT_CHARS) -> str:
    """Compact JSON of value within limit characters where lists allow it:
    always whole, valid JSON; lists shortened with "+N more" entries."""
    rendered = _compact(value)
    for cap in LIST_CAPS:
        if len(rendered) <= limit:
            break
        rendered = _compact(_shortened(value, cap))
    return rendered


def result_text(result: dict[str, Any]) -> str:
    render = RENDERERS.get(str(result.get("kind")))
    return render(result) if render is not None else "result " + bounded_json(result)


def text(frame: dict[str, Any]) -> str:
    lines: list[str] = []
    basis, control = frame.get("basis"), frame.get("control")
    if basis:
        lines.append(
            f"session {basis['sessionId']} viewId {basis['viewId']} revision {basis['revision']} "
            f"turn {basis['turn']} gate {control['gate'] if control else '?'}"
        )
    if frame.get("error"):
        error = frame["error"]
        lines.append(f"ERROR {error['code']}: {error['message']}")
        if error.get("candidates"):
            lines.append("candidates: " + bounded_json(error["candidates"], 600))
    outcome = frame.get("outcome")
    if outcome:
        lines.append(
            f"outcome {outcome['submission']}/{outcome['status']}: actions {outcome['actionsTaken']}, "
            f"turns {outcome['turnsElapsed']}, moved {outcome['positionChanged']}"
        )
        if outcome["status"] == "running":
            lines.append(f"RUNNING operation {outcome['operationId']}: observe with this operationId for its result")
    for event in frame.get("events") or ():
        lines.extend(_event(event))
    if frame.get("scene"):
        lines.extend(_scene(frame["scene"]))
    if frame.get("decision"):
        lines.extend(_decision(frame["decision"]))
    if "result" in frame:
        lines.append(result_text(frame["result"]))
    return "\n".join(lines)
