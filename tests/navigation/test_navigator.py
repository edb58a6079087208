"""run_leg: every stop reason, re-planning after each step, and real legs on the native driver."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from nethack_webmcp.navigation import (
    DELTAS,
    STOP_REASONS,
    HeroState,
    LevelView,
    StepOutcome,
    navigation,
    passable,
    run_leg,
    step_outcome,
)
from nethack_webmcp.navigation.navigator import Mode
from recorded import fixture_view, load_fixture
from stepper import DriverStepper
from synthetic import creature, draw

AGENT_PLAY = Path(__file__).resolve().parents[2] / "docs" / "AGENT_PLAY.md"

ROOM = [" ", " WWWWWWW", " W.....W", " W.....W", " W.....W", " WWWWWWW"]


class FakeGame:
    """A hand-drawn level where ordinary moves obey the route policy's squares.

    tweaks maps a 1-based step number to a function that edits the
    StepOutcome (damage, a question, ...) or the world (a creature appears).
    """

    def __init__(self, drawing: list[str], hero: tuple[int, int], **draw_args: Any) -> None:
        self.drawing = list(drawing)
        self.hero = hero
        self.draw_args = draw_args
        self.visited: set[tuple[int, int]] = {hero}
        self.sent: list[str] = []
        self.tweaks: dict[int, Callable[[FakeGame, StepOutcome], StepOutcome]] = {}
        self.level_id = "d0-l1"
        self.hp = 12

    def view(self) -> LevelView:
        return draw(self.drawing, self.hero, visited=self.visited, level_id=self.level_id, **self.draw_args)

    def start(self) -> HeroState:
        return HeroState(self.level_id, 12, (), "not_hungry")

    async def step(self, direction: str) -> StepOutcome:
        self.sent.append(direction)
        dx, dy = DELTAS[direction]
        target = (self.hero[0] + dx, self.hero[1] + dy)
        moved = passable(self.view(), *target)
        if moved:
            self.hero = target
            self.visited.add(target)
        outcome = StepOutcome(
            position_changed=moved,
            level_id=self.level_id,
            hp=self.hp,
            conditions=(),
            hunger="not_hungry",
            events=[{"type": "heard", "text": direction}],
        )
        tweak = self.tweaks.get(len(self.sent))
        return tweak(self, outcome) if tweak else outcome


def leg(game: FakeGame, mode: Mode = "to", **kwargs: Any):
    kwargs.setdefault("start", game.start())
    return asyncio.run(run_leg(mode, step=game.step, view=game.view, **kwargs))


def replace(**changes: Any) -> Callable[[FakeGame, StepOutcome], StepOutcome]:
    return lambda game, outcome: dataclasses.replace(outcome, **changes)


def documented_stop_reasons() -> list[str]:
    """The first column of docs/AGENT_PLAY.md's stopReason table, in order."""
    lines = AGENT_PLAY.read_text(encoding="utf-8").splitlines()
    start = lines.index("| stopReason | the leg stopped because |") + 2  # past the header and its rule
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start:])
    return [row.split("|")[1].strip().strip("`") for row in rows]


def test_stop_reasons_are_documented():
    """Every stop reason the navigator can report has a row in the agent's guide, and no row names one it cannot."""
    documented = documented_stop_reasons()
    assert len(documented) == len(set(documented)), "a stop reason is documented twice"
    assert sorted(set(STOP_REASONS) - set(documented)) == [], "undocumented stop reasons (docs/AGENT_PLAY.md, Legs)"
    assert sorted(set(documented) - set(STOP_REASONS)) == [], "documented stop reasons the navigator never reports"


def test_arrived_with_confirmed_steps():
    game = FakeGame(ROOM, (2, 2))
    result = leg(game, target=(6, 4))
    assert result.stop_reason == "arrived" and result.actions_taken == 4
    assert [s["direction"] for s in result.steps] == ["east", "east", "southeast", "southeast"]
    assert result.final_position == (6, 4) and result.target == (6, 4)
    assert [e["text"] for e in result.events] == game.sent
    assert result.to_dict()["stopReason"] == "arrived"


def test_zero_action_legs():
    game = FakeGame(ROOM, (2, 2))
    here = leg(game, target=(2, 2))
    assert (here.stop_reason, here.actions_taken, here.steps, here.events) == ("arrived", 0, (), ())
    assert leg(game, target=(6, 4), max_actions=0).stop_reason == "budgetExhausted"
    assert game.sent == []


def test_budget_exhausted_keeps_progress():
    game = FakeGame(ROOM, (2, 2))
    result = leg(game, target=(6, 4), max_actions=3)
    assert result.stop_reason == "budgetExhausted" and result.actions_taken == 3 and len(result.steps) == 3


def test_no_route_reports_why():
    game = FakeGame(ROOM, (2, 2))
    assert (leg(game, target=(1, 1)).stop_reason, leg(game, target=(1, 1)).why) == ("noRoute", "disconnected")
    assert leg(game, target=(30, 10)).why == "targetUnknown"


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"ended": True}, "ended"),
        ({"decision": True}, "decision"),
        ({"level_id": "d0-l2"}, "levelChanged"),
        ({"hp": 9}, "hpDropped"),
        ({"conditions": ("stunned",)}, "conditionsChanged"),
        ({"hunger": "hungry"}, "hungerChanged"),
        ({"new_creatures": True}, "newCreature"),
        ({"door_attempt": True}, "doorAttempt"),
        ({"interrupted": True}, "interrupted"),
        ({"position_changed": False}, "blocked"),
    ],
)
def test_each_step_rule_stops_the_leg(changes, reason):
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[2] = replace(**changes)
    result = leg(game, target=(6, 2))
    assert result.stop_reason == reason and result.actions_taken == 2
    assert result.last_outcome is not None


def test_moving_somewhere_else_than_planned_stops():
    game = FakeGame(ROOM, (2, 2))

    def teleported(game: FakeGame, outcome: StepOutcome) -> StepOutcome:
        game.hero = (5, 4)
        game.visited.add(game.hero)
        return outcome

    game.tweaks[1] = teleported
    result = leg(game, target=(6, 2))
    assert result.stop_reason == "unexpectedPosition" and result.actions_taken == 1
    assert result.steps == ({"x": 5, "y": 4, "direction": "east"},)


def test_rules_are_checked_in_the_documented_order():
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = replace(door_attempt=True, position_changed=False, new_creatures=True)
    assert leg(game, target=(6, 2)).stop_reason == "newCreature"
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = replace(door_attempt=True, position_changed=False)
    assert leg(game, target=(6, 2)).stop_reason == "doorAttempt"
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = replace(decision=True, hp=1, ended=False)
    assert leg(game, target=(6, 2)).stop_reason == "decision"


def test_hp_gain_does_not_stop_and_start_state_catches_the_first_step():
    def heal(game: FakeGame, outcome: StepOutcome) -> StepOutcome:
        game.hp = 14
        return dataclasses.replace(outcome, hp=14)

    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = heal
    assert leg(game, target=(6, 2)).stop_reason == "arrived"
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = replace(hp=5)
    assert leg(game, target=(6, 2)).stop_reason == "hpDropped"
    # Without a start state the first step has nothing to compare with.
    game = FakeGame(ROOM, (2, 2))
    game.tweaks[1] = replace(hp=5)
    assert leg(game, target=(6, 2), start=None).stop_reason == "arrived"


def test_step_failure_keeps_confirmed_progress():
    game = FakeGame(ROOM, (2, 2))
    original = game.step

    async def failing(direction: str) -> StepOutcome:
        if len(game.sent) == 2:
            raise ConnectionError("engine went away")
        return await original(direction)

    result = asyncio.run(run_leg("to", step=failing, view=game.view, target=(6, 2), start=game.start()))
    assert result.stop_reason == "stepFailed" and isinstance(result.error, ConnectionError)
    assert result.actions_taken == 2 and len(result.steps) == 2 and result.final_position == (4, 2)
    assert result.to_dict()["error"] == "engine went away"


def test_route_is_replanned_from_the_fresh_view_after_every_step():
    corridor = [" ", " WWWWWWW", " W.....W", " W.....W", " WWWWWWW"]
    game = FakeGame(corridor, (2, 2))

    def ally_moves_in(game: FakeGame, outcome: StepOutcome) -> StepOutcome:
        # A peaceful creature steps into the straight path after the first move.
        game.draw_args["entities"] = [creature(4, 2, attitude="peaceful")]
        return outcome

    game.tweaks[1] = ally_moves_in
    result = leg(game, target=(6, 2))
    assert result.stop_reason == "arrived"
    assert game.sent == ["east", "southeast", "east", "northeast"]


def test_descend_modes():
    game = FakeGame([" ", " .....>"], (1, 1))
    result = leg(game, "descend")
    assert result.stop_reason == "atWayDown" and result.final_position == (6, 1) and result.actions_taken == 5
    assert leg(FakeGame(ROOM, (2, 2)), "descend").stop_reason == "noWayDown"
    walled = leg(FakeGame([" ", " ..W>"], (1, 1)), "descend")
    assert (walled.stop_reason, walled.why, walled.target) == ("noRoute", "disconnected", (4, 1))


def test_explore_follows_a_corridor_run_as_one_frontier():
    corridor = [" ", " ......"]
    one = leg(FakeGame(corridor, (1, 1)), "explore")
    # Every square of the run borders undiscovered rock; only its end finishes the frontier.
    assert one.stop_reason == "frontierReached" and one.frontiers_handled == 1
    assert one.actions_taken == 5 and one.final_position == (6, 1)
    capped = leg(FakeGame(corridor, (1, 1)), "explore", max_frontiers=10, max_actions=2)
    assert capped.stop_reason == "budgetExhausted" and capped.actions_taken == 2
    rest = leg(FakeGame(corridor, (1, 1)), "explore", max_frontiers=10)
    assert rest.stop_reason == "noFrontier" and rest.frontiers_handled == 1


def test_explore_reaches_successive_frontiers_within_one_budget():
    # Two dead-end stubs off a walled hall: two frontiers, apart.
    hall = [" ", " W W W", " .....", " WWWWW"]
    game = FakeGame(hall, (1, 2))
    two = leg(game, "explore", max_frontiers=2)
    assert two.stop_reason in ("frontierReached", "frontierRevealed") and two.frontiers_handled == 2


def test_explore_finishes_the_room_before_the_nearer_corridor():
    drawing = [" ", "  WWWWWWWW", " #d.......", "  WWWWWWWW"]
    result = leg(FakeGame(drawing, (3, 2)), "explore")
    # The corridor square (1,2) is 2 moves away, the room's open east edge (9,2) 6: the room comes first.
    assert result.target == (9, 2) and result.steps[0]["direction"] == "east"


def test_explore_names_dead_ends_when_nothing_is_left():
    result = leg(FakeGame([" ", " .##"], (1, 1)), "explore", max_frontiers=10)
    assert result.stop_reason == "noFrontier"
    assert {"x": 3, "y": 1, "distance": 0} in result.to_dict()["deadEnds"]


def test_explore_counts_a_frontier_revealed_before_arrival():
    game = FakeGame([" ", " WWWW", " ...d", " WWWW"], (1, 2))

    def reveal(game: FakeGame, outcome: StepOutcome) -> StepOutcome:
        game.drawing = [" ", " WWWWW", " ...dW", " WWWWW"]
        return outcome

    game.tweaks[1] = reveal
    result = leg(game, "explore")
    assert result.stop_reason == "frontierRevealed" and result.actions_taken == 1
    assert result.target == (4, 2) and result.frontiers_handled == 1


def test_explore_drops_a_frontier_that_a_creature_now_occupies():
    game = FakeGame([" ", " WWWWWW", " .....d", " WWWWWW"], (1, 2))

    def block(game: FakeGame, outcome: StepOutcome) -> StepOutcome:
        game.draw_args["entities"] = [creature(6, 2)]
        return outcome

    game.tweaks[1] = block
    result = leg(game, "explore")
    # The doorway is still unexplored but no longer passable: not counted, and nothing else is left.
    assert result.stop_reason == "noFrontier" and result.frontiers_handled == 0 and result.actions_taken == 1


def test_explore_without_frontier_points_at_closed_doors():
    result = leg(FakeGame([" ", " WWWW", " ..vW", " WWWW"], (1, 2)), "explore")
    assert (result.stop_reason, result.why, result.actions_taken) == ("noFrontier", "closedDoor", 0)
    named = result.to_dict()["closedDoors"]
    assert [(door["x"], door["y"], door["approach"], door["direction"]) for door in named] == [
        (3, 2, {"x": 2, "y": 2}, "east")
    ]


def test_invalid_arguments():
    game = FakeGame(ROOM, (2, 2))
    with pytest.raises(ValueError):
        leg(game, "fly")
    with pytest.raises(ValueError):
        leg(game, "to")
    with pytest.raises(ValueError):
        leg(game, "explore", max_frontiers=0)


# ---- replaying recorded real responses ---------------------------------------------------------


def test_replayed_real_door_bump_stops_with_door_attempt():
    """A scripted step that answers with the recorded responses of seed 42's walk to the west door."""
    from nethack_webmcp.navigation import WorldTracker

    pairs = load_fixture("seed42_door")
    tracker = WorldTracker()
    tracker.apply(pairs[0]["response"]["observation"])
    replay = iter(pairs[1:])
    state = {"observation": pairs[0]["response"]["observation"]}

    async def step(direction: str) -> StepOutcome:
        pair = next(replay)
        assert direction == pair["request"]["params"]["direction"]
        before, state["observation"] = state["observation"], pair["response"]["observation"]
        tracker.apply(state["observation"])
        return step_outcome(before, pair["response"])

    start = HeroState.from_observation(state["observation"])
    walk = asyncio.run(run_leg("to", step=step, view=tracker.view, target=(49, 7), start=start))
    assert walk.stop_reason == "arrived" and walk.actions_taken == 10

    # The caller's next ordinary move west bumps the door; as a leg step it stops the leg.
    async def bump(direction: str) -> StepOutcome:
        return await step("west")

    door_view = tracker.view
    result = asyncio.run(
        run_leg("to", step=bump, view=door_view, target=(50, 7), start=HeroState.from_observation(state["observation"]))
    )
    assert result.stop_reason == "doorAttempt" and result.actions_taken == 1 and result.steps == ()


# ---- live legs on the native driver -----------------------------------------------------------


def test_live_travel_matches_the_recorded_game(driver):
    stepper = DriverStepper(driver(42))
    result = asyncio.run(
        run_leg("to", step=stepper.step, view=stepper.view, target=(49, 7), start=stepper.hero_state())
    )
    assert result.stop_reason == "arrived" and result.actions_taken == 10
    assert [s["direction"] for s in result.steps] == ["west"] * 9 + ["southwest"]
    # The same moves as the recorded game: the engine saw the same world.
    recorded = load_fixture("seed42_door")[10]["response"]["observation"]
    assert stepper.observation["position"] == recorded["position"]
    assert stepper.view().features == fixture_view("seed42_door", upto=11).features


def test_live_descend_stops_on_the_stairs_without_climbing(driver):
    stepper = DriverStepper(driver(42))
    for direction in ["west"] * 9 + ["southwest", "west", "west", "west"]:
        stepper.send("game.move", direction=direction)
    stepper.send("game.run", direction="west", mode="normal")
    result = asyncio.run(run_leg("descend", step=stepper.step, view=stepper.view, start=stepper.hero_state()))
    assert result.stop_reason == "atWayDown" and result.final_position == (31, 12)
    # The run ended in a doorway known (under the '@') to be doorless: straight out diagonally.
    assert [s["direction"] for s in result.steps] == ["southeast", "southeast"]
    assert all(request["method"] == "game.move" for request, _ in stepper.log[-2:])
    assert stepper.observation["levelId"] == "d0-l1"
    assert stepper.view().feature(31, 12) == ">"  # the stairs under the hero


def test_live_door_bump_stops_with_door_attempt(driver):
    """The live counterpart of the replayed bump: seed 42's west door opens on the first push."""
    stepper = DriverStepper(driver(42))
    walk = asyncio.run(run_leg("to", step=stepper.step, view=stepper.view, target=(49, 7), start=stepper.hero_state()))
    assert walk.stop_reason == "arrived"
    # A leg never plans through the closed door itself ...
    refused = asyncio.run(
        run_leg("to", step=stepper.step, view=stepper.view, target=(48, 7), start=stepper.hero_state())
    )
    assert (refused.stop_reason, refused.why, refused.actions_taken) == ("noRoute", "closedDoor", 0)

    # ... but a caller whose step pushes into it (here: always west) is stopped at once.
    async def push_west(direction: str):
        return await stepper.step("west")

    result = asyncio.run(run_leg("to", step=push_west, view=stepper.view, target=(50, 7), start=stepper.hero_state()))
    assert result.stop_reason == "doorAttempt" and result.actions_taken == 1 and result.steps == ()
    assert {"type": "heard", "text": "The door opens."} in result.events
    assert stepper.view().feature(48, 7) == "V" and stepper.view().hero == (49, 7)


def test_live_exploration_stops_for_a_new_creature_and_for_damage(driver):
    # Seed 3 (a Monk with a kitten): the walk is interrupted by the kitten refusing
    # to swap, a jackal and then a grid bug come into view, and the grid bug bites.
    stepper = DriverStepper(driver(3))
    reasons, sighted = [], []
    for _ in range(12):
        hp = stepper.observation["vitals"]["hp"]
        result = asyncio.run(
            run_leg(
                "explore",
                step=stepper.step,
                view=stepper.view,
                start=stepper.hero_state(),
                max_frontiers=5,
                max_actions=60,
            )
        )
        reasons.append(result.stop_reason)
        if result.stop_reason == "blocked":
            assert any("is in the way" in str(e.get("text")) for e in result.events)
        if result.stop_reason == "newCreature":
            sighted.append([e["appearance"] for e in stepper.observation["entities"] if e["kind"] == "creature"])
        if result.stop_reason == "hpDropped":
            assert stepper.observation["vitals"]["hp"] < hp
            assert {"type": "heard", "text": "The grid bug bites!"} in result.events
            break
    # the grid bug's first attack misses: the driver's attacked event stops the leg (issue 23)
    assert reasons == ["blocked", "newCreature", "newCreature", "blocked", "attacked", "hpDropped"]
    assert sighted == [["jackal"], ["grid bug"]]


RUN_PATH = [(x, 7) for x in range(46, 36, -1)] + [(36, 8)] + [(x, 9) for x in range(35, 28, -1)]


def test_live_run_marks_every_square_passed_as_visited(driver):
    stepper = DriverStepper(driver(42))
    for direction in ["west"] * 9 + ["southwest", "west", "west", "west"]:
        stepper.send("game.move", direction=direction)
    stepper.send("game.run", direction="west", mode="normal")
    view = stepper.view()
    assert view.hero == (29, 10)
    assert [p for p in RUN_PATH if not view.was_visited(*p)] == []
    # So no square the run passed is a frontier; the corridor's side branches still are.
    frontiers = {(f["x"], f["y"]) for f in navigation(view)["frontiers"]}
    assert not frontiers & set(RUN_PATH)
    assert {(42, 6), (42, 8)} <= frontiers


def test_live_teleport_trap_voids_the_plan(driver):
    stepper = DriverStepper(driver(26))
    result = asyncio.run(
        run_leg("to", step=stepper.step, view=stepper.view, target=(74, 15), start=stepper.hero_state())
    )
    # The route's first step lands on an unseen teleportation trap at (75, 14).
    assert result.stop_reason == "unexpectedPosition" and result.actions_taken == 1
    assert result.steps == ({"x": 15, "y": 13, "direction": "southwest"},)
    assert stepper.view().feature(75, 14) == "^"


def test_live_closed_room_has_nothing_to_explore(driver):
    stepper = DriverStepper(driver(7))
    result = asyncio.run(run_leg("explore", step=stepper.step, view=stepper.view, start=stepper.hero_state()))
    assert (result.stop_reason, result.why, result.actions_taken) == ("noFrontier", "closedDoor", 0)
    # The closed doors to try are named with where to stand and which way to push.
    named = result.to_dict()["closedDoors"]
    assert [(door["x"], door["y"], door["approach"], door["direction"]) for door in named] == [
        (46, 14, {"x": 46, "y": 15}, "north"),
        (48, 18, {"x": 47, "y": 18}, "east"),
    ]
    assert stepper.log == []


def test_a_leg_never_steps_on_a_trap_remembered_under_an_object():
    # The driver now remembers a trap found later under a pile (port_map.c): the
    # feature layer says '^' while the mark shows the object on top.
    hall = [" ", " WWWWW", " ..^..", " .....", " WWWWW"]
    game = FakeGame(hall, (1, 2), cells={(3, 2): (")", "O")})
    result = leg(game, target=(5, 2))
    assert result.stop_reason == "arrived" and (3, 2) not in [(s["x"], s["y"]) for s in result.steps]
