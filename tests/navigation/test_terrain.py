"""Terrain classification: walkability, doors, hazards, diagonal corners."""

from __future__ import annotations

import pytest
from nethack_webmcp.navigation import terrain
from recorded import fixture_view
from synthetic import draw


@pytest.mark.parametrize(
    "code, expected",
    [
        (".", True),
        (":", True),
        ("#", True),
        ("d", True),
        ("V", True),
        ("H", True),
        ("<", True),
        (">", True),
        ("l", True),
        ("L", True),
        ("_", True),
        ("{", True),
        ("i", True),
        ("=", True),
        ("W", False),
        ("T", False),
        ("B", False),
        ("v", None),
        ("h", None),
        ("~", None),
        ("w", None),
        ("x", None),
        ("r", None),
        ("a", None),
        ("k", None),
        (" ", None),
    ],
)
def test_feature_walkability(code, expected):
    assert terrain.feature_walkable(code) is expected


def test_unknown_terrain_is_walkable_only_where_the_hero_stood():
    view = draw([" ", " . "], (1, 1), visited=[(3, 1)])
    assert terrain.walkable(view, 2, 1) is None  # never shown, never stood on
    assert terrain.walkable(view, 3, 1) is True  # stood on
    assert terrain.walkable(view, 1, 1) is True  # the hero's own square
    assert terrain.walkable(view, 0, 1) is False and terrain.walkable(view, 80, 1) is False


def test_a_closed_door_stays_unknown_even_where_the_hero_once_stood():
    view = draw([" ", " .v."], (1, 1), visited=[(2, 1)])
    assert terrain.walkable(view, 2, 1) is None


def test_trap_walkability_comes_from_the_base_beneath_it():
    view = draw([" ", " .^^^"], (1, 1), trap_bases={(2, 1): ".", (3, 1): "~"}, visited=[(4, 1)])
    assert terrain.walkable(view, 2, 1) is True
    assert terrain.walkable(view, 3, 1) is None
    assert terrain.walkable(view, 4, 1) is True  # base unknown but stood on
    assert terrain.terrain_type(view, 2, 1) == "floor"
    assert terrain.terrain_type(view, 2, 1, local=False) == "trap"
    assert terrain.hazards(view, 2, 1) == ["trap"]
    assert terrain.hazards(view, 3, 1) == ["trap", "water"]


def test_door_state_and_orientation():
    assert [terrain.door_state(c) for c in "dVHvh."] == ["doorway", "open", "open", "closed", "closed", None]
    assert [terrain.door_orientation(c) for c in "dVHvh"] == [None, "vertical", "horizontal", "vertical", "horizontal"]


def test_hazards_of_water_and_lava():
    view = draw([" ", " ~wx."], (4, 1))
    assert [terrain.hazards(view, x, 1) for x in range(1, 5)] == [["water"], ["water"], ["lava"], []]


def test_freshness_distinguishes_sight_memory_and_ignorance():
    view = fixture_view("seed42_stairs")
    assert terrain.freshness(view, 29, 11) == "current"
    assert terrain.freshness(view, 50, 6) == "remembered"  # the first room, out of sight now
    assert terrain.freshness(view, 10, 18) == "unknown"


def test_diagonal_corners():
    view = draw([" ", " W.", " .W", " WW "], (1, 2))
    # (1,2) -> (2,1): sides (1,1)=W and (2,2)=W: a squeeze.
    assert terrain.diagonal_corner(view, (1, 2), (2, 1)) == "squeeze"
    # (2,1) -> (3,2): side (2,2)=W, (3,1) unknown: uncertain.
    assert terrain.diagonal_corner(view, (2, 1), (3, 2)) == "uncertain"
    # (1,2) -> (2,3): side (2,2)=W, (1,3)=W: squeeze again.
    assert terrain.diagonal_corner(view, (1, 2), (2, 3)) == "squeeze"
    open_view = draw([" ", " ..", " .."], (1, 1))
    assert terrain.diagonal_corner(open_view, (1, 1), (2, 2)) == "clear"


def test_a_visited_square_clears_a_corner():
    view = draw([" ", "  .", " .W"], (1, 2))
    assert terrain.diagonal_corner(view, (1, 2), (2, 1)) == "uncertain"
    stood = draw([" ", "  .", " .W"], (1, 2), visited=[(1, 1)])
    assert terrain.diagonal_corner(stood, (1, 2), (2, 1)) == "clear"


def test_intact_doors_block_diagonals_but_doorless_doorways_do_not():
    view = draw([" ", " ...", " WVW", " ...", " WdW", " ..."], (1, 1))
    assert terrain.door_blocks_diagonal(view, (1, 1), (2, 2))
    assert terrain.door_blocks_diagonal(view, (2, 2), (3, 3))
    assert not terrain.door_blocks_diagonal(view, (1, 3), (2, 4))


def test_an_unknown_square_set_in_a_wall_may_be_a_door():
    # The hero stands in a gap of a perceived wall: its terrain was never shown.
    view = draw([" ", " ...", " W W", " ..."], (2, 2))
    assert not terrain.door_blocks_diagonal(view, (2, 2), (1, 1))  # known doors only
    assert terrain.door_blocks_diagonal(view, (2, 2), (1, 1), known_only=False)
    assert not terrain.may_be_intact_door(view, 2, 1)


def test_real_doorway_under_the_hero_is_known_doorless():
    # The #terrain view tells the doorway under the '@' apart from a door: no possible-door guess.
    view = fixture_view("seed42_stairs")
    assert view.hero == (29, 10) and view.mark(29, 10) == "@" and view.feature(29, 10) == "d"
    assert not terrain.may_be_intact_door(view, 29, 10)
    assert not terrain.door_blocks_diagonal(view, (29, 10), (30, 11), known_only=False)
    assert terrain.terrain_type(view, 29, 10) == "doorway"


def test_boulders_come_from_the_glyph_class():
    view = fixture_view("seed1_boulder")
    assert terrain.has_boulder(view, 19, 12)
    assert not terrain.has_boulder(view, 21, 12)
