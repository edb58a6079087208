"""plan_text.py - the text of a `plan wayOn` result: every option with its next call, in order.

The text carries what the structure has (docs/AGENT_PLAY.md, "The text
content"): whether the level is stuck, each option's kind, square, route
length, reason and the exact call to make next; the ranked search spots
(kind, score, undiscovered, searched), the boulder pushes (boulder, square
to push from, direction, what it opens) and the known trap doors.
"""

from __future__ import annotations

import json
from typing import Any


def _at(item: dict[str, Any]) -> str:
    return f"{item['x']},{item['y']}"


def _distance(entry: dict[str, Any]) -> str:
    distance = entry.get("distance")
    if distance is None:
        return "unreachable"
    step = f" first {entry['firstStep']}" if entry.get("firstStep") else ""
    return f"d{distance}{step}" + (" uncertain" if entry.get("uncertain") else "")


def call_text(call: dict[str, Any]) -> str:
    """A next call as `tool {arguments}` (compact JSON: exactly what to send, binding fields added)."""
    return f"{call['tool']} " + json.dumps(call["arguments"], separators=(",", ":"))


def spot_text(spot: dict[str, Any]) -> str:
    """One ranked search spot: square, distance, kind, score and what it was scored on."""
    return (
        f"{_at(spot)} {_distance(spot)} {spot.get('spot', '')} score {spot.get('score')}"
        + (f" toward {_at(spot['toward'])}" if spot.get("toward") else "")
        + f" undiscovered {spot.get('undiscovered')} searched {spot.get('searched', 0)}"
    )


def push_text(push: dict[str, Any]) -> str:
    where = f"boulder {_at(push['boulder'])} from {_at(push)} push {push['direction']}"
    return f"{where} {_distance(push)} opens {push['opens']} ({push['opened']} squares)"


def trap_door_text(trap: dict[str, Any]) -> str:
    approach = f" from {_at(trap['approach'])} step {trap['direction']}" if trap.get("approach") else ""
    return f"{trap['type']} {_at(trap)} {_distance(trap)}{approach}"


def way_on(result: dict[str, Any]) -> str:
    lines = [f"way on (policy {result.get('policy')}): " + ("stuck" if result.get("stuck") else "not stuck")]
    if result.get("blockedBy"):
        lines[0] += f", blocked by a creature at {_at(result['blockedBy'])}"
    for rank, option in enumerate(result.get("options") or (), start=1):
        lines.append(
            f"{rank}. {option['kind']} {_at(option)} {_distance(option)}: {option.get('reason', '')}"
            f" -> {call_text(option['next'])}"
        )
    if not result.get("options"):
        lines.append("no option: nothing known is reachable")
    lines.append("searchSpots: " + ("; ".join(spot_text(s) for s in result.get("searchSpots") or ()) or "none"))
    lines.append("pushes: " + ("; ".join(push_text(p) for p in result.get("pushes") or ()) or "none"))
    lines.append("trapDoors: " + ("; ".join(trap_door_text(t) for t in result.get("trapDoors") or ()) or "none"))
    return "\n".join(lines)
