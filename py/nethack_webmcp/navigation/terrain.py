"""terrain.py - what a perceived square's terrain means for walking.

The driver's `features` layer is typed terrain memory: one code per square
for the last terrain glyph NetHack displayed there (port_map.c). This module
is the only place that interprets those codes, so the neighborhood, the
route policy and the frontier finder agree on what a square is.

Walkability follows the seed ("Perceived actions and neighborhood"): it
describes last-known terrain traversal for ordinary locomotion, independent
of occupants and hazards. True for floor-like terrain and open doorways;
False for walls, trees and iron bars; None (unknown) for terrain never
shown, closed doors (whether NetHack would auto-open one depends on lock
state nobody has disclosed), water, lava, raised drawbridges and the
unusual planes' air and cloud. A square the hero has stood on is known
walkable even when its terrain was never displayed bare (the driver
withholds terrain under the hero, objects and creatures while the hero is
hallucinating, stunned or confused).

Diagonals follow NetHack 3.6 hack.c test_move(): no diagonal move into or
out of a door square that has a door, open or closed (doorless and broken
doorways, both drawn as S_ndoor = 'd', allow diagonals); and a diagonal
between two rock squares (walls, stone, trees) is a squeeze.
"""

from __future__ import annotations

from typing import Final, Literal

from ..geometry import Position, in_bounds
from .level import LevelView

#: Feature code -> terrain type name used in neighborhood and world views.
TERRAIN_TYPES: Final[dict[str, str]] = {
    "W": "wall",
    "d": "doorway",
    "V": "openDoor",
    "H": "openDoor",
    "v": "closedDoor",
    "h": "closedDoor",
    "B": "ironBars",
    "T": "tree",
    ".": "floor",
    ":": "floor",
    "#": "corridor",
    "<": "stairsUp",
    ">": "stairsDown",
    "l": "ladderUp",
    "L": "ladderDown",
    "_": "altar",
    "g": "grave",
    "\\": "throne",
    "s": "sink",
    "{": "fountain",
    "~": "pool",
    "i": "ice",
    "x": "lava",
    "=": "loweredDrawbridge",
    "r": "raisedDrawbridge",
    "a": "air",
    "k": "cloud",
    "w": "water",
    "^": "trap",
}

WALKABLE_FEATURES: Final = frozenset("dVH.:#<>lL_g\\s{i=")
BLOCKING_FEATURES: Final = frozenset("WBT")
#: Terrain NetHack treats as rock for squeezing (IS_ROCK: stone, walls, trees).
ROCK_FEATURES: Final = frozenset("WT")
#: Door squares with a door in the frame, open or closed: no diagonals.
INTACT_DOOR_FEATURES: Final = frozenset("VHvh")
CLOSED_DOOR_FEATURES: Final = frozenset("vh")
DOOR_FEATURES: Final = frozenset("dVHvh")
WAYS_DOWN: Final = ">L"
WAYS_UP: Final = "<l"
_HAZARDS: Final[dict[str, str]] = {"^": "trap", "~": "water", "w": "water", "x": "lava"}

Freshness = Literal["current", "remembered", "unknown"]
Corner = Literal["clear", "squeeze", "uncertain"]


def feature_walkable(code: str) -> bool | None:
    """Walkability of one feature code alone; None when the code does not settle it."""
    if code in WALKABLE_FEATURES:
        return True
    if code in BLOCKING_FEATURES:
        return False
    return None


def base_feature(level: LevelView, x: int, y: int) -> str:
    """The feature beneath a known trap when it was seen before, else the feature itself."""
    code = level.feature(x, y)
    if code == "^":
        return level.trap_base(x, y) or code
    return code


def walkable(level: LevelView, x: int, y: int) -> bool | None:
    """Last-known terrain traversal of a square (see module docstring)."""
    if not in_bounds(x, y):
        return False
    code = base_feature(level, x, y)
    if code in (" ", "^"):
        # Never displayed bare (or only as a trap): the hero's footsteps are the only evidence.
        return True if level.was_visited(x, y) else None
    return feature_walkable(code)


def terrain_type(level: LevelView, x: int, y: int, *, local: bool = True) -> str:
    """The terrain type name; 'unknown' when never shown.

    Local views (neighborhood, route) report the perceived base beneath a
    known trap when there is one; the world overlay (local=False) says 'trap'.
    """
    code = base_feature(level, x, y) if local else level.feature(x, y)
    return TERRAIN_TYPES.get(code, "unknown")


def freshness(level: LevelView, x: int, y: int) -> Freshness:
    """'current' when known terrain is in sight, 'remembered' out of sight, else 'unknown'."""
    if level.feature(x, y) == " ":
        return "unknown"
    return "current" if level.visible(x, y) else "remembered"


def door_state(code: str) -> Literal["open", "closed", "doorway"] | None:
    """open/closed for a door in its frame, doorway for no door or a broken one."""
    if code in ("V", "H"):
        return "open"
    if code in ("v", "h"):
        return "closed"
    if code == "d":
        return "doorway"
    return None


def door_orientation(code: str) -> Literal["vertical", "horizontal"] | None:
    """The wall axis of an intact door: vertical frame runs north-south."""
    if code in ("V", "v"):
        return "vertical"
    if code in ("H", "h"):
        return "horizontal"
    return None


def is_intact_door(level: LevelView, x: int, y: int) -> bool:
    """True when the square is remembered as a door with a door in its frame."""
    return level.feature(x, y) in INTACT_DOOR_FEATURES


def is_closed_door(level: LevelView, x: int, y: int) -> bool:
    """True when the square is remembered as a closed door."""
    return level.feature(x, y) in CLOSED_DOOR_FEATURES


def hazards(level: LevelView, x: int, y: int) -> list[str]:
    """Known hazards of a square: 'trap', 'water', 'lava' (in that order, no repeats)."""
    found: list[str] = []
    codes = [level.feature(x, y)]
    base = level.trap_base(x, y)
    if base:
        codes.append(base)
    if level.kind(x, y) == "X":
        codes.append("^")
    for code in codes:
        name = _HAZARDS.get(code)
        if name and name not in found:
            found.append(name)
    order = ("trap", "water", "lava")
    return sorted(found, key=order.index)


def has_boulder(level: LevelView, x: int, y: int) -> bool:
    """True when a boulder is displayed on the square."""
    return level.kind(x, y) == "B"


def is_known_rock(level: LevelView, x: int, y: int) -> bool:
    """True when the square is perceived as rock for squeezing: a wall or a tree."""
    return level.feature(x, y) in ROCK_FEATURES


def is_known_open(level: LevelView, x: int, y: int) -> bool:
    """True when the square is perceived as not rock: known non-rock terrain or stood on."""
    code = level.feature(x, y)
    if code != " ":
        return code not in ROCK_FEATURES
    return level.was_visited(x, y)


def diagonal_corner(level: LevelView, a: Position, b: Position) -> Corner:
    """How the two squares beside a diagonal step from a to b were perceived.

    'squeeze' - both are perceived rock (NetHack's diagonal squeeze);
    'clear' - at least one is perceived not to be rock, so no squeeze;
    'uncertain' - otherwise (an unknown square may be rock).
    """
    side_one = (a[0], b[1])
    side_two = (b[0], a[1])
    if is_known_open(level, *side_one) or is_known_open(level, *side_two):
        return "clear"
    if is_known_rock(level, *side_one) and is_known_rock(level, *side_two):
        return "squeeze"
    return "uncertain"


def may_be_intact_door(level: LevelView, x: int, y: int) -> bool:
    """True for a known intact door, or a square of unknown terrain set in a perceived wall.

    The driver fills in the terrain under the hero, objects and creatures
    from NetHack's own #terrain view, but withholds it while the hero is
    hallucinating, stunned or confused; a square stood on (or passed in a
    run) then may never have been displayed bare, so whether it is a door is
    unknown. Doors sit in walls: when perceived walls flank such a square on
    opposite sides, routes treat it as a possible door. This restricts
    movement only; it never asserts terrain.
    """
    code = level.feature(x, y)
    if code in INTACT_DOOR_FEATURES:
        return True
    if code not in (" ", "^") or (code == "^" and level.trap_base(x, y)):
        return False
    wall = level.feature
    return (wall(x - 1, y) == "W" and wall(x + 1, y) == "W") or (wall(x, y - 1) == "W" and wall(x, y + 1) == "W")


def door_blocks_diagonal(level: LevelView, a: Position, b: Position, *, known_only: bool = True) -> bool:
    """True when a diagonal step from a to b enters or leaves an intact door square.

    known_only=True uses remembered doors alone (what the neighborhood
    reports); False also counts possible doors (what routes avoid).
    """
    test = is_intact_door if known_only else may_be_intact_door
    return test(level, *a) or test(level, *b)
