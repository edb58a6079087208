"""travel.py - the `travel` tool: one step, a run, a climb, or a bounded leg.

step/run/climb are single NetHack commands. to/explore/descend are bounded
legs of ordinary single moves planned by the navigation package over the
perceived map (re-planned after every move) and stopped by real decisions,
damage, new creatures, door attempts, interruptions and budget. A leg never
answers a question, opens a door, attacks or climbs on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..geometry import COMPASS_NAMES, VERTICAL
from ..navigation import HeroState, StepOutcome, newly_displayed, run_leg, step_outcome
from ..navigation.level import LevelView
from ..projection import frame as frames
from ..session import SessionError
from . import targets
from .actions import Action, ActionTable
from .base import (
    BINDING_FIELDS,
    POSITION,
    Operation,
    Tool,
    ToolContext,
    mutate,
    table_tool,
)

DEFAULT_MAX_ACTIONS = 40
# Explore's default frontier count. Every corridor square borders rock that
# is never displayed, so each corridor square the hero has not stood on is a
# frontier of its own, one step beyond the last: with a default of 1, an
# explore call in a corridor advanced a single square. With 8, one call
# follows a corridor for about 8 moves (a fifth of the default budget) or
# crosses a room to its exits; where frontiers lie farther apart the
# maxActions budget ends the leg first, and every other stop rule (damage,
# a new creature, a door, a question) still ends it at once.
DEFAULT_MAX_FRONTIERS = 8
MAX_ACTIONS = {
    "type": "integer",
    "minimum": 1,
    "maximum": 200,
    "description": f"moves (default {DEFAULT_MAX_ACTIONS})",
}
MAX_FRONTIERS = {
    "type": "integer",
    "minimum": 1,
    "maximum": 20,
    "description": f"default {DEFAULT_MAX_FRONTIERS}",
}
GOALS = {"arrived", "atWayDown", "frontierReached", "frontierRevealed"}

TABLE = ActionTable(
    "mode",
    (
        Action("step", "attacks a shown hostile", required=("target",)),
        Action("run", "", required=("direction",), optional=("runMode", "noPickup")),
        Action("climb", "up|down", required=("direction",)),
        Action("to", "", required=("to",), optional=("maxActions",)),
        Action("explore", "", optional=("maxActions", "maxFrontiers")),
        Action("descend", "", optional=("maxActions",)),
    ),
    {
        **BINDING_FIELDS,
        "target": targets.SCHEMA,
        "direction": {"type": "string", "enum": [*COMPASS_NAMES, *VERTICAL]},
        "runMode": {"type": "string", "enum": ["normal", "untilInteresting", "pastBranches"]},
        "noPickup": {"type": "boolean"},
        "to": POSITION,
        "maxActions": MAX_ACTIONS,
        "maxFrontiers": MAX_FRONTIERS,
    },
)


def _check_direction(mode: str, direction: str) -> None:
    """run takes a compass word, climb up or down: one enum, checked per mode."""
    allowed = VERTICAL if mode == "climb" else COMPASS_NAMES
    if direction not in allowed:
        raise SessionError(
            "invalidArguments",
            f"travel: mode {mode!r} takes direction {' | '.join(allowed)}, not {direction!r}",
            field="direction",
        )


def _creature(entity: Mapping[str, Any]) -> dict[str, Any]:
    """A sighted creature as the scene lists it: mark, what it appears to be, where."""
    return {key: entity[key] for key in ("mark", "kind", "appearance", "attitude", "x", "y") if key in entity}


class _StepRefused(Exception):
    """A leg's single move was not accepted (the leg keeps its progress)."""


async def _leg(operation: Operation, args: dict[str, Any]) -> dict[str, Any]:
    session = operation.session
    mode = args["mode"]

    start = session.level().hero
    sighted: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], dict[str, Any]] = {}  # creatures displayed along the way, last square

    async def step(direction: str) -> StepOutcome:
        before = session.observation
        # What this level's recent sighting already showed: a creature that
        # drops out of view and comes back is not new (outcome.Sightings).
        recent = session.state.tracker.sightings.recent(str(before.get("levelId", "")), int(before.get("turn") or 0))
        result = await operation.step("game.move", {"direction": direction}, tag_square=True)
        if result.submission != "accepted" or result.response is None:
            raise _StepRefused((result.error or {}).get("message", "the move was not accepted"))
        outcome = step_outcome(before, result.response, recent)
        after = (result.response.get("observation") or {}).get("entities") or ()
        for entity in after:
            if entity.get("kind") != "ally":
                seen[(str(entity.get("mark")), str(entity.get("appearance") or entity.get("kind")))] = _creature(entity)
        if outcome.new_creatures:
            sighted[:] = [_creature(entity) for entity in newly_displayed(before.get("entities") or (), after, recent)]
        return outcome

    def view() -> LevelView:
        return session.level()

    target = (args["to"]["x"], args["to"]["y"]) if mode == "to" else None
    leg = await run_leg(
        mode,
        step=step,
        view=view,
        target=target,
        max_actions=args.get("maxActions", DEFAULT_MAX_ACTIONS),
        max_frontiers=args.get("maxFrontiers", DEFAULT_MAX_FRONTIERS),
        start=HeroState.from_observation(session.observation),
    )
    result = {"kind": "leg", **leg.to_dict(), "start": {"x": start[0], "y": start[1]}}
    if leg.stop_reason == "newCreature" and sighted:
        result["sighted"] = sighted
    if seen:
        result["creaturesSeen"] = list(seen.values())
    if leg.stop_reason == "atWayDown" and session.gate == "ready":
        result["next"] = {
            "tool": "travel",
            "arguments": {
                "sessionId": session.session_id,
                "viewId": session.view_id,
                "mode": "climb",
                "direction": "down",
            },
        }
    last = operation.steps[-1] if operation.steps else None
    if last is not None and last.response is not None and last.status in ("decision", "ended"):
        status = last.status
    else:
        status = "completed" if leg.stop_reason in GOALS else "stopped"
    if not operation.steps:
        # Nothing was sent: accepted as a zero-action leg, no events, no turns.
        outcome = {
            "submission": "accepted",
            "status": status,
            "actionsTaken": 0,
            "turnsElapsed": 0,
            "positionChanged": False,
            "sceneChanged": False,
            "operationId": operation.id,
        }
        return frames.build(session, outcome=outcome, result=result)
    error = {"code": "stepFailed", "message": str(leg.error)} if leg.error is not None else None
    return operation.frame(status=status, result=result, error=error)


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    mode = args["mode"]
    if "direction" in args:
        _check_direction(mode, args["direction"])

    async def perform(operation: Operation) -> dict[str, Any]:
        if mode == "step":
            where = targets.resolve(operation.session.level(), args["target"])
            await operation.step("game.move", {"direction": targets.adjacent(where)})
        elif mode == "run":
            params = {"direction": args["direction"], "mode": args.get("runMode", "normal")}
            if "noPickup" in args:
                params["noPickup"] = args["noPickup"]
            await operation.step("game.run", params)
        elif mode == "climb":
            await operation.step("game.climb", {"direction": args["direction"]})
        elif mode in ("to", "explore", "descend"):
            return await _leg(operation, args)
        else:  # unreachable through the schema
            raise SessionError("invalidArguments", f"unknown mode {mode!r}")
        return operation.frame()

    return await mutate(ctx, "travel", args, perform)


TOOL: Tool = table_tool(
    "travel",
    "One move, or a leg of moves (to, explore, descend).",
    TABLE,
    False,
    handle,
    "Legs never fight, open or answer; result.stopReason says why they stop.",
)
