"""session - one Session per game, a GameRegistry for many games per process."""

from .errors import SessionError
from .registry import GameRegistry
from .session import Session, StepResult, state_hash

__all__ = ["GameRegistry", "Session", "SessionError", "StepResult", "state_hash"]
