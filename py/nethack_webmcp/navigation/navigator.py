"""navigator.py - one bounded navigation leg: travel to a square, explore, or walk to a way down.

The seed's optional Navigator executes bounded travel/explore/descend legs
out of ordinary single moves. It is written against two callables so it
does not depend on the session: `step(direction)` sends one ordinary move
and reports a StepOutcome (outcome.py); `view()` returns the fresh
LevelView after it. Before every step the leg re-plans from the fresh view
(never an old plan), so a door that closed, a creature that stepped in the
way or newly seen terrain changes the next step at once.

The leg never answers questions, opens doors on purpose, attacks, or
climbs: in "descend" mode it stops on the way down with "atWayDown" and the
caller decides to climb. The caller checks the input gate before calling
(a standing decision means no leg at all).

Stop reasons (LegResult.stop_reason), checked after every step in this order:

    ended              the game ended
    decision           a real question stands
    levelChanged       the hero is on another level (trap door, hole, ...)
    hpDropped          hit points went down
    attacked           something attacked the hero, hit or miss (an adjacent
                       creature, a missile reaching the hero) or loosed a
                       missile in sight: the driver's `attacked` event
    conditionsChanged  the set of status conditions changed (caught in a trap:
                       "trapped"; held)
    hungerChanged      the hunger state changed
    newCreature        a creature not displayed before appeared
    doorAttempt        the move bumped into or opened a door
    interrupted        the engine reported the move interrupted
    blocked            the move did not change the hero's position (why "trapped"
                       when the hero is caught, "creatureInTheWay" when a creature
                       stood on the square; a squeeze past never-seen corners that
                       NetHack refused: "squeezeTooHeavy" (carrying more than 600
                       weight), "squeezeTooBig" (a large body), "squeezeForbidden"
                       (Sokoban), "uncertainDiagonal" when no reason was told)
    unexpectedPosition the hero moved, but not to the square the step aimed at
                       (teleport trap, slipping, being displaced): the plan is void
    stepFailed         step() raised; confirmed progress is kept, error is set

and before every step (goal, plan and budget):

    arrived            mode "to": the hero stands on the target
    atWayDown          mode "descend": the hero stands on a remembered > or ladder down
    frontierReached    mode "explore": max_frontiers frontiers handled, the last one stood on
                       (a frontier of the hero's own room or corridor run is chosen first,
                       then the nearest, ties row-major, and kept as the target until it is
                       reached, revealed or stops being passable; a corridor run counts as
                       one frontier: reaching a square the run continues past is not counted)
    frontierRevealed   mode "explore": ... the last one stopped being a frontier before arrival
    noRoute            no known walking route to the target / nearest way down (why says why)
    noWayDown          mode "descend": no way down is remembered on this level
    noFrontier         mode "explore": no reachable frontier is left (why
                       "creatureInTheWay" when a displayed creature stands on the only
                       way to one - blockedBy names its square -, else "closedDoor"
                       when a remembered closed door can still be approached); the
                       result names closedDoors (approach, direction, lock), deadEnds
                       and searchSpots

A stop after a step carries the step's last message (`message`), so a stop
NetHack explains ("You are caught in a bear trap.") is explained in the result.
Routes and frontiers are planned over the strict graph first, then the relaxed
one (policy.py): a leg may take a diagonal past never-seen corners when nothing
else is known; the result says so (`uncertain`).
    budgetExhausted    max_actions moves were sent
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..geometry import DELTAS, Position
from .frontiers import (
    FirstSteps,
    borders_undiscovered,
    continues_run,
    creature_in_the_way,
    dead_ends,
    doors,
    explore_order,
    is_frontier,
    ways,
)
from .level import LevelView
from .outcome import HeroState, StepOutcome
from .policy import blocks_walking, uncertain_step
from .route import blocking_creature, known_steps, why_unreachable
from .searching import search_spots
from .terrain import WAYS_DOWN

Mode = Literal["to", "explore", "descend"]
StopReason = Literal[
    "ended",
    "decision",
    "levelChanged",
    "hpDropped",
    "attacked",
    "conditionsChanged",
    "hungerChanged",
    "newCreature",
    "doorAttempt",
    "interrupted",
    "blocked",
    "unexpectedPosition",
    "stepFailed",
    "arrived",
    "atWayDown",
    "frontierReached",
    "frontierRevealed",
    "noRoute",
    "noWayDown",
    "noFrontier",
    "budgetExhausted",
]
STOP_REASONS: tuple[str, ...] = get_args(StopReason)
MODES: tuple[str, ...] = get_args(Mode)


@dataclass(frozen=True)
class LegResult:
    """What a leg did: how many moves it sent, why it stopped, and the confirmed steps."""

    mode: str
    stop_reason: str
    actions_taken: int
    steps: tuple[dict[str, Any], ...]
    final_position: Position
    level_id: str
    target: Position | None = None
    why: str | None = None
    frontiers_handled: int = 0
    events: tuple[Any, ...] = ()
    last_outcome: StepOutcome | None = None
    error: BaseException | None = field(default=None, compare=False)
    advice: dict[str, Any] | None = None  # noFrontier: closedDoors, deadEnds, searchSpots, blockedBy
    message: str | None = None  # the last message of the step the leg stopped after
    uncertain: bool = False  # a step was planned past never-seen corners

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (camelCase) for result payloads."""
        summary: dict[str, Any] = {
            "mode": self.mode,
            "stopReason": self.stop_reason,
            "actionsTaken": self.actions_taken,
            "steps": [dict(step) for step in self.steps],
            "finalPosition": {"x": self.final_position[0], "y": self.final_position[1]},
            "levelId": self.level_id,
        }
        if self.target is not None:
            summary["target"] = {"x": self.target[0], "y": self.target[1]}
        if self.why is not None:
            summary["why"] = self.why
        if self.mode == "explore":
            summary["frontiersHandled"] = self.frontiers_handled
        if self.advice is not None:
            summary.update(self.advice)
        if self.message is not None:
            summary["message"] = self.message
        if self.uncertain:
            summary["uncertain"] = True
        if self.error is not None:
            summary["error"] = str(self.error)
        return summary


@dataclass
class _Leg:
    """Mutable bookkeeping of one run_leg call."""

    mode: str
    level_id: str
    max_frontiers: int
    target: Position | None = None
    actions: int = 0
    steps: list[dict[str, Any]] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    frontiers_handled: int = 0
    last_frontier_reason: str = "frontierReached"
    last_frontier: Position | None = None
    last: StepOutcome | None = None
    advice: dict[str, Any] | None = None
    uncertain: bool = False
    blocked_by: Position | None = None


@dataclass(frozen=True)
class _Stop:
    reason: str
    why: str | None = None


def _first(leg: _Leg, steps: list[dict[str, Any]]) -> str:
    """The first step's direction; a planned uncertain diagonal marks the leg."""
    if any(step.get("uncertain") for step in steps):
        leg.uncertain = True
    return str(steps[0]["direction"])


def _no_route(level: LevelView, leg: _Leg, target: Position) -> _Stop:
    why = why_unreachable(level, target)
    if why == "creatureInTheWay":
        leg.blocked_by = blocking_creature(level, target)
        if leg.blocked_by is not None:
            leg.advice = {"blockedBy": {"x": leg.blocked_by[0], "y": leg.blocked_by[1]}}
    return _Stop("noRoute", why)


def _plan_to(level: LevelView, leg: _Leg) -> _Stop | str:
    assert leg.target is not None
    if level.hero == leg.target:
        return _Stop("arrived")
    steps = known_steps(level, leg.target)
    if not steps:
        return _no_route(level, leg, leg.target)
    return _first(leg, steps)


def _plan_descend(level: LevelView, leg: _Leg) -> _Stop | str:
    if level.feature(*level.hero) in WAYS_DOWN:
        leg.target = level.hero
        return _Stop("atWayDown")
    known = ways(level, WAYS_DOWN)
    if not known:
        return _Stop("noWayDown")
    nearest = known[0]
    leg.target = (nearest["x"], nearest["y"])
    steps = known_steps(level, leg.target) if nearest["distance"] is not None else None
    if not steps:
        return _no_route(level, leg, leg.target)
    return _first(leg, steps)


def _handled(level: LevelView, leg: _Leg, reason: str) -> None:
    """The target was reached or revealed. A corridor run (or a room's edge)
    that goes on past it is still the same frontier: only its end counts."""
    assert leg.target is not None
    if not continues_run(level, leg.target):
        leg.frontiers_handled += 1
    leg.last_frontier_reason = reason
    leg.last_frontier, leg.target = leg.target, None


def _nothing_left(level: LevelView, leg: _Leg) -> _Stop:
    """noFrontier, naming what stands in the way, the closed doors to open or
    kick, the dead ends and the spots to search."""
    leg.target = None
    steps = FirstSteps(level)
    closed = [d for d in doors(level, steps) if d["state"] == "closed" and d["distance"] is not None]
    blocker = creature_in_the_way(level)
    leg.advice = {
        "closedDoors": [
            {key: d[key] for key in ("x", "y", "approach", "direction", "lock") if key in d} for d in closed
        ],
        "deadEnds": [{"x": d["x"], "y": d["y"], "distance": d["distance"]} for d in dead_ends(level, steps)],
        "searchSpots": search_spots(level, steps),
    }
    if blocker is not None:
        leg.advice["blockedBy"] = {"x": blocker[0], "y": blocker[1]}
        return _Stop("noFrontier", "creatureInTheWay")
    return _Stop("noFrontier", "closedDoor" if closed else None)


def _plan_explore(level: LevelView, leg: _Leg) -> _Stop | str:
    if leg.target is not None:
        if level.hero == leg.target:
            _handled(level, leg, "frontierReached")
        elif not borders_undiscovered(level, leg.target):
            _handled(level, leg, "frontierRevealed")
        elif not is_frontier(level, leg.target):
            leg.target = None  # still unexplored but no longer passable (a creature, a trap): not handled
    if leg.frontiers_handled >= leg.max_frontiers:
        leg.target = leg.last_frontier  # report the frontier that completed the leg
        return _Stop(leg.last_frontier_reason)
    steps = known_steps(level, leg.target) if leg.target is not None else None
    if not steps:
        # No target yet, or the chosen frontier became unreachable: take the next one now
        # (over the strict graph, else past never-seen diagonal corners).
        order = explore_order(level) or explore_order(level, relaxed=True)
        if not order:
            return _nothing_left(level, leg)
        leg.target = order[0][0]
        steps = known_steps(level, leg.target)
        assert steps, "a reachable frontier has a route"
    return _first(leg, steps)


_PLANNERS: dict[str, Callable[[LevelView, _Leg], _Stop | str]] = {
    "to": _plan_to,
    "descend": _plan_descend,
    "explore": _plan_explore,
}


#: NetHack's refusals of a diagonal squeeze between two rock corners (hack.c
#: test_move, cant_squeeze_thru), as the stop's typed cause: the load is the
#: one an agent can change (drop to 600 weight or less).
SQUEEZE_REFUSALS = {
    "You are carrying too much to get through.": "squeezeTooHeavy",
    "Your body is too large to fit through.": "squeezeTooBig",
    "You cannot pass that way.": "squeezeForbidden",
}

#: Traps that hold the hero on their square (trap.c: u.utrap).
HOLDING_TRAPS = ("bear trap", "pit", "spiked pit", "web")


def _why_blocked(outcome: StepOutcome, level: LevelView, planned_from: LevelView, expected: Position) -> str | None:
    """What held the hero in place, as perceived: caught in a trap, a creature
    on the square, or a squeeze past never-seen corners NetHack refused."""
    if "trapped" in outcome.conditions or planned_from.trap_type(*level.hero) in HOLDING_TRAPS:
        return "trapped"
    if blocks_walking(level.occupant_at(*expected)) or blocks_walking(planned_from.occupant_at(*expected)):
        return "creatureInTheWay"
    if uncertain_step(planned_from, planned_from.hero, expected):
        told = _last_message(outcome)
        return next((why for text, why in SQUEEZE_REFUSALS.items() if told == text), "uncertainDiagonal")
    return None


def _last_message(outcome: StepOutcome) -> str | None:
    for event in reversed(outcome.events):
        if isinstance(event, dict) and event.get("type") == "heard" and event.get("text"):
            return str(event["text"])
    return None


def _stop_after(
    outcome: StepOutcome, before: HeroState | None, level: LevelView, leg_level: str, expected: Position
) -> str | None:
    """The first stop rule the step's outcome triggers, in the documented order."""
    if outcome.ended:
        return "ended"
    if outcome.decision:
        return "decision"
    if outcome.level_id != leg_level or level.level_id != leg_level:
        return "levelChanged"
    if before is not None and before.hp is not None and outcome.hp is not None and outcome.hp < before.hp:
        return "hpDropped"
    if outcome.attacked:
        return "attacked"
    if before is not None:
        if sorted(before.conditions) != sorted(outcome.conditions):
            return "conditionsChanged"
        if before.hunger != outcome.hunger:
            return "hungerChanged"
    if outcome.new_creatures:
        return "newCreature"
    if outcome.door_attempt:
        return "doorAttempt"
    if outcome.interrupted:
        return "interrupted"
    if not outcome.position_changed:
        return "blocked"
    if level.hero != expected:
        return "unexpectedPosition"
    return None


async def run_leg(
    mode: Mode,
    *,
    step: Callable[[str], Awaitable[StepOutcome]],
    view: Callable[[], LevelView],
    target: Position | None = None,
    max_actions: int = 40,
    max_frontiers: int = 1,
    start: HeroState | None = None,
) -> LegResult:
    """Run one bounded leg and report why it stopped.

    mode "to" walks to target; "explore" walks to the nearest frontier and,
    when max_frontiers > 1, on to successive frontiers; "descend" walks to
    the nearest remembered way down and stops on it. At most max_actions
    moves are sent in total. start is the hero's state before the leg; pass
    it so the first step's damage, condition or hunger change is caught
    (without it those comparisons begin after the first step).
    Raises ValueError for an unknown mode, a "to" leg without target, or
    negative budgets.
    """
    if mode not in _PLANNERS:
        raise ValueError(f"unknown navigation mode {mode!r}; expected one of {MODES}")
    if mode == "to" and target is None:
        raise ValueError('mode "to" needs a target')
    if max_actions < 0 or max_frontiers < 1:
        raise ValueError("max_actions must be >= 0 and max_frontiers >= 1")
    level = view()
    leg = _Leg(
        mode=mode,
        level_id=level.level_id,
        max_frontiers=max_frontiers,
        target=(int(target[0]), int(target[1])) if mode == "to" and target is not None else None,
    )
    before = start
    plan = _PLANNERS[mode]

    def finish(
        reason: str, why: str | None = None, error: BaseException | None = None, message: str | None = None
    ) -> LegResult:
        return LegResult(
            mode=mode,
            stop_reason=reason,
            actions_taken=leg.actions,
            steps=tuple(leg.steps),
            final_position=level.hero,
            level_id=level.level_id,
            target=leg.target,
            why=why,
            frontiers_handled=leg.frontiers_handled,
            events=tuple(leg.events),
            last_outcome=leg.last,
            error=error,
            advice=leg.advice,
            message=message,
            uncertain=leg.uncertain,
        )

    while True:
        planned = plan(level, leg)
        if isinstance(planned, _Stop):
            return finish(planned.reason, planned.why)
        if leg.actions >= max_actions:
            return finish("budgetExhausted")
        dx, dy = DELTAS[planned]
        expected = (level.hero[0] + dx, level.hero[1] + dy)
        planned_from = level
        try:
            outcome = await step(planned)
        except Exception as error:
            with contextlib.suppress(Exception):  # else keep the last view; the caller verifies the step
                level = view()
            return finish("stepFailed", error=error)
        leg.actions += 1
        leg.last = outcome
        leg.events.extend(outcome.events)
        level = view()
        if outcome.position_changed:
            leg.steps.append({"x": level.hero[0], "y": level.hero[1], "direction": planned})
        reason = _stop_after(outcome, before, level, leg.level_id, expected)
        if reason is not None:
            why = _why_blocked(outcome, level, planned_from, expected) if reason == "blocked" else None
            return finish(reason, why, message=_last_message(outcome))
        before = outcome.hero_state()
