"""navigation(): frontiers, ways down/up and doors with approaches."""
from __future__ import annotations

from nethack_webmcp.navigation import is_frontier, navigation, route
from recorded import fixture_view
from synthetic import draw


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


def test_object_covered_squares_are_not_undiscovered():
    view = draw([" ", " WWW", " ...", " WWW"], (1, 2), cells={(4, 2): ("[", "O")})
    assert navigation(view)["frontiers"] == []


def test_frontiers_sort_by_distance_then_row_major():
    view = draw([" ", "  .", " ...", "  ."], (2, 2))
    assert [(f["x"], f["y"], f["distance"]) for f in navigation(view)["frontiers"]] == [
        (2, 1, 1), (1, 2, 1), (3, 2, 1), (2, 3, 1)]


def test_real_start_room_frontiers_and_doors():
    result = navigation(fixture_view("seed42_start"))
    assert result["basis"] == {"levelId": "d0-l1", "origin": {"x": 59, "y": 6}}
    # (59,4) borders the not-yet-displayed east doorway; (48,5) is the west doorway.
    assert [(f["x"], f["y"], f["distance"], f["firstStep"]) for f in result["frontiers"]] == [
        (59, 4, 2, "north"), (48, 5, 11, "west")]
    assert result["waysDown"] == [] and result["waysUp"] == []  # the hero covers the <
    closed_south = at(result["doors"], 53, 9)
    assert closed_south == {
        "x": 53, "y": 9, "state": "closed", "orientation": "horizontal",
        "lock": {"state": "unknown", "freshness": "unknown"},
        "distance": 6, "approach": {"x": 53, "y": 8}, "direction": "south", "firstStep": "west"}
    west = at(result["doors"], 48, 7)
    assert west["state"] == "closed" and west["orientation"] == "vertical"
    assert west["approach"] == {"x": 49, "y": 7} and west["direction"] == "west" and west["distance"] == 10
    doorway = at(result["doors"], 48, 5)
    assert doorway["state"] == "doorway" and "orientation" not in doorway
    hidden = at(result["doors"], 48, 3)  # behind the '[' of unknown terrain
    assert hidden["distance"] is None and "approach" not in hidden and "direction" not in hidden
    assert result["doors"][-1] is hidden  # unreachable last
    for entry in result["frontiers"]:
        assert route(fixture_view("seed42_start"), (entry["x"], entry["y"]))["steps"][0]["direction"] == \
            entry["firstStep"]


def test_real_ways_down_and_up():
    result = navigation(fixture_view("seed42_stairs"))
    assert result["waysDown"] == [{"x": 31, "y": 12, "distance": 3, "firstStep": "south", "type": "stairsDown"}]
    assert result["waysUp"] == [{"x": 59, "y": 6, "distance": 31, "firstStep": "north", "type": "stairsUp"}]


def test_unreachable_way_down_is_listed_with_null_distance():
    view = draw([" ", " ..W>"], (1, 1))
    assert navigation(view)["waysDown"] == [{"x": 4, "y": 1, "distance": None, "type": "stairsDown"}]
    ladder = draw([" ", " ..L"], (1, 1))
    assert navigation(ladder)["waysDown"] == [
        {"x": 3, "y": 1, "distance": 2, "firstStep": "east", "type": "ladderDown"}]


def test_real_closed_room_has_no_frontier_but_approachable_doors():
    result = navigation(fixture_view("seed7_closed_room"))
    assert result["frontiers"] == []
    assert {(d["x"], d["y"], d["state"], d["distance"]) for d in result["doors"]} == {
        (46, 14, "closed", 4), (48, 18, "closed", 5)}


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
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names and top not in ("subprocess", "asyncio", "js"), (path, name)
