"""session - one Session per game, a GameRegistry for many games per process."""

from .errors import SessionError
from .registry import GameRegistry
from .session import Session, StepResult

__all__ = ["GameRegistry", "Session", "SessionError", "StepResult"]
