"""scene.py - `scene`: a compact, self-contained snapshot of what the hero perceives.

Every part is a projection of the latest observation and the merged level
view; nothing is inferred. Unknown stays unknown: an unavailable inventory
is null (not an empty list), unseen terrain has no name, and attitude or
appearance appear only when the engine disclosed them.
"""

from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from typing import Any

from ..geometry import MAP_ROWS, MAX_X, MIN_X, direction_between
from ..navigation.level import LevelView
from ..navigation.terrain import TERRAIN_TYPES, door_orientation
from . import mapview, world
from .nearby import nearby
from .vocabulary import POINT_FEATURES

FEATURE_CAP = 12  # nearest point features and objects listed; the map shows the rest
#: Ways between levels and altars: listed however far, since a plan needs them.
ALWAYS_LISTED = frozenset("<>lL_")
_POINT_FEATURE = re.compile("[" + re.escape("".join(sorted(POINT_FEATURES))) + "]")


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Moves between two squares on an open map (Chebyshev distance)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def self_view(metadata: dict[str, Any], observation: dict[str, Any]) -> dict[str, Any]:
    identity: dict[str, Any] = {
        key: metadata[key] for key in ("name", "role", "race", "gender", "alignment") if key in metadata
    }
    return {
        **identity,
        "position": observation.get("position"),
        "level": {
            "id": observation.get("levelId"),
            "dungeon": observation.get("dungeon"),
            "depth": observation.get("depth"),
            "label": observation.get("levelLabel"),
        },
        "vitals": observation.get("vitals"),
    }


def entities(level: LevelView) -> list[dict[str, Any]]:
    """Perceived creatures, nearest first, with their distance and, when
    adjacent, the compass direction to them (usable as a target)."""
    listed = []
    for (x, y), entity in level.entities.items():
        if (x, y) == level.hero:
            continue
        item = dict(entity)
        item["distance"] = distance(level.hero, (x, y))
        step = direction_between(level.hero, (x, y))
        if step:
            item["direction"] = step
        listed.append(item)
    return sorted(listed, key=lambda e: (e["distance"], e["y"], e["x"]))


def features(level: LevelView) -> list[dict[str, Any]]:
    """Remembered point features (stairs, doors, fountains, traps…), nearest
    first: the nearest FEATURE_CAP, plus every way up or down and altar."""
    found = []
    for y in range(MAP_ROWS):
        row = level.features[y]
        for match in _POINT_FEATURE.finditer(row, MIN_X, MAX_X + 1):  # a scan of the row, not per cell
            x, code = match.start(), match.group()
            feature: dict[str, Any] = {
                "kind": TERRAIN_TYPES[code],
                "x": x,
                "y": y,
                "distance": distance(level.hero, (x, y)),
            }
            if code in "VHvh":
                feature["orientation"] = door_orientation(code)
            if code == "^" and level.trap_type(x, y):
                feature["trap"] = level.trap_type(x, y)  # as its glyph shows it: "bear trap"
            if not level.visible(x, y):
                feature["remembered"] = True
            found.append((code, feature))
    found.sort(key=lambda pair: (pair[1]["distance"], pair[1]["y"], pair[1]["x"]))
    return [feature for rank, (code, feature) in enumerate(found) if rank < FEATURE_CAP or code in ALWAYS_LISTED]


OBJECT_KINDS = frozenset("OBS")  # displayed objects, boulders, statues
_OBJECT_KIND = re.compile("[" + re.escape("".join(sorted(OBJECT_KINDS))) + "]")


def objects(level: LevelView) -> list[dict[str, Any]]:
    """Displayed objects with their squares, nearest first (the nearest
    FEATURE_CAP): a mark names a class, never the object itself."""
    found = []
    for y in range(MAP_ROWS):
        for match in _OBJECT_KIND.finditer(level.kinds[y], MIN_X, MAX_X + 1):  # a scan of the row, not per cell
            x = match.start()
            if (x, y) != level.hero:
                found.append(
                    {
                        "mark": level.mark(x, y),
                        "shows": mapview.cell_meaning(level, x, y),
                        "x": x,
                        "y": y,
                        "distance": distance(level.hero, (x, y)),
                    }
                )
    found.sort(key=lambda o: (o["distance"], o["y"], o["x"]))
    return found[:FEATURE_CAP]


def inventory_items(observation: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Carried items, or None when the inventory is not known."""
    if not observation.get("inventoryKnown"):
        return None
    return [
        {key: item[key] for key in ("id", "letter", "label", "quantity", "category", "equipmentSlots") if key in item}
        for item in observation.get("inventory", ())
    ]


def here(observation: dict[str, Any], level: LevelView) -> dict[str, Any]:
    """Underfoot: items when the floor can be seen, and the remembered terrain."""
    low = observation.get("here") or {"known": False}
    view: dict[str, Any] = {"known": bool(low.get("known"))}
    if view["known"]:
        view["items"] = [
            {key: item[key] for key in ("id", "label", "quantity", "category") if key in item}
            for item in low.get("items", ())
        ]
    code = level.feature(*level.hero)
    if code != " ":
        view["terrain"] = TERRAIN_TYPES.get(code, "unknown")
    trap = level.trap_type(*level.hero)
    if trap:
        view["trap"] = trap
    return view


def perception(observation: dict[str, Any]) -> dict[str, str]:
    known_here = bool((observation.get("here") or {}).get("known"))
    known_inventory = bool(observation.get("inventoryKnown"))
    return {
        "map": "current",
        "inventory": "current" if known_inventory else "unknown",
        "equipment": "current" if known_inventory else "unknown",
        "here": "current" if known_here else "unknown",
    }


#: the view-only parts of the latest scenes, by the view they were drawn from
_DRAWN: OrderedDict[int, tuple[LevelView, dict[str, Any]]] = OrderedDict()
DRAWN_KEPT = 32  # a few games' latest views (one process serves up to 16 games)
#: LevelView fields no drawn part reads (nearby, entities, features, objects,
#: map): a search that finds nothing changes only these (the turn and the
#: square's search count), so its view draws what the last one drew
UNDRAWN = frozenset({"turn", "searched", "observed"})
DRAWN_FIELDS = tuple(f.name for f in dataclasses.fields(LevelView) if f.name not in UNDRAWN)


def same_picture(a: LevelView, b: LevelView) -> bool:
    """Whether two views are equal in every field a drawn part reads (cheap
    fields first; a layer tuple compares its strings by identity first)."""
    return all(getattr(a, name) == getattr(b, name) for name in DRAWN_FIELDS)


def drawn_from(level: LevelView) -> dict[str, Any]:
    """nearby, entities, features, objects and map, in the scene's order:
    functions of the (immutable) view alone, so a frame of a view already
    drawn reuses them - an observe whose picture is the memory's own view
    (navigation.level) shows what the last acting frame drew, repeated
    observes the same, and a view equal to the last one drawn in every field
    the parts read (`same_picture`: an input that changed only the turn)
    the same. Shared between the frames that show them: frames are
    never changed once built (projection/mapview.render says what is)."""
    kept = _DRAWN.get(id(level))
    if kept is not None and kept[0] is level:  # (the view is held here, so its id is not reused)
        _DRAWN.move_to_end(id(level))
        return kept[1]
    latest = next(reversed(_DRAWN.values()), None)
    if latest is not None and same_picture(latest[0], level):
        drawn = latest[1]
    else:
        drawn = {
            "nearby": nearby(level),
            "entities": entities(level),
            "features": features(level),
            "objects": objects(level),
            "map": mapview.render(level),
        }
    _DRAWN[id(level)] = (level, drawn)
    if len(_DRAWN) > DRAWN_KEPT:
        _DRAWN.popitem(last=False)
    return drawn


def build(
    metadata: dict[str, Any],
    observation: dict[str, Any],
    level: LevelView,
    end: dict[str, Any] | None,
    include_world: bool = False,
) -> dict[str, Any]:
    if include_world and level.observed is not None:
        # An observe frame shows the full world it just fetched, layers and
        # all; every other frame shows the merged memory (navigation.level).
        level = level.observed
    drawn = drawn_from(level)
    scene: dict[str, Any] = {
        "kind": "snapshot",
        "self": self_view(metadata, observation),
        **drawn,
        "inventory": inventory_items(observation),
        "here": here(observation, level),
        # the engine's active settings (an older recorded observation has none: off)
        "automaticPickup": observation.get("automaticPickup", {"enabled": False}),
        "perception": perception(observation),
    }
    if end is not None:
        scene["end"] = end
    if include_world:
        scene["world"] = world.of_level(level)  # spans-v1: projection/world.py
    return scene
