"""providers.py - one model turn through the official SDKs (`anthropic`, `openai`), in one neutral shape.

The loop (llm_agent.py) keeps a provider-neutral history of exchanges; each
provider renders it into its own message format, translates the server's
declared tools into its tool format, and reads the tool calls and the token
usage back from the API's answer (Anthropic: `usage.input_tokens` plus the
cache counts, `output_tokens`; OpenAI and compatible servers:
`usage.prompt_tokens`, `usage.completion_tokens`). `http_client` lets a
test hand the SDK an httpx2 client whose transport replays recorded answers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx2


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class Turn:
    text: str
    calls: list[ToolCall]
    tokens_in: int
    tokens_out: int


@dataclass
class Exchange:
    """One model turn and the answers to its tool calls (same order)."""

    text: str
    calls: list[ToolCall]
    results: list[str] = field(default_factory=list)


NUDGE = "Call one of the tools to go on playing."


class Provider(Protocol):
    name: str

    async def turn(self, system: str, task: str, history: list[Exchange], tools: list[dict[str, Any]]) -> Turn: ...


def model_tools(listed: list[dict[str, Any]], hidden: set[str]) -> list[dict[str, Any]]:
    """The declared tools as the model sees them: the loop's own arguments (controlToken) left out."""
    out = []
    for tool in listed:
        schema = json.loads(json.dumps(tool.get("inputSchema") or {"type": "object"}))
        for key in hidden:
            (schema.get("properties") or {}).pop(key, None)
            if key in schema.get("required", []):
                schema["required"] = [r for r in schema["required"] if r != key]
        out.append({"name": tool["name"], "description": tool.get("description", ""), "schema": schema})
    return out


class AnthropicProvider:
    name = "anthropic"

    def __init__(self, model: str, *, api_key: str | None = None, base_url: str | None = None,
                 http_client: httpx2.AsyncClient | None = None, max_tokens: int = 1024) -> None:  # fmt: skip
        import anthropic

        self.model = model
        self.max_tokens = max_tokens
        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, http_client=http_client)

    @staticmethod
    def messages(task: str, history: list[Exchange]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "user", "content": task}]
        for exchange in history:
            content: list[dict[str, Any]] = [{"type": "text", "text": exchange.text}] if exchange.text else []
            content += [{"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in exchange.calls]
            out.append({"role": "assistant", "content": content or [{"type": "text", "text": "..."}]})
            if exchange.calls:
                results = [
                    {"type": "tool_result", "tool_use_id": c.id, "content": r}
                    for c, r in zip(exchange.calls, exchange.results, strict=True)
                ]
                out.append({"role": "user", "content": results})
            else:
                out.append({"role": "user", "content": NUDGE})
        return out

    async def turn(self, system: str, task: str, history: list[Exchange], tools: list[dict[str, Any]]) -> Turn:
        response = await self.client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            system=system,
            messages=self.messages(task, history),  # type: ignore[arg-type]
            tools=[{"name": t["name"], "description": t["description"], "input_schema": t["schema"]} for t in tools],
        )
        text = "".join(getattr(block, "text", "") for block in response.content if block.type == "text")
        calls = [
            ToolCall(block.id, block.name, dict(block.input)) for block in response.content if block.type == "tool_use"
        ]
        usage = response.usage
        tokens_in = usage.input_tokens + (usage.cache_creation_input_tokens or 0) + (usage.cache_read_input_tokens or 0)
        return Turn(text, calls, tokens_in, usage.output_tokens)


class OpenAIProvider:
    name = "openai"

    def __init__(self, model: str, *, api_key: str | None = None, base_url: str | None = None,
                 http_client: httpx2.AsyncClient | None = None) -> None:  # fmt: skip
        import openai

        self.model = model
        self.client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, http_client=http_client)

    @staticmethod
    def messages(system: str, task: str, history: list[Exchange]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": task}]
        for exchange in history:
            message: dict[str, Any] = {"role": "assistant", "content": exchange.text or None}
            if exchange.calls:
                message["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                    for c in exchange.calls
                ]
            out.append(message)
            if exchange.calls:
                out += [
                    {"role": "tool", "tool_call_id": c.id, "content": r}
                    for c, r in zip(exchange.calls, exchange.results, strict=True)
                ]
            else:
                out.append({"role": "user", "content": NUDGE})
        return out

    async def turn(self, system: str, task: str, history: list[Exchange], tools: list[dict[str, Any]]) -> Turn:
        response = await self.client.chat.completions.create(
            model=self.model,
            messages=self.messages(system, task, history),  # type: ignore[arg-type]
            tools=[
                {
                    "type": "function",
                    "function": {"name": t["name"], "description": t["description"], "parameters": t["schema"]},
                }
                for t in tools
            ],  # fmt: skip
        )
        message = response.choices[0].message
        calls = []
        for call in message.tool_calls or []:
            try:
                arguments = json.loads(call.function.arguments or "{}")  # type: ignore[union-attr]
            except ValueError:
                arguments = {"_unparsed": call.function.arguments}  # type: ignore[union-attr]
            calls.append(ToolCall(call.id, call.function.name, arguments if isinstance(arguments, dict) else {}))  # type: ignore[union-attr]
        usage = response.usage
        return Turn(message.content or "", calls, usage.prompt_tokens if usage else 0,
                    usage.completion_tokens if usage else 0)  # fmt: skip


def provider(name: str, model: str, *, base_url: str | None = None, http_client: httpx2.AsyncClient | None = None,
             api_key: str | None = None) -> Provider:  # fmt: skip
    if name == "anthropic":
        return AnthropicProvider(model, base_url=base_url, http_client=http_client, api_key=api_key)
    if name == "openai":
        return OpenAIProvider(model, base_url=base_url, http_client=http_client, api_key=api_key)
    raise ValueError(f"--provider must be anthropic or openai, not {name!r}")
