"""The navigation memory folds creation and gameplay responses only; an observe's full world is shown, not merged.

The driver resends a row only when something drawn in it changed, so a
row's `visible` layer is as of the last response that carried it, while
a session.observe carries every row as it is now. Were the observe merged,
the memory would depend on when the agent happened to look - which no
journal records, so a resume could not rebuild it (docs/DURABILITY.md,
"Exact resume"). These cases pin the rule on hand-drawn observations.
"""

from __future__ import annotations

from typing import Any

from nethack_webmcp.navigation import WorldTracker
from nethack_webmcp.navigation.terrain import freshness, terrain_type, walkable
from synthetic import observation

ROOM = [" ", " WWWWW", " W...W", " W...W", " WWWWW"]


def hidden(obs: dict[str, Any], y: int) -> dict[str, Any]:
    """obs with row y shown out of sight (every `visible` flag 0)."""
    for row in obs["world"]["rows"]:
        if row["y"] == y:
            row["visible"] = "0" * 80
    return obs


def only(obs: dict[str, Any], *ys: int) -> dict[str, Any]:
    """obs as a gameplay response that carries only rows ys (the changed ones)."""
    obs["world"]["rows"] = [row for row in obs["world"]["rows"] if row["y"] in ys]
    return obs


def with_feature(obs: dict[str, Any], x: int, y: int, code: str) -> dict[str, Any]:
    for row in obs["world"]["rows"]:
        if row["y"] == y:
            row["features"] = row["features"][:x] + code + row["features"][x + 1 :]
    return obs


def test_an_observe_is_the_observe_frames_picture_and_leaves_the_memory_alone() -> None:
    tracker = WorldTracker()
    tracker.apply(observation(ROOM, (3, 2)))  # creation: the first full world is merged
    before = tracker.memory()
    assert tracker.view().observed is None and tracker.view().visible(3, 3)

    tracker.apply(hidden(observation(ROOM, (3, 2)), 3))  # an observe: row 3 is out of sight now
    view = tracker.view()
    assert tracker.memory() == before, "the memory did not change"
    assert view.visible(3, 3) and freshness(view, 3, 3) == "current"
    assert view.observed is not None and not view.observed.visible(3, 3)
    assert freshness(view.observed, 3, 3) == "remembered"

    tracker.apply(observation(ROOM, (4, 2), full=False))  # the next move: only the memory again
    assert tracker.view().observed is None and tracker.view().hero == (4, 2)


def test_the_memory_is_the_same_whether_or_not_the_agent_looked() -> None:
    moves = [observation(ROOM, (3, 2)), only(hidden(observation(ROOM, (4, 2), full=False), 3), 3)]
    looked, did_not = WorldTracker(), WorldTracker()
    for index, obs in enumerate(moves):
        looked.apply(obs)
        did_not.apply(obs)
        if index == 0:
            looked.apply(hidden(observation(ROOM, (3, 2)), 2))  # an observe in between
    assert looked.memory() == did_not.memory()


def test_the_observed_picture_keeps_the_floor_under_a_trap_from_the_memory() -> None:
    tracker = WorldTracker()
    tracker.apply(observation(ROOM, (2, 2)))  # the floor at (4, 3) is seen
    tracker.apply(with_feature(observation(ROOM, (2, 2), full=False), 4, 3, "^"))  # a trap is found on it
    tracker.apply(with_feature(observation(ROOM, (2, 2)), 4, 3, "^"))  # observe
    for view in (tracker.view(), tracker.view().observed):
        assert view is not None
        assert terrain_type(view, 4, 3) == "floor" and walkable(view, 4, 3) is True
