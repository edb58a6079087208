"""vocabulary.py - names for the driver's one-character row codes.

The world rows (docs/PROTOCOL.md, "World encoding rows-v1") encode the
typed terrain memory (`features`) and the kind of displayed glyph (`kinds`)
as single characters. This module is the one place that names them, so the
legend, the feature list and lookup describe a square the same way.
"""

from __future__ import annotations

from typing import Final

#: `features` code -> terrain name (what the hero last saw bare there).
FEATURE_NAMES: Final[dict[str, str]] = {
    "W": "wall", "d": "doorway", "V": "open door", "H": "open door",
    "v": "closed door", "h": "closed door", "B": "iron bars", "T": "tree",
    ".": "floor", ":": "dark floor", "#": "corridor", "<": "staircase up",
    ">": "staircase down", "l": "ladder up", "L": "ladder down", "_": "altar",
    "g": "grave", "\\": "throne", "s": "sink", "{": "fountain", "~": "water",
    "i": "ice", "x": "lava", "=": "lowered drawbridge", "r": "raised drawbridge",
    "a": "air", "k": "cloud", "w": "water", "^": "trap",
}

#: Point features worth listing in `scene.features` and the symbol index:
#: code -> (kind, extra facts). Walls, floor, corridors and open water are
#: area terrain, already visible on the map.
POINT_FEATURES: Final[dict[str, tuple[str, dict[str, str]]]] = {
    "d": ("doorway", {}),
    "V": ("door", {"state": "open", "orientation": "vertical"}),
    "H": ("door", {"state": "open", "orientation": "horizontal"}),
    "v": ("door", {"state": "closed", "orientation": "vertical"}),
    "h": ("door", {"state": "closed", "orientation": "horizontal"}),
    "<": ("stairsUp", {}), ">": ("stairsDown", {}),
    "l": ("ladderUp", {}), "L": ("ladderDown", {}),
    "_": ("altar", {}), "g": ("grave", {}), "\\": ("throne", {}),
    "s": ("sink", {}), "{": ("fountain", {}), "^": ("trap", {}),
    "=": ("drawbridge", {"state": "lowered"}), "r": ("drawbridge", {"state": "raised"}),
}

#: `kinds` code -> what the displayed glyph is.
KIND_NAMES: Final[dict[str, str]] = {
    "T": "terrain", "X": "trap", "O": "object", "B": "boulder", "S": "statue",
    "M": "creature", "P": "tame creature", "D": "detected creature",
    "R": "ridden creature", "I": "remembered unseen creature", "W": "warning",
    "E": "transient effect",
}

#: Kinds that show a creature (the entities list carries their details).
CREATURE_KINDS: Final[frozenset[str]] = frozenset("MPDR")

#: NetHack's default object-class marks, as its own `/` command explains
#: them. A mark is the displayed class, never the object's identity.
OBJECT_CLASS_MARKS: Final[dict[str, str]] = {
    ")": "weapon", "[": "armor", "=": "ring", '"': "amulet", "(": "tool",
    "%": "food", "!": "potion", "?": "scroll", "+": "spellbook", "/": "wand",
    "$": "gold", "*": "gem or rock", "`": "boulder or statue", "0": "iron ball",
    "_": "iron chain",
}

COMPASS_WORDS: Final[tuple[str, ...]] = ("north", "south", "east", "west", "northeast",
                                          "northwest", "southeast", "southwest")
