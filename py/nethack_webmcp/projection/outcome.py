"""outcome.py - `outcome`: admission and what actually happened.

`submission` says whether the engine took input (accepted), refused it
before any input (rejected), or may have taken it (uncertain: a transport
failure mid-request). `status` is what happened; elapsed time and position
are measured, never proofs of execution.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..session import StepResult


def rejected() -> dict[str, Any]:
    """The outcome of an operation refused before any input."""
    return {
        "submission": "rejected",
        "status": "rejected",
        "actionsTaken": 0,
        "turnsElapsed": 0,
        "positionChanged": False,
        "sceneChanged": False,
    }


def from_steps(steps: Sequence[StepResult], *, operation_id: str, status: str | None = None) -> dict[str, Any]:
    """Aggregate the single inputs of one operation (one step or a leg)."""
    if not steps:
        outcome = rejected()
        if status:
            outcome["status"] = status
        outcome["operationId"] = operation_id
        return outcome
    taken = [s for s in steps if s.submission != "rejected"]
    if any(s.submission == "uncertain" for s in steps):
        submission = "uncertain"
    elif taken:
        submission = "accepted"
    else:
        submission = "rejected"
    first, last = steps[0].before, steps[-1].after
    return {
        "submission": submission,
        "status": status or steps[-1].status,
        "actionsTaken": sum(1 for s in steps if s.submission == "accepted"),
        "turnsElapsed": sum(s.turns_elapsed for s in steps),
        "positionChanged": (first.level_id, first.position) != (last.level_id, last.position),
        "sceneChanged": first.scene != last.scene,
        "operationId": operation_id,
    }
