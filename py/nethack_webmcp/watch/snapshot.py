"""snapshot.py - the read-only spectator snapshot of one loaded game.

Built from the session's latest known state only: nothing is sent to the
engine and nothing in the session changes, so watching can never advance a
game. The browser worker (worker.spectate) and the native server's board
(board.py) both publish this shape, and the page's spectator renders it.
"""

from __future__ import annotations

from typing import Any

from ..projection import decision as decision_view
from ..projection.world import level_rows
from ..session import Session

OBSERVATION_FIELDS = (
    "turn",
    "levelId",
    "dungeon",
    "depth",
    "levelLabel",
    "position",
    "vitals",
    "inventoryKnown",
    "inventory",
    "here",
    "recentMessages",
)


def owner(session: Session) -> bool:
    """Whether this host owns the game (another owner took it: observer)."""
    return session.gate != "lostOwnership"


def spectator_snapshot(session: Session) -> dict[str, Any]:
    """Identity, revision, gate, observation, map (marks, colours, kinds and
    remembered features: what the window port was shown, which the tiles
    view draws from), the creatures shown (their displayed appearance),
    standing decision, end, ownership and storage diagnostics."""
    observation = session.observation
    level = session.level()
    rows = level_rows(level)  # the full rows-v1 layers (the frame sends spans: projection/world.py)
    return {
        "sessionId": session.session_id,
        "revision": session.revision,
        "viewId": session.view_id,
        "gate": session.gate,
        "session": session.agent_metadata(),  # a live game's seed is not shown (spectators included)
        "observation": {key: observation[key] for key in OBSERVATION_FIELDS if key in observation},
        "map": {"rows": [{key: row[key] for key in ("y", "marks", "colors", "kinds", "features")} for row in rows]},
        "creatures": [
            {"x": x, "y": y, "appearance": entity.get("appearance")}
            for (x, y), entity in sorted(level.entities.items())
            if entity.get("appearance")
        ],
        "decision": decision_view.project(session.decision, session.session_id, observation.get("inventory"))
        if session.gate == "decision"
        else None,
        "end": session.state.end,
        "owner": owner(session),
        "diagnostics": {
            key: value
            for key, value in session.diagnostics(consume=False).items()
            if key in ("storage", "ownership", "recovery")
        },
    }
