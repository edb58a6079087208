"""neighborhood.py - the 9x9 perceived surroundings of the hero ("Perceived actions and neighborhood").

Radius 4 around the hero, exactly 81 cells in row-major order (dy, then dx,
each from -4 to 4). Each in-map cell says what is perceived there - terrain
with its freshness, walkability, a displayed occupant, displayed objects,
known hazards - and, for the eight adjacent cells, what an ordinary move in
that direction would attempt. Nothing here is a promise: a move is still an
attempt, and manual movement stays available toward false/null terrain.

Cell shape (camelCase, optional keys omitted when unknown or absent):

    {x, y, dx, dy, inBounds, walkable,
     terrain?: {type, mark?, orientation?, freshness},
     occupant?: {kind, mark, appearance?, attitude?},
     objects?: [{kind: "boulder", mark} | {kind: "statue", mark} | {mark}],
     hazards?: ["trap" | "water" | "lava"],
     movement?: {direction, intent, requiresSqueeze?, blocked?: {reason}}}

movement.intent: attack (a displayed creature that is not a tame ally),
displaceAlly, possiblePush (a displayed boulder), openDoor (an orthogonal
move into a remembered closed door: NetHack's autoopen), step otherwise.
movement.blocked.reason is "intactDoorDiagonal" for a diagonal into or out
of a remembered intact door - the only restriction the perceived map proves.
requiresSqueeze marks a diagonal between two perceived rock/tree squares,
without claiming the hero can or cannot fit.
"""

from __future__ import annotations

from typing import Any

from ..geometry import direction_between, in_bounds
from .level import LevelView
from .route import basis
from .terrain import (
    base_feature,
    diagonal_corner,
    door_blocks_diagonal,
    door_orientation,
    freshness,
    has_boulder,
    hazards,
    is_closed_door,
    terrain_type,
    walkable,
)

RADIUS = 4
#: Glyph classes that leave the terrain character uncovered.
_TERRAIN_GLYPHS = ("T", "X")


def _terrain(level: LevelView, x: int, y: int) -> dict[str, Any]:
    terrain: dict[str, Any] = {"type": terrain_type(level, x, y)}
    mark = level.mark(x, y)
    if (
        level.kind(x, y) in _TERRAIN_GLYPHS
        and (x, y) != level.hero
        and level.occupant_at(x, y) is None
        and 33 <= ord(mark) <= 126
    ):
        terrain["mark"] = mark
    orientation = door_orientation(base_feature(level, x, y))
    if orientation:
        terrain["orientation"] = orientation
    terrain["freshness"] = freshness(level, x, y)
    return terrain


def _occupant(level: LevelView, x: int, y: int) -> dict[str, Any] | None:
    occupant = level.occupant_at(x, y)
    if occupant is None:
        return None
    shown: dict[str, Any] = {"kind": occupant.get("kind"), "mark": occupant.get("mark", level.mark(x, y))}
    for key in ("appearance", "attitude"):
        if occupant.get(key):
            shown[key] = occupant[key]
    return shown


def _objects(level: LevelView, x: int, y: int) -> list[dict[str, Any]]:
    kind, mark = level.kind(x, y), level.mark(x, y)
    if kind == "B":
        return [{"kind": "boulder", "mark": mark}]
    if kind == "S":
        return [{"kind": "statue", "mark": mark}]
    if kind == "O":
        return [{"mark": mark}]
    return []


def _movement(level: LevelView, x: int, y: int, occupant: dict[str, Any] | None) -> dict[str, Any]:
    origin = level.hero
    direction = direction_between(origin, (x, y))
    assert direction is not None
    if occupant is not None:
        intent = "displaceAlly" if occupant.get("kind") == "ally" else "attack"
    elif has_boulder(level, x, y):
        intent = "possiblePush"
    elif is_closed_door(level, x, y) and (x == origin[0] or y == origin[1]):
        intent = "openDoor"
    else:
        intent = "step"
    movement: dict[str, Any] = {"direction": direction, "intent": intent}
    if x != origin[0] and y != origin[1]:
        if diagonal_corner(level, origin, (x, y)) == "squeeze":
            movement["requiresSqueeze"] = True
        if door_blocks_diagonal(level, origin, (x, y)):
            movement["blocked"] = {"reason": "intactDoorDiagonal"}
    return movement


def neighborhood_cell(level: LevelView, x: int, y: int) -> dict[str, Any]:
    """One cell of the neighborhood (also the answer for an adjacent action query)."""
    dx, dy = x - level.hero[0], y - level.hero[1]
    cell: dict[str, Any] = {"x": x, "y": y, "dx": dx, "dy": dy, "inBounds": in_bounds(x, y)}
    if not cell["inBounds"]:
        cell["walkable"] = False
        return cell
    cell["terrain"] = _terrain(level, x, y)
    cell["walkable"] = walkable(level, x, y)
    occupant = _occupant(level, x, y)
    if occupant is not None:
        cell["occupant"] = occupant
    objects = _objects(level, x, y)
    if objects:
        cell["objects"] = objects
    found = hazards(level, x, y)
    if found:
        cell["hazards"] = found
    if max(abs(dx), abs(dy)) == 1:
        cell["movement"] = _movement(level, x, y, occupant)
    return cell


def neighborhood(level: LevelView) -> dict[str, Any]:
    """The hero's radius-4 neighborhood: basis, radius and 81 row-major cells."""
    hx, hy = level.hero
    cells = [
        neighborhood_cell(level, hx + dx, hy + dy)
        for dy in range(-RADIUS, RADIUS + 1)
        for dx in range(-RADIUS, RADIUS + 1)
    ]
    return {"status": "available", "basis": basis(level), "radius": RADIUS, "cells": cells}
