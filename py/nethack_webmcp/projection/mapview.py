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
from functools import cache
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
    x_low = x_high = level.hero[0]
    y_low = y_high = level.hero[1]
    for y in range(MIN_Y, MAX_Y + 1):
        # a known cell is one whose mark or terrain is not a blank (' '): the
        # row's first and last such column, by string scans rather than per cell
        known = [_span(row[MIN_X : MAX_X + 1]) for row in (level.marks[y], level.terrain_marks[y])]
        spans = [span for span in known if span is not None]
        if not spans:
            continue
        x_low = min(x_low, *(MIN_X + first for first, _ in spans))
        x_high = max(x_high, *(MIN_X + last for _, last in spans))
        y_low, y_high = min(y_low, y), max(y_high, y)
    return {
        "x0": max(MIN_X, x_low - MAP_MARGIN),
        "x1": min(MAX_X, x_high + MAP_MARGIN),
        "y0": max(MIN_Y, y_low - MAP_MARGIN),
        "y1": min(MAX_Y, y_high + MAP_MARGIN),
    }


def _span(text: str) -> tuple[int, int] | None:
    """The indices of the first and last character of `text` that is not ' ', or None."""
    trimmed = text.lstrip(" ")
    if not trimmed:
        return None
    return len(text) - len(trimmed), len(text.rstrip(" ")) - 1


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
    entity = level.entity_at(x, y)
    if entity is not None:
        return creature_label(entity)
    return shown_meaning(level.kind(x, y), level.mark(x, y), level.feature(x, y))


@cache
def shown_meaning(kind: str, mark: str, feature: str) -> str:
    """What a displayed mark shows on a square with no creature entity and
    not the hero's: a function of its glyph class, mark and terrain code
    alone, so a frame computes it once per distinct triple."""
    if kind in CREATURE_KINDS:
        return KIND_NAMES[kind]
    if kind == "T" or kind == "X":
        return TERRAIN_TYPES.get(feature, KIND_NAMES[kind])
    if kind == "O":
        cls = OBJECT_CLASS_MARKS.get(mark)
        return f"object ({cls})" if cls else "object"
    return KIND_NAMES.get(kind, "unknown")


def indexed(level: LevelView, x: int, y: int) -> bool:
    """Marks worth a position index: everything but bare walls, floor,
    corridors and water, which are area terrain."""
    return is_indexed(level.kind(x, y), level.feature(x, y))


def is_indexed(kind: str, feature: str) -> bool:
    if kind == " ":
        return False
    if kind == "T":
        return feature in POINT_FEATURES
    return True


def _occupied(level: LevelView) -> dict[int, dict[int, str]]:
    """y -> x -> meaning of the squares whose meaning is not their glyph's
    alone: the hero's and each creature entity's (render's per-row lookup)."""
    found: dict[int, dict[int, str]] = {}
    for (x, y), entity in level.entities.items():
        if (x, y) != level.hero:
            found.setdefault(y, {})[x] = creature_label(entity)
    found.setdefault(level.hero[1], {})[level.hero[0]] = "you"
    return found


def render(level: LevelView) -> dict[str, Any]:
    """The `scene.map` object for the current level.

    One pass over the box's rows reading the layer strings directly (not
    per-cell accessors: this runs on every frame); the same cells, in the
    same row-major order, as cell_meaning and indexed describe them."""
    box = bounds(level)
    x0, x1 = box["x0"], box["x1"]
    xs = range(x0, x1 + 1)
    lines = ["   " + "".join(str(x // 10) for x in xs), "   " + "".join(str(x % 10) for x in xs)]
    meanings: dict[str, list[str]] = {}
    symbols: dict[str, list[list[int]]] = {}
    truncated: dict[str, int] = {}
    occupied = _occupied(level)
    for y in range(box["y0"], box["y1"] + 1):
        marks, kinds, features = level.marks[y], level.kinds[y], level.features[y]
        shown = marks[x0 : x1 + 1]
        lines.append(f"{y:>2} " + shown.rstrip())
        special = occupied.get(y, {})
        for x in xs:
            mark = marks[x]
            if mark == " ":
                continue
            kind, feature = kinds[x], features[x]
            meaning = special.get(x)
            if meaning is None:
                meaning = shown_meaning(kind, mark, feature)
            listed = meanings.setdefault(mark, [])
            if meaning not in listed:
                listed.append(meaning)
            if is_indexed(kind, feature):
                positions = symbols.setdefault(mark, [])
                if len(positions) < SYMBOL_CAP:
                    positions.append([x, y])
                else:
                    truncated[mark] = truncated.get(mark, SYMBOL_CAP) + 1
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
