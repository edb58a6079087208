"""geometry.py - the one vocabulary of the map: its bounds, positions and compass.

Everything in the package that names a direction, turns a map delta into
one, checks that a square lies on the map or iterates over the map reads
this module, so tools, projections and navigation cannot disagree. The
values are the driver's (docs/PROTOCOL.md; `protocol.describe` lists the
direction enums, and tests/python/test_vocabulary.py holds these tables
equal to it).

The compass order is the driver's own (proto_request.c) and is also the one
tie-break order when a choice between equally short paths must be made:
north, south, east, west, northeast, northwest, southeast, southwest. Map y
grows southward, as on the tty.
"""

from __future__ import annotations

from typing import Final

#: Width of every rows-v1 layer; column index = map x, x=0 is never used.
MAP_WIDTH: Final = 80
#: Map rows y=0..20.
MAP_ROWS: Final = 21
#: Playable bounds: x 1..79, y 0..20.
MIN_X: Final = 1
MAX_X: Final = MAP_WIDTH - 1
MIN_Y: Final = 0
MAX_Y: Final = MAP_ROWS - 1
#: The same bounds per axis of a `{"x", "y"}` position.
POSITION_BOUNDS: Final[dict[str, tuple[int, int]]] = {"x": (MIN_X, MAX_X), "y": (MIN_Y, MAX_Y)}

Position = tuple[int, int]

#: Compass directions in tie-break order, with (dx, dy) on the map.
COMPASS: Final[tuple[tuple[str, int, int], ...]] = (
    ("north", 0, -1),
    ("south", 0, 1),
    ("east", 1, 0),
    ("west", -1, 0),
    ("northeast", 1, -1),
    ("northwest", -1, -1),
    ("southeast", 1, 1),
    ("southwest", -1, 1),
)
#: The compass names alone, in the same order (what tool schemas list).
COMPASS_NAMES: Final[tuple[str, ...]] = tuple(name for name, _, _ in COMPASS)
#: The four cardinal directions, in the same order.
CARDINAL: Final[tuple[tuple[str, int, int], ...]] = COMPASS[:4]
#: Stairs and ladders: the two vertical directions.
VERTICAL: Final[tuple[str, ...]] = ("up", "down")
#: Where a zap, throw or fire can aim: the compass, the hero, up and down.
AIMS: Final[tuple[str, ...]] = (*COMPASS_NAMES, "self", *VERTICAL)

DELTAS: Final[dict[str, tuple[int, int]]] = {name: (dx, dy) for name, dx, dy in COMPASS}
_NAMES: Final[dict[tuple[int, int], str]] = {(dx, dy): name for name, dx, dy in COMPASS}


def in_bounds(x: int, y: int) -> bool:
    """True inside the playable map (x 1..79, y 0..20)."""
    return MIN_X <= x <= MAX_X and MIN_Y <= y <= MAX_Y


def direction_between(a: Position, b: Position) -> str | None:
    """The compass name of the single step from a to b, or None when b is not adjacent."""
    return _NAMES.get((b[0] - a[0], b[1] - a[1]))
