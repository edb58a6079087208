"""synthetic.py - small hand-drawn LevelViews for exact edge cases.

A drawing is a list of strings of *feature codes* (terrain.py): line i is
map row y=i, character j is map column x=j (column 0 is off-map, so
drawings start with a space). The displayed marks and glyph classes follow
from the features unless a cell is overridden, e.g. to put a boulder,
an object or a creature on it. Squares of unknown terrain stay ' '.
observation() wraps the same rows as a driver observation for WorldTracker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from nethack_webmcp.navigation import LevelView

_MARKS = {"W": "-", "d": ".", "V": "|", "H": "-", "v": "+", "h": "+", ":": "."}


def rows_of(
    drawing: Iterable[str],
    *,
    cells: Mapping[tuple[int, int], tuple[str, str]] | None = None,
    visible: bool = True,
) -> dict[int, dict[str, str]]:
    """rows-v1 layers of the drawing keyed by y; cells overrides (mark, kind) per square."""
    rows: dict[int, dict[str, str]] = {}
    for y, line in enumerate(drawing):
        features = line.ljust(80)[:80]
        marks = "".join(_MARKS.get(code, code) for code in features)
        kinds = "".join(" " if code == " " else "X" if code == "^" else "T" for code in features)
        seen = "".join("1" if visible and code != " " else "0" for code in features)
        rows[y] = {
            "marks": marks,
            "kinds": kinds,
            "terrain": marks,
            "features": features,
            "visible": seen,
            "colors": "7" * 80,
        }
    for (x, y), (mark, kind) in (cells or {}).items():
        row = rows.setdefault(
            y,
            {
                "marks": " " * 80,
                "kinds": " " * 80,
                "terrain": " " * 80,
                "features": " " * 80,
                "visible": "0" * 80,
                "colors": "7" * 80,
            },
        )
        row["marks"] = row["marks"][:x] + mark + row["marks"][x + 1 :]
        row["kinds"] = row["kinds"][:x] + kind + row["kinds"][x + 1 :]
    return rows


def draw(
    drawing: Iterable[str],
    hero: tuple[int, int],
    *,
    cells: Mapping[tuple[int, int], tuple[str, str]] | None = None,
    entities: Iterable[Mapping[str, Any]] = (),
    visited: Iterable[tuple[int, int]] = (),
    visible: bool = True,
    trap_bases: Mapping[tuple[int, int], str] | None = None,
    level_id: str = "d0-l1",
) -> LevelView:
    """A LevelView of the drawing; cells overrides (mark, kind) per square."""
    rows = rows_of(drawing, cells=cells, visible=visible)
    return LevelView.from_rows(level_id, rows, hero, list(entities), frozenset(visited), trap_bases)


def observation(
    drawing: Iterable[str],
    hero: tuple[int, int],
    *,
    visited: Iterable[tuple[int, int]] | None = None,
    full: bool = True,
    level_id: str = "d0-l1",
) -> dict[str, Any]:
    """A driver-shaped observation of the drawing (every drawn row sent).

    visited=None sends rows without the `visited` string, as the driver did
    before it had one; otherwise each row carries it with '1' at those squares.
    """
    rows = rows_of(drawing)
    stood = set(visited or ())
    sent: list[dict[str, Any]] = []
    for y, layers in sorted(rows.items()):
        row: dict[str, Any] = {"y": y, **layers}
        if visited is not None:
            row["visited"] = "".join("1" if (x, y) in stood else "0" for x in range(80))
        sent.append(row)
    return {
        "levelId": level_id,
        "position": {"x": hero[0], "y": hero[1]},
        "entities": [],
        "world": {"encoding": "rows-v1", "full": full, "rows": sent},
    }


def creature(
    x: int,
    y: int,
    kind: str = "creature",
    attitude: str | None = "hostile",
    appearance: str = "jackal",
    mark: str = "d",
) -> dict[str, Any]:
    """An entity record shaped like the driver's."""
    entity: dict[str, Any] = {"x": x, "y": y, "kind": kind, "mark": mark, "appearance": appearance}
    if attitude:
        entity["attitude"] = attitude
    return entity
