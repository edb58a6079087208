"""nearby.py - `scene.nearby`: the hero's eight neighbours, compactly.

A routine frame needs what one step in each direction would meet; the
full radius-4 neighborhood (81 cells) is a `plan` query. Each entry keeps
the navigation neighborhood's own facts (navigation.neighborhood is the
one resolver), flattened: terrain type and freshness, walkability, the
displayed occupant, objects, hazards and the movement intent.
"""

from __future__ import annotations

from typing import Any

from ..geometry import COMPASS
from ..navigation import neighborhood_cell
from ..navigation.level import LevelView


def compact(cell: dict[str, Any]) -> dict[str, Any]:
    """One neighbourhood cell without the keys a routine frame can do without."""
    entry: dict[str, Any] = {"x": cell["x"], "y": cell["y"]}
    movement = cell.get("movement")
    if movement:
        entry["direction"] = movement["direction"]
    if not cell["inBounds"]:
        entry["inBounds"] = False
        return entry
    terrain = cell["terrain"]
    entry["terrain"] = terrain["type"]
    if terrain["freshness"] != "current":
        entry["freshness"] = terrain["freshness"]
    entry["walkable"] = cell["walkable"]
    for key in ("occupant", "objects", "hazards"):
        if key in cell:
            entry[key] = cell[key]
    if movement:
        entry["intent"] = movement["intent"]
        if movement.get("requiresSqueeze"):
            entry["requiresSqueeze"] = True
        if movement.get("blocked"):
            entry["blocked"] = movement["blocked"]["reason"]
    return entry


def nearby(level: LevelView) -> list[dict[str, Any]]:
    """The eight adjacent cells, in compass order."""
    hx, hy = level.hero
    return [compact(neighborhood_cell(level, hx + dx, hy + dy)) for _, dx, dy in COMPASS]
