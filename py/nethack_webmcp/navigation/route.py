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
from .policy import (
    blocks_walking,
    distances_from,
    distances_to,
    passable,
    step_allowed,
    uncertain_step,
    without_creatures,
)
from .terrain import has_boulder, is_closed_door, walkable

#: Why a route is unknown: the four reasons of the seed, judged from the target square,
#: and creatureInTheWay: only a displayed creature (not an ally) stands on every known way.
WHY_REASONS = ("targetOccupied", "targetUnknown", "closedDoor", "creatureInTheWay", "disconnected")


def basis(level: LevelView) -> dict[str, Any]:
    """The level and origin a navigation answer was computed from."""
    return {"levelId": level.level_id, "origin": {"x": level.hero[0], "y": level.hero[1]}}


def why_unreachable(level: LevelView, target: Position) -> str:
    """The seed's reason for a null route, from what is perceived at the target.

    targetOccupied - a creature other than a tame ally, or a boulder, is displayed there;
    closedDoor     - the target is remembered as a closed door;
    targetUnknown  - its terrain was never displayed (or it is off the map);
    creatureInTheWay - a known walk reaches it once the displayed creatures
                     (not allies) are out of the way;
    disconnected   - known terrain, but no known walk reaches it (this also
                     covers known unwalkable terrain and known hazards).
    A walk through a diagonal with an unknown corner counts as known here
    (route() returns it, marked uncertain).
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
    if blocking_creature(level, target) is not None:
        return "creatureInTheWay"
    return "disconnected"


def blocking_creature(level: LevelView, target: Position) -> Position | None:
    """The displayed creature nearest the hero that stands on the way to target,
    when taking the creatures away opens one; None otherwise."""
    clear = without_creatures(level)
    if not passable(clear, *target):
        return None
    distance = distances_to(clear, target, stop_at=level.hero, relaxed=True)
    if level.hero not in distance:
        return None
    reach = distances_from(level, level.hero, relaxed=True)

    def nearness(p: Position) -> int | None:
        near = [reach[n] for n in ((p[0] + dx, p[1] + dy) for _, dx, dy in COMPASS) if n in reach]
        return min(near) if near else None

    blockers = sorted(
        (near, p) for p in distance if blocks_walking(level.occupant_at(*p)) and (near := nearness(p)) is not None
    )
    return blockers[0][1] if blockers else None


def shortest_steps(level: LevelView, target: Position, relaxed: bool = False) -> list[dict[str, Any]] | None:
    """The tie-broken shortest walk from the hero to target, or None when none is known.

    relaxed: over the relaxed graph (diagonals with an unknown corner allowed);
    each such step is marked "uncertain": true."""
    origin = level.hero
    if target == origin:
        return []
    if not passable(level, *target):
        return None
    distance = distances_to(level, target, stop_at=origin, relaxed=relaxed)
    if origin not in distance:
        return None
    steps: list[dict[str, Any]] = []
    here, remaining = origin, distance[origin]
    while remaining > 0:
        for name, dx, dy in COMPASS:  # noqa: B007  (the step taken is the one the loop breaks on)
            nxt = (here[0] + dx, here[1] + dy)
            if distance.get(nxt) == remaining - 1 and nxt != origin and step_allowed(level, here, nxt, relaxed):
                break
        else:  # unreachable: distances_to only records squares with such a successor
            raise AssertionError(f"route walk lost its way at {here}")
        step: dict[str, Any] = {"x": nxt[0], "y": nxt[1], "direction": name}
        if relaxed and uncertain_step(level, here, nxt):
            step["uncertain"] = True
        steps.append(step)
        here, remaining = nxt, remaining - 1
    return steps


def known_steps(level: LevelView, target: Position) -> list[dict[str, Any]] | None:
    """The strict walk, else the relaxed one (its uncertain diagonals marked), else None."""
    steps = shortest_steps(level, target)
    return steps if steps is not None else shortest_steps(level, target, relaxed=True)


def route(level: LevelView, target: Position) -> dict[str, Any]:
    """The knownWalking route from the hero to target, as the seed's route result.

    {kind:"route", policy:"knownWalking", basis, target, distance, steps[, why]}.
    The origin has distance 0 and no steps; distance null means no route is
    known under this policy (not that the square is physically unreachable).
    A route that needs a diagonal past never-seen corners is returned with
    those steps marked `uncertain` and `uncertain: true` on the result: the
    hero may squeeze through, or NetHack may refuse (a heavy load, Sokoban).
    """
    target = (int(target[0]), int(target[1]))
    steps = known_steps(level, target)
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
        blocker = blocking_creature(level, target) if result["why"] == "creatureInTheWay" else None
        if blocker is not None:
            result["blockedBy"] = {"x": blocker[0], "y": blocker[1]}
    elif any(step.get("uncertain") for step in steps):
        result["uncertain"] = True
    return result
