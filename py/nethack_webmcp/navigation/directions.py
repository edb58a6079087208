"""directions.py - compass names, their map deltas and the one tie-break order.

Every module that turns a map delta into a named direction, or that must
choose between equally short paths, reads this table, so a route, a
neighborhood's movement offers and the Navigator all name a step the same
way. The order is the driver's own compass order (proto_request.c), fixed
here once: north, south, east, west, northeast, northwest, southeast,
southwest. Map y grows southward, as on the tty.
"""
from __future__ import annotations

from typing import Final

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

#: The four cardinal directions, in the same order.
CARDINAL: Final[tuple[tuple[str, int, int], ...]] = COMPASS[:4]

DELTAS: Final[dict[str, tuple[int, int]]] = {name: (dx, dy) for name, dx, dy in COMPASS}
_NAMES: Final[dict[tuple[int, int], str]] = {(dx, dy): name for name, dx, dy in COMPASS}


def direction_between(a: tuple[int, int], b: tuple[int, int]) -> str | None:
    """The compass name of the single step from a to b, or None when b is not adjacent."""
    return _NAMES.get((b[0] - a[0], b[1] - a[1]))


def is_diagonal(name: str) -> bool:
    """True for the four diagonal compass names."""
    dx, dy = DELTAS[name]
    return dx != 0 and dy != 0
