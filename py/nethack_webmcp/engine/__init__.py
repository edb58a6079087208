"""engine - hosts for the semantic driver: one async `request(dict) -> dict`."""

from .base import Engine, EngineClosed, EngineError

__all__ = ["Engine", "EngineClosed", "EngineError"]
