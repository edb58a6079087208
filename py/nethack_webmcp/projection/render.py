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

What the text always carries is listed in docs/AGENT_PLAY.md ("The text
content"); tests/python/test_text_completeness.py holds a corpus of real
frames to that list: the scene's features, objects, creatures and
inventory in full, a leg's advice (doors with approach squares, dead ends,
search spots, what stands in the way, the stop's message), the inventory
tool's every item, the neighborhood's adjacent squares first, the branch,
a resume, typed events and the end-of-game windows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import plan_text

FEATURES_SHOWN = 12  # the scene lists at most 12 (plus ways and altars): all of them
OBJECTS_SHOWN = 12
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
    if level.get("dungeon"):
        parts.append(str(level["dungeon"]))  # the branch: "The Gnomish Mines"
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
    text = "; ".join(f"{f['kind']}{' (' + f['trap'] + ')' if f.get('trap') else ''} {_at(f)}" for f in shown)
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
    if here.get("trap"):
        lines.append(f"underfoot: {here['trap']}")
    if scene["inventory"] is not None:
        lines.append("inventory: " + "; ".join(f"{i['id']} {i['label']}" for i in scene["inventory"]))
    if scene.get("end"):
        lines.extend(_end(scene["end"]))
    return lines


def _end(end: dict[str, Any]) -> list[str]:
    """How the game ended, then each end-of-game window NetHack showed, line by line."""
    shown = {key: end[key] for key in ("how", "death", "score", "turn", "depth", "deepest") if key in end}
    lines = ["END " + _compact(shown)]
    for window in end.get("windows") or ():
        lines.extend(f"| {line}" for line in window.get("lines", ()))
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
    if event.get("type") == "attacked":
        return [f"! {where}attacked ({event.get('by')})"]
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
    if result.get("message"):
        text += f"; message {result['message']!r}"
    if result.get("uncertain"):
        text += "; uncertain (a diagonal past never-seen corners)"
    if result.get("blockedBy"):
        text += f"; blocked by a creature at {_at(result['blockedBy'])}"
    if result.get("error"):
        text += f"; error {result['error']}"
    if result.get("next"):
        text += "\nnext: " + result["next"]["tool"] + " " + _compact(result["next"]["arguments"])
    advice = _advice(result)
    return "\n".join([text, *advice]) if advice else text


def _door(d: dict[str, Any]) -> str:
    lock = d.get("lock") or {}
    return (
        f"{_at(d)}"
        + (f" {d['state']}" if d.get("state") else "")
        + (f" lock {lock['state']}" if lock.get("state") not in (None, "unknown") else "")
        + (f" from {_at(d['approach'])} push {d['direction']}" if d.get("approach") else "")
    )


def _spot(s: dict[str, Any]) -> str:
    return plan_text.spot_text(s)


def _advice(result: dict[str, Any]) -> list[str]:
    """A stuck leg's (or plan's) what-to-try-next lists, in full."""
    lines = []
    if result.get("closedDoors"):
        lines.append("closedDoors: " + "; ".join(_door(d) for d in result["closedDoors"]))
    if "deadEnds" in result:
        lines.append("deadEnds: " + ("; ".join(_way(d) for d in result["deadEnds"]) or "none"))
    if "searchSpots" in result:
        lines.append("searchSpots: " + ("; ".join(_spot(s) for s in result["searchSpots"]) or "none"))
    return lines


def _way(entry: dict[str, Any]) -> str:
    distance = entry.get("distance")
    step = f" first {entry['firstStep']}" if entry.get("firstStep") else ""
    uncertain = " uncertain" if entry.get("uncertain") else ""
    return f"{_at(entry)} " + (f"d{distance}{step}{uncertain}" if distance is not None else "unreachable")


def _navigation(result: dict[str, Any]) -> str:
    def section(name: str, entries: list[str]) -> str:
        return f"{name} ({len(entries)}): " + (_capped(entries, 12) if entries else "none")

    doors = [
        f"{_way(d)} {d.get('state', '')}"
        + (f" lock {d['lock']['state']}" if d.get("lock", {}).get("state") not in (None, "unknown") else "")
        + (f" from {_at(d['approach'])} push {d['direction']}" if d.get("approach") else "")
        for d in result.get("doors", ())
    ]
    return "\n".join(
        [
            "navigation (policy " + str(result.get("policy")) + ")",
            section("waysDown", [f"{w.get('type', '')} {_way(w)}" for w in result.get("waysDown", ())]),
            section("waysUp", [f"{w.get('type', '')} {_way(w)}" for w in result.get("waysUp", ())]),
            section("frontiers", [_way(f) for f in result.get("frontiers", ())]),
            f"doors ({len(doors)}): " + ("; ".join(doors) or "none"),
            *_advice(result),
        ]
    )


def _item(item: dict[str, Any]) -> str:
    """One carried item on one line: id, letter, label, then what can be done with it."""
    text = f"{item.get('id')} {item.get('letter', '?')} - {item.get('label')}"
    if item.get("actions"):
        text += " [" + ",".join(item["actions"]) + "]"
    targets = [f"{t.get('action')} {t.get('slot')}" for t in item.get("equipmentTargets") or ()]
    if targets:
        text += " {" + ", ".join(targets) + "}"
    return text


def _inventory(result: dict[str, Any]) -> str:
    if not result.get("known"):
        return "inventory: not known now"
    items = result.get("items") or []
    return f"inventory ({len(items)} items):\n" + "\n".join(_item(i) for i in items)


_AROUND = {(0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1)}  # compass order


def _cell(cell: dict[str, Any]) -> str:
    terrain = cell.get("terrain") or {}
    parts = [f"{cell.get('direction') or _at(cell)} {_at(cell)} {terrain.get('type', 'unknown')}"]
    if cell.get("occupant"):
        parts.append(_creature(cell["occupant"]))
    if cell.get("objects"):
        parts.append(", ".join(o.get("mark", "?") for o in cell["objects"]))
    for key in ("hazards",):
        if cell.get(key):
            parts.append(",".join(cell[key]))
    if cell.get("blocked"):
        parts.append(f"blocked {cell['blocked']}")
    elif cell.get("intent"):
        parts.append(str(cell["intent"]))
    return " ".join(parts)


def _neighborhood(result: dict[str, Any]) -> str:
    """The eight adjacent squares first (what a step would meet), then the known rest."""
    cells = result.get("cells") or []
    adjacent = [c for c in cells if (c.get("dx"), c.get("dy")) in _AROUND]
    order = [(0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1)]
    adjacent.sort(key=lambda c: order.index((c["dx"], c["dy"])))
    known = [
        c
        for c in cells
        if (c.get("dx"), c.get("dy")) not in _AROUND
        and (c.get("dx"), c.get("dy")) != (0, 0)
        and (c.get("terrain") or {}).get("type") not in (None, "unknown")
    ]
    lines = [f"neighborhood {result.get('status', '')} radius {result.get('radius')}"]
    lines.append("adjacent: " + "; ".join(_cell(c) for c in adjacent))
    if known:
        lines.append("farther: " + _capped([_cell(c) for c in known], 24))
    return "\n".join(lines)


def _session(result: dict[str, Any]) -> str:
    session = result.get("session") or {}
    shown = {key: session[key] for key in ("name", "role", "race", "gender", "alignment", "seed") if key in session}
    return f"session {result['action']}: " + _compact(shown or {"sessionId": result.get("sessionId")})


def _route(result: dict[str, Any]) -> str:
    target = result.get("target") or {}
    if result.get("distance") is None:
        text = f"route to {_at(target)}: none, why {result.get('why')}"
        if result.get("blockedBy"):
            text += f", blocked by a creature at {_at(result['blockedBy'])}"
        return text
    steps = result.get("steps") or []
    path = " ".join(s["direction"] + ("?" if s.get("uncertain") else "") for s in steps)
    return f"route to {_at(target)}: {result['distance']} steps: {path}" + (
        " (? = a diagonal past never-seen corners: uncertain)" if result.get("uncertain") else ""
    )


def _fields(entry: Any, first: str = "name") -> str:
    """One record as `first k v k v` (its other scalar fields in order; others as JSON)."""
    if not isinstance(entry, dict):
        return _compact(entry)
    parts = [str(entry[first])] if first in entry else []
    for key, value in entry.items():
        if key != first:
            parts.append(f"{key} {value if isinstance(value, (str, int, float)) else _compact(value)}")
    return " ".join(parts)


def _skills(skills: list[Any]) -> str:
    """Skills grouped by (rank, advance), each group's names in the engine's order."""
    groups: dict[str, list[str]] = {}
    others: list[str] = []
    for skill in skills:
        if isinstance(skill, dict) and set(skill) == {"name", "rank", "advance"}:
            groups.setdefault(f"{skill['rank']}/{skill['advance']}", []).append(str(skill["name"]))
        else:
            others.append(_fields(skill))
    listed = [f"{group}: {', '.join(names)}" for group, names in groups.items()]
    return "; ".join(listed + others) or "none"


def _observe(result: dict[str, Any]) -> str:
    """observe's result without its JSON: the messages, every knowledge record
    field by field (skills grouped by rank/advance), the state hash, the rest as JSON."""
    lines = ["observe: messages " + _compact(result.get("recentMessages") or [])]
    if result.get("running"):
        lines.append(f"running operation {result['running']}")
    knowledge = result.get("knowledge")
    if isinstance(knowledge, dict):
        rest = dict(knowledge)
        spells = rest.pop("spells", None)
        if spells is not None:
            lines.append("spells: " + ("; ".join(_fields(spell) for spell in spells) or "none"))
        skills = rest.pop("skills", None)
        if skills is not None:
            lines.append("skills (rank/advance): " + _skills(skills))
        levels = rest.pop("levels", None)
        if levels is not None:
            lines.append("levels: " + ("; ".join(_fields(level, "levelId") for level in levels) or "none"))
        conduct = rest.pop("conduct", None)
        if isinstance(conduct, dict):
            lines.append("conduct: " + ", ".join(f"{key} {value}" for key, value in conduct.items()))
        achievements = rest.pop("achievements", None)
        if achievements is not None:
            lines.append("achievements: " + (_compact(achievements) if achievements else "none"))
        if rest:
            lines.append("knowledge " + bounded_json(rest))
    if result.get("stateHash"):
        lines.append(f"stateHash {result['stateHash']}")
    rest = {key: value for key, value in result.items() if key not in OBSERVE_SHOWN}
    if rest:
        lines.append("result " + bounded_json(rest))
    return "\n".join(lines)


OBSERVE_SHOWN = frozenset({"kind", "recentMessages", "running", "knowledge", "stateHash"})

RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {
    "observe": _observe,
    "help": lambda result: str(result["text"]),
    "leg": _leg,
    "navigation": _navigation,
    "session": _session,
    "inventory": _inventory,
    "neighborhood": _neighborhood,
    "route": _route,
    "wayOn": plan_text.way_on,
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


def _candidate(candidate: Any) -> str:
    if isinstance(candidate, dict) and "x" in candidate and "y" in candidate:
        extra = " ".join(str(candidate[k]) for k in ("direction", "mark", "appearance", "shows") if candidate.get(k))
        return f"{_at(candidate)}{' ' + extra if extra else ''}"
    return _compact(candidate)


def text(frame: dict[str, Any]) -> str:
    lines: list[str] = []
    basis, control = frame.get("basis"), frame.get("control")
    if basis:
        lines.append(
            f"session {basis['sessionId']} viewId {basis['viewId']} revision {basis['revision']} "
            f"turn {basis['turn']} gate {control['gate'] if control else '?'}"
        )
    resume = (frame.get("diagnostics") or {}).get("resume")
    if isinstance(resume, dict) and "replayed" in resume:
        lines.append(f"resumed by replay: {resume['replayed']} inputs (the game goes on where it was)")
    if frame.get("error"):
        error = frame["error"]
        lines.append(f"ERROR {error['code']}: {error['message']}")
        if error.get("candidates"):
            lines.append("candidates: " + "; ".join(_candidate(c) for c in error["candidates"]))
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
