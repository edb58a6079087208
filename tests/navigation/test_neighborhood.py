"""The 81-cell neighborhood: shape, terrain facts, occupants, objects and movement offers."""

from __future__ import annotations

from nethack_webmcp.navigation import neighborhood
from recorded import fixture_view
from synthetic import creature, draw


def cell(result, dx, dy):
    return result["cells"][(dy + 4) * 9 + (dx + 4)]


def test_shape_is_81_row_major_cells_with_basis():
    view = fixture_view("seed42_start")
    result = neighborhood(view)
    assert result["radius"] == 4 and result["status"] == "available"
    assert result["basis"] == {"levelId": "d0-l1", "origin": {"x": 59, "y": 6}}
    cells = result["cells"]
    assert len(cells) == 81
    assert [(c["dx"], c["dy"]) for c in cells] == [(dx, dy) for dy in range(-4, 5) for dx in range(-4, 5)]
    assert all(c["x"] == 59 + c["dx"] and c["y"] == 6 + c["dy"] for c in cells)
    movers = [c for c in cells if "movement" in c]
    assert len(movers) == 8 and all(max(abs(c["dx"]), abs(c["dy"])) == 1 for c in movers)


def test_out_of_map_cells_assert_nothing():
    view = draw([" ..", " .."], (1, 0))
    result = neighborhood(view)
    outside = [c for c in result["cells"] if not c["inBounds"]]
    # x < 1 or y < 0: 4 columns x 9 rows + 4 rows x 5 columns.
    assert len(outside) == 4 * 9 + 4 * 5
    for c in outside:
        assert c["walkable"] is False
        assert set(c) == {"x", "y", "dx", "dy", "inBounds", "walkable"}


def test_real_start_room_cells():
    result = neighborhood(fixture_view("seed42_start"))
    dog = cell(result, -1, 1)
    assert dog["occupant"] == {"kind": "ally", "mark": "d", "appearance": "little dog", "attitude": "tame"}
    assert dog["movement"] == {"direction": "southwest", "intent": "displaceAlly"}
    # An occupant covers the terrain mark, but the floor beneath it is known (#terrain view).
    assert dog["terrain"] == {"type": "floor", "freshness": "current"} and dog["walkable"] is True
    floor = cell(result, -1, 0)
    assert floor["terrain"] == {"type": "floor", "mark": ".", "freshness": "current"}
    assert floor["walkable"] is True and floor["movement"] == {"direction": "west", "intent": "step"}
    wall = cell(result, 1, 0)
    assert wall["terrain"]["type"] == "wall" and wall["walkable"] is False
    here = cell(result, 0, 0)
    assert here["terrain"] == {"type": "stairsUp", "freshness": "current"}  # known under the '@'
    assert here["walkable"] is True and "movement" not in here and "occupant" not in here
    unknown = cell(result, 1, -2)  # (60, 4): the east doorway, not yet displayed
    assert unknown["terrain"] == {"type": "unknown", "freshness": "unknown"} and unknown["walkable"] is None


def test_real_boulder_and_rat():
    result = neighborhood(fixture_view("seed1_boulder"))
    boulder = cell(result, -1, 0)
    assert boulder["objects"] == [{"kind": "boulder", "mark": "`"}]
    assert boulder["movement"] == {"direction": "west", "intent": "possiblePush"}
    rat = cell(result, 1, 0)
    assert rat["occupant"] == {"kind": "creature", "mark": "r", "appearance": "sewer rat", "attitude": "hostile"}
    assert rat["movement"]["intent"] == "attack"


def test_real_doors_carry_orientation():
    view = fixture_view("seed42_door")  # hero (49, 7), west door now open
    result = neighborhood(view)
    door = cell(result, -1, 0)
    assert door["terrain"]["type"] == "openDoor" and door["terrain"]["orientation"] == "vertical"
    assert door["walkable"] is True
    south_door = cell(result, 4, 2)  # (53, 9): closed door in the bottom wall
    assert south_door["terrain"]["type"] == "closedDoor"
    assert south_door["terrain"]["orientation"] == "horizontal"
    assert south_door["walkable"] is None


def test_real_trap_keeps_its_base_and_hazard():
    view = fixture_view("seed26_trap")
    from nethack_webmcp.navigation import neighborhood_cell

    trap = neighborhood_cell(view, 75, 14)
    assert trap["terrain"]["type"] == "floor" and trap["terrain"]["mark"] == "^"
    assert trap["hazards"] == ["trap"] and trap["walkable"] is True


def test_object_mark_without_terrain_mark():
    result = neighborhood(fixture_view("seed42_door", upto=None))
    objects = [c for c in result["cells"] if "objects" in c]
    assert objects and objects[0]["objects"] == [{"mark": "["}]
    for c in objects:
        assert "mark" not in c["terrain"]
    # The type beneath the object is known all the same.
    assert (objects[0]["x"], objects[0]["y"]) == (49, 3)
    assert objects[0]["terrain"] == {"type": "floor", "freshness": "current"} and objects[0]["walkable"] is True


def test_unknown_terrain_under_the_hero_stays_unknown():
    # The driver withholds terrain under the hero while hallucinating, stunned or confused.
    here = cell(neighborhood(draw([" ", " W W", " ..."], (2, 1))), 0, 0)
    assert here["terrain"] == {"type": "unknown", "freshness": "unknown"} and here["walkable"] is True


def test_movement_intents_and_restrictions():
    view = draw(
        [" ", " W...", " WvV.", " W...", " W.WW"],
        (3, 3),
        cells={(4, 3): ("0", "B")},
        entities=[creature(2, 3, attitude="peaceful")],
    )
    result = neighborhood(view)
    assert cell(result, 0, -1)["movement"] == {"direction": "north", "intent": "step"}  # open door (3,2)
    assert cell(result, -1, -1)["movement"] == {
        "direction": "northwest",
        "intent": "step",
        "blocked": {"reason": "intactDoorDiagonal"},
    }
    assert cell(result, 1, -1)["movement"]["intent"] == "step"
    assert cell(result, -1, 0)["movement"]["intent"] == "attack"  # peaceful: still an attack attempt
    assert cell(result, 1, 0)["movement"]["intent"] == "possiblePush"
    # (2,4) from (3,3): sides (2,3) floor-with-creature and (3,4) wall -> not a squeeze.
    assert "requiresSqueeze" not in cell(result, -1, 1)["movement"]


def test_open_door_in_frame_and_closed_door_offers():
    view = draw([" ", " ...", " .v.", " ..."], (2, 1))
    result = neighborhood(view)
    assert cell(result, 0, 1)["movement"] == {"direction": "south", "intent": "openDoor"}
    diagonal = neighborhood(draw([" ", " ...", " .v.", " ..."], (1, 1)))
    assert cell(diagonal, 1, 1)["movement"] == {
        "direction": "southeast",
        "intent": "step",
        "blocked": {"reason": "intactDoorDiagonal"},
    }


def test_squeeze_between_two_perceived_rock_squares():
    view = draw([" ", " W.", " .W", " .T"], (1, 2))
    result = neighborhood(view)
    assert cell(result, 1, -1)["movement"] == {"direction": "northeast", "intent": "step", "requiresSqueeze": True}
    assert "requiresSqueeze" not in cell(result, 1, 1)["movement"]  # (2,3) is a tree itself; sides . and W
