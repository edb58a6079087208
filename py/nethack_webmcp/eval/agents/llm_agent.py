"""llm_agent.py - the reference LLM loop: the declared tools, a bounded context, token and cost accounting.

Each turn the model sees the system prompt (prompts/system.md, or
--system-prompt FILE), the task (its sessionId and budgets), and only the
last K exchanges (`--context`, default 16 as in BALROG): a game of
thousands of calls costs the same per turn as its tenth. Its tool calls are
made through the harness's MCP endpoint like any other agent's; the loop
adds the sessionId and the control token itself (the token is not even in
the model's tool schemas, so it never enters a transcript), and answers
each call with the frame's rendered text. Tokens are the API's own usage
counts; cost comes from the price table (prices.json, or --prices FILE).
The loop stops when the game ends, a call or turn budget is spent (the
proxy's `done`), the token budget is spent, or the model stops calling
tools three turns running.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..client import ToolClient
from .base import AgentGame, AgentReport
from .providers import Exchange, Provider, model_tools

PROMPT_FILE = Path(__file__).resolve().parents[1] / "prompts" / "system.md"
PRICES_FILE = Path(__file__).resolve().parents[1] / "prices.json"
HIDDEN = {"controlToken"}
IDLE_TURNS = 3


def price_of(model: str, prices: Path = PRICES_FILE) -> dict[str, float] | None:
    """USD per million tokens {"input", "output"} for a model, or None when the table does not list it."""
    table = json.loads(prices.read_text(encoding="utf-8")).get("models", {})
    entry = table.get(model)
    return {"input": float(entry["input"]), "output": float(entry["output"])} if entry else None


def cost(model: str, tokens_in: int, tokens_out: int, prices: Path = PRICES_FILE) -> float | None:
    price = price_of(model, prices)
    if price is None:
        return None
    return (tokens_in * price["input"] + tokens_out * price["output"]) / 1_000_000


class LlmAgent:
    sealed = True

    def __init__(self, provider: Provider, model: str, *, context: int = 16, system_prompt: Path = PROMPT_FILE,
                 prices: Path = PRICES_FILE) -> None:  # fmt: skip
        self.provider = provider
        self.model = model
        self.harness = f"llm-{provider.name}"
        self.context = context
        self.system = system_prompt.read_text(encoding="utf-8")
        self.prices = prices
        self.transcripts: list[list[Exchange]] = []  # every game's whole history (tests read it)

    def task(self, game: AgentGame) -> str:
        budgets = ", ".join(
            f"{name} {value}" for name, value in (("calls", game.max_calls), ("turns", game.max_turns)) if value
        )
        return (
            f"Your game is sessionId {game.session_id} ({game.role}); it has already started: look at it with "
            f"observe first. Budget: {budgets or 'none'}."
        )

    async def play(self, game: AgentGame) -> AgentReport:
        history: list[Exchange] = []
        self.transcripts.append(history)
        tokens_in = tokens_out = 0
        idle = 0
        stopped = None
        async with ToolClient(game.url) as client:
            listed = await client.tools()
            sessioned = {t["name"] for t in listed if "sessionId" in (t.get("inputSchema") or {}).get("properties", {})}
            tools = model_tools(listed, HIDDEN)
            task = self.task(game)
            while not game.meter.done.is_set():
                if game.max_tokens is not None and tokens_in + tokens_out >= game.max_tokens:
                    stopped = "maxTokens"
                    break
                turn = await self.provider.turn(self.system, task, history[-self.context :], tools)
                tokens_in += turn.tokens_in
                tokens_out += turn.tokens_out
                exchange = Exchange(turn.text, turn.calls)
                for call in turn.calls:
                    arguments = dict(call.arguments)
                    if call.name in sessioned:
                        arguments["sessionId"] = game.session_id
                    arguments["controlToken"] = game.control_token
                    frame = await client.call(call.name, arguments)
                    exchange.results.append(frame.get("text") or json.dumps(frame))
                history.append(exchange)
                idle = 0 if turn.calls else idle + 1
                if idle >= IDLE_TURNS:
                    stopped = "noToolCalls"
                    break
        return AgentReport(tokens_in, tokens_out, cost(self.model, tokens_in, tokens_out, self.prices), stopped)
