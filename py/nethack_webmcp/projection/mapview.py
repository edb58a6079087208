"""mapview.py - `scene.map`: the perceived marks as text with rulers.

The text shows exactly the marks the hero's display shows (blank where
nothing was ever seen: missing knowledge is never drawn as floor), bounded
to the known part of the level plus a margin so routine frames stay small.
Two ruler lines above give x (tens digit over ones digit) and the left
column gives y, so nobody has to count columns; `symbols` indexes the marks
worth targeting by position, and `legend` explains every mark the text
shows, from the row codes and the entity list, never from guesses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..geometry import MAX_X, MAX_Y, MIN_X, MIN_Y
from ..navigation.level import LevelView
from ..navigation.terrain import TERRAIN_TYPES
from .vocabulary import CREATURE_KINDS, KIND_NAMES, OBJECT_CLASS_MARKS, POINT_FEATURES

MAP_MARGIN = 1  # blank columns/rows kept around the known region
SYMBOL_CAP = 24  # positions listed per mark before truncating
LEGEND_MEANINGS = 4  # distinct meanings listed per mark


def bounds(level: LevelView) -> dict[str, int]:
    """The smallest box holding every known cell and the hero, plus margin."""
    xs = [level.hero[0]]
    ys = [level.hero[1]]
    for y in range(MIN_Y, MAX_Y + 1):
        marks, terrain = level.marks[y], level.terrain_marks[y]
        for x in range(MIN_X, MAX_X + 1):
            if marks[x] != " " or terrain[x] != " ":
                xs.append(x)
                ys.append(y)
    return {
        "x0": max(MIN_X, min(xs) - MAP_MARGIN),
        "x1": min(MAX_X, max(xs) + MAP_MARGIN),
        "y0": max(MIN_Y, min(ys) - MAP_MARGIN),
        "y1": min(MAX_Y, max(ys) + MAP_MARGIN),
    }


def creature_label(entity: Mapping[str, Any]) -> str:
    """`little dog (tame)`; appearance and attitude only when disclosed."""
    label = entity.get("appearance") or {
        "unseen": "remembered unseen creature",
        "warning": "warning of a creature",
        "detected": "detected creature",
    }.get(entity.get("kind", ""), "creature")
    return f"{label} ({entity['attitude']})" if entity.get("attitude") else label


def cell_meaning(level: LevelView, x: int, y: int) -> str:
    """What the displayed mark at (x, y) shows, as far as it is disclosed."""
    if level.hero == (x, y):
        return "you"
    kind = level.kind(x, y)
    mark = level.mark(x, y)
    entity = level.entity_at(x, y)
    if entity is not None:
        return creature_label(entity)
    if kind in CREATURE_KINDS:
        return KIND_NAMES[kind]
    if kind == "T" or kind == "X":
        return TERRAIN_TYPES.get(level.feature(x, y), KIND_NAMES[kind])
    if kind == "O":
        cls = OBJECT_CLASS_MARKS.get(mark)
        return f"object ({cls})" if cls else "object"
    return KIND_NAMES.get(kind, "unknown")


def indexed(level: LevelView, x: int, y: int) -> bool:
    """Marks worth a position index: everything but bare walls, floor,
    corridors and water, which are area terrain."""
    kind = level.kind(x, y)
    if kind == " ":
        return False
    if kind == "T":
        return level.feature(x, y) in POINT_FEATURES
    return True


def render(level: LevelView) -> dict[str, Any]:
    """The `scene.map` object for the current level."""
    box = bounds(level)
    xs = range(box["x0"], box["x1"] + 1)
    lines = ["   " + "".join(str(x // 10) for x in xs), "   " + "".join(str(x % 10) for x in xs)]
    meanings: dict[str, list[str]] = {}
    symbols: dict[str, list[list[int]]] = {}
    truncated: dict[str, int] = {}
    for y in range(box["y0"], box["y1"] + 1):
        text = []
        for x in xs:
            mark = level.mark(x, y)
            text.append(mark)
            if mark == " ":
                continue
            meaning = cell_meaning(level, x, y)
            listed = meanings.setdefault(mark, [])
            if meaning not in listed:
                listed.append(meaning)
            if indexed(level, x, y):
                positions = symbols.setdefault(mark, [])
                if len(positions) < SYMBOL_CAP:
                    positions.append([x, y])
                else:
                    truncated[mark] = truncated.get(mark, SYMBOL_CAP) + 1
        lines.append(f"{y:>2} " + "".join(text).rstrip())
    legend = {
        mark: "; ".join(m[:LEGEND_MEANINGS]) + ("; …" if len(m) > LEGEND_MEANINGS else "")
        for mark, m in sorted(meanings.items())
    }
    view: dict[str, Any] = {
        "text": "\n".join(lines),
        "bounds": box,
        "hero": {"x": level.hero[0], "y": level.hero[1]},
        "legend": legend,
        "symbols": dict(sorted(symbols.items())),
    }
    if truncated:
        view["symbolsTruncated"] = truncated
    return view
