"""snapshot.py - the navigation memory as bytes: dump a WorldTracker, load it back exactly.

A checkpoint holds everything the next input depends on, and the host's
navigation memory is part of it: the frames after a resume are computed from
the memory every earlier response was folded into (trap bases, visited
squares, diagonal steps walked, search counts, creature sightings, other
levels' grids). Rebuilding it needs the whole game's responses; a snapshot
taken at input k plus the responses after k gives the same memory
(tests/navigation/test_snapshot.py holds both).

The format is canonical JSON (sorted keys, no spaces, ASCII, integers and
strings only), so equal trackers give equal bytes and a digest of the bytes
identifies the memory. Sets are written sorted; dicts as [key, value] pairs
in the order the tracker made their entries (views iterate them in that
order, so a loaded memory keeps it: two trackers that folded the same
responses in the same order dump the same bytes). A stored checkpoint is untrusted input: `load` never
evaluates anything (no pickle), checks every field's type and range, and
raises ValueError naming what is wrong.

What is held, per level: the merged rows (six layers of 80 characters per
row), the visited squares, the trap bases, the diagonal steps walked, the
search turns per square and the last `visited` string read per row; and for
the tracker: the current level, hero, entities, doors, traps, turn, the
latest session.observe still shown (not merged, see level.py) and the
sightings census. The views are caches and are rebuilt on demand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..geometry import MAP_ROWS, MAP_WIDTH, Position
from .level import LAYERS, WorldTracker, _LevelMemory
from .outcome import Sightings

FORMAT = 1
#: The snapshot's own name, so a different JSON document is refused by name, not by a missing field.
KIND = "nethack-webmcp/navigation-memory"


def dump(tracker: WorldTracker) -> bytes:
    """The tracker's whole memory as canonical JSON bytes (equal trackers: equal bytes)."""
    return _canonical(
        {
            "kind": KIND,
            "format": FORMAT,
            "levels": [[level_id, _dump_level(memory)] for level_id, memory in tracker._levels.items()],
            "levelId": tracker._level_id,
            "hero": None if tracker._hero is None else list(tracker._hero),
            "entities": [dict(entity) for entity in tracker._entities],
            "doors": [dict(door) for door in tracker._doors],
            "traps": [dict(trap) for trap in tracker._traps],
            "turn": tracker._turn,
            "observed": None if tracker._observed is None else dict(tracker._observed),
            "sightings": [
                [level_id, [[kind, appearance, shown, last] for (kind, appearance), (shown, last) in census.items()]]
                for level_id, census in tracker.sightings._levels.items()
            ],
        }
    )


def load(data: bytes) -> WorldTracker:
    """The tracker `dump` was made from. Raises ValueError for anything that
    is not a well-formed snapshot of this format (nothing is half-loaded)."""
    try:
        document = json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, TypeError) as exc:
        raise ValueError(f"the navigation snapshot is not UTF-8 JSON: {exc}") from None
    if not isinstance(document, dict) or document.get("kind") != KIND:
        raise ValueError(f"the data is not a navigation snapshot (kind must be {KIND!r})")
    if document.get("format") != FORMAT:
        raise ValueError(
            f"navigation snapshot format {document.get('format')!r} is not supported (this host reads {FORMAT})"
        )
    expected = {"kind", "format", "levels", "levelId", "hero", "entities", "doors", "traps", "turn"}
    expected |= {"observed", "sightings"}
    if set(document) != expected:
        raise ValueError(f"the navigation snapshot has fields {sorted(document)}, expected {sorted(expected)}")
    tracker = WorldTracker()
    tracker._levels = {
        level_id: _load_level(level_id, value) for level_id, value in _pairs(document["levels"], "levels", str)
    }
    level_id = document["levelId"]
    if level_id is not None and level_id not in tracker._levels:
        raise ValueError(f"the navigation snapshot's current level {level_id!r} has no memory")
    tracker._level_id = level_id
    tracker._hero = None if document["hero"] is None else _position(document["hero"], "hero")
    tracker._entities = _placed(document["entities"], "entities")
    tracker._doors = _placed(document["doors"], "doors")
    tracker._traps = _placed(document["traps"], "traps")
    turn = document["turn"]
    if turn is not None and not _is_int(turn):
        raise ValueError("the navigation snapshot's turn must be an integer or null")
    tracker._turn = turn
    tracker._observed = None if document["observed"] is None else _observation(document["observed"])
    tracker.sightings = _sightings(document["sightings"])
    return tracker


# ---- dump --------------------------------------------------------------------------------


def _canonical(document: Any) -> bytes:
    # allow_nan=False: a float that is not a number would make two dumps of one memory differ
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.encode("ascii")


def _dump_level(memory: _LevelMemory) -> dict[str, Any]:
    return {
        "rows": [[y, dict(row)] for y, row in memory.rows.items()],
        "visited": sorted([x, y] for x, y in memory.visited),
        "bases": [[x, y, code] for (x, y), code in memory.bases.items()],
        "walked": sorted([a[0], a[1], b[0], b[1]] for a, b in memory.walked),
        "searched": [[x, y, turns] for (x, y), turns in memory.searched.items()],
        "visitedRows": [[y, text] for y, text in memory._visited_rows.items()],
    }


# ---- load (every value checked: the bytes come from storage) ------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"the navigation snapshot's {what} must be an object")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"the navigation snapshot's {what} must be a list")
    return value


def _ints(value: Any, count: int, what: str) -> list[int]:
    if not (isinstance(value, list) and len(value) == count and all(_is_int(item) for item in value)):
        raise ValueError(f"the navigation snapshot's {what} must be lists of {count} integers")
    return value


def _position(value: Any, what: str) -> Position:
    x, y = _ints(value, 2, what)
    if not (0 <= x < MAP_WIDTH and 0 <= y < MAP_ROWS):
        raise ValueError(f"the navigation snapshot's {what} ({x}, {y}) is off the map")
    return (x, y)


def _pairs(value: Any, what: str, key_type: type) -> list[tuple[Any, Any]]:
    """A dict kept as [key, value] pairs in its insertion order (the order the
    tracker made them in, which views iterate); a key may appear once."""
    pairs = []
    for item in _list(value, what):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], key_type)):
            raise ValueError(f"the navigation snapshot's {what} must be [key, value] pairs")
        if key_type is int and not _is_int(item[0]):
            raise ValueError(f"the navigation snapshot's {what} keys must be integers")
        pairs.append((item[0], item[1]))
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError(f"the navigation snapshot's {what} name one key twice")
    return pairs


def _row_index(y: int, what: str) -> int:
    if not 0 <= y < MAP_ROWS:
        raise ValueError(f"the navigation snapshot's {what} row {y} is not a map row")
    return y


def _load_level(level_id: str, value: Any) -> _LevelMemory:
    where = f"level {level_id!r}"
    level = _mapping(value, where)
    fields = {"rows", "visited", "bases", "walked", "searched", "visitedRows"}
    if set(level) != fields:
        raise ValueError(f"the navigation snapshot's {where} has fields {sorted(level)}, expected {sorted(fields)}")
    memory = _LevelMemory()
    for key, row in _pairs(level["rows"], f"{where} rows", int):
        y = _row_index(key, where)
        row = _mapping(row, f"{where} row {y}")
        layers_ok = all(isinstance(text, str) and len(text) == MAP_WIDTH for text in row.values())
        if set(row) != set(LAYERS) or not layers_ok:
            raise ValueError(f"the navigation snapshot's {where} row {y} must hold the six 80-character layers")
        memory.rows[y] = dict(row)
    memory.visited = {_position(item, f"{where} visited squares") for item in _list(level["visited"], where)}
    for item in _list(level["bases"], f"{where} bases"):
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[2], str) and len(item[2]) == 1):
            raise ValueError(f"the navigation snapshot's {where} bases must be [x, y, code] lists")
        memory.bases[_position(item[:2], f"{where} bases")] = item[2]
    if len(memory.bases) != len(level["bases"]):
        raise ValueError(f"the navigation snapshot's {where} bases name one square twice")
    for item in _list(level["walked"], f"{where} walked"):
        x1, y1, x2, y2 = _ints(item, 4, f"{where} walked steps")
        memory.walked.add((_position([x1, y1], f"{where} walked"), _position([x2, y2], f"{where} walked")))
    for item in _list(level["searched"], f"{where} searched"):
        x, y, turns = _ints(item, 3, f"{where} searched squares")
        if turns < 1:
            raise ValueError(f"the navigation snapshot's {where} searched turns must be positive")
        memory.searched[_position([x, y], f"{where} searched")] = turns
    if len(memory.searched) != len(level["searched"]):
        raise ValueError(f"the navigation snapshot's {where} searched squares name one square twice")
    for key, text in _pairs(level["visitedRows"], f"{where} visitedRows", int):
        if text is not None and not isinstance(text, str):
            raise ValueError(f"the navigation snapshot's {where} visitedRows must be strings")
        memory._visited_rows[_row_index(key, where)] = text
    return memory


def _placed(value: Any, what: str) -> list[Mapping[str, Any]]:
    """Entities, doors or traps: objects whose x and y, where present, are integers."""
    items = _list(value, what)
    for item in items:
        if not isinstance(item, dict):
            raise ValueError(f"the navigation snapshot's {what} must be objects")
        if any(key in item and not _is_int(item[key]) for key in ("x", "y")):
            raise ValueError(f"the navigation snapshot's {what} positions must be integers")
    return items


def _observation(value: Any) -> dict[str, Any]:
    """The latest observe still shown: a full world of the current level."""
    observation = _mapping(value, "observed")
    world = observation.get("world")
    if not (isinstance(world, dict) and world.get("full") and isinstance(world.get("rows"), list)):
        raise ValueError("the navigation snapshot's observed must carry a full world")
    for row in world["rows"]:
        if not (isinstance(row, dict) and _is_int(row.get("y"))):
            raise ValueError("the navigation snapshot's observed rows must be objects with an integer y")
        if not all(isinstance(row.get(name, ""), str) for name in LAYERS):
            raise ValueError("the navigation snapshot's observed row layers must be strings")
    position = observation.get("position")
    if position is not None and not (
        isinstance(position, dict) and _is_int(position.get("x")) and _is_int(position.get("y"))
    ):
        raise ValueError("the navigation snapshot's observed position must have integer x and y")
    for what in ("entities", "doors", "traps"):
        _placed(observation.get(what) or [], f"observed {what}")
    return observation


def _sightings(value: Any) -> Sightings:
    sightings = Sightings()
    for level_id, items in _pairs(value, "sightings", str):
        census = {}
        for item in _list(items, f"sightings of {level_id!r}"):
            if not (
                isinstance(item, list)
                and len(item) == 4
                and isinstance(item[0], str)
                and isinstance(item[1], str)
                and _is_int(item[2])
                and _is_int(item[3])
            ):
                raise ValueError("the navigation snapshot's sightings must be [kind, appearance, shown, turn] lists")
            census[(item[0], item[1])] = (item[2], item[3])
        sightings._levels[level_id] = census
    return sightings
