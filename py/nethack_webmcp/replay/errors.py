"""errors.py - why a replay refuses: a typed error with a clear message."""

from __future__ import annotations

from ..session.errors import SessionError


class ReplayRefused(SessionError):
    """A replay that cannot show a verified frame: `journalTampered` (the
    journal no longer matches what a checkpoint was made from),
    `checkpointTampered` (a stored checkpoint fails its own digest),
    `replayDiverged` (the engine reached a boundary other than the recorded
    one: the frame is never shown), `moveOutOfRange`, `engineFailed`."""
