"""wayon.py - the way on from a level: what to try next, in order, each with the call to make.

way_on(level) answers `plan wayOn` (docs/AGENT_PLAY.md, "The way on"):

options, best first, only what a known walk reaches (`distance` is the
route's length):

1. wayDown  - a remembered staircase or ladder down;
2. trapDoor - a known trap door or hole (routes never step onto a known trap,
              so it comes with the `approach` square beside it and the
              `direction` of the last step);
3. frontier - something left to explore;
4. door     - a closed door, with the approach square and direction to open it;
5. push     - a boulder push that opens a way (boulders.py);
6. search   - the best search spots (searching.py), at most SEARCH_OPTIONS;
7. wayUp    - a staircase or ladder up: the level above may have another way
              down (from Dlvl 2 to 4 the Gnomish Mines branch, when the hero
              is in the main dungeon); never on Dlvl 1 of the main dungeon,
              whose way up leaves the dungeon and ends the game.

`next` on each is the call to make now, without the binding fields: a
`travel to` the square to stand on while the hero is elsewhere, the action
itself once there. `stuck` is true when no way down and no frontier is
reachable; then `blockedBy` names a displayed creature standing on the way
to a frontier, when one does. Nothing here reads hidden state: the dungeon name and depth are
what the status line shows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..geometry import COMPASS, Position, direction_between
from .boulders import WAY_DOWN_TRAPS, pushes
from .frontiers import FirstSteps, _entry, creature_in_the_way, doors, frontiers, ways
from .level import LevelView
from .policy import step_allowed
from .route import basis
from .searching import search_spots
from .terrain import WAYS_DOWN, WAYS_UP

SEARCH_OPTIONS = 3
MAIN_DUNGEON = "The Dungeons of Doom"
MINES_BRANCH_DEPTHS = range(2, 5)  # dungeon.def: the Gnomish Mines branch leaves Dlvl 2-4


def _squares(count: int) -> str:
    return f"{count} square" + ("" if count == 1 else "s")


def _walk_to(square: Position) -> dict[str, Any]:
    return {"tool": "travel", "arguments": {"mode": "to", "to": {"x": square[0], "y": square[1]}}}


def _there_or(level: LevelView, square: Position, action: dict[str, Any]) -> dict[str, Any]:
    """The action when the hero stands on square, else the walk there."""
    return action if level.hero == square else _walk_to(square)


def trap_doors(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Every known trap door and hole, nearest first: the reachable square beside it
    (`approach`, the tie broken in compass order) and the `direction` of the step onto
    it; `distance` counts that step, null when no approach is reachable."""
    steps = steps or FirstSteps(level)
    found = []
    for (x, y), kind in sorted(level.trap_types.items(), key=lambda item: (item[0][1], item[0][0])):
        if kind not in WAY_DOWN_TRAPS:
            continue
        entry: dict[str, Any] = {"x": x, "y": y, "type": kind}
        if level.hero == (x, y):
            entry["distance"] = 0
            found.append(entry)
            continue
        best: tuple[int, int, Position] | None = None
        for rank, (_, dx, dy) in enumerate(COMPASS):
            approach = (x + dx, y + dy)
            distance = steps.distance.get(approach)
            if distance is None or not step_allowed(level, approach, (x, y), relaxed=True):
                continue
            if best is None or (distance, rank) < best[:2]:
                best = (distance, rank, approach)
        if best is None:
            entry["distance"] = None
        else:
            distance, _, approach = best
            entry.update(_entry(approach, steps))
            entry.update(x=x, y=y, distance=distance + 1, approach={"x": approach[0], "y": approach[1]})
            entry["direction"] = direction_between(approach, (x, y))
        found.append(entry)
    return sorted(found, key=lambda e: (e["distance"] is None, e["distance"] or 0, e["y"], e["x"]))


def _trap_door_option(level: LevelView, trap: dict[str, Any]) -> dict[str, Any]:
    square = (trap["x"], trap["y"])
    if level.hero == square:
        action = {"tool": "travel", "arguments": {"mode": "climb", "direction": "down"}}
    else:
        approach = (trap["approach"]["x"], trap["approach"]["y"])
        step = {"tool": "travel", "arguments": {"mode": "step", "target": {"direction": trap["direction"]}}}
        action = _there_or(level, approach, step)
    return {
        "kind": "trapDoor",
        **trap,
        "reason": f"a known {trap['type']} at {trap['x']},{trap['y']}: a way down",
        "next": action,
    }


def _way_down_reason(way: dict[str, Any], found: dict[str, Any], depth: int | None, dungeon: str | None) -> str:
    text = f"a known {way['type']}"
    if dungeon == MAIN_DUNGEON and depth in MINES_BRANCH_DEPTHS and len(found["waysDown"]) > 1:
        text += " (two ways down on Dlvl 2-4 of the main dungeon: one is likely the Gnomish Mines branch)"
    return text


def _way_up_reason(depth: int | None, dungeon: str | None) -> str:
    text = "up: the level above may have another way down"
    if dungeon == MAIN_DUNGEON and depth is not None and depth - 1 in MINES_BRANCH_DEPTHS:
        text += " (the Gnomish Mines branch leaves the main dungeon on Dlvl 2-4)"
    return text


def _options(
    level: LevelView, found: dict[str, Any], depth: int | None, dungeon: str | None
) -> Iterator[dict[str, Any]]:
    climb_down = {"tool": "travel", "arguments": {"mode": "climb", "direction": "down"}}
    for way in found["waysDown"]:
        if way["distance"] is not None:
            action = _there_or(level, (way["x"], way["y"]), climb_down)
            yield {"kind": "wayDown", **way, "reason": _way_down_reason(way, found, depth, dungeon), "next": action}
    for trap in found["trapDoors"]:
        if trap["distance"] is not None:
            yield _trap_door_option(level, trap)
    near = found["frontiers"][:1]
    for frontier in near:
        yield {
            "kind": "frontier",
            **frontier,
            "reason": f"{_squares(len(found['frontiers']))} beside undiscovered map reachable: explore",
            "next": {"tool": "travel", "arguments": {"mode": "explore"}},
        }
    for door in found["doors"]:
        if door["state"] != "closed" or door["distance"] is None:
            continue
        approach = (door["approach"]["x"], door["approach"]["y"])
        action = {"tool": "interact", "arguments": {"action": "open", "target": {"direction": door["direction"]}}}
        yield {
            "kind": "door",
            **door,
            "reason": f"a closed door at {door['x']},{door['y']}: open it (kick it if locked)",
            "next": _there_or(level, approach, action),
        }
    for push in found["pushes"]:
        stand = (push["x"], push["y"])
        action = {"tool": "travel", "arguments": {"mode": "step", "target": {"direction": push["direction"]}}}
        if dungeon == "Sokoban":
            push = {**push, "reason": push["reason"] + "; in Sokoban a wrong push can spoil the puzzle"}
        yield {"kind": "push", **push, "next": _there_or(level, stand, action)}
    for spot in found["searchSpots"][:SEARCH_OPTIONS]:
        action = {"tool": "interact", "arguments": {"action": "search", "turns": spot["turns"]}}
        yield {"kind": "search", **spot, "next": _there_or(level, (spot["x"], spot["y"]), action)}
    for way in found["waysUp"]:
        if way["distance"] is None or (depth == 1 and dungeon in (None, MAIN_DUNGEON)):
            continue  # up from Dlvl 1 leaves the dungeon: the game ends
        climb = {"tool": "travel", "arguments": {"mode": "climb", "direction": "up"}}
        yield {
            "kind": "wayUp",
            **way,
            "reason": _way_up_reason(depth, dungeon),
            "next": _there_or(level, (way["x"], way["y"]), climb),
        }


def way_on(level: LevelView, *, depth: int | None = None, dungeon: str | None = None) -> dict[str, Any]:
    """The `plan wayOn` result (module docstring); depth and dungeon as the status line shows them."""
    steps = FirstSteps(level)
    found: dict[str, Any] = {
        "waysDown": ways(level, WAYS_DOWN, steps),
        "trapDoors": trap_doors(level, steps),
        "frontiers": frontiers(level, steps),
        "doors": doors(level, steps),
        "pushes": pushes(level, steps),
        "searchSpots": search_spots(level, steps),
        "waysUp": ways(level, WAYS_UP, steps),
    }
    options = list(_options(level, found, depth, dungeon))
    reachable_down = any(option["kind"] in ("wayDown", "trapDoor") for option in options)
    result: dict[str, Any] = {
        "kind": "wayOn",
        "policy": "knownWalking",
        "basis": basis(level),
        "stuck": not reachable_down and not found["frontiers"],
        "options": options,
        "searchSpots": found["searchSpots"],
        "pushes": found["pushes"],
        "trapDoors": found["trapDoors"],
    }
    if result["stuck"]:
        blocker = creature_in_the_way(level)
        if blocker is not None:  # the level is stuck only while it stands there
            result["blockedBy"] = {"x": blocker[0], "y": blocker[1]}
    return result
