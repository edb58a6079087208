"""test_navigation_snapshot.py - the navigation memory dumped at move k and loaded back is the same memory.

A real game (the native engine, a stored wandering wizard-mode game of 600
inputs) is replayed with full responses; every response is folded into one
tracker, the uninterrupted memory. At several moves k a snapshot is taken
(`navigation.snapshot.dump`), loaded into a new tracker, and both trackers
fold the responses k+1..n: after every one their dumps, their memory() and
their views (what every frame is projected from) must be equal. A loaded
snapshot dumps to the same bytes it was loaded from.

Bad snapshots - not JSON, another document, an unknown format, a field of
the wrong type or off the map, a duplicated key - are refused with a
ValueError that says what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from nethack_webmcp.engine.native import NativeEngine
from nethack_webmcp.navigation import navigation, snapshot
from nethack_webmcp.navigation.level import WorldTracker
from nethack_webmcp.session import replay as journal_replay
from support.wandering_game import wandering_game

pytestmark = pytest.mark.asyncio

INPUTS = 600
TAKEN_AT = (0, 1, 57, 200, 399, 600)


async def _responses(game: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[dict[str, Any], bool]]]:
    """The creation response and every input's full response, with whether it answered a search."""
    todo = journal_replay.plan(game["entries"])[0]
    engine = await NativeEngine.start()
    try:
        created = await engine.request({"version": 1, "method": "session.create", "params": game["info"]["create"]})
        responses = [(await engine.request(entry["request"]), entry["method"] == "game.search") for entry in todo]
    finally:
        await engine.close()
    return created, responses


async def test_a_snapshot_at_move_k_folds_on_to_the_uninterrupted_memory(state_dir: object) -> None:
    game = await wandering_game(INPUTS, seed=19, name="Snap", stride=5, prefix="n")
    created, responses = await _responses(game)
    assert len(responses) == INPUTS

    straight = WorldTracker()
    straight.apply(created["observation"])
    restored: dict[int, WorldTracker] = {}
    sizes = []
    for move in range(INPUTS + 1):
        if move:
            response, searching = responses[move - 1]
            straight.apply(response.get("observation"), searching=searching)
            for tracker in restored.values():
                tracker.apply(response.get("observation"), searching=searching)
        if move in TAKEN_AT:
            data = snapshot.dump(straight)
            sizes.append(len(data))
            again = snapshot.load(data)
            assert snapshot.dump(again) == data, f"a snapshot at move {move} does not load back to its own bytes"
            restored[move] = again
        expected = snapshot.dump(straight)
        view = straight.view()
        for taken, tracker in restored.items():
            assert snapshot.dump(tracker) == expected, f"restored at move {taken}, the memory differs at move {move}"
            assert tracker.memory() == straight.memory()
            assert tracker.view() == view, f"restored at move {taken}, the view differs at move {move}"
            assert navigation(tracker.view()) == navigation(view)
    # the game had something to remember: squares stood on, searches counted, creatures seen
    memory = straight.memory()
    level = memory["levels"][memory["levelId"]]
    assert len(level["visited"]) > 20 and level["searched"] and memory["sightings"]
    assert max(sizes) < 200_000, sizes


async def test_an_observe_still_shown_is_kept() -> None:
    """The latest session.observe (shown, not merged: level.py) is part of the snapshot."""
    tracker = WorldTracker()
    rows = [{"y": 3, **dict.fromkeys(("marks", "terrain", "features"), "." * 80), "visible": "1" * 80}]
    tracker.apply({"levelId": "1:1", "position": {"x": 5, "y": 3}, "turn": 1, "world": {"full": True, "rows": rows}})
    seen = [{**rows[0], "marks": "." * 10 + "@" + "." * 69}]
    tracker.apply({"levelId": "1:1", "position": {"x": 10, "y": 3}, "turn": 1, "world": {"full": True, "rows": seen}})
    again = snapshot.load(snapshot.dump(tracker))
    assert again.view() == tracker.view() and again.view().observed is not None
    assert again.view().observed.hero == (10, 3)  # type: ignore[union-attr]


def _document() -> dict[str, Any]:
    tracker = WorldTracker()
    row = {"y": 2, **dict.fromkeys(("marks", "terrain", "features"), "#" * 80), "visible": "0" * 80}
    tracker.apply(
        {
            "levelId": "1:1",
            "position": {"x": 4, "y": 2},
            "turn": 9,
            "entities": [{"x": 6, "y": 2, "kind": "creature", "appearance": "newt"}],
            "world": {"full": True, "rows": [{**row, "visited": "0000100"}]},
        },
        searching=False,
    )
    tracker.apply({"levelId": "1:1", "position": {"x": 5, "y": 3}, "turn": 10, "world": {"rows": []}}, searching=True)
    return json.loads(snapshot.dump(tracker))


def _set(document: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    changed = json.loads(json.dumps(document))
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


BAD = [
    ("not JSON", b"\x80not json", "not UTF-8 JSON"),
    ("another document", json.dumps({"kind": "something-else"}).encode(), "not a navigation snapshot"),
    ("an unknown format", None, "format 2 is not supported"),
    ("a hero off the map", None, "off the map"),
    ("a short layer", None, "80-character layers"),
    ("a current level with no memory", None, "has no memory"),
    ("a duplicated row", None, "name one key twice"),
    ("a float turn", None, "turn must be an integer"),
    ("an extra field", None, "expected"),
    ("a sighting of the wrong shape", None, "sightings must be"),
]


def _bad(name: str) -> bytes:
    document = _document()
    level = ["levels", 0, 1]
    changes: dict[str, dict[str, Any]] = {
        "an unknown format": _set(document, ["format"], 2),
        "a hero off the map": _set(document, ["hero"], [80, 2]),
        "a short layer": _set(document, [*level, "rows", 0, 1, "marks"], "#" * 79),
        "a current level with no memory": _set(document, ["levelId"], "9:9"),
        "a duplicated row": _set(document, [*level, "rows"], document["levels"][0][1]["rows"] * 2),
        "a float turn": _set(document, ["turn"], 10.0),
        "an extra field": _set(document, ["pickle"], "cos\nsystem\n"),
        "a sighting of the wrong shape": _set(document, ["sightings", 0, 1], [["creature", "newt", "1", 9]]),
    }
    return json.dumps(changes[name]).encode()


@pytest.mark.parametrize(("name", "data", "message"), BAD, ids=[name for name, _, _ in BAD])
async def test_a_bad_snapshot_is_refused_with_what_is_wrong(name: str, data: bytes | None, message: str) -> None:
    assert snapshot.load(json.dumps(_document()).encode()).view().searched  # the untouched document loads
    with pytest.raises(ValueError, match=message):
        snapshot.load(data if data is not None else _bad(name))
