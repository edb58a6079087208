"""base.py - the contract between the harness and an agent.

An agent is handed one `AgentGame` per suite game: the MCP endpoint (the
harness's proxy), the game's sessionId and control token, the budgets, and a
private working directory. It plays until the game ends, a budget is spent
(the proxy then refuses every call; `game.meter.done` is set), or it stops by
itself, and returns its own accounting (tokens, cost) in an `AgentReport`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..proxy import Meter


@dataclass
class AgentGame:
    index: int
    role: str
    url: str
    session_id: str
    control_token: str
    meter: Meter
    max_calls: int | None
    max_turns: int | None
    max_tokens: int | None
    workdir: Path


@dataclass
class AgentReport:
    tokens_in: int | None = None
    tokens_out: int | None = None
    cost_usd: float | None = None
    stopped: str | None = None  # why the agent stopped on its own ("maxTokens", "error: ...", "gave up")
    notes: dict[str, Any] = field(default_factory=dict)


class Agent(Protocol):
    harness: str  # the harness label the games are created with (harness_name)
    model: str  # the model label (model_name)
    sealed: bool  # True when the agent reached the game only through the harness's HTTP endpoint

    async def play(self, game: AgentGame) -> AgentReport: ...
