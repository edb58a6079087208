"""stepper.py - drives the real engine for Navigator tests: step() and view() over a driver Game.

This is the part of the session layer a leg needs, reduced to its minimum:
send one game.move, merge the observation into a WorldTracker, and report a
StepOutcome built by the package's own step_outcome(). Every request and
response is kept so a test can show exactly what happened.
"""

from __future__ import annotations

from typing import Any

from nethack_webmcp.navigation import (
    HeroState,
    LevelView,
    StepOutcome,
    WorldTracker,
    step_outcome,
)
from support.driver import Game


class DriverStepper:
    """Adapts one driver game to run_leg's step/view callables."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.tracker = WorldTracker()
        self.observation: dict[str, Any] = game.last["observation"]
        self.tracker.apply(self.observation)
        self.log: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        """Any gameplay request outside a leg (setting up a scene); merges its observation."""
        response = self.game.call(method, **params)
        self.log.append(({"method": method, **params}, response))
        if response.get("observation"):
            self.observation = response["observation"]
            self.tracker.apply(self.observation)
        return response

    async def step(self, direction: str) -> StepOutcome:
        """One ordinary move, as run_leg's step callable."""
        before = self.observation
        response = self.send("game.move", direction=direction)
        return step_outcome(before, response)

    def view(self) -> LevelView:
        """The merged current level, as run_leg's view callable."""
        return self.tracker.view()

    def hero_state(self) -> HeroState:
        """The hero's vitals now, as run_leg's start."""
        return HeroState.from_observation(self.observation)
