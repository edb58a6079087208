"""navigation(): frontiers, ways down/up and doors with approaches."""

from __future__ import annotations

from nethack_webmcp.navigation import WorldTracker, is_frontier, navigation, route
from recorded import fixture_view
from synthetic import draw, observation


def at(entries, x, y):
    return next(e for e in entries if (e["x"], e["y"]) == (x, y))


def test_frontier_is_an_unvisited_reachable_square_beside_the_undiscovered():
    view = draw([" ", " WWWWW", " ....d", " WWWWW"], (1, 2))
    result = navigation(view)
    assert result["frontiers"] == [{"x": 5, "y": 2, "distance": 4, "firstStep": "east"}]
    assert result["kind"] == "navigation" and result["policy"] == "knownWalking"


def test_visited_and_unreachable_squares_are_not_frontiers():
    view = draw([" ", " WWWWW", " ....d", " WWWWW", "     .."], (1, 2), visited=[(5, 2)])
    assert navigation(view)["frontiers"] == []  # (5,2) stood on; the row-4 floor is unreachable
    assert is_frontier(view, (5, 4))  # a frontier square, but not reachable: not listed


def test_squares_passed_in_a_run_are_not_frontiers():
    """The driver's `visited` rows mark every square a run passed; none of them is a frontier."""
    corridor = [" ", " ######"]
    before_run = observation(corridor, (1, 1), visited=[(1, 1)])
    after_run = observation(corridor, (6, 1), visited=[(x, 1) for x in range(1, 7)], full=False)
    tracker = WorldTracker()
    tracker.apply(before_run)
    tracker.apply(after_run)
    assert navigation(tracker.view())["frontiers"] == []
    # Observed positions alone (data recorded before `visited`) only know both ends of the run.
    old = WorldTracker()
    old.apply(observation(corridor, (1, 1)))
    old.apply(observation(corridor, (6, 1), full=False))
    assert [(f["x"], f["distance"]) for f in navigation(old.view())["frontiers"]] == [(5, 1), (4, 2), (3, 3), (2, 4)]


def test_object_covered_squares_are_not_undiscovered():
    view = draw([" ", " WWW", " ...", " WWW"], (1, 2), cells={(4, 2): ("[", "O")})
    assert navigation(view)["frontiers"] == []


def test_frontiers_sort_by_distance_then_row_major():
    view = draw([" ", "  .", " ...", "  ."], (2, 2))
    assert [(f["x"], f["y"], f["distance"]) for f in navigation(view)["frontiers"]] == [
        (2, 1, 1),
        (1, 2, 1),
        (3, 2, 1),
        (2, 3, 1),
    ]


def test_real_start_room_frontiers_and_doors():
    result = navigation(fixture_view("seed42_start"))
    assert result["basis"] == {"levelId": "d0-l1", "origin": {"x": 59, "y": 6}}
    # (59,4) borders the not-yet-displayed east doorway; (48,3) and (48,5) are the west doorways.
    # (48,3) is reachable because the floor under the '[' at (49,3) is known (the #terrain view).
    assert [(f["x"], f["y"], f["distance"], f["firstStep"]) for f in result["frontiers"]] == [
        (59, 4, 2, "north"),
        (48, 3, 11, "west"),
        (48, 5, 11, "west"),
    ]
    # The hero stands on the up staircase: its terrain is known under the '@', at distance 0.
    assert result["waysDown"] == []
    assert result["waysUp"] == [{"x": 59, "y": 6, "distance": 0, "type": "stairsUp"}]
    closed_south = at(result["doors"], 53, 9)
    assert closed_south == {
        "x": 53,
        "y": 9,
        "state": "closed",
        "orientation": "horizontal",
        "lock": {"state": "unknown", "freshness": "unknown"},
        "distance": 6,
        "approach": {"x": 53, "y": 8},
        "direction": "south",
        "firstStep": "west",
    }
    west = at(result["doors"], 48, 7)
    assert west["state"] == "closed" and west["orientation"] == "vertical"
    assert west["approach"] == {"x": 49, "y": 7} and west["direction"] == "west" and west["distance"] == 10
    doorway = at(result["doors"], 48, 5)
    assert doorway["state"] == "doorway" and "orientation" not in doorway
    behind_object = at(result["doors"], 48, 3)  # approached over the '[' on known floor
    assert behind_object["approach"] == {"x": 49, "y": 3} and behind_object["direction"] == "west"
    assert behind_object["distance"] == 10 and behind_object["firstStep"] == "west"
    # Sorted by distance, then row-major: every door of the first room is approachable.
    assert [(d["x"], d["y"], d["distance"]) for d in result["doors"]] == [
        (53, 9, 6),
        (48, 3, 10),
        (48, 5, 10),
        (48, 7, 10),
    ]
    for entry in result["frontiers"]:
        assert (
            route(fixture_view("seed42_start"), (entry["x"], entry["y"]))["steps"][0]["direction"] == entry["firstStep"]
        )


def test_real_ways_down_and_up():
    # The hero stands in a doorless doorway (known under the '@'): diagonals out of it are allowed.
    result = navigation(fixture_view("seed42_stairs"))
    assert result["waysDown"] == [{"x": 31, "y": 12, "distance": 2, "firstStep": "southeast", "type": "stairsDown"}]
    assert result["waysUp"] == [{"x": 59, "y": 6, "distance": 30, "firstStep": "northeast", "type": "stairsUp"}]


def test_unreachable_way_down_is_listed_with_null_distance():
    view = draw([" ", " ..W>"], (1, 1))
    assert navigation(view)["waysDown"] == [{"x": 4, "y": 1, "distance": None, "type": "stairsDown"}]
    ladder = draw([" ", " ..L"], (1, 1))
    assert navigation(ladder)["waysDown"] == [
        {"x": 3, "y": 1, "distance": 2, "firstStep": "east", "type": "ladderDown"}
    ]


def test_real_closed_room_has_no_frontier_but_approachable_doors():
    result = navigation(fixture_view("seed7_closed_room"))
    assert result["frontiers"] == []
    assert {(d["x"], d["y"], d["state"], d["distance"]) for d in result["doors"]} == {
        (46, 14, "closed", 4),
        (48, 18, "closed", 5),
    }


def test_door_approach_prefers_the_nearest_cardinal_square():
    view = draw([" ", " ...", " WvW", " ..."], (1, 3))
    door = navigation(view)["doors"][0]
    assert door["approach"] == {"x": 2, "y": 3} and door["direction"] == "north" and door["distance"] == 1


def test_navigation_imports_only_the_standard_library():
    """The package must run unchanged in Pyodide: no third-party or process imports."""
    import ast
    import sys
    from pathlib import Path

    package = Path(__file__).resolve().parents[2] / "py" / "nethack_webmcp" / "navigation"
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module] if isinstance(node, ast.ImportFrom) else [])
            )
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names and top not in ("subprocess", "asyncio", "js"), (path, name)


def test_a_corridor_that_bends_before_it_stops_is_a_dead_end():
    # The run comes down column 3 and ends in a kink at (2,4): (2,4) touches (3,3)
    # and (3,4), one arc, so it is the end; (3,4) joins two arcs, so it is not.
    view = draw([" ", " ...", "   #", "   #", "  ##"], (1, 1), visited=[(3, 2), (3, 3), (3, 4), (2, 4)])
    ends = [(e["x"], e["y"]) for e in navigation(view)["deadEnds"]]
    assert (2, 4) in ends and (3, 4) not in ends and (3, 3) not in ends


def test_a_corridor_running_on_is_not_a_dead_end():
    view = draw([" ", " ......"], (1, 1))
    straight = draw([" ", " .####."], (1, 1))
    assert navigation(view)["deadEnds"] == [] and navigation(straight)["deadEnds"] == []


def test_corridor_squares_facing_the_unknown_are_search_spots():
    # A room far east, a corridor west to column 20 and nothing else known.
    drawing = [" ", " " * 30 + "WWWW", " " * 20 + "##########..W", " " * 30 + "WWWW"]
    view = draw(drawing, (31, 2), visited=[(x, 2) for x in range(20, 33)])
    spots = navigation(view)["searchSpots"]
    assert spots and spots[0]["x"] <= 25 and spots[0]["y"] == 2  # the far corridor end, not the room


def test_a_corridor_seen_across_an_uncertain_diagonal_goes_on_there():
    # (3,2) is a corridor square seen diagonally from (4,3); the corner between them was
    # never seen (usually rock NetHack lets a light hero squeeze past): the corridor is not
    # a dead end at (4,3) (issue 23: false dead ends), it ends at (3,2), reached uncertainly.
    view = draw([" ", "    ", "   #", "    #", "    #", "    ."], (4, 5), visited=[(4, 3), (4, 4)])
    ends = {(e["x"], e["y"]): e for e in navigation(view)["deadEnds"]}
    assert (4, 3) not in ends
    assert ends[(3, 2)].get("uncertain") is True


def test_search_spots_spread_along_a_closed_rooms_walls():
    # Seed 45's first room: walls all round, no door, the unknown widest to the east.
    # A search reaches only the eight neighbours, so spots keep three squares apart
    # and reach the west wall too (they used to crowd the east corner).
    drawing = [" ", " ", " ", "  WWWWWWWWWW"] + ["  W........W"] * 4 + ["  WWWWWWWWWW"]
    spots = navigation(draw(drawing, (9, 4)))["searchSpots"]
    assert len(spots) >= 4
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"])) >= 3
    assert min(spot["x"] for spot in spots) <= 4 and max(spot["x"] for spot in spots) >= 9
