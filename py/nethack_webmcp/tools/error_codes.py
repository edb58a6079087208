"""error_codes.py - the error codes a client recovers from by reading the game again.

Every error frame says nothing reached the game (docs/AGENT_PLAY.md). For
these codes the remedy is the same: the game or the view moved on, or a
target or route was not what the caller thought, so an `observe` and a new
decision recover; the rest (invalid arguments, an ended or closed game, a
busy operation, storage failures) need something else. The build exports
this list in vocabulary.json, and the page's autopilot recovers from exactly
these (webmcp/autopilot/autopilot.js). tests/python/test_vocabulary_copies.py
holds each code to one the package really raises.
"""

from __future__ import annotations

from typing import Final

RECOVERABLE: Final = (
    "staleView",
    "staleRevision",
    "decisionStanding",
    "noDecision",
    "decisionMismatch",
    "notFound",
    "ambiguous",
    "notAdjacent",
    "noRoute",
    "stepFailed",
    "blocked",
    "targetOccupied",
    "invalidTarget",
)
