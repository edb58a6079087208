"""test_way_on.py - ranked search spots, boulder pushes, trap doors and the way on, on hand-drawn levels.

Exact edge cases of navigation/searching.py, boulders.py and wayon.py; the
same promises on the real engine are tests/python/test_way_on_scenarios.py.
"""

from __future__ import annotations

from dataclasses import replace

from nethack_webmcp.navigation import LevelView, WorldTracker, navigation, way_on
from nethack_webmcp.navigation.boulders import pushes
from nethack_webmcp.navigation.searching import FIND_CHANCE, search_spots
from synthetic import creature, draw, observation

# A room on the east, a corridor running west from its doorway and stopping at (20,2).
CORRIDOR = [" ", " " * 30 + "WWWW", " " * 20 + "##########d..W", " " * 30 + "WWWW"]
WALKED = [(x, 2) for x in range(20, 33)]


def test_a_dead_end_outranks_the_corridor_and_searching_there_discounts_it() -> None:
    view = draw(CORRIDOR, (31, 2), visited=WALKED)
    first = search_spots(view)[0]
    assert (first["x"], first["y"], first["spot"], first["searched"]) == (20, 2, "deadEnd", 0)
    assert first["score"] == 2 * first["undiscovered"]
    searched = replace(view, searched={(20, 2): 2})
    again = search_spots(searched)[0]
    assert (again["x"], again["y"], again["searched"]) == (20, 2, 2)
    assert again["score"] == round(2 * again["undiscovered"] * (1 - FIND_CHANCE) ** 2) < first["score"]
    assert "searched 2 turns" in again["reason"]
    # searched long enough, the dead end gives way to the corridor further on
    exhausted = search_spots(replace(view, searched={(20, 2): 10}))
    assert (exhausted[0]["x"], exhausted[0]["y"]) != (20, 2) and exhausted[0]["spot"] == "corridor"
    # a search from a neighbouring square counts for the spot too
    beside = replace(view, searched={(21, 2): 4})
    assert next(s for s in search_spots(beside) if (s["x"], s["y"]) == (20, 2))["searched"] == 4
    # plan navigation lists the same ranked spots
    assert navigation(searched)["searchSpots"] == search_spots(searched)


def test_the_tracker_counts_search_turns_on_the_square_searched_from() -> None:
    tracker = WorldTracker()
    tracker.apply({**observation(CORRIDOR, (20, 2), visited=WALKED), "turn": 100})
    tracker.apply({**observation(CORRIDOR, (20, 2), full=False), "turn": 115}, searching=True)
    tracker.apply({**observation(CORRIDOR, (21, 2), full=False), "turn": 116})  # a move: not a search
    assert tracker.view().searched == {(20, 2): 15}
    assert tracker.memory()["levels"]["d0-l1"]["searched"] == [((20, 2), 15)]
    # an interrupted search that spent no turn still counts as one
    tracker.apply({**observation(CORRIDOR, (21, 2), full=False), "turn": 116}, searching=True)
    assert tracker.view().searched == {(20, 2): 15, (21, 2): 1}


def test_a_door_far_off_is_not_a_toward_spot() -> None:
    # a closed door seen 40 squares east of the corridor: not behind a hidden square here
    far = [" ", " " * 70 + "v", " " * 20 + "#####", " "]
    spots = search_spots(draw(far, (22, 2), visited=[(x, 2) for x in range(20, 25)]))
    assert all(spot["spot"] != "toward" for spot in spots)
    near = [" ", " " * 27 + "v", " " * 20 + "#####", " "]
    spots = search_spots(draw(near, (22, 2), visited=[(x, 2) for x in range(20, 25)]))
    assert spots[0]["spot"] == "toward" and spots[0]["toward"] == {"x": 27, "y": 1}


BOULDER_RUN = [" ", " ", " " * 20 + "######", " "]


def boulder_view(
    drawing: list[str], hero: tuple[int, int], boulder: tuple[int, int], visited: list[tuple[int, int]]
) -> LevelView:
    return draw(drawing, hero, cells={boulder: ("0", "B")}, visited=visited)


def test_a_boulder_blocking_a_corridor_is_pushed_on_from_the_square_before_it() -> None:
    # hero walked (20..22,2); boulder at (23,2); (24,2) seen, (25,2) seen, beyond unknown
    view = boulder_view(BOULDER_RUN, (22, 2), (23, 2), [(20, 2), (21, 2), (22, 2)])
    found = pushes(view)
    assert [(p["x"], p["y"], p["direction"], p["opens"]) for p in found] == [(22, 2, "east", "frontier")]
    assert found[0]["boulder"] == {"x": 23, "y": 2} and found[0]["distance"] == 0 and found[0]["opened"] == 2
    option = next(o for o in way_on(view)["options"] if o["kind"] == "push")
    assert option["next"] == {"tool": "travel", "arguments": {"mode": "step", "target": {"direction": "east"}}}


def test_no_push_when_behind_is_unknown_a_wall_reachable_or_occupied() -> None:
    visited = [(20, 2), (21, 2), (22, 2)]
    unknown = [" ", " ", " " * 20 + "####", " "]  # (24,2) never seen
    assert pushes(boulder_view(unknown, (22, 2), (23, 2), visited)) == []
    wall = [" ", " ", " " * 20 + "####W", " "]
    assert pushes(boulder_view(wall, (22, 2), (23, 2), visited)) == []
    # a loop: (24,2) is reachable round the boulder already, nothing opens
    loop = [" ", " " * 22 + "###", " " * 20 + "######", " "]
    assert pushes(boulder_view(loop, (22, 2), (23, 2), visited)) == []
    blocked = draw(BOULDER_RUN, (22, 2), cells={(23, 2): ("0", "B"), (24, 2): ("0", "B")}, visited=visited)
    assert pushes(blocked) == []


def test_a_known_trap_door_is_a_way_down_with_its_approach() -> None:
    room = [" ", " WWWWWWW", " W.....W", " W.....W", " WWWWWWW"]
    view = draw(room, (2, 2), cells={(5, 3): ("^", "X")})
    view = replace(view, trap_types={(5, 3): "trap door", (3, 3): "bear trap"})
    result = way_on(view)
    assert [(t["x"], t["y"], t["type"]) for t in result["trapDoors"]] == [(5, 3, "trap door")]
    trap = result["trapDoors"][0]
    # (4,2) and (4,3) are both two steps away: the tie goes to the compass order (west before northwest)
    assert trap["approach"] == {"x": 4, "y": 3} and trap["direction"] == "east" and trap["distance"] == 3
    option = result["options"][0]
    assert option["kind"] == "trapDoor"
    assert option["next"] == {"tool": "travel", "arguments": {"mode": "to", "to": {"x": 4, "y": 3}}}
    on_it = way_on(replace(view, hero=(5, 3)))["options"][0]
    assert on_it["next"] == {"tool": "travel", "arguments": {"mode": "climb", "direction": "down"}}


def test_the_way_on_is_ordered_and_never_up_from_dlvl_1() -> None:
    room = [" ", " WWWWWWW", " W<....v", " W.....W", " WWWWWWW"]
    view = draw(room, (3, 2), visited=[(3, 2)])
    kinds = [o["kind"] for o in way_on(view, depth=3, dungeon="The Dungeons of Doom")["options"]]
    assert kinds[0] == "door" and kinds[-1] == "wayUp"
    up = way_on(view, depth=3, dungeon="The Dungeons of Doom")["options"][-1]
    assert "Gnomish Mines" in up["reason"]
    assert "wayUp" not in [o["kind"] for o in way_on(view, depth=1, dungeon="The Dungeons of Doom")["options"]]
    assert way_on(view, depth=3)["stuck"] is True


def test_a_stuck_level_names_the_creature_on_the_way_on() -> None:
    # the corridor goes on west past a jackal: nothing else is reachable
    view = draw(CORRIDOR, (24, 2), visited=[(x, 2) for x in range(22, 33)], entities=[creature(22, 2)])
    result = way_on(view)
    assert result["stuck"] is True and result["blockedBy"] == {"x": 22, "y": 2}
    assert "blockedBy" not in way_on(draw(CORRIDOR, (24, 2), visited=[(x, 2) for x in range(22, 33)]))
