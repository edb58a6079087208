"""overview.py - the seed's session.navigation answer: every list of one level at once.

navigation(level) gathers what frontiers.py (frontiers, ways, doors, dead
ends) and searching.py (ranked search spots) compute, over one FirstSteps
search, so the lists agree on distances and first steps.
"""

from __future__ import annotations

from typing import Any

from .frontiers import FirstSteps, dead_ends, doors, frontiers, ways
from .level import LevelView
from .route import basis
from .searching import search_spots
from .terrain import WAYS_DOWN, WAYS_UP


def navigation(level: LevelView) -> dict[str, Any]:
    """The seed's navigation result: frontiers, waysDown, waysUp and doors of the current level."""
    steps = FirstSteps(level)
    return {
        "kind": "navigation",
        "policy": "knownWalking",
        "basis": basis(level),
        "frontiers": frontiers(level, steps),
        "waysDown": ways(level, WAYS_DOWN, steps),
        "waysUp": ways(level, WAYS_UP, steps),
        "doors": doors(level, steps),
        "deadEnds": dead_ends(level, steps),
        "searchSpots": search_spots(level, steps),
    }
