"""errors.py - typed rejections raised before any engine input.

A SessionError always means nothing was sent to the engine (or the engine
itself rejected the request, which also sends no input): the revision is
unchanged. The projection turns it into a frame `error {code, message}`.
"""

from __future__ import annotations

from typing import Any


class SessionError(Exception):
    """A rejection: `code` is a stable camelCase identifier for programs,
    `message` a sentence for people and models, `details` optional extra
    facts (e.g. `candidates` for an ambiguous target)."""

    def __init__(self, code: str, message: str, *, field: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.details = details

    def as_error(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            error["field"] = self.field
        error.update(self.details)
        return error


def busy(operation_id: str) -> SessionError:
    """An acting call while another operation of the game is running: nothing
    was sent and nothing journaled; the running one is reported by observe."""
    return SessionError(
        "busy",
        f"operation {operation_id} of this game is still running, so nothing was sent; "
        f"observe with operationId {operation_id} reports it when done, then act again",
        operationId=operation_id,
    )


def closed(session_id: str) -> SessionError:
    """A call naming a game that `session close` closed in this process."""
    return SessionError(
        "sessionClosed",
        f"game {session_id} was closed (session close); nothing was sent. "
        "Call session {action: resume} with its sessionId to load it again",
        field="sessionId",
        resume={"tool": "session", "arguments": {"action": "resume", "sessionId": session_id}},
    )
