"""route.py - the shortest known walking route to one square ("Known walking routes").

A route is a plan over the perceived level under the knownWalking policy
(policy.py): the fewest steps, ties broken by the fixed compass order of
geometry.py - at every square the walk takes the first direction in
north, south, east, west, northeast, northwest, southeast, southwest that
still lies on a shortest path. It runs no input and promises nothing: the
caller re-plans from a fresh view after every step.
"""

from __future__ import annotations

from typing import Any

from ..geometry import COMPASS, Position, in_bounds
from .level import LevelView
from .policy import blocks_walking, distances_to, passable, step_allowed
from .terrain import has_boulder, is_closed_door, walkable

#: Why a route is unknown: the four reasons of the seed, judged from the target square.
WHY_REASONS = ("targetOccupied", "targetUnknown", "closedDoor", "disconnected")


def basis(level: LevelView) -> dict[str, Any]:
    """The level and origin a navigation answer was computed from."""
    return {"levelId": level.level_id, "origin": {"x": level.hero[0], "y": level.hero[1]}}


def why_unreachable(level: LevelView, target: Position) -> str:
    """The seed's reason for a null route, from what is perceived at the target.

    targetOccupied - a creature other than a tame ally, or a boulder, is displayed there;
    closedDoor     - the target is remembered as a closed door;
    targetUnknown  - its terrain was never displayed (or it is off the map);
    disconnected   - known terrain, but no known walk reaches it (this also
                     covers known unwalkable terrain and known hazards).
    """
    x, y = target
    if not in_bounds(x, y):
        return "targetUnknown"
    if blocks_walking(level.occupant_at(x, y)) or has_boulder(level, x, y):
        return "targetOccupied"
    if is_closed_door(level, x, y):
        return "closedDoor"
    if walkable(level, x, y) is None and level.feature(x, y) in (" ", "^"):
        return "targetUnknown"
    return "disconnected"


def shortest_steps(level: LevelView, target: Position) -> list[dict[str, Any]] | None:
    """The tie-broken shortest walk from the hero to target, or None when none is known."""
    origin = level.hero
    if target == origin:
        return []
    if not passable(level, *target):
        return None
    distance = distances_to(level, target, stop_at=origin)
    if origin not in distance:
        return None
    steps: list[dict[str, Any]] = []
    here, remaining = origin, distance[origin]
    while remaining > 0:
        for name, dx, dy in COMPASS:  # noqa: B007  (the step taken is the one the loop breaks on)
            nxt = (here[0] + dx, here[1] + dy)
            if distance.get(nxt) == remaining - 1 and nxt != origin and step_allowed(level, here, nxt):
                break
        else:  # unreachable: distances_to only records squares with such a successor
            raise AssertionError(f"route walk lost its way at {here}")
        steps.append({"x": nxt[0], "y": nxt[1], "direction": name})
        here, remaining = nxt, remaining - 1
    return steps


def route(level: LevelView, target: Position) -> dict[str, Any]:
    """The knownWalking route from the hero to target, as the seed's route result.

    {kind:"route", policy:"knownWalking", basis, target, distance, steps[, why]}.
    The origin has distance 0 and no steps; distance null means no route is
    known under this policy (not that the square is physically unreachable).
    """
    target = (int(target[0]), int(target[1]))
    steps = shortest_steps(level, target)
    result: dict[str, Any] = {
        "kind": "route",
        "policy": "knownWalking",
        "basis": basis(level),
        "target": {"x": target[0], "y": target[1]},
        "distance": None if steps is None else len(steps),
        "steps": steps or [],
    }
    if steps is None:
        result["why"] = why_unreachable(level, target)
    return result
