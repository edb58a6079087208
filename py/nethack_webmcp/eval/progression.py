"""progression.py - BALROG's NetHack progression score from a game's deepest level and highest experience level.

BALROG scores a NetHack game by the largest "chance a human who got this far
went on to win" over the dungeon levels and experience levels it reached
(their published table, balrog_progression.json, copied with its source).
Depth is NetHack's depth (BALROG reads blstats' depth, which is what our
observation.depth and the records' deepestDepth are), not the branch level.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

TABLE_FILE = Path(__file__).with_name("balrog_progression.json")


@cache
def table() -> dict[str, Any]:
    """The published table: {"dlvl": {"1": p, ...}, "xp": {...}, "ascended": 1.0} as fractions."""
    with TABLE_FILE.open(encoding="utf-8") as handle:
        return dict(json.load(handle))


def _lookup(column: str, value: int | None) -> float:
    """The table's fraction for a reached level; a level past the table's last row counts as its last row
    (BALROG itself gives nothing past Dlvl 50 / XL 30, which no game here can reach without passing them)."""
    if not isinstance(value, int) or value < 1:
        return 0.0
    rows = table()[column]
    top = max(int(key) for key in rows)
    return float(rows[str(min(value, top))])


def progression(deepest_dlvl: int | None, max_level: int | None, ascended: bool = False) -> float:
    """BALROG progression in percent (0-100): max(table[Dlvl], table[XL]), or 100 for an ascension.

    Reaching Dlvl N means having reached every level above it too, and BALROG's
    table grows with N, so the deepest level alone decides the dungeon part."""
    if ascended:
        return 100.0 * float(table()["ascended"])
    return 100.0 * max(_lookup("dlvl", deepest_dlvl), _lookup("xp", max_level))
