"""world.py - the observe frame's `scene.world` in the `spans-v1` encoding, and back.

The driver's rows-v1 world (docs/PROTOCOL.md) is 21 rows x six 80-character
layers, ~11.8 KB of JSON, most of it blank: a level's rooms cover a few
rows and columns. The frame sends, per row that shows anything, only the
span from its first to its last cell where some layer is not blank; every
cell outside the spans is `BLANK` in every layer. It is lossless: `rows`
gives back the 21 full rows-v1 rows, equal to the view's own
(tests/python/test_world_spans.py). A first room's observe frame falls
from 17.0 to 6.3 KB.

Spans, not runs inside a row: a reader restores a row with two pads per
layer, and the frame stays readable as text (the marks of a span are the
map's own characters).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..geometry import MAP_ROWS, MAP_WIDTH
from ..navigation.level import LevelView

ENCODING = "spans-v1"
#: the six layers, in the driver's order (navigation.level.LAYERS)
LAYERS = ("marks", "colors", "kinds", "terrain", "features", "visible")
#: each layer's cell where nothing was ever shown (the driver's blank: no mark,
#: colour 8 "none", no kind, no terrain memory, no feature, not in sight)
BLANK = {"marks": " ", "colors": "8", "kinds": " ", "terrain": " ", "features": " ", "visible": "0"}


def level_rows(level: LevelView) -> list[dict[str, Any]]:
    """The view's 21 full rows-v1 rows {y, marks, colors, kinds, terrain, features, visible}."""
    return [
        {
            "y": y,
            "marks": level.marks[y],
            "colors": level.colors[y],
            "kinds": level.kinds[y],
            "terrain": level.terrain_marks[y],
            "features": level.features[y],
            "visible": level.visibility[y],
        }
        for y in range(MAP_ROWS)
    ]


def span_row(y: int, layers: dict[str, str]) -> dict[str, Any] | None:
    """One row's span {y, x0, <layer>: its cells x0..x1}, or None when every cell is blank."""
    start, end = MAP_WIDTH, 0
    for layer in LAYERS:
        cells = layers[layer]
        blank = BLANK[layer]
        stripped = cells.lstrip(blank)
        if not stripped:
            continue
        start = min(start, len(cells) - len(stripped))
        end = max(end, len(cells.rstrip(blank)))
    if start >= end:
        return None
    row: dict[str, Any] = {"y": y, "x0": start}
    for layer in LAYERS:
        row[layer] = layers[layer][start:end]
    return row


def encode(level_id: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The spans-v1 world of full rows-v1 rows (each with its y and the six layers)."""
    spans = [span for layers in rows if (span := span_row(layers["y"], layers)) is not None]
    return {"levelId": level_id, "encoding": ENCODING, "blank": dict(BLANK), "rows": spans}


#: the worlds of the latest views drawn: a view is immutable, so repeated
#: observes of one picture reuse its world (shared, never changed once built)
_ENCODED: OrderedDict[int, tuple[LevelView, dict[str, Any]]] = OrderedDict()
ENCODED_KEPT = 16


def of_level(level: LevelView) -> dict[str, Any]:
    """The view's world in spans-v1 (kept for the latest views, like scene.drawn_from)."""
    kept = _ENCODED.get(id(level))
    if kept is not None and kept[0] is level:  # the view is held here, so its id is not reused
        _ENCODED.move_to_end(id(level))
        return kept[1]
    rows = level_rows(level)
    world = encode(level.level_id, rows)
    _ENCODED[id(level)] = (level, world)
    if len(_ENCODED) > ENCODED_KEPT:
        _ENCODED.popitem(last=False)
    return world


def rows(world: dict[str, Any]) -> list[dict[str, Any]]:
    """The 21 full rows-v1 rows {y, marks, colors, kinds, terrain, features, visible} of a spans-v1 world."""
    if world.get("encoding") != ENCODING:
        raise ValueError(f"not a {ENCODING} world: {world.get('encoding')!r}")
    blank = world["blank"]
    full = [{"y": y, **{layer: blank[layer] * MAP_WIDTH for layer in LAYERS}} for y in range(MAP_ROWS)]
    for span in world["rows"]:
        x0 = span["x0"]
        row = full[span["y"]]
        for layer in LAYERS:
            cells = span[layer]
            row[layer] = row[layer][:x0] + cells + row[layer][x0 + len(cells) :]
    return full
