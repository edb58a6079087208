"""gate.py - the control gate: who may send what input now.

The gate is derived from session state, in priority order: a lost owner
or required recovery outrank everything (a diagnostic that needs resume
takes priority over any question), an operation still running (past its
caller's deadline) admits nothing else until it reaches its boundary
(`busy`), an ended game accepts no input, a standing decision accepts only
its answer or cancellation, else ready.
Recovery is required after an engine failure (the effect of the last
input is unknown until a replay verifies it) and after a failed store
write (nothing may be sent until the write is durable or verified).
"""

from __future__ import annotations

from typing import Literal

from .errors import SessionError

Gate = Literal["ready", "decision", "recoveryRequired", "lostOwnership", "ended", "busy"]


def gate_of(
    *,
    lost_ownership: bool,
    recovery_required: bool,
    ended: bool,
    decision_standing: bool,
    storage_failed: bool = False,
    busy: bool = False,
) -> Gate:
    if lost_ownership:
        return "lostOwnership"
    if recovery_required or storage_failed:
        return "recoveryRequired"
    if busy:
        return "busy"
    if ended:
        return "ended"
    if decision_standing:
        return "decision"
    return "ready"


def require_open(gate: Gate, *, continuation: bool, storage_failed: bool = False) -> None:
    """Raise the SessionError that forbids input at this gate, if any.

    `continuation` is True for answers/cancellations of the standing
    decision, which are the only input a `decision` gate admits."""
    if gate == "lostOwnership":
        raise SessionError(
            "lostOwnership",
            "another process owns this game; it is read-only here "
            "(observe follows it; session resume takes it over once the owner is gone)",
        )
    if gate == "recoveryRequired":
        if storage_failed:
            raise SessionError(
                "recoveryRequired",
                "the game's journal could not be written; no input is sent until it is: "
                "observe the game to retry the write and reopen the gate",
            )
        raise SessionError(
            "recoveryRequired",
            "an input's effect is unknown (its engine failed or its host stopped before the "
            "result was recorded); observe the game: it verifies what happened by replaying "
            "the journal, never by sending the input again",
        )
    if gate == "busy":
        raise SessionError(
            "busy",
            "an earlier operation of this game is still running; nothing was sent: "
            "observe with its operationId reports it when done",
        )
    if gate == "ended":
        raise SessionError("gameEnded", "the game has ended; observe shows the result")
    if gate == "decision" and not continuation:
        raise SessionError("decisionStanding", "a decision is standing: answer or cancel it with respond first")
    if gate == "ready" and continuation:
        raise SessionError("noDecision", "no decision is standing", field="decisionId")
