"""level.py - one perceived level as an immutable grid, and the tracker that builds it.

The driver sends the map as rows-v1: per row six 80-character layers
(marks, colors, kinds, terrain, features, visible) plus the `visited`
string, and in gameplay responses only the rows that changed. Navigation
needs a *complete* picture of what the player has perceived on the
current level, so WorldTracker
merges every response into a per-level grid and LevelView freezes one
moment of it. Everything downstream (terrain, neighborhood, route,
frontiers, Navigator) is a pure function of a LevelView, which is why it
is immutable: a plan is always tied to the exact view it was computed from.

Two facts beyond the displayed layers are kept here:

* visited squares - where the hero has stood on the level: the union of
  the driver's per-row `visited` string ('1' where the hero glyph was
  drawn at the hero's position, so squares passed during a run count
  too) and every observation's hero position (which is all that data
  recorded before the driver sent `visited` provides). A visited square is
  known walkable even when its terrain was never displayed bare, which
  still happens: the driver withholds terrain under the hero, objects and
  creatures while the hero is hallucinating, stunned or confused.
* trap bases - the terrain feature last shown at a square before a known
  trap was drawn over it, so local views can report the base beneath the
  trap overlay ("Perception, not omniscience").

The merged memory is a function of the game's inputs alone: it folds the
creation response and every gameplay/decision response, in order, and
nothing else. A `session.observe` response's full world is *shown* (the
observe frame's own picture, `LevelView.observed`) but not merged, because
observes are free and unjournaled: a resume, which rebuilds the memory by
folding the replayed responses, cannot know when they happened. Nothing is
lost: the driver resends a row when something drawn in it changed or its
visibility changed, so the merged `visible` layer is exact after every
acting response. See docs/DURABILITY.md, "Exact resume".

Two more facts come from the observations in order: the diagonal steps the
hero took (consecutive positions on one level, `walked`: connected whatever
the corners look like) and the remembered traps with their displayed type
(`observation.traps`, the latest list).

And one from the inputs: the search turns made on each square (`searched`).
The caller says which responses answered a search (apply(..., searching=True):
the session for each `game.search`, the replay for each journaled one), and
the turns the response advanced are counted on the square the hero searched
from, so a resumed game's memory counts the same searches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ..geometry import MAP_ROWS, MAP_WIDTH, MAX_X, MIN_X, Position, in_bounds
from .outcome import Sightings

#: The six per-cell display layers of a rows-v1 row.
LAYERS = ("marks", "colors", "kinds", "terrain", "features", "visible")
#: Each layer's LevelView field.
_LAYER_FIELDS = (
    ("marks", "marks"),
    ("colors", "colors"),
    ("kinds", "kinds"),
    ("terrain", "terrain_marks"),
    ("features", "features"),
    ("visible", "visibility"),
)
#: The per-row standing record: '1' where the hero has stood on this level.
VISITED = "visited"
_BLANK: Mapping[str, str] = MappingProxyType(
    {
        "marks": " " * MAP_WIDTH,
        "colors": "0" * MAP_WIDTH,
        "kinds": " " * MAP_WIDTH,
        "terrain": " " * MAP_WIDTH,
        "features": " " * MAP_WIDTH,
        "visible": "0" * MAP_WIDTH,
        VISITED: "0" * MAP_WIDTH,
    }
)

#: Glyph classes that show a creature, and the entity kind each one means.
_OCCUPANT_KINDS: Mapping[str, str] = MappingProxyType(
    {"M": "creature", "R": "creature", "P": "ally", "D": "detected", "I": "unseen", "W": "warning"}
)


def _layer(row: Mapping[str, str], name: str) -> str:
    """One layer of a row, padded or cut to exactly MAP_WIDTH characters."""
    text = row.get(name) or _BLANK[name]
    if len(text) != MAP_WIDTH:
        text = (text + _BLANK[name])[:MAP_WIDTH]
    return text


def row_visited(y: int, text: object) -> set[Position]:
    """The in-bounds squares a row's `visited` string marks '1' (none when absent or malformed)."""
    if not isinstance(text, str):
        return set()
    return {(x, y) for x, flag in enumerate(text[:MAP_WIDTH]) if flag == "1" and in_bounds(x, y)}


@dataclass(frozen=True)
class LevelView:
    """What the player has perceived of one level at one moment.

    Layers are tuples of MAP_ROWS strings of MAP_WIDTH characters, indexed
    [y][x]. Accessors return the blank value (' ' or False) outside the
    grid, so callers never index out of range.
    """

    level_id: str
    hero: Position
    marks: tuple[str, ...]
    colors: tuple[str, ...]
    kinds: tuple[str, ...]
    terrain_marks: tuple[str, ...]
    features: tuple[str, ...]
    visibility: tuple[str, ...]
    entities: Mapping[Position, Mapping[str, Any]] = field(default_factory=dict)
    visited: frozenset[Position] = frozenset()
    trap_bases: Mapping[Position, str] = field(default_factory=dict)
    # Door lock disclosures on this level (observation.doors): position ->
    # {"lock": "locked"|"unlocked", "turn": n}; only what NetHack told the player.
    door_locks: Mapping[Position, Mapping[str, Any]] = field(default_factory=dict)
    turn: int | None = None
    # Diagonal steps the hero has taken on this level (consecutive observed
    # positions), each as a sorted pair: walked, so connected (policy.py).
    walked: frozenset[tuple[Position, Position]] = frozenset()
    # Remembered traps with the type their glyph shows (observation.traps).
    trap_types: Mapping[Position, str] = field(default_factory=dict)
    # Search turns made on each square of this level (searching.py discounts spots by them).
    searched: Mapping[Position, int] = field(default_factory=dict)
    # The engine's own full picture of this moment when the latest observation
    # was a session.observe of this level (see the module docstring): what the
    # observe frame shows. None otherwise; never merged into the memory.
    observed: LevelView | None = None

    @classmethod
    def from_rows(
        cls,
        level_id: str,
        rows: Mapping[int, Mapping[str, str]],
        hero: Position,
        entities: Sequence[Mapping[str, Any]] = (),
        visited: frozenset[Position] = frozenset(),
        trap_bases: Mapping[Position, str] | None = None,
        doors: Sequence[Mapping[str, Any]] = (),
        turn: int | None = None,
        walked: frozenset[tuple[Position, Position]] = frozenset(),
        traps: Sequence[Mapping[str, Any]] = (),
        searched: Mapping[Position, int] | None = None,
    ) -> LevelView:
        """Build a view from merged rows-v1 rows keyed by y; missing rows are blank.

        visited is the union of the given squares, every square a row's
        `visited` string marks, and the hero's own square.
        """
        stood: set[Position] = set(visited)
        for y, row in rows.items():
            if 0 <= y < MAP_ROWS:
                stood |= row_visited(y, row.get(VISITED))
        grid = {name: tuple(_layer(rows.get(y, _BLANK), name) for y in range(MAP_ROWS)) for name in LAYERS}
        by_position: dict[Position, Mapping[str, Any]] = {}
        for entity in entities:
            try:
                by_position[(int(entity["x"]), int(entity["y"]))] = MappingProxyType(dict(entity))
            except (KeyError, TypeError, ValueError):
                continue  # an entity without a position cannot occupy a square
        hero = (int(hero[0]), int(hero[1]))
        return cls(
            level_id=level_id,
            hero=hero,
            marks=grid["marks"],
            colors=grid["colors"],
            kinds=grid["kinds"],
            terrain_marks=grid["terrain"],
            features=grid["features"],
            visibility=grid["visible"],
            entities=MappingProxyType(by_position),
            visited=frozenset(stood) | {hero},
            trap_bases=MappingProxyType(dict(trap_bases or {})),
            door_locks=MappingProxyType(
                {(int(d["x"]), int(d["y"])): MappingProxyType(dict(d)) for d in doors if "x" in d and "y" in d}
            ),
            turn=turn,
            walked=walked,
            trap_types=MappingProxyType(
                {(int(t["x"]), int(t["y"])): str(t.get("type") or "trap") for t in traps if "x" in t and "y" in t}
            ),
            searched=MappingProxyType(dict(searched or {})),
        )

    def walked_between(self, a: Position, b: Position) -> bool:
        """True when the hero has stepped between a and b (either way) on this level."""
        return (min(a, b), max(a, b)) in self.walked

    def searched_at(self, x: int, y: int) -> int:
        """Search turns the hero has made standing on this square, on this level."""
        return self.searched.get((x, y), 0)

    def trap_type(self, x: int, y: int) -> str | None:
        """The type of the remembered trap here as its glyph shows it ("bear trap"), if any."""
        return self.trap_types.get((x, y))

    def _char(self, layer: tuple[str, ...], x: int, y: int, blank: str = " ") -> str:
        if 0 <= y < MAP_ROWS and 0 <= x < MAP_WIDTH:
            return layer[y][x]
        return blank

    def mark(self, x: int, y: int) -> str:
        """The character displayed now (objects, creatures and remembered terrain)."""
        return self._char(self.marks, x, y)

    def kind(self, x: int, y: int) -> str:
        """The class of the displayed glyph (' ', T, X, O, B, S, M, P, D, R, I, W, E)."""
        return self._char(self.kinds, x, y)

    def terrain_mark(self, x: int, y: int) -> str:
        """The last terrain character displayed at this square on this level."""
        return self._char(self.terrain_marks, x, y)

    def feature(self, x: int, y: int) -> str:
        """The typed terrain memory code (see terrain.py), ' ' when never shown."""
        return self._char(self.features, x, y)

    def color(self, x: int, y: int) -> int | None:
        """The displayed colour 0..15, or None outside the grid."""
        digit = self._char(self.colors, x, y, "")
        return int(digit, 16) if digit else None

    def visible(self, x: int, y: int) -> bool:
        """True when the hero currently sees this square."""
        return self._char(self.visibility, x, y, "0") == "1"

    def entity_at(self, x: int, y: int) -> Mapping[str, Any] | None:
        """The perceived creature displayed at this square (never the hero)."""
        if (x, y) == self.hero:
            return None
        return self.entities.get((x, y))

    def occupant_at(self, x: int, y: int) -> Mapping[str, Any] | None:
        """The perceived creature here: its entity, else one read from the glyph class.

        The entity list is authoritative; the glyph class is a fallback for
        grids that carry no entity (a creature glyph is still a creature).
        """
        if (x, y) == self.hero:
            return None
        entity = self.entities.get((x, y))
        if entity is not None:
            return entity
        kind = _OCCUPANT_KINDS.get(self.kind(x, y))
        if kind is None:
            return None
        return MappingProxyType({"x": x, "y": y, "kind": kind, "mark": self.mark(x, y)})

    def was_visited(self, x: int, y: int) -> bool:
        """True when the hero has stood here on this level (including now)."""
        return (x, y) in self.visited

    def trap_base(self, x: int, y: int) -> str | None:
        """The feature shown here before a known trap was drawn over it, if any."""
        return self.trap_bases.get((x, y))

    def positions_with_feature(self, codes: str) -> list[Position]:
        """Every in-bounds square whose feature is one of codes, in row-major order."""
        found = []
        for y in range(MAP_ROWS):
            row = self.features[y]
            for x in range(MIN_X, MAX_X + 1):
                if row[x] in codes:
                    found.append((x, y))
        return found


class _LevelMemory:
    """Merged rows, visited squares and trap bases of one level.

    visited only grows: standing on a square is never undone, so the
    driver's `visited` rows and the observed positions are merged by union
    (a full world replaces the rows, not the record of where the hero stood).
    """

    def __init__(self) -> None:
        self.rows: dict[int, dict[str, str]] = {}
        self.visited: set[Position] = set()
        self.bases: dict[Position, str] = {}
        self.walked: set[tuple[Position, Position]] = set()  # diagonal steps taken, sorted pairs
        self.searched: dict[Position, int] = {}  # search turns made on each square
        self._visited_rows: dict[int, object] = {}  # the last `visited` string read per row

    def update_row(self, row: Mapping[str, Any]) -> None:
        y = int(row["y"])
        if not 0 <= y < MAP_ROWS:
            return
        merged = {name: _layer(row, name) for name in LAYERS}
        before = self.rows.get(y)
        self.rows[y] = merged
        # A resume folds every response of the game, so the two scans below
        # skip what a row already told: the same string adds nothing new.
        stood = row.get(VISITED)
        if stood != self._visited_rows.get(y):
            self._visited_rows[y] = stood
            self.visited |= row_visited(y, stood)
        features = merged["features"]
        if before is not None and before["features"] == features:
            return
        for x, code in enumerate(features):
            if code not in (" ", "^"):
                self.bases[(x, y)] = code

    def trap_bases(self) -> dict[Position, str]:
        found = {}
        for y, row in self.rows.items():
            if "^" not in row["features"]:
                continue  # (most rows show no trap: no per-cell scan)
            for x, code in enumerate(row["features"]):
                if code == "^" and (x, y) in self.bases:
                    found[(x, y)] = self.bases[(x, y)]
        return found


class WorldTracker:
    """Merges every driver observation into per-level grids and yields the current view.

    Call apply() with each response's `observation` in order (gameplay,
    observe and create alike) and view() whenever a fresh LevelView is
    needed. A partial world updates only the rows it carries; rows never
    sent stay blank; a full world of a level not shown yet (creation)
    replaces the level's rows, and one of the level shown (session.observe)
    is the view's `observed` picture, not merged (module docstring). The
    grid is keyed by levelId because the driver keeps terrain memory per
    level and resends every row when the displayed level changes.
    """

    def __init__(self) -> None:
        self._levels: dict[str, _LevelMemory] = {}
        self._level_id: str | None = None
        self._hero: Position | None = None
        self._entities: list[Mapping[str, Any]] = []
        self._doors: list[Mapping[str, Any]] = []
        self._traps: list[Mapping[str, Any]] = []
        self._turn: int | None = None
        # The view of the latest observation: views are immutable and the
        # session, projection and tools ask for it several times per call.
        self._view: LevelView | None = None
        # The merged memory's own view: an observe changes only what is shown, so it is kept across one
        self._memory_view: LevelView | None = None
        self._observed: Mapping[str, Any] | None = None  # the latest observe, shown but not merged
        self.sightings = Sightings()

    @property
    def level_id(self) -> str | None:
        """The level of the latest observation, or None before the first."""
        return self._level_id

    def apply(self, observation: Mapping[str, Any] | None, *, searching: bool = False) -> None:
        """Merge one observation. A missing or level-less observation changes nothing.

        A full world of the level already shown (a session.observe; creation
        is the first observation, so it is merged) is kept as the observed
        picture until the next observation, and changes no memory.
        searching: the observation answers a search (game.search): the turns
        it advanced (at least one) are counted on the square searched from."""
        if not observation or "levelId" not in observation:
            return
        if searching:
            self._count_search(observation)
        self._view = None
        level_id = str(observation["levelId"])
        world = observation.get("world")
        if isinstance(world, Mapping) and world.get("full") and level_id == self._level_id:
            self._observed = dict(observation)  # the caller may take the world out of its copy
            return
        self._memory_view = None
        self._observed = None
        memory = self._levels.setdefault(level_id, _LevelMemory())
        if isinstance(world, Mapping):
            if world.get("full"):
                memory.rows.clear()
            for row in world.get("rows") or ():
                memory.update_row(row)
        position = observation.get("position")
        if isinstance(position, Mapping) and "x" in position and "y" in position:
            hero = (int(position["x"]), int(position["y"]))
            previous = self._hero if self._level_id == level_id else None
            if previous is not None and abs(previous[0] - hero[0]) == 1 and abs(previous[1] - hero[1]) == 1:
                # one diagonal step between two consecutive observations: walked
                memory.walked.add((min(previous, hero), max(previous, hero)))
            self._hero = hero
            memory.visited.add(self._hero)
        self._traps = list(observation.get("traps") or ())
        self._entities = list(observation.get("entities") or ())
        turn = observation.get("turn")
        if isinstance(turn, int):
            self.sightings.remember(level_id, self._entities, turn)
        self._doors = list(observation.get("doors") or ())
        self._turn = observation.get("turn")
        self._level_id = level_id

    def _count_search(self, observation: Mapping[str, Any]) -> None:
        """Count a search on the hero's square before this observation (where it searched from)."""
        if self._hero is None or self._level_id != str(observation["levelId"]):
            return
        turn = observation.get("turn")
        turns = turn - self._turn if isinstance(turn, int) and isinstance(self._turn, int) else 1
        memory = self._levels.setdefault(self._level_id, _LevelMemory())
        memory.searched[self._hero] = memory.searched.get(self._hero, 0) + max(1, turns)

    def memory(self) -> dict[str, Any]:
        """Everything merged so far, as plain data: two trackers that folded
        the same observations in the same order are equal here (the exact
        resume tests compare a resumed game's memory with the original's)."""
        return {
            "levels": {
                level_id: {
                    "rows": {y: dict(row) for y, row in sorted(memory.rows.items())},
                    "visited": sorted(memory.visited),
                    "bases": sorted(memory.bases.items()),
                    "walked": sorted(memory.walked),
                    "searched": sorted(memory.searched.items()),
                }
                for level_id, memory in sorted(self._levels.items())
            },
            "levelId": self._level_id,
            "hero": self._hero,
            "entities": [dict(entity) for entity in self._entities],
            "doors": [dict(door) for door in self._doors],
            "traps": [dict(trap) for trap in self._traps],
            "turn": self._turn,
            "sightings": self.sightings.memory(),
        }

    def visited(self, level_id: str) -> frozenset[Position]:
        """The squares the hero has stood on, on that level: driver `visited` rows and observed positions."""
        memory = self._levels.get(level_id)
        return frozenset(memory.visited) if memory else frozenset()

    def view(self) -> LevelView:
        """The current level as perceived now. Raises LookupError before any observation."""
        if self._level_id is None or self._hero is None:
            raise LookupError("no observation with a level and a position has been applied")
        if self._view is not None:
            return self._view
        memory = self._levels[self._level_id]
        if self._memory_view is None:
            self._memory_view = LevelView.from_rows(
                self._level_id,
                memory.rows,
                self._hero,
                self._entities,
                frozenset(memory.visited),
                memory.trap_bases(),
                self._doors,
                self._turn,
                frozenset(memory.walked),
                self._traps,
                memory.searched,
            )
        self._view = self._memory_view
        if self._observed is not None:
            observed = self._memory_view
            if not self._shows_memory(memory, self._memory_view, self._observed):
                observed = self._observed_view(memory, self._observed)
            self._view = replace(self._view, observed=observed)
        return self._view

    def _shows_memory(self, memory: _LevelMemory, view: LevelView, observation: Mapping[str, Any]) -> bool:
        """True when the observe's picture is the memory's own view, field for
        field (the usual case: the memory is exact after every acting
        response): the same layers, hero, creatures, doors, traps and turn,
        and no row's `visited` string adding a square. Then `_observed_view`
        would build an equal view, so it need not be built."""
        position = observation.get("position")
        turn = observation.get("turn")
        if not (
            isinstance(position, Mapping)
            and (position.get("x"), position.get("y")) == view.hero
            and list(observation.get("entities") or ()) == self._entities
            and list(observation.get("doors") or ()) == self._doors
            and list(observation.get("traps") or ()) == self._traps
            and (not isinstance(turn, int) or turn == self._turn)
        ):
            return False
        rows: dict[int, Mapping[str, Any]] = {}
        for row in observation["world"].get("rows") or ():
            y = int(row["y"])
            if 0 <= y < MAP_ROWS:
                rows[y] = row
        for y, row in rows.items():
            stood = row.get(VISITED)
            if stood != memory._visited_rows.get(y) and not row_visited(y, stood) <= memory.visited:
                return False
        return all(
            tuple(_layer(rows.get(y, _BLANK), name) for y in range(MAP_ROWS)) == getattr(view, field_name)
            for name, field_name in _LAYER_FIELDS
        )

    def _observed_view(self, memory: _LevelMemory, observation: Mapping[str, Any]) -> LevelView:
        """The observe's own picture: its rows, position, creatures and doors,
        with the history only the memory has (visited squares, trap bases)."""
        shown = _LevelMemory()
        shown.bases = dict(memory.bases)  # update_row adds to it: the memory stays as it was
        world = observation["world"]
        for row in world.get("rows") or ():
            shown.update_row(row)
        position = observation.get("position")
        hero = self._hero
        if isinstance(position, Mapping) and "x" in position and "y" in position:
            hero = (int(position["x"]), int(position["y"]))
        assert hero is not None
        turn = observation.get("turn")
        return LevelView.from_rows(
            self._level_id or str(observation["levelId"]),
            shown.rows,
            hero,
            list(observation.get("entities") or ()),
            frozenset(memory.visited) | shown.visited,
            shown.trap_bases(),
            list(observation.get("doors") or ()),
            turn if isinstance(turn, int) else self._turn,
            frozenset(memory.walked),
            list(observation.get("traps") or ()),
            memory.searched,
        )
