"""boulders.py - boulder pushes that open a way.

Routes never cross a displayed boulder (a push may fail), so a corridor a
boulder blocks ends there for every plan. pushes(level) lists the pushes
worth trying: a boulder, the square to push from (reachable now) and the
direction, when

* the square behind the boulder is known passable (policy.passable: known
  walkable terrain, no known trap, no boulder, no creature - a pet blocks
  a boulder too), and neither step is a diagonal into or out of a door or
  a squeeze between two perceived rock squares (NetHack refuses those);
* the push connects to something not reachable now: the square behind is
  not reachable now, and with the boulder out of the way (pushed on, one
  push at a time: a corridor is cleared by pushing along it) a walk from
  the hero reaches squares it does not reach now, among them a way down
  (`opens: "wayDown"`), a known trap door or hole (`trapDoor`) or a
  frontier - an unvisited square beside undiscovered map (`frontier`).
  `opened` counts those squares.

Best first: a way down, then a trap door, then a frontier; then the
nearest, then the most opened. This is a plan over what the player saw: the
push may still fail (another boulder unseen beyond, a boulder stuck in a
doorway), and in Sokoban a wrong push can close the level's puzzle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..geometry import COMPASS, MAP_ROWS, Position
from .frontiers import FirstSteps, _entry, is_frontier
from .level import LevelView
from .policy import distances_from, passable
from .terrain import WAYS_DOWN, diagonal_corner, door_blocks_diagonal, walkable

OPENS = ("wayDown", "trapDoor", "frontier")
#: The trap types (as their glyph names them) that are a way down.
WAY_DOWN_TRAPS = ("trap door", "hole")


def boulder_positions(level: LevelView) -> list[Position]:
    """Every square a boulder is displayed on, row-major."""
    return [(x, y) for y in range(MAP_ROWS) for x, kind in enumerate(level.kinds[y]) if kind == "B"]


def _with_kind(rows: tuple[str, ...], position: Position, kind: str) -> tuple[str, ...]:
    x, y = position
    changed = list(rows)
    changed[y] = rows[y][:x] + kind + rows[y][x + 1 :]
    return tuple(changed)


def _cleared(level: LevelView, boulder: Position) -> LevelView:
    """The view with the boulder out of the way (its square shown as terrain)."""
    return replace(level, kinds=_with_kind(level.kinds, boulder, "T"), observed=None)


def _step_ok(level: LevelView, a: Position, b: Position) -> bool:
    if a[0] == b[0] or a[1] == b[1]:
        return True
    return not door_blocks_diagonal(level, a, b, known_only=False) and diagonal_corner(level, a, b) != "squeeze"


def _opens(level: LevelView, now: set[Position], boulder: Position) -> tuple[str, int] | None:
    """What clearing the boulder connects to (OPENS) and how many squares it makes reachable, or None."""
    after = _cleared(level, boulder)
    new = [p for p in distances_from(after, level.hero, relaxed=True) if p not in now and p != boulder]
    if any(level.feature(*p) in WAYS_DOWN for p in new):
        return "wayDown", len(new)
    if any(level.trap_type(*p) in WAY_DOWN_TRAPS or _beside_trap_door(level, p) for p in new):
        return "trapDoor", len(new)
    if any(is_frontier(after, p) for p in new):
        return "frontier", len(new)
    return None


def _beside_trap_door(level: LevelView, position: Position) -> bool:
    x, y = position
    return any(level.trap_type(x + dx, y + dy) in WAY_DOWN_TRAPS for _, dx, dy in COMPASS)


def pushes(level: LevelView, steps: FirstSteps | None = None) -> list[dict[str, Any]]:
    """Boulder pushes that open a way, best first (module docstring)."""
    steps = steps or FirstSteps(level)
    now = set(steps.distance)
    found = []
    for boulder in boulder_positions(level):
        if walkable(level, *boulder) is False:
            continue
        for name, dx, dy in COMPASS:
            stand = (boulder[0] - dx, boulder[1] - dy)
            behind = (boulder[0] + dx, boulder[1] + dy)
            if stand not in now or behind in now or not passable(level, *behind):
                continue
            if not (_step_ok(level, stand, boulder) and _step_ok(level, boulder, behind)):
                continue
            opened = _opens(level, now, boulder)
            if opened is None:
                continue
            opens, count = opened
            entry = _entry(stand, steps)
            entry.update(
                boulder={"x": boulder[0], "y": boulder[1]},
                direction=name,
                opens=opens,
                opened=count,
                reason=f"push the boulder at {boulder[0]},{boulder[1]} {name}: it opens "
                + {"wayDown": "a way down", "trapDoor": "a trap door", "frontier": "undiscovered map"}[opens]
                + f" ({count} squares)",
            )
            found.append(entry)
    found.sort(key=lambda e: (OPENS.index(e["opens"]), e["distance"], -e["opened"], e["y"], e["x"]))
    return found
