"""vocabulary.py - names for the driver's one-character row codes.

The world rows (docs/PROTOCOL.md, "World encoding rows-v1") encode the kind
of displayed glyph (`kinds`) as single characters; terrain codes are named
by navigation.terrain. This module names the presentation-only codes, so
the legend, the feature list and lookup describe a square the same way.
"""

from __future__ import annotations

from typing import Final

#: Point features worth listing in `scene.features` and the symbol index.
#: Walls, floor, corridors and open water are area terrain, already drawn
#: on the map. Names come from navigation.terrain.TERRAIN_TYPES, the one
#: place that interprets feature codes.
POINT_FEATURES: Final[frozenset[str]] = frozenset("dVHvh<>lL_g\\s{^=r")

#: `kinds` code -> what the displayed glyph is.
KIND_NAMES: Final[dict[str, str]] = {
    "T": "terrain",
    "X": "trap",
    "O": "object",
    "B": "boulder",
    "S": "statue",
    "M": "creature",
    "P": "tame creature",
    "D": "detected creature",
    "R": "ridden creature",
    "I": "remembered unseen creature",
    "W": "warning",
    "E": "transient effect",
}

#: Kinds that show a creature (the entities list carries their details).
CREATURE_KINDS: Final[frozenset[str]] = frozenset("MPDR")

#: NetHack's default object-class marks, as its own `/` command explains
#: them. A mark is the displayed class, never the object's identity.
OBJECT_CLASS_MARKS: Final[dict[str, str]] = {
    ")": "weapon",
    "[": "armor",
    "=": "ring",
    '"': "amulet",
    "(": "tool",
    "%": "food",
    "!": "potion",
    "?": "scroll",
    "+": "spellbook",
    "/": "wand",
    "$": "gold",
    "*": "gem or rock",
    "`": "boulder or statue",
    "0": "iron ball",
    "_": "iron chain",
}
