"""nethack_webmcp.navigation - perceived-map navigation: pure functions over what the player saw.

Feed every driver observation to a WorldTracker and take its view(); then

* neighborhood(view)   - the 9x9 surroundings with movement offers,
* route(view, (x, y))  - the shortest known walking route,
* navigation(view)     - frontiers, ways down/up and doors with approaches,
* way_on(view)         - what to try next on the level, in order, with the calls,
* await run_leg(...)   - one bounded travel/explore/descend leg over a
  caller-supplied step() and view().

Nothing here sends input, reads hidden game state or imports anything but
the standard library and the map's vocabulary (`nethack_webmcp.geometry`),
so it runs unchanged under CPython and Pyodide. The compass and bounds are
re-exported here for callers of this package.
"""

from ..geometry import CARDINAL, COMPASS, DELTAS, direction_between, in_bounds
from .frontiers import (
    FirstSteps,
    borders_undiscovered,
    doors,
    frontiers,
    is_frontier,
    ways,
)
from .level import LevelView, WorldTracker
from .navigator import MODES, STOP_REASONS, LegResult, run_leg
from .neighborhood import RADIUS, neighborhood, neighborhood_cell
from .outcome import (
    HeroState,
    StepOutcome,
    door_attempted,
    new_creatures_perceived,
    newly_displayed,
    step_outcome,
)
from .overview import navigation
from .policy import distances_from, passable, step_allowed
from .route import WHY_REASONS, route, shortest_steps, why_unreachable
from .terrain import TERRAIN_TYPES, walkable
from .wayon import way_on

__all__ = [
    "CARDINAL",
    "COMPASS",
    "DELTAS",
    "MODES",
    "RADIUS",
    "STOP_REASONS",
    "TERRAIN_TYPES",
    "WHY_REASONS",
    "FirstSteps",
    "HeroState",
    "LegResult",
    "LevelView",
    "StepOutcome",
    "WorldTracker",
    "borders_undiscovered",
    "direction_between",
    "distances_from",
    "door_attempted",
    "doors",
    "frontiers",
    "in_bounds",
    "is_frontier",
    "navigation",
    "neighborhood",
    "neighborhood_cell",
    "new_creatures_perceived",
    "newly_displayed",
    "passable",
    "route",
    "run_leg",
    "shortest_steps",
    "step_allowed",
    "step_outcome",
    "walkable",
    "way_on",
    "ways",
    "why_unreachable",
]
