"""WorldTracker merging and LevelView accessors, on recorded driver responses."""

from __future__ import annotations

import pytest
from nethack_webmcp.navigation import LevelView, WorldTracker
from nethack_webmcp.navigation.level import MAP_ROWS, MAP_WIDTH
from recorded import fixture_view, load_fixture, tracked
from synthetic import draw, observation


def test_view_before_any_observation_is_an_error():
    with pytest.raises(LookupError):
        WorldTracker().view()


def test_full_world_fills_every_row_and_reads_cells():
    view = fixture_view("seed42_start")
    assert view.level_id == "d0-l1"
    assert view.hero == (59, 6)
    assert len(view.features) == MAP_ROWS and all(len(row) == MAP_WIDTH for row in view.features)
    assert view.feature(48, 3) == "d" and view.mark(48, 3) == "."
    assert view.feature(48, 7) == "v" and view.mark(48, 7) == "+"  # closed door in the west wall
    assert view.feature(53, 9) == "h"  # closed door in the south wall
    # Terrain under objects and creatures comes from the #terrain view: the floor under the
    # '[', the up staircase under the hero, the floor under the dog.
    assert (view.mark(49, 3), view.kind(49, 3), view.feature(49, 3), view.terrain_mark(49, 3)) == ("[", "O", ".", ".")
    assert (view.mark(59, 6), view.kind(59, 6), view.feature(59, 6), view.terrain_mark(59, 6)) == ("@", "M", "<", "<")
    assert (view.mark(58, 7), view.kind(58, 7), view.feature(58, 7)) == ("d", "P", ".")
    assert view.visible(50, 5) and not view.visible(10, 10)
    assert view.color(49, 3) is not None and view.color(-1, 0) is None
    # Off-grid reads are blank, never an IndexError.
    assert view.feature(0, -1) == " " and view.mark(80, 0) == " " and not view.visible(99, 99)


def test_entities_are_indexed_by_position_and_never_the_hero():
    view = fixture_view("seed42_start")
    dog = view.occupant_at(58, 7)
    assert dog is not None and dog["kind"] == "ally" and dog["appearance"] == "little dog"
    assert view.occupant_at(*view.hero) is None


def test_partial_rows_update_only_what_they_carry():
    pairs = load_fixture("seed42_start") + load_fixture("seed42_door")[1:2]
    tracker = WorldTracker()
    tracker.apply(pairs[0]["response"]["observation"])
    before = tracker.view()
    partial = pairs[1]["response"]["observation"]
    assert partial["world"]["full"] is False
    sent = {row["y"] for row in partial["world"]["rows"]}
    tracker.apply(partial)
    after = tracker.view()
    assert after.hero == (58, 6)
    for y in range(MAP_ROWS):
        if y not in sent:
            assert after.features[y] == before.features[y]
    # The stairs were known under the hero and stay known; the square the hero stepped onto
    # is known under the '@' at once.
    assert before.feature(59, 6) == after.feature(59, 6) == "<"
    assert after.mark(58, 6) == "@" and after.feature(58, 6) == "."
    assert after.feature(60, 4) == "d"


def test_visited_accumulates_every_observed_position_per_level():
    tracker = tracked("seed42_door")
    view = tracker.view()
    assert {(59, 6), (58, 6), (50, 6), (49, 7)} <= view.visited
    assert tracker.visited("d0-l1") == view.visited
    assert tracker.visited("d0-l2") == frozenset()
    # The door bump did not move the hero: (48, 7) is not visited.
    assert not view.was_visited(48, 7)


def _driver_visited(pairs):
    """The squares the recorded `visited` rows mark, merged like any row layer."""
    rows = {}
    for pair in pairs:
        for row in pair["response"]["observation"]["world"]["rows"]:
            rows[row["y"]] = row["visited"]
    return {(x, y) for y, text in rows.items() for x, flag in enumerate(text) if flag == "1"}


def test_driver_visited_rows_are_read_and_agree_with_observed_positions():
    # Single moves only: the driver's record equals the positions the observations report.
    for name in ("seed42_door", "seed1_boulder", "seed26_trap"):
        pairs = load_fixture(name)
        positions = {
            (p["response"]["observation"]["position"]["x"], p["response"]["observation"]["position"]["y"])
            for p in pairs
        }
        assert _driver_visited(pairs) == positions, name
        assert tracked(name).view().visited == positions, name
    # The teleport trap at (75, 14) was entered but never drawn with the hero on it.
    assert not fixture_view("seed26_trap").was_visited(75, 14)


def test_visited_is_the_union_of_driver_rows_and_observed_positions():
    drawing = [" ", " .....", " ....."]
    tracker = WorldTracker()
    tracker.apply(observation(drawing, (1, 1), visited=[(1, 1)]))
    # The driver marks squares no observation reported (a run passed them).
    tracker.apply(observation(drawing, (5, 1), visited=[(1, 1), (2, 1), (3, 2), (4, 1), (5, 1)], full=False))
    assert tracker.visited("d0-l1") == {(1, 1), (2, 1), (3, 2), (4, 1), (5, 1)}
    # Rows without `visited` (older recordings) keep what is known.
    tracker.apply(observation(drawing, (5, 2), full=False))
    view = tracker.view()
    assert view.visited == {(1, 1), (2, 1), (3, 2), (4, 1), (5, 1), (5, 2)}
    assert view.was_visited(3, 2) and not view.was_visited(3, 1)
    # Nor does the picture of a full world (an observe) forget it.
    tracker.apply(observation(drawing, (5, 2)))
    observed = tracker.view().observed
    assert observed is not None and observed.visited == view.visited
    # Marks outside the playable map (x = 0) are ignored.
    odd = WorldTracker()
    odd.apply(observation(drawing, (1, 1), visited=[(0, 1), (1, 1)]))
    assert odd.view().visited == {(1, 1)}


def test_from_rows_reads_the_visited_layer():
    rows = {2: {"features": " ...", "visited": "0110"}}
    view = LevelView.from_rows("x", rows, (3, 2), [], frozenset({(1, 2)}))
    assert view.visited == {(1, 2), (2, 2), (3, 2)}


def test_levels_are_kept_apart():
    start = load_fixture("seed42_start")[0]["response"]["observation"]
    tracker = WorldTracker()
    tracker.apply(start)
    other = dict(
        start, levelId="d0-l2", position={"x": 10, "y": 10}, world={"encoding": "rows-v1", "full": False, "rows": []}
    )
    tracker.apply(other)
    assert tracker.view().level_id == "d0-l2"
    assert tracker.view().feature(48, 3) == " "  # nothing of level 1 leaks into level 2
    tracker.apply(dict(start, world={"encoding": "rows-v1", "full": False, "rows": []}))
    assert tracker.view().feature(48, 3) == "d"
    assert (10, 10) not in tracker.view().visited


def test_observation_without_level_changes_nothing():
    tracker = tracked("seed42_start")
    tracker.apply(None)
    tracker.apply({"error": "x"})
    assert tracker.view().hero == (59, 6)


def test_trap_base_is_the_feature_seen_before_the_trap():
    view = fixture_view("seed26_trap")
    assert view.feature(75, 14) == "^"
    assert view.trap_base(75, 14) == "."
    # The hero was teleported: standing positions include the far arrival square.
    assert view.hero == (15, 13)
    assert view.visited == {(76, 13), (15, 13)}


def test_from_rows_pads_short_rows_and_adds_the_hero_to_visited():
    view = LevelView.from_rows("x", {3: {"features": " ..", "marks": " .."}}, (1, 3), [], frozenset())
    assert view.feature(2, 3) == "." and view.feature(40, 3) == " "
    assert view.visited == frozenset({(1, 3)})


def test_positions_with_feature_are_row_major():
    view = draw([" ", " >.>", " >"], (2, 1))
    assert view.positions_with_feature(">") == [(1, 1), (3, 1), (1, 2)]
