"""travel.py - the `travel` tool: one step, a run, a climb, or a bounded leg.

step/run/climb are single NetHack commands. to/explore/descend are bounded
legs of ordinary single moves planned by the navigation package over the
perceived map (re-planned after every move) and stopped by real decisions,
damage, new creatures, door attempts, interruptions and budget. A leg never
answers a question, opens a door, attacks or climbs on its own.
"""

from __future__ import annotations

from typing import Any

from ..navigation import HeroState, StepOutcome, run_leg, step_outcome
from ..navigation.level import LevelView
from ..projection import frame as frames
from ..session import SessionError
from . import targets
from .base import (
    COMPASS,
    POSITION,
    Operation,
    Tool,
    ToolContext,
    mutate,
    mutation,
    one_of,
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
MAX_ACTIONS = {"type": "integer", "minimum": 1, "maximum": 200,
               "description": f"Budget of single moves for this leg (default {DEFAULT_MAX_ACTIONS})."}
MAX_FRONTIERS = {"type": "integer", "minimum": 1, "maximum": 20,
                 "description": "Explore up to this many frontiers in turn, within maxActions "
                                f"(default {DEFAULT_MAX_FRONTIERS})."}
GOALS = {"arrived", "atWayDown", "frontierReached", "frontierRevealed"}

SCHEMA = one_of(
    mutation({"mode": {"const": "step"},
              "target": {"description": "An adjacent square: {direction} or {position:{x,y}}.",
                         "oneOf": targets.schema(allow_self=False, description="")["oneOf"][:2]}},
             description="One ordinary move (it attacks a displayed hostile, swaps with a pet)."),
    mutation({"mode": {"const": "run"}, "direction": {"type": "string", "enum": COMPASS}},
             {"runMode": {"type": "string", "enum": ["normal", "untilInteresting", "pastBranches"]},
              "noPickup": {"type": "boolean"}},
             description="NetHack's run in one direction (one command; the engine decides where it stops)."),
    mutation({"mode": {"const": "climb"}, "direction": {"type": "string", "enum": ["up", "down"]}},
             description="Climb the stairs or ladder you stand on."),
    mutation({"mode": {"const": "to"}, "to": POSITION}, {"maxActions": MAX_ACTIONS},
             description="Walk a known route to a square, one move at a time (bounded leg)."),
    mutation({"mode": {"const": "explore"}}, {"maxActions": MAX_ACTIONS, "maxFrontiers": MAX_FRONTIERS},
             description="Walk to the nearest unexplored frontier (bounded leg)."),
    mutation({"mode": {"const": "descend"}}, {"maxActions": MAX_ACTIONS},
             description="Walk to the nearest remembered way down and stop on it (bounded leg); "
                         "then climb down yourself."),
)

DESCRIPTION = """Move the hero. Every call needs sessionId and the current viewId (basis.viewId).
Single commands: step {"mode":"step","target":{"direction":"east"}}; run \
{"mode":"run","direction":"west"}; climb {"mode":"climb","direction":"down"}.
Bounded legs of single moves over the perceived map, re-planned after each move: \
to {"mode":"to","to":{"x":40,"y":12}}, explore {"mode":"explore","maxFrontiers":2}, \
descend {"mode":"descend"} (walks to a known '>' and stops there). A leg stops on any question, \
damage, a newly seen creature, a door bump, interruption or its maxActions budget; \
result.stopReason says why. Legs never fight, open doors, answer questions or climb."""


class _StepRefused(Exception):
    """A leg's single move was not accepted (the leg keeps its progress)."""


async def _leg(operation: Operation, args: dict[str, Any]) -> dict[str, Any]:
    session = operation.session
    mode = args["mode"]

    async def step(direction: str) -> StepOutcome:
        before = session.observation
        result = await operation.step("game.move", {"direction": direction})
        if result.submission != "accepted" or result.response is None:
            raise _StepRefused((result.error or {}).get("message", "the move was not accepted"))
        return step_outcome(before, result.response)

    def view() -> LevelView:
        return session.level()

    target = (args["to"]["x"], args["to"]["y"]) if mode == "to" else None
    leg = await run_leg(mode, step=step, view=view, target=target,
                        max_actions=args.get("maxActions", DEFAULT_MAX_ACTIONS),
                        max_frontiers=args.get("maxFrontiers", DEFAULT_MAX_FRONTIERS),
                        start=HeroState.from_observation(session.observation))
    result = {"kind": "leg", **leg.to_dict()}
    if leg.stop_reason == "atWayDown" and session.gate == "ready":
        result["next"] = {"tool": "travel", "arguments": {"sessionId": session.session_id,
                                                          "viewId": session.view_id, "mode": "climb",
                                                          "direction": "down"}}
    last = operation.steps[-1] if operation.steps else None
    if last is not None and last.response is not None and last.status in ("decision", "ended"):
        status = last.status
    else:
        status = "completed" if leg.stop_reason in GOALS else "stopped"
    if not operation.steps:
        # Nothing was sent: accepted as a zero-action leg, no events, no turns.
        outcome = {"submission": "accepted", "status": status, "actionsTaken": 0, "turnsElapsed": 0,
                   "positionChanged": False, "sceneChanged": False, "operationId": operation.id}
        return frames.build(session, outcome=outcome, result=result)
    error = {"code": "stepFailed", "message": str(leg.error)} if leg.error is not None else None
    return operation.frame(status=status, result=result, error=error)


async def handle(ctx: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    mode = args["mode"]

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


TOOL = Tool("travel", "Travel", DESCRIPTION, SCHEMA, False, handle)
