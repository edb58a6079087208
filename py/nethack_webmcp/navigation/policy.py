"""policy.py - the knownWalking policy: which squares and steps a planned walk may use.

Routes, frontiers, doors and the Navigator all plan over the same graph, so
its two rules live here and nowhere else ("Known walking routes"):

* a square may be stood on when its last-known terrain is walkable, it has
  no known hazard (trap, water, lava), no displayed boulder, and no
  displayed creature other than a tame ally (allies are displaced by
  ordinary movement, so a route may pass through or end on them);
* a step between two such squares is allowed when it is orthogonal, or
  when it is a diagonal that neither enters nor leaves a (possible) intact
  door and whose corner is perceived clear, or that the hero has walked on
  this level (either way) - never a squeeze between two perceived rock
  squares. A diagonal whose corner is unknown (never-seen squares, which in
  a corridor are usually solid rock NetHack lets a lightly loaded hero
  squeeze past) is *uncertain*: the strict graph leaves it out, and the
  relaxed graph (relaxed=True) takes it. Callers plan strictly first and
  fall back to the relaxed graph, reporting what they found that way as
  uncertain rather than disconnected.

Remembered terrain is allowed: the policy plans over what the player last
saw, it does not promise the square is unchanged.

Graph searches are breadth-first and expand neighbours in the fixed compass
order of geometry.py, so every result is deterministic.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ..geometry import COMPASS, Position, in_bounds
from .level import LevelView
from .terrain import (
    diagonal_corner,
    door_blocks_diagonal,
    has_boulder,
    hazards,
    walkable,
)


def blocks_walking(occupant: Mapping[str, Any] | None) -> bool:
    """True for any displayed creature except a tame ally.

    Hostile and peaceful creatures block; so do creatures whose attitude
    was not disclosed (detected, remembered unseen, warnings), because
    walking into them is an attack or a question, not a step.
    """
    return occupant is not None and occupant.get("kind") != "ally"


_CREATURE_CLASSES = re.compile("[MRDIW]")


def without_creatures(level: LevelView) -> LevelView:
    """The same view with every displayed creature taken away: what a walk
    could use if nobody stood in the way (to tell "a creature blocks it"
    from "no known way")."""
    kinds = tuple(_CREATURE_CLASSES.sub(" ", row) for row in level.kinds)
    return replace(level, entities={}, kinds=kinds, observed=None)


def passable(level: LevelView, x: int, y: int) -> bool:
    """True when the policy lets a planned walk stand on (x, y)."""
    # A view is immutable, so each square's answer is kept on the view the
    # first time it is asked: the graph searches ask for each square many times.
    known: dict[tuple[int, int], bool] | None = level.__dict__.get("_passable")
    if known is None:
        known = {}
        object.__setattr__(level, "_passable", known)
    found = known.get((x, y))
    if found is None:
        found = known[(x, y)] = (
            in_bounds(x, y)
            and walkable(level, x, y) is True
            and not hazards(level, x, y)
            and not has_boulder(level, x, y)
            and not blocks_walking(level.occupant_at(x, y))
        )
    return found


def step_allowed(level: LevelView, a: Position, b: Position, relaxed: bool = False) -> bool:
    """True when the policy allows the single step a -> b (b's own passability aside).

    relaxed also allows a diagonal whose corner is uncertain (module docstring)."""
    if a[0] == b[0] or a[1] == b[1]:
        return True
    if door_blocks_diagonal(level, a, b, known_only=False):
        return False
    if level.walked_between(a, b):
        return True
    corner = diagonal_corner(level, a, b)
    return corner == "clear" or (relaxed and corner == "uncertain")


def uncertain_step(level: LevelView, a: Position, b: Position) -> bool:
    """True when a -> b is allowed only by the relaxed graph (an unknown corner)."""
    return step_allowed(level, a, b, relaxed=True) and not step_allowed(level, a, b)


def _successors(level: LevelView, position: Position, relaxed: bool = False) -> Iterator[tuple[str, Position]]:
    x, y = position
    for name, dx, dy in COMPASS:
        nxt = (x + dx, y + dy)
        if passable(level, *nxt) and step_allowed(level, position, nxt, relaxed):
            yield name, nxt


def distances_from(level: LevelView, start: Position, relaxed: bool = False) -> dict[Position, int]:
    """Walking distance from start to every square reachable under the policy.

    start itself need not be passable (the hero may stand on a trap).
    """
    distance = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for _, nxt in _successors(level, here, relaxed):
            if nxt not in distance:
                distance[nxt] = distance[here] + 1
                queue.append(nxt)
    return distance


def distances_to(
    level: LevelView, goal: Position, stop_at: Position | None = None, relaxed: bool = False
) -> dict[Position, int]:
    """Walking distance from every square that can reach goal (goal must be passable).

    Search stops once stop_at is reached: every square nearer to goal has
    its distance by then, which is all a shortest-path walk from stop_at
    needs. stop_at is admitted even when not passable (it is the hero).
    """
    distance = {goal: 0}
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        x, y = here
        for _, dx, dy in COMPASS:
            before = (x - dx, y - dy)
            if before in distance:
                continue
            if before != stop_at and not passable(level, *before):
                continue
            if not step_allowed(level, before, here, relaxed):
                continue
            distance[before] = distance[here] + 1
            if before == stop_at:
                return distance
            queue.append(before)
    return distance
