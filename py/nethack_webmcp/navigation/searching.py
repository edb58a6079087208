"""searching.py - where to search for a hidden door or corridor, ranked.

search_spots(level) lists the reachable squares worth searching from, best
first (at most SEARCH_SPOTS), each the square to stand on with a reason:

* toward   - the reachable square closest to a remembered door or way down
             that is seen but cannot be reached, at most TOWARD_REACH squares
             from it (something hidden lies between);
* deadEnd  - a corridor square where the corridor stops (frontiers.is_dead_end):
             where a hidden corridor most often goes on;
* wall     - a floor square beside a room's wall;
* corridor - any other corridor square.

A spot's `score` is the unknown area it could open - the undiscovered
squares in a box around it (`undiscovered`: wide, because rooms are wide),
times the weight of its kind (WEIGHTS: a seen goal beats a dead end beats a
wall) - discounted by the search turns already made on it or next to it
(`searched`, from the navigation memory: LevelView.searched). NetHack 3.6
finds an adjacent hidden door or corridor on one search turn one time in
seven (dosearch0, Luck 0), so after n turns something there is still hidden
with probability (6/7)^n: that is the discount. Walls and corridors facing
fewer than SEARCH_WORTH undiscovered squares are not listed. Spots keep
SEARCH_SPREAD+1 squares apart: a search reaches only the eight neighbours,
so a spot beside a better one searches mostly the same wall.
"""

from __future__ import annotations

from typing import Any

from ..geometry import CARDINAL, COMPASS, Position
from .frontiers import FirstSteps, _entry, _undiscovered, dead_ends
from .level import LevelView
from .terrain import DOOR_FEATURES, WAYS_DOWN

SEARCH_SPOTS = 8
SEARCH_TURNS = 15  # turns per search call: (6/7)^15 ~ 0.1 left unfound per hidden square
# Undiscovered squares are counted in a box this far around a spot, inside
# the part of the map that can hold rooms.
SEARCH_REACH_X, SEARCH_REACH_Y = 10, 4
SEARCH_SPREAD = 2  # spots at least this many squares +1 apart
SEARCH_WORTH = 30  # a wall or corridor facing fewer undiscovered squares than this: not worth it
ROOM_AREA_X, ROOM_AREA_Y = (1, 78), (1, 20)
WEIGHTS = {"toward": 3, "deadEnd": 2, "wall": 1, "corridor": 1}
FIND_CHANCE = 1 / 7  # per search turn, per adjacent hidden square
TOWARD_REACH = 6  # a seen goal this close (squares apart) to the nearest reachable square: something hidden between


class _UndiscoveredCounts:
    """Undiscovered squares in any box around a square, in constant time (2-D prefix sums)."""

    def __init__(self, level: LevelView) -> None:
        width, height = ROOM_AREA_X[1] + 2, ROOM_AREA_Y[1] + 2
        self.sums = [[0] * (width + 1) for _ in range(height + 1)]
        for y in range(height):
            for x in range(width):
                inside = ROOM_AREA_X[0] <= x <= ROOM_AREA_X[1] and ROOM_AREA_Y[0] <= y <= ROOM_AREA_Y[1]
                cell = 1 if inside and _undiscovered(level, x, y) else 0
                self.sums[y + 1][x + 1] = cell + self.sums[y][x + 1] + self.sums[y + 1][x] - self.sums[y][x]
        self.width, self.height = width, height

    def around(self, x: int, y: int) -> int:
        x0, x1 = max(0, x - SEARCH_REACH_X), min(self.width - 1, x + SEARCH_REACH_X)
        y0, y1 = max(0, y - SEARCH_REACH_Y), min(self.height - 1, y + SEARCH_REACH_Y)
        s = self.sums
        return s[y1 + 1][x1 + 1] - s[y0][x1 + 1] - s[y1 + 1][x0] + s[y0][x0]


def searched_around(level: LevelView, position: Position) -> int:
    """Search turns made on position or one of its eight neighbours (each such search reached some of its wall)."""
    x, y = position
    return level.searched_at(x, y) + sum(level.searched_at(x + dx, y + dy) for _, dx, dy in COMPASS)


def _apart(a: Position, b: Position) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _closest_reachable(steps: FirstSteps, goal: Position) -> Position | None:
    """The reachable square nearest (as the crow flies) to goal, then nearest to walk to."""
    best = min(
        steps.distance.items(),
        default=None,
        key=lambda item: (max(abs(item[0][0] - goal[0]), abs(item[0][1] - goal[1])), item[1]),
    )
    return best[0] if best else None


def _candidates(level: LevelView, steps: FirstSteps) -> dict[Position, tuple[str, Position | None]]:
    """Every square worth considering, with its kind (the strongest when several apply) and goal."""
    found: dict[Position, tuple[str, Position | None]] = {}
    goals = level.positions_with_feature("".join(sorted(DOOR_FEATURES)) + WAYS_DOWN)
    for goal in sorted(goals, key=lambda p: (p[1], p[0])):
        if goal in steps.distance or any((goal[0] + dx, goal[1] + dy) in steps.distance for _, dx, dy in CARDINAL):
            continue  # reachable, or a door with a reachable approach: nothing hidden in between
        near = _closest_reachable(steps, goal)
        # Only a goal close by is behind a hidden square here: one far off is seen across unexplored map.
        if near is not None and near not in found and _apart(near, goal) <= TOWARD_REACH:
            found[near] = ("toward", goal)
    for end in dead_ends(level, steps):
        found.setdefault((end["x"], end["y"]), ("deadEnd", None))
    for x, y in steps.distance:
        if (x, y) in found:
            continue
        if level.feature(x, y) == "#":
            found[(x, y)] = ("corridor", None)
        elif any(level.feature(x + dx, y + dy) == "W" for _, dx, dy in CARDINAL):
            found[(x, y)] = ("wall", None)
    return found


def _reason(kind: str, goal: Position | None, undiscovered: int, searched: int, level: LevelView) -> str:
    if kind == "toward" and goal is not None:
        what = "way down" if level.feature(*goal) in WAYS_DOWN else "door"
        text = f"the nearest square to the {what} at {goal[0]},{goal[1]}, seen but not reachable"
    else:
        place = {"deadEnd": "a dead-end corridor", "wall": "a room wall", "corridor": "a corridor"}[kind]
        text = f"{place} facing {undiscovered} undiscovered squares"
    return text + (f", searched {searched} turns" if searched else ", not searched yet")


def search_spots(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Where to search for hidden doors and corridors, best first (module docstring)."""
    steps = steps or FirstSteps(level)
    unknown = _UndiscoveredCounts(level)
    scored = []
    for position, (kind, goal) in _candidates(level, steps).items():
        around = unknown.around(*position)
        if kind in ("wall", "corridor") and around < SEARCH_WORTH:
            continue
        searched = searched_around(level, position)
        area = max(around, SEARCH_WORTH) if kind == "toward" else around
        score = round(WEIGHTS[kind] * area * (1 - FIND_CHANCE) ** searched)
        distance = steps.distance[position]
        scored.append((-score, distance, position[1], position[0], kind, goal, around, searched))
    scored.sort()
    spots: list[dict[str, Any]] = []
    taken: list[Position] = []
    for score, _, y, x, kind, goal, around, searched in scored:
        if len(spots) >= SEARCH_SPOTS:
            break
        if any(max(abs(x - tx), abs(y - ty)) <= SEARCH_SPREAD for tx, ty in taken):
            continue
        taken.append((x, y))
        spot = {**_entry((x, y), steps), "spot": kind}
        if goal is not None:
            spot["toward"] = {"x": goal[0], "y": goal[1]}
        spot.update(
            undiscovered=around,
            searched=searched,
            score=-score,
            turns=SEARCH_TURNS,
            reason=_reason(kind, goal, around, searched, level),
        )
        spots.append(spot)
    return spots
