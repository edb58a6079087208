"""Known walking routes: shortest paths, the compass tie-break, exclusions and why."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nethack_webmcp.navigation import COMPASS, FirstSteps, passable, route
from recorded import fixture_view
from synthetic import creature, draw

OPEN_ROOM = [" ", " .....", " .....", " .....", " .....", " ....."]


def directions(result):
    return [step["direction"] for step in result["steps"]]


def test_tie_break_order_is_the_driver_compass_order():
    assert [name for name, _, _ in COMPASS] == [
        "north",
        "south",
        "east",
        "west",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
    ]


def test_origin_has_distance_zero():
    view = draw(OPEN_ROOM, (3, 3))
    result = route(view, (3, 3))
    assert result["distance"] == 0 and result["steps"] == [] and "why" not in result
    assert result["kind"] == "route" and result["policy"] == "knownWalking"
    assert result["basis"] == {"levelId": "d0-l1", "origin": {"x": 3, "y": 3}}
    assert result["target"] == {"x": 3, "y": 3}


def test_ties_take_the_first_compass_direction_at_every_step():
    view = draw(OPEN_ROOM, (1, 1))
    # (1,1) -> (3,5): 4 steps; south comes before southeast in the order.
    assert directions(route(view, (3, 5))) == ["south", "south", "southeast", "southeast"]
    # (1,1) -> (5,3): east before southeast.
    assert directions(route(view, (5, 3))) == ["east", "east", "southeast", "southeast"]
    # Pure diagonal: the only shortest path.
    assert directions(route(view, (5, 5))) == ["southeast"] * 4
    # Reverse direction: north before northwest, west before northwest.
    back = draw(OPEN_ROOM, (5, 5))
    assert directions(route(back, (3, 1))) == ["north", "north", "northwest", "northwest"]
    assert directions(route(back, (1, 3))) == ["west", "west", "northwest", "northwest"]


def test_route_is_stable_across_calls_and_steps_carry_positions():
    view = draw(OPEN_ROOM, (1, 1))
    first, second = route(view, (4, 5)), route(view, (4, 5))
    assert first == second
    position = (1, 1)
    for step in first["steps"]:
        name = step["direction"]
        dx, dy = {n: (a, b) for n, a, b in COMPASS}[name]
        position = (position[0] + dx, position[1] + dy)
        assert (step["x"], step["y"]) == position
    assert position == (4, 5)


def test_closed_door_is_excluded_and_named():
    view = draw([" ", " .W.", " .v.", " .W."], (1, 2))
    result = route(view, (3, 2))
    assert result["distance"] is None and result["steps"] == []
    assert result["why"] == "disconnected"
    assert route(view, (2, 2))["why"] == "closedDoor"


def test_open_door_is_entered_orthogonally_only():
    view = draw([" ", " .W.", " .V.", " .W."], (1, 1))
    result = route(view, (3, 3))
    assert directions(result) == ["south", "east", "east", "south"]


def test_doorless_doorway_allows_diagonals():
    view = draw([" ", " .W.", " .d.", " .W."], (1, 1))
    assert directions(route(view, (3, 3))) == ["southeast", "southeast"]


def test_boulder_hostile_and_peaceful_are_excluded_ally_is_not():
    corridor = [" ", " #####"]
    boulder = draw(corridor, (1, 1), cells={(3, 1): ("0", "B")})
    assert route(boulder, (5, 1))["why"] == "disconnected"
    assert route(boulder, (3, 1))["why"] == "targetOccupied"
    for attitude in ("hostile", "peaceful", None):
        blocked = draw(corridor, (1, 1), entities=[creature(3, 1, attitude=attitude)])
        assert route(blocked, (5, 1))["distance"] is None
        assert route(blocked, (3, 1))["why"] == "targetOccupied"
    ally = draw(corridor, (1, 1), entities=[creature(3, 1, kind="ally", attitude="tame", appearance="kitten")])
    assert route(ally, (5, 1))["distance"] == 4
    assert route(ally, (3, 1))["distance"] == 2  # a route may end on an ally


def test_glyph_only_creature_blocks_too():
    view = draw([" ", " #####"], (1, 1), cells={(3, 1): ("I", "I")})
    assert route(view, (5, 1))["distance"] is None


def test_known_hazards_are_avoided():
    view = draw([" ", " ...", " .^.", " ..."], (1, 2), trap_bases={(2, 2): "."})
    assert directions(route(view, (3, 2))) == ["northeast", "southeast"]
    assert route(view, (2, 2))["why"] == "disconnected"
    water = draw([" ", " .~.", " W~W"], (1, 1))
    assert route(water, (3, 1))["distance"] is None


def test_squeezes_are_avoided_and_uncertain_corners_are_uncertain_not_disconnected():
    squeeze = draw([" ", " W.", " .W"], (1, 2))
    assert route(squeeze, (2, 1))["distance"] is None
    # never-seen corners: the only way is a diagonal NetHack may or may not allow
    uncertain = route(draw([" ", "  .", " .W"], (1, 2)), (2, 1))
    assert uncertain["distance"] == 1 and uncertain["uncertain"] is True
    assert uncertain["steps"] == [{"x": 2, "y": 1, "direction": "northeast", "uncertain": True}]
    clear = draw([" ", " ..", " .W"], (1, 2))
    assert directions(route(clear, (2, 1))) == ["northeast"]
    assert "uncertain" not in route(clear, (2, 1))


def test_a_diagonal_the_hero_walked_is_connected():
    # the same unknown corners, but the hero stepped (1,2) -> (2,1) before: known, not uncertain
    view = draw([" ", "  .", " .W"], (1, 2))
    walked = replace(view, walked=frozenset({((1, 2), (2, 1))}))
    result = route(walked, (2, 1))
    assert result["steps"] == [{"x": 2, "y": 1, "direction": "northeast"}] and "uncertain" not in result


def test_a_creature_in_the_only_way_is_named():
    view = draw(
        [" ", " WWWWW", " W...W", " WWWWW"], (2, 2), entities=[{"x": 3, "y": 2, "kind": "creature", "mark": "k"}]
    )
    result = route(view, (4, 2))
    assert result["why"] == "creatureInTheWay" and result["blockedBy"] == {"x": 3, "y": 2}


def test_unknown_target_and_off_map_target():
    view = draw(OPEN_ROOM, (1, 1))
    assert route(view, (20, 10))["why"] == "targetUnknown"
    assert route(view, (0, 1))["why"] == "targetUnknown"
    assert route(view, (1, 30))["why"] == "targetUnknown"


def test_remembered_terrain_is_allowed():
    view = draw(OPEN_ROOM, (1, 1), visible=False)
    assert route(view, (5, 5))["distance"] == 4


def test_visited_squares_of_unknown_terrain_are_usable():
    view = draw([" ", " . ."], (1, 1), visited=[(2, 1)])
    assert directions(route(view, (3, 1))) == ["east", "east"]


def test_real_route_across_the_first_room():
    view = fixture_view("seed42_start")
    result = route(view, (49, 7))
    assert result["distance"] == 10
    assert directions(result) == ["west"] * 9 + ["southwest"]
    # Through the dog's square is allowed: (58, 7) is the dog.
    assert route(view, (58, 8))["distance"] == 2


def test_real_route_to_the_downstairs_leaves_the_doorless_doorway_diagonally():
    # The hero stands in a doorway known (under the '@') to have no door: diagonals are allowed.
    view = fixture_view("seed42_stairs")
    assert view.feature(*view.hero) == "d"
    result = route(view, (31, 12))
    assert result["distance"] == 2
    assert directions(result) == ["southeast", "southeast"]


def test_a_possible_door_under_the_hero_is_left_orthogonally():
    # Unknown terrain in a gap of a perceived wall may be a door: no diagonal out of it.
    unknown = draw([" ", " ...", " W W", " ..."], (2, 2))
    assert directions(route(unknown, (3, 3))) == ["south", "east"]
    doorless = draw([" ", " ...", " WdW", " ..."], (2, 2))
    assert directions(route(doorless, (3, 3))) == ["southeast"]


def test_real_object_covered_floor_is_walkable_and_leads_to_the_doorway():
    # The floor under the '[' at (49,3) is known, so the doorway (48,3) behind it is reachable.
    view = fixture_view("seed42_start")
    assert route(view, (49, 3))["distance"] == 10
    result = route(view, (48, 3))
    assert result["distance"] == 11 and "why" not in result
    assert directions(result) == ["west"] * 8 + ["northwest"] * 3


@pytest.mark.parametrize("fixture", ["seed42_start", "seed42_stairs", "seed1_boulder", "seed26_trap"])
def test_first_steps_agree_with_routes(fixture):
    view = fixture_view(fixture)
    steps = FirstSteps(view)
    for target, distance in steps.distance.items():
        result = route(view, target)
        assert result["distance"] == distance
        if distance:
            assert result["steps"][0]["direction"] == steps.first_step(target)
            assert all(passable(view, s["x"], s["y"]) for s in result["steps"])
