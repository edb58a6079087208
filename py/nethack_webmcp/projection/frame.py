"""frame.py - the DecisionFrame v2 envelope every game-scoped tool returns.

    {version:2, basis, control, outcome, scene, decision, events,
     result?, error?, diagnostics}

`basis` pins the frame to a session, revision, view, level and turn;
`control.gate` says what input is allowed now; `scene` is the compact
snapshot (plus `world` on observe); `decision` carries its own reply
syntax. There are no legacy top-level state/observation/messages fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..session import Session, SessionError
from . import decision as decision_view
from . import outcome as outcome_view
from . import scene as scene_view

VERSION = 2


def basis(session: Session) -> dict[str, Any]:
    obs = session.observation
    return {
        "sessionId": session.session_id,
        "revision": session.revision,
        "viewId": session.view_id,
        "levelId": obs.get("levelId"),
        "turn": obs.get("turn"),
    }


def build(
    session: Session | None,
    *,
    outcome: dict[str, Any] | None = None,
    events: Sequence[dict[str, Any]] = (),
    result: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    include_scene: bool = True,
    include_world: bool = False,
    diagnostics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A frame for the session's current state (or a sessionless frame)."""
    frame: dict[str, Any] = {
        "version": VERSION,
        "basis": None,
        "control": None,
        "outcome": outcome,
        "scene": None,
        "decision": None,
        "events": list(events),
    }
    if session is not None:
        frame["basis"] = basis(session)
        frame["control"] = {"gate": session.gate}
        if include_scene:
            scene = scene_view.build(
                session.metadata, session.observation, session.level(), session.state.end, include_world
            )
            if session.recovery_required:
                # The engine is gone: this is the last scene it reported.
                scene["perception"] = dict.fromkeys(scene["perception"], "lastKnown")
            frame["scene"] = scene
        if session.gate == "decision":
            frame["decision"] = decision_view.project(
                session.decision, session.session_id, session.observation.get("inventory")
            )
    if result is not None:
        frame["result"] = result
    if error is not None:
        frame["error"] = error
    frame["diagnostics"] = diagnostics or {}
    return frame


def error_frame(
    session: Session | None, exc: SessionError, *, mutation: bool, include_scene: bool = True
) -> dict[str, Any]:
    """A rejection: nothing was sent, the revision is unchanged. Mutations
    carry a `rejected` outcome; the current scene helps the caller re-plan."""
    return build(
        session,
        outcome=outcome_view.rejected() if mutation else None,
        error=exc.as_error(),
        include_scene=include_scene and session is not None,
    )


def diagnosed(session: Session | None, frame: dict[str, Any]) -> dict[str, Any]:
    """Add the session's current diagnostics to a new frame. A store write that
    failed after the frame was built (its receipt) still closes the gate the
    caller sees: storage diagnostics override the frame's gate, and a
    question is not offered while its storage state is unknown."""
    if session is None or frame.get("basis") is None:
        return frame
    found = session.diagnostics()
    if not found:
        return frame
    frame = {**frame, "diagnostics": {**found, **(frame.get("diagnostics") or {})}}
    if frame.get("control") is not None and frame["control"].get("gate") != session.gate:
        frame["control"] = {**frame["control"], "gate": session.gate}
        if session.gate != "decision":
            frame["decision"] = None
    return frame


def resumed(session: Session, durability: str, *, taken_over: bool = False) -> dict[str, Any]:
    """The frame of a game just loaded by resume (`session resume`, or the page's
    take-over of a game another tab owned: `takenOver`)."""
    result: dict[str, Any] = {
        "kind": "session",
        "action": "resumed",
        "session": session.agent_metadata(),
        "owner": not session.lost_ownership,
        **({"takenOver": True} if taken_over else {}),
        "durability": durability,
    }
    return build(session, result=result)
