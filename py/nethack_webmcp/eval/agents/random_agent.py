"""random_agent.py - the floor: random well-formed calls to the tools the server declares.

Every call picks a tool among those the server lists (read at run time, so
a tool added to the server is played too) except `session` (the game is
given) and `help`, then an action from that tool's own `action`/`mode`/
`query` enum, and fills the arguments from the schema: the binding fields
(sessionId, controlToken, viewId, expectedRevision) from the latest frame,
an inventory itemId, a random direction or nearby position, a small
integer within the declared bounds. A standing decision is answered with
one of its own options (or cancelled). `quit` is never chosen: it would
end the game in two calls and measure nothing. Seeded per game, so a run
is repeatable.
"""

from __future__ import annotations

import random
from typing import Any

from ..client import ToolClient
from .base import AgentGame, AgentReport

SKIPPED_TOOLS = {"session", "help"}
SKIPPED_ACTIONS = {"quit"}
SELECTORS = ("action", "mode", "query")


class RandomAgent:
    harness = "random"
    model = "random"
    sealed = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    async def play(self, game: AgentGame) -> AgentReport:
        rng = random.Random(f"{self.seed}/{game.index}")
        binding = {"sessionId": game.session_id, "controlToken": game.control_token}
        async with ToolClient(game.url) as client:
            tools = [t for t in await client.tools() if t["name"] not in SKIPPED_TOOLS]
            frame = await client.call("observe", binding)
            while not game.meter.done.is_set():
                name, arguments = self.choose(rng, tools, frame, binding)
                reply = await client.call(name, arguments)
                # a query's or a refusal's frame has no scene: look again before the next choice
                frame = reply if reply.get("scene") else await client.call("observe", binding)
        return AgentReport()

    def choose(
        self, rng: random.Random, tools: list[dict[str, Any]], frame: dict[str, Any], binding: dict[str, str]
    ) -> tuple[str, dict[str, Any]]:
        decision = frame.get("decision")
        if decision:
            return "respond", {**_answer(rng, decision), "controlToken": binding["controlToken"]}
        tool = rng.choice(tools)
        schema = tool.get("inputSchema") or {}
        properties: dict[str, Any] = schema.get("properties") or {}
        arguments: dict[str, Any] = {}
        for key in SELECTORS:
            choices = [v for v in (properties.get(key, {}).get("enum") or []) if v not in SKIPPED_ACTIONS]
            if choices:
                arguments[key] = rng.choice(choices)
        basis = frame.get("basis") or {}
        for key, value in (("viewId", basis.get("viewId")), ("expectedRevision", basis.get("revision"))):
            if key in properties and value is not None and rng.random() < 0.9:
                arguments[key] = value
        for key, spec in properties.items():
            if key in arguments or key in binding or key in ("viewId", "expectedRevision", "requestId"):
                continue
            if key in schema.get("required", []) or rng.random() < 0.3:
                value = _value(rng, key, spec, frame)
                if value is not None:
                    arguments[key] = value
        return tool["name"], {
            **arguments,
            **{k: v for k, v in binding.items() if k in properties or k == "controlToken"},
        }


def _answer(rng: random.Random, decision: dict[str, Any]) -> dict[str, Any]:
    reply = dict((decision.get("reply") or {}).get("arguments") or {})
    options = [o for o in decision.get("options") or [] if isinstance(o, dict) and "value" in o]
    cancel = (decision.get("cancel") or {}).get("arguments")
    schema = (decision.get("reply") or {}).get("valueSchema") or {}
    if options and rng.random() < 0.8:
        return {**reply, "value": rng.choice(options)["value"]}
    if schema.get("type") == "boolean":
        return {**reply, "value": rng.random() < 0.5}
    if cancel:
        return dict(cancel)
    return {**reply, "value": True}


def _value(rng: random.Random, key: str, spec: dict[str, Any], frame: dict[str, Any]) -> Any:
    """A random value of the declared shape, from what the frame shows where it can."""
    scene = frame.get("scene") or {}
    if key == "itemId":
        items = [i["id"] for i in scene.get("inventory") or [] if isinstance(i, dict) and "id" in i]
        return rng.choice(items) if items else None
    if spec.get("enum"):
        return rng.choice(spec["enum"])
    kind = spec.get("type")
    if kind == "object":
        nested: dict[str, Any] = spec.get("properties") or {}
        if "direction" in nested:
            return {"direction": rng.choice(nested["direction"]["enum"])}
        if "x" in nested and "y" in nested:
            here = ((scene.get("self") or {}).get("position")) or {"x": 40, "y": 10}
            return {"x": here["x"] + rng.randint(-5, 5), "y": here["y"] + rng.randint(-3, 3)}
        return None
    if kind == "integer":
        low = int(spec.get("minimum", 1))
        return rng.randint(low, min(int(spec.get("maximum", low + 4)), low + 4))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string" and key in ("symbol",):
        marks = list(((scene.get("map") or {}).get("legend") or {}).keys())
        return rng.choice(marks) if marks else None
    return None
