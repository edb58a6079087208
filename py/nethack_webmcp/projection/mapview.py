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
from functools import cache, lru_cache
from typing import Any

from ..geometry import MAX_X, MAX_Y, MIN_X, MIN_Y
from ..navigation.level import LevelView
from ..navigation.terrain import TERRAIN_TYPES
from .vocabulary import CREATURE_KINDS, KIND_NAMES, OBJECT_CLASS_MARKS, POINT_FEATURES

MAP_MARGIN = 1  # blank columns/rows kept around the known region
SYMBOL_CAP = 24  # positions listed per mark before truncating
LEGEND_MEANINGS = 4  # distinct meanings listed per mark
#: pictures whose map is kept: a few games' latest (one process serves up to 16 games)
RENDER_CACHE = 32
Layer = tuple[str, ...]


def bounds(level: LevelView) -> dict[str, int]:
    """The smallest box holding every known cell and the hero, plus margin."""
    return _bounds(level.marks, level.terrain_marks, level.hero)


def _bounds(marks: Layer, terrain: Layer, hero: tuple[int, int]) -> dict[str, int]:
    x_low = x_high = hero[0]
    y_low = y_high = hero[1]
    for y in range(MIN_Y, MAX_Y + 1):
        # a known cell is one whose mark or terrain is not a blank (' '): the
        # row's first and last such column, by string scans rather than per cell
        known = [_span(row[MIN_X : MAX_X + 1]) for row in (marks[y], terrain[y])]
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


def _occupied(level: LevelView) -> tuple[tuple[int, int, str], ...]:
    """(y, x, meaning) of the squares whose meaning is not their glyph's
    alone: the hero's and each creature entity's, in row-major order."""
    found = {(y, x): creature_label(entity) for (x, y), entity in level.entities.items() if (x, y) != level.hero}
    found[(level.hero[1], level.hero[0])] = "you"
    return tuple((y, x, meaning) for (y, x), meaning in sorted(found.items()))


def render(level: LevelView) -> dict[str, Any]:
    """The `scene.map` object for the current level.

    A function of the displayed layers, the hero's square and the creatures'
    labels alone, so it is computed once per distinct picture: an observe
    shows the picture the last acting frame already drew, and a search that
    changed nothing draws the same one again. The result is shared between
    the frames that show it: a frame's scene is never changed once built
    (what comes later touches only the frame's own dicts: frame.diagnosed
    copies the top level, mcp.py adds watchUrl to the call's result)."""
    return _render(level.marks, level.terrain_marks, level.kinds, level.features, level.hero, _occupied(level))


@lru_cache(maxsize=RENDER_CACHE)
def _render(
    marks: Layer,
    terrain: Layer,
    kinds: Layer,
    features: Layer,
    hero: tuple[int, int],
    occupied: tuple[tuple[int, int, str], ...],
) -> dict[str, Any]:
    """One pass over the box's rows reading the layer strings directly (not
    per-cell accessors); the same cells, in the same row-major order, as
    cell_meaning and indexed describe them."""
    box = _bounds(marks, terrain, hero)
    x0, x1 = box["x0"], box["x1"]
    xs = range(x0, x1 + 1)
    lines = ["   " + "".join(str(x // 10) for x in xs), "   " + "".join(str(x % 10) for x in xs)]
    meanings: dict[str, list[str]] = {}
    symbols: dict[str, list[list[int]]] = {}
    truncated: dict[str, int] = {}
    special_rows: dict[int, dict[int, str]] = {}
    for y, x, label in occupied:
        special_rows.setdefault(y, {})[x] = label
    for y in range(box["y0"], box["y1"] + 1):
        row_marks, row_kinds, row_features = marks[y], kinds[y], features[y]
        lines.append(f"{y:>2} " + row_marks[x0 : x1 + 1].rstrip())
        special = special_rows.get(y, {})
        for x in xs:
            mark = row_marks[x]
            if mark == " ":
                continue
            kind, feature = row_kinds[x], row_features[x]
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
        "hero": {"x": hero[0], "y": hero[1]},
        "legend": legend,
        "symbols": dict(sorted(symbols.items())),
    }
    if truncated:
        view["symbolsTruncated"] = truncated
    return view
