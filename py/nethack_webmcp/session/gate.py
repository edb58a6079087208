"""gate.py - the control gate: who may send what input now.

The gate is derived from session state, in priority order: a lost owner
or required recovery outrank everything (a diagnostic that needs resume
takes priority over any question), an ended game accepts no input, a
standing decision accepts only its answer or cancellation, else ready.
"""

from __future__ import annotations

from typing import Literal

from .errors import SessionError

Gate = Literal["ready", "decision", "recoveryRequired", "lostOwnership", "ended"]


def gate_of(*, lost_ownership: bool, recovery_required: bool, ended: bool,
            decision_standing: bool) -> Gate:
    if lost_ownership:
        return "lostOwnership"
    if recovery_required:
        return "recoveryRequired"
    if ended:
        return "ended"
    if decision_standing:
        return "decision"
    return "ready"


def require_open(gate: Gate, *, continuation: bool) -> None:
    """Raise the SessionError that forbids input at this gate, if any.

    `continuation` is True for answers/cancellations of the standing
    decision, which are the only input a `decision` gate admits."""
    if gate == "lostOwnership":
        raise SessionError("lostOwnership", "another owner controls this game; it is read-only here")
    if gate == "recoveryRequired":
        raise SessionError("recoveryRequired",
                           "the engine failed during an operation whose effect is unknown; "
                           "observe the game, nothing more can be sent to this engine")
    if gate == "ended":
        raise SessionError("gameEnded", "the game has ended; observe shows the result")
    if gate == "decision" and not continuation:
        raise SessionError("decisionStanding",
                           "a decision is standing: answer or cancel it with respond first")
    if gate == "ready" and continuation:
        raise SessionError("noDecision", "no decision is standing", field="decisionId")
