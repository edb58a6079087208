"""frontiers.py - where to explore, where the ways down are, and how to reach doors.

navigation(level) (overview.py) answers the seed's session.navigation query
from one LevelView, under the same knownWalking policy as routes (policy.py),
from the lists built here:

* frontiers - reachable squares the hero has not stood on (neither in an
  observed position nor in the driver's `visited` rows, which include the
  squares a run passed) that have an undiscovered cardinal neighbour:
  nothing has ever been displayed there (no terrain memory and no glyph)
  and the hero never stood there. A square covered by an object or a
  creature is not undiscovered - standing next to it reveals nothing more.
* waysDown / waysUp - every remembered downward (upward) stair or ladder,
  reachable or not (unreachable ones have distance null).
* deadEnds - reachable corridor squares where the corridor stops (its
  walkable neighbours form one short arc, so it comes from one side only):
  where a hidden passage most often continues, worth searching.
* searchSpots - where to search for a hidden door or passage, ranked
  (searching.py).
* doors - every remembered door square (doorway, open, closed) with the
  nearest reachable cardinal approach square, its walking distance and the
  direction from the approach into the door. Lock knowledge comes only from
  disclosures this module never sees, so it is always unknown here.

Every entry with a positive distance also names the route's first step
(`firstStep`, the same direction route() would take first), so a caller can
act without a second query. A door's `direction` is the seed's: the step
from its approach square into the door. Lists are sorted by distance
(unreachable last), then row-major; a door's approach ties are broken by
side in compass order (north, south, east, west of the door).
"""

from __future__ import annotations

from typing import Any

from ..geometry import CARDINAL, COMPASS, Position, direction_between, in_bounds
from .level import LevelView
from .policy import distances_from, passable, step_allowed, without_creatures
from .route import blocking_creature
from .terrain import (
    DOOR_FEATURES,
    door_orientation,
    door_state,
    terrain_type,
    walkable,
)


class _Searches:
    """Distances from the hero and from each possible first step, over one graph."""

    def __init__(self, level: LevelView, relaxed: bool) -> None:
        origin = level.hero
        self.distance = distances_from(level, origin, relaxed)
        self.from_first: list[tuple[str, dict[Position, int]]] = []
        for name, dx, dy in COMPASS:
            nxt = (origin[0] + dx, origin[1] + dy)
            if passable(level, *nxt) and step_allowed(level, origin, nxt, relaxed):
                self.from_first.append((name, distances_from(level, nxt, relaxed)))

    def first_step(self, target: Position) -> str | None:
        total = self.distance.get(target)
        if not total:
            return None
        for name, distance in self.from_first:
            if distance.get(target) == total - 1:
                return name
        return None


class FirstSteps:
    """Walking distances from the hero and the tie-broken first step toward any square.

    The first step toward t is the first compass direction whose neighbour n
    lies on a shortest path (distance from n to t is one less), which is
    exactly the first step route() takes. One search per possible first
    step answers it for every target at once. Squares the strict graph does
    not reach but the relaxed one does (past a diagonal with an unknown
    corner, policy.py) have their relaxed distance and are `uncertain`.
    """

    def __init__(self, level: LevelView) -> None:
        self.origin = level.hero
        self._strict = _Searches(level, relaxed=False)
        self._relaxed = _Searches(level, relaxed=True)
        self.uncertain = frozenset(set(self._relaxed.distance) - set(self._strict.distance))
        self.distance = {**self._relaxed.distance, **self._strict.distance}

    def first_step(self, target: Position) -> str | None:
        """The direction of the first step of the route to target; None at the origin or unreachable."""
        searches = self._relaxed if target in self.uncertain else self._strict
        return searches.first_step(target)


def _undiscovered(level: LevelView, x: int, y: int) -> bool:
    return (
        in_bounds(x, y)
        and level.feature(x, y) == " "
        and level.kind(x, y) == " "
        and level.mark(x, y) == " "
        and not level.was_visited(x, y)
    )


def borders_undiscovered(level: LevelView, position: Position) -> bool:
    """True when a cardinal neighbour of position has never displayed anything."""
    x, y = position
    return any(_undiscovered(level, x + dx, y + dy) for _, dx, dy in CARDINAL)


def is_frontier(level: LevelView, position: Position) -> bool:
    """True when position is an unvisited passable square beside undiscovered terrain.

    Reachability is not tested here; frontiers() lists only reachable ones.
    """
    x, y = position
    if level.was_visited(x, y) or not passable(level, x, y):
        return False
    return borders_undiscovered(level, position)


def _entry(position: Position, steps: FirstSteps) -> dict[str, Any]:
    entry: dict[str, Any] = {"x": position[0], "y": position[1], "distance": steps.distance.get(position)}
    direction = steps.first_step(position)
    if direction is not None:
        entry["firstStep"] = direction
    if position in steps.uncertain:
        entry["uncertain"] = True  # reached only past a diagonal with an unknown corner
    return entry


def _order(entry: dict[str, Any]) -> tuple[bool, int, int, int]:
    distance = entry["distance"]
    return (distance is None, distance or 0, entry["y"], entry["x"])


def frontiers(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Reachable frontier squares, nearest first, each with distance and first step."""
    steps = steps or FirstSteps(level)
    found = [_entry(p, steps) for p in steps.distance if is_frontier(level, p)]
    return sorted(found, key=_order)


def _area_class(level: LevelView, position: Position) -> str:
    return "corridor" if level.feature(*position) == "#" else "room"


def _area(level: LevelView, distance: dict[Position, int]) -> set[Position]:
    """The reachable squares connected to the hero through squares of the hero's own
    class (corridor, or room floor with its doorways): the room or corridor run it is in."""
    start = level.hero
    kind = _area_class(level, start)
    area, stack = {start}, [start]
    while stack:
        x, y = stack.pop()
        for _, dx, dy in COMPASS:
            nxt = (x + dx, y + dy)
            if nxt in distance and nxt not in area and _area_class(level, nxt) == kind:
                area.add(nxt)
                stack.append(nxt)
    return area


def explore_order(level: LevelView, relaxed: bool = False) -> list[tuple[Position, int]]:
    """Reachable frontiers in the order explore visits them, with their distance:
    those of the room or corridor the hero is in first (a room is finished before
    backtracking), then the nearest; ties row-major. One search, no first steps.
    relaxed: over the relaxed graph (policy.py), for when the strict one has none."""
    distance = distances_from(level, level.hero, relaxed)
    found = [(p, d) for p, d in distance.items() if d and is_frontier(level, p)]
    if not found:
        return []
    area = _area(level, distance)
    return sorted(found, key=lambda entry: (entry[0] not in area, entry[1], entry[0][1], entry[0][0]))


def creature_in_the_way(level: LevelView) -> Position | None:
    """The displayed creature standing on the way to the first frontier that
    would be reachable if no creature stood anywhere, or None."""
    order = explore_order(without_creatures(level), relaxed=True)
    if not order:
        return None
    return blocking_creature(level, order[0][0])


def continues_run(level: LevelView, position: Position) -> bool:
    """True when a frontier touches position: the corridor (or room edge) being
    followed goes on, so reaching position does not finish a frontier."""
    x, y = position
    return any(is_frontier(level, (x + dx, y + dy)) for _, dx, dy in COMPASS)


# The eight neighbours in ring order: consecutive entries touch each other.
RING = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DEAD_END_ARC = 3  # at most this many touching walkable neighbours: the corridor comes from one side only


def is_dead_end(level: LevelView, position: Position) -> bool:
    """True when a corridor square's walkable neighbours touch one another in one
    short arc of the ring around it: the corridor comes from one side and stops
    (a plain end, or one where the dug run bent before stopping, e.g. `##` over
    `#` diagonally), so nothing leads on from it."""
    x, y = position
    # A neighbour counts only when a planned walk may step to it: a corridor
    # square seen only across a squeeze between two known rock squares leads
    # nowhere yet (dug corridors are orthogonal, so a hidden square sits in
    # that corner).
    # An uncertain diagonal (an unknown corner) counts: the corridor may go on there.
    open_ = [
        bool(walkable(level, x + dx, y + dy)) and step_allowed(level, position, (x + dx, y + dy), relaxed=True)
        for dx, dy in RING
    ]
    count = sum(open_)
    if count <= 1:
        return True
    if count > DEAD_END_ARC or all(open_):
        return False
    # One arc: exactly one place in the ring where a walkable square follows a closed one.
    starts = sum(1 for i in range(8) if open_[i] and not open_[i - 1])
    return starts == 1


def dead_ends(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Reachable corridor squares where the corridor stops (is_dead_end), nearest first."""
    steps = steps or FirstSteps(level)
    found = [
        _entry(position, steps)
        for position in level.positions_with_feature("#")
        if position in steps.distance and is_dead_end(level, position)
    ]
    return sorted(found, key=_order)


def ways(level: LevelView, codes: str, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Remembered stairs/ladders with one of the feature codes, reachable or not."""
    steps = steps or FirstSteps(level)
    found = []
    for position in level.positions_with_feature(codes):
        entry = _entry(position, steps)
        entry["type"] = terrain_type(level, *position)
        found.append(entry)
    return sorted(found, key=_order)


def lock_knowledge(level: LevelView, x: int, y: int) -> dict[str, Any]:
    """What NetHack has told the player about this door's lock: `witnessed`
    this turn, `remembered` from an earlier turn, else unknown."""
    record = level.door_locks.get((x, y))
    if not record:
        return {"state": "unknown", "freshness": "unknown"}
    turn = record.get("turn")
    fresh = "witnessed" if turn is not None and turn == level.turn else "remembered"
    return {"state": record.get("lock", "unknown"), "freshness": fresh, "observedTurn": turn}


def doors(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Remembered door squares with their nearest reachable cardinal approach."""
    steps = steps or FirstSteps(level)
    found = []
    for x, y in level.positions_with_feature("".join(sorted(DOOR_FEATURES))):
        code = level.feature(x, y)
        entry: dict[str, Any] = {"x": x, "y": y, "state": door_state(code)}
        orientation = door_orientation(code)
        if orientation:
            entry["orientation"] = orientation
        entry["lock"] = lock_knowledge(level, x, y)
        best: tuple[int, int, Position, str] | None = None
        for rank, (_, dx, dy) in enumerate(CARDINAL):
            approach = (x + dx, y + dy)
            distance = steps.distance.get(approach)
            if distance is None:
                continue
            into = direction_between(approach, (x, y))
            assert into is not None
            if best is None or (distance, rank) < best[:2]:
                best = (distance, rank, approach, into)
        if best is None:
            entry["distance"] = None
        else:
            distance, _, approach, into = best
            entry["distance"] = distance
            entry["approach"] = {"x": approach[0], "y": approach[1]}
            entry["direction"] = into
            first = steps.first_step(approach)
            if first is not None:
                entry["firstStep"] = first
        found.append(entry)
    return sorted(found, key=_order)
